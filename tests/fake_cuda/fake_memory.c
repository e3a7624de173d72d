/* Memory: device memory is host memory, 1 GiB of it. Every allocation (device, pinned host,
 * registered host) is tracked, so copies, fills and value operations outside one abort. Copies
 * from or to pageable host memory behave as CUDA documents for them: the stream is drained,
 * then the copy happens at once. Like the real driver (H100, driver 580), cuMemFree,
 * cuMemFreeHost and cuMemHostUnregister first wait until no stream is held up by a wait or a
 * host function, holding up every other call meanwhile: a free while a stream is gated by a
 * value wait that the freeing process itself must release deadlocks here as it does there. They
 * do not wait for the copies queued before them (on the H100 a DMA of a range being unregistered
 * faulted: bench/unregister_probe): a release of memory that a queued operation still uses
 * aborts (fake_check_unused). */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* 64 MiB are taken from the start (as a context takes some). */
static const size_t DEV_TOTAL = (size_t)1 << 30, DEV_FREE = DEV_TOTAL - ((size_t)64 << 20);

typedef enum range_kind { DEVICE, PINNED, REGISTERED } range_kind;
typedef struct range {
    char *p;
    size_t n;
    range_kind kind;
    unsigned long long id;
    struct range *next;
} range;
static range *ranges;

/* n rounded up to whole pages. */
static size_t pages(size_t n) {
    return (n + 4095) / 4096 * 4096;
}
static unsigned long long next_id = 1;
static size_t dev_used;

static range *find(const void *p) { /* under L */
    for (range *r = ranges; r; r = r->next)
        if ((const char *)p >= r->p && (const char *)p < r->p + r->n)
            return r;
    return NULL;
}
static void add(void *p, size_t n, range_kind kind) { /* under L */
    range *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    *r = (range){p, n, kind, next_id++, ranges};
    ranges = r;
}
static range *unlink_range(const void *p, range_kind kind) { /* under L; NULL unless p starts one */
    for (range **r = &ranges; *r; r = &(*r)->next)
        if ((*r)->p == p && (*r)->kind == kind) {
            range *x = *r;
            *r = x->next;
            return x;
        }
    return NULL;
}

void fake_reset_memory(void) {
    for (range *r = ranges, *next; r; r = next) {
        next = r->next;
        /* Pinned pages are unmapped by a reset: culvert must not touch them afterwards. They
         * stay allocated (inaccessible) so that such a touch faults instead of reading reused
         * memory. */
        if (r->kind == PINNED)
            mprotect(r->p, pages(r->n), PROT_NONE);
        else if (r->kind == DEVICE)
            free(r->p);
        free(r);
    }
    ranges = NULL;
    dev_used = 0;
}

unsigned long long fake_range_id(const void *p, bool host) {
    range *found = NULL;
    for (range *r = ranges; r; r = r->next) { /* newest first */
        bool in = (const char *)p >= r->p && (const char *)p < r->p + r->n;
        if (!in || (host && r->kind == DEVICE))
            continue;
        /* A device address: device memory before mapped pinned memory at the same address. */
        if (!found || (r->kind == DEVICE && found->kind != DEVICE))
            found = r;
    }
    return found ? found->id : 0;
}

/* Under L: true when p lies in pinned or registered host memory. */
static bool pinned(const void *p) {
    range *r = find(p);
    return r && r->kind != DEVICE;
}

void fake_check_range(CUdeviceptr p, size_t n) {
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    if (!r || (char *)P(p) + n > r->p + r->n) {
        fprintf(stderr, "fake: device range %p+%zu outside any allocation\n", P(p), n);
        abort();
    }
}

static const char *const release_names[] = {"cuMemFree", "cuMemFreeHost", "cuMemHostUnregister"};

