/* A command that fails never writes the flag its host waits watch (core/wait.h): waits asleep on
 * it, or on work behind it, end with an error all the same. A queue holds a gate (a user event),
 * a 30 ms kernel and a kernel that faults, with a marker behind; threads wait on the fault's
 * event, on the marker, with clFinish and with a blocking read, and have long gone to sleep when
 * the gate opens (released: they spin, then sleep again) and when the fault comes (the polling
 * thread's query sees it). Every wait returns an error; one that does not return within 60 s
 * fails the test. The fault poisons the CUDA context for the process, so this runs alone. On the
 * fake driver every kernel takes FAKECUDA_LAUNCH_US and FAKECUDA_FAULT_FUNC=fault faults. */
#include "queue_kernels.h"
#include "wait_threads.h"

#define HANG_S 60

enum { WAITERS = 4 };

int main(void) {
    qt_setup();
    cl_kernel spin = qt_kernel("spin"), fault = qt_kernel("fault");
    cl_command_queue q = qt_queue(0);
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 64, NULL, &err);
    REQUIRE(buf);
    cl_event u = qt_user_event(), f = NULL;
    CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, 30000000, 1, &u, NULL));
    cl_ulong bad = 16; /* an unmapped device address */
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(fault, 0, sizeof bad, &bad));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, fault, 1, NULL, &one, &one, 0, NULL, &f));
    cl_event m = qt_marker(q, 0, NULL);
    waiter w[WAITERS];
    wt_start(&w[0], W_EVENT, q, f, NULL);
    wt_start(&w[1], W_EVENT, q, m, NULL);
    wt_start(&w[2], W_FINISH, q, NULL, NULL);
    wt_start(&w[3], W_READ, q, NULL, buf);
    usleep(20000);
    double opened = qt_now();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    for (int i = 0; i < WAITERS; i++) {
        if (!wt_join(&w[i], HANG_S)) {
            fprintf(stderr, "%s: no return %d s after the gate opened\n", wt_names[w[i].kind],
                    HANG_S);
            CHECK(!"the wait returned");
            return cv_test_report("wait_fault");
        }
        CHECK(w[i].result != CL_SUCCESS && w[i].result != 1);
        printf("%-15s returned %d, %.1f ms after the gate opened (and the 30 ms kernel began)\n",
               wt_names[w[i].kind], w[i].result, (w[i].end - opened) * 1e3);
    }
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w[0].result);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w[1].result);
    CHECK(qt_status(f) < 0);
    CHECK(qt_status(m) < 0);
    return cv_test_report("wait_fault");
}
