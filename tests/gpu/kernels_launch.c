/* Launches beyond plain CUDA: PTX with launch information (global offsets, non-uniform
 * work-groups, 64-bit offsets, grids split past CUDA's limits), __local pointer arguments in
 * dynamic shared memory (100 KiB), argument information from //cv: lines, thread-block clusters
 * and cooperative launches. */
#include "kernels_common.h"

static cl_uint expect_id(size_t x, size_t y, size_t z) {
    return (cl_uint)(x + 1000 * y + 1000000 * z);
}

/* li_ids over a range: every work-item writes its global ids; all must be there, once. */
static void check_ids(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global,
                      const size_t *local, const char *what) {
    size_t g[3] = {1, 1, 1}, o[3] = {0, 0, 0}, total = 1;
    for (cl_uint d = 0; d < dim; d++) {
        g[d] = global[d];
        o[d] = offset ? offset[d] : 0;
        total *= g[d];
    }
    cl_mem m = buffer(total * sizeof(cl_uint));
    zero(m, total * sizeof(cl_uint));
    arg_mem(k, 0, m);
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, dim, offset, global, local, 0, NULL, NULL));
    cl_uint *r = malloc(total * sizeof(cl_uint));
    read_back(m, r, total * sizeof(cl_uint));
    size_t bad = 0, i = 0;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++, i++)
                if (r[i] != expect_id(x + o[0], y + o[1], z + o[2])) {
                    if (!bad)
                        fprintf(stderr, "%s: first wrong id at (%zu,%zu,%zu): %u\n", what, x, y, z,
                                r[i]);
                    bad++;
                }
    CHECK(bad == 0);
    free(r);
    clReleaseMemObject(m);
}

static void test_launch_info(cl_program p) {
    cl_kernel k = kernel(p, "li_ids");
    size_t g1 = 1000, l1 = 128, o1 = 5;
    check_ids(k, 1, &o1, &g1, &l1, "1D offset, non-uniform");
    check_ids(k, 1, NULL, &g1, NULL, "1D NULL local");
    size_t g2[2] = {100, 37}, l2[2] = {16, 8}, o2[2] = {3, 4};
    check_ids(k, 2, o2, g2, l2, "2D offset, non-uniform");
    size_t g3[3] = {10, 9, 7}, l3[3] = {4, 4, 2}, o3[3] = {1, 2, 3};
    check_ids(k, 3, o3, g3, l3, "3D offset, non-uniform");
    check_ids(k, 3, NULL, g3, NULL, "3D NULL local");
    /* more than 65535 work-groups in y: split launches with group offsets */
    size_t gh[2] = {8, 140000}, lh[2] = {8, 1};
    check_ids(k, 2, NULL, gh, lh, "2D past CUDA's y grid limit");
    size_t gz[3] = {2, 3, 70000}, lz[3] = {2, 1, 1};
    check_ids(k, 3, NULL, gz, lz, "3D past CUDA's z grid limit");
    /* a wrong buffer handle is refused for a .ptr .global parameter */
    cl_mem not_mem = (cl_mem)queue;
    CHECK_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof not_mem, &not_mem));
    clReleaseKernel(k);

    /* the launch information itself: 64-bit offsets, work_dim, sizes */
    k = kernel(p, "li_info");
    cl_mem m = buffer(64);
    arg_mem(k, 0, m);
    size_t off[2] = {(size_t)1 << 33, 7}, g[2] = {300, 5}, l[2] = {64, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 2, off, g, l, 0, NULL, NULL));
    cl_ulong info[8] = {0};
    read_back(m, info, sizeof info);
    CHECK(info[0] == (cl_ulong)1 << 33 && info[1] == 7 && info[2] == 0);
    CHECK(info[3] == 300 && info[4] == 5 && info[5] == 1);
    CHECK(info[6] == 0 && (info[7] & 0xffffffffu) == 0 && (info[7] >> 32) == 2);
    size_t huge_off = SIZE_MAX - 10;
    CHECK_ERR(CL_INVALID_GLOBAL_OFFSET,
              clEnqueueNDRangeKernel(queue, k, 1, &huge_off, g, l, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

static void test_arg_info(cl_program p) {
    cl_kernel k = kernel(p, "local_sum");
    cl_uint addr = 0, access = 0;
    cl_kernel_arg_type_qualifier tq = 7;
    char type[64] = "", name[64] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof addr, &addr, NULL));
    CHECK(addr == CL_KERNEL_ARG_ADDRESS_LOCAL);
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof addr, &addr, NULL));
    CHECK(addr == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CHECK_ERR(CL_SUCCESS, clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access,
                                             &access, NULL));
    CHECK(access == CL_KERNEL_ARG_ACCESS_NONE);
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    CHECK(strcmp(type, "unsigned int") == 0);
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    CHECK(tq == CL_KERNEL_ARG_TYPE_CONST);
    CHECK_ERR(CL_SUCCESS, clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    CHECK(strcmp(name, "b") == 0);
    CHECK_ERR(CL_INVALID_ARG_INDEX,
              clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clGetKernelArgInfo(k, 0, 0x7777, sizeof name, name, NULL));
    char attrs[128] = "";
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
    CHECK(strcmp(attrs, "__attribute__((work_group_size_hint(64,1,1)))") == 0);
    cl_uint nargs = 0; /* the launch parameter is culvert's, not an argument */
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    CHECK(nargs == 4);
    clReleaseKernel(k);
}

