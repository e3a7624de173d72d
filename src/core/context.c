#include "core/context.h"
#include "core/usm.h"
#include "core/tracker.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/thread.h"
#include "core/backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long clCreateContext waits for released contexts of a lost device to go (core/context.h),
 * and how often it looks again meanwhile (hurrying the tracker each time). */
#define CV_CONTEXT_TEARDOWN_MS       2000
#define CV_CONTEXT_TEARDOWN_SLICE_MS 10

/* The live contexts, for telling those on a lost device (cv_contexts_report_faults) and for
 * waiting until those the application released are gone (cv_contexts_gone, broadcast as one
 * leaves the list). */
static pthread_mutex_t cv_contexts_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_contexts_gone;
static pthread_once_t cv_contexts_once = PTHREAD_ONCE_INIT;
static cl_context cv_contexts;

static void cv_contexts_init(void) {
    cvu_cond_init_monotonic(&cv_contexts_gone);
}

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
    pthread_once(&cv_contexts_once, cv_contexts_init);
    pthread_cond_broadcast(&cv_contexts_gone);
    pthread_mutex_unlock(&cv_contexts_lock);
}

/* The fault of a lost device of ctx, described into what (n: 0 for none); false when none is
 * lost. */
static bool cv_context_fault(cl_context ctx, char *what, size_t n) {
    bool lost = false;
    for (cl_uint i = 0; i < ctx->attached && !lost; i++)
        lost = cvcu_device_fault(ctx->devices[i]->cu, what, n);
    return lost;
}

/* printf onto out[*len..n), *len kept within the buffer. */
static void cv_append(char *out, size_t n, size_t *len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int w = *len < n ? vsnprintf(out + *len, n - *len, fmt, ap) : 0;
    va_end(ap);
    *len += w > 0 ? (size_t)w : 0;
    if (*len >= n)
        *len = n - 1;
}

static const char *const cv_context_part_names[CV_CONTEXT_PARTS] = {
    [CV_PART_QUEUE] = "queue",           [CV_PART_MEM] = "memory object",
    [CV_PART_PROGRAM] = "program",       [CV_PART_KERNEL] = "kernel",
    [CV_PART_EVENT] = "command event",   [CV_PART_USER_EVENT] = "user event",
    [CV_PART_HOST_VALUE] = "host value", [CV_PART_SAMPLER] = "sampler",
};

/* What holds ctx, into out: the application's references, its objects by kind, the commands
 * the tracker holds, and the holds none of these explain (a callback of the tracker's thread
 * running, a fault being reported). app_hold: the application's hold is still there (its
 * references may be 0 already). True when anything besides the application holds ctx. */
static bool cv_context_describe(cl_context ctx, bool app_hold, char *out, size_t n) {
    size_t len = 0;
    uint32_t objects = 0;
    out[0] = '\0';
    cv_append(out, n, &len, "%u references, %u holds", cv_refcount(&ctx->obj),
              atomic_load(&ctx->obj.holds));
    for (int i = 0; i < CV_CONTEXT_PARTS; i++) {
        uint32_t k = atomic_load_explicit(&ctx->parts[i], memory_order_relaxed);
        objects += k;
        if (k)
            cv_append(out, n, &len, "%s%u %s%s", objects == k ? ": " : ", ", k,
                      cv_context_part_names[i], k == 1 ? "" : "s");
    }
    bool passing = false;
    unsigned tracked = cv_tracker_holds(ctx, &passing);
    cv_append(out, n, &len, "; %u of its commands with the tracker%s", tracked,
              passing ? " (not counting a pass in progress)" : "");
    long other = (long)atomic_load(&ctx->obj.holds) - (long)app_hold - (long)objects;
    if (other)
        cv_append(out, n, &len, "; %ld holds by none of these", other);
    return objects || other;
}

/* Set while this thread runs a context's destructor callbacks. */
static _Thread_local bool cv_context_in_destructor;

static void cv_context_destroy(cv_object *obj) {
    cl_context ctx = (cl_context)obj;
    /* What the application left allocated, while the devices are still attached. */
    cv_usm_context_destroy(ctx);
    /* Every object of the context is gone: a lost device may be reset once no context uses it.
     * Detached before it leaves the list: a clCreateContext waiting for the list to empty
     * (cv_contexts_await_teardown) then finds the device unused. */
    for (cl_uint i = 0; i < ctx->attached; i++)
        cvcu_device_detach(ctx->devices[i]->cu);
    /* "the registered callbacks are called in the reverse order in which they were registered".
     * Before it leaves the list: a clCreateContext that waited for it finds its callbacks run
     * (one such call from a callback itself does not wait: cv_context_in_destructor). */
    cv_context_in_destructor = true;
    for (cv_context_destructor *d = ctx->destructors, *next; d; d = next) {
        next = d->next;
        d->fn(ctx, d->user_data);
        free(d);
    }
    cv_context_in_destructor = false;
    cv_context_unlink(ctx);
    uint64_t released = atomic_load(&ctx->released_ns);
    if (released)
        cvu_log(CVU_LOG_INFO,
                "context %p of a lost device is gone, %.3f ms after the application's last "
                "release",
                (void *)ctx, (double)(cvu_host_time_ns() - released) * 1e-6);
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->usm_lock);
    free(ctx->devices);
    free(ctx->properties);
    free(ctx);
}

static bool cv_context_uses(cl_context ctx, cl_device_id dev) {
    for (cl_uint i = 0; i < ctx->attached; i++)
        if (ctx->devices[i] == dev)
            return true;
    return false;
}