static CUresult release(const void *p, range_kind kind) {
    LOCK;
    /* The driver does not wait for the work queued before a release to finish with the memory
     * (the H100, driver 580: bench/unregister_probe): culvert must have ordered it first. */
    for (range *r = ranges; r; r = r->next)
        if (r->p == p && r->kind == kind)
            fake_check_unused(r->id, release_names[kind], p);
    fake_device_wide_wait();
    range *r = unlink_range(p, kind);
    if (r && kind == DEVICE)
        dev_used -= r->n;
    UNLOCK;
    if (!r && kind != REGISTERED) {
        fprintf(stderr, "fake: freeing %p, which is no allocation of its kind\n", p);
        abort();
    }
    if (r && kind == PINNED)
        munmap(r->p, pages(r->n));
    else if (r && kind == DEVICE)
        free(r->p);
    free(r);
    return r ? CUDA_SUCCESS : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

/* Pinned memory is mapped for itself, as the driver's is: never memory the application's
 * malloc hands out (and frees) too. */
static CUresult host_alloc(void **p, size_t n) {
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    void *m = mmap(NULL, pages(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return CUDA_ERROR_OUT_OF_MEMORY;
    LOCK;
    add(m, n, PINNED);
    UNLOCK;
    *p = m;
    return CUDA_SUCCESS;
}

/* CU_POINTER_ATTRIBUTE_MEMORY_TYPE and _BUFFER_ID only. */
static CUresult pointer_attribute(void *data, CUpointer_attribute a, const range *r) {
    if (a == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        *(unsigned *)data = !r ? 0 : r->kind != DEVICE ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    else if (a == CU_POINTER_ATTRIBUTE_BUFFER_ID)
        *(unsigned long long *)data = r ? r->id : 0;
    else
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* An async copy of pinned host or device memory is queued; one with a pageable host side drains
 * the stream and copies at once. o is an OP_COPY or OP_COPY3D. */
static CUresult copy(CUstream hs, fake_op o, const void *host_dst, const void *host_src) {
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    LOCK;
    bool pageable = (host_dst && !pinned(host_dst)) || (host_src && !pinned(host_src));
    if (pageable) {
        fake_drain(fake_stream(hs));
        fake_copy_now(&o);
    } else if (host_dst || host_src) {
        fake_state.last_dma_host = host_dst ? host_dst : host_src;
    }
    UNLOCK;
    return pageable ? CUDA_SUCCESS : fake_enqueue(hs, o);
}
#define COPY_OP(d, s, bytes, hd, hs)                                                               \
    ((fake_op){.kind = OP_COPY, .dst = (d), .src = (s), .n = (bytes), .host_side = {(hd), (hs)}})

static CUresult htod(CUdeviceptr d, const void *s, size_t n, CUstream hs) {
    fake_check_range(d, n);
    return copy(hs, COPY_OP(P(d), s, n, false, true), NULL, s);
}
static CUresult dtoh(void *d, CUdeviceptr s, size_t n, CUstream hs) {
    fake_check_range(s, n);
    return copy(hs, COPY_OP(d, P(s), n, true, false), d, NULL);
}
static CUresult dtod(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream hs) {
    fake_check_range(d, n);
    fake_check_range(s, n);
    return copy(hs, COPY_OP(P(d), P(s), n, false, false), NULL, NULL);
}
/* The synchronous copies: on the legacy stream, which is then drained. */
static CUresult sync_legacy(CUresult r) {
    LOCK;
    fake_drain(fake_stream(NULL));
    UNLOCK;
    return r;
}

static CUresult set(CUdeviceptr d, size_t pitch, unsigned v, size_t esz, size_t w, size_t h,
                    CUstream hs) {
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    if ((uintptr_t)d % esz || (h > 1 && pitch % esz))
        return CUDA_ERROR_INVALID_VALUE;
    fake_check_range(d, (h - 1) * pitch + w * esz);
    return fake_enqueue(
        hs,
        (fake_op){
            .kind = OP_SET, .dst = P(d), .value = v, .esz = esz, .w = w, .h = h, .pitch = pitch});
}

#pragma GCC visibility push(default)

CUresult cuMemGetInfo(size_t *f, size_t *t) {
    FAKE_CALL;
    LOCK;
    *f = DEV_FREE - dev_used;
    *t = DEV_TOTAL;
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *b, CUdevice d) {
    FAKE_CALL;
    (void)d;
    *b = DEV_TOTAL;
    return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    LOCK;
    if (!r && n == 0)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (!r && n > DEV_FREE - dev_used)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    unsigned fail = r || !fake_counting() ? 0 : fake_state.fail_mem_allocs;
    while (fail && !atomic_compare_exchange_weak(&fake_state.fail_mem_allocs, &fail, fail - 1))
        ;
    if (fail)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    /* 512 bytes: CUDA's 256 and the texture alignment the fake reports (fake_device.c), so
     * whether an image's pixels suit a texture object does not depend on the host's malloc. */
    void *m = r ? NULL : aligned_alloc(512, (n + 511) / 512 * 512);
    if (!r && !m)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (m) {
        memset(m, 0xcd, n); /* garbage, as fresh device memory may hold */
        add(m, n, DEVICE);
        dev_used += n;
        *p = (CUdeviceptr)(uintptr_t)m;
    }
    UNLOCK;
    return r;
}
/* Managed memory: device memory the host reaches at the same address (all of the fake's
 * device memory is host memory). */
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) {
    FAKE_CALL;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
        return CUDA_ERROR_INVALID_VALUE;
    return cuMemAlloc(p, n);
}
/* Pages have nowhere to move: the range is checked, the stream's order kept by nothing more. */
CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUmemLocation where, unsigned flags,
                            CUstream hs) {
    FAKE_CALL;
    (void)hs;
    CUresult r = fake_need_ctx();
    if (!r && (flags || (where.type != CU_MEM_LOCATION_TYPE_DEVICE &&
                         where.type != CU_MEM_LOCATION_TYPE_HOST)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (!r)
        fake_check_range(p, n);
    return r;
}
CUresult cuMemFree(CUdeviceptr p) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    return r ? fake_lost_teardown(r) : release(P(p), DEVICE);
}
CUresult cuMemHostAlloc(void **p, size_t n, unsigned f) {
    FAKE_CALL;
    (void)f;
    return host_alloc(p, n);
}
CUresult cuMemAllocHost(void **p, size_t n) {
    FAKE_CALL;
    return host_alloc(p, n);
}
CUresult cuMemFreeHost(void *p) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    return r ? fake_lost_teardown(r) : release(p, PINNED);
}
/* Mapped pinned memory: the device sees it at the host address (unified addressing). */
CUresult cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned f) {
    FAKE_CALL;
    (void)f;
    *d = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}
CUresult cuMemHostRegister(void *p, size_t n, unsigned f) {
    FAKE_CALL;
    (void)f;
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    LOCK;
    for (range *x = ranges; x; x = x->next)
        if (x->kind != DEVICE && (char *)p < x->p + x->n && x->p < (char *)p + n)
            r = CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (!r)
        add(p, n, REGISTERED);
    UNLOCK;
    return r;
}
CUresult cuMemHostUnregister(void *p) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    return r ? fake_lost_teardown(r) : release(p, REGISTERED);
}
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p) {
    FAKE_CALL;
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    return r ? pointer_attribute(data, a, r) : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuPointerGetAttributes(unsigned n, CUpointer_attribute *a, void **data, CUdeviceptr p) {
    FAKE_CALL;
    LOCK;
    range *r = find(P(p));
    UNLOCK;
    CUresult res = CUDA_SUCCESS;
    for (unsigned i = 0; i < n && !res; i++)
        res = pointer_attribute(data[i], a[i], r);
    return res;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream hs) {
    FAKE_CALL;
    return htod(d, s, n, hs);
}
CUresult cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream hs) {
    FAKE_CALL;
    return dtoh(d, s, n, hs);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream hs) {
    FAKE_CALL;
    return dtod(d, s, n, hs);
}
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream hs) {
    FAKE_CALL;
    return dtod(d, s, n, hs);
}
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
    FAKE_CALL;
    return sync_legacy(htod(d, s, n, NULL));
}
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
    FAKE_CALL;
    return sync_legacy(dtoh(d, s, n, NULL));
}
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *m, CUstream hs) {
    FAKE_CALL;
    if (m->WidthInBytes > m->srcPitch || m->WidthInBytes > m->dstPitch ||
        m->Height > m->srcHeight || m->Height > m->dstHeight)
        return CUDA_ERROR_INVALID_VALUE;
    return copy(hs, (fake_op){.kind = OP_COPY3D, .m3 = *m},
                m->dstMemoryType == CU_MEMORYTYPE_HOST ? m->dstHost : NULL,
                m->srcMemoryType == CU_MEMORYTYPE_HOST ? m->srcHost : NULL);
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
    FAKE_CALL;
    return set(d, 0, v, 1, n, 1, s);
}
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) {
    FAKE_CALL;
    return set(d, 0, v, 2, n, 1, s);
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUstream s) {
    FAKE_CALL;
    return set(d, 0, v, 4, n, 1, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned v, size_t w, size_t h,
                            CUstream s) {
    FAKE_CALL;
    return set(d, pitch, v, 4, w, h, s);
}

#pragma GCC visibility pop

#pragma GCC visibility push(default)
/* Texture objects: handles only (the fake runs no kernel that would sample them), counted live
 * so that a test sees each destroyed. */
CUresult cuTexObjectCreate(CUtexObject *obj, const CUDA_RESOURCE_DESC *res,
                           const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view) {
    FAKE_CALL;
    static _Atomic unsigned long long next = 1;
    (void)view;
    if (!obj || !res || !tex)
        return CUDA_ERROR_INVALID_VALUE;
    *obj = (CUtexObject)atomic_fetch_add(&next, 1);
    atomic_fetch_add(&fake_state.live_textures, 1);
    return CUDA_SUCCESS;
}

CUresult cuTexObjectDestroy(CUtexObject obj) {
    FAKE_CALL;
    if (!obj)
        return CUDA_ERROR_INVALID_VALUE;
    atomic_fetch_sub(&fake_state.live_textures, 1);
    return CUDA_SUCCESS;
}
#pragma GCC visibility pop
