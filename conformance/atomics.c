/* OpenCL C 3.0 atomics (OpenCL 3.0 API 4.2 CL_DEVICE_ATOMIC_*_CAPABILITIES, OpenCL C 6.15.12)
 * and cl_ext_float_atomics: the capabilities, the feature list and the macros a program sees
 * agree; what a device claims works (message passing with release/acquire at device scope,
 * store buffering with seq_cst, seq_cst read-modify-writes, fences with every claimed order and
 * scope, float atomic add/min/max). A case for an optional feature the device does not claim is
 * skipped. */
#include "ct.h"

#include <math.h>

/* OpenCL C 3.0 feature name -> the capability bit it needs. */
static const struct {
    const char *feature;
    cl_device_atomic_capabilities bit;
} ct_atomic_features[] = {
    {"__opencl_c_atomic_order_acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
    {"__opencl_c_atomic_order_seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
    {"__opencl_c_atomic_scope_device", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
    {"__opencl_c_atomic_scope_all_devices", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
};

/* cl_ext_float_atomics feature name -> (fp64?, bit of CL_DEVICE_{SINGLE,DOUBLE}_FP_...). */
static const struct {
    const char *feature;
    int fp64;
    cl_bitfield bit;
} ct_fp_features[] = {
    {"__opencl_c_ext_fp32_global_atomic_add", 0, CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT},
    {"__opencl_c_ext_fp32_local_atomic_add", 0, CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT},
    {"__opencl_c_ext_fp32_global_atomic_min_max", 0, CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT},
    {"__opencl_c_ext_fp32_local_atomic_min_max", 0, CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT},
    {"__opencl_c_ext_fp64_global_atomic_add", 1, CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT},
    {"__opencl_c_ext_fp64_local_atomic_add", 1, CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT},
    {"__opencl_c_ext_fp64_global_atomic_min_max", 1, CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT},
    {"__opencl_c_ext_fp64_local_atomic_min_max", 1, CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT},
};

static bool has_feature(ct_env *e, const char *name) {
    return ct_dev_has_c_feature(e->device, name);
}

#define NEED_C30()                                                                                 \
    if (!ct_compiler(e) || !ct_dev_has_c30(e->device))                                             \
    CT_SKIP("no OpenCL C 3.0 compiler")

/* Runs a one-dimensional kernel of p over global/local with buffer arguments. */
static bool run_kernel(ct_env *e, cl_program p, const char *name, size_t global, size_t local,
                       cl_mem *args, int nargs) {
    cl_kernel k = ct_kernel(p, name);
    if (!k)
        return false;
    for (int i = 0; i < nargs; i++)
        CT_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]));
    cl_int err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    CT_ERR(CL_SUCCESS, err);
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clReleaseKernel(k);
    return err == CL_SUCCESS;
}

static void release_all(cl_mem *m, int n) {
    for (int i = 0; i < n; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
}

static void capabilities(ct_env *e) {
    cl_device_atomic_capabilities mem = 0, fence = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof mem,
                                       &mem, NULL));
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof fence,
                                       &fence, NULL));
    /* "The mandated minimum capability is: CL_DEVICE_ATOMIC_ORDER_RELAXED |
     * CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP" (memory) and "CL_DEVICE_ATOMIC_ORDER_RELAXED |
     * CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP" (fences). */
    CT_CHECK((mem & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
             (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
    CT_CHECK((fence & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                       CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
             (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
              CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
    /* No undefined bits. */
    CT_CHECK((mem & ~(cl_device_atomic_capabilities)0x7f) == 0);
    CT_CHECK((fence & ~(cl_device_atomic_capabilities)0x7f) == 0);
    /* A feature the device lists needs its capability (OpenCL C 6.2.1: the feature macros are
     * defined only when the device supports the feature). */
    for (size_t i = 0; i < sizeof ct_atomic_features / sizeof *ct_atomic_features; i++)
        if (has_feature(e, ct_atomic_features[i].feature)) {
            if (!(mem & ct_atomic_features[i].bit))
                ct_fail(__FILE__, __LINE__, "%s listed without its capability bit",
                        ct_atomic_features[i].feature);
            ct_checks++;
        }
    if (!ct_dev_has_ext(e->device, "cl_ext_float_atomics"))
        return;
    cl_bitfield fp[2] = {0, 0};
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT,
                                       sizeof fp[0], &fp[0], NULL));
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT,
                                       sizeof fp[1], &fp[1], NULL));
    /* Each cl_ext_float_atomics feature macro exactly when its capability bit is set. */
    for (size_t i = 0; i < sizeof ct_fp_features / sizeof *ct_fp_features; i++) {
        bool listed = has_feature(e, ct_fp_features[i].feature);
        bool bit = (fp[ct_fp_features[i].fp64] & ct_fp_features[i].bit) != 0;
        if (listed != bit)
            ct_fail(__FILE__, __LINE__, "%s: listed %d, capability bit %d",
                    ct_fp_features[i].feature, listed, bit);
        ct_checks++;
    }
}

/* The macros an OpenCL C 3.0 program sees are the features the device lists. */
static void macros_match_features(ct_env *e) {
    NEED_C30();
    static const char *src =
        "#define ONE(m, i) out[i] = m;\n"
        "kernel void macros(global int *out) {\n"
        "#ifdef __opencl_c_atomic_order_acq_rel\n out[0] = 1;\n#endif\n"
        "#ifdef __opencl_c_atomic_order_seq_cst\n out[1] = 1;\n#endif\n"
        "#ifdef __opencl_c_atomic_scope_device\n out[2] = 1;\n#endif\n"
        "#ifdef __opencl_c_atomic_scope_all_devices\n out[3] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp32_global_atomic_add\n out[4] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp32_local_atomic_add\n out[5] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp32_global_atomic_min_max\n out[6] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp32_local_atomic_min_max\n out[7] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp64_global_atomic_add\n out[8] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp64_local_atomic_add\n out[9] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp64_global_atomic_min_max\n out[10] = 1;\n#endif\n"
        "#ifdef __opencl_c_ext_fp64_local_atomic_min_max\n out[11] = 1;\n#endif\n"
        "}\n";
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    cl_int seen[12] = {0};
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof seen, seen);
    if (b && run_kernel(e, p, "macros", 1, 1, &b, 1)) {
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL));
        for (size_t i = 0; i < 4; i++) {
            const char *f = ct_atomic_features[i].feature;
            if (seen[i] != (int)has_feature(e, f))
                ct_fail(__FILE__, __LINE__, "%s: macro %d, listed %d", f, seen[i],
                        has_feature(e, f));
            ct_checks++;
        }
        /* The cl_ext_float_atomics macros only with the extension. */
        bool ext = ct_dev_has_ext(e->device, "cl_ext_float_atomics");
        for (size_t i = 0; i < 8; i++) {
            const char *f = ct_fp_features[i].feature;
            bool listed = ext && has_feature(e, f);
            if (seen[4 + i] != (int)listed)
                ct_fail(__FILE__, __LINE__, "%s: macro %d, listed %d", f, seen[4 + i], listed);
            ct_checks++;
        }
    }
    if (b)
        clReleaseMemObject(b);
    clReleaseProgram(p);
}

