#include "core/queue.h"
#include "core/command.h"
#include "core/event.h"
#include "core/platform.h"
#include "core/backend.h"

#include <stdlib.h>
#include <string.h>

static void cv_queue_destroy(cv_object *obj) {
    cl_command_queue q = (cl_command_queue)obj;
    /* Every tracked command finished before the last hold went; untracked work still in a stream
     * finishes on its own: cuStreamDestroy returns at once and frees the stream afterwards. */
    cvcu_device_bind(q->device->cu);
    for (unsigned i = 0; i < q->num_streams; i++) {
        cvcu_stream_release(q->streams[i], i > 0 || !q->foreign);
        cvcu_event_destroy(q->join[i]);
        /* A wait that ended on a query may leave its flag's write still in the stream: such a
         * slot stays out of the pool (8 bytes), or a later write would open a gate of whoever
         * got it next. */
        if (q->flag[i] && atomic_load(q->flag[i]->host) == q->flag_token[i])
            cvcu_slot_free(q->flag[i]);
    }
    for (int t = 0; t < 2; t++)
        cv_event_free_spares(q->spares[t]);
    for (int t = 0; t < 2; t++) {
        for (unsigned i = 0; i < q->loose[t].num; i++) {
            cvcu_event_destroy(q->loose[t].items[i].done);
            cvcu_event_destroy(q->loose[t].items[i].start);
        }
        free(q->loose[t].items);
    }
    pthread_mutex_destroy(&q->lock);
    pthread_mutex_destroy(&q->spare_lock);
    cv_context_unhold(q->context, CV_PART_QUEUE);
    free(q->property_list);
    free(q);
}

static unsigned cv_ooo_streams(void) {
    const char *s = getenv("CULVERT_OOO_STREAMS");
    int n = s ? atoi(s) : CV_QUEUE_OOO_STREAMS;
    return n < 1 ? 1 : n > CV_QUEUE_MAX_STREAMS ? CV_QUEUE_MAX_STREAMS : (unsigned)n;
}

/* Creates streams up to n (with their join events). */
static cl_int cv_queue_grow(cl_command_queue q, unsigned n) {
    cl_int err = CL_SUCCESS;
    while (err == CL_SUCCESS && q->num_streams < n) {
        unsigned i = q->num_streams;
        if (!q->streams[i])
            err = cvcu_stream_create(q->priority, &q->streams[i]);
        if (err == CL_SUCCESS)
            err = cvcu_event_create(false, &q->join[i]);
        /* Without a flag slot, waits on the stream poll the driver. */
        if (err == CL_SUCCESS && cvcu_slot_alloc(q->device->cu, &q->flag[i]) != CL_SUCCESS)
            q->flag[i] = NULL;
        if (err == CL_SUCCESS)
            q->num_streams++;
    }
    return err;
}

/* cl_khr_priority_hints: HIGH is CUDA's greatest priority (its lowest number), LOW its least,
 * MED (also the default) halfway. */
static int cv_queue_priority(const cvcu_device_props *p, cl_queue_priority_khr hint) {
    int least = p->stream_priority_low, greatest = p->stream_priority_high;
    return hint == CL_QUEUE_PRIORITY_HIGH_KHR  ? greatest
           : hint == CL_QUEUE_PRIORITY_LOW_KHR ? least
                                               : (least + greatest) / 2;
}

