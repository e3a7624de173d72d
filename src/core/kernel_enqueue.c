/* clEnqueueNDRangeKernel: the NDRange checked against the kernel and the device, turned into
 * CUDA grids (split past CUDA's grid limits for kernels with launch information), launched on
 * the command's stream. Nothing here allocates or parses: the arguments are ready in the kernel. */
#include "core/command.h"
#include "core/kernel_launch.h"
#include "core/mem.h"
#include "core/backend.h"
#include "core/program_function.h"

#include <string.h>

/* The largest divisor of g that is at most cap, a multiple of 32 where one exists. */
static size_t cv_divisor_at_most(size_t g, size_t cap) {
    for (size_t l = cap - cap % 32; l >= 32; l -= 32)
        if (g % l == 0)
            return l;
    for (size_t l = cap; l > 1; l--)
        if (g % l == 0)
            return l;
    return 1;
}

/* A work-group size for a NULL local_work_size: the occupancy calculator's block size for the
 * function (cached per dynamic shared memory size), spread over the dimensions. */
static cl_int cv_default_local(cl_device_id dev, cv_program_function *f, bool any_size, size_t smem,
                               cl_uint dim, const size_t *global, size_t *local) {
    const cvcu_device_props *props = dev->props;
    uint64_t cached = atomic_load_explicit(&f->default_block, memory_order_relaxed);
    int block = 0;
    cl_int err = CL_SUCCESS;
    if (cached && (cached >> 16) == smem) {
        block = (int)(cached & 0xffff);
    } else {
        err = cvcu_device_bind(dev->cu);
        if (err == CL_SUCCESS)
            err = cvcu_occupancy_block_size(f->func, smem, 0, &block);
        if (err == CL_SUCCESS && block > 0)
            atomic_store_explicit(&f->default_block, ((uint64_t)smem << 16) | (uint64_t)block,
                                  memory_order_relaxed);
    }
    size_t budget = block > 0 ? (size_t)block : 256;
    if (f->attrs.max_threads > 0 && budget > (size_t)f->attrs.max_threads)
        budget = (size_t)f->attrs.max_threads;
    for (cl_uint d = 0; d < dim; d++) {
        size_t cap = budget < props->max_block_dim[d] ? budget : props->max_block_dim[d];
        size_t g = global[d];
        size_t l;
        if (g <= cap)
            l = g;
        else if (any_size)
            l = cap; /* the last work-group is smaller: launch information handles it */
        else
            l = cv_divisor_at_most(g, cap);
        local[d] = l ? l : 1;
        budget /= local[d];
        if (budget == 0)
            budget = 1;
    }
    return err;
}

/* May this launch have a smaller last work-group? Launch information makes it possible
 * (docs/kernel-abi.md); OpenCL C 1.x programs (the default -cl-std) and
 * -cl-uniform-work-group-size forbid it (//cv:uniform-work-groups). */
static bool cv_kernel_nonuniform_ok(cl_kernel k, const cv_ptx_kernel *sig) {
    return k->launch_info && !sig->uniform_work_groups;
}

