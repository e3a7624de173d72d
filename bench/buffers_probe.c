/* buffers_probe: culvert's buffer transfers against raw CUDA driver calls, in one process.
 *
 *   buffers_probe [platform-substring] [MiB] [sections]
 *
 * Picks the first OpenCL platform whose name contains the substring (default "culvert"; "NVIDIA"
 * measures NVIDIA's OpenCL the same way), then prints one line per measurement: the OpenCL
 * figure, the raw CUDA figure (primary context of device 0, same process, same sizes) and their
 * ratio (>1 is better for bandwidths, <1 for latencies). sections: a comma list of page, pin,
 * map, dev, gpu, small (default all). Bandwidths are best of 5; latencies medians of 201.
 * Numbers only, no pass/fail: it is not a test. Not in bench/CMakeLists.txt (another helper's
 * file); build it by hand, against the CUDA toolkit's stub libcuda:
 *   cc -O2 -I/usr/local/cuda/include bench/buffers_probe.c -o buffers_probe -lOpenCL \
 *      -L/usr/local/cuda/lib64/stubs -lcuda */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CK(x)                                                                                      \
    do {                                                                                           \
        long r_ = (long)(x);                                                                       \
        if (r_ != 0) {                                                                             \
            fprintf(stderr, "%s:%d: %s -> %ld\n", __FILE__, __LINE__, #x, r_);                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define REPS 5
#define LAT  201

static cl_command_queue q;
static cl_context ctx;
static CUstream cs;

typedef enum { W_PAGE, R_PAGE, W_PIN, R_PIN, DCOPY, FILL, MAPR, MAPW, W_DONE } op;

/* One timed OpenCL operation of n bytes. */
static void cl_op(op o, cl_mem a, cl_mem b, void *host, size_t n) {
    cl_uint pat = 0x01020304;
    void *p;
    switch (o) {
    case W_PAGE:
    case W_PIN:
    case W_DONE:
        CK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n, host, 0, NULL, NULL));
        break;
    case R_PAGE:
    case R_PIN:
        CK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, n, host, 0, NULL, NULL));
        break;
    case DCOPY:
        CK(clEnqueueCopyBuffer(q, a, b, 0, 0, n, 0, NULL, NULL));
        CK(clFinish(q));
        break;
    case FILL:
        CK(clEnqueueFillBuffer(q, a, &pat, 4, 0, n, 0, NULL, NULL));
        CK(clFinish(q));
        break;
    case MAPR:
    case MAPW: {
        cl_int err;
        p = clEnqueueMapBuffer(q, a, CL_TRUE, o == MAPR ? CL_MAP_READ : CL_MAP_WRITE, 0, n, 0, NULL,
                               NULL, &err);
        CK(err);
        CK(clEnqueueUnmapMemObject(q, a, p, 0, NULL, NULL));
        CK(clFinish(q));
        break;
    }
    }
}

static void cu_op(op o, CUdeviceptr a, CUdeviceptr b, void *host, size_t n) {
    switch (o) {
    case W_PAGE:
    case W_PIN:
        CK(cuMemcpyHtoD(a, host, n));
        break;
    case R_PAGE:
    case R_PIN:
        CK(cuMemcpyDtoH(host, a, n));
        break;
    case DCOPY:
        CK(cuMemcpyDtoDAsync(b, a, n, cs));
        CK(cuStreamSynchronize(cs));
        break;
    case FILL:
        CK(cuMemsetD32Async(a, 0x01020304, n / 4, cs));
        CK(cuStreamSynchronize(cs));
        break;
    case W_DONE: /* a write that has landed when the call returns, as a blocking
                    clEnqueueWriteBuffer's (cuMemcpyHtoD returns once the data is staged) */
        CK(cuMemcpyHtoDAsync(a, host, n, cs));
        CK(cuStreamSynchronize(cs));
        break;
    case MAPR: /* a map for reading of ALLOC_HOST_PTR = a D2H into pinned memory */
        CK(cuMemcpyDtoH(host, a, n));
        break;
    case MAPW: /* map for writing + unmap = H2D from pinned memory (the map copies nothing
                  only with WRITE_INVALIDATE; CL_MAP_WRITE copies both ways) */
        CK(cuMemcpyDtoH(host, a, n));
        CK(cuMemcpyHtoD(a, host, n));
        break;
    }
}

