/* Shared virtual memory entry points (OpenCL 2.0+, optional in 3.0): coarse- and fine-grained
 * buffers on managed memory (core/usm.h); SVM atomics are not claimed. */
#include "api/entry_points.h"
#include "api/mem_check.h"
#include "core/event.h"
#include "core/kernel.h"
#include "core/queue.h"
#include "core/usm.h"

#define CV_SVM_KNOWN_FLAGS (CV_MEM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             unsigned int alignment) {
    void *p = NULL;
    cl_int err = CL_SUCCESS;
    cl_device_svm_capabilities caps = 0;
    /* clSVMAlloc returns NULL if "context is not a valid context, or no devices in context
     * support SVM." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    else if (!((caps = cv_usm_context_svm_caps(context)) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        err = CL_INVALID_OPERATION;
    /* "The values specified in flags do not follow rules described for supported values in the
     * SVM Memory Flags table" (one access flag at most; no other bits) */
    else if ((flags & ~(cl_svm_mem_flags)CV_SVM_KNOWN_FLAGS) ||
             ((flags & CV_MEM_ACCESS_FLAGS) & ((flags & CV_MEM_ACCESS_FLAGS) - 1)))
        err = CL_INVALID_VALUE;
    /* "flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
     * CL_MEM_SVM_ATOMICS." */
    else if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
        err = CL_INVALID_VALUE;
    /* "CL_MEM_SVM_FINE_GRAIN_BUFFER or CL_MEM_SVM_ATOMICS is specified in flags and these are
     * not supported by at least one device in context." */
    else if (((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) &&
              !(caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) ||
             ((flags & CL_MEM_SVM_ATOMICS) && !(caps & CL_DEVICE_SVM_ATOMICS)))
        err = CL_INVALID_VALUE;
    /* "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in context." */
    else if (size == 0 || !cv_fits_devices(context, NULL, size))
        err = CL_INVALID_BUFFER_SIZE;
    /* "alignment is not a power of two or the OpenCL implementation cannot support the
     * specified alignment for at least one device in context." */
    else if ((alignment & (alignment - 1)) || alignment > CV_USM_MAX_ALIGNMENT)
        err = CL_INVALID_VALUE;
    else
        p = cv_usm_alloc_new(context, CV_USM_SVM, NULL, flags, size, alignment, &err);
    CV_API_ERROR(err);
    return p;
}

/* "If a NULL pointer is passed in svm_pointer, no action occurs." A pointer of no SVM
 * allocation of the context is left alone too. */
void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
    if (cv_is_context(context) && svm_pointer &&
        cv_usm_find(context, svm_pointer).type == CV_USM_SVM)
        cv_usm_free(context, svm_pointer, false);
}

cl_int cv_check_ptr_copy(const void *dst, const void *src, size_t size) {
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if dst_ptr or src_ptr is NULL." */
    if (!dst || !src)
        err = CL_INVALID_VALUE;
    /* "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in an
     * overlapping copy." */
    else if (size && (d < s ? s - d < size : d - s < size))
        err = CL_MEM_COPY_OVERLAP;
    return err;
}

