/* SVM and USM allocations (core/usm.h): where they come from, and each context's table of them. */
#include "core/usm.h"
#include "core/backend.h"

#include <stdlib.h>
#include <string.h>

/* cuMemAlloc and cuMemAllocManaged return 256-byte aligned memory, cuMemHostAlloc whole pages:
 * smaller alignments need nothing more. */
#define CV_USM_NATURAL_ALIGNMENT 256

cl_device_svm_capabilities cv_usm_svm_caps(cl_device_id dev) {
    cl_device_svm_capabilities caps = 0;
    if (dev->props->managed_memory)
        caps |= CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    if (dev->props->concurrent_managed)
        caps |= CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
    return caps;
}

cl_device_svm_capabilities cv_usm_context_svm_caps(cl_context ctx) {
    cl_device_svm_capabilities caps = ~(cl_device_svm_capabilities)0;
    for (cl_uint i = 0; i < ctx->num_devices; i++)
        caps &= cv_usm_svm_caps(ctx->devices[i]);
    return ctx->num_devices ? caps : 0;
}

/* The device whose context allocates: the one named, else the context's first (managed and
 * pinned memory serve every device of the process). */
static cl_device_id cv_usm_owner(cl_context ctx, const cv_usm_alloc *a) {
    return a->device ? a->device : ctx->devices[0];
}

static void cv_usm_release(cl_context ctx, const cv_usm_alloc *a) {
    cl_device_id dev = cv_usm_owner(ctx, a);
    if (a->type == CV_USM_HOST) {
        if (cvcu_device_bind(dev->cu) == CL_SUCCESS)
            cvcu_host_free((void *)(uintptr_t)a->base);
    } else {
        cvcu_mem_free(dev->cu, a->base);
    }
}

