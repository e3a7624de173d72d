/* cl_command_queue: an in-order queue is one CUDA stream; an out-of-order queue spreads its
 * commands over several streams, ordered only by wait lists, markers and barriers. */
#ifndef CV_CORE_QUEUE_H
#define CV_CORE_QUEUE_H

#include "core/context.h"
#include "core/wait.h"

/* The CUDA events of one command's event: done recorded after it, start before it (profiling
 * only). */
typedef struct cv_cuda_events {
    struct cvcu_event *done, *start;
} cv_cuda_events;

/* A growable stack of them. */
typedef struct cv_cuda_events_stack {
    cv_cuda_events *items;
    unsigned num, cap;
} cv_cuda_events_stack;

#define CV_QUEUE_MAX_STREAMS 8
/* Streams of an out-of-order queue (CULVERT_OOO_STREAMS overrides, 1..8). */
#define CV_QUEUE_OOO_STREAMS 4

struct _cl_command_queue {
    cv_object obj;
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties properties; /* changes only under lock */
    cl_queue_properties *property_list;     /* as given, 0-terminated; NULL if none were */
    size_t num_properties;
    struct cvcu_stream *stream; /* streams[0] */
    struct cvcu_stream *streams[CV_QUEUE_MAX_STREAMS];
    unsigned num_streams; /* created; an in-order queue uses streams[0] only */
    unsigned next_stream; /* round robin of an out-of-order queue */
    bool foreign;         /* streams[0] is the application's (CL_QUEUE_CUDA_STREAM_CULVERT) */
    int priority;         /* CUDA stream priority */
    cl_queue_priority_khr priority_hint;
    cl_queue_throttle_khr throttle_hint;
    /* Events that make one stream wait for another (scratch: a wait captures the event's state
     * when it is issued, so they are re-recorded at once). */
    struct cvcu_event *join[CV_QUEUE_MAX_STREAMS];
    pthread_mutex_t lock; /* orders enqueues from several host threads */
    /* Under spare_lock: events of finished commands kept for the next ones, with their CUDA
     * events (index: timing or not; a completion event may have gone loose, below), linked
     * through tracker_next. They hold nothing. As many as were ever finished and not yet used
     * again: no CUDA event is made twice for a queue. */
    pthread_mutex_t spare_lock;
    cl_event spares[2];
    /* Under spare_lock: the CUDA events that released, finished events gave back before the
     * tracker let go of their cl_event (cv_event_release), per kind as spares; spares without
     * theirs take these before new CUDA events are made. */
    cv_cuda_events_stack loose[2];
    /* Per stream: the completion events recorded on it are numbered (under lock); every one up
     * to drained is known finished (a clFinish or an event wait saw it), so a released event
     * there is final without a query. */
    uint64_t recorded[CV_QUEUE_MAX_STREAMS];
    _Atomic uint64_t drained[CV_QUEUE_MAX_STREAMS];
    /* Per stream, under lock: how many commands were put on it (and the GPU-side waits other
     * streams' barriers put there): an event whose op is the stream's last has nothing behind
     * it, so a flag written now lands right after it. */
    uint64_t ops[CV_QUEUE_MAX_STREAMS];
    /* Per stream: a slot in mapped pinned memory (NULL where none could be had) that host
     * waits have the GPU write, behind the work they wait for, instead of asking the driver
     * (cuEventQuery on a finished event costs ~1.5 us on the H100). The tokens written grow
     * (flag_token, the last issued, under lock), and the stream writes them in order. */
    struct cvcu_slot *flag[CV_QUEUE_MAX_STREAMS];
    uint64_t flag_token[CV_QUEUE_MAX_STREAMS];
    /* Per stream, for host waits (core/wait.h), under lock: the kernel the stream's work ends
     * with (its history predicts a wait's length; 0: not a kernel) and when that kernel was
     * enqueued (host ns: the history measures from there), and the op counts of the
     * last command held up by a gate (a user event, a host value wait) and by a wait for
     * another stream's event. seen: every op up to it is known done (a wait saw it). */
    uint64_t last_key[CV_QUEUE_MAX_STREAMS],
        last_key_ns[CV_QUEUE_MAX_STREAMS]; /* cvu_wait_time_ns */
    uint64_t gate_op[CV_QUEUE_MAX_STREAMS], cross_op[CV_QUEUE_MAX_STREAMS];
    _Atomic uint64_t seen_op[CV_QUEUE_MAX_STREAMS];
    /* cv_wait_releases when the oldest of those not known done was marked: a release since then
     * may have opened it, whether or not a wait was asleep to be woken. */
    uint64_t mark_releases[CV_QUEUE_MAX_STREAMS][2];
    /* Per stream, under lock: the holds of recent commands without events of their own, and
     * how many commands they are (core/command.c). */
    cl_event batch[CV_QUEUE_MAX_STREAMS];
    unsigned batch_commands[CV_QUEUE_MAX_STREAMS];
    /* A kernel that calls printf ran here: its output reaches stdout at a CUDA synchronization
     * (cuStreamSynchronize, cuEventSynchronize), so completed waits make one. */
    _Atomic bool prints;
};