static double best_cl(op o, cl_mem a, cl_mem b, void *h, size_t n) {
    double best = 1e9;
    cl_op(o, a, b, h, n);
    for (int i = 0; i < REPS; i++) {
        double t = now();
        cl_op(o, a, b, h, n);
        t = now() - t;
        best = t < best ? t : best;
    }
    return best;
}

static double best_cu(op o, CUdeviceptr a, CUdeviceptr b, void *h, size_t n) {
    double best = 1e9;
    cu_op(o, a, b, h, n);
    for (int i = 0; i < REPS; i++) {
        double t = now();
        cu_op(o, a, b, h, n);
        t = now() - t;
        best = t < best ? t : best;
    }
    return best;
}

static double med_cl(op o, cl_mem a, void *h, size_t n) {
    double t[LAT];
    for (int i = 0; i < 20; i++)
        cl_op(o, a, NULL, h, n);
    for (int i = 0; i < LAT; i++) {
        t[i] = now();
        cl_op(o, a, NULL, h, n);
        t[i] = now() - t[i];
    }
    qsort(t, LAT, sizeof *t, cmp_double);
    return t[LAT / 2];
}

static double med_cu(op o, CUdeviceptr a, void *h, size_t n) {
    double t[LAT];
    for (int i = 0; i < 20; i++)
        cu_op(o, a, 0, h, n);
    for (int i = 0; i < LAT; i++) {
        t[i] = now();
        cu_op(o, a, 0, h, n);
        t[i] = now() - t[i];
    }
    qsort(t, LAT, sizeof *t, cmp_double);
    return t[LAT / 2];
}

static void bw(const char *name, size_t n, double tcl, double tcu) {
    printf("%-28s %8.2f GB/s  raw %8.2f GB/s  ratio %.3f\n", name, n / tcl / 1e9, n / tcu / 1e9,
           tcu / tcl);
}

static void lat(const char *name, double tcl, double tcu) {
    printf("%-28s %8.2f us    raw %8.2f us    ratio %.3f\n", name, tcl * 1e6, tcu * 1e6, tcl / tcu);
}