/* Two __local arrays of n words each; out[g] = 3 n (n - 1) / 2 for every group. */
static void run_local_sum(cl_kernel k, cl_uint n, size_t a_extra, size_t groups, size_t local,
                          const char *what) {
    cl_mem out = buffer(groups * sizeof(cl_uint));
    zero(out, groups * sizeof(cl_uint));
    arg_mem(k, 0, out);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, n * sizeof(cl_uint) + a_extra, NULL));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, n * sizeof(cl_uint), NULL));
    ARG(k, 3, n);
    cl_ulong lmem = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CHECK(lmem >= 2 * n * sizeof(cl_uint) + a_extra);
    size_t global = groups * local;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_uint *r = malloc(groups * sizeof(cl_uint));
    read_back(out, r, groups * sizeof(cl_uint));
    cl_uint expect = 0;
    for (cl_uint i = 0; i < n; i++)
        expect += 3 * i;
    size_t bad = 0;
    for (size_t g = 0; g < groups; g++)
        bad += r[g] != expect;
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "%s: %zu groups wrong (r[0]=%u, expected %u)\n", what, bad, r[0], expect);
    free(r);
    clReleaseMemObject(out);
}

static void test_local_args(cl_program p) {
    cl_kernel k = kernel(p, "local_sum");
    cl_uint n = 100;
    /* __local arguments take a size and no value */
    CHECK_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 1, sizeof n, &n));
    CHECK_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 1, 0, NULL));
    run_local_sum(k, 100, 0, 4, 64, "small __local arrays");
    run_local_sum(k, 1000, 5, 3, 128, "unaligned first slice");
    /* 100 KiB of __local memory: past the 48 KiB default, opted in per function */
    run_local_sum(k, 12800, 0, 8, 256, "100 KiB of __local arrays");
    /* more than a work-group can have */
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, 300 * 1024, NULL));
    size_t global = 256, local = 256;
    CHECK_ERR(CL_OUT_OF_RESOURCES,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    clReleaseKernel(k);

    /* The same without launch information (PTX as NVIDIA's OpenCL writes it). */
    cl_program plain = build_ptx("local_plain.ptx", NULL);
    k = kernel(plain, "local_plain");
    cl_mem out = buffer(3 * sizeof(cl_uint));
    n = 5000;
    arg_mem(k, 0, out);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, n * sizeof(cl_uint), NULL));
    ARG(k, 2, n);
    global = 3 * 128;
    local = 128;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_uint r[3] = {0};
    read_back(out, r, sizeof r);
    cl_uint expect = 0;
    for (cl_uint i = 0; i < n; i++)
        expect += 7 * i;
    CHECK(r[0] == expect && r[1] == expect && r[2] == expect);
    /* non-uniform sizes and offsets are refused without launch information */
    size_t odd = 300, off = 1;
    CHECK_ERR(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &odd, &local, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_GLOBAL_OFFSET,
              clEnqueueNDRangeKernel(queue, k, 1, &off, &global, &local, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseProgram(plain);
}

/* PTX in the form NVIDIA's OpenCL saves: 32-bit __local pointers, texmode_independent. */
static void test_nv_opencl(void) {
    enum { N = 4096 };
    cl_program p = build_ptx("nv_opencl.ptx", "-cl-mad-enable -cl-std=CL1.2");
    cl_kernel k = kernel(p, "scale");
    cl_mem in = buffer(N * sizeof(float)), out = buffer(N * sizeof(float));
    float h[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    fill(in, h, sizeof h);
    cl_float factor = 2.5f;
    arg_mem(k, 0, out);
    arg_mem(k, 1, in);
    ARG(k, 2, factor);
    size_t local = 128, global = N;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 3, local * sizeof(float), NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    float r[N];
    read_back(out, r, sizeof r);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += r[i] != (float)i * 2.5f;
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseProgram(p);
}

static void check_ranks(cl_kernel k, size_t groups, size_t local, cl_uint cluster,
                        const char *what) {
    cl_mem out = buffer(groups * sizeof(cl_uint));
    zero(out, groups * sizeof(cl_uint));
    arg_mem(k, 0, out);
    size_t global = groups * local;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_uint *r = malloc(groups * sizeof(cl_uint));
    read_back(out, r, groups * sizeof(cl_uint));
    size_t bad = 0;
    for (size_t g = 0; g < groups; g++)
        bad += r[g] != (cl_uint)(g % cluster) + 100u * cluster;
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "%s: %zu wrong (r[0]=%u r[1]=%u)\n", what, bad, r[0], r[1]);
    free(r);
    clReleaseMemObject(out);
}

static void test_clusters(void) {
    cl_program p = build_ptx("basic.ptx", NULL);
    cl_kernel k = kernel(p, "cluster_rank"); /* __cluster_dims__(2, 1, 1) */
    check_ranks(k, 8, 64, 2, "compiled cluster dimensions");
    cl_mem out = buffer(16);
    arg_mem(k, 0, out);
    size_t global = 3 * 64, local = 64;
    CHECK_ERR(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    size_t other[3] = {4, 1, 1};
    CHECK_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT,
                                                    sizeof other, other));
    clReleaseKernel(k);
    clReleaseMemObject(out);

    k = kernel(p, "cluster_any");
    check_ranks(k, 8, 32, 1, "no cluster");
    size_t dims[3] = {4, 1, 1};
    CHECK_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT,
                                                    2 * sizeof(size_t), dims));
    size_t too_big[3] = {32, 1, 1};
    CHECK_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT,
                                                    sizeof too_big, too_big));
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT, sizeof dims, dims));
    check_ranks(k, 16, 32, 4, "cluster dimensions by launch attribute");
    size_t none[3] = {0, 0, 0};
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT, sizeof none, none));
    check_ranks(k, 8, 32, 1, "cluster attribute removed");
    clReleaseKernel(k);

    /* cooperative launch: grid-wide synchronisation */
    k = kernel(p, "coop_sum");
    cl_mem counter = buffer(sizeof(cl_uint)), res = buffer(8 * sizeof(cl_uint));
    zero(counter, sizeof(cl_uint));
    arg_mem(k, 0, counter);
    arg_mem(k, 1, res);
    cl_bool on = CL_TRUE;
    CHECK_ERR(CL_INVALID_VALUE,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_COOPERATIVE_CULVERT, 1, &on));
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_COOPERATIVE_CULVERT, sizeof on, &on));
    global = 8 * 128;
    local = 128;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_uint r[8] = {0};
    read_back(res, r, sizeof r);
    size_t bad = 0;
    for (int i = 0; i < 8; i++)
        bad += r[i] != 8;
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "cooperative: r[0]=%u r[7]=%u, expected 8\n", r[0], r[7]);
    clReleaseKernel(k);
    clReleaseMemObject(counter);
    clReleaseMemObject(res);
    clReleaseProgram(p);
}

int main(void) {
    setup();
    cl_program p = build_ptx("launch_info.ptx", NULL);
    /* CL_PROGRAM_NUM_KERNELS is a size_t: a cl_uint-sized buffer is CL_INVALID_VALUE. */
    size_t n = 0;
    cl_uint small = 0;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
    CHECK(n == 3);
    CHECK_ERR(CL_INVALID_VALUE,
              clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof small, &small, NULL));
    test_launch_info(p);
    test_arg_info(p);
    test_local_args(p);
    clReleaseProgram(p);
    test_nv_opencl();
    test_clusters();
    teardown();
    return cv_test_report("kernels_launch");
}
