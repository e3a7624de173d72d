/* See fake_cl.h. */
#include "fake_cl.h"
#include "warp_emu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _cl_mem {
    void *data;
};
struct _cl_kernel {
    void *fn;
    uint64_t args[8];
};

static const char *extensions =
    "cl_khr_subgroups cl_khr_subgroup_extended_types cl_khr_subgroup_shuffle "
    "cl_khr_subgroup_shuffle_relative cl_khr_subgroup_ballot cl_khr_subgroup_non_uniform_vote "
    "cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_clustered_reduce";

cl_device_id emu_device(cl_platform_id *platform) {
    *platform = (cl_platform_id)1;
    return (cl_device_id)1;
}

cl_int emu_clGetDeviceInfo(cl_device_id d, cl_device_info what, size_t size, void *value,
                           size_t *size_ret) {
    (void)d;
    if (what == CL_DEVICE_COMPILER_AVAILABLE) {
        if (value)
            *(cl_bool *)value = CL_TRUE;
        if (size_ret)
            *size_ret = sizeof(cl_bool);
        return CL_SUCCESS;
    }
    if (what == CL_DEVICE_EXTENSIONS) {
        if (value)
            snprintf(value, size, "%s", extensions);
        if (size_ret)
            *size_ret = strlen(extensions) + 1;
        return CL_SUCCESS;
    }
    return CL_INVALID_VALUE;
}

cl_context emu_clCreateContext(const cl_context_properties *p, cl_uint n, const cl_device_id *d,
                               void (*cb)(const char *, const void *, size_t, void *), void *u,
                               cl_int *err) {
    (void)p, (void)n, (void)d, (void)cb, (void)u;
    *err = CL_SUCCESS;
    return (cl_context)1;
}

cl_command_queue emu_clCreateCommandQueueWithProperties(cl_context c, cl_device_id d,
                                                        const cl_queue_properties *p, cl_int *err) {
    (void)c, (void)d, (void)p;
    *err = CL_SUCCESS;
    return (cl_command_queue)1;
}

/* The kernels are already built into the executable (kernels.cmake). */
cl_program emu_clCreateProgramWithSource(cl_context c, cl_uint n, const char **s, const size_t *l,
                                         cl_int *err) {
    (void)c, (void)n, (void)s, (void)l;
    *err = CL_SUCCESS;
    return (cl_program)1;
}

cl_int emu_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d, const char *o,
                          void (*cb)(cl_program, void *), void *u) {
    (void)p, (void)n, (void)d, (void)o, (void)cb, (void)u;
    return CL_SUCCESS;
}

cl_int emu_clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info i, size_t s,
                                 void *v, size_t *r) {
    (void)p, (void)d, (void)i, (void)s, (void)v, (void)r;
    return CL_SUCCESS;
}

cl_kernel emu_clCreateKernel(cl_program p, const char *name, cl_int *err) {
    (void)p;
    cl_kernel k = calloc(1, sizeof *k);
    if (k)
        k->fn = dlsym(RTLD_DEFAULT, name);
    if (!k || !k->fn) {
        fprintf(stderr, "fake_cl: no kernel %s\n", name);
        free(k);
        *err = CL_INVALID_KERNEL_NAME;
        return NULL;
    }
    *err = CL_SUCCESS;
    return k;
}

/* Arguments are buffers (their host pointer) or 32-bit integers. */
cl_int emu_clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *value) {
    if (i >= 8)
        return CL_INVALID_ARG_INDEX;
    if (size == sizeof(cl_mem)) {
        k->args[i] = (uint64_t)(uintptr_t)(*(cl_mem const *)value)->data;
    } else {
        uint32_t x;
        memcpy(&x, value, sizeof x);
        k->args[i] = x;
    }
    return CL_SUCCESS;
}

typedef void (*kernel_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                          uint64_t);
static cl_kernel running;
static size_t group_base[2], warp_first;

static void run_lane(void) {
    const uint64_t *a = running->args;
    ((kernel_fn)running->fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}

static void lane_ids(int lane, size_t *gid, size_t *lid) {
    size_t l = warp_first + (size_t)lane;
    *lid = l;
    gid[0] = group_base[0] + l % emu_local[0];
    gid[1] = group_base[1] + l / emu_local[0];
}

/* Work-groups one after the other, each warp (32 work-items by linear local id) on its own. */
cl_int emu_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                  const size_t *offset, const size_t *global, const size_t *local,
                                  cl_uint n, const cl_event *wait, cl_event *event) {
    (void)q, (void)offset, (void)n, (void)wait, (void)event;
    emu_global[0] = global[0];
    emu_global[1] = dim > 1 ? global[1] : 1;
    emu_local[0] = local[0];
    emu_local[1] = dim > 1 ? local[1] : 1;
    running = k;
    size_t size = emu_local[0] * emu_local[1];
    for (size_t y = 0; y < emu_global[1]; y += emu_local[1])
        for (size_t x = 0; x < emu_global[0]; x += emu_local[0])
            for (warp_first = 0; warp_first < size; warp_first += 32) {
                group_base[0] = x;
                group_base[1] = y;
                emu_run_warp((int)(size - warp_first < 32 ? size - warp_first : 32), run_lane,
                             lane_ids);
            }
    return emu_errors ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

cl_int emu_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                               size_t size, void *ptr, cl_uint n, const cl_event *wait,
                               cl_event *event) {
    (void)q, (void)blocking, (void)n, (void)wait, (void)event;
    memcpy(ptr, (char *)m->data + offset, size);
    return CL_SUCCESS;
}

cl_mem emu_clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host, cl_int *err) {
    (void)c;
    cl_mem m = calloc(1, sizeof *m);
    if (m && !(m->data = calloc(1, size))) {
        free(m);
        m = NULL;
    }
    if (m && (flags & CL_MEM_COPY_HOST_PTR) && host)
        memcpy(m->data, host, size);
    *err = m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    return m;
}

cl_int emu_clReleaseKernel(cl_kernel k) {
    free(k);
    return CL_SUCCESS;
}

cl_int emu_clReleaseMemObject(cl_mem m) {
    free(m->data);
    free(m);
    return CL_SUCCESS;
}

cl_int emu_clReleaseProgram(cl_program p) {
    (void)p;
    return CL_SUCCESS;
}

cl_int emu_clReleaseCommandQueue(cl_command_queue q) {
    (void)q;
    return CL_SUCCESS;
}

cl_int emu_clReleaseContext(cl_context c) {
    (void)c;
    return CL_SUCCESS;
}
