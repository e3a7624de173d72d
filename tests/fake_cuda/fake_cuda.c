/* A fake libcuda.so.1 that runs culvert's queue and event logic without a GPU (the fake.* tests):
 * one device and primary context; streams are host threads that execute, in order, event
 * records, event waits and 64-bit value waits/writes on host memory. Events carry host
 * timestamps. No memory, modules or kernels (fake_cuda_stubs.c answers those). */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static int the_ctx_storage;
#define THE_CTX ((CUcontext)&the_ctx_storage)
static __thread CUcontext current;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

struct CUevent_st {
    unsigned flags;
    unsigned long recorded, done; /* sequence numbers */
    double t;
    int destroyed;
};

enum { OP_RECORD, OP_WAIT_EVENT, OP_WAIT_VALUE, OP_WRITE_VALUE };
typedef struct op {
    int kind;
    CUevent ev;
    unsigned long seq;
    volatile uint64_t *addr;
    uint64_t value;
    unsigned flags;
    struct op *next;
} op;

struct CUstream_st {
    op *head, *tail;
    int busy, destroyed;
    pthread_t thread;
};

static void *worker(void *arg) {
    CUstream s = arg;
    pthread_mutex_lock(&L);
    for (;;) {
        while (!s->head && !s->destroyed)
            pthread_cond_wait(&C, &L);
        if (!s->head && s->destroyed)
            break;
        op *o = s->head;
        s->busy = 1;
        switch (o->kind) {
        case OP_RECORD:
            o->ev->t = now_ms();
            if (o->seq > o->ev->done)
                o->ev->done = o->seq;
            break;
        case OP_WAIT_EVENT:
            while (o->ev->done < o->seq)
                pthread_cond_wait(&C, &L);
            break;
        case OP_WAIT_VALUE:
            for (;;) {
                uint64_t v = __atomic_load_n(o->addr, __ATOMIC_ACQUIRE);
                int ok = o->flags == CU_STREAM_WAIT_VALUE_GEQ   ? (int64_t)(v - o->value) >= 0
                         : o->flags == CU_STREAM_WAIT_VALUE_EQ  ? v == o->value
                         : o->flags == CU_STREAM_WAIT_VALUE_AND ? (v & o->value) != 0
                                                                : ~(v | o->value) != 0;
                if (ok)
                    break;
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 20000;
                if (ts.tv_nsec >= 1000000000) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&C, &L, &ts);
            }
            break;
        case OP_WRITE_VALUE:
            __atomic_store_n(o->addr, o->value, __ATOMIC_RELEASE);
            break;
        }
        s->head = o->next;
        if (!s->head)
            s->tail = NULL;
        s->busy = 0;
        free(o);
        pthread_cond_broadcast(&C);
    }
    pthread_mutex_unlock(&L);
    free(s);
    return NULL;
}

static void push(CUstream s, op *o) {
    o->next = NULL;
    if (s->tail)
        s->tail->next = o;
    else
        s->head = o;
    s->tail = o;
    pthread_cond_broadcast(&C);
}

