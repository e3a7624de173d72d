/* cv-bench: the figures through OpenCL, the same code for every platform. */
#include "bench_cl.h"
#include "bench_cl_source.h"
#include "bench_double_source.h"
#include "bench_half_source.h"
#include "bench_il_spv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* 3 small kernels, as in the reference measurement of NVIDIA's cached/cold build. */
static const char *build_src =
    "kernel void b_a(global float *x) { x[get_global_id(0)] *= 2.0f; }\n"
    "kernel void b_b(global int *x, int v) { x[get_global_id(0)] += v; }\n"
    "kernel void b_c(global float4 *d, const global float4 *s)\n"
    "{ d[get_global_id(0)] = s[get_global_id(0)] + (float4)(1.0f); }\n";

const char *clb_name(const cl_backend *b) {
    return b->name;
}
const char *clb_device(const cl_backend *b) {
    return b->device_name;
}

/* A kernel of its own program, for an optional feature (cl_khr_fp16, cl_khr_fp64) that a device
 * without it cannot build; NULL (and a message) when it does not build. */
static cl_kernel optional_kernel(cl_backend *b, cl_program *prog, const char *src,
                                 const char *name) {
    cl_int e = CL_SUCCESS;
    *prog = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &e);
    if (*prog && clBuildProgram(*prog, 1, &b->dev, NULL, NULL, NULL) == CL_SUCCESS)
        return clCreateKernel(*prog, name, NULL);
    fprintf(stderr, "cv-bench: %s: building %s failed\n", b->name, name);
    return NULL;
}

cl_backend *clb_open(cl_platform_id platform, char *err, size_t err_size) {
    cl_backend *b = calloc(1, sizeof(*b));
    b->platform = platform;
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(b->name), b->name, NULL);
    cl_uint n = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &b->dev, &n) != CL_SUCCESS || !n) {
        if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &b->dev, &n) != CL_SUCCESS || !n) {
            snprintf(err, err_size, "%s: no device", b->name);
            free(b);
            return NULL;
        }
    }
    char dname[128] = "", drv[64] = "";
    clGetDeviceInfo(b->dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
    clGetDeviceInfo(b->dev, CL_DRIVER_VERSION, sizeof(drv), drv, NULL);
    snprintf(b->device_name, sizeof(b->device_name), "%s (driver %s)", dname, drv);
    cl_uint vendor = 0;
    clGetDeviceInfo(b->dev, CL_DEVICE_VENDOR_ID, sizeof(vendor), &vendor, NULL);
    b->nv = vendor == 0x10de;
    cl_int e = CL_SUCCESS;
    b->ctx = clCreateContext(NULL, 1, &b->dev, NULL, NULL, &e);
    if (!b->ctx) {
        snprintf(err, err_size, "%s: clCreateContext: %d", b->name, e);
        free(b);
        return NULL;
    }
    cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    b->q = clCreateCommandQueueWithProperties(b->ctx, b->dev, NULL, &e);
    b->q2 = clCreateCommandQueueWithProperties(b->ctx, b->dev, NULL, &e);
    b->qp = clCreateCommandQueueWithProperties(b->ctx, b->dev, prof, &e);
    b->lane[0] = b->q;
    if (!b->q || !b->q2 || !b->qp) {
        snprintf(err, err_size, "%s: queue creation: %d", b->name, e);
        free(b);
        return NULL;
    }
    const char *src = bench_cl_source;
    b->prog = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &e);
    /* The %globaltimer spin needs inline PTX; without it the other kernels still run. */
    b->timer = b->nv;
    if (b->prog && b->timer &&
        clBuildProgram(b->prog, 1, &b->dev, "-DBENCH_NV_TIMER", NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "cv-bench: %s: no inline-PTX %%globaltimer; spin figures skipped\n",
                b->name);
        b->timer = false;
        clReleaseProgram(b->prog);
        b->prog = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &e);
    }
    if (b->prog && !b->timer &&
        clBuildProgram(b->prog, 1, &b->dev, NULL, NULL, NULL) != CL_SUCCESS) {
        char log[2048] = "";
        clGetProgramBuildInfo(b->prog, b->dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
        fprintf(stderr, "cv-bench: %s: building the bench kernels failed:\n%s\n", b->name, log);
        clReleaseProgram(b->prog);
        b->prog = NULL;
    }
    if (b->prog) {
        b->k_spin = clCreateKernel(b->prog, "bench_spin", NULL);
        b->k_empty = clCreateKernel(b->prog, "bench_empty", NULL);
        b->k_args8 = clCreateKernel(b->prog, "bench_args8", NULL);
        b->k_copy4 = clCreateKernel(b->prog, "bench_copy4", NULL);
        b->k_fma = clCreateKernel(b->prog, "bench_fma", NULL);
        b->k_hash = clCreateKernel(b->prog, "bench_hash", NULL);
        b->k_sgemm = clCreateKernel(b->prog, "bench_sgemm", NULL);
        b->k_reduce = clCreateKernel(b->prog, "bench_reduce", NULL);
        b->k_math = clCreateKernel(b->prog, "bench_math", NULL);
        b->k_spin_end = clCreateKernel(b->prog, "bench_spin_end", NULL);
        b->k_mad_int = clCreateKernel(b->prog, "bench_mad_int", NULL);
        b->k_mad_int4 = clCreateKernel(b->prog, "bench_mad_int4", NULL);
        b->k_mad24 = clCreateKernel(b->prog, "bench_mad24", NULL);
        b->k_mad_float2 = clCreateKernel(b->prog, "bench_mad_float2", NULL);
        b->k_sha256 = clCreateKernel(b->prog, "bench_sha256", NULL);
        b->k_blowfish = clCreateKernel(b->prog, "bench_blowfish", NULL);
    }
    /* Half precision: its own program, since a device without cl_khr_fp16 (NVIDIA's OpenCL)
     * cannot build it. */
    char dev_ext[8192] = "";
    clGetDeviceInfo(b->dev, CL_DEVICE_EXTENSIONS, sizeof(dev_ext) - 1, dev_ext, NULL);
    b->fp16 = strstr(dev_ext, "cl_khr_fp16") != NULL;
    char il[256] = "";
    clGetDeviceInfo(b->dev, CL_DEVICE_IL_VERSION, sizeof(il) - 1, il, NULL);
    b->il_version = il[0] != '\0';
    b->fp64 = strstr(dev_ext, "cl_khr_fp64") != NULL;
    if (b->fp16)
        b->k_half_fma = optional_kernel(b, &b->half_prog, bench_half_source, "half_fma");
    if (b->fp64)
        b->k_math_double = optional_kernel(b, &b->double_prog, bench_double_source, "math_double");
    clb_open_command_buffers(b);
    char ext[4096] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof(ext), ext, NULL);
    if (strstr(ext, CL_CULVERT_HOST_VALUE_EXTENSION_NAME)) {
        b->hv_create = (clCreateHostValue_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateHostValue");
        b->hv_signal = (clSignalHostValue_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clSignalHostValue");
        b->hv_wait = (clEnqueueWaitHostValue_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clEnqueueWaitHostValue");
    }
    return b;
}

static const size_t one32 = 32;

cl_int clb_launch_empty(cl_backend *b, cl_command_queue q, cl_uint nw, const cl_event *w,
                        cl_event *ev) {
    return clEnqueueNDRangeKernel(q, b->k_empty, 1, NULL, &one32, &one32, nw, w, ev);
}

/* Mean enqueue cost over bursts of 256; median of the bursts. */
static double enqueue_burst(cl_backend *b, cl_command_queue q, bool with_event) {
    if (!b->k_empty)
        return NAN;
    enum { BURST = 256 };
    cl_event evs[BURST];
    double v[64];
    int reps = g_opts.reps;
    if (clb_launch_empty(b, q, 0, NULL, NULL) || clFinish(q))
        return NAN;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < BURST; i++)
            if (clb_launch_empty(b, q, 0, NULL, with_event ? &evs[i] : NULL))
                return NAN;
        double t1 = bench_now_us();
        clFinish(q);
        if (with_event)
            for (int i = 0; i < BURST; i++)
                clReleaseEvent(evs[i]);
        v[r] = (t1 - t0) / BURST;
    }
    return bench_median(v, reps);
}

