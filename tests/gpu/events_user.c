/* User events: GPU-gated commands released from another thread, error status propagation,
 * clSetUserEventStatus errors, waits across queues, event info. */
#include "queue_test.h"

static void test_user_event_info(void) {
    cl_event u = qt_user_event();
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_USER);
    cl_command_queue q = (cl_command_queue)1;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    CHECK(q == NULL);
    cl_context ctx = NULL;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL));
    CHECK(ctx == qt_context);
    CHECK(qt_status(u) == CL_SUBMITTED);
    cl_ulong t = 0;
    CHECK_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
              clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clGetEventInfo(u, 0x7777, sizeof t, &t, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clSetUserEventStatus(u, CL_SUBMITTED));
    CHECK_ERR(CL_INVALID_VALUE, clSetUserEventStatus(u, 5));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(u, -1));
    CHECK(qt_status(u) == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &u));
    cl_uint refs = 0;
    CHECK_ERR(CL_SUCCESS, clRetainEvent(u));
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(u, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(u));
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(u));

    /* a command event is no user event */
    cl_command_queue cq = qt_queue(0);
    cl_event m = qt_marker(cq, 0, NULL);
    CHECK_ERR(CL_INVALID_EVENT, clSetUserEventStatus(m, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &m));
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MARKER);
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    CHECK(q == cq);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(m));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(cq));
}

/* A gated command is on the GPU at once; another thread's clSetUserEventStatus releases it. */
static void test_gate(cl_command_queue_properties props) {
    cl_command_queue q = qt_queue(props);
    cl_event u = qt_user_event();
    cl_event m = qt_marker(q, 1, &u);
    cl_event after = qt_marker(q, 0, NULL); /* behind the gate in any queue: a marker */
    fprintf(stderr, "  gate: enqueued\n");
    usleep(30000);
    CHECK(qt_status(m) == CL_SUBMITTED || qt_status(m) == CL_QUEUED);
    CHECK(qt_status(after) > CL_COMPLETE);
    qt_setter s;
    qt_set_later(&s, u, CL_COMPLETE, 20000);
    double t0 = qt_now();
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &after));
    double waited = qt_now() - t0;
    qt_join(&s);
    fprintf(stderr, "  gate: released after %.3f s\n", waited);
    /* The lower bound is timing (this thread may be held back past the setter's sleep). */
    CHECK((cv_test_fake_cuda() || waited >= 0.015) && waited < cv_test_limit_s(2.0));
    CHECK(qt_status(m) == CL_COMPLETE);
    /* many gated commands, one release, from a thread: all complete */
    cl_event u2 = qt_user_event();
    cl_event many[64];
    for (int i = 0; i < 64; i++)
        many[i] = qt_marker(q, 1, &u2);
    fprintf(stderr, "  gate: 64 gated\n");
    qt_set_later(&s, u2, CL_COMPLETE, 1000);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(64, many));
    qt_join(&s);
    fprintf(stderr, "  gate: 64 released\n");
    for (int i = 0; i < 64; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(many[i]));
    /* the gate holds the stream, not the host: enqueue returned at once above; now release the
     * user event before the commands that wait for it */
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(u2));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    cl_event all[] = {u, m, after};
    for (int i = 0; i < 3; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(all[i]));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* clWaitForEvents on a user event set by another thread. */
static void test_wait_user(void) {
    cl_event u = qt_user_event();
    qt_setter s;
    qt_set_later(&s, u, CL_COMPLETE, 10000);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &u));
    qt_join(&s);
    CHECK(qt_status(u) == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(u));
    cl_event bad = qt_user_event();
    qt_set_later(&s, bad, -42, 10000);
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &bad));
    qt_join(&s);
    CHECK(qt_status(bad) == -42);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(bad));
}

/* A negative status reaches the commands that wait for the event, across queues, and commands
 * that wait for those; work behind them in the stream is not blocked. */
static void test_error_propagation(void) {
    cl_command_queue qa = qt_queue(0), qb = qt_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event u = qt_user_event();
    cl_event a = qt_marker(qa, 1, &u);
    cl_event b = qt_marker(qb, 1, &a);
    cl_event plain = qt_marker(qa, 0, NULL);
    usleep(10000);
    CHECK(qt_status(b) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, -7));
    cl_event ab[] = {a, b};
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(2, ab));
    CHECK(qt_status(a) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(qt_status(b) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &plain));
    CHECK(qt_status(plain) == CL_COMPLETE);
    /* enqueued after the failure: the command takes the error at once */
    cl_event late = qt_marker(qb, 1, &u);
    CHECK(qt_poll_final(late, 2.0) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK_ERR(CL_SUCCESS, clFinish(qa));
    CHECK_ERR(CL_SUCCESS, clFinish(qb));
    cl_event all[] = {u, a, b, plain, late};
    for (int i = 0; i < 5; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(all[i]));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qa));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qb));
}