/* Checks the NDRange and fills the launch; *groups receives the work-groups per dimension. */
static cl_int cv_kernel_check_range(cl_kernel k, cv_program_function *f, cl_device_id dev,
                                    cl_uint dim, const size_t *offset, const size_t *global,
                                    const size_t *local, size_t block[3], uint64_t groups[3]) {
    const cvcu_device_props *props = dev->props;
    const cv_ptx_kernel *sig = f->sig;
    bool reqd = sig->reqd_work_group_size[0] != 0;
    bool nonuniform = cv_kernel_nonuniform_ok(k, sig);
    cl_int err = CL_SUCCESS;
    for (cl_uint d = 0; d < dim && err == CL_SUCCESS; d++) {
        /* "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the
         * corresponding values in global_work_offset for any dimensions is greater than the
         * maximum value representable by size t on the device". PTX without launch information
         * cannot take an offset at all (docs/kernel-abi.md). */
        if (offset && offset[d] && (!k->launch_info || global[d] > SIZE_MAX - offset[d]))
            err = CL_INVALID_GLOBAL_OFFSET;
    }
    if (err == CL_SUCCESS && local) {
        size_t total = 1;
        for (cl_uint d = 0; d < dim && err == CL_SUCCESS; d++) {
            /* "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
             * local_work_size[0], ... local_work_size[work_dim - 1] is greater than the
             * corresponding values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES[0], ...". */
            if (local[d] > props->max_block_dim[d])
                err = CL_INVALID_WORK_ITEM_SIZE;
            /* A zero local size is no work-group size at all. */
            else if (local[d] == 0)
                err = CL_INVALID_WORK_GROUP_SIZE;
            /* "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match
             * the required work-group size for kernel in the program source." */
            else if (reqd && local[d] != sig->reqd_work_group_size[d])
                err = CL_INVALID_WORK_GROUP_SIZE;
            /* "CL_INVALID_WORK_GROUP_SIZE if ... the global work-group size is not evenly
             * divisible by the local work-group size and non-uniform work-groups are not
             * supported" (for this kernel: cv_kernel_nonuniform_ok). */
            else if (!nonuniform && global[d] % local[d])
                err = CL_INVALID_WORK_GROUP_SIZE;
            total *= local[d];
            block[d] = local[d];
        }
        /* "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the total number of
         * work-items in the work-group computed as local_work_size[0] × …
         * local_work_size[work_dim - 1] is greater than the value specified by
         * CL_KERNEL_WORK_GROUP_SIZE in the Kernel Object Device Queries table." */
        if (err == CL_SUCCESS && total > (size_t)f->attrs.max_threads)
            err = CL_INVALID_WORK_GROUP_SIZE;
    } else if (err == CL_SUCCESS && reqd) {
        for (cl_uint d = 0; d < dim; d++) {
            block[d] = sig->reqd_work_group_size[d];
            if (!nonuniform && global[d] % block[d])
                err = CL_INVALID_WORK_GROUP_SIZE;
        }
    } else if (err == CL_SUCCESS) {
        err = cv_default_local(dev, f, nonuniform, k->smem, dim, global, block);
    }
    for (cl_uint d = 0; d < 3 && err == CL_SUCCESS; d++) {
        uint64_t g = d < dim ? global[d] : 1;
        if (d >= dim)
            block[d] = 1;
        /* (g + block - 1) / block would wrap for a g near SIZE_MAX. */
        groups[d] = g / block[d] + (g % block[d] != 0);
        /* "CL_INVALID_GLOBAL_WORK_SIZE if any of the values specified in global_work_size[0],
         * ... global_work_size[work_dim - 1] exceed the maximum value representable by size_t
         * on the device on which the kernel-instance will be enqueued": the device's limit is
         * the groups a launch can have. Past CUDA's grid limits only kernels with launch
         * information run (split launches); the group offset is 32 bits wide. */
        if (groups[d] > (k->launch_info ? UINT32_MAX : props->max_grid_dim[d]))
            err = CL_INVALID_GLOBAL_WORK_SIZE;
    }
    return err;
}

/* Cluster dimensions for the launch: the attribute or the compiled ones; the groups must fill
 * whole clusters (kernels whose launch prologue exits threads outside the NDRange get extra
 * groups, which exit at once: cv_ptx_exits_outside). */
static cl_int cv_kernel_clusters(cl_kernel k, const cv_ptx_kernel *sig, uint64_t groups[3],
                                 unsigned cluster[3]) {
    const uint32_t *c = k->cluster[0] ? k->cluster : sig->cluster_dims;
    cl_int err = CL_SUCCESS;
    for (int d = 0; d < 3; d++) {
        cluster[d] = k->cluster[0] ? k->cluster[d] : 0;
        uint32_t cd = c[0] ? c[d] : 1;
        if (cd > 1 && groups[d] % cd) {
            if (k->launch_info && cv_ptx_exits_outside(sig))
                groups[d] += cd - groups[d] % cd;
            else
                err = CL_INVALID_WORK_GROUP_SIZE;
        }
    }
    return err;
}

/* Raises the function's dynamic shared memory limit when a launch needs more. */
static cl_int cv_kernel_smem(cv_program_function *f, cl_device_id dev, size_t smem) {
    const cvcu_device_props *props = dev->props;
    cl_int err = CL_SUCCESS;
    /* "CL_OUT_OF_RESOURCES if there is a failure to queue the execution instance of kernel on
     * the command-queue because of insufficient resources needed to execute the kernel" */
    if ((size_t)f->attrs.static_smem + smem > props->local_mem_max)
        err = CL_OUT_OF_RESOURCES;
    else if ((int)smem > atomic_load_explicit(&f->smem_optin, memory_order_relaxed)) {
        err = cvcu_device_bind(dev->cu);
        if (err == CL_SUCCESS)
            err = cvcu_function_set_max_dynamic_smem(f->func, (int)smem);
        /* The driver refuses what the function cannot have: not enough resources. */
        if (err == CL_SUCCESS)
            atomic_store(&f->smem_optin, (int)smem);
        else
            err = CL_OUT_OF_RESOURCES;
    }
    return err;
}

