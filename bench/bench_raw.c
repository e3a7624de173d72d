/* cv-bench: the raw CUDA driver API column. libcuda.so.1 is dlopen'ed (only the functions below);
 * the kernels are hand-written PTX (kernels/bench_raw.ptx). */
#include "bench_raw.h"
#include "bench_raw_ptx.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *raw_device(const raw_backend *b) {
    return b->device_name;
}

raw_backend *raw_open(bool blocking, char *err, size_t err_size) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, err_size, "libcuda.so.1 not loadable (no NVIDIA driver)");
        return NULL;
    }
    raw_backend *b = calloc(1, sizeof(*b));
    bool ok = true;
#define LOAD(field, name, type)                                                                    \
    *(void **)&b->field = dlsym(lib, name);                                                        \
    ok = ok && b->field != NULL;
    RAW_FUNCS(LOAD)
#undef LOAD
    raw_open_graphs(b, lib);
    *(void **)&b->streamWaitValue64 = dlsym(lib, "cuStreamWaitValue64_v2");
    if (!b->streamWaitValue64)
        *(void **)&b->streamWaitValue64 = dlsym(lib, "cuStreamWaitValue64");
    CUdevice dev = 0;
    char name[128] = "";
    int version = 0;
    if (!ok || b->init(0) || b->deviceGet(&dev, 0) || b->primaryRetain(&b->ctx, dev) ||
        b->ctxSetCurrent(b->ctx)) {
        snprintf(err, err_size, "CUDA driver present but no usable device");
        free(b);
        return NULL;
    }
    b->deviceGetName(name, sizeof(name), dev);
    b->driverGetVersion(&version);
    snprintf(b->device_name, sizeof(b->device_name), "%s (CUDA driver API %d.%d)%s", name,
             version / 1000, version % 1000 / 10,
             blocking ? ", CU_EVENT_BLOCKING_SYNC events; only the rows that wait for the GPU"
                      : "");
    b->blocking = blocking;
    if (b->streamCreate(&b->s, CU_STREAM_NON_BLOCKING) ||
        b->streamCreate(&b->s2, CU_STREAM_NON_BLOCKING) ||
        b->moduleLoadData(&b->mod, bench_raw_ptx) ||
        b->moduleGetFunction(&b->f_empty, b->mod, "bench_empty") ||
        b->moduleGetFunction(&b->f_spin, b->mod, "bench_spin") ||
        b->moduleGetFunction(&b->f_copy4, b->mod, "bench_copy4") ||
        b->moduleGetFunction(&b->f_args8, b->mod, "bench_args8") ||
        b->moduleGetFunction(&b->f_fma, b->mod, "bench_fma") ||
        b->moduleGetFunction(&b->f_spin_end, b->mod, "bench_spin_end") ||
        b->moduleGetFunction(&b->f_timer_feed, b->mod, "bench_timer_feed")) {
        snprintf(err, err_size, "CUDA stream or PTX module setup failed");
        free(b);
        return NULL;
    }
    b->lane[0] = b->s;
    return b;
}

CUresult raw_launch_empty(raw_backend *b, CUstream s) {
    return b->launch(b->f_empty, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL);
}

