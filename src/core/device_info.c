/* clGetDeviceInfo: every OpenCL 3.0 query, answered from the properties the backend read.
 * Plain values come from tables; the few computed answers from the switch below. */
#include "compiler/compiler.h"
#include "core/extensions.h"
#include "core/image.h"
#include "core/backend.h"
#include "core/command_buffer.h"
#include "core/nv_ext.h"
#include "core/platform.h"
#include "core/ptx.h"
#include "core/usm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { CV_UINT, CV_ULONG, CV_SIZE, CV_BOOL } cv_kind;

#define CV_ATOMIC_CAPABILITIES                                                                     \
    (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |                             \
     CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |                          \
     CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)
#define CV_FP_ATOMIC_CAPABILITIES                                                                  \
    (CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |              \
     CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |           \
     CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT)

/* Queries answered by a field of cvcu_device_props. */
static const struct {
    cl_device_info param;
    cv_kind kind;
    size_t offset;
    size_t size; /* of the field: cl_uint, cl_ulong or bool */
} cv_field_queries[] = {
/* The largest program-scope variable culvert promises (the spec's minimum for the feature is
 * 64 KiB): module loading allocates it in device memory; tests/gpu/program_scope_globals.c
 * builds a program with one this large. */
#define CV_GLOBAL_VARIABLE_MAX ((size_t)64 << 20)

#define CV_F(param, kind, field)                                                                   \
    { param, kind, offsetof(cvcu_device_props, field), sizeof(((cvcu_device_props *)0)->field) }
    CV_F(CL_DEVICE_MAX_COMPUTE_UNITS, CV_UINT, compute_units),
    CV_F(CL_DEVICE_MAX_WORK_GROUP_SIZE, CV_SIZE, max_threads_per_block),
    CV_F(CL_DEVICE_MAX_CLOCK_FREQUENCY, CV_UINT, clock_mhz),
    CV_F(CL_DEVICE_MAX_MEM_ALLOC_SIZE, CV_ULONG, max_alloc),
    CV_F(CL_DEVICE_GLOBAL_MEM_SIZE, CV_ULONG, global_mem),
    CV_F(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, CV_ULONG, l2_size),
    CV_F(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CV_ULONG, const_mem),
    CV_F(CL_DEVICE_LOCAL_MEM_SIZE, CV_ULONG, local_mem),
    CV_F(CL_DEVICE_ERROR_CORRECTION_SUPPORT, CV_BOOL, ecc),
    CV_F(CL_DEVICE_HOST_UNIFIED_MEMORY, CV_BOOL, integrated),
    CV_F(CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, CV_UINT, cc_major),
    CV_F(CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, CV_UINT, cc_minor),
    CV_F(CL_DEVICE_REGISTERS_PER_BLOCK_NV, CV_UINT, regs_per_block),
    CV_F(CL_DEVICE_WARP_SIZE_NV, CV_UINT, warp_size),
    CV_F(CL_DEVICE_GPU_OVERLAP_NV, CV_BOOL, gpu_overlap),
    CV_F(CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV, CV_BOOL, exec_timeout),
    CV_F(CL_DEVICE_INTEGRATED_MEMORY_NV, CV_BOOL, integrated),
    CV_F(CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV, CV_UINT, async_engines),
    CV_F(CL_DEVICE_PCI_BUS_ID_NV, CV_UINT, pci_bus),
    CV_F(CL_DEVICE_PCI_SLOT_ID_NV, CV_UINT, pci_device),
    CV_F(CL_DEVICE_PCI_DOMAIN_ID_NV, CV_UINT, pci_domain),
#undef CV_F
};

