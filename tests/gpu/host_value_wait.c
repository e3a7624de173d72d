/* clEnqueueWaitHostValue and clEnqueueWriteHostValue on a GPU: every condition gates the queue's
 * later commands until the host (or another queue) meets it, events and profiling work, and a
 * host value released while a queue waits on it stays alive until the wait is over. */
#include "host_value_common.h"

/* How long a command must stay blocked to count as "gated" (the GPU passes a met wait within
 * microseconds), and how long to wait for one that should pass. */
#define BLOCKED_MS 50
#define PASS_MS    5000

static hv_test t;

/* Enqueues a wait and a marker behind it; returns the marker. */
static cl_event gated_marker(cl_command_queue q, cl_mem hv, cl_ulong value,
                             cl_host_value_condition cond, cl_event *wait_event) {
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, hv, value, cond, 0, NULL, wait_event));
    return hv_marker(q);
}

/* One condition: `blocked` values keep the marker waiting, then `passing` lets it through. */
static void check_condition(cl_command_queue q, const char *name, cl_host_value_condition cond,
                            cl_ulong initial, cl_ulong value, const cl_ulong *blocked,
                            size_t n_blocked, cl_ulong passing) {
    cl_mem hv = hv_new(&t, initial);
    cl_event marker = gated_marker(q, hv, value, cond, NULL);
    hv_sleep_ms(BLOCKED_MS);
    bool gated = hv_status(marker) > CL_COMPLETE;
    for (size_t i = 0; i < n_blocked; i++) {
        CHECK_ERR(CL_SUCCESS, t.signal(hv, blocked[i]));
        hv_sleep_ms(BLOCKED_MS);
        gated = gated && hv_status(marker) > CL_COMPLETE;
    }
    CHECK_ERR(CL_SUCCESS, t.signal(hv, passing));
    bool passed = hv_completes(marker, PASS_MS);
    if (!gated || !passed)
        fprintf(stderr, "condition %s: gated %d, passed %d\n", name, gated, passed);
    CHECK(gated);
    CHECK(passed);
    clReleaseEvent(marker);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(hv));
}

static void conditions(cl_command_queue q) {
    const cl_ulong geq_blocked[] = {1, 4};
    check_condition(q, "GEQ", CL_HOST_VALUE_GEQ_CULVERT, 0, 5, geq_blocked, 2, 9);
    /* GEQ is cyclic: (int64)(slot - value) >= 0, so a slot just below 2^64 is "before" 16. */
    const cl_ulong cyclic_blocked[] = {0xfffffffffffffffeull};
    check_condition(q, "GEQ cyclic", CL_HOST_VALUE_GEQ_CULVERT, 0xfffffffffffffff0ull, 0x10,
                    cyclic_blocked, 1, 0x10);
    const cl_ulong eq_blocked[] = {8, 6};
    check_condition(q, "EQ", CL_HOST_VALUE_EQ_CULVERT, 0, 7, eq_blocked, 2, 7);
    const cl_ulong and_blocked[] = {0x0f, 0x20};
    check_condition(q, "AND", CL_HOST_VALUE_AND_CULVERT, 0, 0x10, and_blocked, 2, 0x30);

    /* NOR: ~(slot | value) != 0, where the device has it. */
    cl_mem probe = hv_new(&t, 0);
    cl_int err = t.enqueue_wait(q, probe, 0, CL_HOST_VALUE_NOR_CULVERT, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS || err == CL_INVALID_VALUE);
    clReleaseMemObject(probe);
    if (err == CL_SUCCESS) {
        const cl_ulong nor_blocked[] = {~0x0full};
        check_condition(q, "NOR", CL_HOST_VALUE_NOR_CULVERT, ~0ull, 0x0f, nor_blocked, 1, ~0x1full);
    } else {
        printf("NOR: not supported by this device (CL_INVALID_VALUE), not tested\n");
    }

    /* A condition already met does not wait. */
    cl_mem met = hv_new(&t, 10);
    cl_event marker = gated_marker(q, met, 3, CL_HOST_VALUE_GEQ_CULVERT, NULL);
    CHECK(hv_completes(marker, PASS_MS));
    clReleaseEvent(marker);
    clReleaseMemObject(met);
}

/* The wait's event: its type, its status while blocked, and END - START covering the time the
 * GPU waited. */