/* Eight clSetKernelArg calls and an enqueue, per kernel; mean over bursts of 256. */
static double enqueue_args8(cl_backend *b) {
    if (!b->k_args8)
        return NAN;
    enum { BURST = 256 };
    cl_int e = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
    if (!buf)
        return NAN;
    cl_kernel k = b->k_args8;
    double v[64];
    for (int r = 0; r < g_opts.reps && !e; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < BURST && !e; i++) {
            cl_int c = i, d = 2;
            cl_float f1 = 1.0f, f2 = 2.0f;
            cl_long g = i;
            e = clSetKernelArg(k, 0, sizeof buf, &buf) | clSetKernelArg(k, 1, sizeof buf, &buf) |
                clSetKernelArg(k, 2, sizeof c, &c) | clSetKernelArg(k, 3, sizeof d, &d) |
                clSetKernelArg(k, 4, sizeof f1, &f1) | clSetKernelArg(k, 5, sizeof f2, &f2) |
                clSetKernelArg(k, 6, sizeof g, &g) | clSetKernelArg(k, 7, sizeof buf, &buf);
            if (!e)
                e = clEnqueueNDRangeKernel(b->q, k, 1, NULL, &one32, &one32, 0, NULL, NULL);
        }
        double t1 = bench_now_us();
        clFinish(b->q);
        v[r] = (t1 - t0) / BURST;
    }
    clReleaseMemObject(buf);
    return e ? NAN : bench_median(v, g_opts.reps);
}

static double round_trip(cl_backend *b, bool finish) {
    if (!b->k_empty)
        return NAN;
    int n = g_opts.reps * 10;
    double *v = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        cl_event ev = NULL;
        double t0 = bench_now_us();
        cl_int e = clb_launch_empty(b, b->q, 0, NULL, finish ? NULL : &ev);
        if (!e)
            e = finish ? clFinish(b->q) : clWaitForEvents(1, &ev);
        v[i] = e ? NAN : bench_now_us() - t0;
        if (ev)
            clReleaseEvent(ev);
    }
    double m = bench_median(v, n);
    free(v);
    return m;
}

static double user_event_gate(cl_backend *b) {
    if (!b->k_empty)
        return NAN;
    int n = g_opts.reps * 4;
    double v[256];
    for (int i = 0; i < n; i++) {
        cl_int e = CL_SUCCESS;
        cl_event u = clCreateUserEvent(b->ctx, &e), ev = NULL;
        if (!u)
            return NAN;
        e = clb_launch_empty(b, b->q, 1, &u, &ev);
        clFlush(b->q);
        bench_sleep_us(300);
        double t0 = bench_now_us();
        clSetUserEventStatus(u, CL_COMPLETE);
        if (!e)
            e = clWaitForEvents(1, &ev);
        v[i] = e ? NAN : bench_now_us() - t0;
        if (ev)
            clReleaseEvent(ev);
        clReleaseEvent(u);
    }
    return bench_median(v, n);
}

static double cross_queue(cl_backend *b) {
    if (!b->k_empty)
        return NAN;
    int n = g_opts.reps * 4;
    double v[256];
    for (int i = 0; i < n; i++) {
        cl_event a = NULL, c = NULL;
        double t0 = bench_now_us();
        cl_int e = clb_launch_empty(b, b->q, 0, NULL, &a);
        if (!e)
            e = clFlush(b->q);
        if (!e)
            e = clb_launch_empty(b, b->q2, 1, &a, &c);
        if (!e)
            e = clWaitForEvents(1, &c);
        v[i] = e ? NAN : bench_now_us() - t0;
        if (a)
            clReleaseEvent(a);
        if (c)
            clReleaseEvent(c);
    }
    return bench_median(v, n);
}

static double host_value_gate(cl_backend *b) {
    if (!b->hv_create || !b->hv_signal || !b->hv_wait || !b->k_empty)
        return NAN;
    cl_int e = CL_SUCCESS;
    cl_mem hv = b->hv_create(b->ctx, 0, &e);
    if (!hv)
        return NAN;
    int n = g_opts.reps * 4;
    double v[256];
    for (int i = 0; i < n; i++) {
        cl_event ev = NULL;
        e = b->hv_wait(b->q, hv, (cl_ulong)i + 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL);
        if (!e)
            e = clb_launch_empty(b, b->q, 0, NULL, &ev);
        clFlush(b->q);
        bench_sleep_us(300);
        double t0 = bench_now_us();
        b->hv_signal(hv, (cl_ulong)i + 1);
        if (!e)
            e = clWaitForEvents(1, &ev);
        v[i] = e ? NAN : bench_now_us() - t0;
        if (ev)
            clReleaseEvent(ev);
    }
    clReleaseMemObject(hv);
    return bench_median(v, n);
}

