/* latency_probe: where the microseconds of a short round trip go. Not a benchmark row and not a
 * test: it prints, on the GPU machine, (1) the cost of single CUDA driver and host calls on the
 * enqueue and wait paths (queries of done and of pending work, event creation), (2) the round
 * trip "empty kernel, then wait" with each way of waiting, raw; a host-released gate
 * (cuStreamWaitValue64, cv-bench's user-event row) and a cross-stream dependency (its A -> B row)
 * with each way of waiting, down to the floor: the host spinning on a flag the GPU writes after
 * the kernel; (3) the same sequences through an OpenCL platform (default "culvert"), with the
 * time of each API call; (0) first, what host waits are built of (src/core/wait.c): how long
 * timed sleeps (nanosleep, a futex wait with a timeout) really last with the default timer slack
 * and with 1 us, how soon a futex wake runs the thread it wakes, and the CPU time a timed sleep
 * costs. Medians of 401 (gates, sleeps and wakes: 101, each after a 300 us sleep); µs.
 *
 *   latency_probe [platform-substring]
 */
#include "bench.h"
#include "bench_raw_ptx.h"

#include <CL/cl.h>
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define N 401

#define FUNCS(X)                                                                                   \
    X(cuInit, CUresult (*)(unsigned))                                                              \
    X(cuDeviceGet, CUresult (*)(CUdevice *, int))                                                  \
    X(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext *, CUdevice))                               \
    X(cuCtxSetCurrent, CUresult (*)(CUcontext))                                                    \
    X(cuCtxGetCurrent, CUresult (*)(CUcontext *))                                                  \
    X(cuModuleLoadData, CUresult (*)(CUmodule *, const void *))                                    \
    X(cuModuleGetFunction, CUresult (*)(CUfunction *, CUmodule, const char *))                     \
    X(cuLaunchKernel, CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,   \
                                   unsigned, unsigned, CUstream, void **, void **))                \
    X(cuStreamCreate, CUresult (*)(CUstream *, unsigned))                                          \
    X(cuStreamSynchronize, CUresult (*)(CUstream))                                                 \
    X(cuStreamQuery, CUresult (*)(CUstream))                                                       \
    X(cuStreamWaitEvent, CUresult (*)(CUstream, CUevent, unsigned))                                \
    X(cuEventCreate, CUresult (*)(CUevent *, unsigned))                                            \
    X(cuEventRecord, CUresult (*)(CUevent, CUstream))                                              \
    X(cuEventQuery, CUresult (*)(CUevent))                                                         \
    X(cuEventSynchronize, CUresult (*)(CUevent))

static struct {
#define F(name, type) __typeof__(type) name;
    FUNCS(F)
#undef F
} cu;

/* Versioned entry points (cuda.h's macros name them; #name above would not). */
static struct {
    CUresult (*memHostAlloc)(void **, size_t, unsigned);
    CUresult (*hostDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*waitValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned);
    CUresult (*writeValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned);
    CUresult (*eventDestroy)(CUevent);
} cv2;

static CUfunction f_empty;
static CUstream s1, s2, s3;
static CUevent ev1, ev2, ev3;
/* Mapped pinned flags: [0] the host releases gates with it, [1] the GPU writes after a kernel,
 * [2] holds s3 closed while pending work is queried. */
static volatile cuuint64_t *flags;
static CUdeviceptr dflags;

static CUresult launch(CUstream s) {
    return cu.cuLaunchKernel(f_empty, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL);
}

