#include "core/command.h"
#include "core/platform.h"
#include "core/tracker.h"
#include "core/backend.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>

static bool cv_command_is_sync_point(const cv_command *cmd) {
    return cmd->type == CL_COMMAND_MARKER || cmd->type == CL_COMMAND_BARRIER;
}

/* The GPU-side wait for one event of the wait list. */
static cl_int cv_command_wait_on(cv_command *cmd, cl_event w) {
    cl_int err = CL_SUCCESS;
    /* The status known without a query (a query costs over a microsecond; a GPU-side wait for
     * an event that is complete already costs a tenth of that). */
    cl_int s = atomic_load(&w->status);
    if (s == CL_COMPLETE)
        return CL_SUCCESS;
    if (w->is_user && s > CL_COMPLETE) {
        cv_command_mark(cmd, CV_WAIT_GATED);
        err = cvcu_stream_wait_value(cmd->stream, w->slot, 1, CVCU_WAIT_GEQ, NULL);
    }
    /* Commands of this very stream are ordered by it already. */
    else if (!w->is_user && s > CL_COMPLETE && w->stream != cmd->stream) {
        cv_command_mark(cmd, CV_WAIT_CROSS);
        err = cvcu_stream_wait_event(cmd->stream, w->done);
    }
    if (err == CL_SUCCESS) {
        cv_hold(&w->obj);
        cmd->sources[cmd->num_sources++] = w;
    }
    return err;
}

static cl_int cv_command_need_event(cv_command *cmd, bool timing) {
    cl_int err = CL_SUCCESS;
    if (!cmd->event)
        cmd->event = cv_event_create(cmd->queue->context, cmd->queue, cmd->type, timing, &err);
    if (cmd->event && cmd->num_sources) {
        cl_event e = cmd->event;
        if (cmd->sources == cmd->sources_small) {
            memcpy(e->sources_inline, cmd->sources_small, sizeof e->sources_inline);
            e->sources = e->sources_inline;
        } else {
            e->sources = cmd->sources;
        }
        e->num_sources = cmd->num_sources;
        cmd->sources = NULL;
        cmd->num_sources = 0;
    }
    return err;
}

static void cv_command_drop(cv_command *cmd) {
    for (cl_uint i = 0; i < cmd->num_sources; i++)
        cv_unhold(&cmd->sources[i]->obj);
    if (cmd->sources != cmd->sources_small)
        free(cmd->sources);
    cmd->sources = NULL;
    cmd->num_sources = 0;
    if (cmd->event)
        cv_release(&cmd->event->obj);
    cmd->event = NULL;
    if (cmd->locked)
        pthread_mutex_unlock(&cmd->queue->lock);
    cmd->locked = false;
}

cl_int cv_command_begin(cv_command *cmd, cl_command_queue q, cl_command_type type, cl_uint num_wait,
                        const cl_event *wait_list, cl_event *event_ret) {
    return cv_command_begin_kernel(cmd, q, type, num_wait, wait_list, event_ret, false);
}