/* The live contexts that use dev, and in *referenced those of them the application still
 * holds. cv_contexts_lock held. */
static unsigned cv_contexts_on_locked(cl_device_id dev, unsigned *referenced) {
    unsigned n = 0;
    *referenced = 0;
    for (cl_context c = cv_contexts; c; c = c->live_next)
        if (cv_context_uses(c, dev)) {
            n++;
            *referenced += cv_refcount(&c->obj) > 0;
        }
    return n;
}

static struct timespec cv_timespec_after(const struct timespec *t, long ms) {
    struct timespec r = *t;
    r.tv_sec += ms / 1000;
    r.tv_nsec += (ms % 1000) * 1000000L;
    if (r.tv_nsec >= 1000000000L) {
        r.tv_sec++;
        r.tv_nsec -= 1000000000L;
    }
    return r;
}

static bool cv_timespec_before(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Before a new context uses dev: while dev is lost and contexts the application released are
 * still being torn down (culvert's threads hold some of their objects: the tracker's commands,
 * a callback running, a queue's release), waits for them to go, up to CV_CONTEXT_TEARDOWN_MS,
 * hurrying the tracker. Not while the application still holds one of them (nothing would end
 * it), nor on the tracker's thread (an event callback: the teardown may wait for that very
 * thread), nor in a context's destructor callback (its context is one of them). No lock is held
 * while it waits. */
static void cv_contexts_await_teardown(cl_device_id dev) {
    if (!cvcu_device_lost(dev->cu) || cv_tracker_on_thread() || cv_context_in_destructor)
        return;
    pthread_once(&cv_contexts_once, cv_contexts_init);
    struct timespec now, deadline, slice;
    clock_gettime(CLOCK_MONOTONIC, &now);
    deadline = cv_timespec_after(&now, CV_CONTEXT_TEARDOWN_MS);
    uint64_t start = cvu_host_time_ns();
    unsigned referenced = 0, waited = 0;
    pthread_mutex_lock(&cv_contexts_lock);
    unsigned left = cv_contexts_on_locked(dev, &referenced);
    while (left && !referenced && cv_timespec_before(&now, &deadline)) {
        waited = left > waited ? left : waited;
        pthread_mutex_unlock(&cv_contexts_lock);
        /* A pass ends the commands of a lost device at once (they never complete). */
        cv_tracker_hurry_up();
        pthread_mutex_lock(&cv_contexts_lock);
        slice = cv_timespec_after(&now, CV_CONTEXT_TEARDOWN_SLICE_MS);
        if (cv_timespec_before(&deadline, &slice))
            slice = deadline;
        pthread_cond_timedwait(&cv_contexts_gone, &cv_contexts_lock, &slice);
        left = cv_contexts_on_locked(dev, &referenced);
        clock_gettime(CLOCK_MONOTONIC, &now);
    }
    pthread_mutex_unlock(&cv_contexts_lock);
    if (waited)
        cvu_log(CVU_LOG_INFO,
                "clCreateContext on lost device %d waited %.3f ms for %u released context(s) of "
                "it to be torn down: %u left",
                dev->props->ordinal, (double)(cvu_host_time_ns() - start) * 1e-6, waited, left);
}

/* clCreateContext failed on lost device dev: logs (CULVERT_LOG=error) each context that still
 * uses it, and what holds it. */
static void cv_contexts_log_lost(cl_device_id dev) {
    if (cvu_log_threshold < CVU_LOG_ERROR)
        return;
    pthread_mutex_lock(&cv_contexts_lock);
    for (cl_context c = cv_contexts; c; c = c->live_next) {
        if (!cv_context_uses(c, dev))
            continue;
        char held[640];
        bool app = cv_refcount(&c->obj) > 0;
        cv_context_describe(c, app, held, sizeof held);
        uint64_t released = atomic_load(&c->released_ns);
        cvu_log(CVU_LOG_ERROR, "device %d is lost and context %p still uses it: %s; %s",
                dev->props->ordinal, (void *)c,
                app        ? "the application holds it (release it and all its objects first)"
                : released ? "released by the application, still torn down"
                           : "being torn down",
                held);
        if (released)
            cvu_log(CVU_LOG_ERROR, "context %p: the application released it %.3f ms ago", (void *)c,
                    (double)(cvu_host_time_ns() - released) * 1e-6);
    }
    pthread_mutex_unlock(&cv_contexts_lock);
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
    pthread_mutex_init(&ctx->usm_lock, NULL);
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
        cv_contexts_await_teardown(ctx->devices[i]);
        *err = cvcu_device_attach(ctx->devices[i]->cu);
        ctx->attached += *err == CL_SUCCESS;
        if (*err == CL_DEVICE_NOT_AVAILABLE)
            cv_contexts_log_lost(ctx->devices[i]);
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
            char info[sizeof what[i] + 192]; /* the fault's words and the fixed text, whole */
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

void cv_context_release(cl_context ctx) {
    if (!cv_release_last(&ctx->obj))
        return;
    if (cv_context_fault(ctx, NULL, 0)) {
        atomic_store(&ctx->released_ns, cvu_host_time_ns());
        char held[640];
        /* What keeps it past this release: all of it should go soon (a recovery waits for it). */
        if (cvu_log_threshold >= CVU_LOG_INFO && cv_context_describe(ctx, true, held, sizeof held))
            cvu_log(CVU_LOG_INFO,
                    "context %p of a lost device, released by the application, stays until "
                    "what holds it goes: %s",
                    (void *)ctx, held);
    }
    cv_unhold(&ctx->obj);
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