/* Message passing between work-groups, release/acquire at device scope: the reader never
 * spins, it checks the words the count it loaded covers (the case cannot hang). */
static void message_passing(ct_env *e) {
    NEED_C30();
    if (!has_feature(e, "__opencl_c_atomic_order_acq_rel") ||
        !has_feature(e, "__opencl_c_atomic_scope_device"))
        CT_SKIP("acq_rel order or device scope not claimed");
    static const char *src =
        "#define WORDS 64\n"
        "kernel void mp(global atomic_int *flag, global int *data, global int *bad) {\n"
        "    int g = get_group_id(0), pair = g / 2, l = get_local_id(0);\n"
        "    int slot = pair * get_local_size(0) + l;\n"
        "    global int *d = data + slot * WORDS;\n"
        "    if (g % 2 == 0) {\n"
        "        for (int i = 0; i < WORDS; i++) {\n"
        "            d[i] = i + 1;\n"
        "            atomic_store_explicit(flag + slot, i + 1, memory_order_release,\n"
        "                                  memory_scope_device);\n"
        "        }\n"
        "    } else {\n"
        "        int errors = 0, last = 0;\n"
        "        for (int r = 0; r < 2 * WORDS; r++) {\n"
        "            int n = atomic_load_explicit(flag + slot, memory_order_acquire,\n"
        "                                         memory_scope_device);\n"
        "            for (int i = last; i < n; i++)\n"
        "                errors += d[i] != i + 1;\n"
        "            last = n > last ? n : last;\n"
        "        }\n"
        "        bad[slot] = errors;\n"
        "    }\n"
        "}\n";
    enum { GROUPS = 16, WG = 16, SLOTS = GROUPS / 2 * WG, WORDS = 64 };
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    static cl_int zero[SLOTS * WORDS], bad[SLOTS];
    cl_mem b[3] = {ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SLOTS * 4, zero),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof bad, zero)};
    if (b[0] && b[1] && b[2] && run_kernel(e, p, "mp", GROUPS * WG, WG, b, 3)) {
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[2], CL_TRUE, 0, sizeof bad, bad, 0, NULL, NULL));
        long errors = 0;
        for (int i = 0; i < SLOTS; i++)
            errors += bad[i];
        CT_CHECK(errors == 0);
    }
    release_all(b, 3);
    clReleaseProgram(p);
}

