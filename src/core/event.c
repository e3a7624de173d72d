#include "core/event.h"
#include "core/profile_bounds.h"
#include "core/queue.h"
#include "core/tracker.h"
#include "core/backend.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>

static bool cv_final(cl_int s) {
    return s <= CL_COMPLETE;
}

/* Waiters on user events sleep here; every status set wakes them. The lock also guards the list
 * of live user events. */
static pthread_mutex_t cv_user_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_user_cond = PTHREAD_COND_INITIALIZER;
static cl_event cv_user_events;
static _Atomic unsigned cv_user_waiters; /* threads in cv_event_wait on a user event */

static cl_int cv_event_settle_locked(cl_event e, cl_int s, cl_int q);

static void cv_user_event_unlink(cl_event e) {
    pthread_mutex_lock(&cv_user_lock);
    if (e->user_prev)
        e->user_prev->user_next = e->user_next;
    else if (cv_user_events == e)
        cv_user_events = e->user_next;
    if (e->user_next)
        e->user_next->user_prev = e->user_prev;
    pthread_mutex_unlock(&cv_user_lock);
}

void cv_user_events_open_gates(void) {
    pthread_mutex_lock(&cv_user_lock);
    for (cl_event e = cv_user_events; e; e = e->user_next)
        if (e->slot && !cv_final(atomic_load(&e->status)))
            atomic_store_explicit(e->slot->host, 1, memory_order_release);
    pthread_mutex_unlock(&cv_user_lock);
}

/* Drops the holds of e's sources (list: e->sources as it was) and kept objects. */
static void cv_unhold_all(cl_event e, cl_event *list, cl_uint n, cv_kept *kept) {
    for (cl_uint i = 0; i < n; i++)
        cv_unhold(&list[i]->obj);
    if (list != e->sources_inline)
        free(list);
    while (kept) {
        cv_kept *next = kept->next;
        cv_unhold(kept->obj);
        free(kept);
        kept = next;
    }
}

/* The end of every event that is not kept as a spare (its mutex destroyed already): its CUDA
 * events (user events have none) and its memory. */
static void cv_event_free(cl_event e) {
    cvcu_event_destroy(e->done);
    cvcu_event_destroy(e->start);
    free(e);
}

void cv_event_free_spares(cl_event list) {
    while (list) {
        cl_event next = list->tracker_next;
        cv_event_free(list);
        list = next;
    }
}

/* A command's event with its CUDA events, cleared, for the queue's spares: the next command's
 * event costs no allocation then (round trips create one per command). Every event of a queue
 * has its CUDA events (cv_event_spare). */
static bool cv_event_keep_spare(cl_event e) {
    cl_command_queue q = e->queue;
    if (!q)
        return false;
    cvcu_event *done = e->done, *start = e->start;
    bool timing = e->timing;
    memset(e, 0, sizeof *e);
    e->done = done;
    e->start = start;
    e->timing = timing;
    cv_queue_spare_put(q, e);
    return true;
}

