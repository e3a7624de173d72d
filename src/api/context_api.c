/* Context entry points. */
#include "api/entry_points.h"
#include "core/context.h"
#include "util/log.h"
#include "core/platform.h"

#include <stdlib.h>

/* Validates a context property list; sets *count to its length including the terminator. */
static cl_int cv_check_context_properties(const cl_context_properties *props, size_t *count) {
    cl_int err = CL_SUCCESS;
    bool seen_platform = false, seen_sync = false;
    size_t i = 0;
    *count = 0;
    if (!props)
        return CL_SUCCESS;
    /* The error first: after an unknown name the list may end, unterminated. */
    for (; err == CL_SUCCESS && props[i] != 0; i += 2) {
        switch (props[i]) {
        case CL_CONTEXT_PLATFORM:
            /* "CL_INVALID_PLATFORM if ... platform value specified in properties is not a valid
             * platform." / "CL_INVALID_PROPERTY if ... the same property name is specified more
             * than once." */
            if (seen_platform)
                err = CL_INVALID_PROPERTY;
            else if (!cv_is_platform((const void *)props[i + 1]))
                err = CL_INVALID_PLATFORM;
            seen_platform = true;
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            /* "CL_INVALID_PROPERTY if ... the value specified for a supported property name is
             * not valid, or if the same property name is specified more than once." The value
             * is a cl_bool. */
            if (seen_sync || (props[i + 1] != CL_TRUE && props[i + 1] != CL_FALSE))
                err = CL_INVALID_PROPERTY;
            seen_sync = true;
            break;
        default:
            /* "CL_INVALID_PROPERTY if context property name in properties is not a supported
             * property name" */
            err = CL_INVALID_PROPERTY;
            break;
        }
    }
    *count = i + 1;
    return err;
}

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                     size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
    cl_int err;
    size_t nprops = 0;
    cl_context ctx = NULL;
    err = cv_check_context_properties(properties, &nprops);
    /* "CL_INVALID_VALUE if devices is NULL; if num_devices is equal to zero; or if pfn_notify is
     * NULL but user_data is not NULL." */
    if (err == CL_SUCCESS && (!devices || num_devices == 0 || (!pfn_notify && user_data)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_DEVICE if any device in devices is not a valid device." */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++)
        if (!cv_is_device(devices[i]))
            err = CL_INVALID_DEVICE;
    if (err == CL_SUCCESS)
        ctx = cv_context_create(properties, nprops, num_devices, devices, pfn_notify, user_data,
                                &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return ctx;
}

cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret) {
    cl_int err;
    size_t nprops = 0;
    cl_context ctx = NULL;
    cl_uint n = 0;
    cl_device_id *devices = NULL;
    err = cv_check_context_properties(properties, &nprops);
    /* "CL_INVALID_PLATFORM if no platform is specified in properties and no platform could be
     * selected" (culvert selects itself when it has a platform to show). */
    if (err == CL_SUCCESS && !cv_platform_get())
        err = CL_INVALID_PLATFORM;
    /* "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL." */
    if (err == CL_SUCCESS && !pfn_notify && user_data)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(cv_platform_get(), device_type, 0, NULL, &n);
    if (err == CL_SUCCESS) {
        devices = calloc(n, sizeof *devices);
        err = devices ? clGetDeviceIDs(cv_platform_get(), device_type, n, devices, NULL)
                      : CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS)
        ctx = cv_context_create(properties, nprops, n, devices, pfn_notify, user_data, &err);
    free(devices);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return ctx;
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
    /* "CL_INVALID_CONTEXT if context is not a valid OpenCL context." */
    cl_int err = cv_is_context(context) ? CL_SUCCESS : CL_INVALID_CONTEXT;
    if (err == CL_SUCCESS)
        cv_retain(&context->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
    /* "CL_INVALID_CONTEXT if context is not a valid OpenCL context." */
    cl_int err = cv_is_context(context) ? CL_SUCCESS : CL_INVALID_CONTEXT;
    if (err == CL_SUCCESS)
        cv_context_release(context);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    else
        err = cv_context_info(context, param_name,
                              &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  void(CL_CALLBACK *pfn_notify)(cl_context context,
                                                                                void *user_data),
                                                  void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_VALUE if pfn_notify is NULL." */
    else if (!pfn_notify)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS) {
        cv_context_destructor *d = malloc(sizeof *d);
        if (!d) {
            err = CL_OUT_OF_HOST_MEMORY;
        } else {
            d->fn = pfn_notify;
            d->user_data = user_data;
            pthread_mutex_lock(&context->lock);
            d->next = context->destructors;
            context->destructors = d;
            pthread_mutex_unlock(&context->lock);
        }
    }
    CV_API_ERROR(err);
    return err;
}
