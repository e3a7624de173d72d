/* Host waits woken by culvert's own releases (core/wait.h): threads blocked in clWaitForEvents,
 * clFinish, a blocking read and a blocking map on work held by a gate (a user event, a host value
 * signalled, a host value reset) return once the gate is released, also on a queue that waits
 * for the gated one through an event; waiters on several queues each wake at their own release;
 * many rounds of waits released at random times lose no wake-up. The waits have long gone to
 * sleep when the gate opens (20 ms: the spin lasts 0.3 ms).
 *
 * On a GPU a wait must return within 5 ms of its release (loose: a loaded machine must not fail
 * it); the latencies are printed. On the fake driver, whose streams are threads of a loaded
 * machine, there is no bound; with CULVERT_WAIT_POLL_US=0 (fake.events_wake_unpolled) there is
 * no polling thread and a sleeping wait wakes only when culvert releases it, so a lost wake-up
 * leaves the wait asleep for good: a wait that has not returned after 60 s fails the test. */
#include "wait_threads.h"

#include <stdlib.h>

/* A wait that does not return by then lost its wake-up (or hangs): the test fails and ends. */
#define HANG_S 60

static double bound_s;
static clCreateHostValue_fn hv_create;
static clSignalHostValue_fn hv_signal;
static clResetHostValue_fn hv_reset;
static clEnqueueWaitHostValue_fn hv_wait;

/* The gates: a user event set, a host value signalled (GEQ 1), a host value reset (EQ 0). */
typedef enum { G_USER, G_SIGNAL, G_RESET, G_COUNT } gate_kind;
static const char *const gate_names[] = {"user event", "clSignalHostValue", "clResetHostValue"};

typedef struct gate {
    gate_kind kind;
    cl_event user;
    cl_mem hv;
} gate;

/* A marker on q behind a closed gate of the kind. */
static cl_event gate_close(gate *g, gate_kind kind, cl_command_queue q) {
    cl_int err = CL_SUCCESS;
    g->kind = kind;
    g->user = NULL;
    g->hv = NULL;
    if (kind == G_USER) {
        g->user = qt_user_event();
        return qt_marker(q, 1, &g->user);
    }
    g->hv = hv_create(qt_context, kind == G_RESET ? 5 : 0, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(g->hv);
    CHECK_ERR(CL_SUCCESS,
              hv_wait(q, g->hv, kind == G_RESET ? 0 : 1,
                      kind == G_RESET ? CL_HOST_VALUE_EQ_CULVERT : CL_HOST_VALUE_GEQ_CULVERT, 0,
                      NULL, NULL));
    return qt_marker(q, 0, NULL);
}

/* Opens the gate; returns the time just before. */
static double gate_open(gate *g) {
    double t = qt_now();
    if (g->kind == G_USER)
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(g->user, CL_COMPLETE));
    else if (g->kind == G_SIGNAL)
        CHECK_ERR(CL_SUCCESS, hv_signal(g->hv, 1));
    else
        CHECK_ERR(CL_SUCCESS, hv_reset(g->hv));
    return t;
}

static void gate_release(gate *g) {
    if (g->user)
        clReleaseEvent(g->user);
    if (g->hv)
        clReleaseMemObject(g->hv);
}

/* Joins w, checks it succeeded no earlier than `opened` and (where bound_s) within the bound;
 * returns its latency in us. */
static double waiter_join(waiter *w, double opened, const char *what) {
    if (!wt_join(w, HANG_S)) {
        fprintf(stderr, "%s, %s: no return %d s after the release (a lost wake-up)\n", what,
                wt_names[w->kind], HANG_S);
        CHECK(!"the wait returned");
        exit(cv_test_report("events_wake"));
    }
    CHECK_ERR(CL_SUCCESS, w->result);
    double us = (w->end - opened) * 1e6;
    CHECK(w->end >= opened);
    CHECK(!bound_s || us < bound_s * 1e6);
    if ((bound_s && us >= bound_s * 1e6) || w->end < opened)
        fprintf(stderr, "%s, %s: returned %.0f us after the release\n", what, wt_names[w->kind],
                us);
    return us;
}

enum { GATED_WAITERS = 7 };

/* Queue a: a marker behind the gate; queue b: a marker that waits for it. Waiters on both, of
 * every kind, asleep when the gate opens. */
