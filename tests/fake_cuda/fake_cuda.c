/* A fake libcuda.so.1 that runs culvert's host logic without a GPU (the fake.* tests): one device
 * and primary context; device memory is host memory (each allocation is tracked, so copies and
 * fills outside one abort); streams are host threads that execute, in order, copies, fills,
 * host functions, event records, event waits and 64-bit value waits/writes. Copies from or to
 * pageable host memory behave as CUDA documents for them: the stream is drained, then the copy
 * happens at once. Events carry host timestamps. Like the real driver (H100, driver 580),
 * cuMemFree, cuMemFreeHost and cuMemHostUnregister first wait until every stream has drained
 * and, while they wait, hold up every other call of the fake from other threads (only the
 * streams' own threads go on): a free while a stream is gated by a 64-bit value wait that the
 * freeing process itself must release deadlocks here as it does there. It proves nothing about
 * real GPU behaviour or speed. No modules or kernels (fake_cuda_stubs.c answers those with
 * CUDA_ERROR_NOT_SUPPORTED). FAKECUDA_NODEV=1 hides the device. */
#include <cuda.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
/* A device-wide call (a free) in progress: other threads' calls wait, the streams' threads and
 * the caller itself go on. */
static bool wide_busy;
static pthread_t wide_owner;
static __thread bool is_stream_thread;
static void fake_lock(void) {
    pthread_mutex_lock(&L);
    while (wide_busy && !is_stream_thread && !pthread_equal(wide_owner, pthread_self()))
        pthread_cond_wait(&C, &L);
}
#define LOCK   fake_lock()
#define UNLOCK pthread_mutex_unlock(&L)
#define P(x)   ((void *)(uintptr_t)(x))
static int the_ctx_storage;
#define THE_CTX ((CUcontext)&the_ctx_storage)
static __thread CUcontext current;
/* Device memory: 1 GiB, of which 64 MiB are taken from the start (as a context takes some). */
static const size_t DEV_TOTAL = (size_t)1 << 30, DEV_FREE = DEV_TOTAL - ((size_t)64 << 20);

static CUresult need_ctx(void) {
    return current == THE_CTX ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ---- memory: device allocations (host 0), pinned host memory (1), registered host memory (2) */
typedef struct range {
    char *p;
    size_t n;
    int host;
    unsigned long long id;
    struct range *next;
} range;
static range *ranges;
static unsigned long long next_id = 1;
static size_t dev_used;

static range *find(const void *p) { /* under L */
    for (range *r = ranges; r; r = r->next)
        if ((const char *)p >= r->p && (const char *)p < r->p + r->n)
            return r;
    return NULL;
}
static void add(void *p, size_t n, int host) { /* under L */
    range *r = calloc(1, sizeof *r);
    *r = (range){p, n, host, next_id++, ranges};
    ranges = r;
}
static range *unlink_range(const void *p, int host) { /* under L; NULL unless p starts one */
    for (range **r = &ranges; *r; r = &(*r)->next)
        if ((*r)->p == p && (*r)->host == host) {
            range *x = *r;
            *r = x->next;
            return x;
        }
    return NULL;
}
static int pinned(const void *p) { /* under L */
    range *r = find(p);
    return r && r->host;
}
static void check_dev(CUdeviceptr p, size_t n) {
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    if (!r || (char *)P(p) + n > r->p + r->n) {
        fprintf(stderr, "fake: device range %p+%zu outside any allocation\n", P(p), n);
        abort();
    }
}

/* ---- streams: a queue of operations each, run by the stream's own thread */
struct CUevent_st {
    unsigned flags;
    unsigned long recorded, done; /* sequence numbers */
    double t;
    int destroyed;
};

enum {
    OP_RECORD,
    OP_WAIT_EVENT,
    OP_WAIT_VALUE,
    OP_WRITE_VALUE,
    OP_COPY,
    OP_COPY3D,
    OP_SET,
    OP_HOST
};
typedef struct op {
    int kind;
    CUevent ev;
    unsigned long seq;
    volatile uint64_t *addr;
    uint64_t value;
    unsigned flags;
    void *dst;
    const void *src;
    size_t n, esz, pitch, w, h;
    CUDA_MEMCPY3D m3;
    CUhostFn fn;
    void *arg;
    struct op *next;
} op;

struct CUstream_st {
    op *head, *tail;
    int destroyed;
    pthread_t thread;
    struct CUstream_st *next; /* all live streams, for cuCtxSynchronize */
};
static CUstream streams, legacy;

static int value_met(uint64_t v, uint64_t want, unsigned cond) {
    switch (cond) {
    case CU_STREAM_WAIT_VALUE_GEQ:
        return (int64_t)(v - want) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ:
        return v == want;
    case CU_STREAM_WAIT_VALUE_AND:
        return (v & want) != 0;
    default: /* NOR */
        return ~(v | want) != 0;
    }
}

static void copy3d(const CUDA_MEMCPY3D *m) {
    char *d = m->dstMemoryType == CU_MEMORYTYPE_HOST ? (char *)m->dstHost : P(m->dstDevice);
    const char *s =
        m->srcMemoryType == CU_MEMORYTYPE_HOST ? (const char *)m->srcHost : P(m->srcDevice);
    for (size_t z = 0; z < m->Depth; z++)
        for (size_t y = 0; y < m->Height; y++)
            memmove(d + ((m->dstZ + z) * m->dstHeight + m->dstY + y) * m->dstPitch + m->dstXInBytes,
                    s + ((m->srcZ + z) * m->srcHeight + m->srcY + y) * m->srcPitch + m->srcXInBytes,
                    m->WidthInBytes);
}

static void fill(const op *o) {
    for (size_t r = 0; r < o->h; r++)
        for (size_t i = 0; i < o->w; i++) {
            char *d = (char *)o->dst + r * o->pitch + i * o->esz;
            if (o->esz == 1)
                *(uint8_t *)d = (uint8_t)o->value;
            else if (o->esz == 2)
                *(uint16_t *)d = (uint16_t)o->value;
            else
                *(uint32_t *)d = (uint32_t)o->value;
        }
}

static void execute(op *o) { /* under L, on the stream's thread */
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
    case OP_WAIT_VALUE: /* the host writes the value without telling us: poll */
        while (!value_met(__atomic_load_n(o->addr, __ATOMIC_ACQUIRE), o->value, o->flags)) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 50000;
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
    case OP_COPY:
        memmove(o->dst, o->src, o->n);
        break;
    case OP_COPY3D:
        copy3d(&o->m3);
        break;
    case OP_SET:
        fill(o);
        break;
    case OP_HOST:
        UNLOCK;
        o->fn(o->arg);
        LOCK;
        break;
    }
}