static CUresult launch_spin(raw_backend *b, CUstream s, cl_ulong ns) {
    void *args[] = {&ns};
    return b->launch(b->f_spin, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

/* The event a wait of this column sleeps (blocking-sync) or spins on. */
static CUresult wait_event_create(raw_backend *b, CUevent *ev) {
    return b->eventCreate(ev, CU_EVENT_DISABLE_TIMING | (b->blocking ? CU_EVENT_BLOCKING_SYNC : 0));
}

/* mode 0: launch only; 1: launch + event record; 2: timing event pair around the launch. */
static double enqueue_burst(raw_backend *b, int mode) {
    enum { BURST = 256 };
    /* [0, BURST): plain events; [BURST, 3 BURST): timing pairs (start, end) per launch. */
    static CUevent evs[3 * BURST];
    static bool created;
    if (!created) {
        for (int i = 0; i < 3 * BURST; i++)
            if (b->eventCreate(&evs[i], i < BURST ? CU_EVENT_DISABLE_TIMING : CU_EVENT_DEFAULT))
                return NAN;
        created = true;
    }
    double v[64];
    raw_launch_empty(b, b->s);
    b->streamSync(b->s);
    for (int r = 0; r < g_opts.reps; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < BURST; i++) {
            if (mode == 2)
                b->eventRecord(evs[BURST + i], b->s);
            if (raw_launch_empty(b, b->s))
                return NAN;
            if (mode >= 1)
                b->eventRecord(evs[mode == 2 ? 2 * BURST + i : i], b->s);
        }
        double t1 = bench_now_us();
        b->streamSync(b->s);
        v[r] = (t1 - t0) / BURST;
    }
    return bench_median(v, g_opts.reps);
}

/* Eight argument values gathered for every launch (what an OpenCL enqueue after eight
 * clSetKernelArg calls amounts to). */
static double enqueue_args8(raw_backend *b) {
    enum { BURST = 256 };
    CUdeviceptr buf = 0;
    if (b->memAlloc(&buf, 64))
        return NAN;
    double v[64];
    for (int r = 0; r < g_opts.reps; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < BURST; i++) {
            CUdeviceptr a = buf, bb = buf, h = buf;
            int c = i, d = 2;
            float e = 1.0f, f = 2.0f;
            long long g = i;
            void *args[] = {&a, &bb, &c, &d, &e, &f, &g, &h};
            if (b->launch(b->f_args8, 1, 1, 1, 32, 1, 1, 0, b->s, args, NULL))
                return NAN;
        }
        double t1 = bench_now_us();
        b->streamSync(b->s);
        v[r] = (t1 - t0) / BURST;
    }
    b->memFree(buf);
    return bench_median(v, g_opts.reps);
}

static double round_trip(raw_backend *b, bool event) {
    CUevent ev = NULL;
    if (b->eventCreate(&ev, CU_EVENT_DISABLE_TIMING))
        return NAN;
    int n = g_opts.reps * 10;
    double *v = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_us();
        CUresult e = raw_launch_empty(b, b->s);
        if (event) {
            if (!e)
                e = b->eventRecord(ev, b->s);
            if (!e)
                e = b->eventSync(ev);
        } else if (!e) {
            e = b->streamSync(b->s);
        }
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    double m = bench_median(v, n);
    free(v);
    b->eventDestroy(ev);
    return m;
}

/* A thread blocked on an event (the dependent kernel's), in this backend's context. */
typedef struct raw_event_wait {
    raw_backend *b;
    CUevent ev;
} raw_event_wait;

static int raw_event_wait_main(void *arg) {
    raw_event_wait *w = arg;
    return w->b->ctxSetCurrent(w->b->ctx) || w->b->eventSync(w->ev);
}

/* cuStreamWaitValue64 on a mapped pinned u64 that the host then stores. The gated kernel's
 * completion is seen as OpenCL sees it, through an event recorded after it (the OpenCL side
 * waits with clWaitForEvents on the kernel's event): cuEventSynchronize. late: the way a pipeline
 * waits, a thread blocks on the event first and the gate opens BENCH_GATE_DELAY_US later (from
 * the release to that thread's return); otherwise the measuring thread releases the gate 300 us
 * after queuing and then waits itself. */
static double gate(raw_backend *b, bool late) {
    if (!b->streamWaitValue64)
        return NAN;
    volatile cuuint64_t *flag = NULL;
    CUdeviceptr dflag = 0;
    CUevent done = NULL;
    if (wait_event_create(b, &done))
        return NAN;
    if (b->memHostAlloc((void **)&flag, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE)) {
        b->eventDestroy(done);
        return NAN;
    }
    *flag = 0;
    double v[256];
    int n = late ? g_opts.reps : g_opts.reps * 4;
    CUresult e = b->memHostGetDevicePointer(&dflag, (void *)flag, 0);
    for (int i = 0; i < n && !e; i++) {
        e = b->streamWaitValue64(b->s, dflag, (cuuint64_t)i + 1, CU_STREAM_WAIT_VALUE_GEQ);
        if (!e)
            e = raw_launch_empty(b, b->s);
        if (!e)
            e = b->eventRecord(done, b->s);
        raw_event_wait w = {b, done};
        bench_waiter *t = late && !e ? bench_waiter_start(raw_event_wait_main, &w) : NULL;
        bench_sleep_us(late ? BENCH_GATE_DELAY_US : 300);
        double t0 = bench_now_us();
        __atomic_store_n(flag, (cuuint64_t)i + 1, __ATOMIC_RELEASE);
        if (late)
            v[i] = bench_waiter_join(t) - t0;
        else if (!e && !(e = b->eventSync(done)))
            v[i] = bench_now_us() - t0;
        if (!e && isnan(v[i]))
            e = CUDA_ERROR_UNKNOWN;
    }
    b->streamSync(b->s);
    b->memFreeHost((void *)flag);
    b->eventDestroy(done);
    return e ? NAN : bench_median(v, n);
}

