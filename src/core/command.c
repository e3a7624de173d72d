#include "core/command.h"
#include "cuda/cu_device.h"

#include <stdlib.h>

cl_int cv_command_begin(cv_command *cmd, cl_command_queue q, cl_command_type type, cl_uint num_wait,
                        const cl_event *wait_list, cl_event *event_ret) {
    cl_int err = CL_SUCCESS;
    cmd->queue = q;
    cmd->stream = q->stream;
    cmd->event = NULL;
    pthread_mutex_lock(&q->lock);
    cmd->locked = true;
    err = cvcu_device_bind(q->device->cu);
    /* Wait lists resolve on the GPU: the stream waits for each event's CUDA event. Events of
     * this same queue are already ordered by the stream. */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_wait; i++) {
        cl_event w = wait_list[i];
        if (w->done && w->queue != q && cv_event_status(w) != CL_COMPLETE)
            err = cvcu_stream_wait_event(cmd->stream, w->done);
    }
    if (err == CL_SUCCESS && event_ret)
        cmd->event = cv_event_create(q->context, q, type, &err);
    if (err != CL_SUCCESS) {
        pthread_mutex_unlock(&q->lock);
        cmd->locked = false;
    }
    return err;
}

cl_int cv_command_end(cv_command *cmd, cl_int status, bool blocking, cl_event *event_ret) {
    cl_int err = status;
    if (err == CL_SUCCESS && cmd->event) {
        err = cvcu_event_record(cmd->event->done, cmd->stream);
        if (err == CL_SUCCESS)
            atomic_store(&cmd->event->status, CL_SUBMITTED);
    }
    if (cmd->locked)
        pthread_mutex_unlock(&cmd->queue->lock);
    cmd->locked = false;
    if (err == CL_SUCCESS && blocking)
        err = cmd->event ? cv_event_wait(cmd->event) : cvcu_stream_sync(cmd->stream);
    if (cmd->event) {
        if (err == CL_SUCCESS && event_ret)
            *event_ret = cmd->event;
        else
            cv_release(&cmd->event->obj);
    }
    return err;
}

/* Simple first version: kept objects are dropped when the queue is next finished (or destroyed),
 * which is always after the command completed. */
struct cv_kept {
    cv_object *obj;
    struct cv_kept *next;
};

cl_int cv_command_keep(cv_command *cmd, cv_object *obj) {
    struct cv_kept *k = malloc(sizeof *k);
    cl_int err = k ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (k) {
        cv_hold(obj);
        k->obj = obj;
        k->next = cmd->queue->kept;
        cmd->queue->kept = k;
    }
    return err;
}

void cv_queue_drop_kept(cl_command_queue q) {
    pthread_mutex_lock(&q->lock);
    struct cv_kept *k = q->kept;
    q->kept = NULL;
    pthread_mutex_unlock(&q->lock);
    while (k) {
        struct cv_kept *next = k->next;
        cv_unhold(k->obj);
        free(k);
        k = next;
    }
}
