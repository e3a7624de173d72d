/* One case per extension: each runs only where the device (or platform) claims it, found by
 * querying the extension lists, never by the platform's name. */
#include "ct.h"

#include <math.h>

#define NEED_EXT(name)                                                                             \
    do {                                                                                           \
        if (!ct_dev_has_ext(e->device, name) && !ct_plat_has_ext(e->platform, name))               \
            CT_SKIP(name " not claimed");                                                          \
    } while (0)

#define NEED_COMPILER()                                                                            \
    do {                                                                                           \
        if (!ct_compiler(e))                                                                       \
            CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");                                      \
    } while (0)

/* Builds src, runs kernel "k" with one buffer of `size` bytes holding `in`, reads it back. */
static bool run_one(ct_env *e, const char *src, const char *options, void *data, size_t size,
                    size_t global) {
    cl_program p = ct_build(e, src, options);
    cl_kernel k = ct_kernel(p, "k");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, data);
    bool ok = p && k && m;
    if (ok) {
        clSetKernelArg(k, 0, sizeof(m), &m);
        cl_int err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (!err)
            err = clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, size, data, 0, NULL, NULL);
        ct_checks++;
        if (err) {
            ct_fail(__FILE__, __LINE__, "running the kernel: %s", ct_err_name(err));
            ok = false;
        }
    }
    if (m)
        clReleaseMemObject(m);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return ok;
}

static void khr_icd(ct_env *e) {
    if (!ct_plat_has_ext(e->platform, "cl_khr_icd"))
        CT_SKIP("cl_khr_icd not claimed");
    char *suffix = ct_plat_str(e->platform, CL_PLATFORM_ICD_SUFFIX_KHR);
    CT_CHECK(suffix[0] != 0);
    free(suffix);
}

static void khr_fp64(ct_env *e) {
    NEED_EXT("cl_khr_fp64");
    NEED_COMPILER();
    const char *src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                      "kernel void k(global double *a) { size_t i = get_global_id(0);\n"
                      "  a[i] = sqrt(a[i]) + 1.0 / 3.0; }";
    double d[16];
    for (int i = 0; i < 16; i++)
        d[i] = (double)i * i;
    CT_REQUIRE(run_one(e, src, NULL, d, sizeof(d), 16));
    bool ok = true;
    for (int i = 0; i < 16; i++)
        ok &= d[i] == (double)i + 1.0 / 3.0;
    CT_CHECK(ok);
}

/* Half-precision results: arithmetic, math builtins within the spec's half limits, rounding
 * modes of conversions, saturation, relational results (scalar 1, vector -1), geometric. */
