#include "core/extensions.h"
#include "core/image.h"
#include "compiler/compiler.h"

#include <stdlib.h>
#include <string.h>

static bool cv_has_stream_mem_ops64(const cvcu_device_props *p) {
    return p->stream_mem_ops64 && p->can_map_host;
}

/* Command buffers are CUDA graphs (core/command_buffer*.c). */
static bool cv_has_graphs(const cvcu_device_props *p) {
    return p->graphs;
}

/* OpenCL C extensions: there when the compiler is (src/compiler). */
static bool cv_has_opencl_c(const cvcu_device_props *p) {
    (void)p;
    return cvc_available();
}

/* SPIR-V programs: there when llvm-spirv is (src/compiler/cvc_spirv.c). */
static bool cv_has_il(const cvcu_device_props *p) {
    (void)p;
    return cvc_il_available();
}

/* Unified shared memory: device allocations on every device with unified addressing (host and
 * shared ones as each device's capabilities say: core/usm.h). */
static bool cv_has_usm(const cvcu_device_props *p) {
    return p->unified_addressing;
}

/* Images (core/image.h). */
static bool cv_has_images(const cvcu_device_props *p) {
    (void)p;
    return cv_images_enabled();
}

static const cv_extension cv_extension_table[] = {
    {"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0), true, NULL},
    {"cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0), false, NULL},
    {"cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0), false, NULL},
    {"cl_khr_pci_bus_info", CL_MAKE_VERSION(1, 0, 0), false, NULL},
    {"cl_nv_device_attribute_query", CL_MAKE_VERSION(1, 0, 0), false, NULL},
    {"cl_khr_priority_hints", CL_MAKE_VERSION(1, 0, 0), false, NULL},
    {"cl_khr_throttle_hints", CL_MAKE_VERSION(1, 0, 0), false, NULL},
    {"cl_culvert_cuda_interop", CL_CULVERT_CUDA_INTEROP_EXTENSION_VERSION, false, NULL},
    /* clSetKernelExecInfo launch attributes; an attribute the device lacks (clusters before
     * sm_90, cooperative launch) answers CL_INVALID_OPERATION. */
    {"cl_culvert_launch_attributes", CL_CULVERT_LAUNCH_ATTRIBUTES_EXTENSION_VERSION, false, NULL},
    /* The revisions of the Khronos headers the CTS is built with (util/cl_khr_command_buffer.h);
     * multiple queues and devices (cl_khr_command_buffer_multi_device) are not offered. */
    {"cl_khr_command_buffer", CL_KHR_COMMAND_BUFFER_EXTENSION_VERSION, false, cv_has_graphs},
    {"cl_khr_command_buffer_mutable_dispatch",
     CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_VERSION, false, cv_has_graphs},
    /* OpenCL C: each proved by a kernel of tests/kernels-cl compiled to PTX that ptxas takes. */
    {"cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_il_program", CL_MAKE_VERSION(1, 0, 0), false, cv_has_il},
    /* Half arithmetic is the GPU's f16; the builtins are src/compiler/builtins/half.ll. */
    {"cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    /* Float atomic add/sub/min/max, global and local (src/compiler/builtins/c11_atomics.ll). */
    {"cl_ext_float_atomics", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    /* Sub-groups are warps; needs clGetKernelSubGroupInfo to answer for 32-wide sub-groups. */
    {"cl_khr_subgroups", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    /* The sub-group extensions (builtins/subgroup_ext.ll): warp instructions over the active
     * lanes; OpenCL C 2.0+ programs, as cl_khr_subgroups. */
    {"cl_khr_subgroup_extended_types", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_subgroup_shuffle", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_subgroup_ballot", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    {"cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION(1, 0, 0), false, cv_has_opencl_c},
    /* Images in linear memory, sampled in software (core/image.h, builtins/images.ll). */
    {"cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0), false, cv_has_images},
    {"cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0), false, cv_has_images},
    {"cl_khr_depth_images", CL_MAKE_VERSION(1, 0, 0), false, cv_has_images},
    /* Revision 1.2.0: a migration with flags 0 goes to the queue's device. */
    {"cl_intel_unified_shared_memory", CL_MAKE_VERSION(1, 2, 0), false, cv_has_usm},
    /* Listed once the feature lands; the predicate keeps devices without it honest. */
    {"cl_culvert_host_value", CL_CULVERT_HOST_VALUE_EXTENSION_VERSION, false,
     cv_has_stream_mem_ops64},
};

/* A zero version marks an entry whose implementation has not landed: never listed. */
static bool cv_extension_ready(const cv_extension *e) {
    return e->version != 0;
}

const cv_extension *cv_extensions(size_t *count) {
    *count = sizeof cv_extension_table / sizeof cv_extension_table[0];
    return cv_extension_table;
}

bool cv_extension_supported(const cv_extension *e, const cvcu_device_props *props) {
    return cv_extension_ready(e) && (e->supported == NULL || e->supported(props));
}

static bool cv_extension_listed(const cv_extension *e, const cvcu_device_props *const *devices,
                                size_t n, bool platform) {
    if (!cv_extension_ready(e))
        return false;
    if (e->platform_only)
        return platform;
    /* A platform lists what every one of its devices has. */
    for (size_t i = 0; i < n; i++)
        if (!cv_extension_supported(e, devices[i]))
            return false;
    return true;
}

char *cv_extension_string(const cvcu_device_props *const *devices, size_t n, bool platform) {
    size_t count, len = 1;
    const cv_extension *t = cv_extensions(&count);
    for (size_t i = 0; i < count; i++)
        len += strlen(t[i].name) + 1;
    char *s = calloc(1, len);
    if (!s)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        if (!cv_extension_listed(&t[i], devices, n, platform))
            continue;
        if (*s)
            strcat(s, " ");
        strcat(s, t[i].name);
    }
    return s;
}

cl_name_version *cv_extension_versions(const cvcu_device_props *const *devices, size_t n,
                                       bool platform, size_t *count) {
    size_t total;
    const cv_extension *t = cv_extensions(&total);
    cl_name_version *v = calloc(total ? total : 1, sizeof *v);
    *count = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < total; i++) {
        if (!cv_extension_listed(&t[i], devices, n, platform))
            continue;
        v[*count].version = t[i].version;
        strncpy(v[*count].name, t[i].name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
        (*count)++;
    }
    return v;
}
