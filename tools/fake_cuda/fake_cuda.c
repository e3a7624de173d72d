/* A fake libcuda.so.1 for exercising culvert's host logic without a GPU (see run.sh): device
 * memory is host memory; each stream is a queue of deferred operations run on synchronize/query;
 * pageable copies behave as CUDA documents (the stream is drained, then the copy happens at once).
 */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
#define LOCK   pthread_mutex_lock(&L)
#define UNLOCK pthread_mutex_unlock(&L)

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
static const size_t DEV_FREE = (size_t)1 << 30;

static range *find(const void *p) {
    for (range *r = ranges; r; r = r->next)
        if ((const char *)p >= r->p && (const char *)p < r->p + r->n)
            return r;
    return NULL;
}
static void add(void *p, size_t n, int host) {
    range *r = calloc(1, sizeof *r);
    r->p = p;
    r->n = n;
    r->host = host;
    r->id = next_id++;
    r->next = ranges;
    ranges = r;
}
static range *unlink_range(void *p) {
    for (range **r = &ranges; *r; r = &(*r)->next)
        if ((*r)->p == p) {
            range *x = *r;
            *r = x->next;
            return x;
        }
    return NULL;
}

typedef enum { OP_COPY, OP_SET, OP_HOSTFN, OP_WAITEV, OP_COPY3D, OP_WRITE64 } opkind;
typedef struct op {
    opkind k;
    void *dst;
    const void *src;
    size_t n;
    unsigned v;
    uint64_t v64;
    size_t esz;
    size_t pitch, w, h;
    CUhostFn fn;
    void *arg;
    struct ev *ev;
    unsigned long long evpos;
    CUDA_MEMCPY3D m3;
    struct op *next;
} op;
typedef struct st {
    op *head, *tail;
    unsigned long long queued, done;
} st;
typedef struct ev {
    st *s;
    unsigned long long pos;
} ev;
static st legacy;
static st *S(CUstream s) {
    return s ? (st *)s : &legacy;
}

static void run_one(st *s);
static void run_to(st *s, unsigned long long pos) {
    while (s->done < pos)
        run_one(s);
}
static void do3d(const CUDA_MEMCPY3D *m) {
    char *d = m->dstMemoryType == CU_MEMORYTYPE_HOST ? (char *)m->dstHost
                                                     : (char *)(uintptr_t)m->dstDevice;
    const char *sp = m->srcMemoryType == CU_MEMORYTYPE_HOST ? (const char *)m->srcHost
                                                            : (const char *)(uintptr_t)m->srcDevice;
    for (size_t z = 0; z < m->Depth; z++)
        for (size_t y = 0; y < m->Height; y++)
            memmove(d + (m->dstZ + z) * m->dstPitch * m->dstHeight + (m->dstY + y) * m->dstPitch +
                        m->dstXInBytes,
                    sp + (m->srcZ + z) * m->srcPitch * m->srcHeight + (m->srcY + y) * m->srcPitch +
                        m->srcXInBytes,
                    m->WidthInBytes);
}
static void run_one(st *s) {
    op *o = s->head;
    if (!o) {
        fprintf(stderr, "fake: run past end\n");
        abort();
    }
    s->head = o->next;
    if (!s->head)
        s->tail = NULL;
    switch (o->k) {
    case OP_COPY:
        memmove(o->dst, o->src, o->n);
        break;
    case OP_SET:
        for (size_t r = 0; r < o->h; r++)
            for (size_t i = 0; i < o->w; i++) {
                char *d = (char *)o->dst + r * o->pitch + i * o->esz;
                if (o->esz == 1)
                    *(uint8_t *)d = (uint8_t)o->v;
                else if (o->esz == 2)
                    *(uint16_t *)d = (uint16_t)o->v;
                else
                    *(uint32_t *)d = o->v;
            }
        break;
    case OP_HOSTFN:
        UNLOCK;
        o->fn(o->arg);
        LOCK;
        break;
    case OP_WAITEV:
        run_to(o->ev->s, o->evpos);
        break;
    case OP_COPY3D:
        do3d(&o->m3);
        break;
    case OP_WRITE64:
        *(uint64_t *)o->dst = o->v64;
        break;
    }
    s->done++;
    free(o);
}
static void push(st *s, op *o) {
    if (s->tail)
        s->tail->next = o;
    else
        s->head = o;
    s->tail = o;
    s->queued++;
}
static op *mk(opkind k) {
    op *o = calloc(1, sizeof *o);
    o->k = k;
    return o;
}
static int pinned(const void *p) {
    range *r = find(p);
    return r && r->host;
}

