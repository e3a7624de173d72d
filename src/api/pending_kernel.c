/* Entry points of the kernel work that have not landed yet. Each answers CL_INVALID_OPERATION (and
 * NULL for objects), never a false success. The work that implements one removes it here (and this
 * file with the last). */
#include "api/entry_points.h"
#include "core/log.h"

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                     cl_int *errcode_ret) {
    (void)program;
    (void)kernel_name;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel *kernels, cl_uint *num_kernels_ret) {
    (void)program;
    (void)num_kernels;
    (void)kernels;
    (void)num_kernels_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
    (void)kernel;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
    (void)kernel;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
    (void)kernel;
    (void)arg_index;
    (void)arg_size;
    (void)arg_value;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
    (void)kernel;
    (void)param_name;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
    (void)kernel;
    (void)device;
    (void)param_name;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t *global_work_offset,
                                          const size_t *global_work_size,
                                          const size_t *local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)kernel;
    (void)work_dim;
    (void)global_work_offset;
    (void)global_work_size;
    (void)local_work_size;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
    (void)command_queue;
    (void)kernel;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx,
                                      cl_kernel_arg_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret) {
    (void)kernel;
    (void)arg_indx;
    (void)param_name;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                       size_t param_value_size, const void *param_value) {
    (void)kernel;
    (void)param_name;
    (void)param_value_size;
    (void)param_value;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
                                              cl_kernel_sub_group_info param_name,
                                              size_t input_value_size, const void *input_value,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
    (void)in_kernel;
    (void)in_device;
    (void)param_name;
    (void)input_value_size;
    (void)input_value;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
    (void)source_kernel;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void *input_value,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
    (void)kernel;
    (void)device;
    (void)param_name;
    (void)input_value_size;
    (void)input_value;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}
