/* cl_culvert_host_value entry points. The error texts quoted are the extension's own
 * specification: include/CL/cl_culvert.h and docs/host-value.md. */
#include "api/entry_points.h"
#include "core/event.h"
#include "core/host_value.h"
#include "util/log.h"

cl_mem CL_API_CALL clCreateHostValue(cl_context context, cl_ulong initial_value,
                                     cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_mem hv = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context" */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_OPERATION if no device of context supports cl_culvert_host_value" */
    else if (!cv_host_value_context_supported(context))
        err = CL_INVALID_OPERATION;
    else
        hv = cv_host_value_create(context, initial_value, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return hv;
}

/* "CL_INVALID_MEM_OBJECT if host_value is not a valid host value (a buffer is not one)" */
static cl_int cv_check_host_value(cl_mem host_value) {
    return cv_is_host_value(host_value) ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clSignalHostValue(cl_mem host_value, cl_ulong value) {
    /* The hot path: one handle check and one release-ordered store. */
    cl_int err = cv_check_host_value(host_value);
    if (err == CL_SUCCESS)
        cv_host_value_store(host_value, value);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clLoadHostValue(cl_mem host_value, cl_ulong *value) {
    cl_int err = cv_check_host_value(host_value);
    /* "CL_INVALID_VALUE if value is NULL" */
    if (err == CL_SUCCESS && !value)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        *value = cv_host_value_load(host_value);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clResetHostValue(cl_mem host_value) {
    cl_int err = cv_check_host_value(host_value);
    if (err == CL_SUCCESS)
        cv_host_value_store(host_value, 0);
    CV_API_ERROR(err);
    return err;
}

/* The checks both enqueues share, in the order the header lists them. */
static cl_int cv_check_host_value_enqueue(cl_command_queue queue, cl_mem host_value,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_COMMAND_QUEUE if queue is not a valid command-queue" */
    if (!cv_is_queue(queue))
        err = CL_INVALID_COMMAND_QUEUE;
    else
        err = cv_check_host_value(host_value);
    /* "CL_INVALID_CONTEXT if the contexts of queue and host_value (or of the wait-list events)
     * differ" */
    if (err == CL_SUCCESS && host_value->context != queue->context)
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_OPERATION if the queue's device does not support cl_culvert_host_value" */
    else if (err == CL_SUCCESS && !cv_host_value_device_supported(queue->device))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_EVENT_WAIT_LIST as for any enqueue" */
    if (err == CL_SUCCESS)
        err = cv_check_wait_list(queue->context, num_events_in_wait_list, event_wait_list);
    return err;
}

cl_int CL_API_CALL clEnqueueWaitHostValue(cl_command_queue queue, cl_mem host_value, cl_ulong value,
                                          cl_host_value_condition condition,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
    cl_int err =
        cv_check_host_value_enqueue(queue, host_value, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_VALUE if condition is not a cl_host_value_condition the device supports" */
    if (err == CL_SUCCESS && !cv_host_value_condition_supported(queue->device, condition))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_host_value_enqueue_wait(queue, host_value, value, condition,
                                         num_events_in_wait_list, event_wait_list, event);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueWriteHostValue(cl_command_queue queue, cl_mem host_value,
                                           cl_ulong value, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    cl_int err =
        cv_check_host_value_enqueue(queue, host_value, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_host_value_enqueue_write(queue, host_value, value, num_events_in_wait_list,
                                          event_wait_list, event);
    CV_API_ERROR(err);
    return err;
}
