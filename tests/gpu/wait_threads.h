/* Threads blocked in host waits, for the tests of waking them (events_wake, events_sleep,
 * wait_fault): each runs one clWaitForEvents, clFinish, blocking 4-byte read or blocking map and
 * notes its result and when it returned; a join with a time limit tells a wait that never
 * returns (a lost wake-up) from a slow one. Header only, on queue_test.h. */
#ifndef CV_WAIT_THREADS_H
#define CV_WAIT_THREADS_H

#include "queue_test.h"

typedef enum { W_EVENT, W_FINISH, W_READ, W_MAP } wt_kind;
static const char *const wt_names[] = {"clWaitForEvents", "clFinish", "blocking read",
                                       "blocking map"};

typedef struct waiter {
    wt_kind kind;
    cl_command_queue q;
    cl_event ev; /* W_EVENT */
    cl_mem buf;  /* W_READ, W_MAP: at least 4 bytes */
    cl_int result;
    double end; /* qt_now() when the wait returned */
    pthread_t thread;
} waiter;

static inline void *wt_main(void *arg) {
    waiter *w = arg;
    cl_int v = 0;
    switch (w->kind) {
    case W_EVENT:
        w->result = clWaitForEvents(1, &w->ev);
        break;
    case W_FINISH:
        w->result = clFinish(w->q);
        break;
    case W_READ:
        w->result = clEnqueueReadBuffer(w->q, w->buf, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
        break;
    case W_MAP: {
        void *p = clEnqueueMapBuffer(w->q, w->buf, CL_TRUE, CL_MAP_READ, 0, sizeof v, 0, NULL, NULL,
                                     &w->result);
        if (p)
            clEnqueueUnmapMemObject(w->q, w->buf, p, 0, NULL, NULL);
        break;
    }
    }
    w->end = qt_now();
    return NULL;
}

static inline void wt_start(waiter *w, wt_kind kind, cl_command_queue q, cl_event ev, cl_mem buf) {
    *w = (waiter){.kind = kind, .q = q, .ev = ev, .buf = buf, .result = 1};
    int rc = pthread_create(&w->thread, NULL, wt_main, w);
    REQUIRE(rc == 0);
}

/* Joins w; false when it has not returned within `seconds` (it is left running). */
static inline bool wt_join(waiter *w, int seconds) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    return pthread_timedjoin_np(w->thread, NULL, &until) == 0;
}

#endif
