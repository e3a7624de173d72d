/* Devices and contexts on a real GPU: every OpenCL 3.0 device query answers, values agree with
 * what the GPU is, contexts are created every way the spec allows. */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Every clGetDeviceInfo query of OpenCL 3.0 and the extensions culvert lists. */
static const cl_device_info queries[] = {CL_DEVICE_TYPE,
                                         CL_DEVICE_VENDOR_ID,
                                         CL_DEVICE_MAX_COMPUTE_UNITS,
                                         CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                                         CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                         CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
                                         CL_DEVICE_MAX_CLOCK_FREQUENCY,
                                         CL_DEVICE_ADDRESS_BITS,
                                         CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                         CL_DEVICE_IMAGE_SUPPORT,
                                         CL_DEVICE_MAX_READ_IMAGE_ARGS,
                                         CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
                                         CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
                                         CL_DEVICE_IL_VERSION,
                                         CL_DEVICE_ILS_WITH_VERSION,
                                         CL_DEVICE_IMAGE2D_MAX_WIDTH,
                                         CL_DEVICE_IMAGE2D_MAX_HEIGHT,
                                         CL_DEVICE_IMAGE3D_MAX_WIDTH,
                                         CL_DEVICE_IMAGE3D_MAX_HEIGHT,
                                         CL_DEVICE_IMAGE3D_MAX_DEPTH,
                                         CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
                                         CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
                                         CL_DEVICE_MAX_SAMPLERS,
                                         CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
                                         CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
                                         CL_DEVICE_MAX_PIPE_ARGS,
                                         CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
                                         CL_DEVICE_PIPE_MAX_PACKET_SIZE,
                                         CL_DEVICE_MAX_PARAMETER_SIZE,
                                         CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                         CL_DEVICE_SINGLE_FP_CONFIG,
                                         CL_DEVICE_DOUBLE_FP_CONFIG,
                                         CL_DEVICE_HALF_FP_CONFIG,
                                         CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
                                         CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
                                         CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
                                         CL_DEVICE_GLOBAL_MEM_SIZE,
                                         CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                                         CL_DEVICE_MAX_CONSTANT_ARGS,
                                         CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
                                         CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
                                         CL_DEVICE_LOCAL_MEM_TYPE,
                                         CL_DEVICE_LOCAL_MEM_SIZE,
                                         CL_DEVICE_ERROR_CORRECTION_SUPPORT,
                                         CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                                         CL_DEVICE_ENDIAN_LITTLE,
                                         CL_DEVICE_AVAILABLE,
                                         CL_DEVICE_COMPILER_AVAILABLE,
                                         CL_DEVICE_LINKER_AVAILABLE,
                                         CL_DEVICE_EXECUTION_CAPABILITIES,
                                         CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
                                         CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
                                         CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
                                         CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
                                         CL_DEVICE_MAX_ON_DEVICE_QUEUES,
                                         CL_DEVICE_MAX_ON_DEVICE_EVENTS,
                                         CL_DEVICE_BUILT_IN_KERNELS,
                                         CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
                                         CL_DEVICE_PLATFORM,
                                         CL_DEVICE_NAME,
                                         CL_DEVICE_VENDOR,
                                         CL_DRIVER_VERSION,
                                         CL_DEVICE_PROFILE,
                                         CL_DEVICE_VERSION,
                                         CL_DEVICE_NUMERIC_VERSION,
                                         CL_DEVICE_OPENCL_C_VERSION,
                                         CL_DEVICE_OPENCL_C_ALL_VERSIONS,
                                         CL_DEVICE_OPENCL_C_FEATURES,
                                         CL_DEVICE_EXTENSIONS,
                                         CL_DEVICE_EXTENSIONS_WITH_VERSION,
                                         CL_DEVICE_PRINTF_BUFFER_SIZE,
                                         CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
                                         CL_DEVICE_PARENT_DEVICE,
                                         CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
                                         CL_DEVICE_PARTITION_PROPERTIES,
                                         CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
                                         CL_DEVICE_PARTITION_TYPE,
                                         CL_DEVICE_REFERENCE_COUNT,
                                         CL_DEVICE_SVM_CAPABILITIES,
                                         CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
                                         CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
                                         CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT,
                                         CL_DEVICE_MAX_NUM_SUB_GROUPS,
                                         CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                                         CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
                                         CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
                                         CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                                         CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                                         CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
                                         CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                                         CL_DEVICE_PIPE_SUPPORT,
                                         CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
                                         CL_DEVICE_HOST_UNIFIED_MEMORY,
                                         CL_DEVICE_UUID_KHR,
                                         CL_DRIVER_UUID_KHR,
                                         CL_DEVICE_LUID_VALID_KHR,
                                         CL_DEVICE_LUID_KHR,
                                         CL_DEVICE_NODE_MASK_KHR,
                                         CL_DEVICE_PCI_BUS_INFO_KHR,
                                         CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
                                         CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV,
                                         CL_DEVICE_REGISTERS_PER_BLOCK_NV,
                                         CL_DEVICE_WARP_SIZE_NV,
                                         CL_DEVICE_GPU_OVERLAP_NV,
                                         CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV,
                                         CL_DEVICE_INTEGRATED_MEMORY_NV};

