/* Replays of command buffers as profiled commands and in host waits (core/wait.h):
 *   - on a profiling queue, a replay behind a user event: QUEUED <= SUBMIT <= START <= END <=
 *     COMPLETE, START no earlier than the gate's opening, END - START at least the kernels'
 *     time (CUDA events around the graph launch, as for copies);
 *   - a thread blocked in clWaitForEvents on a replay whose graph waits for a host value sleeps
 *     (little CPU of its own) and returns soon after clSignalHostValue opened the gate, however
 *     long the gate stayed closed the round before (a gate's time is not the GPU's: no history
 *     predicts it);
 *   - waits on replays of four kernels and on one of those kernels alone, in turn, each return
 *     soon after their work: a replay's length is learnt under a key of its own.
 * With CULVERT_WAIT_POLL_US=0 (fake.command_buffer_wait_unpolled) no polling thread reads the
 * flags of sleeping waits, so the two ways of getting it wrong show: a replay's wait not marked
 * gated spins until the gate opens (its CPU), and a lone kernel's wait predicted from a replay's
 * length sleeps three kernels too long.
 * The kernel spins on %globaltimer (tests/gpu/queue_kernels.h) for 20 ms; on the fake driver
 * every launch, a graph's kernel nodes too, takes launch_us of its stream's time (set here).
 * Bounds are loose (a loaded machine must not fail them) and the figures are printed. */
#include "command_buffer_common.h" /* first: it reads CL/cl_ext.h itself */
#include "queue_kernels.h"
#include "wait_threads.h"

#include <stdlib.h>
#include <sys/resource.h>

#define KERNEL_MS 20
#define KERNELS   4
#define HANG_S    60

static cl_kernel spin;

/* n spin kernels of KERNEL_MS one after the other, behind a wait for gate >= 1 where gate. */
static cl_command_buffer_khr spins(cl_command_queue q, int n, cl_mem gate) {
    cl_ulong ns = KERNEL_MS * 1000000ull;
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(spin, 0, sizeof ns, &ns));
    cl_command_buffer_khr cb = cbt_new(q, 0);
    if (gate)
        CHECK_ERR(CL_SUCCESS, cbt.wait_value(cb, NULL, NULL, gate, 1, CL_HOST_VALUE_GEQ_CULVERT, 0,
                                             NULL, NULL, NULL));
    for (int i = 0; i < n; i++)
        CHECK_ERR(CL_SUCCESS,
                  cbt.ndrange(cb, NULL, NULL, spin, 1, NULL, &one, &one, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    return cb;
}

static void test_profiling(void) {
    enum { GATE_MS = 30 };
    cl_command_queue prof = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_command_buffer_khr cb = spins(prof, KERNELS, NULL);
    for (int round = 0; round < 2; round++) {
        cl_event gate = qt_user_event(), e = NULL;
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 1, &gate, &e));
        REQUIRE(e);
        CHECK_ERR(CL_SUCCESS, clFlush(prof));
        usleep(GATE_MS * 1000);
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
        cl_ulong t[5] = {0};
        for (int i = 0; i < 5; i++)
            CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i,
                                                          sizeof t[i], &t[i], NULL));
        CHECK(t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
        CHECK(t[2] - t[1] >= GATE_MS * 1000000ull * 9 / 10);
        CHECK(t[3] - t[2] >= KERNELS * KERNEL_MS * 1000000ull * 99 / 100);
        printf("replay of %d %d ms kernels behind a %d ms gate, profiled: SUBMIT - QUEUED %.3f ms, "
               "START - SUBMIT %.3f ms, END - START %.3f ms, COMPLETE - END %.3f ms\n",
               KERNELS, KERNEL_MS, GATE_MS, (double)(t[1] - t[0]) * 1e-6,
               (double)(t[2] - t[1]) * 1e-6, (double)(t[3] - t[2]) * 1e-6,
               (double)(t[4] - t[3]) * 1e-6);
        clReleaseEvent(e);
        clReleaseEvent(gate);
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(prof));
}

static double thread_cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* A waiter (wait_threads.h) that measures its own thread's CPU time. */
typedef struct cpu_waiter {
    waiter w;
    double start, cpu_s;
} cpu_waiter;

static void *cpu_waiter_main(void *arg) {
    cpu_waiter *c = arg;
    double c0 = thread_cpu_s();
    wt_main(&c->w);
    c->cpu_s = thread_cpu_s() - c0;
    return NULL;
}

