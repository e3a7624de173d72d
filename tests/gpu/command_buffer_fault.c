/* A fault inside a replayed command buffer (a kernel node's store to an unmapped address) poisons
 * the device's CUDA context, as any faulting kernel does (tests/gpu/device_recovery.c): the
 * replay's event takes an error (a thread asleep in clWaitForEvents on it returns with it), a
 * replay of another command buffer and a new finalize answer CL_OUT_OF_RESOURCES, and releasing
 * the command buffers (their graphs went with the context) and the context lets the device
 * recover. Twice, then a command buffer of a fresh context replays with its results checked.
 * Each context's first replay (before the fault, and after each recovery) holds a kernel node and
 * runs on a profiling queue, its times checked: its graph lives in the CUDA context the device
 * works on, the primary one reset or one of culvert's own (printed; checked on the fake).
 *
 * Under the fake driver (fake.command_buffer_fault, FAKECUDA_FAULT_KERNEL=fault) a graph's kernel
 * node of `fault` poisons the context when its stream reaches it, after 30 ms of stream time (so
 * the waiter sleeps first); the fake aborts if culvert then uses a graph, stream, event or module
 * of the context after its reset, or makes a graph or kernel node in a context that does not own
 * the fake's resources (fake.command_buffer_fault_own_context: FAKECUDA_RESET_KEEPS_FAULT=1, the
 * recovery on a context of culvert's own). The fault poisons the CUDA context of the process:
 * this test runs alone. */
#include "command_buffer_common.h" /* first: it reads CL/cl_ext.h itself */
#include "queue_kernels.h"
#include "wait_threads.h"

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

/* A command buffer filling a with v, spinning a microsecond, then copying a to b, replayed on q
 * (a profiling queue); b and the second replay's times are checked. */
static void healthy_replay(cl_command_queue q, cl_uint v) {
    cl_mem a = buffer(), b = buffer();
    cl_kernel spin = qt_kernel("spin");
    cl_ulong ns = 1000;
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(spin, 0, sizeof ns, &ns));
    cl_command_buffer_khr cb = recorded(q);
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, a, &v, 4, 0, WORDS * 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, spin, 1, NULL, &one, &one, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy(cb, NULL, NULL, a, b, 0, 0, WORDS * 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, &e));
    REQUIRE(e);
    cl_uint out[WORDS];
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(cbt_all((const cl_int *)out, WORDS, (cl_int)v));
    cl_ulong t[5] = {0};
    for (int i = 0; i < 5; i++)
        CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i,
                                                      sizeof t[i], &t[i], NULL));
    CHECK(t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
    clReleaseEvent(e);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseKernel(spin);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

/* The CUDA context of the first context of the process: the device's primary context. */
static void *primary_cuctx;

/* A new context of the device; after a fault (recovery > 0) the device recovers here. */
static void new_context(unsigned recovery) {
    cl_int err = CL_SUCCESS;
    qt_context = clCreateContext(NULL, 1, &qt_device, NULL, NULL, &err);
    cv_test_skip_if_unrecoverable(qt_device, err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(qt_context);
    qt_check_recovered(recovery, &primary_cuctx);
}

static void fault_round(unsigned round) {
    atomic_int context_released = 0;
    new_context(round - 1);
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(qt_context, qt_context_gone,
                                                         (void *)&context_released));
    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
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

    /* The replay waits for a user event, so that its fault comes after the enqueue returned and
     * a thread is blocked on it. */
    cl_event gate = qt_user_event(), e = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, faulty, 1, &gate, &e));
    waiter w;
    wt_start(&w, W_EVENT, q, e, NULL);
    usleep(10000);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    REQUIRE(wt_join(&w, 60));
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w.result);
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
    if (cbt_fake)
        cbt_fake->launch_us = 30000;
    for (unsigned round = 1; round <= 2; round++)
        fault_round(round);
    /* After the second recovery command buffers work as on a fresh device. */
    new_context(2);
    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    healthy_replay(q, 77);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    return cv_test_report("command_buffer_fault");
}