static int wait_event_main(void *arg) {
    return clWaitForEvents(1, (cl_event *)arg) != CL_SUCCESS;
}

/* The way a pipeline waits: a thread blocks in clWaitForEvents on an empty kernel behind a gate
 * (a user event, or a host value when hv), and the gate opens BENCH_GATE_DELAY_US later; from
 * the release call to the thread's return. */
static double gate_late(cl_backend *b, bool hv) {
    if (!b->k_empty || (hv && (!b->hv_create || !b->hv_signal || !b->hv_wait)))
        return NAN;
    cl_int e = CL_SUCCESS;
    cl_mem value = hv ? b->hv_create(b->ctx, 0, &e) : NULL;
    if (hv && !value)
        return NAN;
    int n = g_opts.reps;
    double v[64];
    for (int i = 0; i < n && !e; i++) {
        cl_event u = hv ? NULL : clCreateUserEvent(b->ctx, &e), ev = NULL;
        if (!e && hv)
            e = b->hv_wait(b->q, value, (cl_ulong)i + 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL);
        if (!e)
            e = clb_launch_empty(b, b->q, hv ? 0 : 1, hv ? NULL : &u, &ev);
        clFlush(b->q);
        bench_waiter *t = e ? NULL : bench_waiter_start(wait_event_main, &ev);
        bench_sleep_us(BENCH_GATE_DELAY_US);
        double t0 = bench_now_us();
        if (hv)
            b->hv_signal(value, (cl_ulong)i + 1);
        else if (u)
            clSetUserEventStatus(u, CL_COMPLETE);
        v[i] = bench_waiter_join(t) - t0;
        e = e ? e : isnan(v[i]) ? CL_INVALID_OPERATION : CL_SUCCESS;
        if (ev)
            clReleaseEvent(ev);
        if (u)
            clReleaseEvent(u);
    }
    clFinish(b->q);
    if (value)
        clReleaseMemObject(value);
    return e ? NAN : bench_median(v, n);
}

/* A BENCH_KERNEL_NS kernel that stores the %globaltimer it ends at, then clFinish,
 * clWaitForEvents or a blocking 4-byte read: from the kernel's end (on the host clock,
 * g_opts.timer_offset_ns) to the call's return. */
static double kernel_end(cl_backend *b, int figure) {
    if (!b->timer || !b->k_spin_end || !g_opts.timer_known)
        return NAN;
    cl_int e = CL_SUCCESS, out = 0;
    cl_mem end = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
    cl_mem r4 = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, 64, NULL, &e);
    int n = g_opts.reps;
    double v[64];
    size_t one = 1;
    cl_ulong ns = BENCH_KERNEL_NS;
    if (end && r4)
        e = clSetKernelArg(b->k_spin_end, 0, sizeof ns, &ns) |
            clSetKernelArg(b->k_spin_end, 1, sizeof end, &end);
    for (int i = 0; i < n && end && r4 && !e; i++) {
        cl_event ev = NULL;
        cl_ulong gt = 0;
        e = clEnqueueNDRangeKernel(b->q, b->k_spin_end, 1, NULL, &one, &one, 0, NULL,
                                   figure == F_KERNEL_END_WAIT ? &ev : NULL);
        if (!e)
            e = figure == F_KERNEL_END_FINISH ? clFinish(b->q)
                : figure == F_KERNEL_END_WAIT
                    ? clWaitForEvents(1, &ev)
                    : clEnqueueReadBuffer(b->q, r4, CL_TRUE, 0, 4, &out, 0, NULL, NULL);
        double t = bench_now_us();
        if (!e)
            e = clEnqueueReadBuffer(b->q, end, CL_TRUE, 0, sizeof gt, &gt, 0, NULL, NULL);
        v[i] = t - bench_timer_us(gt);
        if (ev)
            clReleaseEvent(ev);
    }
    if (end)
        clReleaseMemObject(end);
    if (r4)
        clReleaseMemObject(r4);
    return end && r4 && !e ? bench_median(v, n) : NAN;
}

/* END - START of a profiled kernel, in µs. */
static double profiled_us(cl_backend *b, cl_kernel k, cl_uint dims, const size_t *g,
                          const size_t *l) {
    cl_event ev = NULL;
    cl_int e = clEnqueueNDRangeKernel(b->qp, k, dims, NULL, g, l, 0, NULL, &ev);
    if (!e)
        e = clWaitForEvents(1, &ev);
    cl_ulong s = 0, t = 0;
    if (!e)
        e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(s), &s, NULL);
    if (!e)
        e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t), &t, NULL);
    if (ev)
        clReleaseEvent(ev);
    return e || t < s ? NAN : (double)(t - s) / 1e3;
}

double clb_median_profiled(cl_backend *b, cl_kernel k, cl_uint dims, const size_t *g,
                           const size_t *l) {
    double v[64];
    profiled_us(b, k, dims, g, l); /* warm-up */
    for (int r = 0; r < g_opts.reps; r++)
        v[r] = profiled_us(b, k, dims, g, l);
    return bench_median(v, g_opts.reps);
}

/* Time per kernel of 20 launches back to back on the plain in-order queue (no profiling, so
 * culvert runs no timed twin), by the host clock from the first enqueue to clFinish's return, in
 * µs; the median of reps such bursts. Includes the gaps between launches, as an application
 * that does not profile sees them. */
double clb_median_plain(cl_backend *b, cl_kernel k, cl_uint dims, const size_t *g,
                        const size_t *l) {
    double v[64];
    for (int r = -1; r < g_opts.reps; r++) { /* r = -1: warm-up */
        clFinish(b->q);
        double t0 = bench_now_us();
        cl_int e = CL_SUCCESS;
        for (int i = 0; i < 20 && e == CL_SUCCESS; i++)
            e = clEnqueueNDRangeKernel(b->q, k, dims, NULL, g, l, 0, NULL, NULL);
        e = e == CL_SUCCESS ? clFinish(b->q) : e;
        if (r >= 0)
            v[r] = e == CL_SUCCESS ? (bench_now_us() - t0) / 20 : NAN;
    }
    return bench_median(v, g_opts.reps);
}