/* --- (1) single calls --- */
typedef void (*call_fn)(void);
static void c_ctx_get(void) {
    CUcontext c;
    cu.cuCtxGetCurrent(&c);
}
static void c_stream_query(void) {
    cu.cuStreamQuery(s1);
}
static void c_event_query(void) {
    cu.cuEventQuery(ev1);
}
static void c_event_record(void) {
    cu.cuEventRecord(ev1, s1);
}
static void c_wait_event(void) {
    cu.cuStreamWaitEvent(s2, ev1, 0);
}
static void c_event_create(void) {
    CUevent e;
    if (cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS)
        cv2.eventDestroy(e);
}
/* ev3 recorded on s3 behind a closed gate (flags[2]): work that is not done. */
static void c_event_query_pending(void) {
    cu.cuEventQuery(ev3);
}
static void c_stream_query_pending(void) {
    cu.cuStreamQuery(s3);
}
static void c_launch(void) {
    launch(s1);
}
static void c_clock(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
}
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void c_mutex(void) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
}
static void c_malloc(void) {
    void *volatile p = calloc(1, 512);
    free(p);
}
/* A condition signal to a thread that sleeps on it: the futex wake a track costs. */
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static atomic_int sleeper_stop;
static void *sleeper(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!atomic_load(&sleeper_stop))
        pthread_cond_wait(&cond, &m);
    pthread_mutex_unlock(&m);
    return NULL;
}
static void c_signal(void) {
    pthread_mutex_lock(&m);
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&m);
}

static void calls(void) {
    static const struct {
        const char *name;
        call_fn fn;
        int sleeps; /* the callee thread needs 50 us to fall asleep again between calls */
    } table[] = {
        {"cuCtxGetCurrent", c_ctx_get, 0},
        {"cuStreamQuery (idle stream)", c_stream_query, 0},
        {"cuEventQuery (done event)", c_event_query, 0},
        {"cuEventRecord", c_event_record, 0},
        {"cuStreamWaitEvent", c_wait_event, 0},
        {"cuLaunchKernel (empty, 32 threads)", c_launch, 0},
        {"cuEventCreate + cuEventDestroy", c_event_create, 0},
        {"cuEventQuery (pending event)", c_event_query_pending, 0},
        {"cuStreamQuery (pending stream)", c_stream_query_pending, 0},
        {"clock_gettime(MONOTONIC)", c_clock, 0},
        {"mutex lock+unlock", c_mutex, 0},
        {"calloc(512)+free", c_malloc, 0},
        {"cond signal to a sleeping thread", c_signal, 1},
    };
    pthread_t t;
    pthread_create(&t, NULL, sleeper, NULL);
    /* s3 stays closed (pending work) until the table is done */
    flags[2] = 0;
    cv2.waitValue64(s3, dflags + 16, 1, CU_STREAM_WAIT_VALUE_GEQ);
    launch(s3);
    cu.cuEventRecord(ev3, s3);
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        double v[N];
        for (int r = 0; r < N; r++) {
            int reps = table[i].sleeps ? 1 : 16;
            if (table[i].sleeps) {
                struct timespec ts = {0, 50000};
                nanosleep(&ts, NULL);
            }
            double t0 = bench_now_us();
            for (int k = 0; k < reps; k++)
                table[i].fn();
            v[r] = (bench_now_us() - t0) / reps;
            cu.cuStreamSynchronize(s1);
            cu.cuStreamSynchronize(s2);
        }
        printf("call  %-42s %7.3f\n", table[i].name, bench_median(v, N));
    }
    __atomic_store_n(&flags[2], 1, __ATOMIC_RELEASE);
    cu.cuStreamSynchronize(s3);
    atomic_store(&sleeper_stop, 1);
    pthread_mutex_lock(&m);
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
}

/* --- (2) raw round trips with each way of waiting --- */
static atomic_int poller_stop;
static void *poller(void *arg) {
    (void)arg; /* the tracker's competition: a cuEventQuery every 5 us */
    cu.cuCtxSetCurrent(*(CUcontext *)arg);
    while (!atomic_load(&poller_stop)) {
        cu.cuEventQuery(ev2);
        struct timespec t = {0, 5000};
        nanosleep(&t, NULL);
    }
    return NULL;
}