/* Index of the first allocation that starts past ptr. ctx->usm_lock held. */
static size_t cv_usm_upper(cl_context ctx, uintptr_t ptr) {
    size_t lo = 0, hi = ctx->num_usm;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)ctx->usm[mid].ptr <= ptr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static cl_int cv_usm_insert(cl_context ctx, const cv_usm_alloc *a) {
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&ctx->usm_lock);
    if (ctx->num_usm == ctx->cap_usm) {
        size_t cap = ctx->cap_usm ? ctx->cap_usm * 2 : 16;
        cv_usm_alloc *v = realloc(ctx->usm, cap * sizeof *v);
        if (v) {
            ctx->usm = v;
            ctx->cap_usm = cap;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (err == CL_SUCCESS) {
        atomic_store_explicit(&ctx->usm_any, true, memory_order_relaxed);
        size_t i = cv_usm_upper(ctx, (uintptr_t)a->ptr);
        memmove(&ctx->usm[i + 1], &ctx->usm[i], (ctx->num_usm - i) * sizeof *ctx->usm);
        ctx->usm[i] = *a;
        ctx->num_usm++;
    }
    pthread_mutex_unlock(&ctx->usm_lock);
    return err;
}

void *cv_usm_alloc_new(cl_context ctx, cv_usm_type type, cl_device_id dev, cl_bitfield flags,
                       size_t size, size_t alignment, cl_int *err) {
    cv_usm_alloc a = {NULL, size, 0, type, flags, dev};
    /* Room to move the start up to the alignment where the allocator's own is less. */
    size_t extra = alignment > CV_USM_NATURAL_ALIGNMENT ? alignment - 1 : 0;
    void *host = NULL;
    *err = size > SIZE_MAX - extra ? CL_INVALID_BUFFER_SIZE : CL_SUCCESS;
    if (*err == CL_SUCCESS)
        *err = cvcu_device_bind(cv_usm_owner(ctx, &a)->cu);
    if (*err == CL_SUCCESS) {
        switch (type) {
        case CV_USM_HOST:
            /* Mapped for every device at the host address (unified addressing). */
            *err = cvcu_host_alloc(size + extra, &host);
            a.base = (cl_ulong)(uintptr_t)host;
            break;
        case CV_USM_DEVICE:
            *err = cvcu_mem_alloc(size + extra, &a.base);
            break;
        default:
            *err = cvcu_managed_alloc(size + extra, &a.base);
            break;
        }
    }
    if (*err == CL_SUCCESS) {
        cl_ulong align = alignment > CV_USM_NATURAL_ALIGNMENT ? alignment : 1;
        a.ptr = (void *)(uintptr_t)((a.base + align - 1) / align * align);
        *err = cv_usm_insert(ctx, &a);
        if (*err != CL_SUCCESS)
            cv_usm_release(ctx, &a);
    }
    return *err == CL_SUCCESS ? a.ptr : NULL;
}

cl_bitfield cv_usm_caps(cl_device_id dev, cv_usm_type type) {
    const cvcu_device_props *p = dev->props;
    cl_bitfield caps = 0;
    switch (type) {
    case CV_USM_HOST:
        /* Pinned host memory the device reads over the bus; atomics there would need the bus's
         * own (no host-native atomics claimed). */
        caps = p->unified_addressing && p->can_map_host ? CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL : 0;
        break;
    case CV_USM_DEVICE:
        caps = CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL;
        break;
    case CV_USM_SHARED:
        /* Managed memory: the host may touch it, atomics included, while a kernel runs where
         * the device has concurrent managed access (as SVM atomics: cv_usm_svm_caps). */
        if (p->managed_memory)
            caps =
                CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL |
                CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
                (p->concurrent_managed ? CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
                                             CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL
                                       : 0);
        break;
    default:
        break;
    }
    return caps;
}

bool cv_usm_free(cl_context ctx, void *ptr, bool blocking) {
    cv_usm_alloc a = {0};
    pthread_mutex_lock(&ctx->usm_lock);
    size_t i = cv_usm_upper(ctx, (uintptr_t)ptr);
    bool found = i > 0 && ctx->usm[i - 1].ptr == ptr;
    if (found) {
        a = ctx->usm[i - 1];
        memmove(&ctx->usm[i - 1], &ctx->usm[i], (ctx->num_usm - i) * sizeof *ctx->usm);
        ctx->num_usm--;
    }
    pthread_mutex_unlock(&ctx->usm_lock);
    if (found)
        cv_usm_release(ctx, &a);
    if (found && blocking)
        cvcu_mem_free_settle();
    return found;
}

cv_usm_alloc cv_usm_find(cl_context ctx, const void *ptr) {
    cv_usm_alloc a = {0};
    /* An application uses a pointer after the call that returned it: no allocation made on another
     * thread since can be the one it names. */
    if (atomic_load_explicit(&ctx->usm_any, memory_order_relaxed)) {
        pthread_mutex_lock(&ctx->usm_lock);
        size_t i = cv_usm_upper(ctx, (uintptr_t)ptr);
        if (i > 0 && (uintptr_t)ptr - (uintptr_t)ctx->usm[i - 1].ptr < ctx->usm[i - 1].size)
            a = ctx->usm[i - 1];
        pthread_mutex_unlock(&ctx->usm_lock);
    }
    return a;
}

bool cv_usm_range(cl_context ctx, const void *ptr, size_t size, cv_usm_alloc *out) {
    cv_usm_alloc a = cv_usm_find(ctx, ptr);
    size_t from = (uintptr_t)ptr - (uintptr_t)a.ptr;
    bool inside = a.type != CV_USM_NONE && size <= a.size - from;
    if (out)
        *out = a;
    return inside;
}

void cv_usm_context_destroy(cl_context ctx) {
    for (size_t i = 0; i < ctx->num_usm; i++)
        cv_usm_release(ctx, &ctx->usm[i]);
    free(ctx->usm);
    ctx->usm = NULL;
    ctx->num_usm = ctx->cap_usm = 0;
}
