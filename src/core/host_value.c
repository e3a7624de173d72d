#include "core/host_value_slot.h"
#include "core/backend.h"
#include "core/command.h"
#include "util/log.h"

#include <stdlib.h>

struct cv_host_value {
    cvcu_slot *slot; /* back to the pool only when the cl_mem is destroyed */
};

bool cv_host_value_device_supported(cl_device_id device) {
    return device->props->stream_mem_ops64 && device->props->can_map_host;
}

/* The first device of the context that can use host values, or NULL. */
static cl_device_id cv_host_value_device(cl_context ctx) {
    cl_device_id found = NULL;
    for (cl_uint i = 0; i < ctx->num_devices && !found; i++)
        if (cv_host_value_device_supported(ctx->devices[i]))
            found = ctx->devices[i];
    return found;
}

bool cv_host_value_context_supported(cl_context ctx) {
    return cv_host_value_device(ctx) != NULL;
}

static void cv_host_value_destroy(cv_object *obj) {
    cl_mem m = (cl_mem)obj;
    cl_context ctx = m->context;
    /* The last hold is gone: no command waits on or writes the slot any more (cv_command_keep
     * holds the host value until its command has finished). */
    cvcu_slot_free(m->host_value->slot);
    free(m->host_value);
    free(m);
    cv_context_unhold(ctx, CV_PART_HOST_VALUE);
}

cl_mem cv_host_value_create(cl_context ctx, cl_ulong initial, cl_int *err) {
    cl_mem m = calloc(1, sizeof *m);
    struct cv_host_value *hv = calloc(1, sizeof *hv);
    cl_device_id dev = cv_host_value_device(ctx);
    *err = m && hv ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    /* The slot pages are portable (every context of the process maps them) and, with unified
     * addressing, have one device address for every device. */
    if (*err == CL_SUCCESS)
        *err = cvcu_device_bind(dev->cu);
    if (*err == CL_SUCCESS)
        *err = cvcu_slot_alloc(dev->cu, &hv->slot);
    if (*err == CL_SUCCESS) {
        atomic_store_explicit(hv->slot->host, initial, memory_order_release);
        cv_object_init(&m->obj, CV_TAG_MEM, cv_host_value_destroy);
        m->context = ctx;
        cv_context_hold(ctx, CV_PART_HOST_VALUE);
        m->kind = CV_MEM_HOST_VALUE;
        /* Read-write for host and kernels, allocated by culvert in host memory. */
        m->flags = CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR;
        m->size = sizeof(cl_ulong);
        m->host_ptr = (void *)hv->slot->host;
        m->device_address = hv->slot->device;
        m->host_value = hv;
    } else {
        free(hv);
        free(m);
        m = NULL;
    }
    return m;
}

cvcu_slot *cv_host_value_slot(cl_mem hv) {
    return hv->host_value->slot;
}

static const struct {
    cl_host_value_condition cl;
    cvcu_wait_condition cu;
    bool needs_nor;
} cv_host_value_conditions[] = {
    {CL_HOST_VALUE_GEQ_CULVERT, CVCU_WAIT_GEQ, false},
    {CL_HOST_VALUE_EQ_CULVERT, CVCU_WAIT_EQ, false},
    {CL_HOST_VALUE_AND_CULVERT, CVCU_WAIT_AND, false},
    {CL_HOST_VALUE_NOR_CULVERT, CVCU_WAIT_NOR, true},
};

bool cv_host_value_condition(cl_device_id device, cl_host_value_condition c,
                             cvcu_wait_condition *out) {
    bool ok = false;
    for (size_t i = 0; i < sizeof cv_host_value_conditions / sizeof cv_host_value_conditions[0];
         i++) {
        if (cv_host_value_conditions[i].cl == c) {
            ok = !cv_host_value_conditions[i].needs_nor || device->props->stream_wait_nor;
            *out = cv_host_value_conditions[i].cu;
        }
    }
    return ok;
}

/* Both commands: begin, keep the host value alive until the stream has passed the command, put
 * the operation on the stream, end. */