CUresult cuInit(unsigned f) {
    (void)f;
    return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *v) {
    *v = 13000;
    return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult e, const char **s) {
    static char b[32];
    snprintf(b, 32, "FAKE_%d", e);
    *s = b;
    return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult e, const char **s) {
    return cuGetErrorName(e, s);
}
CUresult cuDeviceGetCount(int *n) {
    *n = 1;
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
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    (void)d;
    switch (a) {
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
        *v = 0x7fffffff;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
        *v = 65535;
        break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
        *v = 32;
        break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
        *v = 9;
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
        *v = 50 << 20;
        break;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
        *v = 1;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
        *v = 65536;
        break;
    default:
        *v = 0;
    }
    return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *b, CUdevice d) {
    (void)d;
    *b = 2 * DEV_FREE;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetUuid(CUuuid *u, CUdevice d) {
    (void)d;
    memset(u, 7, sizeof *u);
    return CUDA_SUCCESS;
}
static int the_ctx;
static __thread CUcontext cur;
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
    (void)d;
    *c = (CUcontext)&the_ctx;
    return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
    (void)d;
    return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *c) {
    *c = cur;
    return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) {
    cur = c;
    return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
    return CUDA_SUCCESS;
}
CUresult cuCtxGetStreamPriorityRange(int *l, int *g) {
    *l = 0;
    *g = -5;
    return CUDA_SUCCESS;
}
static void need_ctx(void) {
    if (!cur) {
        fprintf(stderr, "fake: CUDA call without a current context\n");
        abort();
    }
}
CUresult cuMemGetInfo(size_t *f, size_t *t) {
    LOCK;
    *f = DEV_FREE - dev_used;
    *t = 2 * DEV_FREE;
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
    need_ctx();
    LOCK;
    CUresult r = CUDA_SUCCESS;
    if (n == 0)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (n > DEV_FREE - dev_used)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    else {
        void *m = aligned_alloc(256, (n + 255) / 256 * 256);
        if (!m)
            r = CUDA_ERROR_OUT_OF_MEMORY;
        else {
            memset(m, 0xcd, n);
            add(m, n, 0);
            dev_used += n;
            *p = (CUdeviceptr)(uintptr_t)m;
        }
    }
    UNLOCK;
    return r;
}
CUresult cuMemFree(CUdeviceptr p) {
    need_ctx();
    LOCK;
    range *r = unlink_range((void *)(uintptr_t)p);
    if (!r || r->host) {
        fprintf(stderr, "fake: bad cuMemFree\n");
        abort();
    }
    dev_used -= r->n;
    free(r->p);
    free(r);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemHostAlloc(void **p, size_t n, unsigned f) {
    (void)f;
    need_ctx();
    LOCK;
    *p = aligned_alloc(4096, (n + 4095) / 4096 * 4096);
    add(*p, n, 1);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemAllocHost(void **p, size_t n) {
    return cuMemHostAlloc(p, n, 0);
}
CUresult cuMemFreeHost(void *p) {
    need_ctx();
    LOCK;
    range *r = unlink_range(p);
    if (!r || !r->host) {
        fprintf(stderr, "fake: bad cuMemFreeHost\n");
        abort();
    }
    free(r->p);
    free(r);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned f) {
    (void)f;
    *d = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}
static range *registered;
CUresult cuMemHostRegister(void *p, size_t n, unsigned f) {
    (void)f;
    need_ctx();
    LOCK;
    for (range *r = ranges; r; r = r->next)
        if (r->host && (char *)p < r->p + r->n && r->p < (char *)p + n) {
            UNLOCK;
            return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
        }
    add(p, n, 2);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemHostUnregister(void *p) {
    need_ctx();
    LOCK;
    range *r = unlink_range(p);
    UNLOCK;
    if (!r || r->host != 2)
        return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    free(r);
    return CUDA_SUCCESS;
}
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p) {
    LOCK;
    range *r = find((void *)(uintptr_t)p);
    UNLOCK;
    if (!r)
        return CUDA_ERROR_INVALID_VALUE;
    if (a == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        *(unsigned *)data = r->host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    else
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}
CUresult cuPointerGetAttributes(unsigned n, CUpointer_attribute *a, void **data, CUdeviceptr p) {
    LOCK;
    range *r = find((void *)(uintptr_t)p);
    UNLOCK;
    for (unsigned i = 0; i < n; i++) {
        if (a[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
            *(unsigned *)data[i] = !r ? 0 : r->host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        else if (a[i] == CU_POINTER_ATTRIBUTE_BUFFER_ID)
            *(unsigned long long *)data[i] = r ? r->id : 0;
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    (void)registered;
    return CUDA_SUCCESS;
}
/* async copy: pinned host or device -> deferred; pageable host side -> drain, copy now */
static CUresult copy(void *d, const void *s, size_t n, CUstream hs, int host_d, int host_s) {
    need_ctx();
    LOCK;
    st *q = S(hs);
    if ((host_d && !pinned(d)) || (host_s && !pinned(s))) {
        run_to(q, q->queued);
        memmove(d, s, n);
    } else {
        op *o = mk(OP_COPY);
        o->dst = d;
        o->src = s;
        o->n = n;
        push(q, o);
    }
    UNLOCK;
    return CUDA_SUCCESS;
}
#define P(x) ((void *)(uintptr_t)(x))
static void check_dev(CUdeviceptr p, size_t n) {
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    if (!r || (char *)P(p) + n > r->p + r->n) {
        fprintf(stderr, "fake: device range %p+%zu outside any allocation\n", P(p), n);
        abort();
    }
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream st_) {
    check_dev(d, n);
    return copy(P(d), s, n, st_, 0, 1);
}
CUresult cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream st_) {
    check_dev(s, n);
    return copy(d, P(s), n, st_, 1, 0);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st_) {
    check_dev(d, n);
    check_dev(s, n);
    return copy(P(d), P(s), n, st_, 0, 0);
}
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st_) {
    check_dev(d, n);
    check_dev(s, n);
    return copy(P(d), P(s), n, st_, 0, 0);
}
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
    copy(P(d), s, n, NULL, 0, 1);
    LOCK;
    run_to(&legacy, legacy.queued);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
    copy(d, P(s), n, NULL, 1, 0);
    LOCK;
    run_to(&legacy, legacy.queued);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *m, CUstream hs) {
    need_ctx();
    if (m->WidthInBytes > m->srcPitch || m->WidthInBytes > m->dstPitch ||
        m->Height > m->srcHeight || m->Height > m->dstHeight)
        return CUDA_ERROR_INVALID_VALUE;
    int pageable = (m->srcMemoryType == CU_MEMORYTYPE_HOST && !pinned(m->srcHost)) ||
                   (m->dstMemoryType == CU_MEMORYTYPE_HOST && !pinned(m->dstHost));
    LOCK;
    st *q = S(hs);
    if (pageable) {
        run_to(q, q->queued);
        do3d(m);
    } else {
        op *o = mk(OP_COPY3D);
        o->m3 = *m;
        push(q, o);
    }
    UNLOCK;
    return CUDA_SUCCESS;
}
static CUresult set(CUdeviceptr d, size_t pitch, unsigned v, size_t esz, size_t w, size_t h,
                    CUstream hs) {
    need_ctx();
    if ((uintptr_t)d % esz || (h > 1 && pitch % esz))
        return CUDA_ERROR_INVALID_VALUE;
    check_dev(d, (h - 1) * pitch + w * esz);
    LOCK;
    op *o = mk(OP_SET);
    o->dst = P(d);
    o->v = v;
    o->esz = esz;
    o->w = w;
    o->h = h;
    o->pitch = pitch;
    push(S(hs), o);
    UNLOCK;
    return CUDA_SUCCESS;
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
CUresult cuStreamCreate(CUstream *s, unsigned f) {
    (void)f;
    *s = (CUstream)calloc(1, sizeof(st));
    return CUDA_SUCCESS;
}
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned f, int p) {
    (void)p;
    return cuStreamCreate(s, f);
}
CUresult cuStreamDestroy(CUstream s) {
    LOCK;
    run_to(S(s), S(s)->queued);
    UNLOCK;
    free(s);
    return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream s) {
    need_ctx();
    LOCK;
    run_to(S(s), S(s)->queued);
    UNLOCK;
    return CUDA_SUCCESS;
}
/* A query lets the stream make progress one step at a time: callers see busy streams. */
CUresult cuStreamQuery(CUstream s) {
    LOCK;
    st *q = S(s);
    CUresult r = q->done == q->queued ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
    if (r)
        run_one(q);
    UNLOCK;
    return r;
}
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) {
    (void)f;
    LOCK;
    ev *E = (ev *)e;
    if (E->s) {
        op *o = mk(OP_WAITEV);
        o->ev = E;
        o->evpos = E->pos;
        push(S(s), o);
    }
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream s, CUcontext *c) {
    (void)s;
    *c = (CUcontext)&the_ctx;
    return CUDA_SUCCESS;
}
CUresult cuStreamGetPriority(CUstream s, int *p) {
    (void)s;
    *p = 0;
    return CUDA_SUCCESS;
}
CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *arg) {
    LOCK;
    op *o = mk(OP_HOSTFN);
    o->fn = fn;
    o->arg = arg;
    push(S(s), o);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuStreamWaitValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    (void)s;
    (void)a;
    (void)v;
    (void)f;
    return CUDA_SUCCESS;
}
CUresult cuStreamWriteValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    (void)f;
    LOCK;
    op *o = mk(OP_WRITE64);
    o->dst = P(a);
    o->v64 = v;
    push(S(s), o);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *e, unsigned f) {
    (void)f;
    need_ctx();
    *e = (CUevent)calloc(1, sizeof(ev));
    return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) {
    free(e);
    return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
    LOCK;
    ev *E = (ev *)e;
    E->s = S(s);
    E->pos = E->s->queued;
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent e) {
    LOCK;
    ev *E = (ev *)e;
    CUresult r = !E->s || E->s->done >= E->pos ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
    UNLOCK;
    return r;
}
CUresult cuEventSynchronize(CUevent e) {
    LOCK;
    ev *E = (ev *)e;
    if (E->s)
        run_to(E->s, E->pos);
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
    (void)a;
    (void)b;
    *ms = 0;
    return CUDA_SUCCESS;
}