/* seq_cst: store buffering (r0 == r1 == 0 is forbidden), with seq_cst operations (the forms
 * without _explicit) and with relaxed operations around seq_cst fences; and a ticket counter of
 * atomic_fetch_add, with atomic_compare_exchange_strong and atomic_exchange beside it. */
static void seq_cst(ct_env *e) {
    NEED_C30();
    if (!has_feature(e, "__opencl_c_atomic_order_seq_cst") ||
        !has_feature(e, "__opencl_c_atomic_scope_device"))
        CT_SKIP("seq_cst order or device scope not claimed");
    static const char *src =
        "kernel void sb(global atomic_int *xy, global int *out, global atomic_int *tickets,\n"
        "               global int *mine) {\n"
        "    int g = get_group_id(0), pair = (g / 2) * get_local_size(0) + get_local_id(0);\n"
        "    global atomic_int *x = xy + 4 * pair;\n"
        "    atomic_store(x + (g % 2), 1);\n"
        "    out[4 * pair + (g % 2)] = atomic_load(x + 1 - (g % 2));\n"
        "    atomic_store_explicit(x + 2 + (g % 2), 1, memory_order_relaxed, "
        "memory_scope_device);\n"
        "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, "
        "memory_scope_device);\n"
        "    out[4 * pair + 2 + (g % 2)] = atomic_load_explicit(x + 3 - (g % 2), "
        "memory_order_relaxed, memory_scope_device);\n"
        "    int t = atomic_fetch_add(tickets, 1);\n"
        "    int expect = 0;\n"
        "    atomic_compare_exchange_strong(tickets + 1, &expect, 0);\n"
        "    atomic_exchange(tickets + 2, t);\n"
        "    mine[get_global_id(0)] = t;\n"
        "}\n";
    enum { GROUPS = 32, WG = 16, N = GROUPS * WG, PAIRS = N / 2 };
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    static cl_int zero[4 * PAIRS], out[4 * PAIRS], mine[N];
    char hit[N];
    memset(hit, 0, sizeof hit);
    cl_mem b[4] = {ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 3 * sizeof(cl_int), zero),
                   ct_buffer(e, CL_MEM_READ_WRITE, sizeof mine, NULL)};
    if (b[0] && b[1] && b[2] && b[3] && run_kernel(e, p, "sb", N, WG, b, 4)) {
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[3], CL_TRUE, 0, sizeof mine, mine, 0, NULL, NULL));
        int forbidden = 0, dup = 0;
        for (int i = 0; i < PAIRS; i++)
            forbidden += (out[4 * i] == 0 && out[4 * i + 1] == 0) +
                         (out[4 * i + 2] == 0 && out[4 * i + 3] == 0);
        for (int i = 0; i < N; i++)
            dup += mine[i] < 0 || mine[i] >= N || hit[mine[i]]++;
        CT_CHECK(forbidden == 0);
        CT_CHECK(dup == 0);
    }
    release_all(b, 4);
    clReleaseProgram(p);
}

