/* Commands across queues against a host model: a random sequence of copies, fills and
 * non-blocking writes on 64 four-byte cells of one buffer, spread over two in-order queues and an
 * out-of-order one, each made to wait (event wait lists) for every earlier command that wrote a
 * cell it reads or writes, or read a cell it writes, unless the in-order queue they share orders
 * them already; some wait for user events too, set a few commands later; markers, barriers,
 * flushes and host waits in between. The order is then the model's (the commands' own), so
 * after the queues finish the cells must hold what the model computed, whatever ran when. */
#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { CELLS = 64, COMMANDS = 2000, QUEUES = 3, MAX_WAIT = 16, MAX_USER = 8 };

typedef struct cmd {
    int queue;
    cl_event event;
    bool gated; /* behind a user event not set yet (directly or through what it waits for) */
} cmd;

static uint64_t state = 0xbb67ae8584caa73bull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&state);
}

static cmd cmds[COMMANDS];
static int last_writer[CELLS];
static int readers[CELLS][8], num_readers[CELLS];
static cl_command_queue queues[QUEUES];
static bool in_order[QUEUES];
static int last_on_queue[QUEUES];
/* Gated commands on a queue since the user events were last set, and whether a barrier put the
 * queue's later commands behind them. */
static bool any_gated[QUEUES], barrier_gated[QUEUES];
/* What each command waits for (through its wait list or its in-order queue): its START must not
 * come before their END. */
static int edge_from[COMMANDS * 12], edge_to[COMMANDS * 12], num_edges, current;

/* Adds command d to the wait list of a command on queue qi (unless the queue orders them). */
static void depend(int d, int qi, cl_event *wait, cl_uint *n, bool *gated) {
    if (d < 0)
        return;
    *gated |= cmds[d].gated;
    edge_from[num_edges] = d;
    edge_to[num_edges++] = current;
    if (in_order[qi] && cmds[d].queue == qi && rnd() % 4)
        return; /* the queue orders them (and sometimes the event says it again) */
    for (cl_uint i = 0; i < *n; i++)
        if (wait[i] == cmds[d].event)
            return;
    REQUIRE(*n < MAX_WAIT); /* a dependency left out would leave the order open */
    wait[(*n)++] = cmds[d].event;
}

