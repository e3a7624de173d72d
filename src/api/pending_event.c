/* Entry points of the event work that have not landed yet. Each answers CL_INVALID_OPERATION (and
 * NULL for objects), never a false success. The work that implements one removes it here (and this
 * file with the last). */
#include "api/entry_points.h"
#include "core/log.h"

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
    (void)event;
    (void)param_name;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                                      void *user_data) {
    (void)event;
    (void)command_exec_callback_type;
    (void)pfn_notify;
    (void)user_data;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret) {
    (void)context;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
    (void)event;
    (void)execution_status;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}
