/* The one culvert platform and its devices, discovered once. */
#ifndef CV_CORE_PLATFORM_H
#define CV_CORE_PLATFORM_H

#include "core/device.h"
#include "core/info.h"

struct _cl_platform_id {
    cv_object obj;
    cl_uint num_devices;
    cl_device_id *devices;
    char *extensions;
};

#define CV_VERSION_STRING "0.1.0"

/* Discovers devices on first use. Returns the platform, or NULL when culvert shows none: no
 * driver or no GPU, unless CULVERT_EMPTY_PLATFORM=1 asks for an empty platform. */
cl_platform_id cv_platform_get(void);
bool cv_is_platform(const void *h);
void *cv_platform_dispatch_data(void);
cl_int cv_platform_info(cl_platform_id p, cl_platform_info param, const cv_info *out);

#endif