cl_int cv_command_begin_kernel(cv_command *cmd, cl_command_queue q, cl_command_type type,
                               cl_uint num_wait, const cl_event *wait_list, cl_event *event_ret,
                               bool timable) {
    cl_int err = CL_SUCCESS;
    memset(cmd, 0, sizeof *cmd);
    cmd->queue = q;
    cmd->type = type;
    cmd->num_wait = num_wait;
    bool profile = false;
    cl_ulong queued = 0;
    if (num_wait) {
        cmd->sources = num_wait <= CV_EVENT_INLINE_SOURCES
                           ? cmd->sources_small
                           : malloc(num_wait * sizeof *cmd->sources);
        err = cmd->sources ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS) {
        pthread_mutex_lock(&q->lock);
        cmd->locked = true;
        profile = event_ret && (q->properties & CL_QUEUE_PROFILING_ENABLE);
        /* QUEUED: the properties change only under the lock, so it is taken here. */
        queued = profile ? cvu_host_time_ns() : 0;
        err = cvcu_device_bind(q->device->cu);
    }
    if (err == CL_SUCCESS)
        cmd->stream = cv_queue_next_stream(q);
    /* A marker or barrier without a wait list waits for every command before it: on an
     * out-of-order queue, for the work of all its streams. */
    if (err == CL_SUCCESS && cv_command_is_sync_point(cmd) && num_wait == 0)
        err = cv_queue_join_into(q, cmd->stream);
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_wait; i++)
        err = cv_command_wait_on(cmd, wait_list[i]);
    bool fence = cmd->type == CL_COMMAND_BARRIER && cv_queue_ooo(q);
    /* The kernel records its own START and END: no CUDA timing event before or after it (a
     * timing event pair costs the GPU microseconds per command; COMPLETE is END). */
    struct cvcu_ktime *ktime =
        err == CL_SUCCESS && profile && timable ? cvcu_ktime_get(q->device->cu) : NULL;
    if (err == CL_SUCCESS && (event_ret || cmd->num_sources || fence))
        err = cv_command_need_event(cmd, profile && !ktime);
    if (err == CL_SUCCESS && ktime) {
        cmd->ktime = cmd->event->ktime = ktime;
        ktime = NULL;
    }
    cvcu_ktime_put(ktime);
    if (err == CL_SUCCESS && profile) {
        cmd->event->profiling = true;
        cmd->event->times[CV_T_QUEUED] = queued;
        cmd->event->times[CV_T_SUBMIT] = cvu_host_time_ns();
        if (!cmd->ktime)
            err = cvcu_event_record(cmd->event->start, cmd->stream);
    }
    if (err != CL_SUCCESS)
        cv_command_drop(cmd);
    return err;
}

/* Holds of commands that need no event of their own gather in their stream's batch, a
 * cl_event recorded after CV_BATCH_COMMANDS such commands (earlier when a command with its own
 * event takes the batch over, at a blocking command, flush, finish or queue release): one CUDA
 * event record and one tracked event per batch instead of per command. A stream completes in
 * order, so the batch's event completing means every command in it finished. q->lock held. */
#define CV_BATCH_COMMANDS 32
/* How many of the batch's newest holds a keep looks through for the same object. */
#define CV_BATCH_LOOKBACK 16

unsigned cv_command_stream_index(const cv_command *cmd) {
    unsigned i = 0;
    while (i + 1 < CV_QUEUE_MAX_STREAMS && cmd->queue->streams[i] != cmd->stream)
        i++;
    return i;
}

void cv_command_mark(cv_command *cmd, unsigned what) {
    cv_queue_mark_locked(cmd->queue, cv_command_stream_index(cmd), what);
}

/* Records batch b behind stream i's commands; the caller tracks it (after dropping q->lock). */
static cl_int cv_command_batch_submit(cl_command_queue q, unsigned i, cl_event b) {
    cl_int err = cvcu_event_record(b->done, q->streams[i]);
    if (err == CL_SUCCESS) {
        b->stream = q->streams[i];
        b->stream_index = i;
        b->seq = ++q->recorded[i];
        atomic_store(&b->status, CL_SUBMITTED);
    }
    return err;
}

/* Takes stream i's batch off the queue. */
static cl_event cv_command_batch_take(cl_command_queue q, unsigned i) {
    cl_event b = q->batch[i];
    q->batch[i] = NULL;
    q->batch_commands[i] = 0;
    return b;
}

static void cv_command_batch_track(cl_event b) {
    if (b) {
        cv_tracker_track(b);
        cv_release(&b->obj);
    }
}

/* A batch that cannot be recorded on a lost device: its commands never complete (the GPU runs
 * nothing more of the context), so their holds go now, with the error as the batch's status.
 * Anywhere else an unrecorded batch keeps its holds (a leak, never a use after free). */
