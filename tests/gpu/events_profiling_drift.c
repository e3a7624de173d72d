/* The profiling anchor is renewed: with a device clock simulated to run 10 % fast
 * (CULVERT_PROFILING_DRIFT_PPM) for over a second (an hour of a 30 ppm drift is 108 ms, less
 * than the 150 ms this builds up), timestamps stay within a fraction of a millisecond of
 * clGetHostTimer because the anchor is renewed every 2 ms (CULVERT_PROFILING_ANCHOR_MS). With
 * no renewal the error would grow to about 150 ms. */
#include "queue_test.h"

int main(void) {
    setenv("CULVERT_PROFILING_DRIFT_PPM", "100000", 1);
    setenv("CULVERT_PROFILING_ANCHOR_MS", "2", 1);
    qt_setup();
    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    double end = qt_now() + 1.5;
    cl_ulong worst = 0;
    int bad = 0, rounds = 0;
    while (qt_now() < end) {
        cl_ulong before = 0, after = 0, t[2] = {0};
        clGetHostTimer(qt_device, &before);
        cl_event m = qt_marker(q, 0, NULL);
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
        clGetHostTimer(qt_device, &after);
        CHECK_ERR(CL_SUCCESS,
                  clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_START, sizeof t[0], &t[0], NULL));
        CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_COMPLETE, sizeof t[1],
                                                      &t[1], NULL));
        /* allowed: 2 ms x 10 % of drift, plus the anchor's own error (microseconds on a GPU, more
         * on a loaded host); without renewal the error would reach 150 ms */
        cl_ulong slack = 1000000;
        if (t[0] + slack < before || t[1] > after + slack) {
            if (bad++ < 5)
                fprintf(stderr, "round %d: START - before %lld ns, COMPLETE - after %lld ns\n",
                        rounds, (long long)(t[0] - before), (long long)(t[1] - after));
        }
        cl_ulong off = t[1] > after ? t[1] - after : 0;
        if (off > worst)
            worst = off;
        clReleaseEvent(m);
        rounds++;
        usleep(1000);
    }
    printf("%d rounds, worst COMPLETE past the host clock: %llu ns\n", rounds,
           (unsigned long long)worst);
    CHECK(rounds > 100);
    CHECK(bad == 0);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    return cv_test_report("events_profiling_drift");
}
