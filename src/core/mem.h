/* cl_mem: buffers, sub-buffers, images (core/image.h) and host values (cl_culvert_host_value). */
#ifndef CV_CORE_MEM_H
#define CV_CORE_MEM_H

#include "core/context.h"

typedef enum cv_mem_kind {
    CV_MEM_BUFFER,
    CV_MEM_SUB_BUFFER,
    CV_MEM_HOST_VALUE,
    CV_MEM_IMAGE,
} cv_mem_kind;

struct cv_host_value; /* core/host_value.h */
struct cv_image;      /* core/image.h */
struct cv_mem_backing;
struct cv_mapping;

typedef void(CL_CALLBACK *cv_mem_destructor_fn)(cl_mem memobj, void *user_data);

typedef struct cv_mem_destructor {
    cv_mem_destructor_fn fn;
    void *user_data;
    struct cv_mem_destructor *next;
} cv_mem_destructor;

struct _cl_mem {
    cv_object obj;
    cl_context context;
    cv_mem_kind kind;
    cl_mem_flags flags;
    size_t size;
    /* CL_MEM_USE_HOST_PTR's pointer (sub-buffers: the parent's + offset); host values: the
     * slot's host address; else NULL */
    void *host_ptr;
    cl_mem parent; /* sub-buffers: the buffer they view (held) */
    size_t offset; /* sub-buffers: bytes into the parent */
    /* The device address on the context's first device (sub-buffers: the parent's + offset).
     * Commands on other devices of a multi-device context use cv_mem_locate() instead, which
     * allocates there and brings the contents over. */
    cl_ulong device_address;
    /* Buffers on an SVM or USM allocation (CL_MEM_USE_HOST_PTR of such a pointer, core/usm.h):
     * host_ptr and device_address are the same bytes, there is no backing, and maps move
     * nothing. */
    bool usm;
    struct cv_mem_backing *backing;   /* buffers: allocations, shadows; owned by core/mem.c */
    struct cv_host_value *host_value; /* CV_MEM_HOST_VALUE only */
    struct cv_image *image;           /* CV_MEM_IMAGE only; owned by core/image.c */
    /* Owned by core/mem.c; zero in a calloc'ed object is the right start for every kind. */
    cl_mem_properties *properties;  /* clCreateBufferWithProperties' list, 0-terminated */
    size_t num_properties;          /* entries with the terminator; 0: none given */
    cv_mem_destructor *destructors; /* newest first: called in reverse order of registration */
    cv_destroy_fn kind_destroy;     /* the kind's destroy, once destructors wrap obj.destroy */
    struct cv_mapping *mappings;    /* live clEnqueueMapBuffer regions */
    cl_uint map_count;
};

static inline bool cv_is_mem(const void *h) {
    return cv_object_valid(h, CV_TAG_MEM);
}

/* The buffer a sub-buffer views (itself for buffers and host values). */
static inline cl_mem cv_mem_root(cl_mem m) {
    return m->kind == CV_MEM_SUB_BUFFER ? m->parent : m;
}

/* Byte offset of m within its root. */
static inline size_t cv_mem_root_offset(cl_mem m) {
    return m->kind == CV_MEM_SUB_BUFFER ? m->offset : 0;
}

/* Memory the host and the device share as it is (host values, buffers on SVM/USM
 * allocations): maps and unmaps copy nothing. */
static inline bool cv_mem_coherent(cl_mem m) {
    return m->kind == CV_MEM_HOST_VALUE || cv_mem_root(m)->usm;
}

/* A new cl_mem of the kind with no memory yet (core/image.c builds images on it). */
cl_mem cv_mem_new(cl_context ctx, cv_mem_kind kind, cl_mem_flags flags, size_t size);
/* Copies src into the first device's copy of a new buffer, synchronously (nobody else sees the
 * buffer yet). */
cl_int cv_mem_upload(cl_mem m, const void *src);
/* Creates a buffer (flags and host_ptr validated by the API). */
cl_mem cv_buffer_create(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                        const cl_mem_properties *props, size_t num_props, cl_int *err);
/* A sub-buffer of a buffer (validated); flags already complete (inherited ones added). */
cl_mem cv_sub_buffer_create(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size,
                            cl_int *err);
cl_int cv_mem_info(cl_mem m, cl_mem_info param, const cv_info *out);
/* clReleaseMemObject: the application's reference goes; with its last one, the memory of a
 * USE_HOST_PTR buffer is the application's again (commands in flight may still hold the
 * buffer). */
void cv_mem_release(cl_mem m);
/* Registers a destructor callback (any kind of cl_mem: it wraps the kind's destroy). */
cl_int cv_mem_add_destructor(cl_mem m, cv_mem_destructor_fn fn, void *user_data);

struct cv_command;
/* The device address of m (sub-buffers included) on the command's device, allocating it there
 * and bringing the latest contents over on first use in multi-device contexts. will_write: the
 * command overwrites (part of) m there, so that device then holds the latest contents. */
cl_int cv_mem_locate(cl_mem m, struct cv_command *cmd, bool will_write, cl_ulong *address);

/* The device address of m on dev, allocated there if needed (the device bound), without bringing
 * contents over: a command buffer records addresses once, and cv_mem_locate moves the contents
 * at each launch in multi-device contexts. */
cl_int cv_mem_address_on(cl_mem m, cl_device_id dev, cl_ulong *address);

/* Maps: the host pointer for [offset, offset+size) of m, and the bookkeeping of unmap. */
cl_int cv_mem_map_begin(cl_mem m, size_t offset, size_t size, cl_map_flags flags, void **ptr);
/* Finds and removes the mapping of ptr; *write tells whether the region must go back. */
cl_int cv_mem_map_end(cl_mem m, void *ptr, size_t *offset, size_t *size, bool *write);
/* Undoes a cv_mem_map_begin whose command could not be enqueued. */
void cv_mem_map_cancel(cl_mem m, void *ptr);

#endif
