#include "core/context.h"
#include "util/log.h"
#include "core/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The live contexts, for telling those on a lost device (cv_contexts_report_faults). */
static pthread_mutex_t cv_contexts_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_context cv_contexts;

static void cv_context_link(cl_context ctx) {
    pthread_mutex_lock(&cv_contexts_lock);
    ctx->live_next = cv_contexts;
    if (cv_contexts)
        cv_contexts->live_prev = ctx;
    cv_contexts = ctx;
    pthread_mutex_unlock(&cv_contexts_lock);
}

static void cv_context_unlink(cl_context ctx) {
    pthread_mutex_lock(&cv_contexts_lock);
    if (ctx->live_prev)
        ctx->live_prev->live_next = ctx->live_next;
    else if (cv_contexts == ctx)
        cv_contexts = ctx->live_next;
    if (ctx->live_next)
        ctx->live_next->live_prev = ctx->live_prev;
    pthread_mutex_unlock(&cv_contexts_lock);
}

static void cv_context_destroy(cv_object *obj) {
    cl_context ctx = (cl_context)obj;
    cv_context_unlink(ctx);
    /* Every object of the context is gone: a lost device may be reset once no context uses it. */
    for (cl_uint i = 0; i < ctx->attached; i++)
        cvcu_device_detach(ctx->devices[i]->cu);
    /* "the registered callbacks are called in the reverse order in which they were registered" */
    for (cv_context_destructor *d = ctx->destructors, *next; d; d = next) {
        next = d->next;
        d->fn(ctx, d->user_data);
        free(d);
    }
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->devices);
    free(ctx->properties);
    free(ctx);
}

cl_context cv_context_create(const cl_context_properties *props, size_t num_props,
                             cl_uint num_devices, const cl_device_id *devices,
                             cv_context_notify_fn notify, void *user_data, cl_int *err) {
    cl_context ctx = calloc(1, sizeof *ctx);
    *err = CL_SUCCESS;
    if (ctx) {
        ctx->devices = calloc(num_devices, sizeof *ctx->devices);
        ctx->properties = num_props ? calloc(num_props, sizeof *ctx->properties) : NULL;
    }
    if (!ctx || !ctx->devices || (num_props && !ctx->properties)) {
        *err = CL_OUT_OF_HOST_MEMORY;
        if (ctx) {
            free(ctx->devices);
            free(ctx->properties);
            free(ctx);
        }
        return NULL;
    }
    cv_object_init(&ctx->obj, CV_TAG_CONTEXT, cv_context_destroy);
    pthread_mutex_init(&ctx->lock, NULL);
    /* Duplicates in the device list are allowed by the spec and ignored. */
    for (cl_uint i = 0; i < num_devices; i++)
        if (!cv_context_has_device(ctx, devices[i]))
            ctx->devices[ctx->num_devices++] = devices[i];
    if (num_props)
        memcpy(ctx->properties, props, num_props * sizeof *props);
    ctx->num_properties = num_props;
    ctx->notify = notify;
    ctx->notify_data = user_data;
    for (cl_uint i = 0; i < ctx->num_devices && *err == CL_SUCCESS; i++) {
        *err = cvcu_device_attach(ctx->devices[i]->cu);
        ctx->attached += *err == CL_SUCCESS;
    }
    if (*err == CL_SUCCESS)
        cv_context_link(ctx);
    if (*err != CL_SUCCESS) {
        cv_release(&ctx->obj);
        ctx = NULL;
    }
    return ctx;
}

bool cv_context_has_device(cl_context ctx, cl_device_id dev) {
    for (cl_uint i = 0; i < ctx->num_devices; i++)
        if (ctx->devices[i] == dev)
            return true;
    return false;
}

void cv_context_notify(cl_context ctx, const char *errinfo) {
    cvu_log(CVU_LOG_ERROR, "context %p: %s", (void *)ctx, errinfo);
    if (ctx->notify)
        ctx->notify(errinfo, NULL, 0, ctx->notify_data);
}

/* The fault of a lost device of ctx, described into what; false when none is lost. */
static bool cv_context_fault(cl_context ctx, char *what, size_t n) {
    bool lost = false;
    for (cl_uint i = 0; i < ctx->attached && !lost; i++)
        lost = cvcu_device_fault(ctx->devices[i]->cu, what, n);
    return lost;
}

/* Up to this many contexts are told per pass; a pass that met more runs again. */
#define CV_CONTEXT_REPORT_BATCH 16

void cv_contexts_report_faults(void) {
    bool more = true;
    while (more) {
        cl_context due[CV_CONTEXT_REPORT_BATCH];
        unsigned n = 0;
        char what[CV_CONTEXT_REPORT_BATCH][192];
        more = false;
        pthread_mutex_lock(&cv_contexts_lock);
        for (cl_context c = cv_contexts; c; c = c->live_next) {
            if (atomic_load(&c->fault_reported))
                continue;
            if (n == CV_CONTEXT_REPORT_BATCH) {
                more = true;
                break;
            }
            if (!cv_context_fault(c, what[n], sizeof what[n]))
                continue;
            /* A context whose last hold is gone is being destroyed: not told. */
            if (cv_hold_live(&c->obj)) {
                atomic_store(&c->fault_reported, true);
                due[n++] = c;
            }
        }
        pthread_mutex_unlock(&cv_contexts_lock);
        for (unsigned i = 0; i < n; i++) {
            char info[320];
            snprintf(info, sizeof info,
                     "culvert: the GPU faulted (%s): this context is lost; its commands fail and "
                     "new ones fail with CL_OUT_OF_RESOURCES. Release it and its objects: a new "
                     "context then works again.",
                     what[i]);
            cv_context_notify(due[i], info);
            cv_unhold(&due[i]->obj);
        }
    }
}

cl_int cv_context_info(cl_context ctx, cl_context_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&ctx->obj));
        break;
    case CL_CONTEXT_NUM_DEVICES:
        err = cv_info_uint(out, ctx->num_devices);
        break;
    case CL_CONTEXT_DEVICES:
        err = cv_info_bytes(out, ctx->devices, ctx->num_devices * sizeof *ctx->devices);
        break;
    case CL_CONTEXT_PROPERTIES:
        err = cv_info_bytes(out, ctx->properties, ctx->num_properties * sizeof *ctx->properties);
        break;
    case CL_CONTEXT_CUDA_CONTEXT_CULVERT:
        err = cv_info_ptr(out, cvcu_device_context(ctx->devices[0]->cu));
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