static cl_ulong ulong_info(cl_device_id d, cl_device_info p) {
    cl_ulong v = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(d, p, sizeof v, &v, NULL));
    return v;
}

static cl_uint uint_info(cl_device_id d, cl_device_info p) {
    cl_uint v = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(d, p, sizeof v, &v, NULL));
    return v;
}

static void CL_CALLBACK notify(const char *info, const void *priv, size_t cb, void *user) {
    (void)info;
    (void)priv;
    (void)cb;
    (void)user;
}

static void CL_CALLBACK on_destroy(cl_context ctx, void *user) {
    (void)ctx;
    int *order = user;
    order[0] = order[0] * 10 + order[1]++;
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);

    /* Every query answers, first its size then its value. */
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        size_t size = 0;
        cl_int e = clGetDeviceInfo(dev, queries[i], 0, NULL, &size);
        if (e != CL_SUCCESS)
            fprintf(stderr, "query 0x%x: %d\n", (unsigned)queries[i], e);
        CHECK(e == CL_SUCCESS);
        if (e == CL_SUCCESS && size) {
            void *buf = malloc(size);
            CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, queries[i], size, buf, NULL));
            free(buf);
        }
    }
    /* "CL_INVALID_VALUE if param_name is not one of the supported values" */
    CHECK_ERR(CL_INVALID_VALUE, clGetDeviceInfo(dev, 0x7ffe, 0, NULL, NULL));
    /* "CL_INVALID_DEVICE if device is not valid" */
    CHECK_ERR(CL_INVALID_DEVICE, clGetDeviceInfo(NULL, CL_DEVICE_NAME, 0, NULL, NULL));

    /* Values a GPU of today has. */
    CHECK(ulong_info(dev, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_GPU);
    CHECK(uint_info(dev, CL_DEVICE_VENDOR_ID) == 0x10de);
    CHECK(uint_info(dev, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
    CHECK(uint_info(dev, CL_DEVICE_WARP_SIZE_NV) == 32);
    cl_ulong global = ulong_info(dev, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong max_alloc = ulong_info(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    /* More than NVIDIA's quarter: the whole free memory. */
    CHECK(max_alloc > global / 2 && max_alloc <= global);
    cl_ulong local = ulong_info(dev, CL_DEVICE_LOCAL_MEM_SIZE);
    CHECK(local >= 48 * 1024);
    cl_uint major = uint_info(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV);
    /* Hopper: 48 KiB per block by default, up to 227 KiB with the opt-in; CV_EXPECT_LOCAL_MEM:
     * what the CULVERT_LOCAL_MEM_SIZE a test run gives must claim (tests/CMakeLists.txt) */
    const char *expect = getenv("CV_EXPECT_LOCAL_MEM");
    if (major == 9)
        CHECK(local == (expect ? strtoull(expect, NULL, 10) : 48 * 1024));
    size_t sizes[3] = {0};
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
    CHECK(sizes[0] == 1024 && sizes[1] == 1024 && sizes[2] == 64);
    char vendor[64], ext[4096];
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor, vendor, NULL));
    CHECK(strcmp(vendor, "NVIDIA Corporation") == 0);
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_device_uuid") && strstr(ext, "cl_nv_device_attribute_query"));
    /* cl_khr_fp16 with the compiler (src/compiler/builtins/half.ll), nothing of it without. */
    cl_bool compiler = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL));
    cl_ulong half_config = ulong_info(dev, CL_DEVICE_HALF_FP_CONFIG);
    cl_uint half_pref = uint_info(dev, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF);
    cl_uint half_native = uint_info(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF);
    cl_name_version features[64]; /* every optional OpenCL C feature fits */
    size_t features_size = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof features,
                                          features, &features_size));
    bool fp16_feature = false;
    for (size_t i = 0; i < features_size / sizeof features[0]; i++)
        fp16_feature |= strcmp(features[i].name, "__opencl_c_fp16") == 0;
    if (compiler) {
        CHECK(strstr(ext, "cl_khr_fp16") != NULL);
        CHECK(half_config == (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA));
        CHECK(half_pref == 2 && half_native == 2);
        CHECK(fp16_feature);
    } else {
        CHECK(strstr(ext, "cl_khr_fp16") == NULL);
        CHECK(half_config == 0 && half_pref == 0 && half_native == 0 && !fp16_feature);
    }
    cl_int ordinal = -1;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_CUDA_DEVICE_CULVERT, sizeof ordinal, &ordinal, NULL));
    CHECK(ordinal == 0);

    /* Sub-devices: "CL_INVALID_VALUE if values specified in properties are not valid or if
     * values specified in properties are valid but not supported by the device." */
    cl_device_partition_property part[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint nsub = 0;
    cl_int e = clCreateSubDevices(dev, part, 0, NULL, &nsub);
    CHECK(e == CL_INVALID_VALUE || e == CL_DEVICE_PARTITION_FAILED);
    CHECK_ERR(CL_SUCCESS, clRetainDevice(dev));
    CHECK_ERR(CL_SUCCESS, clReleaseDevice(dev));

    /* Contexts: from a list, from a type, with properties, notify and destructors. */
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_int err = 0;
    cl_context ctx = clCreateContext(props, 1, &dev, notify, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(ctx != NULL);
    cl_uint ndev = 0;
    CHECK_ERR(CL_SUCCESS, clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL));
    CHECK(ndev == 1);
    cl_context_properties got[3] = {0};
    size_t got_size = 0;
    CHECK_ERR(CL_SUCCESS, clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &got_size));
    CHECK(got_size == sizeof props && got[1] == (cl_context_properties)platform);
    void *cuctx = NULL;
    CHECK_ERR(CL_SUCCESS,
              clGetContextInfo(ctx, CL_CONTEXT_CUDA_CONTEXT_CULVERT, sizeof cuctx, &cuctx, NULL));
    CHECK(cuctx != NULL);
    int order[2] = {0, 1};
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(ctx, on_destroy, order));
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(ctx, on_destroy, order));
    CHECK_ERR(CL_SUCCESS, clRetainContext(ctx));
    cl_uint refs = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    CHECK_ERR(CL_SUCCESS, clReleaseContext(ctx));
    CHECK_ERR(CL_SUCCESS, clReleaseContext(ctx));
    CHECK(order[0] == 12); /* both ran, the second registered first */

    ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (ctx)
        clReleaseContext(ctx);
    /* "CL_DEVICE_NOT_FOUND if no devices that match device_type and property values specified
     * in properties are currently available." */
    ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
    CHECK(ctx == NULL && err == CL_DEVICE_NOT_FOUND);
    /* "CL_INVALID_VALUE if devices is NULL; if num_devices is equal to zero" */
    ctx = clCreateContext(props, 0, &dev, NULL, NULL, &err);
    CHECK(ctx == NULL && err == CL_INVALID_VALUE);
    /* "CL_INVALID_PROPERTY if context property name in properties is not a supported property
     * name" */
    cl_context_properties bad[] = {0x7777, 1, 0};
    ctx = clCreateContext(bad, 1, &dev, NULL, NULL, &err);
    CHECK(ctx == NULL && err == CL_INVALID_PROPERTY);
    /* An unknown name, not terminated: nothing past it is read (a sanitizer build sees it). */
    cl_context_properties unknown[] = {0x7777};
    ctx = clCreateContext(unknown, 1, &dev, NULL, NULL, &err);
    CHECK(ctx == NULL && err == CL_INVALID_PROPERTY);
    /* "... if the value specified for a supported property name is not valid": the value of
     * CL_CONTEXT_INTEROP_USER_SYNC is a cl_bool (the CTS passes -1). */
    cl_context_properties bad_sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    ctx = clCreateContext(bad_sync, 1, &dev, NULL, NULL, &err);
    CHECK(ctx == NULL && err == CL_INVALID_PROPERTY);
    cl_context_properties bad_sync_typed[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                              CL_CONTEXT_INTEROP_USER_SYNC, 2, 0};
    ctx = clCreateContextFromType(bad_sync_typed, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
    CHECK(ctx == NULL && err == CL_INVALID_PROPERTY);
    cl_context_properties sync_false[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
    ctx = clCreateContext(sync_false, 1, &dev, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (ctx)
        clReleaseContext(ctx);

    /* The arguments, then the 80-byte launch parameter at an 8-aligned offset, fit the
     * driver's parameter space: 32764 bytes (CUDA 12.1+, Volta and newer) or 4096. */
    size_t max_param = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof max_param,
                                          &max_param, NULL));
    CHECK(max_param == 32680 || max_param == 4016);

    /* Timers: the host clock and the device's agree in direction. */
    cl_ulong h1 = 0, h2 = 0, d1 = 0;
    CHECK_ERR(CL_SUCCESS, clGetHostTimer(dev, &h1));
    CHECK_ERR(CL_SUCCESS, clGetDeviceAndHostTimer(dev, &d1, &h2));
    CHECK(h2 >= h1 && d1 > 0);
    return cv_test_report("device_context");
}