static void cv_event_destroy(cv_object *obj) {
    cl_event e = (cl_event)obj;
    cl_command_queue q = e->queue;
    cl_context ctx = e->context;
    /* Left only when the command never reached the tracker (its enqueue failed). */
    cv_unhold_all(e, e->sources, e->num_sources, e->kept);
    for (cv_event_callback *c = e->callbacks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    if (e->is_user) {
        /* Never set: the commands that waited for it held it as a source until they ended, which
         * only a lost device makes them do without it. What the hooks hold goes too (a deferred
         * host-value wait: its host value, and so the context, that a recovery waits for), and
         * the gate opens, as at process exit: no stream of the lost context that the driver may
         * still keep stays blocked on it. */
        for (cv_user_hook *h = e->hooks, *next; h; h = next) {
            next = h->next;
            h->fn(h, CL_INVALID_EVENT);
        }
        e->hooks = NULL;
        if (e->slot && !cv_final(atomic_load(&e->status)))
            atomic_store_explicit(e->slot->host, 1, memory_order_release);
        cv_user_event_unlink(e);
        cvcu_slot_free(e->slot);
        e->slot = NULL;
    }
    /* A command that never completed may still hold its timing slot. */
    cvcu_ktime_put(e->ktime);
    e->ktime = NULL;
    /* Nothing locks e any more; a spare's mutex is made anew when it is used again. */
    pthread_mutex_destroy(&e->lock);
    /* Kept as a spare, e belongs to q from here on (and goes with it). */
    if (!cv_event_keep_spare(e))
        cv_event_free(e);
    if (q)
        cv_unhold(&q->obj);
    cv_context_unhold(ctx, q ? CV_PART_EVENT : CV_PART_USER_EVENT);
}

/* Fills a zeroed event (new or spare). */
static void cv_event_init(cl_event e, cl_context ctx, cl_command_queue q, cl_command_type type) {
    cv_object_init(&e->obj, CV_TAG_EVENT, cv_event_destroy);
    pthread_mutex_init(&e->lock, NULL);
    e->context = ctx;
    cv_context_hold(ctx, q ? CV_PART_EVENT : CV_PART_USER_EVENT);
    e->queue = q;
    if (q)
        cv_hold(&q->obj);
    e->type = type;
    atomic_init(&e->status, q ? CL_QUEUED : CL_SUBMITTED);
}

static cl_event cv_event_alloc(cl_context ctx, cl_command_queue q, cl_command_type type) {
    cl_event e = calloc(1, sizeof *e);
    if (e)
        cv_event_init(e, ctx, q, type);
    return e;
}

cl_event cv_event_spare(cl_command_queue q, bool timing, cl_int *err) {
    cv_cuda_events loose;
    cl_event e = cv_queue_spare_get(q, timing, &loose);
    *err = CL_SUCCESS;
    if (!e) {
        e = calloc(1, sizeof *e);
        *err = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    if (e && !e->done) {
        e->timing = timing;
        e->done = loose.done;
        e->start = loose.start;
        loose = (cv_cuda_events){NULL, NULL};
        if (!e->done)
            *err = cvcu_event_create(timing, &e->done);
        if (*err == CL_SUCCESS && timing && !e->start)
            *err = cvcu_event_create(true, &e->start);
    }
    /* Only where no memory was left for the new event. */
    if (loose.done && !cv_queue_loose_put(q, timing, loose)) {
        cvcu_event_destroy(loose.done);
        cvcu_event_destroy(loose.start);
    }
    if (*err != CL_SUCCESS && e) {
        cv_event_free(e);
        e = NULL;
    }
    return e;
}

/* The status known without a query: final, or complete where its stream drained past it (a
 * clFinish, or a wait on a later event of the stream, saw that far). e->lock held. */
static cl_int cv_event_known_locked(cl_event e) {
    cl_int s = atomic_load(&e->status);
    cl_command_queue q = e->queue;
    if (!cv_final(s) && q && e->seq && e->seq <= atomic_load(&q->drained[e->stream_index]))
        s = cv_event_settle_locked(e, s, CL_COMPLETE);
    return s;
}

bool cv_event_done_unreferenced(cl_event e) {
    if (cv_refcount(&e->obj) != 0 || e->is_user)
        return false;
    pthread_mutex_lock(&e->lock);
    bool done = cv_event_known_locked(e) == CL_COMPLETE && !e->callbacks;
    pthread_mutex_unlock(&e->lock);
    return done;
}

void cv_event_release(cl_event e) {
    if (!cv_release_last(&e->obj))
        return;
    /* The tracker lets go of a finished command's event at its next pass, up to a millisecond
     * later: until then a round trip per command would allocate an event and make CUDA events
     * per command. */
    cl_command_queue q = e->queue;
    if (q) {
        pthread_mutex_lock(&e->lock);
        cl_int s = cv_event_known_locked(e);
        /* Final, its CUDA events serve the queue's next command at once: nobody uses them any
         * more (status answers come from e->status; a GPU-side wait captured its record when it
         * was issued; no profiling query can come), even while later commands hold e as a
         * source. */
        if (e->done && cv_final(s) &&
            cv_queue_loose_put(q, e->timing, (cv_cuda_events){e->done, e->start})) {
            e->done = NULL;
            e->start = NULL;
            e->profiling = false;
        }
        pthread_mutex_unlock(&e->lock);
        /* Complete, and the commands before it on the tracker's list done as well (events are
         * mostly released in the order they were enqueued; batches of event-less commands
         * drain with their stream): their completion work is done here, with no callback to
         * call (each holds a reference) and no failure to report, and each goes back to its
         * queue now unless a later command still holds it. */
        if (s == CL_COMPLETE)
            cv_tracker_finish_taken(cv_tracker_take_done(e));
    }
    cv_unhold(&e->obj);
}

cl_event cv_event_create(cl_context ctx, cl_command_queue q, cl_command_type type, bool timing,
                         cl_int *err) {
    cl_event e = cv_event_spare(q, timing, err);
    if (e)
        cv_event_init(e, ctx, q, type);
    return e;
}

cl_event cv_user_event_create(cl_context ctx, cl_int *err) {
    cl_event e = cv_event_alloc(ctx, NULL, CL_COMMAND_USER);
    *err = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (e) {
        e->is_user = true;
        /* The slot that gates waiting commands on the GPU (pinned pages need a context). */
        *err = cvcu_device_bind(ctx->devices[0]->cu);
        if (*err == CL_SUCCESS)
            *err = cvcu_slot_alloc(ctx->devices[0]->cu, &e->slot);
    }
    if (*err == CL_SUCCESS) {
        pthread_mutex_lock(&cv_user_lock);
        e->user_next = cv_user_events;
        if (cv_user_events)
            cv_user_events->user_prev = e;
        cv_user_events = e;
        pthread_mutex_unlock(&cv_user_lock);
    }
    if (*err != CL_SUCCESS && e) {
        cv_release(&e->obj);
        e = NULL;
    }
    return e;
}

cl_int cv_user_event_set(cl_event e, cl_int status) {
    /* The gated commands wait on the GPU: the store that releases them comes before anything
     * else (locks, wakeups, callbacks follow while the GPU runs). Status first, then the slot,
     * with no lock between: a command the slot releases completes with its source's status
     * already final. Only this call sets a user event's status, once: the exchange from
     * CL_SUBMITTED is the spec's "already changed" test. An error status opens the gate too:
     * the waiting commands cannot be taken back from the streams, so they run and complete
     * with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST instead of blocking their queues
     * forever. The hold (one atomic add) comes first: a callback another thread registers
     * meanwhile may release the event on the tracker once the status is final. */
    cv_hold(&e->obj);
    cl_int was = CL_SUBMITTED;
    if (!atomic_compare_exchange_strong(&e->status, &was, status)) {
        cv_unhold(&e->obj);
        return CL_INVALID_OPERATION;
    }
    atomic_store_explicit(e->slot->host, 1, memory_order_release);
    /* Host waits for commands behind gates sleep: those the release may end spin again. */
    cv_wait_release(CV_WAIT_GATED);
    /* Host waiters (cv_event_wait) count themselves under the lock before they look at the
     * status: with none, there is nobody to wake. */
    if (atomic_load(&cv_user_waiters)) {
        pthread_mutex_lock(&cv_user_lock);
        pthread_cond_broadcast(&cv_user_cond);
        pthread_mutex_unlock(&cv_user_lock);
    }
    /* The tracker calls the callbacks; without any, waking it only competes with the gated
     * commands' waiters for the driver. A callback added from now on sees the final status
     * and notifies the tracker itself (cv_event_add_callback). */
    pthread_mutex_lock(&e->lock);
    bool callbacks = e->callbacks != NULL;
    cv_user_hook *hooks = e->hooks;
    e->hooks = NULL;
    pthread_mutex_unlock(&e->lock);
    if (callbacks)
        cv_tracker_notify(e);
    for (cv_user_hook *h = hooks, *next; h; h = next) {
        next = h->next;
        h->fn(h, status);
    }
    cv_unhold(&e->obj);
    return CL_SUCCESS;
}

bool cv_user_event_hook(cl_event e, cv_user_hook *h) {
    /* The status is set (cv_user_event_set) before it takes the hooks under the lock: a hook
     * added while the status is not final yet is run. */
    pthread_mutex_lock(&e->lock);
    bool added = atomic_load(&e->status) == CL_SUBMITTED;
    if (added) {
        h->next = e->hooks;
        e->hooks = h;
    }
    pthread_mutex_unlock(&e->lock);
    return added;
}

/* The status of a source of a command that completed: its own where it is final (a user event's
 * as it is). Otherwise it ran before the command on the GPU (stream order or a GPU-side wait), so
 * it completed too, where a failure is sticky and shows in the command's own query: what is left
 * is an enqueue failure, or a failed source of its own (an error status passed down a chain of
 * wait lists). Settled here as its own query would settle it, with no CUDA call: final, its
 * completion event serves again once it is released (cv_event_release). Sources are always older
 * events: the locks are taken newest first, as cv_event_status does. */
static cl_int cv_source_settle(cl_event src) {
    cl_int s = atomic_load(&src->status);
    if (cv_final(s) || src->is_user)
        return s;
    pthread_mutex_lock(&src->lock);
    s = atomic_load(&src->status);
    if (!cv_final(s))
        s = cv_event_settle_locked(src, s, CL_COMPLETE);
    pthread_mutex_unlock(&src->lock);
    return s;
}

/* The status after a query of e->done answered q; e->lock held, s the status before. */
static cl_int cv_event_settle_locked(cl_event e, cl_int s, cl_int q) {
    if (q == CL_SUBMITTED) {
        /* A timed kernel records no START event: it goes from CL_SUBMITTED to its end. */
        if (e->start && !e->ktime && s == CL_SUBMITTED && cvcu_event_query(e->start) == CL_COMPLETE)
            s = CL_RUNNING;
    } else if (q < 0) {
        s = q;
    } else if (e->enqueue_error) {
        s = e->enqueue_error;
    } else {
        s = CL_COMPLETE;
        /* "the execution status of any of the events in event_wait_list is a negative
         * integer value": the command's own status is an error too. */
        for (cl_uint i = 0; i < e->num_sources; i++)
            if (cv_source_settle(e->sources[i]) < 0)
                s = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        /* No timestamp of the command can be later than this. */
        if (e->profiling && !e->seen)
            e->seen = cvu_host_time_ns();
    }
    atomic_store(&e->status, s);
    return s;
}

cl_int cv_event_status(cl_event e) {
    cl_int s = atomic_load(&e->status);
    if (cv_final(s) || e->is_user || s == CL_QUEUED)
        return s;
    pthread_mutex_lock(&e->lock);
    s = atomic_load(&e->status);
    /* A device that cannot be bound is lost: the command never completes, its status is the
     * error (and what it holds can go: the GPU runs nothing more of the context). */
    if (!cv_final(s)) {
        cl_int bound = cvcu_device_bind(e->queue->device->cu);
        s = cv_event_settle_locked(e, s, bound == CL_SUCCESS ? cvcu_event_query(e->done) : bound);
    }
    pthread_mutex_unlock(&e->lock);
    return s;
}

cl_int cv_event_status_after(cl_event e, cl_int q) {
    pthread_mutex_lock(&e->lock);
    cl_int s = atomic_load(&e->status);
    if (!cv_final(s) && q != CL_SUBMITTED)
        s = cv_event_settle_locked(e, s, q);
    pthread_mutex_unlock(&e->lock);
    return s;
}

cl_int cv_event_wait(cl_event e) {
    cl_int s = atomic_load(&e->status);
    if (!cv_final(s) && e->is_user) {
        /* Counted before the status is read under the lock (cv_user_event_set). */
        pthread_mutex_lock(&cv_user_lock);
        atomic_fetch_add(&cv_user_waiters, 1);
        while (!cv_final(atomic_load(&e->status)))
            pthread_cond_wait(&cv_user_cond, &cv_user_lock);
        atomic_fetch_sub(&cv_user_waiters, 1);
        pthread_mutex_unlock(&cv_user_lock);
        s = atomic_load(&e->status);
    } else if (!cv_final(s)) {
        cl_command_queue cq = e->queue;
        unsigned i = e->stream_index;
        cl_int q = cvcu_device_bind(cq->device->cu);
        /* Where nothing was put on its stream behind the command, the GPU writes a flag right
         * after it, and the wait watches that instead of querying the CUDA event (over a
         * microsecond per query that answers done); otherwise the flag would wait for the later
         * work too, and the wait queries (core/wait.h). The query or flag that ended the wait
         * gives the status. */
        if (q == CL_SUCCESS) {
            cv_wait w = {.event = e->done,
                         .stream = e->stream,
                         .dev = cq->device->cu,
                         .key = e->wait_key,
                         .origin_ns = e->wait_origin_ns};
            pthread_mutex_lock(&cq->lock);
            /* Settled since the look above (the tracker saw it complete): nothing to wait for,
             * and no query to make. */
            cl_int now = atomic_load(&e->status);
            bool settled = cv_final(now);
            if (!settled && e->op && e->op == cq->ops[i])
                w.token = cv_queue_flag_locked(cq, i);
            w.flag = w.token ? cq->flag[i]->host : NULL;
            cv_queue_listen_locked(cq, i, &w);
            pthread_mutex_unlock(&cq->lock);
            q = settled ? now : cv_wait_run(&w);
        }
        s = cv_event_status_after(e, q);
        if (q == CL_COMPLETE && e->seq)
            cv_queue_drained(cq, i, e->seq);
        if (q == CL_COMPLETE)
            cv_queue_seen(cq, i, e->op);
        if (!cv_final(s))
            s = q < 0 ? q : CL_OUT_OF_RESOURCES;
    }
    /* printf's output is printed at a synchronization: the event is done, so this one returns
     * at once. */
    if (!e->is_user && e->queue && atomic_load(&e->queue->prints) && e->done &&
        cvcu_device_bind(e->queue->device->cu) == CL_SUCCESS)
        cvcu_event_sync(e->done);
    return s < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int cv_event_info(cl_event e, cl_event_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_EVENT_COMMAND_QUEUE:
        err = cv_info_ptr(out, e->queue);
        break;
    case CL_EVENT_CONTEXT:
        err = cv_info_ptr(out, e->context);
        break;
    case CL_EVENT_COMMAND_TYPE:
        err = cv_info_uint(out, e->type);
        break;
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
        err = cv_info_int(out, cv_event_status(e));
        break;
    case CL_EVENT_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&e->obj));
        break;
    case CL_EVENT_CUDA_EVENT_CULVERT:
        err = cv_info_ptr(out, e->done);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

/* START and END on the host clock: from the kernel's own times (timed kernels) or from the CUDA
 * events around the command. A timed kernel that left none (none should) gets START = END = the
 * moment its completion was first seen. */
static bool cv_event_device_times(cl_event e, cl_ulong *start, cl_ulong *end) {
    cvcu_device *dev = e->queue->device->cu;
    bool ok = false;
    if (e->ktime) {
        ok = cvcu_ktime_read(e->ktime, e->seen, start, end);
        cvcu_ktime_put(e->ktime);
        e->ktime = NULL;
        if (!ok && e->seen) {
            *start = *end = e->seen;
            ok = true;
        }
    } else {
        ok = cvcu_clock_host_ns(dev, e->start, start) == CL_SUCCESS &&
             cvcu_clock_host_ns(dev, e->done, end) == CL_SUCCESS;
    }
    return ok;
}

/* With e->lock held, once e completed: device timestamps onto the host clock. The order
 * QUEUED <= SUBMIT <= START <= END <= COMPLETE holds on the GPU; the host clock's mapping is off
 * by its anchor's window at most (microseconds), and cv_profile_bounds brings what it gets wrong
 * (a host so loaded that no narrow anchor was had) between SUBMIT and the moment the host first
 * saw the command complete, bounds no device timestamp can pass, moving START and END alike. */
static void cv_event_profile(cl_event e) {
    cl_ulong start = 0, end = 0;
    if (e->profiled || !e->profiling || atomic_load(&e->status) != CL_COMPLETE)
        return;
    if (cv_event_device_times(e, &start, &end)) {
        cv_profile_bounds(e->times[CV_T_SUBMIT], e->seen ? e->seen : cvu_host_time_ns(), &start,
                          &end);
        e->times[CV_T_START] = start;
        e->times[CV_T_END] = end;
        e->times[CV_T_COMPLETE] = end;
        e->profiled = true;
    }
}

cl_int cv_event_profiling_info(cl_event e, cl_profiling_info param, const cv_info *out) {
    cl_int err = CL_SUCCESS;
    int index = (int)param - CL_PROFILING_COMMAND_QUEUED;
    /* "CL_INVALID_VALUE if param_name is not valid" */
    if (index < 0 || index >= CV_T_COUNT)
        err = CL_INVALID_VALUE;
    /* "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for the
     * command-queue, if the execution status of the command identified by event is not
     * CL_COMPLETE or if event is a user event object." */
    else if (!e->profiling || cv_event_status(e) != CL_COMPLETE)
        err = CL_PROFILING_INFO_NOT_AVAILABLE;
    if (err == CL_SUCCESS) {
        pthread_mutex_lock(&e->lock);
        cv_event_profile(e);
        cl_ulong t = e->times[index];
        err = e->profiled ? CL_SUCCESS : CL_PROFILING_INFO_NOT_AVAILABLE;
        pthread_mutex_unlock(&e->lock);
        if (err == CL_SUCCESS)
            err = cv_info_ulong(out, t);
    }
    return err;
}

cl_int cv_event_add_callback(cl_event e, cl_int type, cv_event_callback_fn fn, void *user_data) {
    cv_event_callback *cb = calloc(1, sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->fn = fn;
    cb->user_data = user_data;
    cb->type = type;
    /* A pending callback keeps the event a valid handle (the application often releases it right
     * after registering and queries it inside the callback). */
    cv_retain(&e->obj);
    /* Once the lock is dropped the tracker may call the new callback, which may release the
     * event's last reference: this call holds it until its end. */
    cv_hold(&e->obj);
    pthread_mutex_lock(&e->lock);
    /* Kept sorted by type, SUBMITTED (2) before RUNNING (1) before COMPLETE (0), and in the
     * order of registration within a type. */
    cv_event_callback **at = &e->callbacks;
    while (*at && (*at)->type >= type)
        at = &(*at)->next;
    cb->next = *at;
    *at = cb;
    bool reached = atomic_load(&e->status) <= type;
    pthread_mutex_unlock(&e->lock);
    /* Reached already: the tracker calls it soon, on its thread, never on the caller's. Not yet:
     * the tracker polls quickly from now on (user events are set through cv_user_event_set). */
    if (reached)
        cv_tracker_notify(e);
    else if (!e->is_user)
        cv_tracker_hurry_up();
    cv_unhold(&e->obj);
    return CL_SUCCESS;
}

void cv_event_fire_callbacks(cl_event e) {
    cv_event_callback *due = NULL, **tail = &due;
    pthread_mutex_lock(&e->lock);
    cl_int s = atomic_load(&e->status);
    for (cv_event_callback **at = &e->callbacks; *at;) {
        cv_event_callback *c = *at;
        if (s <= c->type) {
            *at = c->next;
            c->next = NULL;
            *tail = c;
            tail = &c->next;
        } else {
            at = &c->next;
        }
    }
    pthread_mutex_unlock(&e->lock);
    while (due) {
        cv_event_callback *next = due->next;
        /* "the execution status ... or an error code if the command terminated abnormally" */
        due->fn(e, s < 0 ? s : due->type, due->user_data);
        free(due);
        cv_release(&e->obj);
        due = next;
    }
}

void cv_event_complete(cl_event e) {
    pthread_mutex_lock(&e->lock);
    cv_event_profile(e);
    /* A timed kernel that failed: nothing to read. */
    cvcu_ktime_put(e->ktime);
    e->ktime = NULL;
    cl_event *sources = e->sources;
    cl_uint n = e->num_sources;
    cv_kept *kept = e->kept;
    e->sources = NULL;
    e->num_sources = 0;
    e->kept = NULL;
    cl_int s = atomic_load(&e->status);
    bool report = s < 0 && s != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST &&
                  !e->failure_reported && !e->is_user && !e->enqueue_error;
    e->failure_reported |= report;
    pthread_mutex_unlock(&e->lock);
    if (report)
        cv_context_notify(e->context, "culvert: a command failed on the GPU (see its event's "
                                      "CL_EVENT_COMMAND_EXECUTION_STATUS)");
    cv_unhold_all(e, sources, n, kept);
    cv_event_fire_callbacks(e);
}

cl_int cv_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list) {
    cl_int err = CL_SUCCESS;
    if ((list == NULL) != (n == 0))
        err = CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; err == CL_SUCCESS && i < n; i++) {
        if (!cv_is_event(list[i]))
            err = CL_INVALID_EVENT_WAIT_LIST;
        else if (ctx && list[i]->context != ctx)
            err = CL_INVALID_CONTEXT;
    }
    return err;
}
