/* Sections 5.11-5.13 of the OpenCL 3.0 API: event objects, user events, callbacks, markers,
 * barriers and waits, within one queue and across queues. */
#include "ct.h"

#include <pthread.h>

static cl_int status_of(cl_event ev) {
    cl_int st = 99;
    if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL) != CL_SUCCESS)
        st = 99;
    return st;
}

static void user_event_basics(ct_env *e) {
    cl_int err = 1;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(u != NULL);
    /* "The execution status of the user event object created is set to CL_SUBMITTED." */
    CT_CHECK(status_of(u) == CL_SUBMITTED);
    cl_command_type type = 0;
    cl_command_queue q = (cl_command_queue)1;
    cl_context c = NULL;
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_USER);
    /* CL_EVENT_COMMAND_QUEUE: "For user event objects, a NULL value is returned." */
    CT_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL));
    CT_CHECK(q == NULL);
    CT_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof(c), &c, NULL));
    CT_CHECK(c == e->ctx);
    CT_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    CT_ERR(CL_SUCCESS, clRetainEvent(u));
    CT_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 2);
    CT_ERR(CL_SUCCESS, clReleaseEvent(u));
    /* "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer
     * value." */
    CT_ERR(CL_INVALID_VALUE, clSetUserEventStatus(u, CL_RUNNING));
    CT_ERR(CL_INVALID_VALUE, clSetUserEventStatus(u, 5));
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_CHECK(status_of(u) == CL_COMPLETE);
    /* "CL_INVALID_OPERATION if the execution_status for event has already been changed by a
     * previous call to clSetUserEventStatus." */
    CT_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(u, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &u));
    clReleaseEvent(u);
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_CHECK(clCreateUserEvent(NULL, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
    /* "CL_INVALID_EVENT if event is not a valid user event object." */
    CT_ERR(CL_INVALID_EVENT, clSetUserEventStatus(NULL, CL_COMPLETE));
    cl_event marker = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 0, NULL, &marker));
    CT_ERR(CL_INVALID_EVENT, clSetUserEventStatus(marker, CL_COMPLETE));
    clReleaseEvent(marker);
}

static void user_event_gates(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL);
    CT_REQUIRE(u && m);
    cl_int zero = 0, val = 77, out = -1;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_TRUE, 0, 4, &zero, 0, NULL, NULL));
    cl_event w = NULL, r = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_FALSE, 0, 4, &val, 1, &u, &w));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_FALSE, 0, 4, &out, 0, NULL, &r));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    ct_sleep_ms(50);
    /* Nothing after the gate may run before the user event completes. */
    CT_CHECK(status_of(w) > CL_COMPLETE);
    CT_CHECK(status_of(r) > CL_COMPLETE);
    CT_CHECK(out == -1);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &r));
    CT_CHECK(out == 77);
    CT_CHECK(status_of(w) == CL_COMPLETE);
    clReleaseEvent(w);
    clReleaseEvent(r);
    clReleaseEvent(u);
    clReleaseMemObject(m);
}

static void user_event_error(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    CT_REQUIRE(u != NULL);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, -1234));
    CT_CHECK(status_of(u) == -1234);
    /* clWaitForEvents: "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of
     * any of the events in event_list is a negative integer value." */
    CT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &u));
    clReleaseEvent(u);
}

typedef struct {
    volatile int calls;
    volatile cl_int status;
} cb_state;

static void CL_CALLBACK on_event(cl_event ev, cl_int status, void *user) {
    (void)ev;
    cb_state *s = user;
    s->status = status;
    __atomic_add_fetch(&s->calls, 1, __ATOMIC_RELEASE);
}

static void callbacks(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    CT_REQUIRE(u != NULL);
    cb_state done = {0, 99};
    CT_ERR(CL_SUCCESS, clSetEventCallback(u, CL_COMPLETE, on_event, &done));
    ct_sleep_ms(20);
    CT_CHECK(done.calls == 0);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_CHECK(ct_wait_flag(&done.calls, 5000) == 1);
    CT_CHECK(done.status == CL_COMPLETE);
    /* A callback registered after the status is reached is still called. */
    cb_state late = {0, 99};
    CT_ERR(CL_SUCCESS, clSetEventCallback(u, CL_COMPLETE, on_event, &late));
    CT_CHECK(ct_wait_flag(&late.calls, 5000) == 1);
    /* "CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type is not
     * CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE." */
    CT_ERR(CL_INVALID_VALUE, clSetEventCallback(u, CL_COMPLETE, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clSetEventCallback(u, CL_QUEUED, on_event, &late));
    /* "CL_INVALID_EVENT if event is not a valid event object." */
    CT_ERR(CL_INVALID_EVENT, clSetEventCallback(NULL, CL_COMPLETE, on_event, &late));
    clReleaseEvent(u);
    /* Callbacks of a command's event: SUBMITTED, RUNNING and COMPLETE are each called once. */
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 4096, NULL);
    CT_REQUIRE(m != NULL);
    cl_event gate = clCreateUserEvent(e->ctx, &err), ev = NULL;
    unsigned char buf[4096] = {0};
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_FALSE, 0, sizeof(buf), buf, 1, &gate, &ev));
    cb_state sub = {0, 99}, run = {0, 99}, com = {0, 99};
    CT_ERR(CL_SUCCESS, clSetEventCallback(ev, CL_SUBMITTED, on_event, &sub));
    CT_ERR(CL_SUCCESS, clSetEventCallback(ev, CL_RUNNING, on_event, &run));
    CT_ERR(CL_SUCCESS, clSetEventCallback(ev, CL_COMPLETE, on_event, &com));
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_CHECK(ct_wait_flag(&com.calls, 5000) == 1);
    CT_CHECK(ct_wait_flag(&sub.calls, 5000) == 1);
    CT_CHECK(ct_wait_flag(&run.calls, 5000) == 1);
    /* "event_command_status ... the execution status for which the callback was registered"
     * (or CL_COMPLETE for a command that has gone past it). */
    CT_CHECK(com.status == CL_COMPLETE);
    CT_CHECK(sub.status == CL_SUBMITTED || sub.status == CL_RUNNING || sub.status == CL_COMPLETE);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

