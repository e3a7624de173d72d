/* cv-bench, raw CUDA: the CUDA-graph figures, the counterparts of the command-buffer rows (the
 * same graphs culvert builds: empty kernels one after the other; a memory-operation wait node
 * before a kernel). */
#include "bench_raw.h"

#include <dlfcn.h>
#include <string.h>

/* Kernels per graph, and replays (or sets of 100 launches) timed together. */
#define RAW_KERNELS 100
#define RAW_BURST   8

void raw_open_graphs(raw_backend *b, void *lib) {
    *(void **)&b->g.create = dlsym(lib, "cuGraphCreate");
    *(void **)&b->g.addKernelNode = dlsym(lib, "cuGraphAddKernelNode_v2");
    *(void **)&b->g.addBatchMemOpNode = dlsym(lib, "cuGraphAddBatchMemOpNode");
    *(void **)&b->g.instantiate = dlsym(lib, "cuGraphInstantiateWithFlags");
    *(void **)&b->g.launch = dlsym(lib, "cuGraphLaunch");
    *(void **)&b->g.execDestroy = dlsym(lib, "cuGraphExecDestroy");
    *(void **)&b->g.destroy = dlsym(lib, "cuGraphDestroy");
}

static bool raw_has_graphs(const raw_backend *b) {
    return b->g.create && b->g.addKernelNode && b->g.addBatchMemOpNode && b->g.instantiate &&
           b->g.launch && b->g.execDestroy && b->g.destroy;
}

/* n empty kernels, each after the one before; with wait_on, first a node waiting until the u64
 * there is 1. */
static CUresult raw_graph(raw_backend *b, int n, CUdeviceptr wait_on, CUgraph *g,
                          CUgraphExec *exec) {
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = b->f_empty;
    k.gridDimX = k.gridDimY = k.gridDimZ = 1;
    k.blockDimX = 32;
    k.blockDimY = k.blockDimZ = 1;
    CUgraphNode prev = NULL;
    CUresult e = b->g.create(g, 0);
    if (!e && wait_on) {
        CUstreamBatchMemOpParams op;
        memset(&op, 0, sizeof op);
        op.waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
        op.waitValue.address = wait_on;
        op.waitValue.value64 = 1;
        op.waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
        CUDA_BATCH_MEM_OP_NODE_PARAMS p = {b->ctx, 1, &op, 0};
        e = b->g.addBatchMemOpNode(&prev, *g, NULL, 0, &p);
    }
    for (int i = 0; i < n && !e; i++)
        e = b->g.addKernelNode(&prev, *g, prev ? &prev : NULL, prev ? 1 : 0, &k);
    if (!e)
        e = b->g.instantiate(exec, *g, 0);
    return e;
}

double raw_enqueue_100(raw_backend *b) {
    double v[64];
    CUresult e = raw_launch_empty(b, b->s);
    b->streamSync(b->s);
    for (int r = 0; r < g_opts.reps && !e; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < RAW_BURST * RAW_KERNELS && !e; i++)
            e = raw_launch_empty(b, b->s);
        double t1 = bench_now_us();
        b->streamSync(b->s);
        v[r] = (t1 - t0) / RAW_BURST;
    }
    return e ? NAN : bench_median(v, g_opts.reps);
}

double raw_replay_100(raw_backend *b) {
    if (!raw_has_graphs(b))
        return NAN;
    CUgraph g = NULL;
    CUgraphExec exec = NULL;
    double v[64];
    CUresult e = raw_graph(b, RAW_KERNELS, 0, &g, &exec);
    if (!e)
        e = b->g.launch(exec, b->s);
    b->streamSync(b->s);
    for (int r = 0; r < g_opts.reps && !e; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < RAW_BURST && !e; i++)
            e = b->g.launch(exec, b->s);
        double t1 = bench_now_us();
        b->streamSync(b->s);
        v[r] = (t1 - t0) / RAW_BURST;
    }
    if (exec)
        b->g.execDestroy(exec);
    if (g)
        b->g.destroy(g);
    return e ? NAN : bench_median(v, g_opts.reps);
}

/* As the stream's gate row, the wait inside the graph: the host stores 1, the graph's kernel
 * completes (seen through an event recorded after the launch). */
double raw_gate_graph(raw_backend *b) {
    if (!raw_has_graphs(b))
        return NAN;
    volatile cuuint64_t *flag = NULL;
    CUdeviceptr dflag = 0;
    CUevent done = NULL;
    CUgraph g = NULL;
    CUgraphExec exec = NULL;
    double v[256];
    int n = g_opts.reps * 4;
    CUresult e = b->eventCreate(&done, CU_EVENT_DISABLE_TIMING);
    if (!e)
        e = b->memHostAlloc((void **)&flag, 64,
                            CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (!e)
        e = b->memHostGetDevicePointer(&dflag, (void *)flag, 0);
    if (!e)
        e = raw_graph(b, 1, dflag, &g, &exec);
    for (int i = 0; i < n && !e; i++) {
        *flag = 0;
        e = b->g.launch(exec, b->s);
        if (!e)
            e = b->eventRecord(done, b->s);
        bench_sleep_us(300);
        double t0 = bench_now_us();
        __atomic_store_n(flag, (cuuint64_t)1, __ATOMIC_RELEASE);
        if (!e)
            e = b->eventSync(done);
        v[i] = e ? NAN : bench_now_us() - t0;
    }
    if (flag)
        __atomic_store_n(flag, (cuuint64_t)1, __ATOMIC_RELEASE); /* nothing left gated */
    b->streamSync(b->s);
    if (exec)
        b->g.execDestroy(exec);
    if (g)
        b->g.destroy(g);
    if (flag)
        b->memFreeHost((void *)flag);
    if (done)
        b->eventDestroy(done);
    return e ? NAN : bench_median(v, n);
}
