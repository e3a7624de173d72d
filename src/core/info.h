/* The one writer behind every clGet*Info: size checks and copies in a single place. */
#ifndef CV_CORE_INFO_H
#define CV_CORE_INFO_H

#include "util/cl_headers.h"
#include <stddef.h>

typedef struct cv_info {
    size_t size;      /* param_value_size */
    void *value;      /* param_value, may be NULL */
    size_t *size_ret; /* param_value_size_ret, may be NULL */
} cv_info;

#define CV_INFO(size, value, size_ret) ((cv_info){(size), (value), (size_ret)})

/* "CL_INVALID_VALUE if ... size in bytes specified by param_value_size is < size of return type
 * ... and param_value is not NULL." */
cl_int cv_info_bytes(const cv_info *out, const void *src, size_t n);
cl_int cv_info_str(const cv_info *out, const char *s);
cl_int cv_info_uint(const cv_info *out, cl_uint v);
cl_int cv_info_int(const cv_info *out, cl_int v);
cl_int cv_info_ulong(const cv_info *out, cl_ulong v);
cl_int cv_info_size(const cv_info *out, size_t v);
cl_int cv_info_bool(const cv_info *out, cl_bool v);
cl_int cv_info_ptr(const cv_info *out, const void *v);

#endif