static void test_gate(gate_kind kind) {
    cl_command_queue a = qt_queue(0), b = qt_queue(0);
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 64, NULL, &err);
    REQUIRE(buf);
    gate g;
    cl_event m = gate_close(&g, kind, a);
    cl_event mb = qt_marker(b, 1, &m);
    waiter w[GATED_WAITERS];
    wt_start(&w[0], W_EVENT, a, m, NULL);
    wt_start(&w[1], W_FINISH, a, NULL, NULL);
    wt_start(&w[2], W_READ, a, NULL, buf);
    wt_start(&w[3], W_MAP, a, NULL, buf);
    wt_start(&w[4], W_EVENT, b, mb, NULL);
    wt_start(&w[5], W_FINISH, b, NULL, NULL);
    wt_start(&w[6], W_READ, b, NULL, buf);
    usleep(20000);
    CHECK(qt_status(m) == CL_SUBMITTED);
    double opened = gate_open(&g);
    printf("%-18s released, waits returned after (us):", gate_names[kind]);
    for (int i = 0; i < GATED_WAITERS; i++)
        printf(" %s%s %.0f%s", i == 4 ? "| queue b: " : "", wt_names[w[i].kind],
               waiter_join(&w[i], opened, gate_names[kind]), i + 1 < GATED_WAITERS ? "," : "");
    printf("\n");
    CHECK(qt_status(m) == CL_COMPLETE);
    CHECK(qt_status(mb) == CL_COMPLETE);
    clReleaseEvent(m);
    clReleaseEvent(mb);
    gate_release(&g);
    clReleaseMemObject(buf);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(a));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(b));
}

enum { QUEUES = 4 };

/* A gate per queue, released one after another (the last queue first): each queue's waiters
 * wake at their own release, not at another queue's. */
static void test_queues(void) {
    cl_command_queue q[QUEUES];
    cl_event u[QUEUES], m[QUEUES];
    waiter w[QUEUES][2];
    for (int i = 0; i < QUEUES; i++) {
        q[i] = qt_queue(i % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        u[i] = qt_user_event();
        m[i] = qt_marker(q[i], 1, &u[i]);
        wt_start(&w[i][0], W_EVENT, q[i], m[i], NULL);
        wt_start(&w[i][1], W_FINISH, q[i], NULL, NULL);
    }
    double opened[QUEUES];
    for (int i = QUEUES - 1; i >= 0; i--) {
        usleep(10000);
        opened[i] = qt_now();
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u[i], CL_COMPLETE));
    }
    double worst = 0;
    for (int i = 0; i < QUEUES; i++)
        for (int k = 0; k < 2; k++) {
            double us = waiter_join(&w[i][k], opened[i], "queues");
            worst = us > worst ? us : worst;
        }
    printf("%d queues, each released in turn: slowest wait returned %.0f us after its "
           "release\n",
           QUEUES, worst);
    for (int i = 0; i < QUEUES; i++) {
        clReleaseEvent(m[i]);
        clReleaseEvent(u[i]);
        CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q[i]));
    }
}

enum { ROUNDS = 200 };

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Releases at random times, before, during and after the waits' first spin (spin_us long):
 * every wait returns. */
static void test_stress(unsigned spin_us) {
    cl_command_queue q = qt_queue(0);
    static double lat[ROUNDS * 2];
    srand(7);
    for (int r = 0; r < ROUNDS; r++) {
        cl_event u = qt_user_event();
        cl_event m = qt_marker(q, 1, &u);
        waiter w[2];
        wt_start(&w[0], W_EVENT, q, m, NULL);
        wt_start(&w[1], W_FINISH, q, NULL, NULL);
        usleep((useconds_t)(rand() % (2 * spin_us + 300)));
        double opened = qt_now();
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
        for (int k = 0; k < 2; k++)
            lat[2 * r + k] = waiter_join(&w[k], opened, "stress");
        clReleaseEvent(m);
        clReleaseEvent(u);
    }
    qsort(lat, ROUNDS * 2, sizeof lat[0], cmp_double);
    printf("%d releases at random times: waits returned after %.0f us (median), %.0f us "
           "(slowest)\n",
           ROUNDS, lat[ROUNDS], lat[2 * ROUNDS - 1]);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

int main(void) {
    qt_setup();
    bound_s = cv_test_fake_cuda() ? 0 : 0.005;
    hv_create = (clCreateHostValue_fn)cv_test_ext_fn(qt_platform, "clCreateHostValue");
    hv_signal = (clSignalHostValue_fn)cv_test_ext_fn(qt_platform, "clSignalHostValue");
    hv_reset = (clResetHostValue_fn)cv_test_ext_fn(qt_platform, "clResetHostValue");
    hv_wait = (clEnqueueWaitHostValue_fn)cv_test_ext_fn(qt_platform, "clEnqueueWaitHostValue");
    /* The first blocking reads of the process set up the staging buffers (two for the two
     * reads at once, 32 MiB each): a round to warm up, unbounded. */
    double bound = bound_s;
    bound_s = 0;
    test_gate(G_USER);
    bound_s = bound;
    for (int k = 0; k < G_COUNT; k++)
        test_gate((gate_kind)k);
    test_queues();
    const char *spin = getenv("CULVERT_WAIT_SPIN_US");
    test_stress(spin ? (unsigned)atoi(spin) : 300);
    clReleaseContext(qt_context);
    return cv_test_report("events_wake");
}