/* The twin slows each block's start and end a little: on the H100 ~0.25 us a turn (a grid's worth
 * of blocks the multiprocessors hold at once) of blocks that run ~1 us; a CUDA timing event pair
 * costs a command ~5.5 us whatever its size. Past this many turns the events cost less (a grid
 * of 65,536 blocks of 256 is 62 turns: the twin +13 us). */
#define CV_TWIN_MAX_TURNS 20

/* How many turns the launch's grid takes on the device: its blocks over what the multiprocessors
 * hold at once (the occupancy calculator's answer, cached per function for one block size and
 * dynamic shared memory size); 0 when the calculator has no answer. */
static uint64_t cv_kernel_turns(const cv_ndrange *r, cl_device_id dev, uint64_t threads) {
    cv_program_function *f = r->function;
    uint64_t smem = r->launch.smem;
    /* (smem << 20) | (threads << 8) | blocks per multiprocessor: never 0 (threads >= 1), so an
     * empty cache matches no key */
    uint64_t key = (smem << 20) | (threads << 8);
    uint64_t cached = atomic_load_explicit(&f->residency, memory_order_relaxed);
    int per_sm = 0;
    if ((cached & ~(uint64_t)0xff) == key) {
        per_sm = (int)(cached & 0xff);
    } else {
        /* A refusal (a launch that does not fit) is kept as 0 too: no answer. */
        if (cvcu_device_bind(dev->cu) != CL_SUCCESS ||
            cvcu_occupancy_blocks_per_sm(f->func, (int)threads, (size_t)smem, &per_sm) !=
                CL_SUCCESS ||
            per_sm < 0 || per_sm > 0xff)
            per_sm = 0;
        atomic_store_explicit(&f->residency, key | (uint64_t)per_sm, memory_order_relaxed);
    }
    uint64_t at_once = (uint64_t)per_sm * dev->props->compute_units;
    uint64_t blocks = r->groups[0] * r->groups[1] * r->groups[2];
    return at_once ? (blocks + at_once - 1) / at_once : 0;
}

/* Does this launch run the timed twin (core/ptx_timing.h)? Not where its grid takes so many turns
 * that CUDA events cost less; nor where the twin's resources (the entry's plus the timing's: a few
 * registers, 4 bytes of shared memory) do not fit. Otherwise the entry runs and CUDA events time
 * it. */
static bool cv_kernel_timable(const cv_ndrange *r, cl_device_id dev) {
    cv_program_function *f = r->function;
    const cvcu_device_props *props = dev->props;
    size_t smem = r->launch.smem;
    uint64_t threads = (uint64_t)r->launch.block[0] * r->launch.block[1] * r->launch.block[2];
    cvcu_function *timed =
        cv_kernel_turns(r, dev, threads) <= CV_TWIN_MAX_TURNS ? cv_program_function_timed(f) : NULL;
    bool ok = timed && threads <= (uint64_t)f->timed_attrs.max_threads &&
              (size_t)f->timed_attrs.static_smem + smem <= props->local_mem_max;
    if (ok && (int)smem > atomic_load_explicit(&f->timed_smem_optin, memory_order_relaxed)) {
        ok = cvcu_device_bind(dev->cu) == CL_SUCCESS &&
             cvcu_function_set_max_dynamic_smem(timed, (int)smem) == CL_SUCCESS;
        if (ok)
            atomic_store(&f->timed_smem_optin, (int)smem);
    }
    return ok;
}

/* A launch whose read-only image arguments all have texture objects never takes the software
 * fallback of their sampling: it runs the module's textured variant where there is one and the
 * launch fits it (core/ptx_textured.h). Command buffers keep the entry (an update may change the
 * images). */
static void cv_ndrange_textured(cv_ndrange *r, cl_kernel k, cl_device_id dev) {
    cv_program_function *tf =
        k->ro_images && !k->ro_untextured ? cv_program_function_textured(r->function) : NULL;
    if (tf &&
        (size_t)r->launch.block[0] * r->launch.block[1] * r->launch.block[2] <=
            (size_t)tf->attrs.max_threads &&
        cv_kernel_smem(tf, dev, r->launch.smem) == CL_SUCCESS) {
        r->function = tf;
        r->launch.func = tf->func;
    }
}