/* Queries with the same answer on every device culvert drives. */
static const struct {
    cl_device_info param;
    cv_kind kind;
    cl_ulong value;
} cv_constant_queries[] = {
    {CL_DEVICE_TYPE, CV_ULONG, CL_DEVICE_TYPE_GPU},
    {CL_DEVICE_VENDOR_ID, CV_UINT, 0x10de},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, CV_UINT, 3},
    /* Vector widths: NVIDIA GPUs are scalar machines; 1 is what their compiler prefers. */
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CV_UINT, 1},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CV_UINT, 1},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CV_UINT, 1},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CV_UINT, 1},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CV_UINT, 1},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CV_UINT, 1},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CV_UINT, 1},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CV_UINT, 1},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CV_UINT, 1},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, CV_UINT, 1},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CV_UINT, 1},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, CV_UINT, 1},
    {CL_DEVICE_ADDRESS_BITS, CV_UINT, 64},
    /* Pipes and device-side enqueue are not claimed (images: cv_image_queries). */
    {CL_DEVICE_MAX_PIPE_ARGS, CV_UINT, 0},
    {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, CV_UINT, 0},
    {CL_DEVICE_PIPE_MAX_PACKET_SIZE, CV_UINT, 0},
    {CL_DEVICE_PIPE_SUPPORT, CV_BOOL, CL_FALSE},
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, CV_UINT, 0},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, CV_UINT, 0},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, CV_UINT, 0},
    {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, CV_ULONG, 0},
    {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CV_UINT, 0},
    {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, CV_UINT, 0},
    {CL_DEVICE_MAX_ON_DEVICE_QUEUES, CV_UINT, 0},
    {CL_DEVICE_MAX_ON_DEVICE_EVENTS, CV_UINT, 0},
    {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, CV_ULONG, 0},
    /* cuMemAlloc returns 256-byte aligned memory; sub-buffers must keep that (in bits). */
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, CV_UINT, 256 * 8},
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, CV_UINT, 128},
    {CL_DEVICE_SINGLE_FP_CONFIG, CV_ULONG,
     CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
         CL_FP_ROUND_TO_INF | CL_FP_FMA},
    /* cl_khr_fp64: IEEE double with every rounding mode, denormals and FMA (the GPU's own). */
    {CL_DEVICE_DOUBLE_FP_CONFIG, CV_ULONG,
     CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
         CL_FP_ROUND_TO_INF | CL_FP_FMA},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CV_UINT, CL_READ_WRITE_CACHE},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, CV_UINT, 128},
    {CL_DEVICE_MAX_CONSTANT_ARGS, CV_UINT, 9},
    {CL_DEVICE_LOCAL_MEM_TYPE, CV_UINT, CL_LOCAL},
    {CL_DEVICE_ENDIAN_LITTLE, CV_BOOL, CL_TRUE},
    {CL_DEVICE_EXECUTION_CAPABILITIES, CV_ULONG, CL_EXEC_KERNEL},
    {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CV_ULONG,
     CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, CV_SIZE, CVCU_PRINTF_BUFFER_BYTES},
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, CV_BOOL, CL_TRUE},
    {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, CV_UINT, 0},
    {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, CV_ULONG, 0},
    {CL_DEVICE_REFERENCE_COUNT, CV_UINT, 1},
    /* Every order and scope (src/compiler/builtins/c11_atomics.ll: PTX's ordered atomics and
     * fences at .cta, .gpu and .sys scope). */
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, CV_ULONG, CV_ATOMIC_CAPABILITIES},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, CV_ULONG,
     CV_ATOMIC_CAPABILITIES | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM},
    /* cl_ext_float_atomics: load/store/exchange, add/sub (atom.add.f64, atom.shared.add.f32, a
     * compare-and-swap loop for float in global memory, which keeps subnormals), min/max (a
     * compare-and-swap loop), in global and local memory. */
    {CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT, CV_ULONG, CV_FP_ATOMIC_CAPABILITIES},
    {CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT, CV_ULONG, CV_FP_ATOMIC_CAPABILITIES},
    {CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT, CV_ULONG, 0},
    /* For programs that allow them (OpenCL C 3.0 without -cl-uniform-work-group-size): the
     * launch information's prologue retires the work-items past the global size. */
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, CV_BOOL, CL_TRUE},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CV_SIZE, 32},
    {CL_DEVICE_NUMERIC_VERSION, CV_UINT, CL_MAKE_VERSION(3, 0, 0)},
    {CL_DEVICE_LUID_VALID_KHR, CV_BOOL, CL_FALSE},
    {CL_DEVICE_NODE_MASK_KHR, CV_UINT, 0},
};

/* Constant strings. */
/* Images, where claimed (core/image.h: cv_images_enabled); 0 and CL_FALSE otherwise. */
static const struct {
    cl_device_info param;
    cv_kind kind;
    cl_ulong value;
} cv_image_queries[] = {
    {CL_DEVICE_IMAGE_SUPPORT, CV_BOOL, CL_TRUE},
    /* The OpenCL 3.0 minimums of a device with images. */
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, CV_UINT, 128},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, CV_UINT, 64},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, CV_UINT, 64},
    {CL_DEVICE_MAX_SAMPLERS, CV_UINT, 16},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, CV_SIZE, CV_IMAGE2D_MAX},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, CV_SIZE, CV_IMAGE2D_MAX},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, CV_SIZE, CV_IMAGE3D_MAX},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, CV_SIZE, CV_IMAGE3D_MAX},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, CV_SIZE, CV_IMAGE3D_MAX},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CV_SIZE, CV_IMAGE_BUF_MAX},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, CV_SIZE, CV_IMAGE_LAYERS},
    /* In pixels: any pitch of whole pixels, any buffer the device can address (pixels are read
     * with plain loads of their own size). */
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CV_UINT, 1},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, CV_UINT, 1},
};