static cl_int cv_host_value_enqueue(cl_command_queue q, cl_mem hv, cl_command_type type,
                                    cl_ulong value, cvcu_wait_condition cond, cl_uint num_wait,
                                    const cl_event *wait_list, cl_event *event) {
    cv_command cmd;
    cl_int err = cv_command_begin(&cmd, q, type, num_wait, wait_list, event);
    if (err == CL_SUCCESS) {
        err = cv_command_keep(&cmd, &hv->obj);
        if (err == CL_SUCCESS && type == CL_COMMAND_WAIT_HOST_VALUE_CULVERT) {
            cv_command_mark(&cmd, CV_WAIT_GATED);
            err = cvcu_stream_wait_value(cmd.stream, hv->host_value->slot, value, cond,
                                         &(cvcu_wait_watch){q, hv});
        } else if (err == CL_SUCCESS)
            err = cvcu_stream_write_value(cmd.stream, hv->device_address, value);
        err = cv_command_end(&cmd, err, false, event);
    }
    return err;
}

/* A wait whose wait list holds a user event not complete at enqueue, or an event failed already.
 * Commands gated on a user event set to an error status run and report
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; a wait for the host value would instead hold the
 * queue until the host value meets the condition, perhaps never. So the queue's stream waits
 * for a gate of this wait's own (proxy), and the statuses decide once they are all set: an error
 * opens the gate at once (the wait is terminated, its event reports the error); otherwise a
 * stream of its own waits for the host value and then opens the gate on the GPU. */
typedef struct cv_deferred_wait {
    cv_object obj;          /* an internal object: held by the command and by each pending hook */
    cl_mem hv;              /* held */
    cl_command_queue queue; /* for the watch's warning only */
    cvcu_device *device;
    cl_ulong value;
    cvcu_wait_condition cond;
    cvcu_slot *proxy;         /* the queue's stream waits until it holds 1 */
    cvcu_stream *side;        /* waits for the host value, then writes the proxy */
    _Atomic unsigned pending; /* hooks not run yet, and the enqueue itself */
    _Atomic bool failed;      /* an event of the wait list has an error status */
    cv_user_hook hooks[];     /* one per event of the wait list */
} cv_deferred_wait;

static void cv_deferred_wait_destroy(cv_object *obj) {
    cv_deferred_wait *d = (cv_deferred_wait *)obj;
    /* The command has passed the proxy: the side stream's write was its last work. */
    if (d->side && cvcu_device_bind(d->device) == CL_SUCCESS)
        cvcu_stream_release(d->side, true);
    cvcu_slot_free(d->proxy);
    cv_unhold(&d->hv->obj);
    free(d);
}

static void cv_deferred_wait_open(cv_deferred_wait *d) {
    atomic_store_explicit(d->proxy->host, 1, memory_order_release);
}

/* Every status is known: terminate the wait, or let the side stream wait for the host value. */
static void cv_deferred_wait_decide(cv_deferred_wait *d) {
    cl_int err = CL_SUCCESS;
    if (!atomic_load(&d->failed)) {
        err = cvcu_device_bind(d->device);
        if (err == CL_SUCCESS)
            err = cvcu_stream_create(0, &d->side);
        if (err == CL_SUCCESS)
            err = cvcu_stream_wait_value(d->side, d->hv->host_value->slot, d->value, d->cond,
                                         &(cvcu_wait_watch){d->queue, d->hv});
        if (err == CL_SUCCESS)
            err = cvcu_stream_write_value(d->side, d->proxy->device, 1);
        /* The queue must not stay blocked for a wait the GPU cannot make. */
        if (err != CL_SUCCESS)
            cvu_log(CVU_LOG_ERROR,
                    "host value %p: the wait on queue %p could not be put on the GPU (%d); the "
                    "queue goes on without it",
                    (void *)d->hv, (void *)d->queue, (int)err);
    }
    if (atomic_load(&d->failed) || err != CL_SUCCESS)
        cv_deferred_wait_open(d);
}

/* One status known (or the enqueue done): the last decides. */
static void cv_deferred_wait_settle(cv_deferred_wait *d, cl_int status) {
    if (status < 0)
        atomic_store(&d->failed, true);
    if (atomic_fetch_sub(&d->pending, 1) == 1)
        cv_deferred_wait_decide(d);
}

static void cv_deferred_wait_hook(cv_user_hook *h, cl_int status) {
    cv_deferred_wait *d = h->arg;
    cv_deferred_wait_settle(d, status);
    cv_unhold(&d->obj);
}

/* Does this wait depend on a status not known yet, or on an error? */
static bool cv_wait_list_undecided(cl_uint num_wait, const cl_event *wait_list) {
    bool undecided = false;
    for (cl_uint i = 0; i < num_wait && !undecided; i++) {
        cl_int s = atomic_load(&wait_list[i]->status);
        undecided = s < 0 || (wait_list[i]->is_user && s != CL_COMPLETE);
    }
    return undecided;
}

