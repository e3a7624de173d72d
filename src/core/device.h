/* cl_device_id: one per CUDA device, described by properties the backend reads once. */
#ifndef CV_CORE_DEVICE_H
#define CV_CORE_DEVICE_H

#include "core/info.h"
#include "core/object.h"

struct cvcu_device;       /* the backend's side of a device (core/backend.h) */
struct cvcu_device_props; /* what the backend read of it */

struct _cl_device_id {
    cv_object obj;
    cl_platform_id platform;
    const struct cvcu_device_props *props; /* owned by the backend's device */
    struct cvcu_device *cu;
    char *extensions; /* space-separated, built once from the extension table */
    char *c_features; /* unused yet: see device_info.c */
};

static inline bool cv_is_device(const void *h) {
    return cv_object_valid(h, CV_TAG_DEVICE);
}

cl_int cv_device_info(cl_device_id device, cl_device_info param, const cv_info *out);
/* CL_DEVICE_MAX_MEM_ALLOC_SIZE. */
cl_ulong cv_device_max_alloc(cl_device_id device);

#endif
