/* The profiling clocks follow a drifting device clock: with the device's clock simulated to run
 * 10 % fast (CULVERT_PROFILING_DRIFT_PPM; an hour of a 30 ppm drift is 108 ms, less than the
 * 150 ms this builds up in 1.5 s) and anchors renewed every 2 ms (CULVERT_PROFILING_ANCHOR_MS),
 * timestamps stay on the host clock. Each round gates a device copy (timed by CUDA events) and a
 * 1 ms %globaltimer spin (timed by the kernel) behind a user event, enqueued 2 ms before the host
 * opens the gate at a known time T.
 *
 * Every round, whatever the anchors: QUEUED <= SUBMIT <= START <= END <= COMPLETE within [host
 * clock before the enqueue, host clock after the wait]. Over the rounds (medians, so that rounds
 * where this test's own thread was preempted around T do not count): the copy starts at T, the
 * kernel when the copy ends, and the kernel's END - START is its 1 ms. A clock that lost the
 * device (no renewal: 150 ms off by the end; no rate: 10 % of every interval) is pinned to the
 * bounds instead: 2 ms before T (SUBMIT) or 1 ms after it (the end of the wait). */
#include "queue_kernels.h"

#include <stdlib.h>

enum { MAX_ROUNDS = 1000 };

static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static long long median(long long *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_ll);
    return n ? v[n / 2] : 0;
}

static cl_ulong host_now(void) {
    cl_ulong t = 0;
    CHECK_ERR(CL_SUCCESS, clGetHostTimer(qt_device, &t));
    return t;
}

/* The five timestamps, checked in order and within [before, after]; false (printed) if not. */
static bool times_of(cl_event e, cl_ulong before, cl_ulong after, cl_ulong t[5], int round) {
    for (int j = 0; j < 5; j++)
        CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + j,
                                                      sizeof t[j], &t[j], NULL));
    bool ok = before <= t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4] &&
              t[4] <= after;
    if (!ok)
        fprintf(stderr, "round %d: before %llu q %llu s %llu st %llu e %llu c %llu after %llu\n",
                round, (unsigned long long)before, (unsigned long long)t[0],
                (unsigned long long)t[1], (unsigned long long)t[2], (unsigned long long)t[3],
                (unsigned long long)t[4], (unsigned long long)after);
    return ok;
}

int main(void) {
    setenv("CULVERT_PROFILING_DRIFT_PPM", "100000", 1);
    setenv("CULVERT_PROFILING_ANCHOR_MS", "2", 1);
    qt_setup();
    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_kernel k = qt_kernel("spin");
    const size_t bytes = 16 << 20;
    cl_int err = CL_SUCCESS;
    cl_mem a = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem b = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    static long long copy_start[MAX_ROUNDS], kernel_start[MAX_ROUNDS], kernel_len[MAX_ROUNDS];
    int rounds = 0, bad = 0;
    double end = qt_now() + 1.5;
    while (qt_now() < end && rounds < MAX_ROUNDS) {
        cl_ulong before = host_now();
        cl_event gate = qt_user_event(), copy = NULL, spin = NULL;
        CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, a, b, 0, 0, bytes, 1, &gate, &copy));
        CHECK_ERR(CL_SUCCESS, qt_spin(q, k, 1000000, 0, NULL, &spin));
        usleep(2000);
        cl_ulong t_open = host_now();
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &spin));
        cl_ulong after = host_now(), c[5], s[5];
        bool copy_ok = times_of(copy, before, after, c, rounds); /* both events read */
        bool spin_ok = times_of(spin, before, after, s, rounds);
        bool ok = copy_ok && spin_ok;
        CHECK(ok);
        bad += !ok;
        copy_start[rounds] = (long long)c[2] - (long long)t_open;
        kernel_start[rounds] = (long long)s[2] - (long long)c[3];
        kernel_len[rounds] = (long long)(s[3] - s[2]) - 1000000;
        clReleaseEvent(copy);
        clReleaseEvent(spin);
        clReleaseEvent(gate);
        rounds++;
    }
    long long m_copy = median(copy_start, rounds), m_kernel = median(kernel_start, rounds),
              m_len = median(kernel_len, rounds);
    printf("%d rounds (10 %% drift, anchors every 2 ms), medians: copy START - gate opened %lld "
           "ns, kernel START - copy END %lld ns, kernel END - START - 1 ms %lld ns\n",
           rounds, m_copy, m_kernel, m_len);
    CHECK(rounds > 100);
    CHECK(bad == 0);
    /* Microseconds on a GPU; a lost clock is pinned 2 ms early or 1 ms late. */
    CHECK(m_copy > -200000 && m_copy < 200000);
    CHECK(m_kernel > -200000 && m_kernel < 200000);
    /* 10 % of 1 ms is 100 us: the rate between the anchors takes the drift out */
    CHECK(m_len > -50000 && m_len < 50000);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    return cv_test_report("events_profiling_drift");
}
