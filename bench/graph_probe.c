/* graph_probe: where a command buffer's replay spends the time raw cuGraphLaunch does not (issue
 * 23's "replay ÷ raw cuGraphLaunch"). One process, the variants taking turns in every round, each
 * a burst of 8 launches of a 100-kernel chain once every stream is idle; medians of the rounds,
 * µs per launch:
 *   raw             cuGraphLaunch of 100 parameterless empty kernels (cv-bench's raw row)
 *   raw+param       the same kernels with culvert's 80-byte launch parameter
 *   raw, slept      raw, the host asleep 200 us before the burst
 *   culvert         clEnqueueCommandBufferKHR of the same chain recorded in OpenCL (cv-bench's row)
 *   culvert, warm   culvert, but the host spins 300 us after clFinish before the burst
 *   raw, warm       raw, with the same 300 us spin
 *   culvert, later  culvert, the host asleep 300 us after clFinish before the burst
 *   raw, priority   raw on a stream of the priority culvert gives a queue without a hint
 *   raw, prio, later  the same, the host asleep 300 us before the burst
 *   raw+param, flag   raw+param after a flag the stream wrote (cuStreamWriteValue64), as
 *                   culvert's clFinish waits
 * and the median time of each burst's first launch.
 * Diagnostic output, no test.
 *
 *   graph_probe [platform-substring] [rounds] [low|med|high: the queue's priority hint]
 */
#include "bench.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <cuda.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KERNELS    100
#define BURST      8
#define MAX_ROUNDS 1001

static void spin_us(double us) {
    double end = bench_now_us() + us;
    while (bench_now_us() < end) {
    }
}

#define FUNCS(X)                                                                                   \
    X(cuInit, CUresult (*)(unsigned))                                                              \
    X(cuDeviceGet, CUresult (*)(CUdevice *, int))                                                  \
    X(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext *, CUdevice))                               \
    X(cuCtxSetCurrent, CUresult (*)(CUcontext))                                                    \
    X(cuModuleLoadData, CUresult (*)(CUmodule *, const void *))                                    \
    X(cuModuleGetFunction, CUresult (*)(CUfunction *, CUmodule, const char *))                     \
    X(cuStreamCreate, CUresult (*)(CUstream *, unsigned))                                          \
    X(cuStreamCreateWithPriority, CUresult (*)(CUstream *, unsigned, int))                         \
    X(cuCtxGetStreamPriorityRange, CUresult (*)(int *, int *))                                     \
    X(cuStreamSynchronize, CUresult (*)(CUstream))                                                 \
    X(cuStreamQuery, CUresult (*)(CUstream))                                                       \
    X(cuGraphCreate, CUresult (*)(CUgraph *, unsigned))                                            \
    X(cuGraphAddKernelNode_v2, CUresult (*)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,   \
                                            const CUDA_KERNEL_NODE_PARAMS *))                      \
    X(cuGraphInstantiateWithFlags, CUresult (*)(CUgraphExec *, CUgraph, unsigned long long))       \
    X(cuGraphLaunch, CUresult (*)(CUgraphExec, CUstream))                                          \
    X(cuMemHostAlloc, CUresult (*)(void **, size_t, unsigned))                                     \
    X(cuMemHostGetDevicePointer_v2, CUresult (*)(CUdeviceptr *, void *, unsigned))                 \
    X(cuStreamWriteValue64_v2, CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned))

static struct {
#define DECL(name, type) __typeof__(type) name;
    FUNCS(DECL)
#undef DECL
} cu;

