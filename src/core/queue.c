#include "core/queue.h"
#include "cuda/cu_device.h"

#include <stdlib.h>
#include <string.h>

static void cv_queue_destroy(cv_object *obj) {
    cl_command_queue q = (cl_command_queue)obj;
    /* The last reference is gone: let the commands still in the stream finish first. */
    if (q->stream) {
        cvcu_device_bind(q->device->cu);
        cvcu_stream_sync(q->stream);
        cvcu_stream_destroy(q->stream);
    }
    cv_queue_drop_kept(q);
    pthread_mutex_destroy(&q->lock);
    cv_unhold(&q->context->obj);
    free(q->property_list);
    free(q);
}

cl_command_queue cv_queue_create(cl_context ctx, cl_device_id dev,
                                 cl_command_queue_properties props, const cl_queue_properties *list,
                                 size_t list_len, cl_int *err) {
    cl_command_queue q = calloc(1, sizeof *q);
    *err = q ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (q && list_len) {
        q->property_list = calloc(list_len, sizeof *list);
        if (q->property_list)
            memcpy(q->property_list, list, list_len * sizeof *list);
        else
            *err = CL_OUT_OF_HOST_MEMORY;
    }
    if (*err == CL_SUCCESS)
        *err = cvcu_device_bind(dev->cu);
    if (*err == CL_SUCCESS)
        *err = cvcu_stream_create(0, &q->stream);
    if (*err != CL_SUCCESS) {
        if (q)
            free(q->property_list);
        free(q);
        return NULL;
    }
    cv_object_init(&q->obj, CV_TAG_QUEUE, cv_queue_destroy);
    pthread_mutex_init(&q->lock, NULL);
    q->context = ctx;
    cv_hold(&ctx->obj);
    q->device = dev;
    q->properties = props;
    q->num_properties = list_len;
    return q;
}

cl_int cv_queue_finish(cl_command_queue q) {
    cl_int err = cvcu_device_bind(q->device->cu);
    if (err == CL_SUCCESS)
        err = cvcu_stream_sync(q->stream);
    if (err == CL_SUCCESS)
        cv_queue_drop_kept(q);
    return err;
}

cl_int cv_queue_flush(cl_command_queue q) {
    /* Work goes to the stream when it is enqueued: nothing waits for a flush. */
    (void)q;
    return CL_SUCCESS;
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
        err = cv_info_ptr(out, q->stream);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