static void khr_fp16(ct_env *e) {
    NEED_EXT("cl_khr_fp16");
    /* The minimum half capability: CL_FP_ROUND_TO_ZERO, or CL_FP_ROUND_TO_NEAREST |
     * CL_FP_INF_NAN (OpenCL 3.0; the 1.x extension text had ROUND_TO_INF | INF_NAN). */
    cl_ulong hc = ct_dev_ulong(e->device, CL_DEVICE_HALF_FP_CONFIG);
    bool nan_inf = (hc & CL_FP_INF_NAN) != 0;
    CT_CHECK((hc & CL_FP_ROUND_TO_ZERO) ||
             (nan_inf && (hc & (CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_INF))));
    NEED_COMPILER();
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global float *a) { size_t i = get_global_id(0); global float *r = a + 8 * "
        "i;\n"
        "  half h = (half)r[0]; h = h * (half)2.0f + (half)0.5f;\n"
        "  r[0] = (float)h;\n"
        "  r[1] = (float)exp(h * (half)0.25f);\n"
        "  r[2] = (float)sqrt(fabs(h)) + (float)fma(h, h, (half)1.0f) * 0.0f;\n"
        "  r[3] = (float)convert_half_rtz(1.00048828125f) + 10.0f * "
        "(float)convert_half_rtp(1.00048828125f);\n"
        "  r[4] = (float)isequal(h, h) + 10.0f * (float)isequal((half4)h, (half4)h).s2;\n"
        "  r[5] = (float)convert_char_sat(h * (half)100.0f) + 1000.0f * "
        "(float)convert_uchar_sat(-h);\n"
        "  r[6] = (float)dot((half2)(h, 1.0h), (half2)(2.0h, 3.0h));\n"
        "  r[7] = (float)convert_int_rtn(h * 0.25h) + 1000.0f * (float)convert_int_rtp(h * 0.25h); "
        "}";
    float f[16 * 8];
    for (int i = 0; i < 16; i++)
        f[i * 8] = (float)i - 6.25f; /* h = 2i - 12: exact in half */
    CT_REQUIRE(run_one(e, src, NULL, f, sizeof(f), 16));
    for (int i = 0; i < 16; i++) {
        const float *r = f + 8 * i;
        float h = ((float)i - 6.25f) * 2 + 0.5f; /* -12 ... 18, exact */
        /* 2 half ulps (2^-9 relative) for exp, sqrt correctly rounded (well within it) */
        float ex = expf(h * 0.25f), sq = sqrtf(fabsf(h));
        CT_CHECK(r[0] == h);
        CT_CHECK(fabsf(r[1] - ex) <= ex * 0x1p-9f);
        CT_CHECK(fabsf(r[2] - sq) <= sq * 0x1p-10f);
        /* 1 + 2^-11 is between halves 1 and 1 + 2^-10: rtz 1, rtp 1.0009765625 */
        CT_CHECK(r[3] == 1.0f + 10.0f * 1.0009765625f);
        CT_CHECK(r[4] == 1.0f - 10.0f);
        float c = h * 100 > 127 ? 127 : h * 100 < -128 ? -128 : h * 100;
        float u = -h < 0 ? 0 : -h;
        CT_CHECK(r[5] == c + 1000.0f * u);
        CT_CHECK(r[6] == 2 * h + 3);
        CT_CHECK(r[7] == floorf(h / 4) + 1000.0f * ceilf(h / 4));
    }
}

static void khr_int32_atomics(ct_env *e) {
    NEED_EXT("cl_khr_global_int32_base_atomics");
    NEED_COMPILER();
    const char *src = "kernel void k(global int *a) { atomic_inc(&a[0]); atomic_add(&a[1], 2);\n"
                      "  atomic_max(&a[2], (int)get_global_id(0)); }";
    cl_int v[3] = {0, 0, -1};
    CT_REQUIRE(run_one(e, src, NULL, v, sizeof(v), 4096));
    CT_CHECK(v[0] == 4096);
    CT_CHECK(v[1] == 8192);
    CT_CHECK(v[2] == 4095);
}

static void khr_local_int32_atomics(ct_env *e) {
    NEED_EXT("cl_khr_local_int32_base_atomics");
    NEED_COMPILER();
    const char *src =
        "kernel void k(global int *a) { local int c; if (get_local_id(0) == 0) c = 0;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE); atomic_inc(&c); barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (get_local_id(0) == 0) a[get_group_id(0)] = c; }";
    cl_int v[64] = {0};
    /* 64 work-items in groups the implementation picks: every group counts its own size. */
    CT_REQUIRE(run_one(e, src, NULL, v, sizeof(v), 64));
    int sum = 0;
    for (int i = 0; i < 64; i++)
        sum += v[i];
    CT_CHECK(sum == 64);
}

static void khr_int64_atomics(ct_env *e) {
    NEED_EXT("cl_khr_int64_base_atomics");
    NEED_COMPILER();
    const char *src = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                      "kernel void k(global long *a) { atom_add(&a[0], 1L << 33); }";
    cl_long v[1] = {0};
    CT_REQUIRE(run_one(e, src, NULL, v, sizeof(v), 256));
    CT_CHECK(v[0] == 256ll << 33);
}

