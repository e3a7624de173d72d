/* Memory object entry points: buffers, sub-buffers, references, queries, destructor callbacks. */
#include "api/entry_points.h"
#include "api/mem_check.h"
#include "util/log.h"
#include "core/mem.h"
#include "core/usm.h"

#define CV_MEM_KNOWN_FLAGS                                                                         \
    (CV_MEM_ACCESS_FLAGS | CV_MEM_HOST_ACCESS_FLAGS | CL_MEM_USE_HOST_PTR |                        \
     CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

static bool cv_at_most_one(cl_mem_flags f) {
    return (f & (f - 1)) == 0;
}

cl_int cv_check_mem_flags(cl_mem_flags flags) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if values specified in flags are not valid as defined in the Memory
     * Flags table": unknown bits (the SVM and image-only flags included), more than one of the
     * device access flags or of the host access flags, and CL_MEM_USE_HOST_PTR with
     * CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR ("mutually exclusive"). */
    if ((flags & ~(cl_mem_flags)CV_MEM_KNOWN_FLAGS) ||
        !cv_at_most_one(flags & CV_MEM_ACCESS_FLAGS) ||
        !cv_at_most_one(flags & CV_MEM_HOST_ACCESS_FLAGS) ||
        ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
        err = CL_INVALID_VALUE;
    return err;
}

size_t cv_mem_props_len(const cl_mem_properties *props) {
    size_t n = 0;
    while (props && props[n] != 0)
        n += 2;
    return props ? n + 1 : 0;
}

bool cv_fits_devices(cl_context ctx, cl_device_id dev, size_t size) {
    bool fits = true;
    for (cl_uint i = 0; i < ctx->num_devices && fits; i++)
        if (!dev || ctx->devices[i] == dev)
            fits = size <= cv_device_max_alloc(ctx->devices[i]);
    return fits;
}

static bool cv_fits_some_device(cl_context ctx, size_t size) {
    bool fits = false;
    for (cl_uint i = 0; i < ctx->num_devices && !fits; i++)
        fits = size <= cv_device_max_alloc(ctx->devices[i]);
    return fits;
}

static cl_mem cv_create_buffer(cl_context context, const cl_mem_properties *properties,
                               cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode) {
    cl_mem m = NULL;
    cl_int err = CL_SUCCESS;
    size_t num_props = cv_mem_props_len(properties);
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_PROPERTY if a property name in properties is not a supported property name,
     * if the value specified for a supported property name is not valid, or if the same
     * property name is specified more than once." (No buffer property is supported.) */
    else if (num_props > 1)
        err = CL_INVALID_PROPERTY;
    else
        err = cv_check_mem_flags(flags);
    /* "CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
     * CL_DEVICE_MAX_MEM_ALLOC_SIZE value specified in the Device Queries table for all devices
     * in context." */
    if (err == CL_SUCCESS && (size == 0 || !cv_fits_some_device(context, size)))
        err = CL_INVALID_BUFFER_SIZE;
    /* "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
     * are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
     * CL_MEM_USE_HOST_PTR are not set in flags." */
    else if (err == CL_SUCCESS &&
             (host_ptr == NULL) == ((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0))
        err = CL_INVALID_HOST_PTR;
    /* "CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set in flags and host_ptr is a pointer
     * returned by clSVMAlloc and size is greater than the size passed to clSVMAlloc." (for a
     * pointer into any SVM or USM allocation: past its end) */
    else if (err == CL_SUCCESS && (flags & CL_MEM_USE_HOST_PTR) &&
             cv_usm_find(context, host_ptr).type != CV_USM_NONE &&
             !cv_usm_range(context, host_ptr, size, NULL))
        err = CL_INVALID_BUFFER_SIZE;
    if (err == CL_SUCCESS)
        m = cv_buffer_create(context, flags, size, host_ptr, properties, num_props, &err);
    if (errcode)
        *errcode = err;
    return m;
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret) {
    cl_int err;
    cl_mem m = cv_create_buffer(context, NULL, flags, size, host_ptr, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
    cl_int err;
    cl_mem m = cv_create_buffer(context, properties, flags, size, host_ptr, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

/* The sub-buffer's flags: what flags says, the rest inherited from the parent. */
static cl_mem_flags cv_sub_buffer_flags(cl_mem parent, cl_mem_flags flags) {
    cl_mem_flags f = flags;
    /* "If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values are not
     * specified in flags, they are inherited from the corresponding memory access qualifiers
     * associated with buffer. The CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and
     * CL_MEM_COPY_HOST_PTR values cannot be specified in flags but are inherited ..." (and the
     * host access flags likewise) */
    if (!(f & CV_MEM_ACCESS_FLAGS))
        f |= parent->flags & CV_MEM_ACCESS_FLAGS;
    if (!(f & CV_MEM_HOST_ACCESS_FLAGS))
        f |= parent->flags & CV_MEM_HOST_ACCESS_FLAGS;
    f |= parent->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    return f;
}

static cl_int cv_check_sub_buffer_flags(cl_mem buffer, cl_mem_flags flags) {
    cl_mem_flags p = buffer->flags;
    cl_int err = cv_check_mem_flags(flags);
    /* "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags specifies
     * CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created with CL_MEM_READ_ONLY and
     * flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or if flags specifies
     * CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR." */
    if (((p & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((p & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and flags specify
     * CL_MEM_HOST_READ_ONLY, or if buffer was created with CL_MEM_HOST_READ_ONLY and flags
     * specify CL_MEM_HOST_WRITE_ONLY, or if buffer was created with CL_MEM_HOST_NO_ACCESS and
     * flags specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY." */
    if (((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((p & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        err = CL_INVALID_VALUE;
    return err;
}

/* Is origin aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN of at least one device of ctx? */
static bool cv_sub_buffer_aligned(cl_context ctx, size_t origin) {
    bool aligned = false;
    for (cl_uint i = 0; i < ctx->num_devices && !aligned; i++)
        aligned = cv_mem_offset_aligned(ctx->devices[i], origin);
    return aligned;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info, cl_int *errcode_ret) {
    cl_mem m = NULL;
    cl_int err = CL_SUCCESS;
    const cl_buffer_region *r = buffer_create_info;
    /* "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a sub-buffer
     * object." (A host value is a culvert slot, not a buffer one can view into.) */
    if (!cv_is_mem(buffer) || buffer->kind != CV_MEM_BUFFER)
        err = CL_INVALID_MEM_OBJECT;
    else
        err = cv_check_sub_buffer_flags(buffer, flags);
    /* "CL_INVALID_VALUE if the value specified in buffer_create_type is not valid." */
    if (err == CL_SUCCESS && buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if value(s) specified in buffer_create_info (for a given
     * buffer_create_type) is not valid or if buffer_create_info is NULL." */
    else if (err == CL_SUCCESS && !r)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region structure passed in
     * buffer_create_info is 0." */
    else if (err == CL_SUCCESS && r->size == 0)
        err = CL_INVALID_BUFFER_SIZE;
    /* "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in
     * buffer_create_info is out of bounds of buffer." */
    else if (err == CL_SUCCESS && !cv_range_ok(r->origin, r->size, buffer->size))
        err = CL_INVALID_VALUE;
    /* "CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context associated with
     * buffer for which the origin field of the cl_buffer_region structure passed in
     * buffer_create_info is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value." */
    else if (err == CL_SUCCESS && !cv_sub_buffer_aligned(buffer->context, r->origin))
        err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    if (err == CL_SUCCESS)
        m = cv_sub_buffer_create(buffer, cv_sub_buffer_flags(buffer, flags), r->origin, r->size,
                                 &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
    /* "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object (buffer or image
     * object)." */
    cl_int err = cv_is_mem(memobj) ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
    if (err == CL_SUCCESS)
        cv_retain(&memobj->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    /* "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object." */
    cl_int err = cv_is_mem(memobj) ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
    /* The memory goes with the last hold: commands in flight keep theirs (cv_command_keep),
     * sub-buffers hold their parent. */
    if (err == CL_SUCCESS)
        cv_mem_release(memobj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
    /* "CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object." */
    cl_int err = cv_is_mem(memobj) ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
    if (err == CL_SUCCESS)
        err = cv_mem_info(memobj, param_name,
                          &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj, void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data), void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object." */
    if (!cv_is_mem(memobj))
        err = CL_INVALID_MEM_OBJECT;
    /* "CL_INVALID_VALUE if pfn_notify is NULL." */
    else if (!pfn_notify)
        err = CL_INVALID_VALUE;
    else
        err = cv_mem_add_destructor(memobj, pfn_notify, user_data);
    CV_API_ERROR(err);
    return err;
}
