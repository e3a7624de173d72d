/* Command-queue entry points. */
#include "api/entry_points.h"
#include "util/log.h"
#include "core/command.h"
#include "core/queue.h"

static cl_int cv_check_queue_properties(cl_device_id device, cl_command_queue_properties props) {
    cl_command_queue_properties supported = 0;
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof supported,
                                 &supported, NULL);
    const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                              CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                              CL_QUEUE_ON_DEVICE_DEFAULT;
    /* "CL_INVALID_VALUE if values specified in properties are not valid." (unknown bits, or
     * CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE, or an on-device queue that is not
     * out of order) */
    if (err == CL_SUCCESS &&
        ((props & ~known) ||
         ((props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(props & CL_QUEUE_ON_DEVICE)) ||
         ((props & CL_QUEUE_ON_DEVICE) && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
     * supported by the device." (culvert has no on-device queues) */
    else if (err == CL_SUCCESS && (props & ~supported))
        err = CL_INVALID_QUEUE_PROPERTIES;
    return err;
}

static cl_command_queue cv_create_queue(cl_context context, cl_device_id device,
                                        const cv_queue_config *cfg, const cl_queue_properties *list,
                                        size_t list_len, cl_int *err) {
    cl_command_queue q = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        *err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_DEVICE if device is not a valid device or is not associated with context." */
    else if (!cv_is_device(device) || !cv_context_has_device(context, device))
        *err = CL_INVALID_DEVICE;
    else
        *err = cv_check_queue_properties(device, cfg->properties);
    /* cl_culvert_cuda_interop: a queue on an application's stream is in order
     * (CL_INVALID_QUEUE_PROPERTIES otherwise); the stream must be one of the device's context
     * (CL_INVALID_VALUE otherwise, checked by cv_queue_create). */
    if (*err == CL_SUCCESS && cfg->foreign_stream) {
        if (cfg->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
            *err = CL_INVALID_QUEUE_PROPERTIES;
    }
    if (*err == CL_SUCCESS)
        q = cv_queue_create(context, device, cfg, list, list_len, err);
    return q;
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cv_queue_config cfg = {.properties = properties};
    cl_command_queue q = NULL;
    /* "CL_INVALID_VALUE if values specified in properties are not valid." (the 1.x function
     * knows only the out-of-order and profiling bits) */
    if (properties & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                    CL_QUEUE_PROFILING_ENABLE))
        err = CL_INVALID_VALUE;
    else
        q = cv_create_queue(context, device, &cfg, NULL, 0, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return q;
}

static bool cv_hint_valid(cl_queue_properties v) {
    return v == CL_QUEUE_PRIORITY_HIGH_KHR || v == CL_QUEUE_PRIORITY_MED_KHR ||
           v == CL_QUEUE_PRIORITY_LOW_KHR;
}

/* Reads one property of clCreateCommandQueueWithProperties into cfg. */
static cl_int cv_queue_property(cv_queue_config *cfg, cl_queue_properties key,
                                cl_queue_properties value, bool *has_size) {
    cl_int err = CL_SUCCESS;
    switch (key) {
    case CL_QUEUE_PROPERTIES:
        cfg->properties = value;
        break;
    case CL_QUEUE_SIZE:
        *has_size = true;
        break;
    /* cl_khr_priority_hints / cl_khr_throttle_hints: HIGH, MED and LOW have the same values */
    case CL_QUEUE_PRIORITY_KHR:
        cfg->priority_hint = (cl_queue_priority_khr)value;
        err = cv_hint_valid(value) ? CL_SUCCESS : CL_INVALID_VALUE;
        break;
    case CL_QUEUE_THROTTLE_KHR:
        cfg->throttle_hint = (cl_queue_throttle_khr)value;
        err = cv_hint_valid(value) ? CL_SUCCESS : CL_INVALID_VALUE;
        break;
    case CL_QUEUE_CUDA_STREAM_CULVERT:
        cfg->foreign_stream = (void *)(uintptr_t)value;
        err = value ? CL_SUCCESS : CL_INVALID_VALUE;
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cv_queue_config cfg = {0};
    bool has_size = false;
    size_t n = 0;
    cl_command_queue q = NULL;
    /* "CL_INVALID_VALUE if values specified in properties are not valid." (unknown names, bad
     * values, a name given twice) */
    for (; properties && properties[n] != 0 && err == CL_SUCCESS; n += 2) {
        for (size_t i = 0; i < n && err == CL_SUCCESS; i += 2)
            if (properties[i] == properties[n])
                err = CL_INVALID_VALUE;
        if (err == CL_SUCCESS)
            err = cv_queue_property(&cfg, properties[n], properties[n + 1], &has_size);
    }
    /* CL_QUEUE_SIZE "can only be specified if CL_QUEUE_ON_DEVICE is set in
     * CL_QUEUE_PROPERTIES" (with it, the on-device queue is refused below) */
    if (err == CL_SUCCESS && has_size && !(cfg.properties & CL_QUEUE_ON_DEVICE))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        q = cv_create_queue(context, device, &cfg, properties, properties ? n + 1 : 0, &err);
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
    /* "clReleaseCommandQueue performs an implicit flush to issue any previously queued OpenCL
     * commands in command_queue." Its result does not change the release. */
    if (err == CL_SUCCESS) {
        cv_command_flush_batches(command_queue);
        cv_release(&command_queue->obj);
    }
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
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    if (!cv_is_queue(command_queue))
        err = CL_INVALID_COMMAND_QUEUE;
    /* "CL_INVALID_VALUE if values specified in properties are not valid." */
    else if (properties & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                         CL_QUEUE_PROFILING_ENABLE))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are not supported by the
     * device." */
    else
        err = cv_check_queue_properties(command_queue->device, properties);
    if (err == CL_SUCCESS)
        err = cv_queue_set_properties(command_queue, properties, enable, old_properties);
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