static void wait_stream_query(void) {
    while (cu.cuStreamQuery(s1) == CUDA_ERROR_NOT_READY)
        ;
}
static void wait_stream_query_clock(void) {
    double t0 = bench_now_us();
    while (cu.cuStreamQuery(s1) == CUDA_ERROR_NOT_READY && bench_now_us() - t0 < 300)
        ;
}
static void wait_event_query(void) {
    cu.cuEventRecord(ev1, s1);
    while (cu.cuEventQuery(ev1) == CUDA_ERROR_NOT_READY)
        ;
}
static void wait_event_sync(void) {
    cu.cuEventRecord(ev1, s1);
    cu.cuEventSynchronize(ev1);
}
static void wait_stream_sync(void) {
    cu.cuStreamSynchronize(s1);
}

static double round_trip(call_fn wait) {
    double v[N];
    for (int r = 0; r < N; r++) {
        double t0 = bench_now_us();
        launch(s1);
        wait();
        v[r] = bench_now_us() - t0;
    }
    return bench_median(v, N);
}

static void raw_round_trips(CUcontext ctx) {
    static const struct {
        const char *name;
        call_fn wait;
    } table[] = {
        {"cuStreamSynchronize", wait_stream_sync},
        {"poll cuStreamQuery", wait_stream_query},
        {"poll cuStreamQuery + clock", wait_stream_query_clock},
        {"cuEventRecord + poll cuEventQuery", wait_event_query},
        {"cuEventRecord + cuEventSynchronize", wait_event_sync},
    };
    for (int busy = 0; busy < 2; busy++) {
        pthread_t t;
        if (busy) {
            atomic_store(&poller_stop, 0);
            pthread_create(&t, NULL, poller, &ctx);
        }
        for (size_t i = 0; i < sizeof table / sizeof *table; i++)
            printf("raw   launch + %-36s%s %7.2f\n", table[i].name,
                   busy ? " (+poller)" : "          ", round_trip(table[i].wait));
        if (busy) {
            atomic_store(&poller_stop, 1);
            pthread_join(t, NULL);
        }
    }
}

/* A gate released by a host store, as cv-bench's user-event row: s1 waits for flags[0] >= seq,
 * runs the empty kernel, then (by mode) records ev1, or writes flags[1] = seq; after 300 us the
 * host stores flags[0] and waits by `mode`. The host-flag way is the floor: no CUDA call in the
 * wait. */
enum { W_STREAM_SYNC, W_EVENT_SYNC, W_EVENT_POLL, W_EVENT_POLL_CLOCK, W_FLAG };
static const char *const wait_names[] = {
    "cuStreamSynchronize",
    "record + cuEventSynchronize",
    "record + poll cuEventQuery",
    "record + poll cuEventQuery + clock (culvert)",
    "GPU writes a flag, host spins on it (floor)",
};
static cuuint64_t gate_seq;

static void wait_by(int mode, CUstream s, CUevent ev, cuuint64_t seq) {
    double t0 = bench_now_us();
    switch (mode) {
    case W_STREAM_SYNC:
        cu.cuStreamSynchronize(s);
        break;
    case W_EVENT_SYNC:
        cu.cuEventSynchronize(ev);
        break;
    case W_EVENT_POLL:
        while (cu.cuEventQuery(ev) == CUDA_ERROR_NOT_READY)
            ;
        break;
    case W_EVENT_POLL_CLOCK:
        while (cu.cuEventQuery(ev) == CUDA_ERROR_NOT_READY && bench_now_us() - t0 < 300)
            ;
        break;
    default:
        while (__atomic_load_n(&flags[1], __ATOMIC_ACQUIRE) < seq)
            ;
        break;
    }
}

/* What a wait mode puts on stream s after the dependent kernel. */
static void after_kernel(int mode, CUstream s, CUevent ev, cuuint64_t seq) {
    if (mode == W_FLAG)
        cv2.writeValue64(s, dflags + 8, seq, 0);
    else if (mode != W_STREAM_SYNC)
        cu.cuEventRecord(ev, s);
}

enum { NG = 101 };

