/* Validation shared by the memory entry points. */
#ifndef CV_API_MEM_CHECK_H
#define CV_API_MEM_CHECK_H

#include "core/mem.h"

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

/* The flags of clCreateBuffer (and the flags argument of clCreateSubBuffer). */
cl_int cv_check_mem_flags(cl_mem_flags flags);

#endif