static const struct {
    cl_device_info param;
    const char *value;
} cv_string_queries[] = {
    {CL_DEVICE_VENDOR, "NVIDIA Corporation"},
    {CL_DEVICE_PROFILE, "FULL_PROFILE"},
    {CL_DEVICE_OPENCL_C_VERSION, "OpenCL C 1.2 "},
    {CL_DEVICE_BUILT_IN_KERNELS, ""},
    /* No Khronos conformance submission has been made. */
    {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, "v0000-01-01-00"},
};

static cl_int cv_write_kind(const cv_info *out, cv_kind kind, cl_ulong v) {
    cl_int err;
    switch (kind) {
    case CV_UINT:
        err = cv_info_uint(out, (cl_uint)v);
        break;
    case CV_ULONG:
        err = cv_info_ulong(out, v);
        break;
    case CV_SIZE:
        err = cv_info_size(out, (size_t)v);
        break;
    default:
        err = cv_info_bool(out, v ? CL_TRUE : CL_FALSE);
        break;
    }
    return err;
}

static cl_ulong cv_read_field(const cvcu_device_props *p, size_t offset, size_t size) {
    const char *f = (const char *)p + offset;
    cl_ulong v;
    if (size == sizeof(cl_ulong))
        v = *(const cl_ulong *)f;
    else if (size == sizeof(cl_uint))
        v = *(const cl_uint *)f;
    else
        v = *(const bool *)f;
    return v;
}