static double spin_100us(cl_backend *b) {
    if (!b->timer || !b->k_spin)
        return NAN;
    cl_ulong ns = 100000;
    clSetKernelArg(b->k_spin, 0, sizeof(ns), &ns);
    size_t one = 1;
    return clb_median_profiled(b, b->k_spin, 1, &one, &one);
}

static int spin_wait(void *ctx, int lane) {
    return clFinish(((cl_backend *)ctx)->lane[lane]) != CL_SUCCESS;
}

static int spin_run(cl_backend *b, int lane, cl_ulong arg) {
    size_t one = 1;
    cl_int e = CL_SUCCESS;
    if (!b->lane[lane])
        b->lane[lane] = clCreateCommandQueueWithProperties(b->ctx, b->dev, NULL, &e);
    return !b->lane[lane] || clSetKernelArg(b->k_spin, 0, sizeof(arg), &arg) ||
           clEnqueueNDRangeKernel(b->lane[lane], b->k_spin, 1, NULL, &one, &one, 0, NULL, NULL);
}

/* Without %globaltimer (a CPU device) bench_spin counts loop turns: the first call runs it once
 * (a CPU driver may compile it then), times more and more turns until a run lasts 20 ms, and
 * converts with that rate. */
static int spin_start(void *ctx, int lane, uint64_t ns) {
    cl_backend *b = ctx;
    if (!b->timer && b->turns_per_ns == 0 && (spin_run(b, 0, 1) || spin_wait(b, 0)))
        return 1;
    for (cl_ulong turns = 1 << 16; !b->timer && b->turns_per_ns == 0; turns *= 4) {
        double t0 = bench_now_us();
        if (turns > (cl_ulong)1 << 40 || spin_run(b, 0, turns) || spin_wait(b, 0))
            return 1;
        double us = bench_now_us() - t0;
        if (us >= 20000)
            b->turns_per_ns = (double)turns / (us * 1e3);
    }
    return spin_run(b, lane, b->timer ? ns : (cl_ulong)((double)ns * b->turns_per_ns));
}

/* lanes 1: the calling thread in clFinish; BENCH_LANES: as many threads, each on its queue. */
static double cpu_during_finish(cl_backend *b, int lanes) {
    if (!b->k_spin)
        return NAN;
    return bench_cpu_during_wait(&(bench_spinner){spin_start, spin_wait, b, lanes});
}

/* Bandwidth of blocking transfers between a device buffer and host memory (pinned: a mapped
 * ALLOC_HOST_PTR buffer). */
static double transfer(cl_backend *b, bool h2d, bool pinned) {
    size_t size = g_opts.big;
    cl_int e = CL_SUCCESS;
    cl_mem dev = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, size, NULL, &e);
    cl_mem host_buf = NULL;
    void *host = NULL;
    if (pinned) {
        host_buf = clCreateBuffer(b->ctx, CL_MEM_ALLOC_HOST_PTR, size, NULL, &e);
        if (host_buf)
            host = clEnqueueMapBuffer(b->q, host_buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
                                      0, NULL, NULL, &e);
    } else {
        host = malloc(size);
    }
    double v[64], res = NAN;
    if (dev && host) {
        memset(host, 1, size);
        for (int r = 0; r < g_opts.reps + 1; r++) {
            double t0 = bench_now_us();
            e = h2d ? clEnqueueWriteBuffer(b->q, dev, CL_TRUE, 0, size, host, 0, NULL, NULL)
                    : clEnqueueReadBuffer(b->q, dev, CL_TRUE, 0, size, host, 0, NULL, NULL);
            double t = bench_now_us() - t0;
            v[r > 0 ? r - 1 : 0] = e ? NAN : (double)size / t / 1e3;
            if (e)
                break;
        }
        res = e ? NAN : bench_median(v, g_opts.reps);
    }
    if (pinned && host)
        clEnqueueUnmapMemObject(b->q, host_buf, host, 0, NULL, NULL);
    clFinish(b->q);
    if (!pinned)
        free(host);
    if (host_buf)
        clReleaseMemObject(host_buf);
    if (dev)
        clReleaseMemObject(dev);
    return res;
}

static double small_write(cl_backend *b, size_t size) {
    cl_int e = CL_SUCCESS;
    cl_mem dev = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, size, NULL, &e);
    if (!dev)
        return NAN;
    void *host = calloc(1, size);
    int n = g_opts.reps * 10;
    double *v = calloc((size_t)n + 1, sizeof(double));
    clEnqueueWriteBuffer(b->q, dev, CL_TRUE, 0, size, host, 0, NULL, NULL);
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_us();
        e = clEnqueueWriteBuffer(b->q, dev, CL_TRUE, 0, size, host, 0, NULL, NULL);
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    double m = bench_median(v, n);
    free(v);
    free(host);
    clReleaseMemObject(dev);
    return m;
}

static double read_after_kernel(cl_backend *b) {
    if (!b->k_empty)
        return NAN;
    cl_int e = CL_SUCCESS, out = 0;
    cl_mem dev = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, 4, NULL, &e);
    if (!dev)
        return NAN;
    int n = g_opts.reps * 10;
    double *v = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        double t0 = bench_now_us();
        e = clb_launch_empty(b, b->q, 0, NULL, NULL);
        if (!e)
            e = clEnqueueReadBuffer(b->q, dev, CL_TRUE, 0, 4, &out, 0, NULL, NULL);
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    double m = bench_median(v, n);
    free(v);
    clReleaseMemObject(dev);
    return m;
}

/* Device copy or fill rate from profiling END - START, as the raw column times
 * cuMemcpyDtoDAsync / cuMemsetD32Async between two CUDA events: GPU time on both sides. */
