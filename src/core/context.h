/* cl_context: a set of devices of the culvert platform, each on the CUDA context culvert uses on it
 * (its primary context; after a fault that context's reset did not recover, one of culvert's own).
 *
 * A fault on the GPU (a sticky CUDA error) poisons a device's CUDA context: the device is
 * lost, and with it every cl_context that uses it. Their commands fail (their events take
 * CL_OUT_OF_RESOURCES, or the CUDA error), new commands and objects on the device fail with
 * CL_OUT_OF_RESOURCES, and each context's notify callback is told once, naming the CUDA error.
 * Once the application released every lost context (and so every object of them), the next
 * clCreateContext recovers the device (cuda/cu_recover.c) and works as on a fresh device. The
 * application's last release does not always end a lost context at once: culvert's threads may
 * still hold some of its objects (the tracker's commands, an event callback running, a queue's
 * teardown), so clCreateContext waits for such contexts to go, up to CV_CONTEXT_TEARDOWN_MS
 * (the tracker hurried). While the application still holds a lost context, or once the wait
 * ran out, clCreateContext on the device fails with CL_DEVICE_NOT_AVAILABLE, and the log
 * (CULVERT_LOG=error) says what still holds each lost context, or why the recovery failed. */
#ifndef CV_CORE_CONTEXT_H
#define CV_CORE_CONTEXT_H

#include "core/device.h"
#include "core/info.h"

#include <pthread.h>
#include <stdint.h>

typedef void(CL_CALLBACK *cv_context_notify_fn)(const char *errinfo, const void *private_info,
                                                size_t cb, void *user_data);
typedef void(CL_CALLBACK *cv_context_destructor_fn)(cl_context context, void *user_data);

/* The objects of a context, each of which holds it (cv_context_hold): counted by kind, so that a
 * context the application released can say what it still waits for (a lost device recovers only
 * once its contexts are gone). */
typedef enum cv_context_part {
    CV_PART_QUEUE,
    CV_PART_MEM, /* buffers and images */
    CV_PART_PROGRAM,
    CV_PART_KERNEL,
    CV_PART_EVENT, /* commands' events, with the batches of event-less commands */
    CV_PART_USER_EVENT,
    CV_PART_HOST_VALUE,
    CV_PART_SAMPLER,
    CV_CONTEXT_PARTS
} cv_context_part;

typedef struct cv_context_destructor {
    cv_context_destructor_fn fn;
    void *user_data;
    struct cv_context_destructor *next;
} cv_context_destructor;

struct _cl_context {
    cv_object obj;
    cl_uint num_devices;
    cl_device_id *devices;
    cl_context_properties *properties; /* as given, 0-terminated; NULL if none were */
    size_t num_properties;             /* entries including the terminator; 0 if none */
    cv_context_notify_fn notify;
    void *notify_data;
    pthread_mutex_t lock;
    cv_context_destructor *destructors; /* newest first: called in reverse order of adding */
    cl_uint attached;                   /* devices[0..attached) count this context as a user */
    _Atomic bool fault_reported;        /* the notify callback was told the device is lost */
    cl_context live_prev, live_next;    /* the live contexts (context.c) */
    _Atomic uint32_t parts[CV_CONTEXT_PARTS]; /* objects holding the context, by kind */
    _Atomic uint64_t released_ns; /* the application's last release, on a lost device; else 0 */
    /* SVM and USM allocations, sorted by address (core/usm.c); usm_any: there has been one, so
     * lookups (every buffer read and write asks) take the lock only then. */
    _Atomic bool usm_any;
    pthread_mutex_t usm_lock;
    struct cv_usm_alloc *usm;
    size_t num_usm, cap_usm;
};

/* An object of kind `part` holds ctx (cv_hold), and lets it go again (cv_unhold). */
static inline void cv_context_hold(cl_context ctx, cv_context_part part) {
    atomic_fetch_add_explicit(&ctx->parts[part], 1, memory_order_relaxed);
    cv_hold(&ctx->obj);
}
static inline void cv_context_unhold(cl_context ctx, cv_context_part part) {
    atomic_fetch_sub_explicit(&ctx->parts[part], 1, memory_order_relaxed);
    cv_unhold(&ctx->obj);
}

static inline bool cv_is_context(const void *h) {
    return cv_object_valid(h, CV_TAG_CONTEXT);
}

cl_context cv_context_create(const cl_context_properties *props, size_t num_props,
                             cl_uint num_devices, const cl_device_id *devices,
                             cv_context_notify_fn notify, void *user_data, cl_int *err);
/* The application's clReleaseContext. The last release of a context on a lost device logs (info)
 * what still holds it: the device recovers once it is gone. */
void cv_context_release(cl_context ctx);
cl_int cv_context_info(cl_context ctx, cl_context_info param, const cv_info *out);
bool cv_context_has_device(cl_context ctx, cl_device_id dev);
/* Reports an asynchronous error through the application's notify callback. */
void cv_context_notify(cl_context ctx, const char *errinfo);
/* Tells every live context on a lost device, once, through its notify callback (the tracker's
 * thread calls it after a fault: no lock of culvert is held there). */
void cv_contexts_report_faults(void);

#endif
