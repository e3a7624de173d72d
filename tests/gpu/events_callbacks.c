/* Event callbacks: all three types, in order, on a culvert thread; registered after the
 * status was reached; with error status; on user events; releasing the event inside. */
#include "queue_test.h"

#include <stdatomic.h>

#define MAX_CALLS 64

static pthread_t main_thread;
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    cl_event event;
    cl_int status;
    intptr_t tag;
    bool on_main;
} calls[MAX_CALLS];
static int num_calls;

static void CL_CALLBACK record(cl_event e, cl_int status, void *data) {
    pthread_mutex_lock(&calls_lock);
    if (num_calls < MAX_CALLS) {
        calls[num_calls].event = e;
        calls[num_calls].status = status;
        calls[num_calls].tag = (intptr_t)data;
        calls[num_calls].on_main = pthread_equal(pthread_self(), main_thread);
        num_calls++;
    }
    pthread_mutex_unlock(&calls_lock);
}

static int wait_calls(int n, double seconds) {
    double end = qt_now() + cv_test_limit_s(seconds);
    int got;
    for (;;) {
        pthread_mutex_lock(&calls_lock);
        got = num_calls;
        pthread_mutex_unlock(&calls_lock);
        if (got >= n || qt_now() > end)
            return got;
        usleep(100);
    }
}

static void reset_calls(void) {
    pthread_mutex_lock(&calls_lock);
    num_calls = 0;
    pthread_mutex_unlock(&calls_lock);
}

static void test_order(void) {
    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_event u = qt_user_event();
    cl_event m = qt_marker(q, 1, &u);
    reset_calls();
    /* registered in reverse order: called SUBMITTED, RUNNING, COMPLETE */
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_COMPLETE, record, (void *)3));
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_RUNNING, record, (void *)2));
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_SUBMITTED, record, (void *)1));
    CHECK(wait_calls(1, 2.0) == 1); /* SUBMITTED: the marker is on the GPU already */
    usleep(20000);
    CHECK(wait_calls(2, 0.0) == 1); /* not RUNNING or COMPLETE while gated */
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(wait_calls(3, 2.0) == 3);
    for (int i = 0; i < 3 && i < num_calls; i++) {
        CHECK(calls[i].tag == i + 1);
        CHECK(calls[i].event == m);
        CHECK(!calls[i].on_main);
    }
    CHECK(calls[0].status == CL_SUBMITTED && calls[1].status == CL_RUNNING &&
          calls[2].status == CL_COMPLETE);
    /* after the fact: still called, on the culvert thread */
    reset_calls();
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_COMPLETE, record, (void *)4));
    CHECK(wait_calls(1, 2.0) == 1);
    CHECK(calls[0].tag == 4 && calls[0].status == CL_COMPLETE && !calls[0].on_main);
    clReleaseEvent(m);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

static void test_user_and_error(void) {
    cl_command_queue q = qt_queue(0);
    cl_event u = qt_user_event();
    cl_event m = qt_marker(q, 1, &u);
    reset_calls();
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(u, CL_COMPLETE, record, (void *)10));
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_COMPLETE, record, (void *)11));
    usleep(10000);
    CHECK(wait_calls(1, 0.0) == 0);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, -5));
    CHECK(wait_calls(2, 2.0) == 2);
    for (int i = 0; i < num_calls; i++) {
        if (calls[i].tag == 10)
            CHECK(calls[i].status == -5);
        else
            CHECK(calls[i].tag == 11 &&
                  calls[i].status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CHECK(!calls[i].on_main);
    }
    clReleaseEvent(m);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

static atomic_int released_inside;

static void CL_CALLBACK release_inside(cl_event e, cl_int status, void *data) {
    (void)data;
    if (status == CL_COMPLETE && clReleaseEvent(e) == CL_SUCCESS)
        atomic_fetch_add(&released_inside, 1);
}

/* The common pattern: fire and forget, the callback releases the event. Only callbacks tell the
 * application that its commands completed. */
static void test_release_inside(void) {
    cl_command_queue q = qt_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    for (int i = 0; i < 500; i++) {
        cl_event m = qt_marker(q, 0, NULL);
        CHECK_ERR(CL_SUCCESS, clSetEventCallback(m, CL_COMPLETE, release_inside, NULL));
    }
    double end = qt_now() + cv_test_limit_s(5.0);
    while (atomic_load(&released_inside) < 500 && qt_now() < end)
        usleep(1000);
    CHECK(atomic_load(&released_inside) == 500);
    clReleaseCommandQueue(q);
}

int main(void) {
    main_thread = pthread_self();
    qt_setup();
    test_order();
    test_user_and_error();
    test_release_inside();
    clReleaseContext(qt_context);
    return cv_test_report("events_callbacks");
}