cl_command_queue cv_queue_create(cl_context ctx, cl_device_id dev, const cv_queue_config *cfg,
                                 const cl_queue_properties *list, size_t list_len, cl_int *err) {
    cl_command_queue q = calloc(1, sizeof *q);
    *err = q ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (q && list_len) {
        q->property_list = calloc(list_len, sizeof *list);
        if (q->property_list)
            memcpy(q->property_list, list, list_len * sizeof *list);
        else
            *err = CL_OUT_OF_HOST_MEMORY;
    }
    if (*err != CL_SUCCESS) {
        free(q);
        return NULL;
    }
    cv_object_init(&q->obj, CV_TAG_QUEUE, cv_queue_destroy);
    pthread_mutex_init(&q->lock, NULL);
    pthread_mutex_init(&q->spare_lock, NULL);
    q->context = ctx;
    cv_context_hold(ctx, CV_PART_QUEUE);
    q->device = dev;
    q->properties = cfg->properties;
    q->num_properties = list_len;
    q->priority_hint = cfg->priority_hint ? cfg->priority_hint : CL_QUEUE_PRIORITY_MED_KHR;
    q->throttle_hint = cfg->throttle_hint ? cfg->throttle_hint : CL_QUEUE_THROTTLE_MED_KHR;
    q->priority = cv_queue_priority(dev->props, q->priority_hint);
    q->foreign = cfg->foreign_stream != NULL;
    q->streams[0] = cfg->foreign_stream;
    q->num_streams = 0;
    *err = cvcu_device_bind(dev->cu);
    if (*err == CL_SUCCESS && q->foreign)
        *err = cvcu_stream_check_foreign(cfg->foreign_stream, dev->cu);
    if (*err == CL_SUCCESS)
        *err = cv_queue_grow(q, cv_queue_ooo(q) ? cv_ooo_streams() : 1);
    /* Kernels on profiling queues time themselves (core/ptx_timing.h) once the device's
     * %globaltimer is mapped onto the host clock; until then CUDA events time them. */
    if (*err == CL_SUCCESS && (q->properties & CL_QUEUE_PROFILING_ENABLE))
        cvcu_ktime_prepare(dev->cu);
    q->stream = q->streams[0];
    if (*err != CL_SUCCESS) {
        cv_release(&q->obj);
        q = NULL;
    }
    return q;
}

cvcu_stream *cv_queue_next_stream(cl_command_queue q) {
    unsigned i = 0;
    if (cv_queue_ooo(q) && q->num_streams > 1)
        i = q->next_stream++ % q->num_streams;
    return q->streams[i];
}

cl_int cv_queue_join_into(cl_command_queue q, cvcu_stream *s) {
    cl_int err = CL_SUCCESS;
    for (unsigned i = 0; cv_queue_ooo(q) && i < q->num_streams; i++)
        if (q->streams[i] == s)
            cv_queue_mark_locked(q, i, CV_WAIT_CROSS);
    for (unsigned i = 0; cv_queue_ooo(q) && i < q->num_streams && err == CL_SUCCESS; i++) {
        if (q->streams[i] == s)
            continue;
        err = cvcu_event_record(q->join[i], q->streams[i]);
        if (err == CL_SUCCESS)
            err = cvcu_stream_wait_event(s, q->join[i]);
    }
    return err;
}

cl_int cv_queue_fence_from(cl_command_queue q, cvcu_stream *s, cvcu_event *ev) {
    cl_int err = CL_SUCCESS;
    for (unsigned i = 0; cv_queue_ooo(q) && i < q->num_streams && err == CL_SUCCESS; i++)
        if (q->streams[i] != s) {
            cv_queue_mark_locked(q, i, CV_WAIT_CROSS);
            err = cvcu_stream_wait_event(q->streams[i], ev);
            q->ops[i]++; /* a flag behind this wait would wait for the barrier too */
        }
    return err;
}

uint64_t cv_queue_flag_locked(cl_command_queue q, unsigned i) {
    uint64_t token = q->flag_token[i] + 1;
    if (!q->flag[i] ||
        cvcu_stream_write_value(q->streams[i], q->flag[i]->device, token) != CL_SUCCESS)
        return 0;
    q->flag_token[i] = token;
    return token;
}

uint64_t cv_queue_wait_prepare_locked(cl_command_queue q, unsigned i, cv_wait *w,
                                      cl_event *scratch) {
    *w = (cv_wait){.stream = q->streams[i],
                   .dev = q->device->cu,
                   .key = q->last_key[i],
                   .origin_ns = q->last_key_ns[i]};
    *scratch = NULL;
    w->token = cv_queue_flag_locked(q, i);
    w->flag = w->token ? q->flag[i]->host : NULL;
    cv_queue_listen_locked(q, i, w);
    /* Without a flag the wait asks for an event recorded now: the stream's own answer would
     * wait for work that other threads enqueue later too. Without one either, the stream. */
    cl_int err = CL_SUCCESS;
    if (!w->token)
        *scratch = cv_event_spare(q, false, &err);
    if (*scratch && cvcu_event_record((*scratch)->done, q->streams[i]) == CL_SUCCESS)
        w->event = (*scratch)->done;
    return q->ops[i];
}