/* What waits for a kernel in the kernel-end rows, as OpenCL's clFinish, clWaitForEvents and a
 * blocking 4-byte read after it: the stream, an event recorded after the kernel, a copy to
 * pageable memory then the stream (the blocking-sync column: to pinned memory, then an event). */
static CUresult kernel_end_wait(raw_backend *b, int figure, CUevent done, CUdeviceptr src,
                                void *pinned) {
    int out = 0;
    CUresult e = CUDA_SUCCESS;
    if (figure == F_KERNEL_END_READ)
        e = b->blocking ? b->memcpyDtoHAsync(pinned, src, 4, b->s)
                        : b->memcpyDtoHAsync(&out, src, 4, b->s);
    if (e)
        return e;
    if (figure == F_KERNEL_END_WAIT || b->blocking) {
        e = b->eventRecord(done, b->s);
        return e ? e : b->eventSync(done);
    }
    return b->streamSync(b->s);
}

/* A BENCH_KERNEL_NS kernel that stores the %globaltimer it ends at, then the wait: from the
 * kernel's end (on the host clock, g_opts.timer_offset_ns) to the wait's return. */
static double kernel_end(raw_backend *b, int figure) {
    CUdeviceptr end = 0;
    CUevent done = NULL;
    void *pinned = NULL;
    if (!g_opts.timer_known || b->memAlloc(&end, 64))
        return NAN;
    CUresult e = wait_event_create(b, &done);
    if (!e)
        e = b->memHostAlloc(&pinned, 64, 0);
    double v[64];
    int n = g_opts.reps;
    for (int i = 0; i < n && !e; i++) {
        cl_ulong ns = BENCH_KERNEL_NS, gt = 0;
        CUdeviceptr dst = end;
        void *args[] = {&ns, &dst};
        e = b->launch(b->f_spin_end, 1, 1, 1, 1, 1, 1, 0, b->s, args, NULL);
        if (!e)
            e = kernel_end_wait(b, figure, done, end, pinned);
        double t = bench_now_us();
        if (!e)
            e = b->memcpyDtoHAsync(&gt, end, sizeof gt, b->s);
        if (!e)
            e = b->streamSync(b->s);
        v[i] = t - bench_timer_us(gt);
    }
    if (pinned)
        b->memFreeHost(pinned);
    if (done)
        b->eventDestroy(done);
    b->memFree(end);
    return e ? NAN : bench_median(v, n);
}

void raw_calibrate_timer(raw_backend *b) {
    volatile uint64_t *feed = NULL;
    CUdeviceptr dfeed = 0;
    if (b->memHostAlloc((void **)&feed, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE))
        return;
    *feed = 0;
    cl_ulong ns = 20000000; /* the kernel writes for 20 ms; the host reads for 10 of them */
    void *args[] = {&dfeed, &ns};
    int64_t best = INT64_MAX;
    if (!b->memHostGetDevicePointer(&dfeed, (void *)feed, 0) &&
        !b->launch(b->f_timer_feed, 1, 1, 1, 1, 1, 1, 0, b->s, args, NULL)) {
        double start = bench_now_us();
        while (__atomic_load_n(feed, __ATOMIC_ACQUIRE) == 0 && bench_now_us() - start < 1e6)
            ;
        for (double t0 = bench_now_us(); bench_now_us() - t0 < 10000;) {
            uint64_t g = __atomic_load_n(feed, __ATOMIC_ACQUIRE);
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            int64_t host = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
            /* read after the GPU wrote it: the smallest difference is the offset (plus the
             * write's way across PCIe) */
            if (g && host - (int64_t)g < best)
                best = host - (int64_t)g;
        }
        b->streamSync(b->s);
    }
    b->memFreeHost((void *)feed);
    g_opts.timer_known = best != INT64_MAX;
    g_opts.timer_offset_ns = best;
}

