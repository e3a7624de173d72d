/* Every OpenCL object culvert hands out starts with this header. */
#ifndef CV_CORE_OBJECT_H
#define CV_CORE_OBJECT_H

#include "util/cl_headers.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum cv_tag {
    CV_TAG_DEAD = 0,
    CV_TAG_PLATFORM = 0x43560001,
    CV_TAG_DEVICE,
    CV_TAG_CONTEXT,
    CV_TAG_QUEUE,
    CV_TAG_MEM,
    CV_TAG_PROGRAM,
    CV_TAG_KERNEL,
    CV_TAG_EVENT,
    CV_TAG_SAMPLER,
    CV_TAG_COMMAND_BUFFER,
    CV_TAG_MUTABLE_COMMAND,
    CV_TAG_SVM_FREE, /* culvert's own: the work of a clEnqueueSVMFree (core/usm_enqueue.c) */
} cv_tag;

typedef struct cv_object cv_object;
typedef void (*cv_destroy_fn)(cv_object *obj);

struct cv_object {
    /* The ICD loaders read the dispatch table through the first pointer of every object. */
    const cl_icd_dispatch *dispatch;
#ifdef CL_ICD2_TAG_KHR
    /* cl_khr_icd 2.0: the loader's per-platform data, copied into every object. */
    void *dispatch_data;
#endif
    uint32_t tag;
    /* refcount is what the application sees (CL_*_REFERENCE_COUNT); holds keeps the object alive
     * while culvert still uses it (commands in flight, child objects). The application's
     * references together own one hold. */
    _Atomic uint32_t refcount;
    _Atomic uint32_t holds;
    cv_destroy_fn destroy;
};

extern const cl_icd_dispatch cv_dispatch;

void cv_object_init(cv_object *obj, cv_tag tag, cv_destroy_fn destroy);
/* Is handle one of ours, alive, of this type? Reading the dispatch pointer first is safe for any
 * OpenCL handle, even another ICD's, because every ICD object starts with one. */
bool cv_object_valid(const void *handle, cv_tag tag);

void cv_retain(cv_object *obj);  /* application reference */
void cv_release(cv_object *obj); /* application reference; the last one drops the hold */
/* Drops an application reference; true when it was the last, and the caller then drops the hold
 * (cv_unhold) after what it does at that point. */
bool cv_release_last(cv_object *obj);
void cv_hold(cv_object *obj); /* culvert's own reference */
/* A hold on an object found through a list of culvert's own, unless its last hold is gone (it is
 * being destroyed): false then. */
bool cv_hold_live(cv_object *obj);
void cv_unhold(cv_object *obj); /* destroys the object with the last hold */
uint32_t cv_refcount(const cv_object *obj);

#define CV_OBJ(h) ((cv_object *)(h))

#endif
