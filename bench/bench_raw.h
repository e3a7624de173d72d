/* cv-bench: the raw CUDA backend's state, shared by bench_raw.c and bench_raw_graph.c (the
 * CUDA-graph figures). */
#ifndef BENCH_RAW_H
#define BENCH_RAW_H

#include "bench.h"

#include <cuda.h>

/* The graph functions (cuda/cu_graph.c's counterparts), looked up by their exported names. */
typedef struct raw_graphs {
    CUresult (*create)(CUgraph *, unsigned);
    CUresult (*addKernelNode)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                              const CUDA_KERNEL_NODE_PARAMS *);
    CUresult (*addBatchMemOpNode)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                                  const CUDA_BATCH_MEM_OP_NODE_PARAMS *);
    CUresult (*instantiate)(CUgraphExec *, CUgraph, unsigned long long);
    CUresult (*launch)(CUgraphExec, CUstream);
    CUresult (*execDestroy)(CUgraphExec);
    CUresult (*destroy)(CUgraph);
} raw_graphs;

/* The driver's exported names (the versioned ones where cuda.h maps to them). */
#define RAW_FUNCS(X)                                                                               \
    X(init, "cuInit", CUresult (*)(unsigned))                                                      \
    X(deviceGet, "cuDeviceGet", CUresult (*)(CUdevice *, int))                                     \
    X(deviceGetName, "cuDeviceGetName", CUresult (*)(char *, int, CUdevice))                       \
    X(driverGetVersion, "cuDriverGetVersion", CUresult (*)(int *))                                 \
    X(primaryRetain, "cuDevicePrimaryCtxRetain", CUresult (*)(CUcontext *, CUdevice))              \
    X(ctxSetCurrent, "cuCtxSetCurrent", CUresult (*)(CUcontext))                                   \
    X(moduleLoadData, "cuModuleLoadData", CUresult (*)(CUmodule *, const void *))                  \
    X(moduleGetFunction, "cuModuleGetFunction",                                                    \
      CUresult (*)(CUfunction *, CUmodule, const char *))                                          \
    X(launch, "cuLaunchKernel",                                                                    \
      CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,         \
                   unsigned, CUstream, void **, void **))                                          \
    X(streamCreate, "cuStreamCreate", CUresult (*)(CUstream *, unsigned))                          \
    X(streamSync, "cuStreamSynchronize", CUresult (*)(CUstream))                                   \
    X(streamWaitEvent, "cuStreamWaitEvent", CUresult (*)(CUstream, CUevent, unsigned))             \
    X(eventCreate, "cuEventCreate", CUresult (*)(CUevent *, unsigned))                             \
    X(eventRecord, "cuEventRecord", CUresult (*)(CUevent, CUstream))                               \
    X(eventSync, "cuEventSynchronize", CUresult (*)(CUevent))                                      \
    X(eventElapsed, "cuEventElapsedTime", CUresult (*)(float *, CUevent, CUevent))                 \
    X(eventDestroy, "cuEventDestroy_v2", CUresult (*)(CUevent))                                    \
    X(memAlloc, "cuMemAlloc_v2", CUresult (*)(CUdeviceptr *, size_t))                              \
    X(memFree, "cuMemFree_v2", CUresult (*)(CUdeviceptr))                                          \
    X(memHostAlloc, "cuMemHostAlloc", CUresult (*)(void **, size_t, unsigned))                     \
    X(memFreeHost, "cuMemFreeHost", CUresult (*)(void *))                                          \
    X(memHostGetDevicePointer, "cuMemHostGetDevicePointer_v2",                                     \
      CUresult (*)(CUdeviceptr *, void *, unsigned))                                               \
    X(memcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                                     \
      CUresult (*)(CUdeviceptr, const void *, size_t, CUstream))                                   \
    X(memcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                                                     \
      CUresult (*)(void *, CUdeviceptr, size_t, CUstream))                                         \
    X(memcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                                                     \
      CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream))                                    \
    X(memsetD32Async, "cuMemsetD32Async", CUresult (*)(CUdeviceptr, unsigned, size_t, CUstream))

struct raw_backend {
#define FIELD(field, name, type) __typeof__(type) field;
    RAW_FUNCS(FIELD)
#undef FIELD
    CUresult (*streamWaitValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned);
    raw_graphs g;          /* NULL functions where the driver lacks them */
    char device_name[256]; /* the device name, driver version and event mode, whole */
    bool blocking;         /* the blocking-sync column: waits sleep in cuEventSynchronize */
    CUcontext ctx;
    CUstream s, s2;
    CUstream lane[BENCH_LANES]; /* lane[0] is s; the others made for the CPU rows */
    CUevent lane_done[BENCH_LANES];
    CUmodule mod;
    CUfunction f_empty, f_spin, f_copy4, f_args8, f_fma, f_spin_end, f_timer_feed;
};

CUresult raw_launch_empty(raw_backend *b, CUstream s);

/* bench_raw_graph.c */
void raw_open_graphs(raw_backend *b, void *lib);
double raw_enqueue_100(raw_backend *b);
double raw_replay_100(raw_backend *b);
double raw_gate_graph(raw_backend *b);

#endif
