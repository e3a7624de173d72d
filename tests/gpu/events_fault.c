/* A command that fails on the GPU: its event and its dependents get a negative status, and the
 * context's notify callback is called. The kernel runs on a profiling queue, so it is the timed
 * twin (docs/kernel-abi.md): its blocks never finish, and its command fails all the same, with no
 * profiling information. (The fault poisons the CUDA context for the process, so this test runs
 * alone.) */
#include "queue_kernels.h"

#include <stdatomic.h>

static atomic_int notified;

static void CL_CALLBACK notify(const char *info, const void *p, size_t cb, void *data) {
    (void)info;
    (void)p;
    (void)cb;
    (void)data;
    atomic_fetch_add(&notified, 1);
}

int main(void) {
    qt_device = cv_test_gpu_device_or_skip(&qt_platform);
    cl_int err = CL_SUCCESS;
    qt_context = clCreateContext(NULL, 1, &qt_device, notify, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_kernel k = qt_kernel("fault");
    cl_command_queue qa = qt_queue(CL_QUEUE_PROFILING_ENABLE), qb = qt_queue(0);
    cl_ulong bad = 16; /* an unmapped device address */
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof bad, &bad));
    size_t one = 1;
    cl_event f = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qa, k, 1, NULL, &one, &one, 0, NULL, &f));
    cl_event dep = qt_marker(qb, 1, &f);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &f));
    CHECK(qt_status(f) < 0);
    CHECK(qt_poll_final(dep, 2.0) < 0);
    cl_ulong t = 0;
    CHECK_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
              clGetEventProfilingInfo(f, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
    double end = qt_now() + 2.0;
    while (atomic_load(&notified) == 0 && qt_now() < end)
        usleep(1000);
    CHECK(atomic_load(&notified) > 0);
    printf("fault: status %d, dependent %d, notified %d times\n", qt_status(f), qt_status(dep),
           atomic_load(&notified));
    return cv_test_report("events_fault");
}
