#include "core/sampler.h"

#include <stdlib.h>
#include <string.h>

/* OpenCL C's CLK_* values (clang's opencl-c-base.h): what kernels test. */
enum {
    CV_CLK_NORMALIZED = 1,
    CV_CLK_ADDRESS_CLAMP_TO_EDGE = 2,
    CV_CLK_ADDRESS_CLAMP = 4,
    CV_CLK_ADDRESS_REPEAT = 6,
    CV_CLK_ADDRESS_MIRRORED_REPEAT = 8,
    CV_CLK_FILTER_NEAREST = 0x10,
    CV_CLK_FILTER_LINEAR = 0x20,
};

static uint64_t cv_sampler_bits(cl_bool normalized, cl_addressing_mode a, cl_filter_mode f) {
    static const struct {
        cl_addressing_mode mode;
        uint64_t bits;
    } modes[] = {{CL_ADDRESS_NONE, 0},
                 {CL_ADDRESS_CLAMP_TO_EDGE, CV_CLK_ADDRESS_CLAMP_TO_EDGE},
                 {CL_ADDRESS_CLAMP, CV_CLK_ADDRESS_CLAMP},
                 {CL_ADDRESS_REPEAT, CV_CLK_ADDRESS_REPEAT},
                 {CL_ADDRESS_MIRRORED_REPEAT, CV_CLK_ADDRESS_MIRRORED_REPEAT}};
    uint64_t bits = normalized ? CV_CLK_NORMALIZED : 0;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i].mode == a)
            bits |= modes[i].bits;
    return bits | (f == CL_FILTER_LINEAR ? CV_CLK_FILTER_LINEAR : CV_CLK_FILTER_NEAREST);
}

static void cv_sampler_destroy(cv_object *obj) {
    cl_sampler s = (cl_sampler)obj;
    cl_context ctx = s->context;
    free(s->properties);
    free(s);
    cv_context_unhold(ctx, CV_PART_SAMPLER);
}

cl_sampler cv_sampler_create(cl_context ctx, cl_bool normalized, cl_addressing_mode addressing,
                             cl_filter_mode filter, const cl_sampler_properties *props,
                             size_t num_props, cl_int *err) {
    cl_sampler s = calloc(1, sizeof *s);
    cl_sampler_properties *copy = num_props ? calloc(num_props, sizeof *props) : NULL;
    *err = s && (copy || !num_props) ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (*err != CL_SUCCESS) {
        free(s);
        free(copy);
        return NULL;
    }
    cv_object_init(&s->obj, CV_TAG_SAMPLER, cv_sampler_destroy);
    s->context = ctx;
    cv_context_hold(ctx, CV_PART_SAMPLER);
    s->normalized = normalized ? CL_TRUE : CL_FALSE;
    s->addressing = addressing;
    s->filter = filter;
    if (num_props)
        memcpy(copy, props, num_props * sizeof *props);
    s->properties = copy;
    s->num_properties = num_props;
    s->bits = cv_sampler_bits(s->normalized, addressing, filter);
    return s;
}

cl_int cv_sampler_info(cl_sampler s, cl_sampler_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&s->obj));
        break;
    case CL_SAMPLER_CONTEXT:
        err = cv_info_ptr(out, s->context);
        break;
    case CL_SAMPLER_NORMALIZED_COORDS:
        err = cv_info_bool(out, s->normalized);
        break;
    case CL_SAMPLER_ADDRESSING_MODE:
        err = cv_info_uint(out, s->addressing);
        break;
    case CL_SAMPLER_FILTER_MODE:
        err = cv_info_uint(out, s->filter);
        break;
    case CL_SAMPLER_PROPERTIES:
        err = cv_info_bytes(out, s->properties, s->num_properties * sizeof *s->properties);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
