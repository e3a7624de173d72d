/* Profiling timestamps of 10,000 commands on three profiling queues (two in order, one out of
 * order; docs/kernel-abi.md "Kernel timing"): kernels, which time themselves (%globaltimer), and
 * copies, fills and markers, which CUDA events time, with waits across queues and barriers.
 * Every command: QUEUED <= SUBMIT <= START <= END <= COMPLETE, all within [host clock before its
 * enqueue, host clock after the wait] (guaranteed, whatever the anchors). Between commands: one
 * that runs after another (stream order, a wait list, a barrier) starts after that one ended,
 * within the two clocks' anchor error (the worst is printed). Also: the timer resolution. */
#include "queue_kernels.h"

enum { ROUNDS = 1000, PER_ROUND = 10, BATCH = 10 };

typedef struct cmd {
    cl_event e;
    cl_ulong t[5];
    int after[3]; /* commands (indices in the batch) it runs after; -1: none */
} cmd;

static cmd cmds[BATCH * PER_ROUND];
static int ncmds;
static long long worst; /* the most a command started before one it runs after ended, ns */
static cl_ulong slack;

static int add(cl_event e, int a, int b, int c) {
    REQUIRE(e != NULL && ncmds < BATCH * PER_ROUND);
    cmds[ncmds] = (cmd){e, {0}, {a, b, c}};
    return ncmds++;
}

/* Reads every command's times and checks them (before, after: the batch's host clock). */
static void check_batch(cl_ulong before, cl_ulong after, int *bad) {
    for (int i = 0; i < ncmds; i++) {
        cmd *c = &cmds[i];
        for (int j = 0; j < 5; j++)
            CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(c->e, CL_PROFILING_COMMAND_QUEUED + j,
                                                          sizeof c->t[j], &c->t[j], NULL));
        bool ok = before <= c->t[0] && c->t[0] <= c->t[1] && c->t[1] <= c->t[2] &&
                  c->t[2] <= c->t[3] && c->t[3] <= c->t[4] && c->t[4] <= after;
        CHECK(ok);
        if (!ok && (*bad)++ < 5) {
            cl_command_type type = 0;
            clGetEventInfo(c->e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
            fprintf(stderr,
                    "command %d (type 0x%x): before %llu q %llu s %llu st %llu e %llu c %llu "
                    "after %llu\n",
                    i, type, (unsigned long long)before, (unsigned long long)c->t[0],
                    (unsigned long long)c->t[1], (unsigned long long)c->t[2],
                    (unsigned long long)c->t[3], (unsigned long long)c->t[4],
                    (unsigned long long)after);
        }
    }
    for (int i = 0; i < ncmds; i++)
        for (int j = 0; j < 3; j++) {
            int a = cmds[i].after[j];
            if (a < 0)
                continue;
            long long early = (long long)cmds[a].t[3] - (long long)cmds[i].t[2];
            if (early > worst)
                worst = early;
            CHECK(early <= (long long)slack);
            if (early > (long long)slack && (*bad)++ < 5)
                fprintf(stderr, "command %d starts %lld ns before command %d ends\n", i, early, a);
        }
    for (int i = 0; i < ncmds; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(cmds[i].e));
    ncmds = 0;
}

static cl_ulong host_now(void) {
    cl_ulong t = 0;
    CHECK_ERR(CL_SUCCESS, clGetHostTimer(qt_device, &t));
    return t;
}

static void test_many(void) {
    cl_command_queue qa = qt_queue(CL_QUEUE_PROFILING_ENABLE),
                     qb = qt_queue(CL_QUEUE_PROFILING_ENABLE),
                     qc = qt_queue(CL_QUEUE_PROFILING_ENABLE |
                                   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_kernel k = qt_kernel("spin");
    cl_int err = CL_SUCCESS;
    cl_mem src = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 65536, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem dst = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 65536, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    const cl_uint zero = 0;
    int bad = 0, total = 0;
    for (int batch = 0; batch < ROUNDS / BATCH; batch++) {
        cl_ulong before = host_now();
        int last_a = -1, last_b = -1;
        for (int r = 0; r < BATCH; r++) {
            cl_event e = NULL, ka = NULL;
            /* queue A, in order: kernel, copy, fill, marker */
            CHECK_ERR(CL_SUCCESS, qt_spin(qa, k, 2000, 0, NULL, &ka));
            int ika = add(ka, last_a, -1, -1);
            CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(qa, src, dst, 0, 0, 4096, 0, NULL, &e));
            last_a = add(e, ika, -1, -1);
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueFillBuffer(qa, dst, &zero, sizeof zero, 0, 4096, 0, NULL, &e));
            last_a = add(e, last_a, -1, -1);
            last_a = add(qt_marker(qa, 0, NULL), last_a, -1, -1);
            /* queue B, in order: a kernel that waits for A's kernel, then another */
            CHECK_ERR(CL_SUCCESS, qt_spin(qb, k, 1000, 1, &ka, &e));
            last_b = add(e, last_b, ika, -1);
            CHECK_ERR(CL_SUCCESS, qt_spin(qb, k, 0, 0, NULL, &e));
            last_b = add(e, last_b, -1, -1);
            /* queue C, out of order: two kernels and a copy, then a barrier after all three */
            int c0 = ncmds;
            for (int j = 0; j < 2; j++) {
                CHECK_ERR(CL_SUCCESS, qt_spin(qc, k, 1000, 0, NULL, &e));
                add(e, -1, -1, -1);
            }
            CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(qc, src, dst, 8192, 8192, 4096, 0, NULL, &e));
            add(e, -1, -1, -1);
            CHECK_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(qc, 0, NULL, &e));
            add(e, c0, c0 + 1, c0 + 2);
        }
        CHECK_ERR(CL_SUCCESS, clFinish(qa));
        CHECK_ERR(CL_SUCCESS, clFinish(qb));
        CHECK_ERR(CL_SUCCESS, clFinish(qc));
        total += ncmds;
        check_batch(before, host_now(), &bad);
    }
    printf("%d commands on 3 profiling queues; the most a command started before one it runs "
           "after ended: %lld ns (allowed %llu)\n",
           total, worst, (unsigned long long)slack);
    CHECK(total == ROUNDS * PER_ROUND);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseKernel(k);
    clReleaseCommandQueue(qa);
    clReleaseCommandQueue(qb);
    clReleaseCommandQueue(qc);
}

/* %globaltimer's step (32 ns or 1 us, by driver), as the profiling queues made it known. */
static void test_resolution(void) {
    size_t res = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(qt_device, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                                          sizeof res, &res, NULL));
    printf("CL_DEVICE_PROFILING_TIMER_RESOLUTION: %zu ns\n", res);
    CHECK(res >= 1 && res <= 1000);
    if (getenv("CV_FAKE_CUDA"))
        CHECK(res == 32); /* the fake's %globaltimer steps */
}

int main(void) {
    qt_setup();
    /* Commands that run one after the other on the GPU: what can put one's START before the
     * other's END is the error of the two clocks' anchors (microseconds on a GPU); the fake's
     * events carry the host time a stream thread stamped, on a machine that may be loaded. */
    slack = getenv("CV_FAKE_CUDA") ? 10000000 : 50000;
    test_many();
    test_resolution();
    clReleaseContext(qt_context);
    return cv_test_report("events_ktime");
}
