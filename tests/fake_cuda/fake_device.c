/* The driver, the one device (shaped like an H100; FAKECUDA_NODEV=1 hides it) and its primary
 * context, current per thread. */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fake_ctx_storage;
static __thread CUcontext current;
_Atomic int fake_sticky;
_Atomic unsigned fake_generation;

CUresult fake_need_ctx(void) {
    return current == FAKE_CTX ? (CUresult)fake_sticky : CUDA_ERROR_INVALID_CONTEXT;
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
/* Destroys everything of the context (streams, events, modules, allocations) and clears the
 * sticky error; the context handle stays the same. */
CUresult cuDevicePrimaryCtxReset(CUdevice d) {
    FAKE_CALL;
    if (d != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    LOCK;
    fake_reset_streams();
    fake_reset_memory();
    fake_generation++;
    fake_sticky = 0;
    pthread_cond_broadcast(&fake_C);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *c) {
    FAKE_CALL;
    *c = current;
    return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) {
    FAKE_CALL;
    current = c;
    return CUDA_SUCCESS;
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
