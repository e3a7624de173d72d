/* An NDRange made ready to launch: checked against the kernel and the device and turned into CUDA
 * launches (split past CUDA's grid limits for kernels with launch information, docs/kernel-abi.md).
 * clEnqueueNDRangeKernel puts the launches on a stream; a command buffer adds them to a graph.
 * Core-private: it holds backend values. */
#ifndef CV_CORE_KERNEL_LAUNCH_H
#define CV_CORE_KERNEL_LAUNCH_H

#include "core/backend.h"
#include "core/kernel.h"

typedef struct cv_ndrange {
    cvcu_launch launch; /* function, block, dynamic shared memory, cluster, cooperative */
    uint64_t real[3];   /* the NDRange's own work-groups per dimension */
    uint64_t groups[3]; /* with those that only fill clusters */
    bool empty;         /* a NULL or zero global size: no launch */
    cl_uint dim;
    size_t offset[3], global[3];   /* as the launch information gives them (1 past dim) */
    uint32_t cluster_step[3];      /* the compiled cluster dimensions (1: none) */
    bool launch_info;              /* the kernel takes the launch-information block */
    bool prints;                   /* the function calls printf */
    cv_program_function *function; /* the kernel's function on the device */
} cv_ndrange;

/* Checks the NDRange (the errors of clEnqueueNDRangeKernel) and fills r. allow_unset: arguments
 * not set yet are no error (a mutable command sets them later). */
cl_int cv_ndrange_prepare(cl_kernel k, cl_device_id dev, cl_uint dim, const size_t *offset,
                          const size_t *global, const size_t *local, bool allow_unset,
                          cv_ndrange *r);

/* Receives each launch of an NDRange: l (grid set) with its parameter pointers. */
typedef cl_int (*cv_launch_fn)(const cvcu_launch *l, void **params, void *arg);
/* How many launches the NDRange takes (0 when empty). */
uint64_t cv_ndrange_count(const cv_ndrange *r, const cvcu_device_props *props);
/* Calls fn for each launch of the NDRange with k's arguments, in order; stops at an error.
 * timing: the timed twin's parameter, appended to the arguments (r->launch.func is the twin),
 * NULL for the entry. */
cl_int cv_ndrange_launches(cl_kernel k, const cv_ndrange *r, const cvcu_device_props *props,
                           const uint64_t *timing, cv_launch_fn fn, void *arg);

#endif
