/* graph_probe: where a command buffer's replay spends the time raw cuGraphLaunch does not (issue
 * 23's "replay ÷ raw cuGraphLaunch"). One process, the variants taking turns in every round, each
 * a burst of 8 launches of a 100-kernel chain after the stream went idle; medians of the rounds,
 * µs per launch:
 *   raw             cuGraphLaunch of 100 parameterless empty kernels (cv-bench's raw row)
 *   raw+param       the same kernels with culvert's 80-byte launch parameter
 *   raw, slept      raw, but the wait before the burst sleeps (a query every 200 us) as a
 *                   sleeping host wait does, instead of cuStreamSynchronize's spin
 *   culvert         clEnqueueCommandBufferKHR of the same chain recorded in OpenCL (cv-bench's row)
 *   culvert, warm   culvert, but the host spins 300 us after clFinish before the burst
 *   raw, warm       raw, with the same 300 us spin
 * Diagnostic output, no test.
 *
 *   graph_probe [platform-substring] [rounds]
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <cuda.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KERNELS    100
#define BURST      8
#define MAX_ROUNDS 1001

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp);
    return v[n / 2];
}

static void spin_us(double us) {
    double end = now_us() + us;
    while (now_us() < end) {
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
    X(cuStreamSynchronize, CUresult (*)(CUstream))                                                 \
    X(cuStreamQuery, CUresult (*)(CUstream))                                                       \
    X(cuGraphCreate, CUresult (*)(CUgraph *, unsigned))                                            \
    X(cuGraphAddKernelNode_v2, CUresult (*)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,   \
                                            const CUDA_KERNEL_NODE_PARAMS *))                      \
    X(cuGraphInstantiateWithFlags, CUresult (*)(CUgraphExec *, CUgraph, unsigned long long))       \
    X(cuGraphLaunch, CUresult (*)(CUgraphExec, CUstream))

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

enum { RAW, RAW_PARAM, RAW_SLEPT, CULVERT, CULVERT_WARM, RAW_WARM, VARIANTS };
static const char *names[VARIANTS] = {"raw",     "raw+param",     "raw, slept",
                                      "culvert", "culvert, warm", "raw, warm"};

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
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
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
    static unsigned char param[80];
    void *params[] = {param};
    CUgraphExec g0 = chain(f0, NULL), g1 = chain(f1, params);

    static double v[VARIANTS][MAX_ROUNDS];
    for (int r = -2; r < rounds; r++) { /* two rounds of warm-up */
        for (int j = 0; j < VARIANTS; j++) {
            int var = (j + (r < 0 ? 0 : r)) % VARIANTS; /* each variant in each place in turn */
            bool is_cl = var == CULVERT || var == CULVERT_WARM;
            CUgraphExec g = var == RAW_PARAM ? g1 : g0;
            if (is_cl) {
                CK(clFinish(q));
            } else if (var == RAW_SLEPT) {
                struct timespec ts = {0, 200000};
                while (cu.cuStreamQuery(s) == CUDA_ERROR_NOT_READY)
                    nanosleep(&ts, NULL);
            } else {
                CK(cu.cuStreamSynchronize(s));
            }
            if (var == CULVERT_WARM || var == RAW_WARM)
                spin_us(300);
            double t0 = now_us();
            for (int i = 0; i < BURST; i++) {
                if (is_cl)
                    CK(enqueue(0, NULL, cb, 0, NULL, NULL));
                else
                    CK(cu.cuGraphLaunch(g, s));
            }
            double t1 = now_us();
            if (r >= 0)
                v[var][r] = (t1 - t0) / BURST;
        }
    }
    CK(clFinish(q));
    CK(cu.cuStreamSynchronize(s));
    printf("graph_probe: %d rounds, a burst of %d launches of a %d-kernel chain; us per launch "
           "(median; 10th and 90th percentile)\n",
           rounds, BURST, KERNELS);
    double raw = 0;
    for (int var = 0; var < VARIANTS; var++) {
        double m = median(v[var], rounds);
        if (var == RAW)
            raw = m;
        printf("  %-14s %7.3f  (%6.3f .. %6.3f)  %.3fx raw\n", names[var], m, v[var][rounds / 10],
               v[var][rounds - 1 - rounds / 10], m / raw);
    }
    return 0;
}
