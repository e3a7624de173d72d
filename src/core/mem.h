/* cl_mem: buffers, sub-buffers and host values (cl_culvert_host_value). */
#ifndef CV_CORE_MEM_H
#define CV_CORE_MEM_H

#include "core/context.h"

typedef enum cv_mem_kind {
    CV_MEM_BUFFER,
    CV_MEM_SUB_BUFFER,
    CV_MEM_HOST_VALUE,
} cv_mem_kind;

struct cv_host_value; /* core/host_value.h */

struct _cl_mem {
    cv_object obj;
    cl_context context;
    cv_mem_kind kind;
    cl_mem_flags flags;
    size_t size;
    void *host_ptr;    /* CL_MEM_USE_HOST_PTR's pointer, else NULL */
    cl_mem parent;     /* sub-buffers: the buffer they view (held) */
    size_t offset;     /* sub-buffers: bytes into the parent */
    /* The device address kernels and copies use, for the context's first device. (Buffers of
     * multi-device contexts add a per-device table here: see core/mem.c.) */
    cl_ulong device_address;
    struct cv_mem_backing *backing;       /* buffers: allocations, shadows; owned by core/mem.c */
    struct cv_host_value *host_value;     /* CV_MEM_HOST_VALUE only */
};

static inline bool cv_is_mem(const void *h) {
    return cv_object_valid(h, CV_TAG_MEM);
}

#endif