/* Waits across queues resolve on the GPU: enqueueing never blocks the host. */
static void test_cross_queue(void) {
    cl_command_queue qa = qt_queue(0), qb = qt_queue(0), qc = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_event u = qt_user_event();
    cl_event a = qt_marker(qa, 1, &u);
    double t0 = qt_now();
    cl_event b = qt_marker(qb, 1, &a);
    cl_event bc[] = {a, b};
    cl_event c = qt_marker(qc, 2, bc);
    CHECK(qt_now() - t0 < cv_test_limit_s(0.5)); /* a blocking enqueue would wait forever here */
    usleep(20000);
    CHECK(qt_status(b) > CL_COMPLETE && qt_status(c) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK(qt_poll_final(c, 2.0) == CL_COMPLETE); /* by polling only */
    CHECK(qt_status(a) == CL_COMPLETE && qt_status(b) == CL_COMPLETE);
    cl_event all[] = {u, a, b, c};
    for (int i = 0; i < 4; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(all[i]));
    /* releasing queues with work still gated: they live until it finishes */
    cl_event u2 = qt_user_event();
    cl_event g = qt_marker(qa, 1, &u2);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qa));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qb));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qc));
    CHECK(qt_status(g) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u2, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &g));
    cl_command_queue gq = (cl_command_queue)1;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(g, CL_EVENT_COMMAND_QUEUE, sizeof gq, &gq, NULL));
    CHECK(gq != NULL);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(g));
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(u2));
}

static void *qt_cuda_event(cl_event e) {
    void *h = NULL;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_CUDA_EVENT_CULVERT, sizeof h, &h, NULL));
    return h;
}

/* A finished command's event, waited for and released, gives its CUDA events to the queue's
 * next command at once (round trips make no CUDA event per command); a GPU-side wait issued
 * earlier on their old record is not held up by the new one (CUDA: a wait captures the record
 * current when it is issued). */
static void test_cuda_event_reuse(cl_command_queue_properties props) {
    cl_command_queue qa = qt_queue(props), qb = qt_queue(0);
    cl_event u1 = qt_user_event(), u2 = qt_user_event(), u3 = qt_user_event();
    cl_event a = qt_marker(qa, 1, &u1);
    cl_event held = qt_marker(qb, 1, &u3); /* qb reaches its wait for a only after u3 */
    cl_event b = qt_marker(qb, 1, &a);     /* waits on a's record, on the GPU */
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u1, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &a));
    void *cuda_a = qt_cuda_event(a);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(a));
    cl_event c = qt_marker(qa, 1, &u2); /* qa's only event so far is a, not back yet */
    CHECK(cuda_a != NULL && qt_cuda_event(c) == cuda_a);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u3, CL_COMPLETE));
    CHECK(qt_poll_final(b, 2.0) == CL_COMPLETE); /* c, on a's CUDA event, still waits for u2 */
    CHECK(qt_status(c) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u2, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &c));
    cl_event all[] = {u1, u2, u3, held, b, c};
    for (int i = 0; i < 6; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(all[i]));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qa));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(qb));
}

/* A buffer released while a command waits on a user event: the free (cuMemFree waits for the
 * whole device and holds up every other driver call meanwhile) must wait until the gate opens,
 * or the application's next driver calls (here: a marker's event record, a status query), made
 * before it sets the event, never return. A hang ends the test (SIGALRM). */
static void test_release_while_gated(void) {
    cl_command_queue q = qt_queue(0);
    cl_int err = 0, x = 7, y = 0;
    cl_mem m = clCreateBuffer(qt_context, 0, (size_t)1 << 20, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem kept = clCreateBuffer(qt_context, 0, sizeof x, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, kept, CL_TRUE, 0, sizeof x, &x, 0, NULL, NULL));
    cl_event u = qt_user_event();
    cl_event g = qt_marker(q, 1, &u);
    alarm(60);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
    usleep(50000); /* the reaper has the free by now */
    cl_event after = qt_marker(q, 0, NULL);
    CHECK(qt_status(after) > CL_COMPLETE);
    CHECK(qt_status(g) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, kept, CL_TRUE, 0, sizeof y, &y, 0, NULL, NULL));
    CHECK(y == 7);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    alarm(0);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(kept));
    cl_event all[] = {after, g, u};
    for (int i = 0; i < 3; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(all[i]));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* Invalid wait lists and waits. */
static void test_invalid(void) {
    cl_command_queue q = qt_queue(0);
    cl_event e = NULL;
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(q, 1, NULL, &e));
    cl_event u = qt_user_event();
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(q, 0, &u, &e));
    cl_int err = 0;
    cl_context other = clCreateContext(NULL, 1, &qt_device, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_event foreign = clCreateUserEvent(other, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_INVALID_CONTEXT, clEnqueueMarkerWithWaitList(q, 1, &foreign, &e));
    cl_event two[] = {u, foreign};
    CHECK_ERR(CL_INVALID_CONTEXT, clWaitForEvents(2, two));
    CHECK_ERR(CL_INVALID_VALUE, clWaitForEvents(0, two));
    CHECK_ERR(CL_INVALID_VALUE, clSetEventCallback(u, CL_QUEUED, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(foreign, CL_COMPLETE));
    clReleaseEvent(u);
    clReleaseEvent(foreign);
    clReleaseContext(other);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* Progress on stderr: a hang shows where it is. */
#define STEP(call)                                                                                 \
    do {                                                                                           \
        fprintf(stderr, "events_user: %s\n", #call);                                               \
        call;                                                                                      \
    } while (0)

int main(void) {
    qt_setup();
    STEP(test_user_event_info());
    STEP(test_gate(0));
    STEP(test_gate(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
    STEP(test_gate(CL_QUEUE_PROFILING_ENABLE));
    STEP(test_wait_user());
    STEP(test_error_propagation());
    STEP(test_cross_queue());
    STEP(test_cuda_event_reuse(0));
    STEP(test_cuda_event_reuse(CL_QUEUE_PROFILING_ENABLE));
    STEP(test_invalid());
    STEP(test_release_while_gated());
    STEP(clReleaseContext(qt_context));
    return cv_test_report("events_user");
}
