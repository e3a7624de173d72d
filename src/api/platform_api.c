/* Platform entry points. */
#include "api/entry_points.h"
#include "util/log.h"
#include "core/platform.h"
#include "core/program.h"
#include "util/clock.h"

static cl_int cv_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                              cl_uint *num_platforms) {
    cl_int err = CL_SUCCESS;
    cl_platform_id p = cv_platform_get();
    /* "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if both
     * num_platforms and platforms are NULL." */
    if ((num_entries == 0 && platforms) || (!num_platforms && !platforms))
        err = CL_INVALID_VALUE;
    /* cl_khr_icd: "CL_PLATFORM_NOT_FOUND_KHR if zero platforms are available." */
    else if (!p)
        err = CL_PLATFORM_NOT_FOUND_KHR;
    if (err == CL_SUCCESS && platforms)
        platforms[0] = p;
    if (num_platforms)
        *num_platforms = err == CL_SUCCESS ? 1 : 0;
    return err;
}

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                          cl_uint *num_platforms) {
    cl_int err = cv_platform_ids(num_entries, platforms, num_platforms);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                    cl_uint *num_platforms) {
    cl_int err = cv_platform_ids(num_entries, platforms, num_platforms);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_PLATFORM if platform is not a valid platform." (NULL picks culvert's) */
    if (!platform)
        platform = cv_platform_get();
    if (!cv_is_platform(platform))
        err = CL_INVALID_PLATFORM;
    else
        err = cv_platform_info(platform, param_name,
                               &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    if (!cv_is_device(device))
        err = CL_INVALID_DEVICE;
    /* "CL_INVALID_VALUE if host_timestamp is NULL." */
    else if (!host_timestamp)
        err = CL_INVALID_VALUE;
    else
        *host_timestamp = cvu_host_time_ns();
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                           cl_ulong *host_timestamp) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    if (!cv_is_device(device))
        err = CL_INVALID_DEVICE;
    /* "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL." */
    else if (!host_timestamp || !device_timestamp)
        err = CL_INVALID_VALUE;
    else
        /* culvert maps every device timestamp onto the host clock (see the event profiling
         * code), so the two timers are one. */
        *device_timestamp = *host_timestamp = cvu_host_time_ns();
    CV_API_ERROR(err);
    return err;
}

/* The compiler runs in child processes (src/compiler): unloading stops those started ahead of
 * later builds; the next build starts its own. */
cl_int CL_API_CALL clUnloadCompiler(void) {
    cv_program_unload_compiler();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
    /* "CL_INVALID_PLATFORM if platform is not a valid platform." */
    cl_int err = cv_is_platform(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
    if (err == CL_SUCCESS)
        cv_program_unload_compiler();
    CV_API_ERROR(err);
    return err;
}