static void *worker(void *arg) {
    CUstream s = arg;
    is_stream_thread = true;
    LOCK;
    for (;;) {
        while (!s->head && !s->destroyed)
            pthread_cond_wait(&C, &L);
        if (!s->head)
            break;
        op *o = s->head;
        execute(o); /* the op stays at the head while it runs: the stream is busy */
        s->head = o->next;
        if (!s->head)
            s->tail = NULL;
        free(o);
        pthread_cond_broadcast(&C);
    }
    UNLOCK;
    free(s);
    return NULL;
}

static CUstream new_stream(void) { /* under L */
    CUstream n = calloc(1, sizeof *n);
    n->next = streams;
    streams = n;
    pthread_create(&n->thread, NULL, worker, n);
    pthread_detach(n->thread);
    return n;
}
static CUstream S(CUstream s) { /* under L: NULL is the legacy stream */
    if (s)
        return s;
    if (!legacy)
        legacy = new_stream();
    return legacy;
}
static void drain(CUstream s) { /* under L */
    while (s->head)
        pthread_cond_wait(&C, &L);
}
static CUresult enqueue(CUstream s, op o) {
    op *n = malloc(sizeof *n);
    *n = o;
    n->next = NULL;
    LOCK;
    s = S(s);
    if (o.kind == OP_RECORD) /* the sequence number this record completes */
        n->seq = ++n->ev->recorded;
    else if (o.kind == OP_WAIT_EVENT) /* waits for the event's latest record */
        n->seq = n->ev->recorded;
    if (s->tail)
        s->tail->next = n;
    else
        s->head = n;
    s->tail = n;
    pthread_cond_broadcast(&C);
    UNLOCK;
    return CUDA_SUCCESS;
}

