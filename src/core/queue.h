/* cl_command_queue: an in-order queue is one CUDA stream. */
#ifndef CV_CORE_QUEUE_H
#define CV_CORE_QUEUE_H

#include "core/context.h"
#include "cuda/cu_stream.h"

struct _cl_command_queue {
    cv_object obj;
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties properties;
    cl_queue_properties *property_list; /* as given, 0-terminated; NULL if none were */
    size_t num_properties;
    cvcu_stream *stream;
    pthread_mutex_t lock; /* orders enqueues from several host threads */
    /* Objects held for commands in flight, dropped once the stream has passed them. */
    struct cv_kept *kept;
};

static inline bool cv_is_queue(const void *h) {
    return cv_object_valid(h, CV_TAG_QUEUE);
}

cl_command_queue cv_queue_create(cl_context ctx, cl_device_id dev,
                                 cl_command_queue_properties props, const cl_queue_properties *list,
                                 size_t list_len, cl_int *err);
cl_int cv_queue_info(cl_command_queue q, cl_command_queue_info param, const cv_info *out);
cl_int cv_queue_finish(cl_command_queue q);
cl_int cv_queue_flush(cl_command_queue q);
/* Drops the holds of cv_command_keep; call only once the queue's work has completed. */
void cv_queue_drop_kept(cl_command_queue q);

#endif