static void raw_gates(void) {
    for (int mode = 0; mode <= W_FLAG; mode++) {
        double v[NG];
        for (int r = 0; r < NG; r++) {
            cuuint64_t seq = ++gate_seq;
            cv2.waitValue64(s1, dflags, seq, CU_STREAM_WAIT_VALUE_GEQ);
            launch(s1);
            after_kernel(mode, s1, ev1, seq);
            struct timespec ts = {0, 300000};
            nanosleep(&ts, NULL);
            double t0 = bench_now_us();
            __atomic_store_n(&flags[0], seq, __ATOMIC_RELEASE);
            wait_by(mode, s1, ev1, seq);
            v[r] = bench_now_us() - t0;
            cu.cuStreamSynchronize(s1);
        }
        printf("raw   gate released -> kernel seen done, %-44s %7.2f\n", wait_names[mode],
               bench_median(v, NG));
    }
    /* A -> B, with each way of waiting for B (cv-bench's row: record + cuEventSynchronize) */
    for (int mode = 0; mode <= W_FLAG; mode++) {
        double v[N];
        for (int r = 0; r < N; r++) {
            cuuint64_t seq = ++gate_seq;
            double t0 = bench_now_us();
            launch(s1);
            cu.cuEventRecord(ev1, s1);
            cu.cuStreamWaitEvent(s2, ev1, 0);
            launch(s2);
            after_kernel(mode, s2, ev2, seq);
            wait_by(mode, s2, ev2, seq);
            v[r] = bench_now_us() - t0;
            cu.cuStreamSynchronize(s2);
        }
        printf("raw   A -> B, %-71s %7.2f\n", wait_names[mode], bench_median(v, N));
    }
}

/* --- (3) the same through OpenCL, with the time of each call --- */
static void opencl(const char *want) {
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_platform_id p = NULL;
    for (cl_uint i = 0; i < np && !p; i++) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want))
            p = plats[i];
    }
    if (!p) {
        printf("cl    no platform matching \"%s\"\n", want);
        return;
    }
    cl_device_id d;
    cl_int e = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &e);
    cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, d, NULL, &e);
    size_t len = strlen(bench_raw_ptx);
    const unsigned char *bin = (const unsigned char *)bench_raw_ptx;
    cl_program prog = clCreateProgramWithBinary(ctx, 1, &d, &len, &bin, NULL, &e);
    if (e || clBuildProgram(prog, 1, &d, "", NULL, NULL)) {
        printf("cl    PTX program failed (%d)\n", e);
        return;
    }
    cl_kernel k = clCreateKernel(prog, "bench_empty", &e);
    size_t g = 32;
    enum { STEPS = 4, SEQS = 4 };
    static const char *const names[SEQS][STEPS] = {
        {"enqueue (no event)", "clFinish", "", ""},
        {"enqueue (event)", "clWaitForEvents", "clReleaseEvent", ""},
        {"enqueue A (event)", "clFlush", "enqueue B (waits A, event)", "clWaitForEvents(B)"},
        {"clCreateUserEvent", "enqueue (waits u, event) + clFlush", "clSetUserEventStatus",
         "clWaitForEvents"},
    };
    /* The steps each sequence's total counts: cv-bench's rows (the user event's: from the
     * release on, after a 300 us sleep). */
    static const int first_timed[SEQS] = {0, 0, 0, 2};
    static const char *const totals[SEQS] = {"round trip, clFinish", "round trip, event", "A -> B",
                                             "user event released -> kernel done"};
    for (int seq = 0; seq < SEQS; seq++) {
        double v[STEPS + 1][N];
        for (int r = 0; r < N; r++) {
            cl_event a = NULL, b = NULL;
            double t[STEPS + 1];
            t[0] = bench_now_us();
            if (seq == 0) {
                clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL);
                t[1] = bench_now_us();
                clFinish(q);
                t[2] = t[3] = t[4] = bench_now_us();
            } else if (seq == 1) {
                clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, &a);
                t[1] = bench_now_us();
                clWaitForEvents(1, &a);
                t[2] = bench_now_us();
                clReleaseEvent(a);
                t[3] = t[4] = bench_now_us();
            } else if (seq == 2) {
                clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, &a);
                t[1] = bench_now_us();
                clFlush(q);
                t[2] = bench_now_us();
                clEnqueueNDRangeKernel(q2, k, 1, NULL, &g, &g, 1, &a, &b);
                t[3] = bench_now_us();
                clWaitForEvents(1, &b);
                t[4] = bench_now_us();
                clReleaseEvent(a);
                clReleaseEvent(b);
            } else {
                /* the gated kernel waits 300 us before the release, as in cv-bench; the steps
                 * are laid end to end without the sleep */
                a = clCreateUserEvent(ctx, &e);
                double created = bench_now_us();
                clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 1, &a, &b);
                clFlush(q);
                double flushed = bench_now_us();
                struct timespec ts = {0, 300000};
                nanosleep(&ts, NULL);
                double released = bench_now_us();
                clSetUserEventStatus(a, CL_COMPLETE);
                double set = bench_now_us();
                clWaitForEvents(1, &b);
                double seen = bench_now_us();
                t[1] = created;
                t[2] = flushed;
                t[3] = t[2] + (set - released);
                t[4] = t[3] + (seen - set);
                clReleaseEvent(b);
                clReleaseEvent(a);
            }
            for (int s = 0; s < STEPS; s++)
                v[s][r] = t[s + 1] - t[s];
            v[STEPS][r] = t[STEPS] - t[first_timed[seq]];
        }
        printf("cl    %-50s %7.2f  =", totals[seq], bench_median(v[STEPS], N));
        for (int s = 0; s < STEPS && names[seq][s][0]; s++)
            printf("  %s %.2f", names[seq][s], bench_median(v[s], N));
        printf("\n");
    }
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