/* ---- driver, device and context */
CUresult cuInit(unsigned f) {
    (void)f;
    return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *v) {
    *v = 13000;
    return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult e, const char **s) {
    static __thread char b[32];
    snprintf(b, sizeof b, "FAKE_ERROR_%d", (int)e);
    *s = b;
    return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
    return cuGetErrorName(e, s);
}
CUresult cuDeviceGetCount(int *n) {
    *n = getenv("FAKECUDA_NODEV") ? 0 : 1;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int o) {
    if (o)
        return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *n, int len, CUdevice d) {
    (void)d;
    snprintf(n, len, "Fake H100");
    return CUDA_SUCCESS;
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
};
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    (void)d;
    *v = 0;
    for (size_t i = 0; i < sizeof attributes / sizeof attributes[0]; i++)
        if (attributes[i].a == a)
            *v = attributes[i].v;
    return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *b, CUdevice d) {
    (void)d;
    *b = DEV_TOTAL;
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
    LOCK;
    for (CUstream s = streams; s; s = s->next)
        drain(s);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuCtxGetStreamPriorityRange(int *lo, int *hi) {
    *lo = 0;
    *hi = -5;
    return CUDA_SUCCESS;
}

/* ---- memory */
CUresult cuMemGetInfo(size_t *f, size_t *t) {
    LOCK;
    *f = DEV_FREE - dev_used;
    *t = DEV_TOTAL;
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
    CUresult r = need_ctx();
    LOCK;
    if (!r && n == 0)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!r && n > DEV_FREE - dev_used)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    void *m = r ? NULL : aligned_alloc(256, (n + 255) / 256 * 256);
    if (!r && !m)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (m) {
        memset(m, 0xcd, n); /* garbage, as fresh device memory may hold */
        add(m, n, 0);
        dev_used += n;
        *p = (CUdeviceptr)(uintptr_t)m;
    }
    UNLOCK;
    return r;
}
static CUresult release(const void *p, int host) {
    LOCK;
    /* The real driver's frees wait for the whole device, blocking everyone else meanwhile. */
    wide_busy = true;
    wide_owner = pthread_self();
    for (CUstream s = streams; s; s = s->next)
        drain(s);
    wide_busy = false;
    pthread_cond_broadcast(&C);
    range *r = unlink_range(p, host);
    if (r && !host)
        dev_used -= r->n;
    UNLOCK;
    if (!r && host != 2) {
        fprintf(stderr, "fake: freeing %p, which is no allocation of its kind\n", p);
        abort();
    }
    if (r && host != 2)
        free(r->p);
    free(r);
    return r ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}
CUresult cuMemFree(CUdeviceptr p) {
    return need_ctx() ? CUDA_ERROR_INVALID_CONTEXT : release(P(p), 0);
}
CUresult cuMemHostAlloc(void **p, size_t n, unsigned f) {
    (void)f;
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    void *m = aligned_alloc(4096, (n + 4095) / 4096 * 4096);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memset(m, 0, n);
    LOCK;
    add(m, n, 1);
    UNLOCK;
    *p = m;
    return CUDA_SUCCESS;
}
CUresult cuMemAllocHost(void **p, size_t n) {
    return cuMemHostAlloc(p, n, 0);
}
CUresult cuMemFreeHost(void *p) {
    return need_ctx() ? CUDA_ERROR_INVALID_CONTEXT : release(p, 1);
}
CUresult cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned f) {
    (void)f;
    *d = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}