static void callback_on_error(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    CT_REQUIRE(u != NULL);
    cb_state s = {0, 99};
    CT_ERR(CL_SUCCESS, clSetEventCallback(u, CL_COMPLETE, on_event, &s));
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, -77));
    /* "If the callback is called as the result of the command associated with event being
     * abnormally terminated, an appropriate error code for the error that caused the
     * termination will be passed to event_command_status instead." */
    CT_CHECK(ct_wait_flag(&s.calls, 5000) == 1);
    CT_CHECK(s.status < 0);
    clReleaseEvent(u);
}

static void wait_errors(ct_env *e) {
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 0, NULL, &ev));
    /* "CL_INVALID_VALUE if num_events is zero or event_list is NULL." */
    CT_ERR(CL_INVALID_VALUE, clWaitForEvents(0, &ev));
    CT_ERR(CL_INVALID_VALUE, clWaitForEvents(1, NULL));
    /* "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same
     * context." */
    cl_context other = ct_other_context(e);
    if (other) {
        cl_int err = CL_SUCCESS;
        cl_event u = clCreateUserEvent(other, &err);
        clSetUserEventStatus(u, CL_COMPLETE);
        cl_event both[2] = {ev, u};
        CT_ERR(CL_INVALID_CONTEXT, clWaitForEvents(2, both));
        /* Enqueue: "CL_INVALID_CONTEXT if context associated with command_queue and events in
         * event_wait_list are not the same." */
        CT_ERR(CL_INVALID_CONTEXT, clEnqueueMarkerWithWaitList(e->q, 1, &u, NULL));
        clReleaseEvent(u);
        clReleaseContext(other);
    }
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    /* "CL_INVALID_VALUE if param_name is not valid". */
    cl_int st = 0;
    CT_ERR(CL_INVALID_VALUE, clGetEventInfo(ev, 0x7fff, sizeof(st), &st, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 1, &st, NULL));
    /* "CL_INVALID_EVENT if event is a not a valid event object." */
    CT_ERR(CL_INVALID_EVENT,
           clGetEventInfo(NULL, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL));
    CT_ERR(CL_INVALID_EVENT, clRetainEvent(NULL));
    CT_ERR(CL_INVALID_EVENT, clReleaseEvent(NULL));
    clReleaseEvent(ev);
}

static void wait_list_errors(ct_env *e) {
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 0, NULL, &ev));
    /* "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0,
     * or event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
     * event_wait_list are not valid events." */
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(e->q, 1, NULL, NULL));
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(e->q, 0, &ev, NULL));
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueBarrierWithWaitList(e->q, 1, NULL, NULL));
    cl_event null_ev = NULL;
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(e->q, 1, &null_ev, NULL));
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
}

static void markers_and_barriers(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    CT_REQUIRE(u != NULL);
    cl_event mk = NULL, all = NULL, br = NULL;
    /* A marker with a wait list completes after those events. */
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 1, &u, &mk));
    /* A marker without one waits for all previous commands. */
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 0, NULL, &all));
    CT_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(e->q, 0, NULL, &br));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    ct_sleep_ms(30);
    CT_CHECK(status_of(mk) > CL_COMPLETE);
    CT_CHECK(status_of(all) > CL_COMPLETE);
    CT_CHECK(status_of(br) > CL_COMPLETE);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &br));
    CT_CHECK(status_of(mk) == CL_COMPLETE && status_of(all) == CL_COMPLETE);
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(mk, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_MARKER);
    CT_ERR(CL_SUCCESS, clGetEventInfo(br, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_BARRIER);
    cl_command_queue q = NULL;
    CT_ERR(CL_SUCCESS, clGetEventInfo(mk, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL));
    CT_CHECK(q == e->q);
    clReleaseEvent(mk);
    clReleaseEvent(all);
    clReleaseEvent(br);
    clReleaseEvent(u);
}