/* --- (0) timed sleeps and wake-ups on this host --- */
enum { SLEEPS = 101 };

static void futex_wait_ns(atomic_uint *word, unsigned expected, long ns) {
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, ns ? &ts : NULL, NULL, 0);
}

static void futex_wake_all(atomic_uint *word) {
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, 1 << 30, NULL, NULL, 0);
}

/* How long a timed sleep of us microseconds lasts: nanosleep, or a futex wait that times out. */
static double sleep_lasts(long us, bool futex) {
    static atomic_uint never;
    double v[SLEEPS];
    for (int r = 0; r < SLEEPS; r++) {
        double t0 = bench_now_us();
        if (futex)
            futex_wait_ns(&never, 0, us * 1000);
        else
            nanosleep(&(struct timespec){0, us * 1000}, NULL);
        v[r] = bench_now_us() - t0;
    }
    return bench_median(v, SLEEPS);
}

static atomic_uint wake_word, wake_stop;
static _Atomic double woke_at;

static void *wakee(void *arg) {
    (void)arg;
    while (!atomic_load(&wake_stop)) {
        unsigned w = atomic_load(&wake_word);
        futex_wait_ns(&wake_word, w, 0);
        atomic_store(&woke_at, bench_now_us());
    }
    return NULL;
}

static void host_sleeps(void) {
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    for (int k = 0; k < 2; k++) {
        long use = k ? 1000 : slack;
        prctl(PR_SET_TIMERSLACK, use, 0, 0, 0);
        static const long us[] = {1, 10, 20, 50, 100, 200, 1000};
        for (size_t i = 0; i < sizeof us / sizeof *us; i++)
            printf("host  sleep %4ld us (timer slack %5.1f us): nanosleep %8.1f, futex %8.1f\n",
                   us[i], use / 1e3, sleep_lasts(us[i], false), sleep_lasts(us[i], true));
    }
    prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
    /* A futex wake to a thread asleep on it: from the wake call to the thread running. */
    pthread_t t;
    pthread_create(&t, NULL, wakee, NULL);
    double v[SLEEPS];
    for (int r = 0; r < SLEEPS; r++) {
        nanosleep(&(struct timespec){0, 300000}, NULL);
        atomic_store(&woke_at, 0.0);
        double t0 = bench_now_us();
        atomic_fetch_add(&wake_word, 1);
        futex_wake_all(&wake_word);
        while (atomic_load(&woke_at) == 0.0 && bench_now_us() - t0 < 100000)
            ;
        v[r] = atomic_load(&woke_at) - t0;
    }
    atomic_store(&wake_stop, 1);
    atomic_fetch_add(&wake_word, 1);
    futex_wake_all(&wake_word);
    pthread_join(t, NULL);
    printf("host  futex wake -> the woken thread runs        %8.1f\n", bench_median(v, SLEEPS));
    /* The CPU time of one timed sleep that times out (what a polling thread pays per pass). */
    for (long us = 100; us <= 1000; us *= 10) {
        static atomic_uint never;
        struct rusage r0, r1;
        getrusage(RUSAGE_THREAD, &r0);
        int n = us == 100 ? 2000 : 200;
        for (int i = 0; i < n; i++)
            futex_wait_ns(&never, 0, us * 1000);
        getrusage(RUSAGE_THREAD, &r1);
        double cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec -
                              r0.ru_stime.tv_sec) *
                         1e6 +
                     (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec -
                              r0.ru_stime.tv_usec);
        printf("host  CPU of a %4ld us futex sleep (mean of %d)   %8.1f\n", us, n, cpu / n);
    }
}

