/* cl_kernel: a function of a built program with its arguments, kept ready to launch: the
 * argument values live in one buffer and `params` points at each, as cuLaunchKernel takes them,
 * so an enqueue neither allocates nor parses. */
#ifndef CV_CORE_KERNEL_H
#define CV_CORE_KERNEL_H

#include "core/program.h"

typedef enum cv_arg_kind {
    CV_ARG_VALUE,     /* bytes copied as given */
    CV_ARG_MEM,       /* a known pointer (.ptr, //cv:arg global/constant): a cl_mem or NULL */
    CV_ARG_MAYBE_MEM, /* a plain 64-bit value (nvcc's pointers): a cl_mem, NULL, or a value */
    CV_ARG_LOCAL,     /* a __local pointer: a size; the value is its slice's offset */
    CV_ARG_IMAGE,     /* an image (//cv:arg type image*_t): its descriptor's address */
    CV_ARG_SAMPLER,   /* a sampler_t: its bits (docs/kernel-abi.md) */
} cv_arg_kind;

typedef struct cv_kernel_arg {
    cv_arg_kind kind;
    uint32_t size;        /* of the parameter */
    uint32_t offset;      /* in the kernel's value buffer */
    uint32_t slice_align; /* __local: alignment of the slice */
    bool set;
    size_t local_size; /* __local: bytes asked for */
    cl_mem mem;        /* the buffer or image passed, or NULL (not held: the launch holds it) */
    cl_kernel_arg_access_qualifier access; /* images: how the kernel uses it */
    bool textured; /* a read-only image argument set to an image with texture objects */
} cv_kernel_arg;

struct _cl_kernel {
    cv_object obj;
    cl_program program; /* held */
    cl_context context;
    const cv_ptx_kernel *sig;  /* the signature (of the program's first built device) */
    cv_program_function **fns; /* per device of the program; NULL where not built */
    uint32_t num_args;
    cv_kernel_arg *args;
    unsigned char *values; /* argument values, each at its offset */
    void **params;         /* num_args + 1 pointers into values (the last: launch info) */
    uint32_t unset;        /* arguments not set yet */
    /* Read-only image arguments, and those not (yet) set to an image with texture objects: none
     * such, and the module's textured variant can run the launch (core/ptx_textured.h). */
    uint32_t ro_images, ro_untextured;
    bool launch_info; /* culvert-compiled PTX: takes the launch-information block */
    bool has_local;
    size_t smem; /* dynamic shared memory of a launch: extra + __local slices */
    /* Launch attributes (cl_culvert_launch_attributes). */
    size_t extra_smem;
    uint32_t cluster[3];
    bool cooperative;
};

static inline bool cv_is_kernel(const void *h) {
    return cv_object_valid(h, CV_TAG_KERNEL);
}

cl_kernel cv_kernel_create(cl_program p, const char *name, cl_int *err);
cl_kernel cv_kernel_clone(cl_kernel k, cl_int *err);
/* A copy of k as it is (arguments, exec info) that only culvert holds (cv_unhold drops it): no
 * kernel object the application attached, so a build of the program waits for none; the module
 * it runs stays loaded while it lives. */
cl_kernel cv_kernel_snapshot(cl_kernel k, cl_int *err);
/* clReleaseKernel: the application's reference; the last one detaches the kernel from its
 * program. */
void cv_kernel_release(cl_kernel k);
cl_int cv_kernel_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value);
/* clSetKernelArgSVMPointer (and USM's clSetKernelArgMemPointerINTEL): a pointer for a global or
 * constant pointer argument. */
cl_int cv_kernel_set_arg_pointer(cl_kernel k, cl_uint index, const void *ptr);
cl_int cv_kernel_info(cl_kernel k, cl_kernel_info param, const cv_info *out);
cl_int cv_kernel_arg_info(cl_kernel k, cl_uint index, cl_kernel_arg_info param, const cv_info *out);
/* device may be NULL when the kernel's program has one device. */
cl_int cv_kernel_work_group_info(cl_kernel k, cl_device_id device, cl_kernel_work_group_info param,
                                 const cv_info *out);
cl_int cv_kernel_sub_group_info(cl_kernel k, cl_device_id device, cl_kernel_sub_group_info param,
                                size_t in_size, const void *in, const cv_info *out);
cl_int cv_kernel_exec_info(cl_kernel k, cl_kernel_exec_info param, size_t size, const void *value);
/* The function for a device, or NULL when the program was not built for it. */
cv_program_function *cv_kernel_function(cl_kernel k, cl_device_id d);
/* clEnqueueNDRangeKernel / clEnqueueTask after the API's handle checks. global NULL, like a zero
 * in any dimension, launches nothing: the command completes after its wait list. */
cl_int cv_kernel_enqueue(cl_command_queue q, cl_kernel k, cl_command_type type, cl_uint work_dim,
                         const size_t *offset, const size_t *global, const size_t *local,
                         cl_uint num_wait, const cl_event *wait_list, cl_event *event);

#endif
