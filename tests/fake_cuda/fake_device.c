/* The driver, the one device (shaped like an H100; FAKECUDA_NODEV=1 hides it), its primary
 * context and the contexts cuCtxCreate makes, current per thread (fake_internal.h). */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

fake_context fake_primary;
fake_context *_Atomic fake_owner = &fake_primary;
static __thread CUcontext current;
_Atomic unsigned fake_generation;

CUresult fake_need_ctx(void) {
    fake_context *c = (fake_context *)current;
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (c->destroyed)
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (c->sticky)
        return (CUresult)c->sticky;
    if (c != fake_owner) {
        fprintf(stderr, "fake: a call in a healthy context that does not own the resources (the "
                        "fake models one context's at a time)\n");
        abort();
    }
    return CUDA_SUCCESS;
}

void fake_fault(CUresult r) {
    if (fake_sticky)
        return;
    fake_sticky = (int)r;
    fprintf(stderr, "fake: the context faulted (%d): sticky until cuDevicePrimaryCtxReset\n",
            (int)r);
    /* The streams' queued work is dropped and their waits give up (fake_stream.c). */
    fake_drop_queued();
    pthread_cond_broadcast(&fake_C);
}

static unsigned lost_teardown_us;
static pthread_once_t lost_teardown_once = PTHREAD_ONCE_INIT;

