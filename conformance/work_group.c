/* Work-group collective functions (OpenCL C 3.0 optional feature): the device query agrees with
 * CL_DEVICE_OPENCL_C_FEATURES and with the macro an OpenCL C 3.0 program sees; where the device
 * claims the feature, the functions give the right results in uniform and non-uniform
 * work-groups. A device that does not claim it skips the function cases. */
#include "ct.h"

static const char feature[] = "__opencl_c_work_group_collective_functions";

static bool claims(ct_env *e) {
    return ct_dev_bool(e->device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT);
}

/* "CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: Is CL_TRUE if the device supports
 * work-group collective functions", which OpenCL C 3.0 names __opencl_c_work_group_collective_
 * functions: the query and the feature list say the same. */
static void query(ct_env *e) {
    ct_check_feature_query(e, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, feature);
}

/* An OpenCL C 3.0 program sees the feature macro exactly when the device claims the feature. */
static void feature_macro(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    if (!ct_dev_has_c30(e->device))
        CT_SKIP("no OpenCL C 3.0");
    const char *src = "kernel void k(global int *a) {\n"
                      "#ifdef __opencl_c_work_group_collective_functions\n"
                      "  a[get_global_id(0)] = 1;\n"
                      "#else\n"
                      "  a[get_global_id(0)] = 2;\n"
                      "#endif\n"
                      "}\n";
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "k");
    cl_int v = 0;
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), &v);
    if (k && b) {
        size_t one = 1;
        CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(b), &b));
        CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &one, &one, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
        CT_CHECK(v == (claims(e) ? 1 : 2));
    }
    if (b)
        clReleaseMemObject(b);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Each work-item writes 8 results; the host recomputes them per group (groups of `local`, the
 * last one smaller when global is not a multiple). */
static void run_and_check(ct_env *e, cl_kernel k, size_t global, size_t local) {
    enum { F = 8 };
    cl_int *x = malloc(global * sizeof(cl_int)), *o = calloc(global * F, sizeof(cl_int));
    CT_REQUIRE(x && o);
    for (size_t i = 0; i < global; i++)
        x[i] = (cl_int)((i * 7919u) % 1001u) - 500;
    x[global / 2] = 12345; /* a marker for work_group_any */
    cl_mem bx = ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, global * sizeof(cl_int), x);
    cl_mem bo = ct_buffer(e, CL_MEM_READ_WRITE, global * F * sizeof(cl_int), NULL);
    if (bx && bo) {
        CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(bx), &bx));
        CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof(bo), &bo));
        CT_ERR(CL_SUCCESS,
               clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, bo, CL_TRUE, 0, global * F * sizeof(cl_int), o,
                                               0, NULL, NULL));
        int bad = 0;
        for (size_t start = 0; start < global; start += local) {
            size_t n = global - start < local ? global - start : local;
            cl_int sum = 0, mn = CL_INT_MAX, mx = CL_INT_MIN, any = 0, incl = 0, excl = 0;
            for (size_t i = start; i < start + n; i++) {
                sum += x[i];
                mn = x[i] < mn ? x[i] : mn;
                mx = x[i] > mx ? x[i] : mx;
                any |= x[i] == 12345;
            }
            for (size_t i = start; i < start + n; i++) {
                incl += x[i];
                const cl_int *r = o + i * F;
                cl_int want[F] = {sum, mn, mx, incl, excl, x[start + (n - 1) / 2], 1, any};
                for (int f = 0; f < F; f++)
                    if ((f >= 6 ? r[f] != 0 : r[f]) != want[f] && bad++ < 4)
                        ct_fail(__FILE__, __LINE__,
                                "global %zu local %zu: item %zu field %d = %d, "
                                "want %d",
                                global, local, i, f, r[f], want[f]);
                excl += x[i];
            }
        }
        CT_CHECK(bad == 0);
    }
    if (bx)
        clReleaseMemObject(bx);
    if (bo)
        clReleaseMemObject(bo);
    free(x);
    free(o);
}

static void functions(ct_env *e) {
    if (!claims(e))
        CT_SKIP("work-group collective functions not claimed");
    CT_REQUIRE(ct_compiler(e));
    const char *src = "kernel void k(global const int *x, global int *o) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  global int *r = o + i * 8;\n"
                      "  int v = x[i];\n"
                      "  r[0] = work_group_reduce_add(v);\n"
                      "  r[1] = work_group_reduce_min(v);\n"
                      "  r[2] = work_group_reduce_max(v);\n"
                      "  r[3] = work_group_scan_inclusive_add(v);\n"
                      "  r[4] = work_group_scan_exclusive_add(v);\n"
                      "  r[5] = work_group_broadcast(v, (get_local_size(0) - 1) / 2);\n"
                      "  r[6] = work_group_all(v > -1000);\n"
                      "  r[7] = work_group_any(v == 12345);\n"
                      "}\n";
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "k");
    size_t max_wg = 0;
    if (k)
        CT_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_WORK_GROUP_SIZE,
                                                    sizeof(max_wg), &max_wg, NULL));
    cl_bool non_uniform = CL_FALSE;
    clGetDeviceInfo(e->device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(non_uniform),
                    &non_uniform, NULL);
    static const size_t sizes[][2] = {{64, 1}, {96, 32}, {300, 100}, {512, 256}, {120, 48}};
    for (size_t s = 0; k && s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        bool uniform = sizes[s][0] % sizes[s][1] == 0;
        if (sizes[s][1] <= max_wg && (uniform || non_uniform))
            run_and_check(e, k, sizes[s][0], sizes[s][1]);
    }
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

static const ct_case cases[] = {
    {"device_query", query},
    {"feature_macro", feature_macro},
    {"functions", functions},
};
CT_SECTION(ct_work_group_section, "work_group_collectives", cases);