static double device_op(cl_backend *b, bool fill) {
    size_t size = g_opts.big;
    cl_int e = CL_SUCCESS;
    cl_mem a = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, size, NULL, &e);
    cl_mem c = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, size, NULL, &e);
    double v[64], res = NAN;
    if (a && c) {
        cl_uint pat = 0x3f800000;
        clEnqueueFillBuffer(b->qp, a, &pat, 4, 0, size, 0, NULL, NULL);
        for (int r = 0; r < g_opts.reps + 1 && !e; r++) {
            cl_event ev = NULL;
            e = fill ? clEnqueueFillBuffer(b->qp, c, &pat, 4, 0, size, 0, NULL, &ev)
                     : clEnqueueCopyBuffer(b->qp, a, c, 0, 0, size, 0, NULL, &ev);
            cl_ulong t0 = 0, t1 = 0;
            if (!e)
                e = clWaitForEvents(1, &ev);
            if (!e)
                e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            if (!e)
                e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            if (ev)
                clReleaseEvent(ev);
            if (!e && t1 > t0)
                v[r > 0 ? r - 1 : 0] =
                    (double)size * (fill ? 1 : 2) / ((double)(t1 - t0) / 1e3) / 1e3;
            else
                e = e ? e : CL_PROFILING_INFO_NOT_AVAILABLE;
        }
        res = e ? NAN : bench_median(v, g_opts.reps);
    }
    if (a)
        clReleaseMemObject(a);
    if (c)
        clReleaseMemObject(c);
    return res;
}

static cl_mem filled(cl_backend *b, size_t bytes, float value) {
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    if (m && clEnqueueFillBuffer(b->q, m, &value, 4, 0, bytes, 0, NULL, NULL)) {
        clReleaseMemObject(m);
        m = NULL;
    }
    clFinish(b->q);
    return m;
}

/* END - START of an empty kernel: what timing a command adds to nothing. */
static double empty_profiled(cl_backend *b) {
    return b->k_empty ? clb_median_profiled(b, b->k_empty, 1, &one32, &one32) : NAN;
}

/* Time per kernel of `count` bench_fma kernels of `turns` turns back to back on q, each returning
 * an event (released), in µs. */
static double fma_stream_us(cl_backend *b, cl_command_queue q, cl_int turns, int count) {
    size_t g = g_opts.fma_items, l = 256;
    cl_int e = clSetKernelArg(b->k_fma, 1, sizeof(turns), &turns);
    if (!e)
        e = clFinish(q);
    double t0 = bench_now_us();
    for (int i = 0; i < count && !e; i++) {
        cl_event ev = NULL;
        e = clEnqueueNDRangeKernel(q, b->k_fma, 1, NULL, &g, &l, 0, NULL, &ev);
        if (ev)
            clReleaseEvent(ev);
    }
    if (!e)
        e = clFinish(q);
    return e ? NAN : (bench_now_us() - t0) / count;
}

/* Profiling's cost on a kernel of about target_us (bench_fma, its turns found on the plain
 * queue): the time per kernel on the profiling queue against the plain one, in % (median of
 * alternating measurements). */
static double profiling_cost(cl_backend *b, double target_us) {
    if (!b->k_fma)
        return NAN;
    cl_mem m = filled(b, g_opts.fma_items * 4, 0.0f);
    if (!m)
        return NAN;
    clSetKernelArg(b->k_fma, 0, sizeof(m), &m);
    cl_int turns = 16;
    for (int i = 0; i < 3; i++) {
        double us = fma_stream_us(b, b->q, turns, 10);
        if (!(us > 0))
            break;
        double want = turns * target_us / us;
        turns = want < 1 ? 1 : want > 1e8 ? 100000000 : (cl_int)want;
    }
    int count = target_us < 1000 ? 250 : 20, reps = target_us < 1000 ? g_opts.reps : 5;
    double v[64];
    for (int r = 0; r < reps; r++) {
        double plain = fma_stream_us(b, b->q, turns, count);
        double prof = fma_stream_us(b, b->qp, turns, count);
        v[r] = 100.0 * (prof - plain) / plain;
    }
    clReleaseMemObject(m);
    return bench_median(v, reps);
}

/* A compute loop (fma_items work-items, `turns` turns, one output element of `elem` bytes each):
 * `ops` per turn and work-item, in ops per µs / `scale` (1e3: G/s, 1e6: T/s). */
static double loop_rate(cl_backend *b, cl_kernel k, size_t elem, cl_int turns, double ops,
                        double scale) {
    size_t g = g_opts.fma_items, l = 256;
    double res = NAN;
    cl_mem m = filled(b, g_opts.fma_items * elem, 0.0f);
    if (m) {
        clSetKernelArg(k, 0, sizeof(m), &m);
        clSetKernelArg(k, 1, sizeof(turns), &turns);
        res = ops * turns * (double)g_opts.fma_items / clb_median_profiled(b, k, 1, &g, &l) / scale;
        clReleaseMemObject(m);
    }
    return res;
}

/* A multiply-add chain kernel (clpeak's pattern: bench_mad_int...; fma_items work-items, each
 * storing one 4-byte element) on n-vectors: g_opts.chain_turns / n turns of 64 multiply-adds a
 * component, 2 ops each (mul + add, as clpeak counts), in G ops per second. seed: the third
 * argument (int or float). */
static double chain_rate(cl_backend *b, cl_kernel k, int n, const void *seed, size_t seed_size) {
    cl_int turns = g_opts.chain_turns / n > 0 ? g_opts.chain_turns / n : 1;
    size_t g = g_opts.fma_items, l = 256;
    double res = NAN;
    cl_mem m = filled(b, g_opts.fma_items * 4, 0.0f);
    if (m) {
        if (!clSetKernelArg(k, 0, sizeof(m), &m) && !clSetKernelArg(k, 1, sizeof(turns), &turns) &&
            !clSetKernelArg(k, 2, seed_size, seed))
            res = 2.0 * 64 * n * turns * (double)g_opts.fma_items /
                  clb_median_profiled(b, k, 1, &g, &l) / 1e3;
        clReleaseMemObject(m);
    }
    return res;
}