/* The chunk of groups each launch takes per dimension: CUDA's grid limit, in whole clusters. */
static uint64_t cv_ndrange_chunk(const cv_ndrange *r, const cvcu_device_props *props, int d) {
    uint64_t c = props->max_grid_dim[d] ? props->max_grid_dim[d] : 65535;
    uint64_t cd = r->launch.cluster[d] > 1 ? r->launch.cluster[d] : r->cluster_step[d];
    return c - c % cd;
}

/* Does the NDRange fit one launch? The common case: no chunk arithmetic (its divisions cost more
 * than the rest of the launch's host work). */
static bool cv_ndrange_one(const cv_ndrange *r, const cvcu_device_props *props) {
    bool one = true;
    for (int d = 0; d < 3; d++)
        one &= r->groups[d] <= (props->max_grid_dim[d] ? props->max_grid_dim[d] : 65535);
    return one;
}

uint64_t cv_ndrange_count(const cv_ndrange *r, const cvcu_device_props *props) {
    if (r->empty)
        return 0;
    if (!r->launch_info || cv_ndrange_one(r, props))
        return 1;
    uint64_t n = 1;
    for (int d = 0; d < 3; d++) {
        uint64_t c = cv_ndrange_chunk(r, props, d);
        n *= r->groups[d] / c + (r->groups[d] % c != 0);
    }
    return n;
}

cl_int cv_ndrange_launches(cl_kernel k, const cv_ndrange *r, const cvcu_device_props *props,
                           const uint64_t *timing, cv_launch_fn fn, void *arg) {
    cvcu_launch l = r->launch;
    if (r->empty)
        return CL_SUCCESS;
    if (!r->launch_info && !timing) {
        for (int d = 0; d < 3; d++)
            l.grid[d] = (unsigned)r->groups[d];
        return fn(&l, k->params, arg);
    }
    /* A copy of the argument pointers with the launch information and the timing appended, on
     * the stack, so that enqueues of one kernel from several threads do not share it. */
    cv_launch_info info;
    void *params[k->num_args + 2];
    memcpy(params, k->params, k->num_args * sizeof *params);
    params[k->num_args] = &info;
    if (timing)
        params[k->num_args + (r->launch_info ? 1 : 0)] = (void *)timing;
    if (!r->launch_info) {
        for (int d = 0; d < 3; d++)
            l.grid[d] = (unsigned)r->groups[d];
        return fn(&l, params, arg);
    }
    for (int d = 0; d < 3; d++) {
        info.global_offset[d] = r->offset[d];
        info.global_size[d] = r->global[d];
    }
    info.work_dim = r->dim;
    info.reserved = 0;
    if (cv_ndrange_one(r, props)) {
        for (int d = 0; d < 3; d++) {
            info.group_offset[d] = 0;
            info.group_limit[d] = (uint32_t)r->real[d];
            l.grid[d] = (unsigned)r->groups[d];
        }
        return fn(&l, params, arg);
    }
    /* Chunks of at most CUDA's grid limits, whole clusters each (groups past the NDRange's own
     * only fill clusters, and exit). */
    uint64_t chunk[3];
    for (int d = 0; d < 3; d++)
        chunk[d] = cv_ndrange_chunk(r, props, d);
    cl_int err = CL_SUCCESS;
    for (uint64_t z = 0; z < r->groups[2] && err == CL_SUCCESS; z += chunk[2])
        for (uint64_t y = 0; y < r->groups[1] && err == CL_SUCCESS; y += chunk[1])
            for (uint64_t x = 0; x < r->groups[0] && err == CL_SUCCESS; x += chunk[0]) {
                const uint64_t at[3] = {x, y, z};
                for (int d = 0; d < 3; d++) {
                    info.group_offset[d] = (uint32_t)at[d];
                    uint64_t left = r->groups[d] - at[d];
                    l.grid[d] = (unsigned)(left < chunk[d] ? left : chunk[d]);
                    uint64_t limit = r->real[d] > at[d] ? r->real[d] - at[d] : 0;
                    info.group_limit[d] = (uint32_t)(limit < UINT32_MAX ? limit : UINT32_MAX);
                }
                err = fn(&l, params, arg);
            }
    return err;
}

