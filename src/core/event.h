/* cl_event: the state of one command (or a user event). A command's event is backed by CUDA
 * events recorded around the command (kept with it when it goes back to its queue as a spare); its
 * status, callbacks and the release of what the command holds advance in the background
 * (core/tracker.c). */
#ifndef CV_CORE_EVENT_H
#define CV_CORE_EVENT_H

#include "core/context.h"

typedef void(CL_CALLBACK *cv_event_callback_fn)(cl_event, cl_int, void *);

typedef struct cv_event_callback {
    cv_event_callback_fn fn;
    void *user_data;
    cl_int type; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    struct cv_event_callback *next;
} cv_event_callback;

typedef struct cv_kept {
    cv_object *obj;
    struct cv_kept *next;
} cv_kept;

/* Work that follows a user event's status: run by cv_user_event_set on the setter's thread,
 * right after the gated commands were released, with the status set; or, for an event never set,
 * when it goes, with CL_INVALID_EVENT (the commands whose wait lists hold it ended without it:
 * their device was lost). */
typedef struct cv_user_hook {
    void (*fn)(struct cv_user_hook *h, cl_int status);
    void *arg;
    struct cv_user_hook *next;
} cv_user_hook;

/* Wait lists this long need no allocation (the usual one or two events). */
#define CV_EVENT_INLINE_SOURCES 2

/* Profiling timestamps, in the order of CL_PROFILING_COMMAND_QUEUED..COMPLETE. */
enum { CV_T_QUEUED, CV_T_SUBMIT, CV_T_START, CV_T_END, CV_T_COMPLETE, CV_T_COUNT };

struct _cl_event {
    cv_object obj;
    cl_context context;
    cl_command_queue queue; /* NULL for user events */
    cl_command_type type;
    _Atomic cl_int status;      /* the last status seen; CL_COMPLETE or negative are final */
    struct cvcu_event *done;    /* recorded after the command; NULL for user events */
    struct cvcu_stream *stream; /* where done was recorded */
    struct cvcu_event *start;   /* profiled commands: recorded before the command */
    struct cvcu_ktime *ktime;   /* timed kernels: START and END come from here, not start */
    bool timing;                /* done is a timing event (the END timestamp) */
    bool profiling;             /* a command of a profiling queue: times[] come once complete */
    cl_int enqueue_error; /* the command never reached the stream: its status once done passed */
    pthread_mutex_t lock; /* guards what follows */
    /* Events of the wait list not complete at enqueue (held): their error becomes ours, and
     * user events stay alive (their slot gates this command on the GPU) until we complete. */
    cl_event *sources; /* sources_inline, or allocated for longer wait lists */
    cl_uint num_sources;
    cl_event sources_inline[CV_EVENT_INLINE_SOURCES];
    cv_kept *kept;                /* held until the command completed */
    cv_event_callback *callbacks; /* not called yet; SUBMITTED first, then RUNNING, COMPLETE */
    bool profiled;                /* times[] are final */
    cl_ulong times[CV_T_COUNT];
    cl_ulong seen; /* profiled commands: host time the status was first seen CL_COMPLETE */
    bool is_user;
    cl_event user_prev, user_next; /* user events: the live ones, for process exit */
    struct cvcu_slot *slot;        /* user events: holds 0, then 1 once a status was set */
    cv_user_hook *hooks;           /* user events: run once the status is set */
    cl_event tracker_next;         /* the tracker's lists */
    uint64_t seq;                  /* done's number on its stream (queue.h: recorded) */
    unsigned stream_index;         /* of stream in its queue */
    uint64_t op;                   /* the queue's ops[stream_index] after this command */
    uint64_t wait_key;             /* the kernel the command ends with (core/wait.h), or 0 */
    uint64_t wait_origin_ns;       /* when that kernel was enqueued (cvu_wait_time_ns) */
    bool failure_reported;         /* the context's notify callback was called */
};

static inline bool cv_is_event(const void *h) {
    return cv_object_valid(h, CV_TAG_EVENT);
}

/* A dead event of q with its CUDA events (timing ones and a start event for profiling): a spare
 * of q, or a new one (the device bound). Back with cv_queue_spare_put. Also where a host wait
 * needs a completion event of its own. */
cl_event cv_event_spare(cl_command_queue q, bool timing, cl_int *err);
/* A command's event, status CL_QUEUED, from cv_event_spare (device bound). */
cl_event cv_event_create(cl_context ctx, cl_command_queue q, cl_command_type type, bool timing,
                         cl_int *err);
cl_event cv_user_event_create(cl_context ctx, cl_int *err);
/* Drops an application reference (clReleaseEvent). With the last one, a finished command's CUDA
 * events go back to its queue at once; the cl_event too when it is complete and the tracker's
 * commands before it are done (cv_tracker_take_done), else when the tracker lets go of it. */
void cv_event_release(cl_event e);
/* clSetUserEventStatus: CL_INVALID_OPERATION once a status was set. */
cl_int cv_user_event_set(cl_event e, cl_int status);
/* Adds h (owned by the caller until it runs) to user event e; false, and h not added, when e's
 * status was set already. */
bool cv_user_event_hook(cl_event e, cv_user_hook *h);
/* Process exit: opens the GPU gates of user events never set, so no stream stays blocked on one
 * while the CUDA driver tears the context down. */
void cv_user_events_open_gates(void);
/* Frees a destroyed queue's spare events (a list through tracker_next) with their CUDA events;
 * the device is bound. */
void cv_event_free_spares(cl_event list);
/* Current execution status, without blocking (queries CUDA). */
cl_int cv_event_status(cl_event e);
/* The status once a query of e->done, or of a later command of its stream, answered q
 * (CL_COMPLETE or an error; CL_SUBMITTED changes nothing): no query of its own. */
cl_int cv_event_status_after(cl_event e, cl_int q);
/* Blocks until e is final; CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it failed. */
cl_int cv_event_wait(cl_event e);
cl_int cv_event_info(cl_event e, cl_event_info param, const cv_info *out);
cl_int cv_event_profiling_info(cl_event e, cl_profiling_info param, const cv_info *out);
cl_int cv_event_add_callback(cl_event e, cl_int type, cv_event_callback_fn fn, void *user_data);
/* Called (by the tracker) once e is final: timestamps, releases, error report, callbacks. */
void cv_event_complete(cl_event e);
/* e is complete (known without a query: final, or its stream drained past it) and nothing but
 * culvert refers to it (no application reference, so no callback): its completion work may be
 * done by any thread. Settles its status where it was not final yet. */
bool cv_event_done_unreferenced(cl_event e);
/* Calls the callbacks whose status was reached (tracker thread). */
void cv_event_fire_callbacks(cl_event e);

/* "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0, or
 * event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
 * event_wait_list are not valid events." / "CL_INVALID_CONTEXT if the context associated with
 * command_queue and events in event_wait_list are not the same." */
cl_int cv_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);

#endif
