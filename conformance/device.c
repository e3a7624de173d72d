/* Section 4.2 of the OpenCL 3.0 API: querying devices. */
#include "ct.h"

static void get_ids(ct_env *e) {
    cl_uint n = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n));
    CT_CHECK(n >= 1);
    cl_device_id d = NULL;
    /* "CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL or if both
     * num_devices and devices are NULL." */
    CT_ERR(CL_INVALID_VALUE, clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, 0, &d, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, 1, NULL, NULL));
    /* CL_DEVICE_TYPE_DEFAULT gives exactly one device. */
    cl_uint nd = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_DEFAULT, 0, NULL, &nd));
    CT_CHECK(nd == 1);
    /* "CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found." */
    static const cl_device_type types[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
                                           CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM};
    cl_device_id *all = calloc(n, sizeof(*all));
    clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, n, all, NULL);
    for (size_t t = 0; t < 4; t++) {
        cl_uint have = 0;
        for (cl_uint i = 0; i < n; i++)
            have += (ct_dev_bits(all[i], CL_DEVICE_TYPE) & types[t]) != 0;
        cl_uint got = 0;
        cl_int err = clGetDeviceIDs(e->platform, types[t], 0, NULL, &got);
        if (have) {
            CT_ERR(CL_SUCCESS, err);
            CT_CHECK(got == have);
        } else {
            CT_ERR(CL_DEVICE_NOT_FOUND, err);
        }
    }
    free(all);
}

static void invalid_type(ct_env *e) {
    cl_device_id d = NULL;
    /* "CL_INVALID_DEVICE_TYPE if device_type is not a valid value." */
    CT_ERR(CL_INVALID_DEVICE_TYPE,
           clGetDeviceIDs(e->platform, (cl_device_type)1 << 20, 1, &d, NULL));
}

/* Every OpenCL 3.0 query a device must answer, with the size of its value (0: array). */
static const struct {
    cl_device_info param;
    size_t size;
    const char *name;
} queries[] = {
#define Q(p, s)                                                                                    \
    { p, s, #p }
    Q(CL_DEVICE_TYPE, sizeof(cl_device_type)),
    Q(CL_DEVICE_VENDOR_ID, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, 0),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint)),
    Q(CL_DEVICE_ADDRESS_BITS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_IL_VERSION, 0),
    Q(CL_DEVICE_ILS_WITH_VERSION, 0),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_MAX_SAMPLERS, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PIPE_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(cl_uint)),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(cl_device_mem_cache_type)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, sizeof(cl_device_local_mem_type)),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof(size_t)),
    Q(CL_DEVICE_ENDIAN_LITTLE, sizeof(cl_bool)),
    Q(CL_DEVICE_AVAILABLE, sizeof(cl_bool)),
    Q(CL_DEVICE_COMPILER_AVAILABLE, sizeof(cl_bool)),
    Q(CL_DEVICE_LINKER_AVAILABLE, sizeof(cl_bool)),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(cl_device_exec_capabilities)),
    Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(cl_uint)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof(cl_uint)),
    Q(CL_DEVICE_BUILT_IN_KERNELS, 0),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0),
    Q(CL_DEVICE_PLATFORM, sizeof(cl_platform_id)),
    Q(CL_DEVICE_NAME, 0),
    Q(CL_DEVICE_VENDOR, 0),
    Q(CL_DRIVER_VERSION, 0),
    Q(CL_DEVICE_PROFILE, 0),
    Q(CL_DEVICE_VERSION, 0),
    Q(CL_DEVICE_NUMERIC_VERSION, sizeof(cl_version)),
    Q(CL_DEVICE_OPENCL_C_VERSION, 0),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0),
    Q(CL_DEVICE_OPENCL_C_FEATURES, 0),
    Q(CL_DEVICE_EXTENSIONS, 0),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, 0),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, sizeof(cl_bool)),
    Q(CL_DEVICE_PARENT_DEVICE, sizeof(cl_device_id)),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(cl_uint)),
    Q(CL_DEVICE_PARTITION_PROPERTIES, 0),
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(cl_device_affinity_domain)),
    Q(CL_DEVICE_PARTITION_TYPE, 0),
    Q(CL_DEVICE_REFERENCE_COUNT, sizeof(cl_uint)),
    Q(CL_DEVICE_SVM_CAPABILITIES, sizeof(cl_device_svm_capabilities)),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(cl_bool)),
    Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_PIPE_SUPPORT, sizeof(cl_bool)),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(size_t)),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, 0),
#undef Q
};