static void khr_byte_addressable_store(ct_env *e) {
    NEED_EXT("cl_khr_byte_addressable_store");
    NEED_COMPILER();
    const char *src =
        "kernel void k(global uchar *a) { a[get_global_id(0)] = (uchar)(get_global_id(0) * 3); }";
    unsigned char v[256] = {0};
    CT_REQUIRE(run_one(e, src, NULL, v, sizeof(v), 256));
    bool ok = true;
    for (int i = 0; i < 256; i++)
        ok &= v[i] == (unsigned char)(i * 3);
    CT_CHECK(ok);
}

static void khr_device_uuid(ct_env *e) {
    NEED_EXT("cl_khr_device_uuid");
    cl_uchar uuid[CL_UUID_SIZE_KHR], driver[CL_UUID_SIZE_KHR];
    size_t n = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_UUID_KHR, sizeof(uuid), uuid, &n));
    CT_CHECK(n == CL_UUID_SIZE_KHR);
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DRIVER_UUID_KHR, sizeof(driver), driver, &n));
    CT_CHECK(n == CL_UUID_SIZE_KHR);
    cl_bool valid = CL_FALSE;
    CT_ERR(CL_SUCCESS,
           clGetDeviceInfo(e->device, CL_DEVICE_LUID_VALID_KHR, sizeof(valid), &valid, NULL));
    cl_uint mask = 0;
    if (valid)
        CT_ERR(CL_SUCCESS,
               clGetDeviceInfo(e->device, CL_DEVICE_NODE_MASK_KHR, sizeof(mask), &mask, NULL));
}

static void khr_pci_bus_info(ct_env *e) {
    NEED_EXT("cl_khr_pci_bus_info");
    cl_device_pci_bus_info_khr info;
    size_t n = 0;
    CT_ERR(CL_SUCCESS,
           clGetDeviceInfo(e->device, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof(info), &info, &n));
    CT_CHECK(n == sizeof(info));
}

static void khr_subgroups(ct_env *e) {
    NEED_EXT("cl_khr_subgroups");
    NEED_COMPILER();
    CT_CHECK(ct_dev_uint(e->device, CL_DEVICE_MAX_NUM_SUB_GROUPS) >= 1);
    const char *src = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
                      "kernel void k(global uint *a) { size_t i = get_global_id(0);\n"
                      "  a[i] = sub_group_reduce_add(1u) == get_sub_group_size() ? 1u : 0u; }";
    cl_uint v[128] = {0};
    /* Sub-group built-ins are OpenCL C 2.0 and later (clang does not declare them for 1.x). */
    CT_REQUIRE(run_one(e, src, "-cl-std=CL3.0", v, sizeof(v), 128));
    bool ok = true;
    for (int i = 0; i < 128; i++)
        ok &= v[i] == 1;
    CT_CHECK(ok);
}

static void khr_priority_hints(ct_env *e) {
    NEED_EXT("cl_khr_priority_hints");
    cl_queue_properties props[] = {CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR, 0};
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
    CT_ERR(CL_SUCCESS, err);
    if (q) {
        CT_ERR(CL_SUCCESS, clFinish(q));
        clReleaseCommandQueue(q);
    }
}

static void khr_throttle_hints(ct_env *e) {
    NEED_EXT("cl_khr_throttle_hints");
    cl_queue_properties props[] = {CL_QUEUE_THROTTLE_KHR, CL_QUEUE_THROTTLE_LOW_KHR, 0};
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
    CT_ERR(CL_SUCCESS, err);
    if (q)
        clReleaseCommandQueue(q);
}

static void nv_device_attribute_query(ct_env *e) {
    NEED_EXT("cl_nv_device_attribute_query");
    /* The values of NVIDIA's cl_ext.h (cl_nv_device_attribute_query). */
    cl_uint major = 0, minor = 0, warp = 0, regs = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, 0x4000, sizeof(major), &major, NULL));
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, 0x4001, sizeof(minor), &minor, NULL));
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, 0x4002, sizeof(regs), &regs, NULL));
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, 0x4003, sizeof(warp), &warp, NULL));
    CT_CHECK(major >= 1);
    CT_CHECK(warp == 32);
    CT_CHECK(regs > 0);
}