/* atomic_work_item_fence with every order and scope the fence capabilities list compiles and
 * runs. */
static void fences(ct_env *e) {
    NEED_C30();
    cl_device_atomic_capabilities caps = 0;
    clGetDeviceInfo(e->device, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof caps, &caps, NULL);
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "kernel void f(global int *out) {\n");
    static const struct {
        cl_device_atomic_capabilities bit;
        const char *name;
    } orders[] = {{CL_DEVICE_ATOMIC_ORDER_RELAXED, "memory_order_relaxed"},
                  {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "memory_order_acquire"},
                  {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "memory_order_release"},
                  {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "memory_order_acq_rel"},
                  {CL_DEVICE_ATOMIC_ORDER_SEQ_CST, "memory_order_seq_cst"}},
      scopes[] = {{CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM, "memory_scope_work_item"},
                  {CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP, "memory_scope_work_group"},
                  {CL_DEVICE_ATOMIC_SCOPE_DEVICE, "memory_scope_device"},
                  {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "memory_scope_all_devices"}};
    int count = 0;
    for (size_t o = 0; o < 5; o++)
        for (size_t s = 0; s < 4; s++) {
            if (!(caps & orders[o].bit) || !(caps & scopes[s].bit))
                continue;
            /* "memory_scope_work_item ... can only be used with atomic_work_item_fence with
             * flags set to CLK_IMAGE_MEM_FENCE"; culvert has no images: left out. */
            if (scopes[s].bit == CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM)
                continue;
            /* all_devices needs __opencl_c_atomic_scope_all_devices for the name. */
            if (scopes[s].bit == CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES &&
                !has_feature(e, "__opencl_c_atomic_scope_all_devices"))
                continue;
            if (orders[o].bit == CL_DEVICE_ATOMIC_ORDER_SEQ_CST &&
                !has_feature(e, "__opencl_c_atomic_order_seq_cst"))
                continue;
            n += (size_t)snprintf(src + n, sizeof src - n,
                                  "    out[%d] = %d;\n    atomic_work_item_fence("
                                  "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, %s, %s);\n",
                                  count, count + 1, orders[o].name, scopes[s].name);
            count++;
        }
    snprintf(src + n, sizeof src - n, "}\n");
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    cl_int out[32] = {0};
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out);
    if (b && run_kernel(e, p, "f", 1, 1, &b, 1)) {
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < count; i++)
            CT_CHECK(out[i] == i + 1);
    }
    if (b)
        clReleaseMemObject(b);
    clReleaseProgram(p);
}

/* cl_ext_float_atomics: add/sub of integer-valued floats (exact), min/max with NaN and signed
 * zeros (fmin/fmax: a NaN operand is missing data, -0 below +0), global and local. */