int main(int argc, char **argv) {
    host_sleeps();
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        printf("libcuda.so.1 not loadable\n");
        return 0;
    }
#define L(name, type) *(void **)&cu.name = dlsym(lib, #name);
    FUNCS(L)
#undef L
    *(void **)&cu.cuLaunchKernel = dlsym(lib, "cuLaunchKernel");
    *(void **)&cv2.memHostAlloc = dlsym(lib, "cuMemHostAlloc");
    *(void **)&cv2.hostDevicePointer = dlsym(lib, "cuMemHostGetDevicePointer_v2");
    *(void **)&cv2.waitValue64 = dlsym(lib, "cuStreamWaitValue64_v2");
    *(void **)&cv2.writeValue64 = dlsym(lib, "cuStreamWriteValue64_v2");
    *(void **)&cv2.eventDestroy = dlsym(lib, "cuEventDestroy_v2");
    if (!cv2.waitValue64)
        *(void **)&cv2.waitValue64 = dlsym(lib, "cuStreamWaitValue64");
    if (!cv2.writeValue64)
        *(void **)&cv2.writeValue64 = dlsym(lib, "cuStreamWriteValue64");
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    if (cu.cuInit(0) || cu.cuDeviceGet(&dev, 0) || cu.cuDevicePrimaryCtxRetain(&ctx, dev) ||
        cu.cuCtxSetCurrent(ctx) || cu.cuModuleLoadData(&mod, bench_raw_ptx) ||
        cu.cuModuleGetFunction(&f_empty, mod, "bench_empty") ||
        cu.cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING) ||
        cu.cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING) ||
        cu.cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING) ||
        cu.cuEventCreate(&ev1, CU_EVENT_DISABLE_TIMING) ||
        cu.cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING) ||
        cu.cuEventCreate(&ev3, CU_EVENT_DISABLE_TIMING) || !cv2.memHostAlloc ||
        !cv2.hostDevicePointer || !cv2.waitValue64 || !cv2.writeValue64 || !cv2.eventDestroy ||
        cv2.memHostAlloc((void **)&flags, 64,
                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) ||
        cv2.hostDevicePointer(&dflags, (void *)flags, 0)) {
        printf("CUDA set-up failed\n");
        return 1;
    }
    flags[0] = flags[1] = flags[2] = 0;
    calls();
    raw_round_trips(ctx);
    raw_gates();
    opencl(argc > 1 ? argv[1] : "culvert");
    if (argc <= 1)
        opencl("NVIDIA");
    return 0;
}