static void culvert_cuda_interop(ct_env *e) {
    NEED_EXT(CL_CULVERT_CUDA_INTEROP_EXTENSION_NAME);
    cl_int ordinal = -1;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_CUDA_DEVICE_CULVERT, sizeof(ordinal),
                                       &ordinal, NULL));
    CT_CHECK(ordinal >= 0);
    void *cuctx = NULL;
    CT_ERR(CL_SUCCESS,
           clGetContextInfo(e->ctx, CL_CONTEXT_CUDA_CONTEXT_CULVERT, sizeof(cuctx), &cuctx, NULL));
    CT_CHECK(cuctx != NULL);
    void *stream = NULL;
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(e->q, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof(stream),
                                             &stream, NULL));
}

/* Program-scope __global variables: the spec's minimum size, initial values, and values kept
 * from one launch to the next of the same program. */
static void c_program_scope_globals(ct_env *e) {
    if (!ct_dev_has_c_feature(e->device, "__opencl_c_program_scope_global_variables"))
        CT_SKIP("__opencl_c_program_scope_global_variables not claimed");
    NEED_COMPILER();
    CT_CHECK(ct_dev_size(e->device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 65536);
    const char *src = "global int counter = 5;\n"
                      "kernel void k(global int *a) { a[0] = counter; counter += 10; }\n";
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    cl_kernel k = ct_kernel(p, "k");
    cl_int seen[2] = {0, 0};
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, sizeof(cl_int), NULL);
    CT_REQUIRE(p && k && m);
    clSetKernelArg(k, 0, sizeof(m), &m);
    size_t one = 1;
    for (int i = 0; i < 2; i++) {
        CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(cl_int), &seen[i], 0, NULL, NULL));
    }
    CT_CHECK(seen[0] == 5 && seen[1] == 15);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void versions_consistent(ct_env *e) {
    /* Every extension of the device has a version in CL_DEVICE_EXTENSIONS_WITH_VERSION, and
     * every platform extension is supported by the device ("extensions supported by all
     * devices associated with this platform"). */
    char *plat = ct_plat_str(e->platform, CL_PLATFORM_EXTENSIONS);
    char *dev = ct_dev_str(e->device, CL_DEVICE_EXTENSIONS);
    for (char *tok = strtok(plat, " "); tok; tok = strtok(NULL, " ")) {
        /* cl_khr_icd and vendor platform-layer extensions (entry points without a device,
         * like PoCL's content size) are the platform's own. */
        if (!strcmp(tok, "cl_khr_icd") || strncmp(tok, "cl_khr_", 7))
            continue;
        ct_checks++;
        if (!ct_list_has(dev, tok))
            ct_fail(__FILE__, __LINE__, "platform extension %s is not in the device's list", tok);
    }
    free(plat);
    free(dev);
}

static const ct_case cases[] = {
    {"cl_khr_icd", khr_icd},
    {"cl_khr_fp64", khr_fp64},
    {"cl_khr_fp16", khr_fp16},
    {"cl_khr_global_int32_base_atomics", khr_int32_atomics},
    {"cl_khr_local_int32_base_atomics", khr_local_int32_atomics},
    {"cl_khr_int64_base_atomics", khr_int64_atomics},
    {"cl_khr_byte_addressable_store", khr_byte_addressable_store},
    {"cl_khr_device_uuid", khr_device_uuid},
    {"cl_khr_pci_bus_info", khr_pci_bus_info},
    {"cl_khr_subgroups", khr_subgroups},
    {"cl_khr_priority_hints", khr_priority_hints},
    {"cl_khr_throttle_hints", khr_throttle_hints},
    {"cl_nv_device_attribute_query", nv_device_attribute_query},
    {"cl_culvert_cuda_interop", culvert_cuda_interop},
    {"__opencl_c_program_scope_global_variables", c_program_scope_globals},
    {"platform_extensions_on_device", versions_consistent},
};
CT_SECTION(ct_extensions_section, "extensions", cases);
