/* cl_sampler: how kernels read images. A kernel receives a sampler as its bits, the CLK_* values
 * of OpenCL C (docs/kernel-abi.md), the same for an argument and for a sampler declared in the
 * program. */
#ifndef CV_CORE_SAMPLER_H
#define CV_CORE_SAMPLER_H

#include "core/context.h"
#include "core/info.h"

struct _cl_sampler {
    cv_object obj;
    cl_context context;
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
    cl_sampler_properties *properties; /* as given, 0-terminated; NULL if none were */
    size_t num_properties;             /* entries with the terminator; 0 if none */
    uint64_t bits;                     /* what a kernel receives */
};

static inline bool cv_is_sampler(const void *h) {
    return cv_object_valid(h, CV_TAG_SAMPLER);
}

/* A sampler of validated modes; props (num_props entries, terminator included) are copied. */
cl_sampler cv_sampler_create(cl_context ctx, cl_bool normalized, cl_addressing_mode addressing,
                             cl_filter_mode filter, const cl_sampler_properties *props,
                             size_t num_props, cl_int *err);
cl_int cv_sampler_info(cl_sampler s, cl_sampler_info param, const cv_info *out);

#endif