cl_int cv_ndrange_prepare(cl_kernel k, cl_device_id dev, cl_uint dim, const size_t *offset,
                          const size_t *global, const size_t *local, bool allow_unset,
                          cv_ndrange *r) {
    const cvcu_device_props *props = dev->props;
    cv_program_function *f = cv_kernel_function(k, dev);
    cl_int err = CL_SUCCESS;
    size_t block[3] = {1, 1, 1};
    memset(r, 0, sizeof *r);
    r->empty = !global;
    r->dim = dim;
    r->launch_info = k->launch_info;
    for (int d = 0; d < 3; d++) {
        r->groups[d] = r->real[d] = 1;
        r->offset[d] = (offset && (cl_uint)d < dim) ? offset[d] : 0;
        r->global[d] = (global && (cl_uint)d < dim) ? global[d] : 1;
    }
    /* "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built program executable
     * available for device associated with command_queue." */
    if (!f)
        err = CL_INVALID_PROGRAM_EXECUTABLE;
    /* "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified." */
    else if (k->unset && !allow_unset)
        err = CL_INVALID_KERNEL_ARGS;
    /* A NULL or zero global size is no work: the command completes like a marker once its
     * wait list has (OpenCL 2.1+). */
    for (cl_uint d = 0; err == CL_SUCCESS && !r->empty && d < dim; d++)
        r->empty = global[d] == 0;
    if (err == CL_SUCCESS && !r->empty)
        err = cv_kernel_check_range(k, f, dev, dim, offset, global, local, block, r->groups);
    for (int d = 0; d < 3; d++)
        r->real[d] = r->groups[d];
    if (err == CL_SUCCESS && !r->empty)
        err = cv_kernel_clusters(k, f->sig, r->groups, r->launch.cluster);
    if (err == CL_SUCCESS && !r->empty && k->cooperative &&
        (r->groups[0] > props->max_grid_dim[0] || r->groups[1] > props->max_grid_dim[1] ||
         r->groups[2] > props->max_grid_dim[2]))
        err = CL_INVALID_GLOBAL_WORK_SIZE; /* a cooperative grid cannot be split */
    if (err == CL_SUCCESS && !r->empty)
        err = cv_kernel_smem(f, dev, k->smem);
    if (err == CL_SUCCESS && !r->empty) {
        r->launch.func = f->func;
        r->function = f;
        for (int d = 0; d < 3; d++) {
            r->launch.block[d] = (unsigned)block[d];
            r->cluster_step[d] = f->sig->cluster_dims[d] > 1 ? f->sig->cluster_dims[d] : 1;
        }
        r->launch.smem = (unsigned)k->smem;
        r->launch.cooperative = k->cooperative;
        r->prints = f->prints;
    }
    return err;
}

static cl_int cv_launch_on_stream(const cvcu_launch *l, void **params, void *stream) {
    return cvcu_launch_kernel(l, stream, params);
}

cl_int cv_kernel_enqueue(cl_command_queue q, cl_kernel k, cl_command_type type, cl_uint work_dim,
                         const size_t *offset, const size_t *global, const size_t *local,
                         cl_uint num_wait, const cl_event *wait_list, cl_event *event) {
    cv_ndrange r;
    cl_int err = cv_ndrange_prepare(k, q->device, work_dim, offset, global, local, false, &r);
    if (err != CL_SUCCESS)
        return err;
    if (!r.empty)
        cv_ndrange_textured(&r, k, q->device);
    cv_command cmd;
    /* The properties are read again under the queue's lock: this only spares other enqueues
     * the look at the twin. */
    bool timable = event && !r.empty && (q->properties & CL_QUEUE_PROFILING_ENABLE) &&
                   cv_kernel_timable(&r, q->device);
    err = cv_command_begin_kernel(&cmd, q, type, num_wait, wait_list, event, timable);
    if (err != CL_SUCCESS)
        return err;
    /* What the launch uses outlives the application's releases: the kernel (and through it the
     * program and its module) and the buffers passed. */
    err = cv_command_keep(&cmd, &k->obj);
    for (uint32_t i = 0; err == CL_SUCCESS && i < k->num_args; i++)
        if (k->args[i].mem)
            err = cv_command_keep(&cmd, &k->args[i].mem->obj);
    if (err == CL_SUCCESS && !r.empty) {
        uint64_t timing[2];
        if (cmd.ktime) {
            cvcu_ktime_param(cmd.ktime, timing);
            r.launch.func = r.function->timed;
        }
        /* The twin lasts as long as the kernel: one history for both. */
        cmd.wait_key = (uint64_t)(uintptr_t)r.function;
        err = cv_ndrange_launches(k, &r, q->device->props, cmd.ktime ? timing : NULL,
                                  cv_launch_on_stream, cmd.stream);
        if (r.prints && !atomic_load(&q->prints))
            atomic_store(&q->prints, true);
    }
    return cv_command_end(&cmd, err, false, event);
}