/* The OpenCL 1.1 forms (deprecated, still part of the 3.0 API). */
static void deprecated_1_1_forms(ct_env *e) {
    /* The 1.1 forms. */
    cl_event old = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMarker(e->q, &old));
    CT_ERR(CL_SUCCESS, clEnqueueWaitForEvents(e->q, 1, &old));
    CT_ERR(CL_SUCCESS, clEnqueueBarrier(e->q));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    CT_CHECK(status_of(old) == CL_COMPLETE);
    /* clEnqueueMarker: "CL_INVALID_VALUE if event is NULL." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueMarker(e->q, NULL));
    /* clEnqueueWaitForEvents: "CL_INVALID_VALUE if num_events is 0 or event_list is NULL." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueWaitForEvents(e->q, 0, &old));
    clReleaseEvent(old);
}

static void cross_queue(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q2 = clCreateCommandQueueWithProperties(e->ctx, e->device, NULL, &err);
    cl_event u = clCreateUserEvent(e->ctx, &err);
    enum { N = 1 << 16 };
    cl_mem a = ct_buffer(e, CL_MEM_READ_WRITE, N, NULL),
           b = ct_buffer(e, CL_MEM_READ_WRITE, N, NULL);
    CT_REQUIRE(q2 && u && a && b);
    unsigned char *in = malloc(N), *out = malloc(N);
    for (int i = 0; i < N; i++)
        in[i] = (unsigned char)(i * 7);
    memset(out, 0, N);
    cl_event wa = NULL, cb = NULL;
    /* Queue 1: write a after the user event; queue 2: copy a to b after that write. */
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, a, CL_FALSE, 0, N, in, 1, &u, &wa));
    CT_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q2, a, b, 0, 0, N, 1, &wa, &cb));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    CT_ERR(CL_SUCCESS, clFlush(q2));
    ct_sleep_ms(30);
    CT_CHECK(status_of(cb) > CL_COMPLETE);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(q2, b, CL_TRUE, 0, N, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(in, out, N));
    CT_CHECK(status_of(wa) == CL_COMPLETE && status_of(cb) == CL_COMPLETE);
    clReleaseEvent(wa);
    clReleaseEvent(cb);
    clReleaseEvent(u);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q2);
    free(in);
    free(out);
}

typedef struct {
    cl_event ev;
    int delay_ms;
} release_arg;

static void *release_later(void *p) {
    release_arg *a = p;
    ct_sleep_ms(a->delay_ms);
    clSetUserEventStatus(a->ev, CL_COMPLETE);
    return NULL;
}

static void blocking_semantics(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 4, NULL);
    CT_REQUIRE(u && m);
    cl_int val = 5, out = 0;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_FALSE, 0, 4, &val, 1, &u, NULL));
    /* A blocking read behind a gate returns only after another thread opens it, with the
     * data. */
    release_arg arg = {u, 100};
    pthread_t t;
    pthread_create(&t, NULL, release_later, &arg);
    double t0 = ct_now_s();
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
    double waited = ct_now_s() - t0;
    pthread_join(t, NULL);
    CT_CHECK(out == 5);
    CT_CHECK(waited >= 0.05);
    /* clFinish: "Blocks until all previously queued commands ... are issued ... and have
     * completed." */
    cl_event u2 = clCreateUserEvent(e->ctx, &err);
    cl_event w = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_FALSE, 0, 4, &val, 1, &u2, &w));
    release_arg arg2 = {u2, 50};
    pthread_create(&t, NULL, release_later, &arg2);
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    CT_CHECK(status_of(w) == CL_COMPLETE);
    pthread_join(t, NULL);
    clReleaseEvent(w);
    clReleaseEvent(u);
    clReleaseEvent(u2);
    clReleaseMemObject(m);
}

static void status_progress(ct_env *e) {
    /* An application that only polls sees its command complete (no flush or wait needed
     * besides the flush the spec asks for). */
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 1 << 20, NULL);
    CT_REQUIRE(m != NULL);
    cl_uint pat = 0xdeadbeef;
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueFillBuffer(e->q, m, &pat, 4, 0, 1 << 20, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    cl_int st = status_of(ev);
    CT_CHECK(st >= CL_COMPLETE && st <= CL_QUEUED);
    double end = ct_now_s() + 10;
    while (status_of(ev) != CL_COMPLETE && ct_now_s() < end)
        ct_sleep_ms(1);
    CT_CHECK(status_of(ev) == CL_COMPLETE);
    clReleaseEvent(ev);
    clReleaseMemObject(m);
}

static const ct_case cases[] = {
    {"user_event_basics", user_event_basics},       {"user_event_gates", user_event_gates},
    {"user_event_error", user_event_error},         {"callbacks", callbacks},
    {"callback_on_error", callback_on_error},       {"wait_errors", wait_errors},
    {"wait_list_errors", wait_list_errors},         {"markers_and_barriers", markers_and_barriers},
    {"deprecated_1_1_forms", deprecated_1_1_forms}, {"cross_queue", cross_queue},
    {"blocking_semantics", blocking_semantics},     {"status_progress", status_progress},
};
CT_SECTION(ct_event_section, "event", cases);
