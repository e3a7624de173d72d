/* Command-queue entry points. */
#include "api/entry_points.h"
#include "core/log.h"
#include "core/queue.h"

static cl_int cv_check_queue_properties(cl_device_id device, cl_command_queue_properties props) {
    cl_command_queue_properties supported = 0;
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof supported,
                                 &supported, NULL);
    const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                              CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                              CL_QUEUE_ON_DEVICE_DEFAULT;
    /* "CL_INVALID_VALUE if values specified in properties are not valid." */
    if (err == CL_SUCCESS && (props & ~known))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
     * supported by the device." */
    else if (err == CL_SUCCESS && (props & ~supported))
        err = CL_INVALID_QUEUE_PROPERTIES;
    return err;
}

static cl_command_queue cv_create_queue(cl_context context, cl_device_id device,
                                        cl_command_queue_properties props,
                                        const cl_queue_properties *list, size_t list_len,
                                        cl_int *err) {
    cl_command_queue q = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        *err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_DEVICE if device is not a valid device or is not associated with context." */
    else if (!cv_is_device(device) || !cv_context_has_device(context, device))
        *err = CL_INVALID_DEVICE;
    else
        *err = cv_check_queue_properties(device, props);
    if (*err == CL_SUCCESS)
        q = cv_queue_create(context, device, props, list, list_len, err);
    return q;
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int *errcode_ret) {
    cl_int err;
    cl_command_queue q = cv_create_queue(context, device, properties, NULL, 0, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return q;
}

cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_command_queue_properties props = 0;
    size_t n = 0;
    cl_command_queue q = NULL;
    for (; properties && properties[n] != 0 && err == CL_SUCCESS; n += 2) {
        if (properties[n] == CL_QUEUE_PROPERTIES)
            props = properties[n + 1];
        /* "CL_INVALID_VALUE if values specified in properties are not valid." */
        else
            err = CL_INVALID_VALUE;
    }
    if (err == CL_SUCCESS)
        q = cv_create_queue(context, device, props, properties, properties ? n + 1 : 0, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return q;
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    cl_int err = cv_is_queue(command_queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
    if (err == CL_SUCCESS)
        cv_retain(&command_queue->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    cl_int err = cv_is_queue(command_queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
    if (err == CL_SUCCESS)
        cv_release(&command_queue->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    if (!cv_is_queue(command_queue))
        err = CL_INVALID_COMMAND_QUEUE;
    else
        err = cv_queue_info(command_queue, param_name,
                            &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                             cl_command_queue_properties properties, cl_bool enable,
                                             cl_command_queue_properties *old_properties) {
    (void)properties;
    (void)enable;
    (void)old_properties;
    /* Deprecated in 1.1: "CL_INVALID_OPERATION" when changing properties is not supported. */
    cl_int err = cv_is_queue(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    cl_int err =
        cv_is_queue(command_queue) ? cv_queue_flush(command_queue) : CL_INVALID_COMMAND_QUEUE;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    cl_int err =
        cv_is_queue(command_queue) ? cv_queue_finish(command_queue) : CL_INVALID_COMMAND_QUEUE;
    CV_API_ERROR(err);
    return err;
}