static double kernel_rate(cl_backend *b, int figure) {
    double res = NAN, us = NAN;
    cl_mem m1 = NULL, m2 = NULL, m3 = NULL;
    size_t g[2] = {0, 0}, l[2] = {256, 1};
    if (figure == F_K_COPY4 && b->k_copy4) {
        size_t n = g_opts.big / 16;
        m1 = filled(b, g_opts.big, 1.0f);
        m2 = filled(b, g_opts.big, 0.0f);
        if (m1 && m2) {
            clSetKernelArg(b->k_copy4, 0, sizeof(m2), &m2);
            clSetKernelArg(b->k_copy4, 1, sizeof(m1), &m1);
            g[0] = n;
            us = clb_median_profiled(b, b->k_copy4, 1, g, l);
            res = 2.0 * (double)g_opts.big / us / 1e3;
        }
    } else if (figure == F_K_FMA && b->k_fma) {
        res = loop_rate(b, b->k_fma, 4, 1024, 16.0, 1e3); /* 8 fma a turn: GFLOP/s */
    } else if (figure == F_K_HALF_FMA && !b->fp16) {
        res = BENCH_NOT_CLAIMED;
    } else if (figure == F_K_HALF_FMA && b->k_half_fma) {
        res = loop_rate(b, b->k_half_fma, 2, 1024, 32.0, 1e6); /* 8 half2 fma a turn: TFLOP/s */
    } else if (figure == F_K_HASH && b->k_hash) {
        res = loop_rate(b, b->k_hash, 4, 1024, 1.0, 1e3); /* Grounds/s */
    } else if (figure >= F_K_MAD_INT && figure <= F_K_MAD_FLOAT2) {
        /* The multiply-add chains: kernel, components per work-item, seed (GIOP/s, GFLOP/s). */
        static const cl_int int_seed = 4;
        static const cl_float float_seed = 1.3f;
        const struct {
            cl_kernel k;
            int lanes;
            const void *seed;
        } chains[] = {{b->k_mad_int, 1, &int_seed},
                      {b->k_mad_int4, 4, &int_seed},
                      {b->k_mad24, 1, &int_seed},
                      {b->k_mad_float2, 2, &float_seed}};
        int c = figure - F_K_MAD_INT;
        if (chains[c].k)
            res = chain_rate(b, chains[c].k, chains[c].lanes, chains[c].seed, 4);
    } else if (figure == F_K_SHA256 && b->k_sha256) {
        res = loop_rate(b, b->k_sha256, 4, 8, 64.0, 1e3); /* 8 blocks of 64 rounds: Grounds/s */
    } else if (figure == F_K_BLOWFISH && b->k_blowfish) {
        /* Four 256-entry S-boxes of a fixed pseudo-random pattern (xorshift32). */
        cl_uint sbox[1024], x = 0x9e3779b9u;
        for (int i = 0; i < 1024; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            sbox[i] = x;
        }
        m1 = clCreateBuffer(b->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(sbox), sbox,
                            NULL);
        if (m1 && !clSetKernelArg(b->k_blowfish, 2, sizeof(m1), &m1))
            res = loop_rate(b, b->k_blowfish, 4, 16, 16.0, 1e3); /* 16 rounds a turn: Grounds/s */
    } else if (figure == F_K_SGEMM && b->k_sgemm) {
        cl_int n = g_opts.sgemm_n;
        size_t bytes = (size_t)n * (size_t)n * 4;
        m1 = filled(b, bytes, 1.0f);
        m2 = filled(b, bytes, 0.5f);
        m3 = filled(b, bytes, 0.0f);
        if (m1 && m2 && m3) {
            clSetKernelArg(b->k_sgemm, 0, sizeof(m1), &m1);
            clSetKernelArg(b->k_sgemm, 1, sizeof(m2), &m2);
            clSetKernelArg(b->k_sgemm, 2, sizeof(m3), &m3);
            clSetKernelArg(b->k_sgemm, 3, sizeof(n), &n);
            size_t gs[2] = {(size_t)n, (size_t)n}, ls[2] = {16, 16};
            us = clb_median_profiled(b, b->k_sgemm, 2, gs, ls);
            res = 2.0 * n * (double)n * n / us / 1e3;
        }
    } else if (figure == F_K_REDUCE && b->k_reduce) {
        cl_int per = 64;
        size_t groups = g_opts.reduce_n / (256 * (size_t)per);
        m1 = filled(b, g_opts.reduce_n * 4, 1.0f);
        m2 = filled(b, groups * 4, 0.0f);
        if (m1 && m2) {
            clSetKernelArg(b->k_reduce, 0, sizeof(m1), &m1);
            clSetKernelArg(b->k_reduce, 1, sizeof(m2), &m2);
            clSetKernelArg(b->k_reduce, 2, sizeof(per), &per);
            g[0] = groups * 256;
            us = clb_median_profiled(b, b->k_reduce, 1, g, l);
            float first = 0;
            clEnqueueReadBuffer(b->q, m2, CL_TRUE, 0, 4, &first, 0, NULL, NULL);
            res = first == 256.0f * per ? (double)g_opts.reduce_n * 4 / us / 1e3 : NAN;
        }
    } else if (figure == F_K_MATH_DOUBLE && !b->fp64) {
        res = BENCH_NOT_CLAIMED;
    } else if (figure == F_K_MATH || figure == F_K_MATH_PLAIN || figure == F_K_MATH_DOUBLE) {
        bool dbl = figure == F_K_MATH_DOUBLE;
        cl_kernel k = dbl ? b->k_math_double : b->k_math;
        size_t bytes = g_opts.math_n * (dbl ? 8 : 4);
        /* zeros: 0.0f's bits are 0.0 as a double too */
        m1 = k ? filled(b, bytes, 0.0f) : NULL;
        m2 = k ? filled(b, bytes, 0.0f) : NULL;
        if (m1 && m2) {
            clSetKernelArg(k, 0, sizeof(m1), &m1);
            clSetKernelArg(k, 1, sizeof(m2), &m2);
            g[0] = g_opts.math_n;
            us = figure == F_K_MATH_PLAIN ? clb_median_plain(b, k, 1, g, l)
                                          : clb_median_profiled(b, k, 1, g, l);
            res = (double)g_opts.math_n / us / 1e3;
        }
    }
    if (m1)
        clReleaseMemObject(m1);
    if (m2)
        clReleaseMemObject(m2);
    if (m3)
        clReleaseMemObject(m3);
    return res; /* NaN when a measurement failed (its time is NaN) */
}

