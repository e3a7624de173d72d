/* Validation shared by the memory entry points. */
#ifndef CV_API_MEM_CHECK_H
#define CV_API_MEM_CHECK_H

#include "core/mem.h"
#include "core/mem_transfer.h"

#include <stdbool.h>

#define CV_MEM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define CV_MEM_HOST_ACCESS_FLAGS                                                                   \
    (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)

/* Is [offset, offset + size) inside [0, total)? Without overflow for any inputs. */
static inline bool cv_range_ok(size_t offset, size_t size, size_t total) {
    return offset <= total && size <= total - offset;
}

/* Is offset a multiple of the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (bits)? */
bool cv_mem_offset_aligned(cl_device_id dev, size_t offset);

/* m is a buffer of ctx that dev can use: CL_INVALID_MEM_OBJECT, CL_INVALID_CONTEXT,
 * CL_MISALIGNED_SUB_BUFFER_OFFSET as the buffer commands answer them. */
cl_int cv_check_mem_on(cl_context ctx, cl_device_id dev, cl_mem m);
/* The checks of the buffer commands after those of their objects (clEnqueueCopyBuffer,
 * clEnqueueCopyBufferRect, clEnqueueFillBuffer); the command-buffer commands share them. The
 * rectangle check fills s and d (pitches defaulted). */
cl_int cv_check_copy_range(cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t cb);
cl_int cv_check_copy_rect(cl_mem src, cl_mem dst, const size_t *src_origin,
                          const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                          size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                          cv_rect *s, cv_rect *d);
cl_int cv_check_fill(cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                     size_t cb);

/* The checks of clEnqueueSVMMemcpy / clEnqueueSVMMemFill on their pointers (the command-buffer
 * and USM commands share them). */
cl_int cv_check_ptr_copy(const void *dst, const void *src, size_t size);
cl_int cv_check_ptr_fill(const void *ptr, const void *pattern, size_t pattern_size, size_t size);
/* The queue and its wait list, as every command on SVM or USM pointers checks them; svm: the
 * queue's device must have SVM (the SVM commands). */
cl_int cv_check_ptr_command(cl_command_queue q, bool svm, bool blocking, cl_uint n,
                            const cl_event *list);
/* Copies and fills on pointers, checks included (clEnqueueSVMMemcpy/MemFill,
 * clEnqueueMemcpyINTEL/MemFillINTEL). */
cl_int cv_ptr_copy(cl_command_queue q, bool svm, cl_command_type type, bool blocking, void *dst,
                   const void *src, size_t size, const cv_waits *w);
cl_int cv_ptr_fill(cl_command_queue q, bool svm, cl_command_type type, void *dst,
                   const void *pattern, size_t pattern_size, size_t size, const cv_waits *w);

/* Is size within CL_DEVICE_MAX_MEM_ALLOC_SIZE of dev, or of every device of ctx (dev NULL)? */
bool cv_fits_devices(cl_context ctx, cl_device_id dev, size_t size);

/* The wait list of a command on q; blocking: an event of it that failed is
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
cl_int cv_check_waits(cl_command_queue q, bool blocking, cl_uint n, const cl_event *list);
/* Entries of a 0-terminated memory property list, terminator included; 0 for NULL. */
size_t cv_mem_props_len(const cl_mem_properties *props);

/* The flags of clCreateBuffer (and the flags argument of clCreateSubBuffer). */
cl_int cv_check_mem_flags(cl_mem_flags flags);

#endif