CUresult cuMemHostRegister(void *p, size_t n, unsigned f) {
    (void)f;
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    CUresult r = CUDA_SUCCESS;
    LOCK;
    for (range *x = ranges; x; x = x->next)
        if (x->host && (char *)p < x->p + x->n && x->p < (char *)p + n)
            r = CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (!r)
        add(p, n, 2);
    UNLOCK;
    return r;
}
CUresult cuMemHostUnregister(void *p) {
    return need_ctx() ? CUDA_ERROR_INVALID_CONTEXT : release(p, 2);
}
/* CU_POINTER_ATTRIBUTE_MEMORY_TYPE and _BUFFER_ID only. */
static CUresult pointer_attribute(void *data, CUpointer_attribute a, const range *r) {
    if (a == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        *(unsigned *)data = !r ? 0 : r->host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    else if (a == CU_POINTER_ATTRIBUTE_BUFFER_ID)
        *(unsigned long long *)data = r ? r->id : 0;
    else
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p) {
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    return r ? pointer_attribute(data, a, r) : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuPointerGetAttributes(unsigned n, CUpointer_attribute *a, void **data, CUdeviceptr p) {
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    CUresult res = CUDA_SUCCESS;
    for (unsigned i = 0; i < n && !res; i++)
        res = pointer_attribute(data[i], a[i], r);
    return res;
}

/* An async copy of pinned host or device memory is queued; one with a pageable host side drains
 * the stream and copies at once. o is an OP_COPY or OP_COPY3D. */
static CUresult copy(CUstream hs, op o, const void *host_dst, const void *host_src) {
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    LOCK;
    int pageable = (host_dst && !pinned(host_dst)) || (host_src && !pinned(host_src));
    if (pageable) {
        drain(S(hs));
        if (o.kind == OP_COPY)
            memmove(o.dst, o.src, o.n);
        else
            copy3d(&o.m3);
    }
    UNLOCK;
    return pageable ? CUDA_SUCCESS : enqueue(hs, o);
}
#define COPY_OP(d, s, bytes) ((op){.kind = OP_COPY, .dst = (d), .src = (s), .n = (bytes)})
CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream hs) {
    check_dev(d, n);
    return copy(hs, COPY_OP(P(d), s, n), NULL, s);
}
CUresult cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream hs) {
    check_dev(s, n);
    return copy(hs, COPY_OP(d, P(s), n), d, NULL);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream hs) {
    check_dev(d, n);
    check_dev(s, n);
    return copy(hs, COPY_OP(P(d), P(s), n), NULL, NULL);
}
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream hs) {
    return cuMemcpyDtoDAsync(d, s, n, hs);
}
static CUresult sync_legacy(CUresult r) {
    LOCK;
    drain(S(NULL));
    UNLOCK;
    return r;
}
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
    return sync_legacy(cuMemcpyHtoDAsync(d, s, n, NULL));
}
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
    return sync_legacy(cuMemcpyDtoHAsync(d, s, n, NULL));
}
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *m, CUstream hs) {
    if (m->WidthInBytes > m->srcPitch || m->WidthInBytes > m->dstPitch ||
        m->Height > m->srcHeight || m->Height > m->dstHeight)
        return CUDA_ERROR_INVALID_VALUE;
    return copy(hs, (op){.kind = OP_COPY3D, .m3 = *m},
                m->dstMemoryType == CU_MEMORYTYPE_HOST ? m->dstHost : NULL,
                m->srcMemoryType == CU_MEMORYTYPE_HOST ? m->srcHost : NULL);
}
static CUresult set(CUdeviceptr d, size_t pitch, unsigned v, size_t esz, size_t w, size_t h,
                    CUstream hs) {
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    if ((uintptr_t)d % esz || (h > 1 && pitch % esz))
        return CUDA_ERROR_INVALID_VALUE;
    check_dev(d, (h - 1) * pitch + w * esz);
    return enqueue(
        hs,
        (op){.kind = OP_SET, .dst = P(d), .value = v, .esz = esz, .w = w, .h = h, .pitch = pitch});
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
    return set(d, 0, v, 1, n, 1, s);
}
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) {
    return set(d, 0, v, 2, n, 1, s);
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUstream s) {
    return set(d, 0, v, 4, n, 1, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned v, size_t w, size_t h,
                            CUstream s) {
    return set(d, pitch, v, 4, w, h, s);
}

/* ---- streams */
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned f, int prio) {
    (void)f;
    (void)prio;
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    LOCK;
    *s = new_stream();
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *s, unsigned f) {
    return cuStreamCreateWithPriority(s, f, 0);
}
CUresult cuStreamDestroy(CUstream s) { /* its thread finishes the queued work, then frees it */
    LOCK;
    for (CUstream *p = &streams; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    s->destroyed = 1;
    pthread_cond_broadcast(&C);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuStreamQuery(CUstream s) {
    LOCK;
    int idle = !S(s)->head;
    UNLOCK;
    return idle ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
CUresult cuStreamSynchronize(CUstream s) {
    LOCK;
    drain(S(s));
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) {
    (void)f;
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    return enqueue(s, (op){.kind = OP_WAIT_EVENT, .ev = e});
}
CUresult cuStreamGetCtx(CUstream s, CUcontext *c) {
    if ((uintptr_t)s < 4096)
        return CUDA_ERROR_INVALID_HANDLE;
    *c = THE_CTX;
    return CUDA_SUCCESS;
}
CUresult cuStreamGetPriority(CUstream s, int *p) {
    (void)s;
    *p = 0;
    return CUDA_SUCCESS;
}
CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *arg) {
    return enqueue(s, (op){.kind = OP_HOST, .fn = fn, .arg = arg});
}
CUresult cuStreamWaitValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    return enqueue(s, (op){.kind = OP_WAIT_VALUE, .addr = P(a), .value = v, .flags = f});
}
CUresult cuStreamWriteValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    (void)f;
    return enqueue(s, (op){.kind = OP_WRITE_VALUE, .addr = P(a), .value = v});
}

/* ---- events (leaked on destroy: queued operations may still point at them) */
CUresult cuEventCreate(CUevent *e, unsigned f) {
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    *e = calloc(1, sizeof **e);
    (*e)->flags = f;
    return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) {
    e->destroyed = 1;
    return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
    if (need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (e->destroyed)
        abort();
    return enqueue(s, (op){.kind = OP_RECORD, .ev = e});
}
CUresult cuEventQuery(CUevent e) {
    if (e->destroyed)
        abort();
    LOCK;
    int done = e->done >= e->recorded;
    UNLOCK;
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
CUresult cuEventSynchronize(CUevent e) {
    LOCK;
    while (e->done < e->recorded)
        pthread_cond_wait(&C, &L);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
    if ((a->flags & CU_EVENT_DISABLE_TIMING) || (b->flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_HANDLE;
    LOCK;
    int ok = a->done >= a->recorded && b->done >= b->recorded && a->recorded && b->recorded;
    *ms = (float)(b->t - a->t);
    UNLOCK;
    return ok ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