static void lost_teardown_init(void) {
    const char *v = getenv("FAKECUDA_LOST_TEARDOWN_US");
    lost_teardown_us = v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

CUresult fake_lost_teardown(CUresult r) {
    pthread_once(&lost_teardown_once, lost_teardown_init);
    if (r != CUDA_SUCCESS && (int)r == fake_sticky && lost_teardown_us)
        usleep(lost_teardown_us);
    return r;
}

/* Under L: the owner's streams, events, modules and allocations go. */
static void end_resources(void) {
    fake_reset_streams();
    fake_reset_memory();
    fake_generation++;
    pthread_cond_broadcast(&fake_C);
}

static const struct {
    CUdevice_attribute a;
    int v;
} attributes[] = {
    {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
    {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
    {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
    {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 0x7fffffff},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
    {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
    {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
    {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
    {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448},
    {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536},
    {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 50 << 20},
    {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
    {CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1},
    {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1},
    {CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 1},
    {CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 1},
    {CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, 1},
    {CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 1},
    {CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 1},
    {CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 1},
    /* The H100's texture limits: culvert then asks for texture objects (handles only: the fake
     * runs no kernel). */
    {CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512},
    {CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 131072},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 65000},
    {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, 2097120},
    {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1},
    {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1},
};

int fake_attribute(CUdevice_attribute a) {
    for (size_t i = 0; i < sizeof attributes / sizeof attributes[0]; i++)
        if (attributes[i].a == a)
            return attributes[i].v;
    return 0;
}

#pragma GCC visibility push(default)

CUresult cuInit(unsigned f) {
    FAKE_CALL;
    (void)f;
    return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *v) {
    FAKE_CALL;
    *v = 13000;
    return CUDA_SUCCESS;
}
static void error_name(CUresult e, const char **s) {
    static __thread char b[32];
    snprintf(b, sizeof b, "FAKE_ERROR_%d", (int)e);
    *s = b;
}
CUresult cuGetErrorName(CUresult e, const char **s) {
    FAKE_CALL;
    error_name(e, s);
    return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
    FAKE_CALL;
    error_name(e, s);
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *n) {
    FAKE_CALL;
    *n = getenv("FAKECUDA_NODEV") ? 0 : 1;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int o) {
    FAKE_CALL;
    if (o)
        return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *n, int len, CUdevice d) {
    FAKE_CALL;
    (void)d;
    snprintf(n, (size_t)len, "Fake H100");
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    FAKE_CALL;
    (void)d;
    *v = fake_attribute(a);
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d) {
    FAKE_CALL;
    (void)d;
    memset(u, 7, sizeof *u);
    return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
    FAKE_CALL;
    *c = d == 0 ? FAKE_CTX : NULL;
    return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
    FAKE_CALL;
    (void)d;
    return CUDA_SUCCESS;
}
/* FAKECUDA_RECOVER_REFUSALS=n: the first n resets of the primary context keep its error, and the
 * first n cuCtxCreate calls answer CUDA_ERROR_ILLEGAL_ADDRESS (a driver still tearing the faulted
 * context down refuses early tries); [0]: resets, [1]: creations. */
static _Atomic long refusals[2];
static pthread_once_t refusals_once = PTHREAD_ONCE_INIT;

static void refusals_init(void) {
    const char *v = getenv("FAKECUDA_RECOVER_REFUSALS");
    long n = v ? strtol(v, NULL, 10) : 0;
    atomic_store(&refusals[0], n);
    atomic_store(&refusals[1], n);
}

/* Whether this reset (which 0) or creation (1) is refused. */
static bool refused(int which) {
    pthread_once(&refusals_once, refusals_init);
    return atomic_fetch_sub(&refusals[which], 1) > 0;
}

/* Destroys everything of the primary context (streams, events, modules, allocations) and clears
 * its sticky error (FAKECUDA_RESET_KEEPS_FAULT=1: keeps it; FAKECUDA_RECOVER_REFUSALS: the first
 * ones keep it); the context handle stays the same. */
CUresult cuDevicePrimaryCtxReset(CUdevice d) {
    FAKE_CALL;
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    const char *keep = getenv("FAKECUDA_RESET_KEEPS_FAULT");
    bool refuse = refused(0);
    LOCK;
    if (fake_owner == &fake_primary)
        end_resources();
    if ((!keep || strcmp(keep, "1") != 0) && !refuse)
        fake_primary.sticky = 0;
    UNLOCK;
    return CUDA_SUCCESS;
}
/* A context of its own, current to the caller; it owns the resources from now on (the earlier
 * owner's go). */
CUresult cuCtxCreate_v2(CUcontext *c, unsigned flags, CUdevice d) {
    FAKE_CALL;
    (void)flags;
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (refused(1))
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    fake_context *n = calloc(1, sizeof *n);
    if (!n)
        return CUDA_ERROR_OUT_OF_MEMORY;
    n->created = true;
    LOCK;
    end_resources();
    fake_owner = n;
    UNLOCK;
    current = *c = (CUcontext)n;
    return CUDA_SUCCESS;
}
/* Everything of the context goes with it; threads that have it current get
 * CUDA_ERROR_CONTEXT_IS_DESTROYED. The primary context owns the resources again. */
CUresult cuCtxDestroy(CUcontext c) {
    FAKE_CALL;
    fake_context *x = (fake_context *)c;
    if (!x || !x->created || x->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    LOCK;
    if (fake_owner == x) {
        end_resources();
        fake_owner = &fake_primary;
    }
    x->destroyed = true;
    UNLOCK;
    if (current == c)
        current = NULL;
    return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *c) {
    FAKE_CALL;
    *c = current;
    return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) {
    FAKE_CALL;
    if (c && ((fake_context *)c)->destroyed)
        return CUDA_ERROR_INVALID_CONTEXT;
    current = c;
    return CUDA_SUCCESS;
}
CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
    FAKE_CALL;
    LOCK;
    CUresult r = fake_need_ctx();
    if (r == CUDA_SUCCESS && limit == CU_LIMIT_PRINTF_FIFO_SIZE)
        fake_state.printf_fifo_size = value;
    else if (r == CUDA_SUCCESS)
        r = CUDA_ERROR_UNSUPPORTED_LIMIT;
    UNLOCK;
    return r;
}
CUresult cuCtxSynchronize(void) {
    FAKE_CALL;
    LOCK;
    fake_drain_all();
    UNLOCK;
    return fake_need_ctx();
}
CUresult cuCtxGetStreamPriorityRange(int *lo, int *hi) {
    FAKE_CALL;
    *lo = 0;
    *hi = -5;
    return CUDA_SUCCESS;
}
#pragma GCC visibility pop
