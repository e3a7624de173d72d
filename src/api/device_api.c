/* Device entry points. */
#include "api/entry_points.h"
#include "util/log.h"
#include "core/platform.h"

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id *devices,
                                  cl_uint *num_devices) {
    cl_int err = CL_SUCCESS;
    cl_uint found = 0;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (!platform)
        platform = cv_platform_get();
    /* "CL_INVALID_PLATFORM if platform is not a valid platform." */
    if (!cv_is_platform(platform))
        err = CL_INVALID_PLATFORM;
    /* "CL_INVALID_DEVICE_TYPE if device_type is not a valid value." */
    else if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known || device_type == 0))
        err = CL_INVALID_DEVICE_TYPE;
    /* "CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL or if both
     * num_devices and devices are NULL." */
    else if ((num_entries == 0 && devices) || (!num_devices && !devices))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS) {
        /* Every culvert device is a GPU and the default device is the first one. */
        bool match = device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT);
        found = match ? platform->num_devices : 0;
        if (device_type & CL_DEVICE_TYPE_DEFAULT && !(device_type & CL_DEVICE_TYPE_GPU) && found)
            found = 1;
        for (cl_uint i = 0; devices && i < found && i < num_entries; i++)
            devices[i] = platform->devices[i];
        /* "CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found." */
        if (found == 0)
            err = CL_DEVICE_NOT_FOUND;
    }
    if (num_devices && (err == CL_SUCCESS || err == CL_DEVICE_NOT_FOUND))
        *num_devices = found;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    if (!cv_is_device(device))
        err = CL_INVALID_DEVICE;
    else
        err = cv_device_info(device, param_name,
                             &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices,
                                      cl_uint *num_devices_ret) {
    cl_int err;
    (void)num_devices;
    (void)out_devices;
    (void)num_devices_ret;
    /* "CL_INVALID_DEVICE if in_device is not a valid device." */
    if (!cv_is_device(in_device))
        err = CL_INVALID_DEVICE;
    /* "CL_INVALID_VALUE if values specified in properties are not valid or if values specified
     * in properties are valid but not supported by the device." */
    else if (!properties)
        err = CL_INVALID_VALUE;
    else
        /* CL_DEVICE_PARTITION_PROPERTIES lists no partition type: none is supported. */
        err = CL_INVALID_VALUE;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCreateSubDevicesEXT(cl_device_id in_device,
                                         const cl_device_partition_property_ext *properties,
                                         cl_uint num_entries, cl_device_id *out_devices,
                                         cl_uint *num_devices) {
    (void)properties;
    (void)num_entries;
    (void)out_devices;
    (void)num_devices;
    /* cl_ext_device_fission is not claimed. */
    cl_int err = cv_is_device(in_device) ? CL_INVALID_OPERATION : CL_INVALID_DEVICE;
    CV_API_ERROR(err);
    return err;
}

/* Root devices: "the reference count ... is unchanged" and the call succeeds. */
cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    cl_int err = cv_is_device(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    cl_int err = cv_is_device(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clRetainDeviceEXT(cl_device_id device) {
    return clRetainDevice(device);
}

cl_int CL_API_CALL clReleaseDeviceEXT(cl_device_id device) {
    return clReleaseDevice(device);
}
