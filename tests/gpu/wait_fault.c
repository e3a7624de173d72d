/* A command that fails never writes the flag its host waits watch (core/wait.h): waits asleep on
 * it, or on work behind it, end with an error all the same. A queue holds a gate (a user event),
 * a 30 ms kernel and a kernel that faults, with a marker behind; threads wait on the fault's
 * event, on the marker, with clFinish and with a blocking read, and have long gone to sleep when
 * the gate opens (released: they spin, then sleep again) and when the fault comes (the polling
 * thread's query sees it). Every wait returns an error; one that does not return within 60 s
 * fails the test. The fault poisons the CUDA context for the process, so this runs alone. On the
 * fake driver every kernel takes FAKECUDA_LAUNCH_US and FAKECUDA_FAULT_FUNC=fault faults. */
#include "queue_kernels.h"

#include <stdlib.h>

#define HANG_S 60

typedef enum { W_EVENT, W_FINISH, W_READ } wait_kind;
static const char *const kind_names[] = {"clWaitForEvents", "clFinish", "blocking read"};

typedef struct waiter {
    wait_kind kind;
    cl_command_queue q;
    cl_event ev;
    cl_mem buf;
    cl_int result;
    double end;
    pthread_t thread;
} waiter;

static void *waiter_main(void *arg) {
    waiter *w = arg;
    cl_int v = 0;
    if (w->kind == W_EVENT)
        w->result = clWaitForEvents(1, &w->ev);
    else if (w->kind == W_FINISH)
        w->result = clFinish(w->q);
    else
        w->result = clEnqueueReadBuffer(w->q, w->buf, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
    w->end = qt_now();
    return NULL;
}

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
    waiter w[WAITERS] = {{.kind = W_EVENT, .ev = f},
                         {.kind = W_EVENT, .ev = m},
                         {.kind = W_FINISH, .q = q},
                         {.kind = W_READ, .q = q, .buf = buf}};
    for (int i = 0; i < WAITERS; i++) {
        w[i].q = q;
        w[i].result = CL_SUCCESS;
        int rc = pthread_create(&w[i].thread, NULL, waiter_main, &w[i]);
        REQUIRE(rc == 0);
    }
    usleep(20000);
    double opened = qt_now();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    for (int i = 0; i < WAITERS; i++) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += HANG_S;
        if (pthread_timedjoin_np(w[i].thread, NULL, &until) != 0) {
            fprintf(stderr, "%s: no return %d s after the gate opened\n", kind_names[w[i].kind],
                    HANG_S);
            CHECK(!"the wait returned");
            return cv_test_report("wait_fault");
        }
        CHECK(w[i].result != CL_SUCCESS);
        printf("%-15s returned %d, %.1f ms after the gate opened (and the 30 ms kernel began)\n",
               kind_names[w[i].kind], w[i].result, (w[i].end - opened) * 1e3);
    }
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w[0].result);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, w[1].result);
    CHECK(qt_status(f) < 0);
    CHECK(qt_status(m) < 0);
    return cv_test_report("wait_fault");
}