static void cv_command_batch_abandon(cl_event b) {
    if (b) {
        b->enqueue_error = CL_OUT_OF_RESOURCES; /* reported with the device's loss, not here */
        atomic_store(&b->status, CL_OUT_OF_RESOURCES);
        cv_event_complete(b);
        cv_release(&b->obj);
    }
}

cl_int cv_command_flush_batches(cl_command_queue q) {
    cl_event done[CV_QUEUE_MAX_STREAMS] = {0}, lost[CV_QUEUE_MAX_STREAMS] = {0};
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&q->lock);
    for (unsigned i = 0; i < CV_QUEUE_MAX_STREAMS; i++) {
        if (!q->batch[i])
            continue;
        cl_int e = err == CL_SUCCESS ? cvcu_device_bind(q->device->cu) : err;
        if (e == CL_SUCCESS)
            e = cv_command_batch_submit(q, i, q->batch[i]);
        if (e == CL_SUCCESS)
            done[i] = cv_command_batch_take(q, i);
        else if (cvcu_device_lost(q->device->cu))
            lost[i] = cv_command_batch_take(q, i);
        err = err == CL_SUCCESS ? e : err;
    }
    pthread_mutex_unlock(&q->lock);
    for (unsigned i = 0; i < CV_QUEUE_MAX_STREAMS; i++) {
        cv_command_batch_track(done[i]);
        cv_command_batch_abandon(lost[i]);
    }
    return err;
}

void cv_command_take_batches(cl_command_queue q, unsigned n, cl_event *done) {
    pthread_mutex_lock(&q->lock);
    for (unsigned i = 0; i < n && i < CV_QUEUE_MAX_STREAMS; i++)
        done[i] = cv_command_batch_take(q, i);
    pthread_mutex_unlock(&q->lock);
}

void cv_command_finish_taken(cl_command_queue q, cl_event *done, unsigned n, unsigned drained) {
    for (unsigned i = 0; i < n; i++) {
        cl_event b = done[i];
        done[i] = NULL;
        if (!b)
            continue;
        if (i < drained) {
            atomic_store(&b->status, CL_COMPLETE);
            cv_event_complete(b);
            cv_release(&b->obj);
            continue;
        }
        /* Not known to be done: recorded now, behind its commands, and tracked, as a flush
         * would; a batch begun meanwhile stays the stream's current one. If the record fails
         * too, the batch is left alone: its holds stay (a leak, never a use after free), unless
         * the device is lost. */
        pthread_mutex_lock(&q->lock);
        bool recorded = cvcu_device_bind(q->device->cu) == CL_SUCCESS &&
                        cv_command_batch_submit(q, i, b) == CL_SUCCESS;
        pthread_mutex_unlock(&q->lock);
        cv_command_batch_track(recorded ? b : NULL);
        if (!recorded && cvcu_device_lost(q->device->cu))
            cv_command_batch_abandon(b);
    }
}

/* Is obj among the last few holds of the batch? One hold per object and batch is enough. */
static bool cv_command_batch_has(cl_event b, const cv_object *obj) {
    int n = 0;
    for (const cv_kept *k = b->kept; k && n < CV_BATCH_LOOKBACK; k = k->next, n++)
        if (k->obj == obj)
            return true;
    return false;
}

cl_int cv_command_keep(cv_command *cmd, cv_object *obj) {
    cl_command_queue q = cmd->queue;
    cl_int err = CL_SUCCESS;
    cl_event carrier = cmd->event;
    bool held = false;
    if (!carrier) {
        unsigned i = cv_command_stream_index(cmd);
        if (!q->batch[i])
            q->batch[i] = cv_event_create(q->context, q, cmd->type, false, &err);
        carrier = q->batch[i];
        held = err == CL_SUCCESS && cv_command_batch_has(carrier, obj);
    }
    cv_kept *k = err == CL_SUCCESS && !held ? malloc(sizeof *k) : NULL;
    if (err == CL_SUCCESS && !held && !k)
        err = CL_OUT_OF_HOST_MEMORY;
    if (k) {
        cv_hold(obj);
        k->obj = obj;
        k->next = carrier->kept;
        carrier->kept = k;
    }
    return err;
}

