/* Event, marker and barrier entry points. */
#include "api/entry_points.h"
#include "core/command.h"
#include "util/log.h"

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if num_events is zero or event_list is NULL." */
    if (num_events == 0 || !event_list)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_EVENT if event objects specified in event_list are not valid event objects."
     * / "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same
     * context." */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_events; i++) {
        if (!cv_is_event(event_list[i]))
            err = CL_INVALID_EVENT;
        else if (event_list[i]->context != event_list[0]->context)
            err = CL_INVALID_CONTEXT;
    }
    /* "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the
     * events in event_list is a negative integer value." (after waiting for all of them) */
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_events; i++)
        if (cv_event_wait(event_list[i]) != CL_SUCCESS)
            status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (err == CL_SUCCESS)
        err = status;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_EVENT if event is a not a valid event object." */
    if (!cv_is_event(event))
        err = CL_INVALID_EVENT;
    else
        err = cv_event_profiling_info(
            event, param_name, &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                      void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_EVENT if event is not a valid event object." */
    if (!cv_is_event(event))
        err = CL_INVALID_EVENT;
    /* "CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type is not
     * CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE." */
    else if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED &&
                             command_exec_callback_type != CL_RUNNING &&
                             command_exec_callback_type != CL_COMPLETE))
        err = CL_INVALID_VALUE;
    else
        err = cv_event_add_callback(event, command_exec_callback_type, pfn_notify, user_data);
    CV_API_ERROR(err);
    return err;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_event e = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    else
        e = cv_user_event_create(context, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return e;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_EVENT if event is not a valid user event object." */
    if (!cv_is_event(event) || !event->is_user)
        err = CL_INVALID_EVENT;
    /* "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer
     * value." */
    else if (execution_status > CL_COMPLETE)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if the execution_status for event has already been changed by a
     * previous call to clSetUserEventStatus." */
    else
        err = cv_user_event_set(event, execution_status);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_EVENT if event is a not a valid event object." */
    if (!cv_is_event(event))
        err = CL_INVALID_EVENT;
    else
        err = cv_event_info(event, param_name,
                            &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
    /* "CL_INVALID_EVENT if event is not a valid event object." */
    cl_int err = cv_is_event(event) ? CL_SUCCESS : CL_INVALID_EVENT;
    if (err == CL_SUCCESS)
        cv_retain(&event->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
    /* "CL_INVALID_EVENT if event is not a valid event object." */
    cl_int err = cv_is_event(event) ? CL_SUCCESS : CL_INVALID_EVENT;
    if (err == CL_SUCCESS)
        cv_event_release(event);
    CV_API_ERROR(err);
    return err;
}

/* Markers and barriers: on an in-order stream both are "everything before me"; on an
 * out-of-order queue see cv_command_begin/end. */
static cl_int cv_enqueue_sync_point(cl_command_queue q, cl_command_type type, cl_uint n,
                                    const cl_event *wait, cl_event *event) {
    cl_int err = CL_SUCCESS;
    cv_command cmd;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    if (!cv_is_queue(q))
        err = CL_INVALID_COMMAND_QUEUE;
    else
        err = cv_check_wait_list(q->context, n, wait);
    if (err == CL_SUCCESS)
        err = cv_command_begin(&cmd, q, type, n, wait, event);
    if (err == CL_SUCCESS)
        err = cv_command_end(&cmd, CL_SUCCESS, false, event);
    return err;
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event) {
    cl_int err = cv_enqueue_sync_point(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list,
                                       event_wait_list, event);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event) {
    cl_int err = cv_enqueue_sync_point(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list,
                                       event_wait_list, event);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
    /* "CL_INVALID_VALUE if event is a NULL value." */
    cl_int err = event ? cv_enqueue_sync_point(command_queue, CL_COMMAND_MARKER, 0, NULL, event)
                       : CL_INVALID_VALUE;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
    cl_int err = cv_enqueue_sync_point(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event *event_list) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if num_events is 0 or event_list is NULL." */
    if (cv_is_queue(command_queue) && (num_events == 0 || !event_list))
        err = CL_INVALID_VALUE;
    else
        err =
            cv_enqueue_sync_point(command_queue, CL_COMMAND_BARRIER, num_events, event_list, NULL);
    CV_API_ERROR(err);
    return err;
}
