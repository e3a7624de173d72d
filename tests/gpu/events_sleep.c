/* Host waits on GPU work alone (core/wait.h): clFinish, clWaitForEvents and a blocking 4-byte
 * read behind a kernel longer than the spin return after the kernel, each round (the later
 * rounds predicted from the first); a wait on a kernel with another behind it returns; one and
 * eight threads blocked on long kernels use little CPU. The kernel spins on %globaltimer
 * (tests/gpu/queue_kernels.h): 5 ms, and 100 ms for the CPU figures; on the fake driver every
 * kernel takes FAKECUDA_LAUNCH_US of its stream's time.
 *
 * Bounds are loose (a loaded machine must not fail them) and the figures are printed: a wait
 * returns no earlier than its kernel's time after the enqueue and, on a GPU, within 5 ms of it;
 * one blocked thread uses under 50 % of a core, eight under 100 % together (the targets are 10
 * and 20 %: cv-bench measures them). */
#include "queue_kernels.h"
#include "wait_threads.h"
#include "fake_cuda.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static cl_kernel spin;
static double kernel_s, long_s; /* the short kernel's length, the CPU figures' kernel's */

static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

enum { ROUNDS = 6 };

/* A kernel, then the wait; how late the wait returns after the kernel's length, per round. */
static void test_after_kernel(wt_kind kind) {
    cl_command_queue q = qt_queue(0);
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 64, NULL, &err);
    REQUIRE(buf);
    double late[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        waiter w = {.kind = kind, .q = q, .buf = buf};
        double t0 = qt_now();
        CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, (cl_ulong)(kernel_s * 1e9), 0, NULL,
                                      kind == W_EVENT ? &w.ev : NULL));
        wt_main(&w); /* in this thread */
        CHECK_ERR(CL_SUCCESS, w.result);
        CHECK(w.end - t0 >= kernel_s * 0.99);
        late[r] = (w.end - t0 - kernel_s) * 1e6;
        if (w.ev) {
            CHECK(qt_status(w.ev) == CL_COMPLETE);
            clReleaseEvent(w.ev);
        }
    }
    printf("%.0f ms kernel, %-15s returned later than its length by (us):", kernel_s * 1e3,
           wt_names[kind]);
    for (int r = 0; r < ROUNDS; r++)
        printf(" %.0f", late[r]);
    qsort(late + 1, ROUNDS - 1, sizeof late[0], cmp_double);
    printf(" (median of the predicted rounds %.0f)\n", late[ROUNDS / 2]);
    CHECK(cv_test_fake_cuda() || late[ROUNDS / 2] < 5000);
    clReleaseMemObject(buf);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* A wait on a kernel with a second one behind it (no flag: the wait asks the driver). */
static void test_work_behind(void) {
    cl_command_queue q = qt_queue(0);
    cl_event a = NULL, b = NULL;
    double t0 = qt_now();
    CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, (cl_ulong)(kernel_s * 1e9), 0, NULL, &a));
    CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, (cl_ulong)(kernel_s * 1e9), 0, NULL, &b));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &a));
    double t = qt_now() - t0;
    CHECK(t >= kernel_s * 0.99);
    CHECK(qt_status(a) == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &b));
    printf("first of two %.0f ms kernels: clWaitForEvents returned after %.2f ms, the second "
           "after %.2f ms\n",
           kernel_s * 1e3, t * 1e3, (qt_now() - t0) * 1e3);
    clReleaseEvent(a);
    clReleaseEvent(b);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

enum { THREADS = 8 };

/* n threads, each in clFinish on its own queue's long kernel: the process's CPU time over the
 * wall time, in % of a core. */
static double cpu_while_blocked(int n) {
    cl_command_queue q[THREADS];
    waiter w[THREADS];
    for (int i = 0; i < n; i++) {
        q[i] = qt_queue(0);
        /* warm-up: the queue's flag and events exist, a short kernel seen */
        CHECK_ERR(CL_SUCCESS, qt_spin(q[i], spin, 1000000, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q[i]));
    }
    for (int i = 0; i < n; i++)
        CHECK_ERR(CL_SUCCESS, qt_spin(q[i], spin, (cl_ulong)(long_s * 1e9), 0, NULL, NULL));
    double c0 = cpu_s(), t0 = qt_now();
    for (int i = 0; i < n; i++)
        wt_start(&w[i], W_FINISH, q[i], NULL, NULL);
    for (int i = 0; i < n; i++) {
        pthread_join(w[i].thread, NULL);
        CHECK_ERR(CL_SUCCESS, w[i].result);
    }
    double c1 = cpu_s(), t1 = qt_now();
    CHECK(t1 - t0 >= long_s * 0.9);
    for (int i = 0; i < n; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q[i]));
    double pct = 100.0 * (c1 - c0) / (t1 - t0);
    printf("CPU of %d thread(s) in clFinish on %.0f ms kernels: %.1f %% of a core\n", n,
           long_s * 1e3, pct);
    return pct;
}

/* On the fake driver: a kernel that becomes longer (10, then 20 ms of stream time) behind the
 * same key. Its waits were predicted too short; a prediction too short must grow again, or every
 * later wait is ended by the polling thread (a period of 1/16 of the wait late: up to 1.25 ms
 * here) instead of by its own spin. The median of how late clFinish returned after the kernel's
 * end (the fake's clock) over the last 12 of 20 rounds of 20 ms is printed, beside the same over
 * the last 6 of 10 rounds of 10 ms: a figure, not a check (on this sandboxed 2-core machine the
 * fake's kernels and timed sleeps jitter by hundreds of microseconds under load, so that no bound
 * told the two apart reliably; idle, 24-41 us here, and 470-600 us for a prediction stuck short).
 */
static double late_median(cl_command_queue q, fakecuda_state *fake, unsigned us, int rounds,
                          int counted) {
    double v[32];
    fake->launch_us = us;
    for (int i = 0; i < rounds; i++) {
        CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, 1000000, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        double after_us =
            ((double)t.tv_sec * 1e9 + (double)t.tv_nsec - (double)fake->last_kernel_end_ns) / 1e3;
        if (i >= rounds - counted)
            v[i - (rounds - counted)] = after_us;
    }
    qsort(v, (size_t)counted, sizeof v[0], cmp_double);
    return v[counted / 2];
}

static void test_kernel_grows(void) {
    fakecuda_state *fake = fakecuda_find();
    if (!fake)
        return;
    cl_command_queue q = qt_queue(0);
    unsigned saved = fake->launch_us;
    double noise = late_median(q, fake, 10000, 10, 6);
    double late = late_median(q, fake, 20000, 20, 12);
    fake->launch_us = saved;
    printf("kernel grown from 10 to 20 ms: clFinish returned a median %.0f us after its end "
           "(before it grew: %.0f us)\n",
           late, noise);
    clReleaseCommandQueue(q);
}

int main(void) {
    qt_setup();
    spin = qt_kernel("spin");
    const char *fake_us = getenv("FAKECUDA_LAUNCH_US");
    kernel_s = cv_test_fake_cuda() && fake_us ? atof(fake_us) * 1e-6 : 0.005;
    long_s = cv_test_fake_cuda() && fake_us ? kernel_s : 0.1;
    for (int k = W_EVENT; k <= W_READ; k++)
        test_after_kernel((wt_kind)k);
    test_work_behind();
    test_kernel_grows();
    CHECK(cpu_while_blocked(1) < 50);
    CHECK(cpu_while_blocked(THREADS) < 100);
    clReleaseKernel(spin);
    clReleaseContext(qt_context);
    return cv_test_report("events_sleep");
}
