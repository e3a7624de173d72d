#include "core/extensions.h"
#include "core/platform.h"

#include <stdlib.h>

#define CV_OPENCL_VERSION "OpenCL 3.0 culvert " CV_VERSION_STRING

cl_int cv_platform_info(cl_platform_id p, cl_platform_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_PLATFORM_PROFILE:
        err = cv_info_str(out, "FULL_PROFILE");
        break;
    case CL_PLATFORM_VERSION:
        err = cv_info_str(out, CV_OPENCL_VERSION);
        break;
    case CL_PLATFORM_NUMERIC_VERSION:
        err = cv_info_uint(out, CL_MAKE_VERSION(3, 0, 0));
        break;
    case CL_PLATFORM_NAME:
        err = cv_info_str(out, "culvert");
        break;
    case CL_PLATFORM_VENDOR:
        err = cv_info_str(out, "culvert");
        break;
    case CL_PLATFORM_EXTENSIONS:
        err = cv_info_str(out, p->extensions ? p->extensions : "");
        break;
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        const cvcu_device_props **props = calloc(p->num_devices + 1, sizeof *props);
        size_t n = 0;
        cl_name_version *v = NULL;
        for (cl_uint i = 0; props && i < p->num_devices; i++)
            props[i] = p->devices[i]->props;
        if (props)
            v = cv_extension_versions(props, p->num_devices, true, &n);
        err = v ? cv_info_bytes(out, v, n * sizeof *v) : CL_OUT_OF_HOST_MEMORY;
        free(v);
        free(props);
        break;
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION:
        /* CLOCK_MONOTONIC_RAW counts nanoseconds. */
        err = cv_info_ulong(out, 1);
        break;
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        err = cv_info_str(out, "CV");
        break;
    default:
        /* "CL_INVALID_VALUE if param_name is not one of the supported values" */
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
