/* Sampler entry points. Without image support (core/image.h) a context has no samplers: "
 * CL_INVALID_OPERATION if images are not supported by any device associated with context". */
#include "api/entry_points.h"
#include "core/image.h"
#include "core/sampler.h"
#include "util/log.h"

static bool cv_addressing_valid(cl_ulong a) {
    return a == CL_ADDRESS_NONE || a == CL_ADDRESS_CLAMP_TO_EDGE || a == CL_ADDRESS_CLAMP ||
           a == CL_ADDRESS_REPEAT || a == CL_ADDRESS_MIRRORED_REPEAT;
}

static bool cv_filter_valid(cl_ulong f) {
    return f == CL_FILTER_NEAREST || f == CL_FILTER_LINEAR;
}

/* Reads a property list into the modes: "CL_INVALID_VALUE if the property name in
 * sampler_properties is not a supported property name, if the value specified for a supported
 * property name is not valid, or if the same property name is specified more than once."
 * *n: entries with the terminator (0 for NULL). */
static cl_int cv_sampler_props(const cl_sampler_properties *p, cl_bool *normalized,
                               cl_addressing_mode *addressing, cl_filter_mode *filter, size_t *n) {
    bool seen[3] = {false, false, false};
    cl_int err = CL_SUCCESS;
    size_t i = 0;
    for (; p && p[i] != 0 && err == CL_SUCCESS; i += 2) {
        cl_sampler_properties name = p[i], v = p[i + 1];
        int k = name == CL_SAMPLER_NORMALIZED_COORDS ? 0
                : name == CL_SAMPLER_ADDRESSING_MODE ? 1
                : name == CL_SAMPLER_FILTER_MODE     ? 2
                                                     : -1;
        if (k < 0 || seen[k])
            err = CL_INVALID_VALUE;
        else if ((k == 0 && v != CL_TRUE && v != CL_FALSE) || (k == 1 && !cv_addressing_valid(v)) ||
                 (k == 2 && !cv_filter_valid(v)))
            err = CL_INVALID_VALUE;
        else if (k == 0)
            *normalized = (cl_bool)v;
        else if (k == 1)
            *addressing = (cl_addressing_mode)v;
        else
            *filter = (cl_filter_mode)v;
        if (k >= 0)
            seen[k] = true;
    }
    *n = p ? i + 1 : 0;
    return err;
}

static cl_sampler cv_create_sampler(cl_context context, const cl_sampler_properties *props,
                                    cl_bool normalized, cl_addressing_mode addressing,
                                    cl_filter_mode filter, cl_int *errcode) {
    cl_sampler s = NULL;
    size_t n = 0;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    else
        err = cv_sampler_props(props, &normalized, &addressing, &filter, &n);
    /* "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a combination of
     * these arguments are not valid." */
    if (err == CL_SUCCESS && ((normalized != CL_TRUE && normalized != CL_FALSE) ||
                              !cv_addressing_valid(addressing) || !cv_filter_valid(filter)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if images are not supported by any device associated with
     * context" */
    if (err == CL_SUCCESS && !cv_images_enabled())
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS)
        s = cv_sampler_create(context, normalized, addressing, filter, props, n, &err);
    *errcode = err;
    return s;
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int *errcode_ret) {
    cl_int err;
    cl_sampler s =
        cv_create_sampler(context, NULL, normalized_coords, addressing_mode, filter_mode, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return s;
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret) {
    cl_int err;
    /* The defaults of properties not given: normalized, clamp, nearest. */
    cl_sampler s = cv_create_sampler(context, sampler_properties, CL_TRUE, CL_ADDRESS_CLAMP,
                                     CL_FILTER_NEAREST, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return s;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
    /* "CL_INVALID_SAMPLER if sampler is not a valid sampler object." */
    cl_int err = cv_is_sampler(sampler) ? CL_SUCCESS : CL_INVALID_SAMPLER;
    if (err == CL_SUCCESS)
        cv_retain(&sampler->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
    /* "CL_INVALID_SAMPLER if sampler is not a valid sampler object." */
    cl_int err = cv_is_sampler(sampler) ? CL_SUCCESS : CL_INVALID_SAMPLER;
    if (err == CL_SUCCESS)
        cv_release(&sampler->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
    /* "CL_INVALID_SAMPLER if sampler is a not a valid sampler object." */
    cl_int err =
        cv_is_sampler(sampler)
            ? cv_sampler_info(sampler, param_name,
                              &CV_INFO(param_value_size, param_value, param_value_size_ret))
            : CL_INVALID_SAMPLER;
    CV_API_ERROR(err);
    return err;
}
