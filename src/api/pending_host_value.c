/* Entry points of the host value work that have not landed yet. Each answers CL_INVALID_OPERATION
 * (and NULL for objects), never a false success. The work that implements one removes it here (and
 * this file with the last). */
#include "api/entry_points.h"
#include "core/log.h"

cl_mem CL_API_CALL clCreateHostValue(cl_context context, cl_ulong initial_value,
                                     cl_int *errcode_ret) {
    (void)context;
    (void)initial_value;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clSignalHostValue(cl_mem host_value, cl_ulong value) {
    (void)host_value;
    (void)value;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clLoadHostValue(cl_mem host_value, cl_ulong *value) {
    (void)host_value;
    (void)value;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clResetHostValue(cl_mem host_value) {
    (void)host_value;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWaitHostValue(cl_command_queue queue, cl_mem host_value, cl_ulong value,
                                          cl_host_value_condition condition,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
    (void)queue;
    (void)host_value;
    (void)value;
    (void)condition;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWriteHostValue(cl_command_queue queue, cl_mem host_value,
                                           cl_ulong value, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    (void)queue;
    (void)host_value;
    (void)value;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}
