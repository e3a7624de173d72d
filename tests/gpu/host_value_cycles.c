/* Many gate/release cycles of clEnqueueWaitHostValue with blocking host waits behind them: a gated
 * pageable write released by clSignalHostValue and then a blocking read (conformance's
 * wait_gates_queue), and clFinish on a gated queue released by another thread 30 ms into the
 * wait (conformance's profiled_wait), on plain and profiling queues. A blocking call that does
 * not return within WATCH_S is a failure: a watchdog thread prints what it sees (the slot, the
 * commands' statuses) and ends the process, so a hang shows where it stopped. */
#include "host_value_common.h"
#include "thread_stacks.h"

#include <pthread.h>
#include <unistd.h>

#define CYCLES  40
#define WATCH_S 10

static hv_test t;

/* What the watchdog reports about the current cycle. */
static struct {
    pthread_mutex_t lock;
    const char *step;
    int cycle;
    double deadline; /* 0: nothing blocking */
    cl_mem hv;
    cl_event events[2];
} watch = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void watch_begin(const char *step, int cycle, cl_mem hv, cl_event a, cl_event b) {
    pthread_mutex_lock(&watch.lock);
    watch.step = step;
    watch.cycle = cycle;
    watch.hv = hv;
    watch.events[0] = a;
    watch.events[1] = b;
    watch.deadline = hv_now_s() + WATCH_S;
    pthread_mutex_unlock(&watch.lock);
}

static void watch_end(void) {
    pthread_mutex_lock(&watch.lock);
    watch.deadline = 0;
    pthread_mutex_unlock(&watch.lock);
}

/* Each thread's name, state and (where the kernel shows it) system call: whether the blocked
 * thread sleeps in culvert's polling or inside the driver. */
static void *watchdog(void *arg) {
    (void)arg;
    for (;;) {
        hv_sleep_ms(100);
        pthread_mutex_lock(&watch.lock);
        if (watch.deadline && hv_now_s() > watch.deadline) {
            /* First what needs no OpenCL call (a call could block behind the hang). */
            fprintf(stderr, "HUNG: %s, cycle %d, for %d s\n", watch.step, watch.cycle, WATCH_S);
            cv_stacks_dump_all();
            if (watch.hv) {
                cl_ulong v = 0;
                t.load(watch.hv, &v);
                fprintf(stderr, "  slot holds %llu\n", (unsigned long long)v);
            }
            for (int i = 0; i < 2; i++)
                if (watch.events[i])
                    fprintf(stderr, "  event %d status %d\n", i, hv_status(watch.events[i]));
            _exit(1);
        }
        pthread_mutex_unlock(&watch.lock);
    }
    return NULL;
}

/* The gated write: it must not run before the signal, and the blocking read behind it returns. */
static void gated_write_then_read(cl_command_queue q, cl_mem buf, int cycle) {
    static const cl_host_value_condition conds[] = {
        CL_HOST_VALUE_GEQ_CULVERT, CL_HOST_VALUE_EQ_CULVERT, CL_HOST_VALUE_AND_CULVERT};
    static const cl_ulong target[] = {3, 7, 0x10}, release[] = {4, 7, 0x30}, miss[] = {2, 6, 0x01};
    int c = cycle % 3;
    cl_mem hv = hv_new(&t, miss[c]);
    cl_event wait_ev = NULL, write_ev = NULL;
    cl_int val = 100 + cycle, out = 0;
    watch_begin("enqueueing a gated write", cycle, hv, NULL, NULL);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, hv, target[c], conds[c], 0, NULL, &wait_ev));
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 4, &val, 0, NULL, &write_ev));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    hv_sleep_ms(cycle % 2 ? 30 : 2);
    CHECK(hv_status(write_ev) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(hv, release[c]));
    watch_begin("blocking read behind a released gate", cycle, hv, wait_ev, write_ev);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
    watch_end();
    CHECK(out == val);
    CHECK(hv_status(wait_ev) == CL_COMPLETE);
    clReleaseEvent(wait_ev);
    clReleaseEvent(write_ev);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(hv));
}