static void events_and_profiling(cl_command_queue q) {
    cl_mem hv = hv_new(&t, 0);
    cl_event wait_event = NULL;
    cl_event marker = gated_marker(q, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, &wait_event);
    REQUIRE(wait_event != NULL);
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetEventInfo(wait_event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_WAIT_HOST_VALUE_CULVERT);
    cl_command_queue eq = NULL;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(wait_event, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
    CHECK(eq == q);
    double t0 = hv_now_s();
    hv_sleep_ms(3 * BLOCKED_MS);
    CHECK(hv_status(wait_event) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(hv, 1));
    CHECK(hv_completes(wait_event, PASS_MS));
    CHECK(hv_completes(marker, PASS_MS));
    double host_wait = hv_now_s() - t0;
    cl_ulong start = 0, end = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(wait_event, CL_PROFILING_COMMAND_START,
                                                  sizeof start, &start, NULL));
    CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(wait_event, CL_PROFILING_COMMAND_END, sizeof end,
                                                  &end, NULL));
    double gpu_wait = (double)(end - start) * 1e-9;
    printf("wait event: END - START = %.1f ms (host slept %d ms, saw it after %.1f ms)\n",
           gpu_wait * 1e3, 3 * BLOCKED_MS, host_wait * 1e3);
    CHECK(end >= start);
    /* START on the GPU is within microseconds of the enqueue; a fake stream thread may start late.
     */
    CHECK(cv_test_fake_cuda() || gpu_wait >= 0.8 * 3 * BLOCKED_MS * 1e-3);
    CHECK(gpu_wait <= host_wait + 0.25); /* START is not before the enqueue */
    clReleaseEvent(wait_event);
    clReleaseEvent(marker);
    clReleaseMemObject(hv);
}

/* clEnqueueWriteHostValue: the GPU writes after the commands before it, not earlier. */
static void gpu_writes(cl_command_queue q) {
    cl_mem gate = hv_new(&t, 0);
    cl_mem out = hv_new(&t, 0);
    cl_event write_event = NULL;
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, gate, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, t.enqueue_write(q, out, 42, 0, NULL, &write_event));
    REQUIRE(write_event != NULL);
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetEventInfo(write_event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_WRITE_HOST_VALUE_CULVERT);
    hv_sleep_ms(BLOCKED_MS);
    cl_ulong v = 1;
    CHECK_ERR(CL_SUCCESS, t.load(out, &v));
    CHECK(v == 0); /* not before the gate */
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 1));
    CHECK(hv_reaches(&t, out, 42, PASS_MS));
    CHECK(hv_completes(write_event, PASS_MS));
    /* With a wait list: after an event of another queue. */
    cl_command_queue q2 = hv_queue(&t, 0);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q2, gate, 2, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    cl_event q2_marker = hv_marker(q2);
    CHECK_ERR(CL_SUCCESS, t.enqueue_write(q, out, 43, 1, &q2_marker, NULL));
    hv_sleep_ms(BLOCKED_MS);
    CHECK_ERR(CL_SUCCESS, t.load(out, &v));
    CHECK(v == 42);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 2));
    CHECK(hv_reaches(&t, out, 43, PASS_MS));
    CHECK_ERR(CL_SUCCESS, clFinish(q2));
    clReleaseEvent(q2_marker);
    clReleaseCommandQueue(q2);
    clReleaseEvent(write_event);
    clReleaseMemObject(gate);
    clReleaseMemObject(out);
}

/* One queue signals another on the GPU alone: q1 writes what q2 waits for. The writer's commands
 * are enqueued first: CUDA does not see this dependency, and if the two streams shared a hardware
 * queue, a waiter enqueued first would block the writer (docs/host-value.md). */
static void queue_to_queue(cl_command_queue q1) {
    cl_command_queue q2 = hv_queue(&t, 0);
    cl_mem gate = hv_new(&t, 0), link = hv_new(&t, 0);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q1, gate, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, t.enqueue_write(q1, link, 1, 0, NULL, NULL));
    cl_event q2_done = gated_marker(q2, link, 1, CL_HOST_VALUE_GEQ_CULVERT, NULL);
    hv_sleep_ms(BLOCKED_MS);
    CHECK(hv_status(q2_done) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 1));
    CHECK(hv_completes(q2_done, PASS_MS));
    clReleaseEvent(q2_done);
    CHECK_ERR(CL_SUCCESS, clFinish(q1));
    CHECK_ERR(CL_SUCCESS, clFinish(q2));
    clReleaseCommandQueue(q2);
    clReleaseMemObject(gate);
    clReleaseMemObject(link);
}

/* The application releases a host value while a queue still waits on it (and another queue is
 * still to write it): the slot must stay valid until both are done. Writer first, as above. */