#define CK(x)                                                                                      \
    do {                                                                                           \
        int e_ = (int)(x);                                                                         \
        if (e_) {                                                                                  \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const char ptx[] = ".version 7.0\n.target sm_70\n.address_size 64\n"
                          ".visible .entry e0()\n{\nret;\n}\n"
                          ".visible .entry e1(.param .align 8 .b8 p[80])\n{\nret;\n}\n";

static CUgraphExec chain(CUfunction f, void **params) {
    CUgraph g;
    CUgraphExec exec;
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = f;
    k.gridDimX = k.gridDimY = k.gridDimZ = 1;
    k.blockDimX = 32;
    k.blockDimY = k.blockDimZ = 1;
    k.kernelParams = params;
    CUgraphNode prev = NULL;
    CK(cu.cuGraphCreate(&g, 0));
    for (int i = 0; i < KERNELS; i++)
        CK(cu.cuGraphAddKernelNode_v2(&prev, g, prev ? &prev : NULL, prev ? 1 : 0, &k));
    CK(cu.cuGraphInstantiateWithFlags(&exec, g, 0));
    return exec;
}

enum {
    RAW,
    RAW_PARAM,
    RAW_SLEPT,
    CULVERT,
    CULVERT_WARM,
    RAW_WARM,
    CULVERT_LATER,
    RAW_PRIO,
    RAW_PRIO_LATER,
    RAW_FLAG,
    VARIANTS
};
static const char *names[VARIANTS] = {
    "raw",       "raw+param",      "raw, slept",    "culvert",          "culvert, warm",
    "raw, warm", "culvert, later", "raw, priority", "raw, prio, later", "raw+param, flag"};

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : "culvert";
    int rounds = argc > 2 ? atoi(argv[2]) : 201;
    rounds = rounds < 1 ? 1 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "no libcuda.so.1\n");
        return 77;
    }
#define LOAD(name, type) *(void **)&cu.name = dlsym(lib, #name);
    FUNCS(LOAD)
#undef LOAD
    if (!cu.cuStreamWriteValue64_v2)
        *(void **)&cu.cuStreamWriteValue64_v2 = dlsym(lib, "cuStreamWriteValue64");
    if (!cu.cuMemHostGetDevicePointer_v2)
        *(void **)&cu.cuMemHostGetDevicePointer_v2 = dlsym(lib, "cuMemHostGetDevicePointer");

    cl_platform_id plats[16], plat = NULL;
    cl_uint np = 0;
    clGetPlatformIDs(16, plats, &np);
    for (cl_uint i = 0; i < np; i++) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want))
            plat = plats[i];
    }
    cl_device_id dev;
    if (!plat || clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) {
        fprintf(stderr, "no %s GPU\n", want);
        return 77;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    /* argv[3]: the queue's cl_khr_priority_hints hint (low, med, high; default none) */
    const char *hint = argc > 3 ? argv[3] : "";
    cl_queue_properties qprops[] = {CL_QUEUE_PRIORITY_KHR,
                                    !strcmp(hint, "low")    ? CL_QUEUE_PRIORITY_LOW_KHR
                                    : !strcmp(hint, "high") ? CL_QUEUE_PRIORITY_HIGH_KHR
                                                            : CL_QUEUE_PRIORITY_MED_KHR,
                                    0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, *hint ? qprops : NULL, &err);
    CK(err);
    const char *src = "kernel void empty(void) {}";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CK(err);
    CK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "empty", &err);
    CK(err);