/* A's event, B waits for it on the GPU, B's completion seen through an event recorded after it
 * (as the OpenCL side's clWaitForEvents on B's event). */
static double cross_queue(raw_backend *b) {
    CUevent ev = NULL, done = NULL;
    if (b->eventCreate(&ev, CU_EVENT_DISABLE_TIMING) ||
        b->eventCreate(&done, CU_EVENT_DISABLE_TIMING))
        return NAN;
    int n = g_opts.reps * 4;
    double v[256];
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_us();
        CUresult e = raw_launch_empty(b, b->s);
        if (!e)
            e = b->eventRecord(ev, b->s);
        if (!e)
            e = b->streamWaitEvent(b->s2, ev, 0);
        if (!e)
            e = raw_launch_empty(b, b->s2);
        if (!e)
            e = b->eventRecord(done, b->s2);
        if (!e)
            e = b->eventSync(done);
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    b->eventDestroy(ev);
    b->eventDestroy(done);
    return bench_median(v, n);
}

/* Times work(b, arg) between two timing events on b->s, in µs; median over reps. */
static double timed(raw_backend *b, CUresult (*work)(raw_backend *, void *), void *arg) {
    CUevent e0 = NULL, e1 = NULL;
    if (b->eventCreate(&e0, CU_EVENT_DEFAULT) || b->eventCreate(&e1, CU_EVENT_DEFAULT))
        return NAN;
    double v[64];
    CUresult e = work(b, arg); /* warm-up */
    b->streamSync(b->s);
    for (int r = 0; r < g_opts.reps && !e; r++) {
        float ms = 0;
        b->eventRecord(e0, b->s);
        e = work(b, arg);
        b->eventRecord(e1, b->s);
        if (!e)
            e = b->eventSync(e1);
        if (!e)
            e = b->eventElapsed(&ms, e0, e1);
        v[r] = (double)ms * 1e3;
    }
    b->eventDestroy(e0);
    b->eventDestroy(e1);
    return e ? NAN : bench_median(v, g_opts.reps);
}

static CUresult empty_work(raw_backend *b, void *arg) {
    (void)arg;
    return raw_launch_empty(b, b->s);
}

/* Time per kernel of `count` bench_fma launches of `turns` turns back to back, each followed by
 * an event (timing: a timing event pair around each, as a profiling queue needs), in µs. */
static double fma_stream_us(raw_backend *b, CUdeviceptr out, int turns, int count, bool timing,
                            CUevent plain, CUevent start, CUevent end) {
    unsigned n = (unsigned)g_opts.fma_items;
    void *args[] = {&out, &turns};
    CUresult e = b->streamSync(b->s);
    double t0 = bench_now_us();
    for (int i = 0; i < count && !e; i++) {
        if (timing)
            e = b->eventRecord(start, b->s);
        if (!e)
            e = b->launch(b->f_fma, n / 256, 1, 1, 256, 1, 1, 0, b->s, args, NULL);
        if (!e)
            e = b->eventRecord(timing ? end : plain, b->s);
    }
    if (!e)
        e = b->streamSync(b->s);
    return e ? NAN : (bench_now_us() - t0) / count;
}

/* Profiling's cost as OpenCL's rows measure it (bench_cl.c: profiling_cost). */
static double profiling_cost(raw_backend *b, double target_us) {
    CUdeviceptr out = 0;
    CUevent plain = NULL, start = NULL, end = NULL;
    double res = NAN;
    if (b->memAlloc(&out, g_opts.fma_items * 4) ||
        b->eventCreate(&plain, CU_EVENT_DISABLE_TIMING) ||
        b->eventCreate(&start, CU_EVENT_DEFAULT) || b->eventCreate(&end, CU_EVENT_DEFAULT))
        goto done;
    int turns = 16;
    for (int i = 0; i < 3; i++) {
        double us = fma_stream_us(b, out, turns, 10, false, plain, start, end);
        if (!(us > 0))
            break;
        double want = turns * target_us / us;
        turns = want < 1 ? 1 : want > 1e8 ? 100000000 : (int)want;
    }
    int count = target_us < 1000 ? 250 : 20, reps = target_us < 1000 ? g_opts.reps : 5;
    double v[64];
    for (int r = 0; r < reps; r++) {
        double plain_us = fma_stream_us(b, out, turns, count, false, plain, start, end);
        double timed_us = fma_stream_us(b, out, turns, count, true, plain, start, end);
        v[r] = 100.0 * (timed_us - plain_us) / plain_us;
    }
    res = bench_median(v, reps);
done:
    if (out)
        b->memFree(out);
    if (plain)
        b->eventDestroy(plain);
    if (start)
        b->eventDestroy(start);
    if (end)
        b->eventDestroy(end);
    return res;
}

