/* Enqueue cost and copy bandwidth of PTX kernels through culvert against the same PTX launched
 * with raw cuLaunchKernel in the same process (issue 5's targets):
 *   empty kernel, bursts of 256 enqueues without events      (culvert / raw <= 1.10)
 *   the same with 8 arguments set before each enqueue         (culvert / raw <= 1.20)
 *   float4 copy kernel bandwidth                              (culvert / raw >= 0.99)
 * Also checks that CUDA's loader takes PTX with `.ptr` parameter annotations, and, where NVIDIA's
 * OpenCL is registered too, that PTX built by it loads and runs in culvert.
 *   kernels_probe            prints one line per measurement; exits 77 without a culvert GPU. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_culvert.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BURST         256
#define ROUNDS        40
#define COPY_N        (16u << 20) /* float4s: 256 MiB per buffer */
#define COPY_ROUNDS   10
#define COPY_LAUNCHES 50 /* per synchronisation: the kernel's bandwidth, not the wake-up */

static const char ptx_src[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry empty()\n{\n ret;\n}\n"
    ".visible .entry addr(.param .u64 .ptr .global .align 16 p, .param .u64 .ptr .global .align 8 "
    "out)\n{\n .reg .b64 %a<3>;\n ld.param.u64 %a1, [p];\n ld.param.u64 %a2, [out];\n"
    " st.global.u64 [%a2], %a1;\n ret;\n}\n"
    ".visible .entry args8(.param .u64 .ptr .global .align 4 a0, .param .u64 .ptr .global .align 4 "
    "a1, .param .u64 .ptr .global .align 4 a2, .param .u64 .ptr .global .align 4 a3, .param .u32 "
    "a4, .param .u32 a5, .param .f32 a6, .param .u64 a7)\n{\n ret;\n}\n"
    ".visible .entry copy4(.param .u64 .ptr .global .align 16 dst, .param .u64 .ptr .global "
    ".align 16 src, .param .u32 n)\n{\n"
    " .reg .b32 %r<6>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<5>;\n .reg .pred %p;\n"
    " ld.param.u64 %rd1, [dst];\n ld.param.u64 %rd2, [src];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n setp.ge.u32 %p, %r5, %r1;\n @%p bra DONE;\n"
    " cvta.to.global.u64 %rd3, %rd1;\n cvta.to.global.u64 %rd4, %rd2;\n"
    " mul.wide.u32 %rd5, %r5, 16;\n add.s64 %rd6, %rd4, %rd5;\n"
    " ld.global.v4.f32 {%f1,%f2,%f3,%f4}, [%rd6];\n add.s64 %rd7, %rd3, %rd5;\n"
    " st.global.v4.f32 [%rd7], {%f1,%f2,%f3,%f4};\nDONE:\n ret;\n}\n";

static const char cl_copy_src[] =
    "__kernel void copy4(__global float4 *dst, __global const float4 *src, uint n) {\n"
    "  uint i = get_global_id(0); if (i < n) dst[i] = src[i]; }\n";

/* The few driver API entry points the raw side needs (types as in cuda.h, by value). */
typedef int CUresult;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;
typedef unsigned long long CUdeviceptr;
static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*PrimaryCtxRetain)(CUcontext *, int);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventQuery)(CUevent);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*StreamCreateWithPriority)(CUstream *, unsigned, int);
    CUresult (*CtxGetStreamPriorityRange)(int *, int *);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
} cu;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

#define CHECK_CU(x)                                                                                \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_) {                                                                                  \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, r_);                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CHECK_CL(x)                                                                                \
    do {                                                                                           \
        cl_int e_ = (x);                                                                           \
        if (e_) {                                                                                  \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void load_cuda(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "no libcuda.so.1\n");
        exit(77);
    }
#define SYM(f, n) *(void **)&cu.f = dlsym(lib, n)
    SYM(Init, "cuInit");
    SYM(DeviceGet, "cuDeviceGet");
    SYM(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    SYM(CtxSetCurrent, "cuCtxSetCurrent");
    SYM(ModuleLoadData, "cuModuleLoadData");
    SYM(ModuleGetFunction, "cuModuleGetFunction");
    SYM(StreamCreate, "cuStreamCreate");
    SYM(StreamSynchronize, "cuStreamSynchronize");
    SYM(LaunchKernel, "cuLaunchKernel");
    SYM(EventCreate, "cuEventCreate");
    SYM(EventRecord, "cuEventRecord");
    SYM(EventQuery, "cuEventQuery");
    SYM(MemAlloc, "cuMemAlloc_v2");
    SYM(EventElapsedTime, "cuEventElapsedTime");
    SYM(StreamCreateWithPriority, "cuStreamCreateWithPriority");
    SYM(CtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange");
    SYM(ModuleLoadDataEx, "cuModuleLoadDataEx");
}

static cl_platform_id find_platform(const char *want) {
    cl_platform_id ps[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want))
            return ps[i];
    }
    return NULL;
}

