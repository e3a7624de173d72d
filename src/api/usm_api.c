/* Unified shared memory (cl_intel_unified_shared_memory): host, device and shared allocations
 * as pointers (core/usm.h), the commands on them, and what the kernels may reach. */
#include "api/entry_points.h"
#include "api/mem_check.h"
#include "core/event.h"
#include "core/kernel.h"
#include "core/queue.h"
#include "core/usm.h"

#define CV_USM_ALLOC_FLAGS                                                                         \
    (CL_MEM_ALLOC_WRITE_COMBINED_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |             \
     CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)

/* The properties of an allocation: CL_MEM_ALLOC_FLAGS_INTEL once at most, with known bits. */
static cl_int cv_usm_props(const cl_mem_properties_intel *props, cv_usm_type type,
                           cl_mem_alloc_flags_intel *flags) {
    const cl_mem_alloc_flags_intel placement =
        CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
    cl_int err = CL_SUCCESS;
    bool seen = false;
    *flags = 0;
    for (size_t i = 0; props && props[i] != 0 && err == CL_SUCCESS; i += 2) {
        cl_mem_alloc_flags_intel f = props[i + 1];
        /* "CL_INVALID_PROPERTY if a memory property name in properties is not a supported
         * property name, if the value specified for a supported property name is not valid, or
         * if the same property name is specified more than once." */
        if (props[i] != CL_MEM_ALLOC_FLAGS_INTEL || seen || (f & ~CV_USM_ALLOC_FLAGS))
            err = CL_INVALID_PROPERTY;
        /* Host and device allocations: "CL_INVALID_PROPERTY if either the
         * CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL or CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL
         * flags are specified." Shared ones: "if both ... are specified." */
        else if (type == CV_USM_SHARED ? (f & placement) == placement : (f & placement) != 0)
            err = CL_INVALID_PROPERTY;
        else
            *flags = f;
        seen = true;
    }
    return err;
}

/* Can every device of the context (dev: that one) take an allocation of this type? */
static bool cv_usm_supported(cl_context ctx, cl_device_id dev, cv_usm_type type) {
    bool ok = ctx->num_devices > 0;
    for (cl_uint i = 0; i < ctx->num_devices && ok; i++)
        if (!dev || ctx->devices[i] == dev)
            ok = (cv_usm_caps(ctx->devices[i], type) & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL) != 0;
    return ok;
}

/* The size of the largest data type a device supports (long16, double16): the largest
 * alignment a USM allocation may ask for, and the default one (which culvert's allocators give
 * anyway). */
#define CV_USM_LARGEST_TYPE 128