static CUresult spin_work(raw_backend *b, void *arg) {
    return launch_spin(b, b->s, *(cl_ulong *)arg);
}

/* Waits for everything queued on lane i: cuStreamSynchronize (it spins), or, in the
 * blocking-sync column, an event recorded now. */
static CUresult lane_wait(raw_backend *b, int i) {
    CUresult e = CUDA_SUCCESS;
    if (!b->blocking)
        return b->streamSync(b->lane[i]);
    if (!b->lane_done[i])
        e = wait_event_create(b, &b->lane_done[i]);
    if (!e)
        e = b->eventRecord(b->lane_done[i], b->lane[i]);
    return e ? e : b->eventSync(b->lane_done[i]);
}

static int spin_start(void *ctx, int lane, uint64_t ns) {
    raw_backend *b = ctx;
    CUresult e = CUDA_SUCCESS;
    if (!b->lane[lane])
        e = b->streamCreate(&b->lane[lane], CU_STREAM_NON_BLOCKING);
    return e || launch_spin(b, b->lane[lane], ns) != CUDA_SUCCESS;
}

static int spin_wait(void *ctx, int lane) {
    raw_backend *b = ctx;
    /* the CPU rows run on threads of their own: the context is per thread */
    return b->ctxSetCurrent(b->ctx) || lane_wait(b, lane) != CUDA_SUCCESS;
}

static double transfer(raw_backend *b, bool h2d, bool pinned) {
    size_t size = g_opts.big;
    CUdeviceptr dev = 0;
    void *host = NULL;
    if (b->memAlloc(&dev, size))
        return NAN;
    if (pinned) {
        if (b->memHostAlloc(&host, size, 0))
            host = NULL;
    } else {
        host = malloc(size);
    }
    double v[64], res = NAN;
    if (host) {
        memset(host, 1, size);
        CUresult e = CUDA_SUCCESS;
        for (int r = 0; r < g_opts.reps + 1 && !e; r++) {
            double t0 = bench_now_us();
            e = h2d ? b->memcpyHtoDAsync(dev, host, size, b->s)
                    : b->memcpyDtoHAsync(host, dev, size, b->s);
            if (!e)
                e = b->streamSync(b->s);
            v[r > 0 ? r - 1 : 0] = (double)size / (bench_now_us() - t0) / 1e3;
        }
        res = e ? NAN : bench_median(v, g_opts.reps);
        if (pinned)
            b->memFreeHost(host);
        else
            free(host);
    }
    b->memFree(dev);
    return res;
}

static double small_write(raw_backend *b, size_t size) {
    CUdeviceptr dev = 0;
    if (b->memAlloc(&dev, size))
        return NAN;
    void *host = calloc(1, size);
    int n = g_opts.reps * 10;
    double *v = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_us();
        CUresult e = b->memcpyHtoDAsync(dev, host, size, b->s);
        if (!e)
            e = b->streamSync(b->s);
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    double m = bench_median(v, n);
    free(v);
    free(host);
    b->memFree(dev);
    return m;
}

static double read_after_kernel(raw_backend *b) {
    CUdeviceptr dev = 0;
    if (b->memAlloc(&dev, 4))
        return NAN;
    int n = g_opts.reps * 10, out = 0;
    double *v = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_us();
        CUresult e = raw_launch_empty(b, b->s);
        if (!e)
            e = b->memcpyDtoHAsync(&out, dev, 4, b->s);
        if (!e)
            e = b->streamSync(b->s);
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    double m = bench_median(v, n);
    free(v);
    b->memFree(dev);
    return m;
}

typedef struct dev_op {
    CUdeviceptr a, c;
    size_t size;
} dev_op;

static CUresult copy_work(raw_backend *b, void *arg) {
    dev_op *d = arg;
    return b->memcpyDtoDAsync(d->c, d->a, d->size, b->s);
}

static CUresult fill_work(raw_backend *b, void *arg) {
    dev_op *d = arg;
    return b->memsetD32Async(d->c, 0x3f800000u, d->size / 4, b->s);
}