#define CLFN(name) ((name##_fn)clGetExtensionFunctionAddressForPlatform(plat, #name))
    clCreateCommandBufferKHR_fn create = CLFN(clCreateCommandBufferKHR);
    clCommandNDRangeKernelKHR_fn ndrange = CLFN(clCommandNDRangeKernelKHR);
    clFinalizeCommandBufferKHR_fn finalize = CLFN(clFinalizeCommandBufferKHR);
    clEnqueueCommandBufferKHR_fn enqueue = CLFN(clEnqueueCommandBufferKHR);
    if (!create || !ndrange || !finalize || !enqueue) {
        fprintf(stderr, "no cl_khr_command_buffer\n");
        return 77;
    }
    cl_command_buffer_khr cb = create(1, &q, NULL, &err);
    CK(err);
    size_t one32 = 32;
    for (int i = 0; i < KERNELS; i++)
        CK(ndrange(cb, NULL, NULL, k, 1, NULL, &one32, &one32, 0, NULL, NULL, NULL));
    CK(finalize(cb));

    CUdevice cdev;
    CUcontext cctx;
    CK(cu.cuInit(0));
    CK(cu.cuDeviceGet(&cdev, 0));
    CK(cu.cuDevicePrimaryCtxRetain(&cctx, cdev));
    CK(cu.cuCtxSetCurrent(cctx));
    CUmodule mod;
    CUfunction f0, f1;
    CK(cu.cuModuleLoadData(&mod, ptx));
    CK(cu.cuModuleGetFunction(&f0, mod, "e0"));
    CK(cu.cuModuleGetFunction(&f1, mod, "e1"));
    CUstream s;
    CK(cu.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    /* a stream of the priority culvert gives a queue without a hint: halfway */
    CUstream sp;
    int least = 0, greatest = 0;
    CK(cu.cuCtxGetStreamPriorityRange(&least, &greatest));
    CK(cu.cuStreamCreateWithPriority(&sp, CU_STREAM_NON_BLOCKING, (least + greatest) / 2));
    static unsigned char param[80];
    void *params[] = {param};
    /* One instance per stream: an instance launched on another stream than the last time costs
     * ~70 us (seen on the H100). */
    CUgraphExec g0 = chain(f0, NULL), g1 = chain(f1, params), g0p = chain(f0, NULL);
    volatile uint64_t *hflag = NULL;
    CUdeviceptr dflag = 0;
    uint64_t flag_value = 0;
    CK(cu.cuMemHostAlloc((void **)&hflag, 64,
                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CK(cu.cuMemHostGetDevicePointer_v2(&dflag, (void *)hflag, 0));
    *hflag = 0;

    static double v[VARIANTS][MAX_ROUNDS], first[VARIANTS][MAX_ROUNDS];
    for (int r = -2; r < rounds; r++) { /* two rounds of warm-up */
        for (int j = 0; j < VARIANTS; j++) {
            int var = (j + (r < 0 ? 0 : r)) % VARIANTS; /* each variant in each place in turn */
            bool is_cl = var == CULVERT || var == CULVERT_WARM || var == CULVERT_LATER;
            bool prio = var == RAW_PRIO || var == RAW_PRIO_LATER;
            CUgraphExec g = var == RAW_PARAM || var == RAW_FLAG ? g1 : prio ? g0p : g0;
            CUstream st = prio ? sp : s;
            /* Every stream idle first: a burst queued while another stream's work still runs
             * (the variant before) costs several times more. */
            CK(clFinish(q));
            CK(cu.cuStreamSynchronize(s));
            CK(cu.cuStreamSynchronize(sp));
            /* As culvert's waits: the GPU writes a flag behind the stream's work, the host spins */
            if (var == RAW_FLAG) {
                CK(cu.cuStreamWriteValue64_v2(s, dflag, ++flag_value, 0));
                while (*hflag != flag_value) {
                }
            }
            if (var == RAW_SLEPT) {
                struct timespec ts = {0, 200000};
                nanosleep(&ts, NULL);
            }
            if (var == CULVERT_WARM || var == RAW_WARM)
                spin_us(300);
            if (var == CULVERT_LATER || var == RAW_PRIO_LATER) {
                struct timespec ts = {0, 300000};
                nanosleep(&ts, NULL);
            }
            double t0 = bench_now_us(), t_first = t0;
            for (int i = 0; i < BURST; i++) {
                if (is_cl)
                    CK(enqueue(0, NULL, cb, 0, NULL, NULL));
                else
                    CK(cu.cuGraphLaunch(g, st));
                if (i == 0)
                    t_first = bench_now_us();
            }
            double t1 = bench_now_us();
            if (r >= 0) {
                v[var][r] = (t1 - t0) / BURST;
                first[var][r] = t_first - t0;
            }
        }
    }
    CK(clFinish(q));
    CK(cu.cuStreamSynchronize(s));
    CK(cu.cuStreamSynchronize(sp));
    printf("graph_probe: %d rounds, a burst of %d launches of a %d-kernel chain; us per launch "
           "(median; 10th and 90th percentile)\n",
           rounds, BURST, KERNELS);
    double raw = 0;
    for (int var = 0; var < VARIANTS; var++) {
        double m = bench_median(v[var], rounds);
        if (var == RAW)
            raw = m;
        printf("  %-14s %7.3f  (%6.3f .. %6.3f)  %.3fx raw; the first launch %.3f\n", names[var], m,
               v[var][rounds / 10], v[var][rounds - 1 - rounds / 10], m / raw,
               bench_median(first[var], rounds));
    }
    return 0;
}