/* Raw CUDA: per-launch host time of bursts of BURST launches (median over ROUNDS), the stream
 * drained between bursts. record: also an event record per launch (what an event costs). */
static double raw_burst(CUfunction f, CUstream s, void **params, CUevent ev) {
    double t[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < BURST; i++) {
            CHECK_CU(cu.LaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL));
            if (ev)
                CHECK_CU(cu.EventRecord(ev, s));
        }
        t[r] = (now_ns() - t0) / BURST;
        CHECK_CU(cu.StreamSynchronize(s));
    }
    return median(t, ROUNDS);
}

typedef struct {
    cl_mem b[4];
    cl_uint u[2];
    cl_float f;
    cl_ulong l;
} args8_t;

static double cl_burst(cl_command_queue q, cl_kernel k, args8_t *a, int with_event) {
    double t[ROUNDS];
    size_t g = with_event == 2 ? 0 : 32, l = 32;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < BURST; i++) {
            if (a) {
                for (int j = 0; j < 4; j++)
                    CHECK_CL(clSetKernelArg(k, j, sizeof(cl_mem), &a->b[j]));
                CHECK_CL(clSetKernelArg(k, 4, sizeof(cl_uint), &a->u[0]));
                CHECK_CL(clSetKernelArg(k, 5, sizeof(cl_uint), &a->u[1]));
                CHECK_CL(clSetKernelArg(k, 6, sizeof(cl_float), &a->f));
                CHECK_CL(clSetKernelArg(k, 7, sizeof(cl_ulong), &a->l));
            }
            cl_event e = NULL;
            CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL,
                                            with_event == 1 ? &e : NULL));
            if (e)
                clReleaseEvent(e);
        }
        t[r] = (now_ns() - t0) / BURST;
        CHECK_CL(clFinish(q));
    }
    return median(t, ROUNDS);
}

static double raw_copy(CUfunction f, CUstream s, CUdeviceptr dst, CUdeviceptr src) {
    unsigned n = COPY_N;
    void *params[] = {&dst, &src, &n};
    double t[COPY_ROUNDS];
    for (int r = 0; r < COPY_ROUNDS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < COPY_LAUNCHES; i++)
            CHECK_CU(cu.LaunchKernel(f, COPY_N / 256, 1, 1, 256, 1, 1, 0, s, params, NULL));
        CHECK_CU(cu.StreamSynchronize(s));
        t[r] = now_ns() - t0;
    }
    return 2.0 * COPY_N * 16 * COPY_LAUNCHES / median(t, COPY_ROUNDS); /* bytes/ns = GB/s */
}

static double cl_copy(cl_command_queue q, cl_kernel k, cl_mem dst, cl_mem src) {
    cl_uint n = COPY_N;
    CHECK_CL(clSetKernelArg(k, 0, sizeof dst, &dst));
    CHECK_CL(clSetKernelArg(k, 1, sizeof src, &src));
    CHECK_CL(clSetKernelArg(k, 2, sizeof n, &n));
    size_t g = COPY_N, l = 256;
    double t[COPY_ROUNDS];
    for (int r = 0; r < COPY_ROUNDS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < COPY_LAUNCHES; i++)
            CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK_CL(clFinish(q));
        t[r] = now_ns() - t0;
    }
    return 2.0 * COPY_N * 16 * COPY_LAUNCHES / median(t, COPY_ROUNDS);
}