CUresult cuInit(unsigned f) {
    (void)f;
    return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *v) {
    *v = 13000;
    return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult r, const char **s) {
    (void)r;
    *s = "FAKE_ERROR";
    return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
    return cuGetErrorName(r, s);
}
CUresult cuDeviceGetCount(int *n) {
    *n = getenv("FAKECUDA_NODEV") ? 0 : 1;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int o) {
    *d = o;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *n, int len, CUdevice d) {
    (void)d;
    strncpy(n, "Fake H100", len);
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    (void)d;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
        *v = 9;
        break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
        *v = 0;
        break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
        *v = 132;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
        *v = 1024;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
        *v = 1024;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
        *v = 64;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
        *v = 2147483647;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
        *v = 65535;
        break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
        *v = 32;
        break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
        *v = 1980000;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
        *v = 49152;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        *v = 232448;
        break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
        *v = 65536;
        break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
        *v = 52428800;
        break;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
        *v = 1;
        break;
    default:
        *v = 0;
        break;
    }
    return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *b, CUdevice d) {
    (void)d;
    *b = 80ull << 30;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d) {
    (void)d;
    memset(u, 7, sizeof *u);
    return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
    (void)d;
    *c = THE_CTX;
    return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
    (void)d;
    return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *c) {
    *c = current;
    return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) {
    current = c;
    return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
    return CUDA_SUCCESS;
}
CUresult cuCtxGetStreamPriorityRange(int *lo, int *hi) {
    *lo = 0;
    *hi = -5;
    return CUDA_SUCCESS;
}
CUresult cuMemGetInfo(size_t *f, size_t *t) {
    *f = 79ull << 30;
    *t = 80ull << 30;
    return CUDA_SUCCESS;
}
CUresult cuMemHostAlloc(void **p, size_t n, unsigned f) {
    (void)f;
    *p = calloc(1, n);
    return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void *p) {
    free(p);
    return CUDA_SUCCESS;
}
CUresult cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned f) {
    (void)f;
    *d = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

static CUresult need_ctx(void) {
    return current == THE_CTX ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuStreamCreateWithPriority(CUstream *s, unsigned f, int prio) {
    (void)f;
    (void)prio;
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    CUstream n = calloc(1, sizeof *n);
    pthread_create(&n->thread, NULL, worker, n);
    pthread_detach(n->thread);
    *s = n;
    return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *s, unsigned f) {
    return cuStreamCreateWithPriority(s, f, 0);
}
CUresult cuStreamDestroy(CUstream s) {
    pthread_mutex_lock(&L);
    s->destroyed = 1;
    pthread_cond_broadcast(&C);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuStreamQuery(CUstream s) {
    pthread_mutex_lock(&L);
    int idle = !s->head;
    pthread_mutex_unlock(&L);
    return idle ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
CUresult cuStreamSynchronize(CUstream s) {
    pthread_mutex_lock(&L);
    while (s->head)
        pthread_cond_wait(&C, &L);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) {
    (void)f;
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    op *o = calloc(1, sizeof *o);
    pthread_mutex_lock(&L);
    o->kind = OP_WAIT_EVENT;
    o->ev = e;
    o->seq = e->recorded;
    push(s, o);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream s, CUcontext *c) {
    if ((uintptr_t)s < 4096)
        return CUDA_ERROR_INVALID_HANDLE;
    *c = THE_CTX;
    return CUDA_SUCCESS;
}
CUresult cuStreamWaitValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    op *o = calloc(1, sizeof *o);
    pthread_mutex_lock(&L);
    o->kind = OP_WAIT_VALUE;
    o->addr = (volatile uint64_t *)a;
    o->value = v;
    o->flags = f;
    push(s, o);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuStreamWriteValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    (void)f;
    op *o = calloc(1, sizeof *o);
    pthread_mutex_lock(&L);
    o->kind = OP_WRITE_VALUE;
    o->addr = (volatile uint64_t *)a;
    o->value = v;
    push(s, o);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *e, unsigned f) {
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    *e = calloc(1, sizeof **e);
    (*e)->flags = f;
    return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) {
    /* leaked on purpose: pending ops may still point at it */
    e->destroyed = 1;
    return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (e->destroyed)
        abort();
    op *o = calloc(1, sizeof *o);
    pthread_mutex_lock(&L);
    o->kind = OP_RECORD;
    o->ev = e;
    o->seq = ++e->recorded;
    push(s, o);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent e) {
    if (e->destroyed)
        abort();
    pthread_mutex_lock(&L);
    int done = e->done >= e->recorded;
    pthread_mutex_unlock(&L);
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
CUresult cuEventSynchronize(CUevent e) {
    pthread_mutex_lock(&L);
    while (e->done < e->recorded)
        pthread_cond_wait(&C, &L);
    pthread_mutex_unlock(&L);
    return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
    if ((a->flags & CU_EVENT_DISABLE_TIMING) || (b->flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&L);
    int ok = a->done >= a->recorded && b->done >= b->recorded && a->recorded && b->recorded;
    *ms = (float)(b->t - a->t);
    pthread_mutex_unlock(&L);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
