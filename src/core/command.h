/* How every enqueue runs: begin (GPU-side waits for the wait list), put the work on
 * cmd.stream, end (record completion, hand out the event, block if asked). */
#ifndef CV_CORE_COMMAND_H
#define CV_CORE_COMMAND_H

#include "core/event.h"
#include "core/queue.h"

typedef struct cv_command {
    cl_command_queue queue;
    struct cvcu_stream *stream; /* where the command's work goes */
    cl_event event; /* created when the caller, a wait list, a hold or a barrier needs one */
    bool locked;
    cl_command_type type;
    cl_uint num_wait;  /* the wait list had events (barriers of out-of-order queues) */
    cl_event *sources; /* wait-list events not complete at enqueue, held; moved into event */
    cl_uint num_sources;
    cl_event sources_small[CV_EVENT_INLINE_SOURCES]; /* sources of short wait lists */
    uint64_t wait_key;        /* a kernel's, for the history of host waits (core/wait.h); 0: none */
    struct cvcu_ktime *ktime; /* kernel timing: the kernel records START and END (held by event) */
} cv_command;

/* Call after the API validated its arguments and the wait list. Holds the queue's lock until
 * cv_command_end, so commands enter the stream in the order they were enqueued. Wait lists
 * resolve on the GPU: events of other queues or streams by cuStreamWaitEvent, user events by
 * cuStreamWaitValue64 on their slot. On a profiling queue with event_ret, QUEUED and SUBMIT are
 * taken here and START is recorded after the waits. */
cl_int cv_command_begin(cv_command *cmd, cl_command_queue q, cl_command_type type, cl_uint num_wait,
                        const cl_event *wait_list, cl_event *event_ret);
/* The same for a kernel command that can time itself (a timed twin, docs/kernel-abi.md): on a
 * profiling queue with event_ret, cmd->ktime receives a slot, which the event holds, and no START
 * event is recorded (cmd->ktime stays NULL where no slot could be had: START is recorded). */
cl_int cv_command_begin_kernel(cv_command *cmd, cl_command_queue q, cl_command_type type,
                               cl_uint num_wait, const cl_event *wait_list, cl_event *event_ret,
                               bool timable);
/* status: the result of putting the work on the stream. On success the event (if asked for) is
 * stored in *event_ret; with blocking, returns once the command completed
 * (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it or its wait list failed). */
cl_int cv_command_end(cv_command *cmd, cl_int status, bool blocking, cl_event *event_ret);
/* The index of the command's stream in its queue. */
unsigned cv_command_stream_index(const cv_command *cmd);
/* The command waits (on the GPU) for what `what` says (CV_WAIT_GATED, CV_WAIT_CROSS): host
 * waits behind it listen for releases (core/wait.h). Call between begin and end. */
void cv_command_mark(cv_command *cmd, unsigned what);
/* Keeps obj alive (a hold) until the command has finished on the GPU: what a command uses must
 * outlive the application's last release. Call between begin and end. The tracker drops the
 * hold when the command completes. */
cl_int cv_command_keep(cv_command *cmd, cv_object *obj);
/* Records the holds of commands that had no event of their own (batched per stream) so that the
 * tracker releases them once those commands finished: flush, finish and queue release call it. */
cl_int cv_command_flush_batches(cl_command_queue q);
/* Takes the first n streams' batches off the queue without recording them (clFinish: the wait
 * for the whole stream covers them); done[] receives them, NULL where there was none. */
void cv_command_take_batches(cl_command_queue q, unsigned n, cl_event *done);
/* Taken batches [0, drained) belong to streams that have drained: their holds go. The others
 * (after a failed wait) are recorded and tracked as a flush would. */
void cv_command_finish_taken(cl_command_queue q, cl_event *done, unsigned n, unsigned drained);

#endif