cl_int cv_queue_wait_done(cl_command_queue q, unsigned i, cl_event scratch, uint64_t upto,
                          cl_int r) {
    if (scratch)
        cv_queue_spare_put(q, scratch);
    if (r == CL_COMPLETE)
        cv_queue_seen(q, i, upto);
    return r;
}

cl_int cv_queue_wait_stream(cl_command_queue q, unsigned i, bool locked) {
    cl_int now = cvcu_device_bind(q->device->cu);
    /* The flag lands once everything put on the stream so far is done (work enqueued later by
     * other threads is no part of this wait). A query that ends the wait without it says
     * whether the stream failed (a failed command shows up as the stream's error). */
    if (now == CL_SUCCESS) {
        cv_wait w;
        cl_event scratch = NULL;
        if (!locked)
            pthread_mutex_lock(&q->lock);
        uint64_t upto = cv_queue_wait_prepare_locked(q, i, &w, &scratch);
        if (!locked)
            pthread_mutex_unlock(&q->lock);
        now = cv_queue_wait_done(q, i, scratch, upto, cv_wait_run(&w));
    }
    /* The stream is idle: synchronizing returns at once and prints printf's output. */
    if (now >= 0 && atomic_load(&q->prints))
        now = cvcu_stream_sync(q->streams[i]);
    return now < 0 ? now : CL_SUCCESS;
}

/* What may hold up the work of stream i not known done (CV_WAIT_ bits); q->lock held. */
static unsigned cv_queue_opened_by_locked(cl_command_queue q, unsigned i) {
    uint64_t seen = atomic_load(&q->seen_op[i]);
    return (q->gate_op[i] > seen ? CV_WAIT_GATED : 0) | (q->cross_op[i] > seen ? CV_WAIT_CROSS : 0);
}

void cv_queue_mark_locked(cl_command_queue q, unsigned i, unsigned what) {
    if (!cv_queue_opened_by_locked(q, i))
        for (int k = 0; k < 2; k++)
            q->mark_releases[i][k] = atomic_load(&cv_wait_releases[k]);
    if (what & CV_WAIT_GATED)
        q->gate_op[i] = q->ops[i] + 1;
    if (what & CV_WAIT_CROSS)
        q->cross_op[i] = q->ops[i] + 1;
}

void cv_queue_listen_locked(cl_command_queue q, unsigned i, cv_wait *w) {
    w->opened_by = cv_queue_opened_by_locked(q, i);
    for (int k = 0; k < 2; k++)
        w->releases[k] = q->mark_releases[i][k];
}

/* *v = max(*v, x). */
static void cv_atomic_raise(_Atomic uint64_t *v, uint64_t x) {
    uint64_t was = atomic_load(v);
    while (was < x && !atomic_compare_exchange_weak(v, &was, x))
        ;
}

void cv_queue_seen(cl_command_queue q, unsigned i, uint64_t op) {
    cv_atomic_raise(&q->seen_op[i], op);
}

cl_int cv_queue_finish(cl_command_queue q) {
    uint64_t upto[CV_QUEUE_MAX_STREAMS];
    pthread_mutex_lock(&q->lock);
    unsigned n = cv_queue_ooo(q) ? q->num_streams : 1;
    memcpy(upto, q->recorded, sizeof upto);
    pthread_mutex_unlock(&q->lock);
    /* The batches of event-less commands are not recorded: the wait for the whole stream
     * covers them, and their holds go once it is over (one CUDA event and one tracker pass
     * fewer per clFinish). Batches of streams not waited on stay for a later flush. */
    cl_event taken[CV_QUEUE_MAX_STREAMS] = {0};
    cv_command_take_batches(q, n, taken);
    cl_int err = CL_SUCCESS;
    unsigned drained = 0;
    for (; drained < n && err == CL_SUCCESS; drained++)
        err = cv_queue_wait_stream(q, drained, false);
    if (err != CL_SUCCESS)
        drained--; /* the stream whose wait failed is not known to be done */
    for (unsigned i = 0; i < drained; i++)
        cv_queue_drained(q, i, upto[i]);
    cv_command_finish_taken(q, taken, n, drained);
    return err;
}

