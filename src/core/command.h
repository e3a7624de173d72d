/* How every enqueue runs: begin (GPU-side waits for the wait list), put the work on
 * cmd.stream, end (record completion, hand out the event, block if asked). */
#ifndef CV_CORE_COMMAND_H
#define CV_CORE_COMMAND_H

#include "core/event.h"
#include "core/queue.h"

typedef struct cv_command {
    cl_command_queue queue;
    cvcu_stream *stream; /* where the command's work goes */
    cl_event event;      /* created when the caller or a blocking wait needs one */
    bool locked;
} cv_command;

/* Call after the API validated its arguments and the wait list. Holds the queue's lock until
 * cv_command_end, so commands enter the stream in the order they were enqueued. */
cl_int cv_command_begin(cv_command *cmd, cl_command_queue q, cl_command_type type, cl_uint num_wait,
                        const cl_event *wait_list, cl_event *event_ret);
/* status: the result of putting the work on the stream. On success the event (if asked for) is
 * stored in *event_ret; with blocking, returns once the command completed. */
cl_int cv_command_end(cv_command *cmd, cl_int status, bool blocking, cl_event *event_ret);
/* Keeps obj alive (a hold) until the command has finished on the GPU: what a command uses must
 * outlive the application's last release. Call between begin and end. */
cl_int cv_command_keep(cv_command *cmd, cv_object *obj);

#endif
