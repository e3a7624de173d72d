/* Kernel entry points: kernel objects, arguments, queries, and the NDRange enqueues. */
#include "api/entry_points.h"
#include "core/kernel.h"
#include "util/log.h"
#include "core/queue.h"
#include "core/event.h"

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                     cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = NULL;
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    /* "CL_INVALID_VALUE if kernel_name is NULL." */
    else if (!kernel_name)
        err = CL_INVALID_VALUE;
    else
        k = cv_kernel_create(program, kernel_name, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return k;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel *kernels, cl_uint *num_kernels_ret) {
    cl_int err = CL_SUCCESS;
    size_t n = 0;
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    /* "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for any
     * device in program." */
    else if (cv_program_info(program, CL_PROGRAM_NUM_KERNELS, &CV_INFO(sizeof n, &n, NULL)) !=
             CL_SUCCESS)
        err = CL_INVALID_PROGRAM_EXECUTABLE;
    /* "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of
     * kernels in program." */
    else if (kernels && num_kernels < n)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS && kernels) {
        /* The names from the first built device, in module order. */
        size_t made = 0;
        const char *name = NULL;
        for (; err == CL_SUCCESS && made < n &&
               (name = cv_program_kernel_name(program, made)) != NULL;
             made++)
            kernels[made] = cv_kernel_create(program, name, &err);
        /* All or nothing: the ones made before a failure are released. */
        for (size_t i = 0; err != CL_SUCCESS && i + 1 < made; i++)
            cv_kernel_release(kernels[i]);
    }
    if (err == CL_SUCCESS && num_kernels_ret)
        *num_kernels_ret = (cl_uint)n;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    cl_int err = cv_is_kernel(kernel) ? CL_SUCCESS : CL_INVALID_KERNEL;
    if (err == CL_SUCCESS)
        cv_retain(&kernel->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    cl_int err = cv_is_kernel(kernel) ? CL_SUCCESS : CL_INVALID_KERNEL;
    if (err == CL_SUCCESS)
        cv_kernel_release(kernel);
    CV_API_ERROR(err);
    return err;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = NULL;
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    if (!cv_is_kernel(source_kernel))
        err = CL_INVALID_KERNEL;
    else
        k = cv_kernel_clone(source_kernel, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return k;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
    cl_int err;
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    else
        err = cv_kernel_set_arg(kernel, arg_index, arg_size, arg_value);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_KERNEL if kernel is a not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    else
        err = cv_kernel_info(kernel, param_name,
                             &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx,
                                      cl_kernel_arg_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_KERNEL if kernel is a not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    else
        err = cv_kernel_arg_info(kernel, arg_indx, param_name,
                                 &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

/* The handles of the per-device kernel queries. */
static cl_int cv_check_kernel_device(cl_kernel kernel, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_KERNEL if kernel is a not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    /* "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel" */
    else if (device && !cv_is_device(device))
        err = CL_INVALID_DEVICE;
    return err;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
    cl_int err = cv_check_kernel_device(kernel, device);
    if (err == CL_SUCCESS)
        err = cv_kernel_work_group_info(
            kernel, device, param_name,
            &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void *input_value,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
    cl_int err = cv_check_kernel_device(kernel, device);
    if (err == CL_SUCCESS)
        err =
            cv_kernel_sub_group_info(kernel, device, param_name, input_value_size, input_value,
                                     &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel in_kernel, cl_device_id in_device,
                                              cl_kernel_sub_group_info param_name,
                                              size_t input_value_size, const void *input_value,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
    /* cl_khr_subgroups' name for the same query. */
    return clGetKernelSubGroupInfo(in_kernel, in_device, param_name, input_value_size, input_value,
                                   param_value_size, param_value, param_value_size_ret);
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                       size_t param_value_size, const void *param_value) {
    cl_int err;
    /* "CL_INVALID_KERNEL if kernel is a not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    else
        err = cv_kernel_exec_info(kernel, param_name, param_value_size, param_value);
    CV_API_ERROR(err);
    return err;
}

/* The checks clEnqueueNDRangeKernel and clEnqueueTask share before the NDRange's own. */
static cl_int cv_check_enqueue(cl_command_queue q, cl_kernel k, cl_uint num_events,
                               const cl_event *wait_list) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    if (!cv_is_queue(q))
        err = CL_INVALID_COMMAND_QUEUE;
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    else if (!cv_is_kernel(k))
        err = CL_INVALID_KERNEL;
    /* "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the
     * same" */
    else if (q->context != k->context)
        err = CL_INVALID_CONTEXT;
    else
        err = cv_check_wait_list(q->context, num_events, wait_list);
    return err;
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t *global_work_offset,
                                          const size_t *global_work_size,
                                          const size_t *local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
    cl_int err = cv_check_enqueue(command_queue, kernel, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
     * CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)." */
    if (err == CL_SUCCESS && (work_dim < 1 || work_dim > 3))
        err = CL_INVALID_WORK_DIMENSION;
    /* "If global_work_size is NULL, or the value in any passed dimension is 0 then the kernel
     * command will trivially succeed after its event dependencies are satisfied and
     * subsequently update its completion event." (culvert's devices are OpenCL 3.0: the
     * CL_INVALID_GLOBAL_WORK_SIZE for a NULL or zero size "is deprecated by version 2.1") */
    if (err == CL_SUCCESS)
        err = cv_kernel_enqueue(command_queue, kernel, CL_COMMAND_NDRANGE_KERNEL, work_dim,
                                global_work_offset, global_work_size, local_work_size,
                                num_events_in_wait_list, event_wait_list, event);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
    /* "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1, global_work_offset
     * set to NULL, global_work_size[0] set to 1, and local_work_size[0] set to 1." */
    static const size_t one = 1;
    cl_int err = cv_check_enqueue(command_queue, kernel, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_kernel_enqueue(command_queue, kernel, CL_COMMAND_TASK, 1, NULL, &one, &one,
                                num_events_in_wait_list, event_wait_list, event);
    CV_API_ERROR(err);
    return err;
}