cl_int cv_queue_flush(cl_command_queue q) {
    /* Work goes to the stream when it is enqueued: nothing waits for a flush. The holds of
     * event-less commands get their event now, so that they go once those commands finished. */
    return cv_command_flush_batches(q);
}

cl_int cv_queue_set_properties(cl_command_queue q, cl_command_queue_properties props,
                               cl_bool enable, cl_command_queue_properties *old) {
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&q->lock);
    if (old)
        *old = q->properties;
    cl_command_queue_properties now = enable ? q->properties | props : q->properties & ~props;
    /* A queue on an application's stream stays in order: its one stream is the interface. */
    if (q->foreign && (now & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        err = CL_INVALID_QUEUE_PROPERTIES;
    /* "all previously queued commands complete before the properties change" (1.0) */
    for (unsigned i = 0; i < q->num_streams && err == CL_SUCCESS; i++)
        err = cv_queue_wait_stream(q, i, true);
    if (err == CL_SUCCESS && (now & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        err = cv_queue_grow(q, cv_ooo_streams());
    if (err == CL_SUCCESS && (now & CL_QUEUE_PROFILING_ENABLE))
        cvcu_ktime_prepare(q->device->cu);
    if (err == CL_SUCCESS)
        q->properties = now;
    pthread_mutex_unlock(&q->lock);
    return err;
}

cl_event cv_queue_spare_get(cl_command_queue q, bool timing, cv_cuda_events *loose) {
    cv_cuda_events_stack *st = &q->loose[timing];
    *loose = (cv_cuda_events){NULL, NULL};
    pthread_mutex_lock(&q->spare_lock);
    cl_event e = q->spares[timing];
    if (e)
        q->spares[timing] = e->tracker_next;
    if ((!e || !e->done) && st->num)
        *loose = st->items[--st->num];
    pthread_mutex_unlock(&q->spare_lock);
    return e;
}

bool cv_queue_loose_put(cl_command_queue q, bool timing, cv_cuda_events ev) {
    cv_cuda_events_stack *st = &q->loose[timing];
    pthread_mutex_lock(&q->spare_lock);
    if (st->num == st->cap) {
        unsigned cap = st->cap ? 2 * st->cap : 64;
        cv_cuda_events *grown = realloc(st->items, cap * sizeof *grown);
        if (grown) {
            st->items = grown;
            st->cap = cap;
        }
    }
    bool room = st->num < st->cap;
    if (room)
        st->items[st->num++] = ev;
    pthread_mutex_unlock(&q->spare_lock);
    return room;
}

void cv_queue_drained(cl_command_queue q, unsigned i, uint64_t seq) {
    cv_atomic_raise(&q->drained[i], seq);
}

void cv_queue_spare_put(cl_command_queue q, cl_event e) {
    pthread_mutex_lock(&q->spare_lock);
    e->tracker_next = q->spares[e->timing];
    q->spares[e->timing] = e;
    pthread_mutex_unlock(&q->spare_lock);
}

cl_int cv_queue_info(cl_command_queue q, cl_command_queue_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_QUEUE_CONTEXT:
        err = cv_info_ptr(out, q->context);
        break;
    case CL_QUEUE_DEVICE:
        err = cv_info_ptr(out, q->device);
        break;
    case CL_QUEUE_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&q->obj));
        break;
    case CL_QUEUE_PROPERTIES:
        err = cv_info_ulong(out, q->properties);
        break;
    case CL_QUEUE_PROPERTIES_ARRAY:
        err = cv_info_bytes(out, q->property_list, q->num_properties * sizeof(cl_queue_properties));
        break;
    case CL_QUEUE_SIZE:
        /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue for
         * param_name" (a host queue has no size) */
        err = CL_INVALID_COMMAND_QUEUE;
        break;
    case CL_QUEUE_DEVICE_DEFAULT:
        err = cv_info_ptr(out, NULL);
        break;
    case CL_QUEUE_CUDA_STREAM_CULVERT:
        /* An out-of-order queue has no one stream: NULL (see cl_culvert.h). */
        err = cv_info_ptr(out, cv_queue_ooo(q) ? NULL : q->streams[0]);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