static void *cv_usm_alloc_api(cl_context context, cl_device_id device, cv_usm_type type,
                              const cl_mem_properties_intel *properties, size_t size,
                              cl_uint alignment, cl_int *errcode_ret) {
    void *p = NULL;
    cl_mem_alloc_flags_intel flags = 0;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_DEVICE if device is not a valid device or is not associated with context."
     * (shared allocations: "if device is not NULL and ...") */
    else if (type != CV_USM_HOST && (device || type == CV_USM_DEVICE) &&
             !cv_context_has_device(context, device))
        err = CL_INVALID_DEVICE;
    /* "CL_INVALID_OPERATION if CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL is zero for all devices in
     * context" / "... CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL is zero for device" / shared: the
     * shared capabilities of device, or of every device where it is NULL. */
    else if (!cv_usm_supported(context, device, type))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE if alignment is not zero or a power of two." / "if alignment is greater
     * than the size of the largest data type supported by [the device(s)]" */
    else if ((alignment & (alignment - 1)) || alignment > CV_USM_LARGEST_TYPE)
        err = CL_INVALID_VALUE;
    else
        err = cv_usm_props(properties, type, &flags);
    /* "CL_INVALID_BUFFER_SIZE if size is zero or greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE for
     * [the device(s)]" */
    if (err == CL_SUCCESS && (size == 0 || !cv_fits_devices(context, device, size)))
        err = CL_INVALID_BUFFER_SIZE;
    if (err == CL_SUCCESS)
        p = cv_usm_alloc_new(context, type, device, flags, size, alignment, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return p;
}

void *CL_API_CALL clHostMemAllocINTEL(cl_context context, const cl_mem_properties_intel *properties,
                                      size_t size, cl_uint alignment, cl_int *errcode_ret) {
    return cv_usm_alloc_api(context, NULL, CV_USM_HOST, properties, size, alignment, errcode_ret);
}

void *CL_API_CALL clDeviceMemAllocINTEL(cl_context context, cl_device_id device,
                                        const cl_mem_properties_intel *properties, size_t size,
                                        cl_uint alignment, cl_int *errcode_ret) {
    return cv_usm_alloc_api(context, device, CV_USM_DEVICE, properties, size, alignment,
                            errcode_ret);
}

void *CL_API_CALL clSharedMemAllocINTEL(cl_context context, cl_device_id device,
                                        const cl_mem_properties_intel *properties, size_t size,
                                        cl_uint alignment, cl_int *errcode_ret) {
    return cv_usm_alloc_api(context, device, CV_USM_SHARED, properties, size, alignment,
                            errcode_ret);
}

/* The USM allocation that holds ptr (SVM allocations are none: type CV_USM_NONE). */
static cv_usm_alloc cv_usm_of(cl_context ctx, const void *ptr) {
    cv_usm_alloc a = cv_usm_find(ctx, ptr);
    return a.type == CV_USM_SVM ? (cv_usm_alloc){0} : a;
}

static cl_int cv_usm_free_api(cl_context context, void *ptr, bool blocking) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "If ptr is NULL then no action occurs." / "CL_INVALID_VALUE if ptr is not a value
     * returned by clHostMemAllocINTEL, clDeviceMemAllocINTEL, clSharedMemAllocINTEL, or a NULL
     * pointer." (SVM allocations go with clSVMFree) */
    else if (ptr && cv_usm_of(context, ptr).ptr != ptr)
        err = CL_INVALID_VALUE;
    else if (ptr)
        cv_usm_free(context, ptr, blocking);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clMemFreeINTEL(cl_context context, void *ptr) {
    return cv_usm_free_api(context, ptr, false);
}

cl_int CL_API_CALL clMemBlockingFreeINTEL(cl_context context, void *ptr) {
    return cv_usm_free_api(context, ptr, true);
}

cl_int CL_API_CALL clGetMemAllocInfoINTEL(cl_context context, const void *ptr,
                                          cl_mem_info_intel param_name, size_t param_value_size,
                                          void *param_value, size_t *param_value_size_ret) {
    cl_int err = CL_SUCCESS;
    cv_info out = CV_INFO(param_value_size, param_value, param_value_size_ret);
    cv_usm_alloc a = {0};
    static const cl_unified_shared_memory_type_intel types[] = {
        [CV_USM_NONE] = CL_MEM_TYPE_UNKNOWN_INTEL,
        [CV_USM_HOST] = CL_MEM_TYPE_HOST_INTEL,
        [CV_USM_DEVICE] = CL_MEM_TYPE_DEVICE_INTEL,
        [CV_USM_SHARED] = CL_MEM_TYPE_SHARED_INTEL};
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    else
        a = cv_usm_of(context, ptr);
    /* "Returns CL_MEM_TYPE_UNKNOWN_INTEL if ... ptr does not point into a Unified Shared Memory
     * allocation", then a NULL base and device, a zero size and no flags. The device: "NULL for
     * CL_MEM_TYPE_HOST_INTEL allocations, for CL_MEM_TYPE_SHARED_INTEL allocations with no
     * associated device". "CL_INVALID_VALUE if param_value is not NULL and param_value_size is
     * smaller than the size of the query return type" (the info writer). */
    switch (err == CL_SUCCESS ? param_name : 0) {
    case 0:
        break;
    case CL_MEM_ALLOC_TYPE_INTEL:
        err = cv_info_uint(&out, types[a.type]);
        break;
    case CL_MEM_ALLOC_BASE_PTR_INTEL:
        err = cv_info_ptr(&out, a.ptr);
        break;
    case CL_MEM_ALLOC_SIZE_INTEL:
        err = cv_info_size(&out, a.size);
        break;
    case CL_MEM_ALLOC_DEVICE_INTEL:
        err = cv_info_ptr(&out, a.device);
        break;
    case CL_MEM_ALLOC_FLAGS_INTEL:
        err = cv_info_ulong(&out, a.flags);
        break;
    /* "CL_INVALID_VALUE if param_name is not a valid Unified Shared Memory allocation query." */
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index,
                                                 const void *arg_value) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." / "CL_INVALID_ARG_VALUE
     * if arg_value is not a valid argument value." ("any pointer value is valid", from 1.1.0: only
     * the argument may not take one) */
    else
        err = cv_kernel_set_arg_pointer(kernel, arg_index, arg_value);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr,
                                         const void *pattern, size_t pattern_size, size_t size,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_ptr_fill(command_queue, false, CL_COMMAND_MEMFILL_INTEL, dst_ptr, pattern,
                             pattern_size, size, &w);
    CV_API_ERROR(err);
    return err;
}

/* Deprecated by clEnqueueMemFillINTEL: a one-byte pattern. */
cl_int CL_API_CALL clEnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr, cl_int value,
                                        size_t size, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
    cl_uchar byte = (cl_uchar)value;
    return clEnqueueMemFillINTEL(command_queue, dst_ptr, &byte, 1, size, num_events_in_wait_list,
                                 event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking,
                                        void *dst_ptr, const void *src_ptr, size_t size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_ptr_copy(command_queue, false, CL_COMMAND_MEMCPY_INTEL, blocking, dst_ptr,
                             src_ptr, size, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr,
                                            size_t size, cl_mem_migration_flags flags,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    const cl_mem_migration_flags known =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    cl_int err =
        cv_check_ptr_command(command_queue, false, false, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_VALUE if flags is not a supported combination of memory migration flags."
     * (zero is the queue's device, from revision 1.2.0). A migration "is a hint": a range of no
     * managed allocation is left where it is. */
    if (err == CL_SUCCESS && (flags & ~known))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_migrate(command_queue, CL_COMMAND_MIGRATEMEM_INTEL, 1, &ptr, &size,
                                     flags, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr,
                                           size_t size, cl_mem_advice_intel advice,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err =
        cv_check_ptr_command(command_queue, false, false, num_events_in_wait_list, event_wait_list);
    /* The extension defines no advice ("Enum values 0x4208-0x420F are reserved for future memory
     * advices") and culvert adds none: "If a memory advice hint is not supported by the device it
     * will be ignored." The command orders as any other. */
    (void)ptr;
    (void)size;
    (void)advice;
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_mark(command_queue, CL_COMMAND_MEMADVISE_INTEL, false, &w);
    CV_API_ERROR(err);
    return err;
}