typedef struct {
    cl_mem hv;
    int delay_ms;
} signal_later;

static void *signal_thread(void *arg) {
    signal_later *s = arg;
    hv_sleep_ms(s->delay_ms);
    CHECK_ERR(CL_SUCCESS, t.signal(s->hv, 1));
    return NULL;
}

/* clFinish returns once another thread releases the queue's only command, a host value wait. */
static void finish_released_by_thread(cl_command_queue q, int cycle) {
    signal_later s = {hv_new(&t, 0), cycle % 2 ? 30 : 1};
    cl_event wait_ev = NULL;
    watch_begin("enqueueing a wait", cycle, s.hv, NULL, NULL);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, s.hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, &wait_ev));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    pthread_t th;
    REQUIRE(pthread_create(&th, NULL, signal_thread, &s) == 0);
    watch_begin("clFinish on a gated queue released by another thread", cycle, s.hv, wait_ev, NULL);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    watch_end();
    pthread_join(th, NULL);
    CHECK(hv_status(wait_ev) == CL_COMPLETE);
    clReleaseEvent(wait_ev);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(s.hv));
}

/* A program built, run and released before a cycle (as conformance's kernel_argument case runs
 * before profiled_wait): module loads and unloads must not stall the gates. Not under the fake
 * driver, which runs no kernels. */
static void kernel_round_trip(cl_command_queue q, int cycle) {
    if (cv_test_fake_cuda())
        return;
    watch_begin("building and running a kernel", cycle, NULL, NULL, NULL);
    const char *src = "kernel void k(global int *p) { p[0] = p[0] * 2 + 1; }";
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(t.context, 1, &src, NULL, &err);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &t.device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_int v = cycle;
    cl_mem m = clCreateBuffer(t.context, CL_MEM_COPY_HOST_PTR, sizeof v, &v, &err);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(q, k, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    CHECK(v == cycle * 2 + 1);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    watch_end();
}

/* One cycle of each kind on q. */
static void cycle(cl_command_queue q, cl_mem buf, int i) {
    gated_write_then_read(q, buf, i);
    finish_released_by_thread(q, i);
}

int main(void) {
    hv_test_setup(&t);
    cv_stacks_install(SIGUSR1);
    pthread_t dog;
    REQUIRE(pthread_create(&dog, NULL, watchdog, NULL) == 0);
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(t.context, CL_MEM_READ_WRITE, 4, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    const cl_command_queue_properties kinds[] = {0, CL_QUEUE_PROFILING_ENABLE};
    /* One queue of each kind for many cycles. */
    for (int k = 0; k < 2; k++) {
        cl_command_queue q = hv_queue(&t, kinds[k]);
        for (int i = 0; i < CYCLES; i++)
            cycle(q, buf, i);
        CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    }
    clReleaseMemObject(buf);
    /* A fresh context, queue and buffer for every cycle (as conformance/ runs its cases). */
    cl_context first = t.context;
    for (int i = 0; i < CYCLES; i++) {
        watch_begin("creating a context and a queue", i, NULL, NULL, NULL);
        t.context = clCreateContext(NULL, 1, &t.device, NULL, NULL, &err);
        REQUIRE(err == CL_SUCCESS);
        cl_command_queue q = hv_queue(&t, kinds[i % 2]);
        buf = clCreateBuffer(t.context, CL_MEM_READ_WRITE, 4, NULL, &err);
        REQUIRE(err == CL_SUCCESS);
        watch_end();
        kernel_round_trip(q, i);
        cycle(q, buf, i);
        watch_begin("clFinish and releasing the queue and context", i, NULL, NULL, NULL);
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        clReleaseMemObject(buf);
        CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
        CHECK_ERR(CL_SUCCESS, clReleaseContext(t.context));
        watch_end();
    }
    clReleaseContext(first);
    return cv_test_report("host_value_cycles");
}