/* An argument: another seed (the tests run the fixed one). */
int main(int argc, char **argv) {
    if (argc > 1)
        state = strtoull(argv[1], NULL, 0) | 1;
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(ctx != NULL);
    for (int i = 0; i < QUEUES; i++) {
        in_order[i] = i < 2;
        /* profiling on queues 1 and 2 */
        cl_queue_properties props[] = {
            CL_QUEUE_PROPERTIES,
            (i > 0 ? CL_QUEUE_PROFILING_ENABLE : 0) |
                (in_order[i] ? 0 : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
            0};
        queues[i] = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
        CHECK_ERR(CL_SUCCESS, err);
        REQUIRE(queues[i] != NULL);
        last_on_queue[i] = -1;
    }
    uint32_t model[CELLS], host_values[COMMANDS];
    for (int c = 0; c < CELLS; c++) {
        model[c] = (uint32_t)rnd();
        last_writer[c] = -1;
    }
    cl_mem cells = cv_test_buffer(ctx, sizeof model, model);
    cl_event user[MAX_USER];
    int num_user = 0, waited = 0, gated_commands = 0;
    for (int i = 0; i < COMMANDS; i++) {
        int qi = (int)(rnd() % QUEUES);
        cl_command_queue q = queues[qi];
        cl_event wait[MAX_WAIT + 1];
        cl_uint n = 0;
        bool gated = false;
        /* behind the last command of its in-order queue */
        current = i;
        if (in_order[qi] && last_on_queue[qi] >= 0) {
            gated |= cmds[last_on_queue[qi]].gated;
            edge_from[num_edges] = last_on_queue[qi];
            edge_to[num_edges++] = i;
        }
        gated |= barrier_gated[qi];
        /* An out-of-order queue may run its commands in order (the spec allows it): one there
         * may wait behind any gated command of that queue. */
        gated |= !in_order[qi] && any_gated[qi];
        int kind = (int)(rnd() % 3); /* 0: copy, 1: fill, 2: write */
        int src = (int)(rnd() % CELLS), dst = (int)(rnd() % CELLS);
        if (kind == 0 && num_readers[src] == 8)
            kind = 1; /* the cell's readers tracked are all a writer may wait for */
        if (kind == 0 && src == dst)
            dst = (dst + 1) % CELLS;
        if (kind == 0)
            depend(last_writer[src], qi, wait, &n, &gated);
        depend(last_writer[dst], qi, wait, &n, &gated);
        for (int r = 0; r < num_readers[dst]; r++)
            depend(readers[dst][r], qi, wait, &n, &gated);
        if (num_user < MAX_USER && rnd() % 16 == 0) {
            user[num_user] = clCreateUserEvent(ctx, &err);
            CHECK_ERR(CL_SUCCESS, err);
            wait[n++] = user[num_user++];
            gated = true;
        }
        uint32_t value = (uint32_t)rnd();
        host_values[i] = value;
        cl_event ev = NULL;
        switch (kind) {
        case 0:
            err = clEnqueueCopyBuffer(q, cells, cells, 4 * (size_t)src, 4 * (size_t)dst, 4, n,
                                      n ? wait : NULL, &ev);
            model[dst] = model[src];
            break;
        case 1:
            err = clEnqueueFillBuffer(q, cells, &value, 4, 4 * (size_t)dst, 4, n, n ? wait : NULL,
                                      &ev);
            model[dst] = value;
            break;
        default:
            err = clEnqueueWriteBuffer(q, cells, CL_FALSE, 4 * (size_t)dst, 4, &host_values[i], n,
                                       n ? wait : NULL, &ev);
            model[dst] = value;
            break;
        }
        CHECK_ERR(CL_SUCCESS, err);
        REQUIRE(ev != NULL);
        cmds[i] = (cmd){qi, ev, gated};
        gated_commands += gated;
        last_on_queue[qi] = i;
        any_gated[qi] |= gated;
        if (kind == 0)
            readers[src][num_readers[src]++] = i;
        last_writer[dst] = i;
        num_readers[dst] = 0;
        /* now and then: the user events set, a flush, a marker or barrier, a host wait */
        switch (rnd() % 32) {
        case 0:
            for (int u = 0; u < num_user; u++) {
                CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(user[u], CL_COMPLETE));
                clReleaseEvent(user[u]);
            }
            num_user = 0;
            for (int k = 0; k <= i; k++)
                cmds[k].gated = false;
            memset(any_gated, 0, sizeof any_gated);
            memset(barrier_gated, 0, sizeof barrier_gated);
            break;
        case 1:
            CHECK_ERR(CL_SUCCESS, clFlush(q));
            break;
        case 2:
            CHECK_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(q, 0, NULL, NULL));
            break;
        case 3:
            /* later commands of the queue wait for all before it */
            CHECK_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
            barrier_gated[qi] |= any_gated[qi];
            break;
        case 4: {
            int k = (int)(rnd() % (i + 1));
            if (!cmds[k].gated) {
                CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &cmds[k].event));
                cl_int status = CL_QUEUED;
                clGetEventInfo(cmds[k].event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                               &status, NULL);
                CHECK(status == CL_COMPLETE);
                waited++;
            }
            break;
        }
        default:
            break;
        }
    }
    for (int u = 0; u < num_user; u++) {
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(user[u], CL_COMPLETE));
        clReleaseEvent(user[u]);
    }
    for (int i = 0; i < QUEUES; i++)
        CHECK_ERR(CL_SUCCESS, clFinish(queues[i]));
    uint32_t got[CELLS];
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(queues[0], cells, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int wrong = 0;
    for (int c = 0; c < CELLS; c++)
        wrong += got[c] != model[c];
    if (wrong)
        fprintf(stderr, "%d of %d cells differ from the model\n", wrong, CELLS);
    CHECK(wrong == 0);
    /* Profiling: each command's times in order, and none starting before what it waited for
     * ended (both mapped from the device's clock by one mapping). */
    static cl_ulong times[COMMANDS][5];
    static const cl_profiling_info names[5] = {
        CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};
    int misordered = 0, early = 0;
    for (int i = 0; i < COMMANDS; i++)
        for (int t = 0; t < 5 && cmds[i].queue > 0; t++) {
            CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(cmds[i].event, names[t],
                                                          sizeof times[i][t], &times[i][t], NULL));
            misordered += t > 0 && times[i][t] < times[i][t - 1];
        }
    /* Each event's START and END come from the device's clock through culvert's mapping to
     * the host clock, whose anchors err by microseconds on the GPU (a thread's scheduling on the
     * fake driver): a command may seem to start that much before what it waited for ended. More
     * than a millisecond is no mapping's error. */
    cl_ulong most_early = 0;
    for (int e = 0; e < num_edges; e++) {
        int a = edge_from[e], b = edge_to[e];
        if (cmds[a].queue > 0 && cmds[b].queue > 0 && times[b][2] < times[a][3]) {
            cl_ulong by = times[a][3] - times[b][2];
            most_early = by > most_early ? by : most_early;
            early++;
        }
    }
    CHECK(misordered == 0 && most_early < 1000000);
    for (int i = 0; i < COMMANDS; i++) {
        cl_int status = CL_QUEUED;
        clGetEventInfo(cmds[i].event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                       NULL);
        CHECK(status == CL_COMPLETE);
        clReleaseEvent(cmds[i].event);
    }
    printf("%d commands on %d queues, %d behind user events, %d host waits: %d cells differ; "
           "%d waits, %d seemingly started before what they waited for ended (by at most %.1f "
           "us), %d events with times out of order\n",
           COMMANDS, QUEUES, gated_commands, waited, wrong, num_edges, early,
           (double)most_early / 1e3, misordered);
    clReleaseMemObject(cells);
    for (int i = 0; i < QUEUES; i++)
        clReleaseCommandQueue(queues[i]);
    clReleaseContext(ctx);
    return cv_test_report("queues_model");
}
