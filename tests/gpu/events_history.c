/* The history of host waits (core/wait.h) keeps a kernel's prediction when a short wait behind
 * the same kernel follows each long one: rounds of a 20 ms kernel, clFinish, then a blocking
 * 4-byte read (whose wait begins after the kernel ended and sees only its own copy pending).
 * Such a read must not teach that the kernel is short.
 *
 * The test runs without the polling thread (CULVERT_WAIT_POLL_US=0, set before the first wait):
 * there a wait that no history predicts spins until the kernel ends, and a predicted one sleeps
 * until shortly before. So the CPU time of the thread in clFinish tells them apart: with the
 * prediction erased every other round, it spins (yielding) through half the kernels (28 % of a
 * core on the fake driver here); predicted, it spins only across each end (under 1 %; a loaded
 * machine's late timed sleeps widen that to at most an eighth). The first two rounds learn and
 * are not counted. The kernel spins on %globaltimer (tests/gpu/queue_kernels.h); on the fake driver
 * every launch takes FAKECUDA_LAUNCH_US of stream time (20 ms, tests/CMakeLists.txt). */
#include "queue_kernels.h"

#include <stdlib.h>
#include <sys/resource.h>

enum { ROUNDS = 10, LEARNING = 2 };

static double thread_cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int main(void) {
    setenv("CULVERT_WAIT_POLL_US", "0", 1);
    qt_setup();
    cl_kernel spin = qt_kernel("spin");
    cl_command_queue q = qt_queue(0);
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 64, NULL, &err);
    REQUIRE(buf);
    double cpu = 0, wall = 0;
    int out = 0;
    for (int r = 0; r < ROUNDS; r++) {
        CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, 20000000, 0, NULL, NULL));
        double c0 = thread_cpu_s(), t0 = qt_now();
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        double c1 = thread_cpu_s(), t1 = qt_now();
        CHECK(t1 - t0 >= 0.015);
        if (r >= LEARNING) {
            cpu += c1 - c0;
            wall += t1 - t0;
        }
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
    }
    double pct = wall > 0 ? 100.0 * cpu / wall : 100.0;
    printf("clFinish on 20 ms kernels, each followed by a blocking read: %.1f %% of a core over "
           "the predicted rounds\n",
           pct);
    CHECK(pct < 25);
    clReleaseMemObject(buf);
    clReleaseKernel(spin);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    clReleaseContext(qt_context);
    return cv_test_report("events_history");
}