cl_int cv_command_end(cv_command *cmd, cl_int status, bool blocking, cl_event *event_ret) {
    cl_int err = status;
    cl_event e = cmd->event;
    cl_command_queue q = cmd->queue;
    unsigned bi = cv_command_stream_index(cmd);
    cl_event batch = q->batch[bi], batch_done = NULL;
    bool failed = err != CL_SUCCESS;
    /* Counted even when it failed: its GPU-side waits may be in the stream. */
    q->ops[bi]++;
    /* The history of host waits knows kernels; markers and barriers end where the work before
     * them ends. */
    if (cmd->wait_key || !cv_command_is_sync_point(cmd)) {
        q->last_key[bi] = cmd->wait_key;
        /* Not read for kernels known to be short: every enqueue would pay for it (the wait
         * clock, which sandboxes such as gVisor serve without a system call). */
        q->last_key_ns[bi] =
            cmd->wait_key && cv_wait_wants_origin(cmd->wait_key) ? cvu_wait_time_ns() : 0;
    }
    /* When putting the work on the stream failed, GPU-side waits for the wait list may be in the
     * stream already: the event is still recorded and tracked (with the error as its status once
     * the stream passed it), so the user events whose slots those waits read outlive them. */
    if (e && (!failed || e->num_sources)) {
        cl_int recorded = cvcu_event_record(e->done, cmd->stream);
        e->stream = cmd->stream;
        e->stream_index = bi;
        e->seq = recorded == CL_SUCCESS ? ++q->recorded[bi] : 0;
        e->op = q->ops[bi];
        e->wait_key = q->last_key[bi];
        e->wait_origin_ns = q->last_key_ns[bi];
        if (!failed)
            err = recorded;
        else if (recorded == CL_SUCCESS) {
            e->enqueue_error = err;
            atomic_store(&e->status, CL_SUBMITTED);
            cv_tracker_track(e);
        }
    }
    /* A barrier holds back everything after it: the other streams wait for it. */
    if (err == CL_SUCCESS && e && cmd->type == CL_COMMAND_BARRIER)
        err = cv_queue_fence_from(q, cmd->stream, e->done);
    if (err != CL_SUCCESS) {
        cv_command_drop(cmd);
        return err;
    }
    if (e && batch) {
        /* This command's event completes after the batched commands before it: it takes
         * their holds over, and the batch's event is not needed. */
        cv_kept **tail = &e->kept;
        while (*tail)
            tail = &(*tail)->next;
        *tail = batch->kept;
        batch->kept = NULL;
        cv_command_batch_take(q, bi);
        cv_release(&batch->obj);
    } else if (batch && (blocking || ++q->batch_commands[bi] >= CV_BATCH_COMMANDS)) {
        /* A failed record leaves the batch to a later command, flush or finish. */
        if (cv_command_batch_submit(q, bi, batch) == CL_SUCCESS)
            batch_done = cv_command_batch_take(q, bi);
    }
    /* Tracked under the queue's lock: the tracker sees a stream's commands in stream order. */
    cv_command_batch_track(batch_done);
    if (e) {
        atomic_store(&e->status, CL_SUBMITTED);
        cv_tracker_track(e);
    }
    pthread_mutex_unlock(&q->lock);
    cmd->locked = false;
    if (blocking)
        err = e ? cv_event_wait(e) : cv_queue_wait_stream(q, bi, false);
    if (e && err == CL_SUCCESS && event_ret)
        *event_ret = e;
    else if (e)
        cv_event_release(e);
    cmd->event = NULL;
    return err;
}
