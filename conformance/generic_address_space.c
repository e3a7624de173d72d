/* The generic address space (OpenCL C 3.0 optional feature __opencl_c_generic_address_space):
 * CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT agrees with CL_DEVICE_OPENCL_C_FEATURES and with the
 * macro an OpenCL C 3.0 program sees; where the device claims it, a function taking a generic
 * pointer works on global, local and private memory, to_global/to_local/to_private and get_fence
 * answer for each space, and atomics work through generic pointers to global and local memory.
 * A device that does not claim the feature skips those cases. */
#include "ct.h"

static const char feature[] = "__opencl_c_generic_address_space";

static bool claims(ct_env *e) {
    return ct_dev_bool(e->device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT);
}

/* "CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: Is CL_TRUE if the device supports the generic
 * address space and its associated built-in functions", the OpenCL C feature
 * __opencl_c_generic_address_space: the query and the feature list say the same. */
static void query(ct_env *e) {
    ct_check_feature_query(e, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, feature);
}

/* Runs kernel `name` of src (OpenCL C 3.0) over global/local with the buffers as arguments. */
static bool run(ct_env *e, const char *src, const char *name, size_t global, size_t local,
                cl_mem *args, int nargs) {
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    cl_kernel k = p ? ct_kernel(p, name) : NULL;
    bool ok = k != NULL;
    for (int i = 0; ok && i < nargs; i++)
        ok = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]) == CL_SUCCESS;
    if (ok)
        ok = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL) ==
                 CL_SUCCESS &&
             clFinish(e->q) == CL_SUCCESS;
    CT_CHECK(ok);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return ok;
}

/* An OpenCL C 3.0 program sees the feature macro exactly when the device claims the feature. */
static void feature_macro(ct_env *e) {
    if (!ct_compiler(e) || !ct_dev_has_c30(e->device))
        CT_SKIP("no OpenCL C 3.0 compiler");
    const char *src = "kernel void k(global int *a) {\n"
                      "#ifdef __opencl_c_generic_address_space\n"
                      "  a[0] = 1;\n"
                      "#else\n"
                      "  a[0] = 2;\n"
                      "#endif\n"
                      "}\n";
    cl_int v = 0;
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), &v);
    CT_REQUIRE(b != NULL);
    if (run(e, src, "k", 1, 1, &b, 1)) {
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, sizeof(v), &v, 0, NULL, NULL));
        CT_CHECK(v == (claims(e) ? 1 : 2));
    }
    clReleaseMemObject(b);
}

enum { ITEMS = 64 };

/* One function with a generic pointer parameter, called with a global, a local and a private
 * pointer (out[3i..3i+2]); the address-space qualifier functions and get_fence on each (bits in
 * out[3 * ITEMS + i]). */
static void pointers(ct_env *e) {
    if (!claims(e))
        CT_SKIP("generic address space not claimed");
    const char *src = "int twice(int *p) { *p *= 2; return *p + 1; }\n"
                      "int spaces(int *p) {\n"
                      "    return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 |\n"
                      "           (to_private(p) != NULL) << 2;\n"
                      "}\n"
                      "kernel void k(global int *g, global int *out) {\n"
                      "    local int l[64];\n"
                      "    int pr = 5;\n"
                      "    int i = (int)get_local_id(0);\n"
                      "    l[i] = i + 100;\n"
                      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    out[3 * i] = twice(&g[i]);\n"
                      "    out[3 * i + 1] = twice(&l[i]);\n"
                      "    int t = twice(&pr);\n"
                      "    out[3 * i + 2] = t + pr;\n"
                      "    out[192 + i] = spaces(&g[i]) | spaces(&l[i]) << 3 | spaces(&pr) << 6 |\n"
                      "                   (get_fence(&g[i]) == CLK_GLOBAL_MEM_FENCE) << 9 |\n"
                      "                   (get_fence(&l[i]) == CLK_LOCAL_MEM_FENCE) << 10;\n"
                      "}\n";
    cl_int g[ITEMS], out[4 * ITEMS];
    for (int i = 0; i < ITEMS; i++)
        g[i] = i * 7;
    cl_mem b[2] = {ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(g), g),
                   ct_buffer(e, CL_MEM_READ_WRITE, sizeof(out), NULL)};
    if (b[0] && b[1] && run(e, src, "k", ITEMS, ITEMS, b, 2)) {
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < ITEMS; i++) {
            /* global: to_global only; local: to_local only; private: to_private only. */
            const cl_int want[4] = {i * 14 + 1, (i + 100) * 2 + 1, 11 + 10,
                                    1 | 2 << 3 | 4 << 6 | 1 << 9 | 1 << 10};
            for (int f = 0; f < 4; f++) {
                cl_int got = f < 3 ? out[3 * i + f] : out[3 * ITEMS + i];
                if (got != want[f] && bad++ < 4)
                    ct_fail(__FILE__, __LINE__, "work-item %d value %d: 0x%x, want 0x%x", i, f,
                            (unsigned)got, (unsigned)want[f]);
            }
        }
        CT_CHECK(bad == 0);
    }
    for (int i = 0; i < 2; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
}

/* atomic_fetch_add and compare_exchange through generic pointers to global and local memory. */
static void atomics(ct_env *e) {
    if (!claims(e))
        CT_SKIP("generic address space not claimed");
    const char *src =
        "int add(atomic_int *p, int v) {\n"
        "    return atomic_fetch_add_explicit(p, v, memory_order_relaxed,\n"
        "                                     memory_scope_work_group);\n"
        "}\n"
        "void cas_add(atomic_int *p, int v) {\n"
        "    int seen = atomic_load_explicit(p, memory_order_relaxed, memory_scope_work_group);\n"
        "    while (!atomic_compare_exchange_weak_explicit(p, &seen, seen + v,\n"
        "               memory_order_relaxed, memory_order_relaxed, memory_scope_work_group))\n"
        "        ;\n"
        "}\n"
        "kernel void k(global atomic_int *g, global int *out) {\n"
        "    local atomic_int l;\n"
        "    int i = (int)get_local_id(0);\n"
        "    if (i == 0) atomic_init(&l, 0);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    add((atomic_int *)g, 1);\n"
        "    cas_add((atomic_int *)(g + 1), i);\n"
        "    add((atomic_int *)&l, 2);\n"
        "    cas_add((atomic_int *)&l, i);\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (i == 0) out[0] = atomic_load_explicit((atomic_int *)&l, memory_order_relaxed,\n"
        "                                              memory_scope_work_group);\n"
        "}\n";
    cl_int g[2] = {0, 0}, out = -1;
    cl_mem b[2] = {ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(g), g),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(out), &out)};
    if (b[0] && b[1] && run(e, src, "k", ITEMS, ITEMS, b, 2)) {
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[0], CL_TRUE, 0, sizeof(g), g, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof(out), &out, 0, NULL, NULL));
        CT_CHECK(g[0] == ITEMS);
        CT_CHECK(g[1] == ITEMS * (ITEMS - 1) / 2);
        CT_CHECK(out == 2 * ITEMS + ITEMS * (ITEMS - 1) / 2);
    }
    for (int i = 0; i < 2; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
}

static const ct_case cases[] = {
    {"device_query", query},
    {"feature_macro", feature_macro},
    {"pointers", pointers},
    {"atomics", atomics},
};
CT_SECTION(ct_generic_address_space_section, "generic_address_space", cases);
