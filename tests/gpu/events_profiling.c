/* Profiling: QUEUED <= SUBMIT <= START <= END <= COMPLETE on the host clock of clGetHostTimer
 * and clGetDeviceAndHostTimer; what is not available. */
#include "queue_test.h"

static void times_of(cl_event e, cl_ulong t[5]) {
    for (int i = 0; i < 5; i++)
        CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i,
                                                      sizeof t[i], &t[i], NULL));
}

static cl_ulong host_now(void) {
    cl_ulong t = 0;
    CHECK_ERR(CL_SUCCESS, clGetHostTimer(qt_device, &t));
    return t;
}

static void test_order_and_clock(void) {
    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    for (int round = 0; round < 200; round++) {
        cl_ulong before = host_now();
        cl_event m = qt_marker(q, 0, NULL);
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
        cl_ulong after = host_now(), t[5];
        times_of(m, t);
        bool ok = before <= t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4] &&
                  t[4] <= after + 20000;
        CHECK(ok);
        if (!ok)
            fprintf(stderr,
                    "round %d: before %llu q %llu s %llu st %llu e %llu c %llu after %llu\n", round,
                    (unsigned long long)before, (unsigned long long)t[0], (unsigned long long)t[1],
                    (unsigned long long)t[2], (unsigned long long)t[3], (unsigned long long)t[4],
                    (unsigned long long)after);
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(m));
    }
    /* a gated marker starts when the gate opens, not before */
    cl_event u = qt_user_event();
    cl_event m = qt_marker(q, 1, &u);
    usleep(5000);
    cl_ulong t = 0;
    CHECK_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
              clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, sizeof t, &t, NULL));
    cl_ulong set_at = host_now();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
    cl_ulong after = host_now(), ts[5];
    times_of(m, ts);
    CHECK(ts[1] + 4000000 < set_at); /* submitted 5 ms before the release */
    CHECK(ts[2] + 20000 >= set_at);  /* started after it (anchor error allowed) */
    CHECK(ts[4] <= after + 20000);
    CHECK_ERR(CL_INVALID_VALUE, clGetEventProfilingInfo(m, 0x7777, sizeof t, &t, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, 4, &t, NULL));
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_END, 0, NULL, &size));
    CHECK(size == sizeof(cl_ulong));
    clReleaseEvent(m);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);

    cl_ulong dev = 0, host = 0;
    cl_ulong h0 = host_now();
    CHECK_ERR(CL_SUCCESS, clGetDeviceAndHostTimer(qt_device, &dev, &host));
    CHECK(host >= h0 && dev >= h0 && host - h0 < 1000000000ull);
    CHECK_ERR(CL_INVALID_VALUE, clGetDeviceAndHostTimer(qt_device, NULL, &host));
    CHECK_ERR(CL_INVALID_VALUE, clGetHostTimer(qt_device, NULL));
    size_t res = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(qt_device, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                                          sizeof res, &res, NULL));
    CHECK(res > 0 && res <= 1000);
}

static void test_not_available(void) {
    cl_command_queue q = qt_queue(0);
    cl_event m = qt_marker(q, 0, NULL);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
    cl_ulong t = 0;
    CHECK_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
              clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL));
    clReleaseEvent(m);
    clReleaseCommandQueue(q);
    /* an error status has no timestamps */
    q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_event u = qt_user_event();
    m = qt_marker(q, 1, &u);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, -3));
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &m));
    CHECK_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
              clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
    clReleaseEvent(m);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

int main(void) {
    qt_setup();
    test_order_and_clock();
    test_not_available();
    clReleaseContext(qt_context);
    return cv_test_report("events_profiling");
}
