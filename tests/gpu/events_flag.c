/* Host waits that watch a flag the GPU writes behind the waited-for work (docs/queues-events.md,
 * "Events"): many threads waiting on one event and one queue at once, a wait on a command with
 * work behind it, a failed source ending a wait with an error, the flags' slots reused by user
 * events (a late flag write would open their gates), out-of-order queues and barriers. The
 * gates are user events: they hold a stream as long as a kernel would. */
#include "queue_test.h"

#include <stdatomic.h>

enum { WAITERS = 8, FINISHERS = 4 };

typedef struct waiter {
    cl_command_queue q; /* clFinish on it, or clWaitForEvents on ev */
    cl_event ev;
    cl_int result;
    double end; /* qt_now() at the wait's return */
    pthread_t thread;
} waiter;

static void *waiter_main(void *arg) {
    waiter *w = arg;
    w->result = w->ev ? clWaitForEvents(1, &w->ev) : clFinish(w->q);
    w->end = qt_now();
    return NULL;
}

/* WAITERS threads wait on one gated marker, FINISHERS finish its queue, all at once; the gate
 * opens after delay_us (short: the waits end in their spin; long: after it, sleeping). */
static void test_many_waiters(cl_command_queue_properties props, unsigned delay_us) {
    cl_command_queue q = qt_queue(props);
    cl_event u = qt_user_event();
    cl_event m = qt_marker(q, 1, &u);
    waiter w[WAITERS + FINISHERS];
    for (int i = 0; i < WAITERS + FINISHERS; i++) {
        w[i] = (waiter){.q = q, .ev = i < WAITERS ? m : NULL, .result = 1};
        int rc = pthread_create(&w[i].thread, NULL, waiter_main, &w[i]);
        REQUIRE(rc == 0);
    }
    qt_setter s;
    double opened = qt_now() + delay_us * 1e-6; /* the gate is closed before that */
    qt_set_later(&s, u, CL_COMPLETE, delay_us);
    qt_join(&s);
    for (int i = 0; i < WAITERS + FINISHERS; i++) {
        pthread_join(w[i].thread, NULL);
        CHECK_ERR(CL_SUCCESS, w[i].result);
        CHECK(w[i].end >= opened); /* no wait ended before its work was done */
    }
    CHECK(qt_status(m) == CL_COMPLETE);
    clReleaseEvent(m);
    clReleaseEvent(u);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* A wait on a command with a gated command behind it on the same stream returns once its own
 * command is done: the wait must not end up waiting for the later work. */
static void test_work_behind(void) {
    cl_command_queue q = qt_queue(0);
    cl_event u1 = qt_user_event(), u2 = qt_user_event();
    cl_event a = qt_marker(q, 1, &u1);
    cl_event b = qt_marker(q, 1, &u2);
    qt_setter s;
    double opened = qt_now() + 1e-3;
    qt_set_later(&s, u1, CL_COMPLETE, 1000);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &a));
    CHECK(qt_now() >= opened);
    qt_join(&s);
    CHECK(qt_status(a) == CL_COMPLETE);
    CHECK(qt_status(b) == CL_SUBMITTED);
    /* b is the stream's last command now: its wait may use a flag */
    opened = qt_now() + 1e-3;
    qt_set_later(&s, u2, CL_COMPLETE, 1000);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &b));
    CHECK(qt_now() >= opened);
    qt_join(&s);
    CHECK(qt_status(b) == CL_COMPLETE);
    clReleaseEvent(a);
    clReleaseEvent(b);
    clReleaseEvent(u1);
    clReleaseEvent(u2);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* A source that failed: the dependent's wait ends (its flag is written behind it all the same)
 * with the error, in the spin and after it. */
static void test_error_ends_wait(unsigned delay_us) {
    cl_command_queue q = qt_queue(0);
    cl_event u = qt_user_event();
    cl_event m = qt_marker(q, 1, &u);
    cl_event after = qt_marker(q, 0, NULL);
    qt_setter s;
    qt_set_later(&s, u, -5, delay_us);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &m));
    qt_join(&s);
    CHECK(qt_status(m) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(qt_status(after) == CL_COMPLETE); /* no wait list of its own */
    clReleaseEvent(m);
    clReleaseEvent(after);
    clReleaseEvent(u);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* Many waits, each with a new token: every wait ends on its own command. */
static void test_round_trips(void) {
    cl_command_queue q = qt_queue(0);
    for (int i = 0; i < 2000; i++) {
        cl_event m = qt_marker(q, 0, NULL);
        if (i % 2)
            CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
        else
            CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK(qt_status(m) == CL_COMPLETE);
        clReleaseEvent(m);
    }
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

enum { ROUNDS = 16, GATES = 64 };

/* Queues whose waits wrote flags go; the slots their flags used serve user events next (the pool
 * hands out the slots freed last first): none of those gates opens before its event is set. */
static void test_slots_reused(void) {
    for (int r = 0; r < ROUNDS; r++) {
        cl_command_queue q = qt_queue(r % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        cl_event u = qt_user_event();
        cl_event m = qt_marker(q, 1, &u);
        qt_setter s;
        qt_set_later(&s, u, CL_COMPLETE, 200);
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        qt_join(&s);
        clReleaseEvent(m);
        clReleaseEvent(u);
        CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    }
    cl_command_queue q = qt_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event u[GATES], m[GATES];
    for (int i = 0; i < GATES; i++) {
        u[i] = qt_user_event();
        m[i] = qt_marker(q, 1, &u[i]);
    }
    usleep(20000);
    int open = 0;
    for (int i = 0; i < GATES; i++)
        open += qt_status(m[i]) <= CL_COMPLETE;
    CHECK(open == 0);
    for (int i = 0; i < GATES; i++)
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u[i], CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(GATES, m));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    for (int i = 0; i < GATES; i++) {
        CHECK(qt_status(m[i]) == CL_COMPLETE);
        clReleaseEvent(m[i]);
        clReleaseEvent(u[i]);
    }
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* Out of order: a barrier makes every stream wait for its gated work, so a wait on an earlier
 * command of another stream still ends at that command (its flag would wait behind the
 * barrier). */
static void test_barrier(void) {
    cl_command_queue q = qt_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event u = qt_user_event();
    cl_event before[4];
    for (int i = 0; i < 4; i++)
        before[i] = qt_marker(q, 0, NULL); /* one per stream */
    cl_event bar = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(q, 1, &u, &bar));
    for (int i = 0; i < 4; i++) {
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &before[i]));
        CHECK(qt_status(before[i]) == CL_COMPLETE);
    }
    CHECK(qt_status(bar) == CL_SUBMITTED);
    qt_setter s;
    double opened = qt_now() + 1e-3;
    qt_set_later(&s, u, CL_COMPLETE, 1000);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(qt_now() >= opened);
    qt_join(&s);
    CHECK(qt_status(bar) == CL_COMPLETE);
    for (int i = 0; i < 4; i++)
        clReleaseEvent(before[i]);
    clReleaseEvent(bar);
    clReleaseEvent(u);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

int main(void) {
    qt_setup();
    for (int p = 0; p < 2; p++) {
        cl_command_queue_properties props = p ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0;
        test_many_waiters(props, 50);
        test_many_waiters(props, 5000);
    }
    test_work_behind();
    test_error_ends_wait(50);
    test_error_ends_wait(5000);
    test_round_trips();
    test_slots_reused();
    test_barrier();
    clReleaseContext(qt_context);
    return cv_test_report("events_flag");
}
