#include "core/info.h"

#include <string.h>

cl_int cv_info_bytes(const cv_info *out, const void *src, size_t n) {
    cl_int err = CL_SUCCESS;
    if (out->value) {
        if (out->size < n)
            err = CL_INVALID_VALUE;
        else if (n)
            memcpy(out->value, src, n);
    }
    if (err == CL_SUCCESS && out->size_ret)
        *out->size_ret = n;
    return err;
}

cl_int cv_info_str(const cv_info *out, const char *s) {
    return cv_info_bytes(out, s, strlen(s) + 1);
}

#define CV_INFO_SCALAR(fn, type)                                                                   \
    cl_int fn(const cv_info *out, type v) {                                                        \
        return cv_info_bytes(out, &v, sizeof v);                                                   \
    }
CV_INFO_SCALAR(cv_info_uint, cl_uint)
CV_INFO_SCALAR(cv_info_int, cl_int)
CV_INFO_SCALAR(cv_info_ulong, cl_ulong)
CV_INFO_SCALAR(cv_info_size, size_t)
CV_INFO_SCALAR(cv_info_bool, cl_bool)
CV_INFO_SCALAR(cv_info_ptr, const void *)