static inline bool cv_is_queue(const void *h) {
    return cv_object_valid(h, CV_TAG_QUEUE);
}

static inline bool cv_queue_ooo(cl_command_queue q) {
    return (q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

typedef struct cv_queue_config {
    cl_command_queue_properties properties;
    cl_queue_priority_khr priority_hint; /* 0: none given (medium) */
    cl_queue_throttle_khr throttle_hint;
    void *foreign_stream; /* CL_QUEUE_CUDA_STREAM_CULVERT, or NULL */
} cv_queue_config;

cl_command_queue cv_queue_create(cl_context ctx, cl_device_id dev, const cv_queue_config *cfg,
                                 const cl_queue_properties *list, size_t list_len, cl_int *err);
cl_int cv_queue_info(cl_command_queue q, cl_command_queue_info param, const cv_info *out);
/* Waits for every command of every stream (core/wait.h). */
cl_int cv_queue_finish(cl_command_queue q);
cl_int cv_queue_flush(cl_command_queue q);
/* clSetCommandQueueProperty: finishes the queue's work first, then changes the properties. */
cl_int cv_queue_set_properties(cl_command_queue q, cl_command_queue_properties props,
                               cl_bool enable, cl_command_queue_properties *old);

/* With q->lock held and the device bound: the stream of the next command. */
struct cvcu_stream *cv_queue_next_stream(cl_command_queue q);
/* With q->lock held: stream s waits (on the GPU) for all work of the queue's other streams. */
cl_int cv_queue_join_into(cl_command_queue q, struct cvcu_stream *s);
/* With q->lock held: every other stream waits for ev (recorded on s) before its next command. */
cl_int cv_queue_fence_from(cl_command_queue q, struct cvcu_stream *s, struct cvcu_event *ev);
/* With q->lock held and the device bound: the GPU writes a new token into stream i's flag once
 * everything put on the stream so far is done. Returns the token, or 0 where no flag could be
 * written (no slot, or the write failed): the wait polls the driver then. */
uint64_t cv_queue_flag_locked(cl_command_queue q, unsigned i);
/* With q->lock held and the device bound: fills w to wait for everything put on stream i so
 * far: a flag written now, or, where there is none, a spare event recorded now (*scratch, given
 * back by cv_queue_wait_done), asked by the wait. Returns the op count the wait covers. */
uint64_t cv_queue_wait_prepare_locked(cl_command_queue q, unsigned i, cv_wait *w,
                                      cl_event *scratch);
/* After cv_wait_run(w) answered r: gives the scratch event back and notes stream i done up to
 * upto where r is CL_COMPLETE. Returns r. */
cl_int cv_queue_wait_done(cl_command_queue q, unsigned i, cl_event scratch, uint64_t upto,
                          cl_int r);
/* Blocks until the work put on stream i so far is done (core/wait.h); locked: the caller holds
 * q->lock. */
cl_int cv_queue_wait_stream(cl_command_queue q, unsigned i, bool locked);
/* With q->lock held, before the GPU-side wait is enqueued: the next command of stream i waits
 * for what `what` says (CV_WAIT_GATED: a gate; CV_WAIT_CROSS: another stream's event), so host
 * waits behind it listen for releases. */
void cv_queue_mark_locked(cl_command_queue q, unsigned i, unsigned what);
/* With q->lock held: w listens for what may hold up the work of stream i not known done
 * (w->opened_by, w->releases). */
void cv_queue_listen_locked(cl_command_queue q, unsigned i, cv_wait *w);
/* Stream i is known done up to op count `op`. */
void cv_queue_seen(cl_command_queue q, unsigned i, uint64_t op);

/* A spare event of q (CUDA events attached, timing ones for profiling), or NULL. Where it has no
 * CUDA events (or there is no spare), *loose receives loose ones of the kind, if any (else
 * zeroed). */
cl_event cv_queue_spare_get(cl_command_queue q, bool timing, cv_cuda_events *loose);
/* Keeps a finished command's CUDA events (of the kind `timing`) for the queue's next commands;
 * false without memory for them (the caller keeps them). */
bool cv_queue_loose_put(cl_command_queue q, bool timing, cv_cuda_events ev);
/* Stream i of q finished every completion event numbered up to seq. */
void cv_queue_drained(cl_command_queue q, unsigned i, uint64_t seq);
/* Keeps a dead event (nothing held, tag dead, mutex destroyed) as a spare. */
void cv_queue_spare_put(cl_command_queue q, cl_event e);

#endif