static cl_int cv_host_value_enqueue_deferred(cl_command_queue q, cl_mem hv, cl_ulong value,
                                             cvcu_wait_condition cond, cl_uint num_wait,
                                             const cl_event *wait_list, cl_event *event) {
    cv_deferred_wait *d = calloc(1, sizeof *d + num_wait * sizeof d->hooks[0]);
    cl_int err = d ? cvcu_device_bind(q->device->cu) : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = cvcu_slot_alloc(q->device->cu, &d->proxy);
    if (d) {
        cv_object_init(&d->obj, CV_TAG_DEAD, cv_deferred_wait_destroy);
        d->hv = hv;
        cv_hold(&hv->obj);
        d->queue = q;
        d->device = q->device->cu;
        d->value = value;
        d->cond = cond;
        atomic_init(&d->pending, 1);
    }
    cv_command cmd;
    bool gated = false;
    if (err == CL_SUCCESS)
        err = cv_command_begin(&cmd, q, CL_COMMAND_WAIT_HOST_VALUE_CULVERT, num_wait, wait_list,
                               event);
    if (err == CL_SUCCESS) {
        err = cv_command_keep(&cmd, &hv->obj);
        if (err == CL_SUCCESS)
            err = cv_command_keep(&cmd, &d->obj);
        if (err == CL_SUCCESS)
            err = cvcu_stream_wait_value(cmd.stream, d->proxy, 1, CVCU_WAIT_GEQ, NULL);
        gated = err == CL_SUCCESS;
        err = cv_command_end(&cmd, err, false, event);
    }
    if (gated && err != CL_SUCCESS) {
        /* The stream may wait for the proxy already, and the command is gone: open it, and
         * keep it (a leak, never a slot reused while the GPU may still read it), unless the
         * device is lost: its GPU reads nothing more, and what the wait holds (the host value,
         * so the context) must go for the device to recover. */
        cv_deferred_wait_open(d);
        if (cvcu_device_lost(q->device->cu))
            cv_unhold(&d->obj);
        return err;
    }
    /* The statuses, as they are set (the hooks run on the setter's thread) or now. */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_wait; i++) {
        cl_event w = wait_list[i];
        cl_int s = atomic_load(&w->status);
        cv_user_hook *h = &d->hooks[i];
        h->fn = cv_deferred_wait_hook;
        h->arg = d;
        atomic_fetch_add(&d->pending, 1);
        cv_hold(&d->obj);
        if (!w->is_user || s != CL_SUBMITTED || !cv_user_event_hook(w, h))
            cv_deferred_wait_hook(h, w->is_user ? atomic_load(&w->status) : s);
    }
    if (err == CL_SUCCESS)
        cv_deferred_wait_settle(d, CL_COMPLETE);
    if (d)
        cv_unhold(&d->obj);
    return err;
}

bool cv_host_value_condition_supported(cl_device_id device, cl_host_value_condition c) {
    cvcu_wait_condition cond;
    return cv_host_value_condition(device, c, &cond);
}

cl_int cv_host_value_enqueue_wait(cl_command_queue q, cl_mem hv, cl_ulong value,
                                  cl_host_value_condition condition, cl_uint num_wait,
                                  const cl_event *wait_list, cl_event *event) {
    cvcu_wait_condition cond = CVCU_WAIT_GEQ;
    cl_int err =
        cv_host_value_condition(q->device, condition, &cond) ? CL_SUCCESS : CL_INVALID_VALUE;
    if (err == CL_SUCCESS && cv_wait_list_undecided(num_wait, wait_list))
        err = cv_host_value_enqueue_deferred(q, hv, value, cond, num_wait, wait_list, event);
    else if (err == CL_SUCCESS)
        err = cv_host_value_enqueue(q, hv, CL_COMMAND_WAIT_HOST_VALUE_CULVERT, value, cond,
                                    num_wait, wait_list, event);
    return err;
}

cl_int cv_host_value_enqueue_write(cl_command_queue q, cl_mem hv, cl_ulong value, cl_uint num_wait,
                                   const cl_event *wait_list, cl_event *event) {
    return cv_host_value_enqueue(q, hv, CL_COMMAND_WRITE_HOST_VALUE_CULVERT, value, CVCU_WAIT_GEQ,
                                 num_wait, wait_list, event);
}