cl_int cv_check_ptr_fill(const void *ptr, const void *pattern, size_t pattern_size, size_t size) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if svm_ptr is NULL." */
    if (!ptr)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not one
     * of {1, 2, 4, 8, 16, 32, 64, 128}." */
    else if (!pattern || pattern_size == 0 || pattern_size > 128 ||
             (pattern_size & (pattern_size - 1)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes." / "if size is not a
     * multiple of pattern_size." */
    else if ((uintptr_t)ptr % pattern_size || size % pattern_size)
        err = CL_INVALID_VALUE;
    return err;
}

cl_int cv_check_ptr_command(cl_command_queue q, bool svm, bool blocking, cl_uint n,
                            const cl_event *list) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    if (!cv_is_queue(q))
        err = CL_INVALID_COMMAND_QUEUE;
    /* "CL_INVALID_OPERATION if the device associated with command_queue does not support
     * SVM." */
    else if (svm && !(cv_usm_svm_caps(q->device) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_CONTEXT if context associated with command_queue and events in
     * event_wait_list are not the same." / "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is
     * NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and
     * num_events_in_wait_list is 0, or if event objects in event_wait_list are not valid
     * events." */
    else
        err = cv_check_wait_list(q->context, n, list);
    /* "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the copy operation is blocking and the
     * execution status of any of the events in event_wait_list is a negative integer value." */
    for (cl_uint i = 0; err == CL_SUCCESS && blocking && i < n; i++)
        if (cv_event_status(list[i]) < 0)
            err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return err;
}

cl_int cv_ptr_copy(cl_command_queue q, bool svm, cl_command_type type, bool blocking, void *dst,
                   const void *src, size_t size, const cv_waits *w) {
    cl_int err = cv_check_ptr_command(q, svm, blocking, w->n, w->list);
    if (err == CL_SUCCESS)
        err = cv_check_ptr_copy(dst, src, size);
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_copy(q, type, blocking, dst, src, size, w);
    return err;
}

cl_int cv_ptr_fill(cl_command_queue q, bool svm, cl_command_type type, void *dst,
                   const void *pattern, size_t pattern_size, size_t size, const cv_waits *w) {
    cl_int err = cv_check_ptr_command(q, svm, false, w->n, w->list);
    if (err == CL_SUCCESS)
        err = cv_check_ptr_fill(dst, pattern, pattern_size, size);
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_fill(q, type, dst, pattern, pattern_size, size, w);
    return err;
}

cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void **svm_pointers,
                 void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                                  void **svm_pointers, void *user_data),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                 cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err =
        cv_check_ptr_command(command_queue, true, false, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL, or if
     * svm_pointers is NULL and num_svm_pointers is not 0." */
    if (err == CL_SUCCESS && (num_svm_pointers == 0) != (svm_pointers == NULL))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_enqueue_svm_free(command_queue, num_svm_pointers, svm_pointers, pfn_free_func,
                                  user_data, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void *dst_ptr, const void *src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_ptr_copy(command_queue, true, CL_COMMAND_SVM_MEMCPY, blocking_copy, dst_ptr,
                             src_ptr, size, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                       const void *pattern, size_t pattern_size, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_ptr_fill(command_queue, true, CL_COMMAND_SVM_MEMFILL, svm_ptr, pattern,
                             pattern_size, size, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags map_flags, void *svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                   cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    cl_int err = cv_check_ptr_command(command_queue, true, blocking_map, num_events_in_wait_list,
                                      event_wait_list);
    /* "CL_INVALID_VALUE if svm_ptr is NULL." / "if size is 0 or if values specified in
     * map_flags are not valid." (CL_MAP_WRITE_INVALIDATE_REGION with another flag included) */
    if (err == CL_SUCCESS && (!svm_ptr || size == 0 || (map_flags & ~known) ||
                              ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                               (map_flags & ~CL_MAP_WRITE_INVALIDATE_REGION))))
        err = CL_INVALID_VALUE;
    /* The host sees managed memory as it is: the map is the synchronization alone. */
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_mark(command_queue, CL_COMMAND_SVM_MAP, blocking_map, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err =
        cv_check_ptr_command(command_queue, true, false, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_VALUE if svm_ptr is NULL." */
    if (err == CL_SUCCESS && !svm_ptr)
        err = CL_INVALID_VALUE;
    /* The host's writes are in managed memory already: commands after the unmap see them. */
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_mark(command_queue, CL_COMMAND_SVM_UNMAP, false, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    const cl_mem_migration_flags known =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    cl_int err =
        cv_check_ptr_command(command_queue, true, false, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL." / "if flags is not
     * 0 or is not any of the values described in the table above." */
    if (err == CL_SUCCESS && (num_svm_pointers == 0 || !svm_pointers || (flags & ~known)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if sizes[i] is non-zero range [svm_pointers[i],
     * svm_pointers[i]+sizes[i]) is not contained within an existing clSVMAlloc allocation."
     * (and, with a zero size, where svm_pointers[i] lies in none) */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_svm_pointers; i++) {
        cv_usm_alloc a;
        if (!cv_usm_range(command_queue->context, svm_pointers[i], sizes ? sizes[i] : 0, &a) ||
            a.type != CV_USM_SVM)
            err = CL_INVALID_VALUE;
    }
    if (err == CL_SUCCESS)
        err = cv_enqueue_usm_migrate(command_queue, CL_COMMAND_SVM_MIGRATE_MEM, num_svm_pointers,
                                     svm_pointers, sizes, flags, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                            const void *arg_value) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    if (!cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    /* "CL_INVALID_OPERATION if no devices in the context associated with kernel support SVM." */
    else if (!(cv_usm_context_svm_caps(kernel->context) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." / "CL_INVALID_ARG_VALUE
     * if arg_value specified is not a valid value." */
    else
        err = cv_kernel_set_arg_pointer(kernel, arg_index, arg_value);
    CV_API_ERROR(err);
    return err;
}
