/* A fault inside a replayed command buffer (a kernel node's store to an unmapped address) poisons
 * the device's CUDA context, as any faulting kernel does (tests/gpu/device_recovery.c): the
 * replay's event takes an error, a replay of another command buffer and a new finalize answer
 * CL_OUT_OF_RESOURCES, and releasing the command buffers (their graphs went with the context)
 * and the context lets the device recover. Twice, then a command buffer of a fresh context
 * replays with its results checked.
 *
 * Under the fake driver (fake.command_buffer_fault, FAKECUDA_FAULT_KERNEL=fault) a graph's kernel
 * node of `fault` poisons the context when its stream reaches it; the fake aborts if culvert
 * then uses a graph, stream or event of the context after its reset. The fault poisons the CUDA
 * context of the process: this test runs alone. */
#include "command_buffer_common.h" /* first: it reads CL/cl_ext.h itself */
#include "queue_kernels.h"

#define WORDS 1024

static cl_mem buffer(void) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, WORDS * 4, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    return m;
}

static cl_command_buffer_khr recorded(cl_command_queue q) {
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = cbt.create(1, &q, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(cb);
    return cb;
}

/* A command buffer filling a with v then copying a to b, replayed; b is checked. */
static void healthy_replay(cl_command_queue q, cl_uint v) {
    cl_mem a = buffer(), b = buffer();
    cl_command_buffer_khr cb = recorded(q);
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, a, &v, 4, 0, WORDS * 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy(cb, NULL, NULL, a, b, 0, 0, WORDS * 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cl_uint out[WORDS];
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(cbt_all((const cl_int *)out, WORDS, (cl_int)v));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

static void new_context(void) {
    cl_int err = CL_SUCCESS;
    qt_context = clCreateContext(NULL, 1, &qt_device, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(qt_context);
}

static void fault_round(unsigned round) {
    atomic_int context_released = 0;
    new_context();
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(qt_context, qt_context_gone,
                                                         (void *)&context_released));
    cl_command_queue q = qt_queue(0);
    healthy_replay(q, round);

    /* Finalized before the fault: a copy, and a command buffer that faults between two copies. */
    cl_mem a = buffer(), b = buffer();
    cl_command_buffer_khr other = recorded(q), faulty = recorded(q);
    CHECK_ERR(CL_SUCCESS, cbt.copy(other, NULL, NULL, a, b, 0, 0, 64, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(other));
    cl_kernel fault = qt_kernel("fault");
    cl_ulong bad = 16; /* an unmapped device address */
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(fault, 0, sizeof bad, &bad));
    CHECK_ERR(CL_SUCCESS, cbt.copy(faulty, NULL, NULL, a, b, 0, 0, 64, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(faulty, NULL, NULL, fault, 1, NULL, &one, &one, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy(faulty, NULL, NULL, b, a, 0, 0, 64, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(faulty));
    cl_command_buffer_khr unfinished = recorded(q);
    CHECK_ERR(CL_SUCCESS, cbt.copy(unfinished, NULL, NULL, a, b, 0, 0, 64, 0, NULL, NULL, NULL));

    /* The replay waits for a user event, so that its fault comes after the enqueue returned. */
    cl_event gate = qt_user_event(), e = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, faulty, 1, &gate, &e));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &e));
    CHECK(qt_status(e) < 0);

    /* Lost: no replay starts, no graph is made. */
    CHECK_ERR(CL_OUT_OF_RESOURCES, cbt.enqueue(0, NULL, other, 0, NULL, NULL));
    CHECK_ERR(CL_OUT_OF_RESOURCES, cbt.finalize(unfinished));
    CHECK_ERR(CL_OUT_OF_RESOURCES, clFinish(q));

    /* The command buffers go, with graphs whose context is gone. */
    CHECK_ERR(CL_SUCCESS, cbt.release(unfinished));
    CHECK_ERR(CL_SUCCESS, cbt.release(faulty));
    CHECK_ERR(CL_SUCCESS, cbt.release(other));
    clReleaseEvent(e);
    clReleaseEvent(gate);
    clReleaseKernel(fault);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    CHECK(qt_wait_flag(&context_released, 5.0));
    printf("round %u: fault in a replay seen, context lost and released\n", round);
}

int main(void) {
    cbt_load();
    qt_device = cbt_device;
    qt_platform = cbt_platform;
    for (unsigned round = 1; round <= 2; round++)
        fault_round(round);
    /* After the second recovery command buffers work as on a fresh device. */
    new_context();
    cl_command_queue q = qt_queue(0);
    healthy_replay(q, 77);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    return cv_test_report("command_buffer_fault");
}