/* Answers the queries the tables cannot; CL_INVALID_VALUE for unknown ones. */
static cl_int cv_device_info_special(cl_device_id d, cl_device_info param, const cv_info *out) {
    const cvcu_device_props *p = d->props;
    char buf[512];
    cl_int err;
    switch (param) {
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        size_t sizes[3] = {p->max_block_dim[0], p->max_block_dim[1], p->max_block_dim[2]};
        err = cv_info_bytes(out, sizes, sizeof sizes);
        break;
    }
    case CL_DEVICE_NAME:
        err = cv_info_str(out, p->name);
        break;
    case CL_DEVICE_VERSION:
        snprintf(buf, sizeof buf, "OpenCL 3.0 culvert %s (CUDA %d.%d)", CV_VERSION_STRING,
                 p->driver_version / 1000, p->driver_version % 1000 / 10);
        err = cv_info_str(out, buf);
        break;
    case CL_DRIVER_VERSION:
        snprintf(buf, sizeof buf, "%s (CUDA %d.%d)", CV_VERSION_STRING, p->driver_version / 1000,
                 p->driver_version % 1000 / 10);
        err = cv_info_str(out, buf);
        break;
    case CL_DEVICE_PLATFORM:
        err = cv_info_ptr(out, d->platform);
        break;
    case CL_DEVICE_CUDA_DEVICE_CULVERT:
        err = cv_info_int(out, p->ordinal);
        break;
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:
        err = cv_info_uint(out, CL_MAKE_VERSION(1, 2, 0));
        break;
    case CL_DEVICE_MAX_PARAMETER_SIZE: {
        /* CUDA 12.1 raised the parameter space to 32764 bytes (Volta and newer; the PTX
         * rewrite raises .version to 8.1 where an entry needs it); before, 4 KiB. The launch-
         * information parameter of culvert-compiled kernels (docs/kernel-abi.md) comes after
         * the arguments, 8-aligned: arguments up to this size leave room for it. */
        size_t space =
            p->driver_version >= 12010 && p->cc_major >= 7 ? CV_PTX_PARAM_SPACE_MAX : 4096;
        err = cv_info_size(out, (space - sizeof(cv_launch_info)) / 8 * 8);
        break;
    }
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: {
        /* Kernels are timed by %globaltimer, whose step the probe measured (32 ns or 1 us,
         * depending on the driver); without kernel timing, CUDA events (cuEventElapsedTime
         * resolves about half a microsecond). */
        cl_ulong step = cvcu_ktime_step(d->cu);
        err = cv_info_size(out, step ? (size_t)step : 500);
        break;
    }
    case CL_DEVICE_PARENT_DEVICE:
        err = cv_info_ptr(out, NULL);
        break;
    case CL_DEVICE_SVM_CAPABILITIES:
        err = cv_info_ulong(out, cv_usm_svm_caps(d));
        break;
    case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
        err = cv_info_ulong(out, cv_usm_caps(d, CV_USM_HOST));
        break;
    case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
        err = cv_info_ulong(out, cv_usm_caps(d, CV_USM_DEVICE));
        break;
    case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
        err = cv_info_ulong(out, cv_usm_caps(d, CV_USM_SHARED));
        break;
    /* Managed memory serves every device of the process, and each may touch it while the others
     * do (where it has concurrent managed access); atomics across devices are not claimed.
     * Memory from the system's allocator (malloc) is no device's to touch. */
    case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
        err = cv_info_ulong(out, cv_usm_caps(d, CV_USM_SHARED) &
                                     ~(cl_ulong)CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL);
        break;
    case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
        err = cv_info_ulong(out, 0);
        break;
    case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
        err = cv_info_ulong(out, cv_command_buffer_capabilities(d));
        break;
    case CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR:
        err = cv_info_ulong(out, cv_command_buffer_queue_properties(d));
        break;
    case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
        err = cv_info_ulong(out, 0);
        break;
    case CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:
        err = cv_info_ulong(out, cv_mutable_dispatch_capabilities(d));
        break;
    case CL_DEVICE_EXTENSIONS:
        err = cv_info_str(out, d->extensions ? d->extensions : "");
        break;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
        const cvcu_device_props *one = p;
        size_t n = 0;
        cl_name_version *v = cv_extension_versions(&one, 1, false, &n);
        err = v ? cv_info_bytes(out, v, n * sizeof *v) : CL_OUT_OF_HOST_MEMORY;
        free(v);
        break;
    }
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
        static const cl_name_version versions[] = {
            {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
            {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
            {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
            /* With the optional features of CL_DEVICE_OPENCL_C_FEATURES only. */
            {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
        };
        err = cv_info_bytes(out, versions, sizeof versions);
        break;
    }
    case CL_DEVICE_AVAILABLE:
        /* A fault leaves the device lost until a new context recovers it (backend.h): lost, it
         * is not available, and stays so where the driver keeps the fault for the process. */
        err = cv_info_bool(out, cvcu_device_lost(d->cu) ? CL_FALSE : CL_TRUE);
        break;
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
        /* The compiler (clang, llc, libclc) is found at run time: src/compiler/README.md. */
        err = cv_info_bool(out, cvc_available() ? CL_TRUE : CL_FALSE);
        break;
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        /* A sub-group is a warp (src/compiler/builtins/subgroups.ll). */
        err = cv_info_uint(
            out, cvc_available() && p->warp_size ? p->max_threads_per_block / p->warp_size : 0);
        break;
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        /* Independent thread scheduling: Volta (7.0) and later. */
        err = cv_info_bool(out, cvc_available() && p->cc_major >= 7 ? CL_TRUE : CL_FALSE);
        break;
    case CL_DEVICE_HALF_FP_CONFIG:
        /* cl_khr_fp16, with the compiler: the GPU's f16 arithmetic rounds to nearest even (PTX
         * add/mul/fma.f16 have .rn only), keeps denormals (no .ftz), has INF and NaN, and a
         * fused fma.rn.f16. The spec's minimum is ROUND_TO_ZERO or ROUND_TO_NEAREST | INF_NAN. */
        err = cv_info_ulong(out, cvc_available() ? CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN |
                                                       CL_FP_DENORM | CL_FP_FMA
                                                 : 0);
        break;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
        /* Two: the GPU computes half2 in one instruction (add/mul/fma.f16x2); 0 without the
         * compiler, as for a device without cl_khr_fp16. */
        err = cv_info_uint(out, cvc_available() ? 2 : 0);
        break;
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        /* Program-scope __global variables are the module's .global variables, allocated and
         * initialized when the program's module loads (OpenCL C 3.0, compiler only). */
        err = cv_info_size(out, cvc_available() ? CV_GLOBAL_VARIABLE_MAX : 0);
        break;
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
        /* Compiled from the builtins (src/compiler/builtins/workgroup.ll; PTX generic addressing
         * and the generic overloads: libclc's and half.ll's private ones, which are the same
         * functions on NVPTX, c11_atomics.ll's atomics and generic.ll's to_global...). */
        err = cv_info_bool(out, cvc_available() ? CL_TRUE : CL_FALSE);
        break;
    case CL_DEVICE_OPENCL_C_FEATURES: {
        /* Optional OpenCL C 3.0 features whose builtins culvert's library really has (each
         * proved by a kernel of tests/kernels-cl that ptxas accepts). */
        static const cl_name_version features[] = {
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp16"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_program_scope_global_variables"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"},
            /* cl_ext_float_atomics's feature macros. */
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp32_global_atomic_add"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp32_local_atomic_add"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp32_global_atomic_min_max"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp32_local_atomic_min_max"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp64_global_atomic_add"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp64_local_atomic_add"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp64_global_atomic_min_max"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_ext_fp64_local_atomic_min_max"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_generic_address_space"},
            /* Last: where images are claimed (builtins/images.ll). */
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_read_write_images"},
            {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_3d_image_writes"},
        };
        size_t n = sizeof features / sizeof features[0] - (cv_images_enabled() ? 0 : 3);
        err = cvc_available() ? cv_info_bytes(out, features, n * sizeof features[0])
                              : cv_info_bytes(out, NULL, 0);
        break;
    }
    case CL_DEVICE_IL_VERSION:
    case CL_DEVICE_ILS_WITH_VERSION: {
        /* SPIR-V 1.0 to what the translator reads (src/compiler/cvc_spirv.c); none without. */
        static const char *const names[] = {"SPIR-V_1.0", "SPIR-V_1.1", "SPIR-V_1.2", "SPIR-V_1.3",
                                            "SPIR-V_1.4"};
        cl_name_version ils[5];
        char text[64] = "";
        int last = cvc_il_max_minor();
        for (int i = 0; i <= last && i < 5; i++) {
            ils[i] = (cl_name_version){CL_MAKE_VERSION(1, i, 0), "SPIR-V"};
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? " " : "",
                     names[i]);
        }
        err = param == CL_DEVICE_IL_VERSION
                  ? cv_info_str(out, text)
                  : cv_info_bytes(out, ils, last >= 0 ? (size_t)(last + 1) * sizeof ils[0] : 0);
        break;
    }
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    case CL_DEVICE_PARTITION_TYPE:
        /* Nothing claimed: an empty array. */
        err = cv_info_bytes(out, NULL, 0);
        break;
    case CL_DEVICE_PARTITION_PROPERTIES: {
        /* "If the device cannot be partitioned ... a value of 0 will be returned." */
        cl_device_partition_property none = 0;
        err = cv_info_bytes(out, &none, sizeof none);
        break;
    }
    case CL_DEVICE_UUID_KHR:
        err = cv_info_bytes(out, p->uuid, CL_UUID_SIZE_KHR);
        break;
    case CL_DRIVER_UUID_KHR: {
        /* Identifies culvert's build, so caches keyed by it change with culvert. */
        cl_uchar uuid[CL_UUID_SIZE_KHR] = "culvert-" CV_VERSION_STRING;
        err = cv_info_bytes(out, uuid, sizeof uuid);
        break;
    }
    case CL_DEVICE_LUID_KHR: {
        cl_uchar luid[CL_LUID_SIZE_KHR] = {0};
        err = cv_info_bytes(out, luid, sizeof luid);
        break;
    }
    case CL_DEVICE_PCI_BUS_INFO_KHR: {
        cl_device_pci_bus_info_khr bus = {p->pci_domain, p->pci_bus, p->pci_device, 0};
        err = cv_info_bytes(out, &bus, sizeof bus);
        break;
    }
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

cl_int cv_device_info(cl_device_id d, cl_device_info param, const cv_info *out) {
    for (size_t i = 0; i < sizeof cv_field_queries / sizeof cv_field_queries[0]; i++)
        if (cv_field_queries[i].param == param)
            return cv_write_kind(
                out, cv_field_queries[i].kind,
                cv_read_field(d->props, cv_field_queries[i].offset, cv_field_queries[i].size));
    for (size_t i = 0; i < sizeof cv_constant_queries / sizeof cv_constant_queries[0]; i++)
        if (cv_constant_queries[i].param == param)
            return cv_write_kind(out, cv_constant_queries[i].kind, cv_constant_queries[i].value);
    for (size_t i = 0; i < sizeof cv_image_queries / sizeof cv_image_queries[0]; i++)
        if (cv_image_queries[i].param == param)
            return cv_write_kind(out, cv_image_queries[i].kind,
                                 cv_images_enabled() ? cv_image_queries[i].value : 0);
    for (size_t i = 0; i < sizeof cv_string_queries / sizeof cv_string_queries[0]; i++)
        if (cv_string_queries[i].param == param)
            return cv_info_str(out, cv_string_queries[i].value);
    return cv_device_info_special(d, param, out);
}

cl_ulong cv_device_max_alloc(cl_device_id device) {
    return device->props->max_alloc;
}
