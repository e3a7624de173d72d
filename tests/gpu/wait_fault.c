/* A command that fails never writes the flag its host waits watch (core/wait.h): waits asleep on
 * it, or on work behind it, end with an error all the same. A queue holds a gate (a user event),
 * a 30 ms kernel and a kernel that faults, with a marker behind; threads wait on the fault's
 * event, on the marker, with clFinish and with a blocking read, and have long gone to sleep when
 * the gate opens (released: they spin, then sleep again) and when the fault comes (the polling
 * thread's query sees it). A second queue gets a marker behind a user event (enqueued after that
 * release, set only after the fault): the threads waiting on it (clWaitForEvents, clFinish)
 * sleep on a lost device, which no release and no GPU work ends, and must return with an error
 * soon after the others (the fault wakes them; with CULVERT_WAIT_POLL_US=0 nothing else would).
 * Every wait returns an error; one that does not return within 60 s fails the test.
 *
 * Then the lost context goes, a new one recovers the device (a reset of the CUDA context), and
 * sleeping waits behind a gate and a 30 ms kernel end with success: the polling thread and the
 * waits' futexes outlive the reset. On the fake driver every kernel takes FAKECUDA_LAUNCH_US and
 * FAKECUDA_FAULT_KERNEL=fault faults. */
#include "queue_kernels.h"
#include "wait_threads.h"

#define HANG_S 60

enum { WAITERS = 4, LOST_WAITERS = 2, AFTER_WAITERS = 3 };

/* Joins the waiters; false (reported) when one has not returned within HANG_S. */
static bool join_all(waiter *w, int n, double since, const char *what) {
    for (int i = 0; i < n; i++) {
        if (!wt_join(&w[i], HANG_S)) {
            fprintf(stderr, "%s: no return %d s after %s\n", wt_names[w[i].kind], HANG_S, what);
            CHECK(!"the wait returned");
            return false;
        }
        printf("%-15s returned %d, %.1f ms after %s\n", wt_names[w[i].kind], w[i].result,
               (w[i].end - since) * 1e3, what);
    }
    return true;
}

/* The device faults under sleeping waits; every one of them ends with an error. The objects of
 * the lost context are released. */
static bool fault_round(void) {
    cl_kernel spin = qt_kernel("spin"), fault = qt_kernel("fault");
    cl_command_queue q = qt_queue(0), other = qt_queue(0);
    cl_mem buf = cv_test_buffer(qt_context, 64, NULL);
    cl_event u = qt_user_event(), held = qt_user_event(), f = NULL;
    CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, 30000000, 1, &u, NULL));
    cl_ulong bad = 16; /* an unmapped device address */
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(fault, 0, sizeof bad, &bad));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, fault, 1, NULL, &one, &one, 0, NULL, &f));
    cl_event m = qt_marker(q, 0, NULL);
    waiter w[WAITERS], lost[LOST_WAITERS];
    wt_start(&w[0], W_EVENT, q, f, NULL);
    wt_start(&w[1], W_EVENT, q, m, NULL);
    wt_start(&w[2], W_FINISH, q, NULL, NULL);
    wt_start(&w[3], W_READ, q, NULL, buf);
    usleep(20000);
    double opened = qt_now();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    /* Gated after that release: no release of culvert's can wake these waits. */
    cl_event m_other = qt_marker(other, 1, &held);
    CHECK_ERR(CL_SUCCESS, clFlush(other));
    wt_start(&lost[0], W_EVENT, other, m_other, NULL);
    wt_start(&lost[1], W_FINISH, other, NULL, NULL);
    if (!join_all(w, WAITERS, opened, "the gate opened (and the 30 ms kernel began)") ||
        !join_all(lost, LOST_WAITERS, opened, "the gate opened (their own stays closed)"))
        return false;
    double first = w[0].end;
    for (int i = 0; i < WAITERS; i++) {
        CHECK(w[i].result != CL_SUCCESS && w[i].result != 1);
        first = w[i].end < first ? w[i].end : first;
    }
    for (int i = 0; i < LOST_WAITERS; i++) {
        CHECK(lost[i].result != CL_SUCCESS && lost[i].result != 1);
        /* Promptly: the fault wakes them (the polling thread asks every millisecond). */
        CHECK(lost[i].end - first < cv_test_limit_s(1.0));
    }
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w[0].result);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w[1].result);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, lost[0].result);
    CHECK(qt_status(f) < 0);
    CHECK(qt_status(m) < 0);
    CHECK(qt_status(m_other) < 0);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(held, CL_COMPLETE));
    cl_event events[] = {u, held, f, m, m_other};
    for (size_t i = 0; i < sizeof events / sizeof *events; i++)
        clReleaseEvent(events[i]);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(other);
    clReleaseKernel(spin);
    clReleaseKernel(fault);
    clReleaseContext(qt_context);
    return true;
}

/* A new context (the device recovers): sleeping waits behind a gate and a 30 ms kernel succeed. */
static void recovered_round(void) {
    qt_setup();
    cl_kernel spin = qt_kernel("spin");
    cl_command_queue q = qt_queue(0);
    cl_mem buf = cv_test_buffer(qt_context, 64, NULL);
    cl_event u = qt_user_event(), k = NULL;
    CHECK_ERR(CL_SUCCESS, qt_spin(q, spin, 30000000, 1, &u, &k));
    waiter w[AFTER_WAITERS];
    wt_start(&w[0], W_EVENT, q, k, NULL);
    wt_start(&w[1], W_FINISH, q, NULL, NULL);
    wt_start(&w[2], W_READ, q, NULL, buf);
    usleep(20000);
    double opened = qt_now();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    if (!join_all(w, AFTER_WAITERS, opened, "the gate of the recovered context opened"))
        return;
    for (int i = 0; i < AFTER_WAITERS; i++)
        CHECK_ERR(CL_SUCCESS, w[i].result);
    CHECK_ERR(CL_COMPLETE, qt_status(k));
    clReleaseEvent(u);
    clReleaseEvent(k);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseKernel(spin);
    clReleaseContext(qt_context);
}

int main(void) {
    qt_setup();
    if (fault_round())
        recovered_round();
    return cv_test_report("wait_fault");
}
