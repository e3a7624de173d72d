/* The application releases a lost context and makes a new one at once: the new context must not
 * depend on how far culvert's own threads are with the lost one's teardown. After a fault, a
 * CL_COMPLETE callback of a command of the lost context runs on culvert's thread (the tracker)
 * and takes a while (300 ms), holding its event and so its queue and context; meanwhile the
 * application releases everything it made (the callback's event too) and calls clCreateContext
 * right away. It succeeds once the teardown is over (clCreateContext waits for released contexts
 * of a lost device to go, up to 2 s), never while the callback still runs. A second fault: while
 * the application still holds the lost context, clCreateContext fails with
 * CL_DEVICE_NOT_AVAILABLE at once (nothing would end that wait). A third: a host-value wait
 * (cl_culvert_host_value) whose wait list holds a user event that the application never sets
 * and releases: the wait, and the host value it holds, go with the event, and so does the
 * context. After each recovery a buffer goes to the device and back.
 *
 * Under the fake driver: fake.device_loss_release (FAKECUDA_FAULT_KERNEL=fault), and
 * fake.device_loss_release_slow_teardown, where each stream or event destroy of the poisoned
 * context takes 50 ms (FAKECUDA_LOST_TEARDOWN_US), so that the queue's teardown after the
 * callback, on culvert's thread, lasts a while too. The fault poisons the CUDA context of the
 * process: this test runs alone. */
#include "queue_kernels.h"

#include <stdatomic.h>

#define CALLBACK_MS 300

static atomic_int callback_started, callback_ended, context_released;

static void CL_CALLBACK slow_callback(cl_event e, cl_int status, void *data) {
    (void)e;
    (void)status;
    (void)data;
    atomic_store(&callback_started, 1);
    usleep(CALLBACK_MS * 1000);
    atomic_store(&callback_ended, 1);
}

static void CL_CALLBACK context_gone(cl_context c, void *data) {
    (void)c;
    (void)data;
    atomic_store(&context_released, 1);
}

static bool wait_flag(atomic_int *flag, double seconds) {
    double end = qt_now() + cv_test_limit_s(seconds);
    while (!atomic_load(flag) && qt_now() < end)
        usleep(1000);
    return atomic_load(flag) != 0;
}

/* A new context on the device; err receives clCreateContext's answer. */
static cl_context new_context(cl_int *err) {
    cl_context c = clCreateContext(NULL, 1, &qt_device, NULL, NULL, err);
    CHECK((c != NULL) == (*err == CL_SUCCESS));
    return c;
}

/* The context works: a buffer goes to the device and back. */
static void check_works(void) {
    cl_command_queue q = qt_queue(0);
    cl_uint out[256], back[256] = {0};
    for (cl_uint i = 0; i < 256; i++)
        out[i] = i * 7 + 1;
    cl_mem m = cv_test_buffer(qt_context, sizeof out, NULL);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CHECK(memcmp(out, back, sizeof out) == 0);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
}

/* Enqueues the fault on q behind the user event *gate (made here; set by run_fault), with its
 * event: it fails, and so does everything after it. */
static cl_event enqueue_fault(cl_command_queue q, cl_kernel fault, cl_event *gate) {
    cl_ulong bad = 16; /* an unmapped device address */
    size_t one = 1;
    cl_event f = NULL;
    *gate = qt_user_event();
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(fault, 0, sizeof bad, &bad));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, fault, 1, NULL, &one, &one, 1, gate, &f));
    REQUIRE(f);
    return f;
}

/* Opens the gate: the fault runs and its event fails. */
static void run_fault(cl_event gate, cl_event f) {
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &f));
    clReleaseEvent(gate);
}

/* The callback of a command of the lost context still runs when the application has released
 * everything: the new context comes once it ended and the lost context is gone. */