static void float_atomics(ct_env *e) {
    NEED_C30();
    if (!ct_dev_has_ext(e->device, "cl_ext_float_atomics"))
        CT_SKIP("cl_ext_float_atomics not claimed");
    if (!has_feature(e, "__opencl_c_ext_fp32_global_atomic_add") ||
        !has_feature(e, "__opencl_c_ext_fp32_local_atomic_add") ||
        !has_feature(e, "__opencl_c_ext_fp32_global_atomic_min_max"))
        CT_SKIP("fp32 global/local add and global min/max not all claimed");
    static const char *src =
        "kernel void fa(global atomic_float *sum, global atomic_float *mm, global float "
        "*local_sum,\n"
        "               global float *old) {\n"
        "    local atomic_float ls;\n"
        "    if (get_local_id(0) == 0)\n"
        "        atomic_init(&ls, 0.0f);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    float v = (float)((int)get_global_id(0) % 9 - 4);\n"
        "    atomic_fetch_add_explicit(sum, v, memory_order_relaxed, memory_scope_device);\n"
        "    atomic_fetch_sub_explicit(sum + 1, v, memory_order_relaxed, memory_scope_device);\n"
        "    atomic_fetch_add_explicit(&ls, v, memory_order_relaxed, memory_scope_work_group);\n"
        "    atomic_fetch_min_explicit(sum + 2, v, memory_order_relaxed, memory_scope_device);\n"
        "    atomic_fetch_max_explicit(sum + 3, v, memory_order_relaxed, memory_scope_device);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (get_local_id(0) == 0)\n"
        "        local_sum[get_group_id(0)] = atomic_load_explicit(&ls, memory_order_relaxed,\n"
        "                                                          memory_scope_work_group);\n"
        "    if (get_global_id(0) == 0) {\n"
        "        float nan = as_float(0x7fc00000);\n"
        "        old[0] = atomic_fetch_min_explicit(mm + 0, -0.0f, memory_order_relaxed,\n"
        "                                           memory_scope_device);\n"
        "        old[1] = atomic_fetch_max_explicit(mm + 1, 0.0f, memory_order_relaxed,\n"
        "                                           memory_scope_device);\n"
        "        old[2] = atomic_fetch_min_explicit(mm + 2, 2.0f, memory_order_relaxed,\n"
        "                                           memory_scope_device);\n"
        "        old[3] = atomic_fetch_max_explicit(mm + 3, nan, memory_order_relaxed,\n"
        "                                           memory_scope_device);\n"
        "    }\n"
        "}\n";
    enum { GROUPS = 8, WG = 64, N = GROUPS * WG };
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    /* min(+0, -0) = -0; max(-0, +0) = +0; min(NaN, 2) = 2; max(5, NaN) = 5. */
    cl_float sums[4] = {0, 0, INFINITY, -INFINITY}, mm[4] = {0.0f, -0.0f, NAN, 5.0f};
    cl_float local_sum[GROUPS], old[4];
    cl_mem b[4] = {ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof sums, sums),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof mm, mm),
                   ct_buffer(e, CL_MEM_READ_WRITE, sizeof local_sum, NULL),
                   ct_buffer(e, CL_MEM_READ_WRITE, sizeof old, NULL)};
    if (b[0] && b[1] && b[2] && b[3] && run_kernel(e, p, "fa", N, WG, b, 4)) {
        clEnqueueReadBuffer(e->q, b[0], CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL);
        clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof mm, mm, 0, NULL, NULL);
        clEnqueueReadBuffer(e->q, b[2], CL_TRUE, 0, sizeof local_sum, local_sum, 0, NULL, NULL);
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[3], CL_TRUE, 0, sizeof old, old, 0, NULL, NULL));
        double total = 0;
        for (int g = 0; g < GROUPS; g++) {
            double group = 0;
            for (int i = g * WG; i < (g + 1) * WG; i++)
                group += i % 9 - 4;
            CT_CHECK(local_sum[g] == (float)group);
            total += group;
        }
        CT_CHECK(sums[0] == (float)total && sums[1] == (float)-total);
        CT_CHECK(sums[2] == -4.0f && sums[3] == 4.0f);
        CT_CHECK(mm[0] == 0.0f && signbit(mm[0]));
        CT_CHECK(mm[1] == 0.0f && !signbit(mm[1]));
        CT_CHECK(mm[2] == 2.0f);
        CT_CHECK(mm[3] == 5.0f);
        CT_CHECK(old[0] == 0.0f && !signbit(old[0]) && old[1] == 0.0f && signbit(old[1]));
        CT_CHECK(isnan(old[2]) && old[3] == 5.0f);
    }
    release_all(b, 4);
    clReleaseProgram(p);
}

static const ct_case cases[] = {
    {"capabilities", capabilities},
    {"macros_match_features", macros_match_features},
    {"message_passing", message_passing},
    {"seq_cst", seq_cst},
    {"fences", fences},
    {"float_atomics", float_atomics},
};
CT_SECTION(ct_atomics_section, "atomics", cases);