static void release_while_waiting(cl_command_queue q1) {
    cl_command_queue q2 = hv_queue(&t, 0);
    cl_mem gate = hv_new(&t, 0), doomed = hv_new(&t, 0);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q2, gate, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, t.enqueue_write(q2, doomed, 77, 0, NULL, NULL));
    cl_event waiter = gated_marker(q1, doomed, 77, CL_HOST_VALUE_EQ_CULVERT, NULL);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(doomed));
    /* New host values now must not get the doomed slot. */
    enum { FRESH = 64 };
    cl_mem fresh[FRESH];
    for (int i = 0; i < FRESH; i++)
        fresh[i] = hv_new(&t, 5);
    hv_sleep_ms(BLOCKED_MS);
    CHECK(hv_status(waiter) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 1));
    CHECK(hv_completes(waiter, PASS_MS));
    int clobbered = 0;
    for (int i = 0; i < FRESH; i++) {
        cl_ulong v = 0;
        clobbered += t.load(fresh[i], &v) != CL_SUCCESS || v != 5;
        clReleaseMemObject(fresh[i]);
    }
    CHECK(clobbered == 0);
    CHECK_ERR(CL_SUCCESS, clFinish(q1));
    CHECK_ERR(CL_SUCCESS, clFinish(q2));
    clReleaseEvent(waiter);
    clReleaseCommandQueue(q2);
    clReleaseMemObject(gate);
}

/* A wait gated on user events: one set to an error status terminates it as it does any command
 * gated on it (its event reports CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, the queue goes
 * on, the host value keeps its value), whether set before the enqueue or after; set to
 * CL_COMPLETE, the wait still waits for the host value. */
static void user_event_gates(cl_command_queue q) {
    cl_int err = CL_SUCCESS;
    cl_mem hv = hv_new(&t, 0);
    cl_event failing = clCreateUserEvent(t.context, &err),
             fine = clCreateUserEvent(t.context, &err);
    REQUIRE(failing && fine);
    cl_event both[2] = {fine, failing}, waits[2] = {NULL, NULL}, markers[2];
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 2, both, &waits[0]));
    markers[0] = hv_marker(q);
    hv_sleep_ms(BLOCKED_MS);
    CHECK(hv_status(waits[0]) > CL_COMPLETE && hv_status(markers[0]) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(fine, CL_COMPLETE));
    hv_sleep_ms(BLOCKED_MS);
    CHECK(hv_status(waits[0]) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(failing, -5));
    /* ... and one enqueued behind a user event that failed already */
    CHECK_ERR(CL_SUCCESS,
              t.enqueue_wait(q, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 1, &failing, &waits[1]));
    markers[1] = hv_marker(q);
    bool terminated = true;
    for (int i = 0; i < 2; i++) {
        cl_int s = hv_settles(waits[i], PASS_MS);
        CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, s);
        terminated = terminated && s == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    for (int i = 0; terminated && i < 2; i++) {
        CHECK(hv_completes(markers[i], PASS_MS));
        CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &waits[i]));
    }
    cl_ulong v = 99;
    CHECK_ERR(CL_SUCCESS, t.load(hv, &v));
    CHECK(v == 0);
    /* Not terminated: the queue waits for the host value; let it go so that the test ends. */
    if (!terminated)
        t.signal(hv, 1);
    CHECK_ERR(CL_SUCCESS, clFinish(q));

    /* A user event set to CL_COMPLETE after the enqueue: the wait still needs the host value. */
    cl_event later = clCreateUserEvent(t.context, &err), wait = NULL;
    REQUIRE(later != NULL);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, hv, 2, CL_HOST_VALUE_EQ_CULVERT, 1, &later, &wait));
    cl_event marker = hv_marker(q);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(later, CL_COMPLETE));
    hv_sleep_ms(BLOCKED_MS);
    CHECK(hv_status(wait) > CL_COMPLETE && hv_status(marker) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(hv, 2));
    CHECK(hv_completes(wait, PASS_MS));
    CHECK(hv_completes(marker, PASS_MS));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    cl_event done[] = {waits[0], waits[1], markers[0], markers[1], wait,
                       marker,   failing,  fine,       later};
    for (size_t i = 0; i < sizeof done / sizeof done[0]; i++)
        clReleaseEvent(done[i]);
    clReleaseMemObject(hv);
}

int main(void) {
    hv_test_setup(&t);
    cl_command_queue q = hv_queue(&t, CL_QUEUE_PROFILING_ENABLE);
    conditions(q);
    events_and_profiling(q);
    gpu_writes(q);
    queue_to_queue(q);
    release_while_waiting(q);
    user_event_gates(q);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    clReleaseCommandQueue(q);
    clReleaseContext(t.context);
    return cv_test_report("host_value_wait");
}