static CUresult copy4_work(raw_backend *b, void *arg) {
    dev_op *d = arg;
    unsigned n = (unsigned)(d->size / 16);
    void *args[] = {&d->c, &d->a, &n};
    return b->launch(b->f_copy4, (n + 255) / 256, 1, 1, 256, 1, 1, 0, b->s, args, NULL);
}

static double device_rate(raw_backend *b, CUresult (*work)(raw_backend *, void *), double factor) {
    dev_op d = {0, 0, g_opts.big};
    double res = NAN;
    if (!b->memAlloc(&d.a, d.size) && !b->memAlloc(&d.c, d.size)) {
        b->memsetD32Async(d.a, 0, d.size / 4, b->s);
        double us = timed(b, work, &d);
        res = factor * (double)d.size / us / 1e3;
    }
    if (d.a)
        b->memFree(d.a);
    if (d.c)
        b->memFree(d.c);
    return res;
}

/* The rows the blocking-sync column measures: those that wait for the GPU. */
static bool waits_for_gpu(int f) {
    return f == F_USER_EVENT_LATE || f == F_HOST_VALUE_LATE || f == F_KERNEL_END_FINISH ||
           f == F_KERNEL_END_WAIT || f == F_KERNEL_END_READ || f == F_CPU_DURING_FINISH ||
           f == F_CPU_8_THREADS;
}

double raw_figure(raw_backend *b, int f) {
    cl_ulong spin_ns = 100000;
    if (b->blocking && !waits_for_gpu(f))
        return NAN;
    switch (f) {
    case F_ENQ_NOEVENT:
        return enqueue_burst(b, 0);
    case F_ENQ_EVENT:
        return enqueue_burst(b, 1);
    case F_ENQ_PROFILING:
        return enqueue_burst(b, 2);
    case F_ENQ_ARGS8:
        return enqueue_args8(b);
    case F_ROUNDTRIP_FINISH:
        return round_trip(b, false);
    case F_ROUNDTRIP_WAIT:
        return round_trip(b, true);
    case F_USER_EVENT_GATE:
    case F_HOST_VALUE_GATE:
        return gate(b, false);
    case F_HOST_VALUE_GATE_GRAPH:
        return raw_gate_graph(b);
    case F_CB_ENQUEUE_100:
        return raw_enqueue_100(b);
    case F_CB_REPLAY_100:
        return raw_replay_100(b);
    case F_CROSS_QUEUE:
        return cross_queue(b);
    case F_USER_EVENT_LATE:
    case F_HOST_VALUE_LATE:
        return gate(b, true);
    case F_KERNEL_END_FINISH:
    case F_KERNEL_END_WAIT:
    case F_KERNEL_END_READ:
        return kernel_end(b, f);
    case F_SPIN_100US:
        return timed(b, spin_work, &spin_ns);
    case F_EMPTY_PROFILED:
        return timed(b, empty_work, NULL);
    case F_PROFILING_COST_20US:
        return profiling_cost(b, 20);
    case F_PROFILING_COST_5MS:
        return profiling_cost(b, 5000);
    case F_CPU_DURING_FINISH:
        return bench_cpu_during_wait(&(bench_spinner){spin_start, spin_wait, b, 1});
    case F_CPU_8_THREADS:
        return bench_cpu_during_wait(&(bench_spinner){spin_start, spin_wait, b, BENCH_LANES});
    case F_H2D_PINNED:
        return transfer(b, true, true);
    case F_D2H_PINNED:
        return transfer(b, false, true);
    case F_H2D_PAGEABLE:
        return transfer(b, true, false);
    case F_D2H_PAGEABLE:
        return transfer(b, false, false);
    case F_WRITE_4B:
        return small_write(b, 4);
    case F_WRITE_4K:
        return small_write(b, 4096);
    case F_WRITE_64K:
        return small_write(b, 65536);
    case F_READ_4B_AFTER_KERNEL:
        return read_after_kernel(b);
    case F_COPY_D2D:
        return device_rate(b, copy_work, 2);
    case F_FILL:
        return device_rate(b, fill_work, 1);
    case F_K_COPY4:
        return device_rate(b, copy4_work, 2);
    default:
        return NAN; /* OpenCL C kernels and builds have no raw counterpart */
    }
}