static double build_ms(cl_backend *b, const char *src) {
    cl_int e = CL_SUCCESS;
    double t0 = bench_now_us();
    cl_program p = clCreateProgramWithSource(b->ctx, 1, &src, NULL, &e);
    if (p)
        e = clBuildProgram(p, 1, &b->dev, NULL, NULL, NULL);
    double t = bench_now_us() - t0;
    if (p)
        clReleaseProgram(p);
    return e ? NAN : t / 1e3;
}

double clb_first_build_ms(cl_platform_id platform) {
    cl_device_id dev;
    cl_uint n = 0;
    if ((clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, &n) != CL_SUCCESS || !n) &&
        (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, &n) != CL_SUCCESS || !n))
        return NAN;
    cl_int e = CL_SUCCESS;
    cl_backend b = {.platform = platform, .dev = dev};
    b.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (!b.ctx)
        return NAN;
    char *src = malloc(strlen(build_src) + 128);
    sprintf(src, "#define CV_BENCH_FIRST_%ld 1\n%s", (long)bench_now_us(), build_src);
    double ms = build_ms(&b, src);
    free(src);
    clReleaseContext(b.ctx);
    return ms;
}

/* The many-builds rows: 25 integer builtins of OpenCL C (test_integer_ops' kind of program) on
 * 4 types, one small program each, with a constant new to every run (another PTX too: the CUDA
 * JIT's cache does not flatter either). */
static const char *const many_ops[] = {"add_sat(a, b)",
                                       "sub_sat(a, b)",
                                       "hadd(a, b)",
                                       "rhadd(a, b)",
                                       "mul_hi(a, b)",
                                       "a & ~b",
                                       "mad_sat(a, b, a)",
                                       "rotate(a, b)",
                                       "clz(a)",
                                       "popcount(a)",
                                       "abs_diff(a, b)",
                                       "max(a, b)",
                                       "min(a, b)",
                                       "clamp(a, b, a)",
                                       "abs(a)",
                                       "a / (b | 1)",
                                       "a % (b | 1)",
                                       "a << (b & 7)",
                                       "a >> (b & 7)",
                                       "a ^ b",
                                       "select(a, b, (T)(a < b))",
                                       "bitselect(a, b, a ^ b)",
                                       "a * b",
                                       "a - b",
                                       "a + b"};
static const char *const many_types[] = {"int", "uint", "long", "ulong"};
enum { MANY_BUILDS = 100 };

double clb_many_builds(cl_platform_id platform, bool cpu) {
    cl_device_id dev;
    cl_uint n = 0;
    if ((clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, &n) != CL_SUCCESS || !n) &&
        (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, &n) != CL_SUCCESS || !n))
        return NAN;
    cl_int e = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    if (!ctx)
        return NAN;
    /* New to every run (and to every earlier run's caches). */
    unsigned salt = 0;
    if (getrandom(&salt, sizeof salt, 0) != (ssize_t)sizeof salt) {
        uint64_t t = (uint64_t)bench_now_us();
        salt = (unsigned)(t ^ (t >> 32)) ^ ((unsigned)getpid() << 16);
    }
    double t0 = bench_now_us(), c0 = bench_tree_cpu_us();
    for (int k = 0; k < MANY_BUILDS && e == CL_SUCCESS; k++) {
        const char *t = many_types[k % 4], *op = many_ops[(k / 4) % 25];
        char src[1024];
        snprintf(src, sizeof src,
                 "#define T %s\n"
                 "kernel void many_%d(global const T *pa, global const T *pb, global T *out) {\n"
                 "    size_t i = get_global_id(0);\n"
                 "    T a = pa[i], b = pb[i];\n"
                 "    out[i] = (T)(%s) + (T)%uu;\n"
                 "}\n",
                 t, k, op, salt + (unsigned)k);
        const char *text = src;
        cl_program p = clCreateProgramWithSource(ctx, 1, &text, NULL, &e);
        if (p)
            e = clBuildProgram(p, 1, &dev, NULL, NULL, NULL);
        if (e != CL_SUCCESS && p) {
            char log[4096] = "";
            clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
            fprintf(stderr, "cv-bench: many builds: program %d failed (%d):\n%s\n%s\n", k, e, src,
                    log);
        }
        /* Its kernel made too: a driver may leave work to it (the JIT of the module). */
        char name[32];
        snprintf(name, sizeof name, "many_%d", k);
        cl_kernel kernel = e == CL_SUCCESS ? clCreateKernel(p, name, &e) : NULL;
        if (kernel)
            clReleaseKernel(kernel);
        if (p)
            clReleaseProgram(p);
    }
    double wall = (bench_now_us() - t0) / 1e3;
    /* The compiler's helper processes end (and are counted) when it is unloaded. */
    clUnloadPlatformCompiler(platform);
    clReleaseContext(ctx);
    double used = (bench_tree_cpu_us() - c0) / 1e3;
    return e != CL_SUCCESS ? NAN : cpu ? used : wall;
}

static double build_time(cl_backend *b, bool cached) {
    static unsigned serial;
    char *src = malloc(strlen(build_src) + 128);
    double v[16];
    int n = 3;
    /* A fresh #define makes the source new to every cache: a cold build. */
    sprintf(src, "#define CV_BENCH_NONCE_%ld_%u 1\n%s", (long)bench_now_us(), serial++, build_src);
    if (cached)
        build_ms(b, src);
    for (int i = 0; i < n; i++) {
        if (!cached)
            sprintf(src, "#define CV_BENCH_NONCE_%ld_%u 1\n%s", (long)bench_now_us(), serial++,
                    build_src);
        v[i] = build_ms(b, src);
    }
    free(src);
    return bench_median(v, n);
}

/* The SPIR-V module of tests/kernels-spirv/il_spec.spvasm: il_add(global int *a, int b),
 * a[i] += b * K with K specialization constant 7; its OpenCL C below. */
static const char il_add_src[] =
    "kernel void il_add(global int *a, int b) { a[get_global_id(0)] += b * %u; }\n";

/* clBuildProgram of il_add, from SPIR-V (il) or OpenCL C: cold, with a K new to every cache, or
 * cached, with one K built before. Median of 3, in ms. */