int main(int argc, char **argv) {
    const char *want = argc > 1 ? argv[1] : "culvert";
    size_t n = (size_t)(argc > 2 ? atoi(argv[2]) : 256) << 20;
    const char *only = argc > 3 ? argv[3] : "";
    cl_platform_id plats[8], plat = NULL;
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, plats, &np));
    for (cl_uint i = 0; i < np && !plat; i++) {
        char name[256];
        CK(clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strstr(name, want))
            plat = plats[i];
    }
    if (!plat) {
        fprintf(stderr, "no platform '%s'\n", want);
        return 1;
    }
    cl_device_id dev;
    cl_int err;
    CK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, NULL));
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    CK(err);

    CUdevice cd;
    CUcontext cc;
    CK(cuInit(0));
    CK(cuDeviceGet(&cd, 0));
    CK(cuDevicePrimaryCtxRetain(&cc, cd));
    CK(cuCtxSetCurrent(cc));
    CK(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));

    char *page = malloc(n);
    memset(page, 1, n);
    void *pin = NULL;
    CK(cuMemHostAlloc(&pin, n, CU_MEMHOSTALLOC_PORTABLE));
    memset(pin, 1, n);
    CUdeviceptr da, db;
    CK(cuMemAlloc(&da, n));
    CK(cuMemAlloc(&db, n));

    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n, NULL, &err);
    CK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n, NULL, &err);
    CK(err);
    cl_mem ah = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, n, NULL, &err);
    CK(err);
    /* The pinned pointer OpenCL users get: a mapped ALLOC_HOST_PTR buffer. */
    void *mapped =
        clEnqueueMapBuffer(q, ah, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, NULL, NULL, &err);
    CK(err);
    memset(mapped, 1, n);
    printf("platform %s, %zu MiB\n", want, n >> 20);

    if (!*only || strstr(only, "page")) {
        bw("pageable H2D", n, best_cl(W_PAGE, a, NULL, page, n), best_cu(W_PAGE, da, 0, page, n));
        bw("pageable D2H", n, best_cl(R_PAGE, a, NULL, page, n), best_cu(R_PAGE, da, 0, page, n));
    }
    if (!*only || strstr(only, "pin")) {
        bw("pinned H2D (mapped ptr)", n, best_cl(W_PIN, a, NULL, mapped, n),
           best_cu(W_PIN, da, 0, pin, n));
        bw("pinned D2H (mapped ptr)", n, best_cl(R_PIN, a, NULL, mapped, n),
           best_cu(R_PIN, da, 0, pin, n));
    }
    if (!*only || strstr(only, "map")) {
        /* map/unmap of a second ALLOC_HOST_PTR buffer */
        cl_mem ah2 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, n, NULL, &err);
        CK(err);
        bw("AHP map READ+unmap", n, best_cl(MAPR, ah2, NULL, NULL, n),
           best_cu(MAPR, da, 0, pin, n));
        bw("AHP map WRITE+unmap", n, best_cl(MAPW, ah2, NULL, NULL, n),
           best_cu(MAPW, da, 0, pin, n));
        CK(clReleaseMemObject(ah2));
    }
    if (!*only || strstr(only, "dev")) {
        bw("device copy", n, best_cl(DCOPY, a, b, NULL, n), best_cu(DCOPY, da, db, NULL, n));
        bw("fill 4B pattern", n, best_cl(FILL, a, NULL, NULL, n), best_cu(FILL, da, 0, NULL, n));
    }
    if (!*only || strstr(only, "gpu")) {
        /* GPU-side time of copy and fill: profiling events against CUDA events */
        cl_command_queue pq = clCreateCommandQueueWithProperties(
            ctx, dev, (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0},
            &err);
        CK(err);
        CUevent e0, e1;
        CK(cuEventCreate(&e0, 0));
        CK(cuEventCreate(&e1, 0));
        for (int k = 0; k < 2; k++) {
            double bcl = 1e9, bcu = 1e9;
            for (int i = 0; i < REPS + 1; i++) {
                cl_event ev;
                cl_uint pat = 7;
                if (k == 0)
                    CK(clEnqueueCopyBuffer(pq, a, b, 0, 0, n, 0, NULL, &ev));
                else
                    CK(clEnqueueFillBuffer(pq, a, &pat, 4, 0, n, 0, NULL, &ev));
                CK(clWaitForEvents(1, &ev));
                cl_ulong t0, t1;
                CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, NULL));
                CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, NULL));
                CK(clReleaseEvent(ev));
                double tc = (t1 - t0) * 1e-9;
                bcl = i && tc < bcl ? tc : bcl;
                CK(cuEventRecord(e0, cs));
                if (k == 0)
                    CK(cuMemcpyDtoDAsync(db, da, n, cs));
                else
                    CK(cuMemsetD32Async(da, 7, n / 4, cs));
                CK(cuEventRecord(e1, cs));
                CK(cuEventSynchronize(e1));
                float ms;
                CK(cuEventElapsedTime(&ms, e0, e1));
                bcu = i && ms * 1e-3 < bcu ? ms * 1e-3 : bcu;
            }
            bw(k == 0 ? "device copy (GPU time)" : "fill 4B (GPU time)", n, bcl, bcu);
        }
        CK(clReleaseCommandQueue(pq));
    }
    if (!*only || strstr(only, "small")) {
        for (size_t s = 4; s <= ((size_t)1 << 20); s *= 4) {
            char nm[64];
            snprintf(nm, sizeof nm, "pageable write %zu B", s);
            lat(nm, med_cl(W_PAGE, a, page, s), med_cu(W_PAGE, da, page, s));
            snprintf(nm, sizeof nm, "  vs raw async+sync");
            lat(nm, med_cl(W_PAGE, a, page, s), med_cu(W_DONE, da, page, s));
            snprintf(nm, sizeof nm, "pageable read %zu B", s);
            lat(nm, med_cl(R_PAGE, a, page, s), med_cu(R_PAGE, da, page, s));
        }
        lat("pinned read 4 B", med_cl(R_PIN, a, mapped, 4), med_cu(R_PIN, da, pin, 4));
        lat("pinned write 4 B", med_cl(W_PIN, a, mapped, 4), med_cu(W_PIN, da, pin, 4));
    }
    CK(clEnqueueUnmapMemObject(q, ah, mapped, 0, NULL, NULL));
    CK(clFinish(q));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(ah);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