static void info_all(ct_env *e) {
    for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
        size_t n = 0;
        cl_int err = clGetDeviceInfo(e->device, queries[i].param, 0, NULL, &n);
        ct_checks++;
        if (err != CL_SUCCESS) {
            ct_fail(__FILE__, __LINE__, "%s: size query returned %s", queries[i].name,
                    ct_err_name(err));
            continue;
        }
        if (queries[i].size && n != queries[i].size)
            ct_fail(__FILE__, __LINE__, "%s: size %zu, expected %zu", queries[i].name, n,
                    queries[i].size);
        if (n == 0)
            continue; /* an empty array (no ILs, no built-in kernels): nothing to read */
        void *buf = calloc(n + 1, 1);
        size_t n2 = 0;
        err = clGetDeviceInfo(e->device, queries[i].param, n, buf, &n2);
        ct_checks++;
        if (err != CL_SUCCESS || n2 != n)
            ct_fail(__FILE__, __LINE__, "%s: value query returned %s, size %zu of %zu",
                    queries[i].name, ct_err_name(err), n2, n);
        free(buf);
    }
}

static void info_limits(ct_env *e) {
    cl_device_id d = e->device;
    bool custom = ct_dev_bits(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CUSTOM;
    char *profile = ct_dev_str(d, CL_DEVICE_PROFILE);
    bool full = !strcmp(profile, "FULL_PROFILE");
    free(profile);
    cl_uint dims = ct_dev_uint(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    CT_CHECK(dims >= 3);
    size_t n = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, NULL, &n));
    CT_CHECK(n == dims * sizeof(size_t));
    size_t *sizes = calloc(dims ? dims : 1, sizeof(size_t));
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, n, sizes, NULL));
    for (cl_uint i = 0; i < dims && i < 3; i++)
        CT_CHECK(sizes[i] >= 1);
    free(sizes);
    CT_CHECK(ct_dev_size(d, CL_DEVICE_MAX_WORK_GROUP_SIZE) >= 1);
    CT_CHECK(ct_dev_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
    cl_ulong global = ct_dev_ulong(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong alloc = ct_dev_ulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    CT_CHECK(global > 0);
    CT_CHECK(alloc <= global || alloc > 0);
    if (!custom) {
        /* "The minimum value is max(min(1024 × 1024 × 1024, 1/4th of
         * CL_DEVICE_GLOBAL_MEM_SIZE), 32 × 1024 × 1024)" */
        cl_ulong quarter = global / 4, gib = 1024ull * 1024 * 1024,
                 min = quarter < gib ? quarter : gib;
        if (min < 32ull * 1024 * 1024)
            min = 32ull * 1024 * 1024;
        CT_CHECK(alloc >= min);
        /* CL_DEVICE_LOCAL_MEM_SIZE: "The minimum value is 32 KB for devices that are not of
         * type CL_DEVICE_TYPE_CUSTOM." */
        CT_CHECK(ct_dev_ulong(d, CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
        /* CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: "The minimum value is 64 KB". */
        CT_CHECK(ct_dev_ulong(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
        /* CL_DEVICE_MAX_CONSTANT_ARGS: "The minimum value is 8". */
        CT_CHECK(ct_dev_uint(d, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
        /* CL_DEVICE_MAX_PARAMETER_SIZE: "The minimum value is 1024". */
        CT_CHECK(ct_dev_size(d, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
    }
    /* MEM_BASE_ADDR_ALIGN: at least the largest built-in type, long16 (1024 bits) in FULL. */
    if (full)
        CT_CHECK(ct_dev_uint(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024);
    cl_uint bits = ct_dev_uint(d, CL_DEVICE_ADDRESS_BITS);
    CT_CHECK(bits == 32 || bits == 64);
    CT_CHECK(ct_dev_bits(d, CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
    CT_CHECK(ct_dev_bits(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE);
    CT_CHECK(ct_dev_size(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION) > 0);
    CT_CHECK(ct_dev_uint(d, CL_DEVICE_AVAILABLE) == CL_TRUE);
    if (full && !custom) {
        cl_bitfield fp = ct_dev_bits(d, CL_DEVICE_SINGLE_FP_CONFIG);
        /* "The mandated minimum floating-point capability for devices that are not of type
         * CL_DEVICE_TYPE_CUSTOM is: CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN." */
        CT_CHECK((fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
                 (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    }
    cl_bitfield dfp = ct_dev_bits(d, CL_DEVICE_DOUBLE_FP_CONFIG);
    if (ct_dev_has_ext(d, "cl_khr_fp64")) {
        cl_bitfield need = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM;
        CT_CHECK((dfp & need) == need);
    } else {
        /* "If double precision is not supported, CL_DEVICE_DOUBLE_FP_CONFIG must return 0." */
        CT_CHECK(dfp == 0);
    }
    CT_CHECK(ct_dev_uint(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR) >= 1);
    cl_platform_id p = NULL;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof(p), &p, NULL));
    CT_CHECK(p == e->platform);
    cl_device_id parent = (cl_device_id)1;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(d, CL_DEVICE_PARENT_DEVICE, sizeof(parent), &parent, NULL));
    CT_CHECK(parent == NULL);
    /* Without images, the image limits are zero. */
    if (!ct_dev_uint(d, CL_DEVICE_IMAGE_SUPPORT)) {
        CT_CHECK(ct_dev_uint(d, CL_DEVICE_MAX_READ_IMAGE_ARGS) == 0);
        CT_CHECK(ct_dev_uint(d, CL_DEVICE_MAX_SAMPLERS) == 0);
    }
}

static void versions(ct_env *e) {
    char *v = ct_dev_str(e->device, CL_DEVICE_VERSION);
    int major = 0, minor = 0;
    /* "OpenCL<space><major_version.minor_version><space><vendor-specific information>" */
    CT_CHECK(sscanf(v, "OpenCL %d.%d ", &major, &minor) == 2);
    cl_version num = 0;
    CT_ERR(CL_SUCCESS,
           clGetDeviceInfo(e->device, CL_DEVICE_NUMERIC_VERSION, sizeof(num), &num, NULL));
    CT_CHECK(CL_VERSION_MAJOR(num) == (cl_uint)major && CL_VERSION_MINOR(num) == (cl_uint)minor);
    free(v);
    char *cv = ct_dev_str(e->device, CL_DEVICE_OPENCL_C_VERSION);
    if (ct_compiler(e))
        CT_CHECK(!strncmp(cv, "OpenCL C ", 9));
    free(cv);
    if (ct_compiler(e)) {
        size_t n = 0;
        CT_ERR(CL_SUCCESS,
               clGetDeviceInfo(e->device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &n));
        CT_CHECK(n >= sizeof(cl_name_version) && n % sizeof(cl_name_version) == 0);
    }
    char *driver = ct_dev_str(e->device, CL_DRIVER_VERSION);
    /* "OpenCL software driver version string. Follows a vendor-specific format." */
    CT_CHECK(driver[0] != 0);
    free(driver);
    /* Device extensions: the string and the versioned list name the same set. */
    char *ext = ct_dev_str(e->device, CL_DEVICE_EXTENSIONS);
    size_t n = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &n));
    cl_name_version *nv = malloc(n + 1);
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, nv, NULL));
    for (size_t i = 0; i < n / sizeof(*nv); i++)
        CT_CHECK(ct_list_has(ext, nv[i].name));
    free(nv);
    free(ext);
}

static void info_errors(ct_env *e) {
    cl_uint v = 0;
    /* "CL_INVALID_VALUE if param_name is not one of the supported values or if size in bytes
     * specified by param_value_size is less than size of return type and param_value is not a
     * NULL value." */
    CT_ERR(CL_INVALID_VALUE, clGetDeviceInfo(e->device, 0x7fff, sizeof(v), &v, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetDeviceInfo(e->device, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &v, NULL));
    char c[1];
    CT_ERR(CL_INVALID_VALUE, clGetDeviceInfo(e->device, CL_DEVICE_NAME, 1, c, NULL));
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    CT_ERR(CL_INVALID_DEVICE,
           clGetDeviceInfo(NULL, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(v), &v, NULL));
}

static void retain_release(ct_env *e) {
    /* Root devices: "the reference count ... is not changed" and the calls succeed. */
    cl_uint before = ct_dev_uint(e->device, CL_DEVICE_REFERENCE_COUNT);
    CT_ERR(CL_SUCCESS, clRetainDevice(e->device));
    CT_ERR(CL_SUCCESS, clReleaseDevice(e->device));
    CT_CHECK(ct_dev_uint(e->device, CL_DEVICE_REFERENCE_COUNT) == before);
    /* "CL_INVALID_DEVICE if device is not a valid OpenCL device." */
    CT_ERR(CL_INVALID_DEVICE, clRetainDevice(NULL));
    CT_ERR(CL_INVALID_DEVICE, clReleaseDevice(NULL));
}

/* cl_device_device_enqueue_capabilities is a cl_bitfield (8 bytes), answered even without
 * device-side enqueue. */
static void device_enqueue_caps(ct_env *e) {
    size_t n = 0;
    CT_ERR(CL_SUCCESS,
           clGetDeviceInfo(e->device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, 0, NULL, &n));
    CT_CHECK(n == sizeof(cl_device_device_enqueue_capabilities));
}

/* Handles of another object type: the loader dispatches them to this platform, which must check
 * the type ("is not a valid device"). */
static void wrong_type_handles(ct_env *e) {
    cl_uint v = 0;
    cl_device_id d = NULL;
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    CT_ERR(CL_INVALID_DEVICE,
           clGetDeviceInfo((cl_device_id)e->ctx, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(v), &v, NULL));
    CT_ERR(CL_INVALID_DEVICE, clRetainDevice((cl_device_id)e->q));
    CT_ERR(CL_INVALID_DEVICE, clReleaseDevice((cl_device_id)e->q));
    /* "CL_INVALID_PLATFORM if platform is not a valid platform." */
    CT_ERR(CL_INVALID_PLATFORM,
           clGetDeviceIDs((cl_platform_id)e->ctx, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
}

static void partition(ct_env *e) {
    cl_uint max_sub = ct_dev_uint(e->device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    size_t n = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_PARTITION_PROPERTIES, 0, NULL, &n));
    cl_device_partition_property props[8] = {0};
    if (n <= sizeof(props))
        clGetDeviceInfo(e->device, CL_DEVICE_PARTITION_PROPERTIES, n, props, NULL);
    bool equally = false;
    for (size_t i = 0; i < n / sizeof(props[0]) && i < 8; i++)
        equally |= props[i] == CL_DEVICE_PARTITION_EQUALLY;
    cl_device_id sub[64];
    cl_uint nsub = 0;
    cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    /* "CL_INVALID_VALUE if values specified in properties are not valid or if values specified
     * in properties are valid but not supported by the device." */
    CT_ERR(CL_INVALID_VALUE, clCreateSubDevices(e->device, NULL, 0, NULL, &nsub));
    cl_device_partition_property bogus[] = {0x7fff, 1, 0};
    CT_ERR(CL_INVALID_VALUE, clCreateSubDevices(e->device, bogus, 0, NULL, &nsub));
    if (!equally || max_sub < 2) {
        CT_ERR(CL_INVALID_VALUE, clCreateSubDevices(e->device, eq, 64, sub, &nsub));
        CT_CHECK(n == 0 || props[0] == 0);
        return;
    }
    CT_REQUIRE_OK(clCreateSubDevices(e->device, eq, 0, NULL, &nsub));
    CT_CHECK(nsub >= 1 && nsub <= max_sub);
    if (nsub > 64)
        nsub = 64;
    /* "CL_INVALID_VALUE if out_devices is not NULL and num_devices is less than the number of
     * sub-devices created by the partition scheme." */
    if (nsub > 1)
        CT_ERR(CL_INVALID_VALUE, clCreateSubDevices(e->device, eq, 1, sub, NULL));
    CT_REQUIRE_OK(clCreateSubDevices(e->device, eq, nsub, sub, NULL));
    cl_device_id parent = NULL;
    CT_ERR(CL_SUCCESS,
           clGetDeviceInfo(sub[0], CL_DEVICE_PARENT_DEVICE, sizeof(parent), &parent, NULL));
    CT_CHECK(parent == e->device);
    CT_CHECK(ct_dev_uint(sub[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 1);
    cl_device_partition_property type[3] = {0};
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(sub[0], CL_DEVICE_PARTITION_TYPE, sizeof(type), type, NULL));
    CT_CHECK(type[0] == CL_DEVICE_PARTITION_EQUALLY && type[1] == 1);
    /* A sub-device runs a context of its own. */
    cl_int err = CL_SUCCESS;
    cl_context c = clCreateContext(NULL, 1, &sub[0], NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (c)
        clReleaseContext(c);
    CT_CHECK(ct_dev_uint(sub[0], CL_DEVICE_REFERENCE_COUNT) == 1);
    CT_ERR(CL_SUCCESS, clRetainDevice(sub[0]));
    CT_CHECK(ct_dev_uint(sub[0], CL_DEVICE_REFERENCE_COUNT) == 2);
    for (cl_uint i = 0; i < nsub; i++)
        CT_ERR(CL_SUCCESS, clReleaseDevice(sub[i]));
    CT_ERR(CL_SUCCESS, clReleaseDevice(sub[0]));
}

static const ct_case cases[] = {
    {"get_ids", get_ids},
    {"invalid_type", invalid_type},
    {"info_all", info_all},
    {"info_limits", info_limits},
    {"versions", versions},
    {"info_errors", info_errors},
    {"retain_release", retain_release},
    {"partition", partition},
    {"device_enqueue_caps", device_enqueue_caps},
    {"wrong_type_handles", wrong_type_handles},
};
CT_SECTION(ct_device_section, "device", cases);