static double build_il_time(cl_backend *b, bool il, bool cached) {
    static unsigned serial;
    double v[3];
    unsigned k = (unsigned)((long)bench_now_us() * 7 + serial++ * 131) | 1u;
    char src[256];
    if (il && !b->il_version)
        return BENCH_NOT_CLAIMED;
    if (il && !bench_il_spv_len)
        return NAN; /* built without spirv-as */
    for (int i = -1; i < 3; i++) {
        if (i < 0 && !cached)
            continue;
        if (!cached)
            k = (unsigned)((long)bench_now_us() * 7 + serial++ * 131) | 1u;
        cl_int e = CL_SUCCESS;
        double t0 = bench_now_us();
        cl_program p = NULL;
        if (il) {
            p = clCreateProgramWithIL(b->ctx, bench_il_spv, bench_il_spv_len, &e);
            if (p)
                e = clSetProgramSpecializationConstant(p, 7, sizeof k, &k);
        } else {
            snprintf(src, sizeof src, il_add_src, k);
            const char *text = src;
            p = clCreateProgramWithSource(b->ctx, 1, &text, NULL, &e);
        }
        if (p && !e)
            e = clBuildProgram(p, 1, &b->dev, NULL, NULL, NULL);
        double t = bench_now_us() - t0;
        if (p)
            clReleaseProgram(p);
        if (e)
            return NAN;
        if (i >= 0)
            v[i] = t / 1e3;
    }
    return bench_median(v, 3);
}

/* float4 copy on fine-grained SVM buffers, moved to the GPU first, against cl_mem buffers: the
 * ratio of the two rates (the same kernel, the same sizes). */
static double svm_copy_ratio(cl_backend *b) {
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(b->dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
        return BENCH_NOT_CLAIMED;
    double buffers = kernel_rate(b, F_K_COPY4), res = NAN;
    size_t n = g_opts.big / 16, g[1] = {n}, l[1] = {256};
    cl_svm_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
    void *src = clSVMAlloc(b->ctx, f, g_opts.big, 0), *dst = clSVMAlloc(b->ctx, f, g_opts.big, 0);
    float one = 1.0f, zero = 0.0f;
    const void *both[2] = {src, dst};
    if (src && dst && b->k_copy4 &&
        !clEnqueueSVMMemFill(b->q, src, &one, sizeof one, g_opts.big, 0, NULL, NULL) &&
        !clEnqueueSVMMemFill(b->q, dst, &zero, sizeof zero, g_opts.big, 0, NULL, NULL) &&
        !clEnqueueSVMMigrateMem(b->q, 2, both, NULL, 0, 0, NULL, NULL) && !clFinish(b->q) &&
        !clSetKernelArgSVMPointer(b->k_copy4, 0, dst) &&
        !clSetKernelArgSVMPointer(b->k_copy4, 1, src))
        res =
            2.0 * (double)g_opts.big / clb_median_profiled(b, b->k_copy4, 1, g, l) / 1e3 / buffers;
    clFinish(b->q);
    if (src)
        clSVMFree(b->ctx, src);
    if (dst)
        clSVMFree(b->ctx, dst);
    return res;
}

double clb_figure(cl_backend *b, int f) {
    switch (f) {
    case F_ENQ_NOEVENT:
        return enqueue_burst(b, b->q, false);
    case F_ENQ_EVENT:
        return enqueue_burst(b, b->q, true);
    case F_ENQ_PROFILING:
        return enqueue_burst(b, b->qp, true);
    case F_ENQ_ARGS8:
        return enqueue_args8(b);
    case F_ROUNDTRIP_FINISH:
        return round_trip(b, true);
    case F_ROUNDTRIP_WAIT:
        return round_trip(b, false);
    case F_USER_EVENT_GATE:
        return user_event_gate(b);
    case F_CROSS_QUEUE:
        return cross_queue(b);
    case F_HOST_VALUE_GATE:
        return host_value_gate(b);
    case F_HOST_VALUE_GATE_GRAPH:
        return clb_host_value_gate_graph(b);
    case F_CB_ENQUEUE_100:
        return clb_enqueue_100(b);
    case F_CB_REPLAY_100:
        return clb_replay_100(b);
    case F_USER_EVENT_LATE:
        return gate_late(b, false);
    case F_HOST_VALUE_LATE:
        return gate_late(b, true);
    case F_KERNEL_END_FINISH:
    case F_KERNEL_END_WAIT:
    case F_KERNEL_END_READ:
        return kernel_end(b, f);
    case F_SPIN_100US:
        return spin_100us(b);
    case F_EMPTY_PROFILED:
        return empty_profiled(b);
    case F_PROFILING_COST_20US:
        return profiling_cost(b, 20);
    case F_PROFILING_COST_5MS:
        return profiling_cost(b, 5000);
    case F_CPU_DURING_FINISH:
        return cpu_during_finish(b, 1);
    case F_CPU_8_THREADS:
        return cpu_during_finish(b, BENCH_LANES);
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
        return device_op(b, false);
    case F_FILL:
        return device_op(b, true);
    case F_BUILD_FIRST:
    case F_BUILD_MANY:
    case F_BUILD_MANY_CPU:
        return NAN; /* in a child process only (cpu_probe_main): here a build is never the first */
    case F_BUILD_COLD:
        return build_time(b, false);
    case F_BUILD_CACHED:
        return build_time(b, true);
    case F_BUILD_IL_COLD:
    case F_BUILD_IL_CACHED:
    case F_BUILD_IL_SOURCE_COLD:
    case F_BUILD_IL_SOURCE_CACHED:
        return build_il_time(b, f == F_BUILD_IL_COLD || f == F_BUILD_IL_CACHED,
                             f == F_BUILD_IL_CACHED || f == F_BUILD_IL_SOURCE_CACHED);
    case F_K_COPY4_SVM:
        return svm_copy_ratio(b);
    case F_K_IMAGE_BILINEAR:
    case F_K_IMAGE_WRITE:
    case F_K_IMAGE_WRITE_PLAIN:
        return clb_image_kernel(b, f == F_K_IMAGE_BILINEAR, f == F_K_IMAGE_WRITE_PLAIN);
    case F_IMAGE_UPLOAD:
    case F_IMAGE_DOWNLOAD:
        return clb_image_transfer(b, f == F_IMAGE_UPLOAD);
    case F_IMAGE_CHURN:
        return clb_image_churn(b);
    default:
        return kernel_rate(b, f);
    }
}
