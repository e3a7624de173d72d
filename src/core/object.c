#include "core/object.h"
#include "core/platform.h"

void cv_object_init(cv_object *obj, cv_tag tag, cv_destroy_fn destroy) {
    obj->dispatch = &cv_dispatch;
#ifdef CL_ICD2_TAG_KHR
    obj->dispatch_data = cv_platform_dispatch_data();
#endif
    obj->tag = tag;
    atomic_init(&obj->refcount, 1);
    atomic_init(&obj->holds, 1);
    obj->destroy = destroy;
}

bool cv_object_valid(const void *handle, cv_tag tag) {
    const cv_object *obj = handle;
    return obj != NULL && obj->dispatch == &cv_dispatch && obj->tag == (uint32_t)tag &&
           atomic_load_explicit(&obj->refcount, memory_order_relaxed) > 0;
}

void cv_retain(cv_object *obj) {
    atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
}

bool cv_release_last(cv_object *obj) {
    return atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_acq_rel) == 1;
}

void cv_release(cv_object *obj) {
    if (cv_release_last(obj))
        cv_unhold(obj);
}

void cv_hold(cv_object *obj) {
    atomic_fetch_add_explicit(&obj->holds, 1, memory_order_relaxed);
}

bool cv_hold_live(cv_object *obj) {
    uint32_t n = atomic_load_explicit(&obj->holds, memory_order_relaxed);
    while (n > 0 && !atomic_compare_exchange_weak_explicit(
                        &obj->holds, &n, n + 1, memory_order_acq_rel, memory_order_relaxed))
        ;
    return n > 0;
}

void cv_unhold(cv_object *obj) {
    if (atomic_fetch_sub_explicit(&obj->holds, 1, memory_order_acq_rel) == 1) {
        /* Poison the tag so a stale handle is refused rather than used. */
        obj->tag = CV_TAG_DEAD;
        if (obj->destroy)
            obj->destroy(obj);
    }
}

uint32_t cv_refcount(const cv_object *obj) {
    return atomic_load_explicit(&obj->refcount, memory_order_relaxed);
}
