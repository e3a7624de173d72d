#include "core/event.h"
#include "core/queue.h"
#include "cuda/cu_device.h"

#include <stdlib.h>

static void cv_event_destroy(cv_object *obj) {
    cl_event e = (cl_event)obj;
    cvcu_event_destroy(e->done);
    if (e->queue)
        cv_unhold(&e->queue->obj);
    cv_unhold(&e->context->obj);
    free(e);
}

cl_event cv_event_create(cl_context ctx, cl_command_queue q, cl_command_type type, cl_int *err) {
    cl_event e = calloc(1, sizeof *e);
    *err = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (e && q)
        *err = cvcu_event_create(false, false, &e->done);
    if (*err != CL_SUCCESS) {
        free(e);
        return NULL;
    }
    cv_object_init(&e->obj, CV_TAG_EVENT, cv_event_destroy);
    e->context = ctx;
    cv_hold(&ctx->obj);
    e->queue = q;
    if (q)
        cv_hold(&q->obj);
    e->type = type;
    atomic_init(&e->status, q ? CL_QUEUED : CL_SUBMITTED);
    return e;
}

cl_int cv_event_status(cl_event e) {
    cl_int s = atomic_load(&e->status);
    if (s > CL_COMPLETE && e->done) {
        cl_int q = cvcu_event_query(e->done);
        if (q <= CL_COMPLETE) {
            atomic_store(&e->status, q);
            s = q;
        }
    }
    return s;
}

cl_int cv_event_wait(cl_event e) {
    cl_int err = CL_SUCCESS;
    if (e->done) {
        err = cvcu_device_bind(e->queue->device->cu);
        if (err == CL_SUCCESS)
            err = cvcu_event_sync(e->done);
        atomic_store(&e->status, err == CL_SUCCESS ? CL_COMPLETE : err);
    }
    return cv_event_status(e) < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : err;
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