static void test_gated_sleep(void) {
    static const int gate_ms[] = {100, 20, 60};
    cl_int err = CL_SUCCESS;
    cl_mem go = cbt.host_value(cbt_context, 0, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(go);
    cl_command_queue q = qt_queue(0);
    cl_command_buffer_khr cb = spins(q, 1, go);
    printf("a waiter on a replay gated by a host value returned after the signal (ms), its CPU:");
    for (size_t round = 0; round < sizeof gate_ms / sizeof gate_ms[0]; round++) {
        cpu_waiter c = {.w = {.kind = W_EVENT, .result = 1}, .start = qt_now()};
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, &c.w.ev));
        REQUIRE(c.w.ev);
        CHECK_ERR(CL_SUCCESS, clFlush(q));
        REQUIRE(pthread_create(&c.w.thread, NULL, cpu_waiter_main, &c) == 0);
        usleep(gate_ms[round] * 1000);
        CHECK(qt_status(c.w.ev) > CL_COMPLETE);
        double opened = qt_now();
        CHECK_ERR(CL_SUCCESS, cbt.signal(go, 1));
        if (!wt_join(&c.w, HANG_S)) {
            fprintf(stderr, "no return %d s after the signal (a lost wake-up)\n", HANG_S);
            CHECK(!"the wait returned");
            exit(cv_test_report("command_buffer_wait"));
        }
        CHECK_ERR(CL_SUCCESS, c.w.result);
        double after_ms = (c.w.end - opened) * 1e3, wall = c.w.end - c.start;
        /* The kernel behind the gate, then at most a few loaded-machine milliseconds. */
        CHECK(after_ms >= KERNEL_MS * 0.99);
        CHECK(after_ms < KERNEL_MS + 30);
        CHECK(c.cpu_s < 0.25 * wall);
        printf(" %.1f (%.0f %%)", after_ms, 100 * c.cpu_s / wall);
        CHECK(qt_status(c.w.ev) == CL_COMPLETE);
        clReleaseEvent(c.w.ev);
        CHECK_ERR(CL_SUCCESS, cbt.signal(go, 0));
    }
    printf("\n");
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    clReleaseMemObject(go);
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* How long after its work's length a wait on e returned (ms); e is released. */
static double wait_late_ms(cl_event e, double t0, double work_ms) {
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    double ms = (qt_now() - t0) * 1e3;
    CHECK(ms >= work_ms * 0.99);
    clReleaseEvent(e);
    return ms - work_ms;
}

static void test_history(void) {
    enum { ROUNDS = 7 };
    cl_command_queue q = qt_queue(0);
    cl_command_buffer_khr cb = spins(q, KERNELS, NULL);
    double late_cb[ROUNDS], late_k[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        cl_event e = NULL;
        double t0 = qt_now();
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, &e));
        REQUIRE(e);
        late_cb[r] = wait_late_ms(e, t0, KERNELS * KERNEL_MS);
        e = NULL;
        t0 = qt_now();
        CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, KERNEL_MS * 1000000ull, 0, NULL, &e));
        REQUIRE(e);
        late_k[r] = wait_late_ms(e, t0, KERNEL_MS);
    }
    printf("waits returned later than the work's length by (ms), replay | lone kernel:");
    for (int r = 0; r < ROUNDS; r++)
        printf(" %.1f | %.1f%s", late_cb[r], late_k[r], r + 1 < ROUNDS ? "," : "\n");
    /* The rounds after the first are predicted; the medians tell a misprediction (a lone
     * kernel's wait predicted from a replay returns about 60 ms late) from a loaded machine. */
    qsort(late_cb + 1, ROUNDS - 1, sizeof late_cb[0], cmp_double);
    qsort(late_k + 1, ROUNDS - 1, sizeof late_k[0], cmp_double);
    CHECK(late_cb[ROUNDS / 2] < (KERNELS - 1) * KERNEL_MS / 2);
    CHECK(late_k[ROUNDS / 2] < (KERNELS - 1) * KERNEL_MS / 2);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

int main(void) {
    cbt_setup();
    qt_platform = cbt_platform;
    qt_device = cbt_device;
    qt_context = cbt_context;
    if (cbt_fake)
        cbt_fake->launch_us = KERNEL_MS * 1000;
    spin = qt_kernel("spin");
    test_profiling();
    if (cbt.host_value && cbt.wait_value && cbt.signal)
        test_gated_sleep();
    test_history();
    clReleaseKernel(spin);
    cbt_teardown();
    return cv_test_report("command_buffer_wait");
}