static void callback_round(void) {
    cl_int err = CL_SUCCESS;
    qt_context = new_context(&err);
    REQUIRE(qt_context);
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(qt_context, context_gone, NULL));
    cl_command_queue q = qt_queue(0);
    cl_kernel fault = qt_kernel("fault");
    cl_event gate = NULL, f = enqueue_fault(q, fault, &gate);
    cl_event m = qt_marker(q, 0, NULL);
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_COMPLETE, slow_callback, NULL));
    run_fault(gate, f);
    CHECK(wait_flag(&callback_started, 10.0));
    clReleaseEvent(m);
    clReleaseEvent(f);
    clReleaseKernel(fault);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    /* The callback still runs (it sleeps CALLBACK_MS): the lost context is not gone yet. */
    int ended_before = atomic_load(&callback_ended);
    double t0 = qt_now();
    qt_context = new_context(&err);
    double took = qt_now() - t0;
    printf("clCreateContext after the release: %d in %.1f ms (the callback %s)\n", (int)err,
           took * 1e3, ended_before ? "had ended before" : "ran meanwhile");
    cv_test_skip_if_unrecoverable(qt_device, err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK(atomic_load(&callback_ended) == 1);
    CHECK(atomic_load(&context_released) == 1);
    if (qt_context)
        check_works();
}

/* A host-value wait that waits for a user event never set: on a lost device it goes when the
 * application releases the event, and the context with it. */
static void never_set_round(void) {
    cl_int err = CL_SUCCESS;
    clCreateHostValue_fn create =
        (clCreateHostValue_fn)cv_test_ext_fn(qt_platform, "clCreateHostValue");
    clEnqueueWaitHostValue_fn enqueue_wait =
        (clEnqueueWaitHostValue_fn)cv_test_ext_fn(qt_platform, "clEnqueueWaitHostValue");
    REQUIRE(create && enqueue_wait);
    atomic_store(&context_released, 0);
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(qt_context, context_gone, NULL));
    cl_mem hv = create(qt_context, 0, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(hv);
    /* Built first: a module load waits until no gate of the device is closed. */
    cl_kernel fault = qt_kernel("fault");
    cl_command_queue waiting = qt_queue(0), q = qt_queue(0);
    cl_event never = qt_user_event();
    CHECK_ERR(CL_SUCCESS, enqueue_wait(waiting, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 1, &never, NULL));
    cl_event gate = NULL, f = enqueue_fault(q, fault, &gate);
    run_fault(gate, f);
    clReleaseEvent(f);
    clReleaseEvent(never);
    clReleaseMemObject(hv);
    clReleaseKernel(fault);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(waiting);
    clReleaseContext(qt_context);
    double t0 = qt_now();
    qt_context = new_context(&err);
    printf("clCreateContext after a host-value wait for a user event never set: %d in %.1f ms\n",
           (int)err, (qt_now() - t0) * 1e3);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK(atomic_load(&context_released) == 1);
    if (qt_context)
        check_works();
}

/* While the application holds the lost context, no new one: at once, not after a wait. */
static void held_round(void) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = qt_queue(0);
    cl_kernel fault = qt_kernel("fault");
    cl_event gate = NULL, f = enqueue_fault(q, fault, &gate);
    run_fault(gate, f);
    double t0 = qt_now();
    cl_context second = new_context(&err);
    double took = qt_now() - t0;
    printf("clCreateContext while the lost context is held: %d in %.1f ms\n", (int)err, took * 1e3);
    CHECK(second == NULL && err == CL_DEVICE_NOT_AVAILABLE);
    CHECK(took < cv_test_limit_s(1.0));
    clReleaseEvent(f);
    clReleaseKernel(fault);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    qt_context = new_context(&err);
    CHECK_ERR(CL_SUCCESS, err);
    if (qt_context)
        check_works();
}

int main(void) {
    qt_device = cv_test_gpu_device_or_skip(&qt_platform);
    callback_round();
    if (qt_context)
        held_round();
    if (qt_context)
        never_set_round();
    if (qt_context)
        clReleaseContext(qt_context);
    return cv_test_report("device_loss_release");
}