/* PTX built by NVIDIA's OpenCL, loaded and run by culvert. */
static void nvidia_ptx(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_platform_id nv = find_platform("NVIDIA");
    if (!nv) {
        printf("nvidia-ptx: no NVIDIA OpenCL platform, not checked\n");
        return;
    }
    cl_device_id nd;
    cl_int err;
    CHECK_CL(clGetDeviceIDs(nv, CL_DEVICE_TYPE_GPU, 1, &nd, NULL));
    cl_context nctx = clCreateContext(NULL, 1, &nd, NULL, NULL, &err);
    CHECK_CL(err);
    const char *src = cl_copy_src;
    cl_program np = clCreateProgramWithSource(nctx, 1, &src, NULL, &err);
    CHECK_CL(err);
    CHECK_CL(clBuildProgram(np, 1, &nd, "", NULL, NULL));
    size_t size = 0;
    CHECK_CL(clGetProgramInfo(np, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size + 1);
    CHECK_CL(clGetProgramInfo(np, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    bin[size] = 0;
    printf("nvidia-ptx: %zu bytes; first lines:\n", size);
    int lines = 0;
    for (const char *p = (const char *)bin; *p && lines < 4; p++) {
        putchar(*p);
        lines += *p == '\n';
    }
    const unsigned char *cbin = bin;
    cl_int status = 0;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &size, &cbin, &status, &err);
    printf("nvidia-ptx: clCreateProgramWithBinary err %d status %d\n", err, status);
    if (err == CL_SUCCESS) {
        err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
        char log[4096] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("nvidia-ptx: clBuildProgram err %d log: %s\n", err, log);
    }
    if (err == CL_SUCCESS) {
        enum { N = 1 << 20 };
        float *h = malloc(N * 16), *o = malloc(N * 16);
        for (int i = 0; i < 4 * N; i++)
            h[i] = (float)i;
        cl_mem s = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 16, h, &err);
        cl_mem d = clCreateBuffer(ctx, 0, N * 16, NULL, &err);
        cl_kernel k = clCreateKernel(p, "copy4", &err);
        CHECK_CL(err);
        cl_uint n = N;
        CHECK_CL(clSetKernelArg(k, 0, sizeof d, &d));
        CHECK_CL(clSetKernelArg(k, 1, sizeof s, &s));
        CHECK_CL(clSetKernelArg(k, 2, sizeof n, &n));
        size_t g = N;
        CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        CHECK_CL(clEnqueueReadBuffer(q, d, CL_TRUE, 0, N * 16, o, 0, NULL, NULL));
        printf("nvidia-ptx: run %s\n", memcmp(h, o, N * 16) ? "WRONG RESULT" : "ok");
        clReleaseKernel(k);
        clReleaseMemObject(s);
        clReleaseMemObject(d);
        free(h);
        free(o);
    }
    if (p)
        clReleaseProgram(p);
    clReleaseProgram(np);
    clReleaseContext(nctx);
    free(bin);
}

int main(void) {
    cl_platform_id plat = find_platform("culvert");
    cl_device_id dev;
    if (!plat || clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no culvert GPU\n");
        return 77;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK_CL(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    CHECK_CL(err);
    size_t len = sizeof ptx_src - 1;
    const unsigned char *bin = (const unsigned char *)ptx_src;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, NULL, &err);
    CHECK_CL(err);
    CHECK_CL(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    cl_kernel k_empty = clCreateKernel(p, "empty", &err);
    CHECK_CL(err);
    cl_kernel k_args = clCreateKernel(p, "args8", &err);
    CHECK_CL(err);
    cl_kernel k_copy = clCreateKernel(p, "copy4", &err);
    CHECK_CL(err);

    /* Raw CUDA on the primary context culvert uses too. */
    load_cuda();
    CUcontext cctx;
    int cdev;
    CHECK_CU(cu.Init(0));
    CHECK_CU(cu.DeviceGet(&cdev, 0));
    CHECK_CU(cu.PrimaryCtxRetain(&cctx, cdev));
    CHECK_CU(cu.CtxSetCurrent(cctx));
    CUmodule mod;
    CUresult lr = cu.ModuleLoadData(&mod, ptx_src);
    printf("raw cuModuleLoadData of PTX with .ptr annotations: %d\n", lr);
    CHECK_CU(lr);
    CUfunction f_empty, f_args, f_copy;
    CHECK_CU(cu.ModuleGetFunction(&f_empty, mod, "empty"));
    CHECK_CU(cu.ModuleGetFunction(&f_args, mod, "args8"));
    CHECK_CU(cu.ModuleGetFunction(&f_copy, mod, "copy4"));
    CUstream s;
    CHECK_CU(cu.StreamCreate(&s, 1 /* non-blocking, like culvert's */));
    CUevent ev;
    CHECK_CU(cu.EventCreate(&ev, 2 /* disable timing */));

    cl_mem bufs[4];
    for (int i = 0; i < 4; i++) {
        bufs[i] = clCreateBuffer(ctx, 0, 4096, NULL, &err);
        CHECK_CL(err);
    }
    CUdeviceptr dptr[4];
    for (int i = 0; i < 4; i++)
        CHECK_CU(cu.MemAlloc(&dptr[i], 4096));
    struct {
        CUdeviceptr p[4];
        unsigned u[2];
        float f;
        unsigned long long l;
    } raw_vals = {{dptr[0], dptr[1], dptr[2], dptr[3]}, {1, 2}, 3.0f, 4};
    void *args8_params[] = {&raw_vals.p[0], &raw_vals.p[1], &raw_vals.p[2], &raw_vals.p[3],
                            &raw_vals.u[0], &raw_vals.u[1], &raw_vals.f,    &raw_vals.l};
    args8_t a = {{bufs[0], bufs[1], bufs[2], bufs[3]}, {1, 2}, 3.0f, 4};

    /* Warm both paths up. */
    raw_burst(f_empty, s, NULL, NULL);
    cl_burst(q, k_empty, NULL, 0);

    double raw_e = raw_burst(f_empty, s, NULL, NULL);
    double raw_er = raw_burst(f_empty, s, NULL, ev);
    double cl_e = cl_burst(q, k_empty, NULL, 0);
    double cl_ee = cl_burst(q, k_empty, NULL, 1);
    double cl_0 = cl_burst(q, k_empty, NULL, 2);
    double raw_a = raw_burst(f_args, s, args8_params, NULL);
    double cl_a = cl_burst(q, k_args, &a, 0);
    /* Again in the other order: the first measurements are not favoured. */
    double cl_e2 = cl_burst(q, k_empty, NULL, 0);
    double raw_e2 = raw_burst(f_empty, s, NULL, NULL);
    printf("enqueue ns/launch (median of %d bursts of %d):\n", ROUNDS, BURST);
    printf("  raw empty %.0f (again %.0f); raw empty + cuEventRecord %.0f\n", raw_e, raw_e2,
           raw_er);
    printf("  culvert empty %.0f (again %.0f); with event returned %.0f\n", cl_e, cl_e2, cl_ee);
    printf("  culvert, global size 0 (all but the launch) %.0f\n", cl_0);
    printf("  raw args8 %.0f; culvert args8 (8 clSetKernelArg + enqueue) %.0f\n", raw_a, cl_a);
    double re = raw_e < raw_e2 ? raw_e : raw_e2, ce = cl_e < cl_e2 ? cl_e : cl_e2;
    printf("RATIO empty enqueue culvert/raw = %.3f (target <= 1.10)\n", ce / re);
    printf("RATIO args8 enqueue culvert/raw = %.3f (target <= 1.20)\n", cl_a / raw_a);

    CUdeviceptr csrc, cdst;
    CHECK_CU(cu.MemAlloc(&csrc, (size_t)COPY_N * 16));
    CHECK_CU(cu.MemAlloc(&cdst, (size_t)COPY_N * 16));
    cl_mem bsrc = clCreateBuffer(ctx, 0, (size_t)COPY_N * 16, NULL, &err);
    CHECK_CL(err);
    cl_mem bdst = clCreateBuffer(ctx, 0, (size_t)COPY_N * 16, NULL, &err);
    CHECK_CL(err);
    raw_copy(f_copy, s, cdst, csrc);
    cl_copy(q, k_copy, bdst, bsrc);
    double raw_bw = raw_copy(f_copy, s, cdst, csrc);
    double cl_bw = cl_copy(q, k_copy, bdst, bsrc);
    double raw_bw2 = raw_copy(f_copy, s, cdst, csrc);
    double cl_bw2 = cl_copy(q, k_copy, bdst, bsrc);
    double rb = raw_bw > raw_bw2 ? raw_bw : raw_bw2, cb = cl_bw > cl_bw2 ? cl_bw : cl_bw2;
    printf("copy float4 GB/s: raw %.1f %.1f, culvert %.1f %.1f\n", raw_bw, raw_bw2, cl_bw, cl_bw2);
    printf("RATIO copy bandwidth culvert/raw = %.4f (target >= 0.99)\n", cb / rb);
    /* Where the difference is: the raw launch on culvert's buffers (same addresses), and the
     * GPU time of one copy from events (raw: cuEventElapsedTime; culvert: profiling). */
    {
        cl_kernel k_addr = clCreateKernel(p, "addr", &err);
        CHECK_CL(err);
        cl_mem out = clCreateBuffer(ctx, 0, 16, NULL, &err);
        CHECK_CL(err);
        CUdeviceptr a[2];
        size_t one = 1;
        for (int i = 0; i < 2; i++) {
            cl_mem b = i ? bsrc : bdst;
            CHECK_CL(clSetKernelArg(k_addr, 0, sizeof b, &b));
            CHECK_CL(clSetKernelArg(k_addr, 1, sizeof out, &out));
            CHECK_CL(clEnqueueNDRangeKernel(q, k_addr, 1, NULL, &one, &one, 0, NULL, NULL));
            CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 8, &a[i], 0, NULL, NULL));
        }
        double on_cl = raw_copy(f_copy, s, a[0], a[1]);
        printf("raw copy on culvert's buffers GB/s %.1f (raw on its own %.1f)\n", on_cl, rb);
        /* The same PTX without its `.ptr .global .align 16` annotations, raw. */
        char *bare = strdup(ptx_src);
        for (char *at; (at = strstr(bare, ".ptr .global .align 16"));)
            memset(at, ' ', strlen(".ptr .global .align 16"));
        CUmodule mod_bare;
        CUfunction f_bare;
        CHECK_CU(cu.ModuleLoadData(&mod_bare, bare));
        CHECK_CU(cu.ModuleGetFunction(&f_bare, mod_bare, "copy4"));
        double bare1 = raw_copy(f_bare, s, cdst, csrc), ann1 = raw_copy(f_copy, s, cdst, csrc);
        double bare2 = raw_copy(f_bare, s, cdst, csrc), ann2 = raw_copy(f_copy, s, cdst, csrc);
        printf("raw copy GB/s: PTX without .ptr annotations %.1f %.1f, with %.1f %.1f\n", bare1,
               bare2, ann1, ann2);
        free(bare);
        /* What culvert does differently: a stream of medium priority, JIT with CU_JIT_TARGET. */
        int lo = 0, hi = 0;
        CHECK_CU(cu.CtxGetStreamPriorityRange(&lo, &hi));
        CUstream ps;
        CHECK_CU(cu.StreamCreateWithPriority(&ps, 1, (lo + hi) / 2));
        int keys[] = {9 /* CU_JIT_TARGET */};
        void *vals[] = {(void *)(uintptr_t)90};
        CUmodule mod_t;
        CUfunction f_t;
        CHECK_CU(cu.ModuleLoadDataEx(&mod_t, ptx_src, 1, keys, vals));
        CHECK_CU(cu.ModuleGetFunction(&f_t, mod_t, "copy4"));
        double prio1 = raw_copy(f_copy, ps, cdst, csrc), tgt1 = raw_copy(f_t, s, cdst, csrc);
        double both1 = raw_copy(f_t, ps, cdst, csrc), plain1 = raw_copy(f_copy, s, cdst, csrc);
        printf("raw copy GB/s: priority %d stream %.1f, CU_JIT_TARGET 90 %.1f, both %.1f, "
               "plain %.1f\n",
               (lo + hi) / 2, prio1, tgt1, both1, plain1);
        CUevent e0, e1;
        CHECK_CU(cu.EventCreate(&e0, 0));
        CHECK_CU(cu.EventCreate(&e1, 0));
        unsigned nn = COPY_N;
        void *cpp[] = {&cdst, &csrc, &nn};
        float best_raw = 1e9f;
        for (int r = 0; r < 10; r++) {
            float ms = 0;
            CHECK_CU(cu.EventRecord(e0, s));
            CHECK_CU(cu.LaunchKernel(f_copy, COPY_N / 256, 1, 1, 256, 1, 1, 0, s, cpp, NULL));
            CHECK_CU(cu.EventRecord(e1, s));
            CHECK_CU(cu.StreamSynchronize(s));
            CHECK_CU(cu.EventElapsedTime(&ms, e0, e1));
            if (ms < best_raw)
                best_raw = ms;
        }
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_command_queue pq = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
        CHECK_CL(err);
        double best_cl = 1e18;
        size_t gg = COPY_N, ll = 256;
        CHECK_CL(clSetKernelArg(k_copy, 0, sizeof bdst, &bdst));
        CHECK_CL(clSetKernelArg(k_copy, 1, sizeof bsrc, &bsrc));
        for (int r = 0; r < 10; r++) {
            cl_event ev2;
            cl_ulong t0 = 0, t1 = 0;
            CHECK_CL(clEnqueueNDRangeKernel(pq, k_copy, 1, NULL, &gg, &ll, 0, NULL, &ev2));
            CHECK_CL(clWaitForEvents(1, &ev2));
            clGetEventProfilingInfo(ev2, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(ev2, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            if (t1 - t0 < best_cl)
                best_cl = (double)(t1 - t0);
            clReleaseEvent(ev2);
        }
        printf("one copy, GPU time us (best of 10): raw events %.1f, culvert profiling %.1f\n",
               best_raw * 1e3, best_cl / 1e3);
        clReleaseCommandQueue(pq);
        clReleaseKernel(k_addr);
        clReleaseMemObject(out);
    }
    /* GPU time of COPY_LAUNCHES copies between two CUDA events on culvert's own stream (no
     * wait in it): culvert's launches, then raw launches on that same stream. */
    {
        CUstream qs = NULL;
        CHECK_CL(clGetCommandQueueInfo(q, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof qs, &qs, NULL));
        CUevent e0, e1;
        CHECK_CU(cu.EventCreate(&e0, 0));
        CHECK_CU(cu.EventCreate(&e1, 0));
        unsigned nn = COPY_N;
        void *cpp[] = {&cdst, &csrc, &nn};
        size_t gg = COPY_N, ll = 256;
        CHECK_CL(clSetKernelArg(k_copy, 0, sizeof bdst, &bdst));
        CHECK_CL(clSetKernelArg(k_copy, 1, sizeof bsrc, &bsrc));
        for (int rep = 0; rep < 2; rep++) {
            float ms_cl = 0, ms_raw = 0;
            CHECK_CL(clFinish(q));
            CHECK_CU(cu.EventRecord(e0, qs));
            for (int i = 0; i < COPY_LAUNCHES; i++)
                CHECK_CL(clEnqueueNDRangeKernel(q, k_copy, 1, NULL, &gg, &ll, 0, NULL, NULL));
            CHECK_CU(cu.EventRecord(e1, qs));
            CHECK_CL(clFinish(q));
            CHECK_CU(cu.StreamSynchronize(qs));
            CHECK_CU(cu.EventElapsedTime(&ms_cl, e0, e1));
            CHECK_CU(cu.EventRecord(e0, qs));
            for (int i = 0; i < COPY_LAUNCHES; i++)
                CHECK_CU(cu.LaunchKernel(f_copy, COPY_N / 256, 1, 1, 256, 1, 1, 0, qs, cpp, NULL));
            CHECK_CU(cu.EventRecord(e1, qs));
            CHECK_CU(cu.StreamSynchronize(qs));
            CHECK_CU(cu.EventElapsedTime(&ms_raw, e0, e1));
            double bw_cl = 2.0 * COPY_N * 16 * COPY_LAUNCHES / (ms_cl * 1e6);
            double bw_raw = 2.0 * COPY_N * 16 * COPY_LAUNCHES / (ms_raw * 1e6);
            printf("copy GB/s by CUDA events on culvert's stream, %d launches: culvert %.1f, raw "
                   "%.1f\n",
                   COPY_LAUNCHES, bw_cl, bw_raw);
            printf("RATIO copy bandwidth (GPU time) culvert/raw = %.4f\n", bw_cl / bw_raw);
        }
    }
    /* One copy and a wait: the wait's wake-up is in it (clFinish spins, then sleeps). */
    double lat_raw[10], lat_cl[10];
    unsigned n1 = COPY_N;
    void *cp[] = {&cdst, &csrc, &n1};
    size_t g1 = COPY_N, l1 = 256;
    for (int r = 0; r < 10; r++) {
        double t0 = now_ns();
        CHECK_CU(cu.LaunchKernel(f_copy, COPY_N / 256, 1, 1, 256, 1, 1, 0, s, cp, NULL));
        CHECK_CU(cu.StreamSynchronize(s));
        lat_raw[r] = now_ns() - t0;
        t0 = now_ns();
        CHECK_CL(clEnqueueNDRangeKernel(q, k_copy, 1, NULL, &g1, &l1, 0, NULL, NULL));
        CHECK_CL(clFinish(q));
        lat_cl[r] = now_ns() - t0;
    }
    printf("one copy + wait, us: raw (cuStreamSynchronize) %.1f, culvert (clFinish) %.1f\n",
           median(lat_raw, 10) / 1e3, median(lat_cl, 10) / 1e3);

    nvidia_ptx(ctx, dev, q);
    return 0;
}
