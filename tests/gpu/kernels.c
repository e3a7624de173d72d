/* Programs and kernels from nvcc's PTX (tests/kernels/basic.cu): binaries, builds, every info
 * query, argument errors, 1D/2D/3D launches with checked results, NULL local sizes, values by
 * struct, clEnqueueTask, clones, release while in flight, extra dynamic shared memory. */
#include "kernels_common.h"

static void test_binaries(void) {
    cl_int err, status;
    /* garbage */
    static const unsigned char junk[] = "this is not a program";
    const unsigned char *bins[1] = {junk};
    size_t len = sizeof junk;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
    CHECK(p == NULL);
    CHECK_ERR(CL_INVALID_BINARY, err);
    CHECK_ERR(CL_INVALID_BINARY, status);
    /* zero length */
    len = 0;
    p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
    CHECK(p == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK_ERR(CL_INVALID_VALUE, status);
    /* PTX that does not assemble: the build fails with the JIT's log */
    static const char bad[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry broken()\n{\n\tnot_an_instruction %r1;\n\tret;\n}\n";
    bins[0] = (const unsigned char *)bad;
    len = sizeof bad;
    p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p != NULL);
    CHECK_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    cl_build_status bs = CL_BUILD_NONE;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    CHECK(bs == CL_BUILD_ERROR);
    char log[8192] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strlen(log) > 0);
    printf("JIT error log of a broken module: %s\n", log);
    size_t n = 0;
    CHECK_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
              clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
    CHECK(clCreateKernel(p, "broken", &err) == NULL);
    CHECK_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
    clReleaseProgram(p);
}

static void test_program_info(cl_program p) {
    size_t len;
    unsigned char *ptx = read_ptx("basic.ptx", &len);
    size_t n = 0, size = 0;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
    CHECK(n == 12);
    char names[1024] = "";
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    CHECK(strstr(names, "add_one") && strstr(names, "fill_ids") && strstr(names, "coop_sum"));
    CHECK(strchr(names, ';') != NULL);
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    CHECK(size == len + 1);
    unsigned char *bin = malloc(size);
    unsigned char *bins[1] = {bin};
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    CHECK(memcmp(bin, ptx, len) == 0 && bin[len] == '\0');
    /* the returned binary builds again (what applications cache) */
    cl_int err, status;
    const unsigned char *cbins[1] = {bin};
    cl_program p2 = clCreateProgramWithBinary(ctx, 1, &dev, &size, cbins, &status, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p2, 1, &dev, "", NULL, NULL));
    clReleaseProgram(p2);
    free(bin);
    free(ptx);

    cl_uint refs = 0, ndev = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 1);
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL));
    CHECK(ndev == 1);
    cl_device_id d = NULL;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof d, &d, NULL));
    CHECK(d == dev);
    cl_context c = NULL;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof c, &c, NULL));
    CHECK(c == ctx);
    char src[8] = "x";
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, &size));
    CHECK(size == 1 && src[0] == '\0');
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size));
    CHECK(size == 0);
    cl_bool ctors = CL_TRUE;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof ctors,
                                           &ctors, NULL));
    CHECK(ctors == CL_FALSE);
    CHECK_ERR(CL_INVALID_VALUE, clGetProgramInfo(p, 0x7777, sizeof n, &n, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, 1, &n, NULL));

    cl_build_status bs = CL_BUILD_NONE;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    CHECK(bs == CL_BUILD_SUCCESS);
    cl_program_binary_type bt = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
    CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    char opts[256] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL));
    CHECK(strstr(opts, "-cl-nv-verbose") != NULL);
    char log[16384] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    printf("verbose JIT log (first 300 chars): %.300s\n", log);
    CHECK(strlen(log) > 0); /* -cl-nv-verbose: the JIT's info log */
    /* Each kernel's resources are in it even when the driver's compute cache skipped the JIT
     * (then its own info log is empty). */
    CHECK(strstr(log, "registers") != NULL);
    size_t gsize = 1;
    CHECK_ERR(CL_SUCCESS, clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                                sizeof gsize, &gsize, NULL));
    CHECK(gsize == 0);
    CHECK_ERR(CL_INVALID_DEVICE,
              clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    /* options culvert does not know */
    CHECK_ERR(CL_INVALID_BUILD_OPTIONS, clBuildProgram(p, 0, NULL, "-no-such-option", NULL, NULL));
}

static void test_kernel_info(cl_program p) {
    cl_int err;
    CHECK(clCreateKernel(p, "no_such_kernel", &err) == NULL);
    CHECK_ERR(CL_INVALID_KERNEL_NAME, err);
    CHECK(clCreateKernel(p, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_kernel k = kernel(p, "add_one");
    /* "CL_INVALID_OPERATION if there are kernel objects attached to program." */
    CHECK_ERR(CL_INVALID_OPERATION, clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    char name[64] = "";
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    CHECK(strcmp(name, "add_one") == 0);
    cl_uint nargs = 0, refs = 0;
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    CHECK(nargs == 2);
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 1);
    cl_program kp = NULL;
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL));
    CHECK(kp == p);
    cl_context kc = NULL;
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof kc, &kc, NULL));
    CHECK(kc == ctx);
    char attrs[64] = "x";
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
    CHECK(attrs[0] == '\0');
    CHECK_ERR(CL_INVALID_VALUE, clGetKernelInfo(k, 0x7777, sizeof attrs, attrs, NULL));
    /* nvcc's PTX carries no argument information */
    cl_uint q = 0;
    CHECK_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
              clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, NULL));
    CHECK_ERR(CL_INVALID_ARG_INDEX,
              clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, NULL));

    size_t wg = 0, mult = 0, cwg[3] = {9, 9, 9};
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    CHECK(wg == 1024);
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                       sizeof mult, &mult, NULL));
    CHECK(mult == 32);
    CHECK_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                                   sizeof cwg, cwg, NULL));
    CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
    cl_ulong lmem = 1, pmem = 1;
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CHECK(lmem == 0);
    CHECK_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem,
                                                   &pmem, NULL));
    CHECK(pmem == 0);
    CHECK_ERR(CL_INVALID_VALUE,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof cwg, cwg, NULL));
    CHECK_ERR(CL_INVALID_DEVICE,
              clGetKernelWorkGroupInfo(k, (cl_device_id)ctx, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg,
                                       &wg, NULL));
    cl_kernel b = kernel(p, "bounded");
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(b, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    CHECK(wg == 64); /* __launch_bounds__(64) */
    clReleaseKernel(b);

    /* sub-groups are warps, answered only where the device claims sub-groups */
    cl_uint max_sg = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max_sg, &max_sg, NULL));
    size_t lsz[1] = {100}, sg = 0;
    cl_int e = clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof lsz,
                                       lsz, sizeof sg, &sg, NULL);
    if (max_sg == 0) {
        CHECK_ERR(CL_INVALID_OPERATION, e);
    } else {
        CHECK_ERR(CL_SUCCESS, e);
        CHECK(sg == 4);
        CHECK_ERR(CL_SUCCESS,
                  clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                          sizeof lsz, lsz, sizeof sg, &sg, NULL));
        CHECK(sg == 32);
        CHECK_ERR(CL_INVALID_VALUE,
                  clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, NULL,
                                          sizeof sg, &sg, NULL));
    }
    /* SVM pointer lists where the device has SVM (tests/gpu/svm.c), "CL_INVALID_OPERATION if no
     * devices in the context associated with kernel support SVM" elsewhere. */
    void *ptrs[1] = {NULL};
    cl_device_svm_capabilities svm = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    CHECK_ERR(svm ? CL_SUCCESS : CL_INVALID_OPERATION,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs));
    CHECK_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(k, 0x7777, sizeof ptrs, ptrs));
    clReleaseKernel(k);
}

static void test_args_and_1d(cl_program p) {
    enum { N = 1 << 20 };
    cl_kernel k = kernel(p, "add_one");
    cl_mem m = buffer(N * sizeof(float));
    float *h = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    fill(m, h, N * sizeof(float));
    size_t global = N, local = 256;
    cl_uint n = N;
    /* unset arguments */
    CHECK_ERR(CL_INVALID_KERNEL_ARGS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_ARG_INDEX, clSetKernelArg(k, 2, sizeof n, &n));
    CHECK_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 1, 8, &global));
    CHECK_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 1, sizeof n, NULL));
    CHECK_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &n));
    arg_mem(k, 0, m);
    CHECK_ERR(CL_INVALID_KERNEL_ARGS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    ARG(k, 1, n);
    /* range errors */
    CHECK_ERR(CL_INVALID_WORK_DIMENSION,
              clEnqueueNDRangeKernel(queue, k, 0, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_WORK_DIMENSION,
              clEnqueueNDRangeKernel(queue, k, 4, NULL, &global, &local, 0, NULL, NULL));
    /* OpenCL 2.1 and later: a NULL global size is an empty launch that succeeds. */
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL));
    size_t odd = N - 1, off = 16, big = 2048, l2[2] = {64, 32};
    CHECK_ERR(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &odd, &local, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_GLOBAL_OFFSET,
              clEnqueueNDRangeKernel(queue, k, 1, &off, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_WORK_ITEM_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &big, 0, NULL, NULL));
    size_t g2[2] = {N / 32, 32};
    CHECK_ERR(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(queue, k, 2, NULL, g2, l2, 0, NULL, NULL));
    cl_event bad_list[1] = {NULL};
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 1, bad_list, NULL));
    /* a launch, then one with a NULL local size, then an empty range (no work) */
    cl_event ev = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    size_t none = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &none, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_NDRANGE_KERNEL);
    clReleaseEvent(ev);
    float *r = malloc(N * sizeof(float));
    read_back(m, r, N * sizeof(float));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += r[i] != (float)i + 2.0f;
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "add_one: %d wrong values (r[0]=%g r[N-1]=%g)\n", bad, r[0], r[N - 1]);
    /* a NULL global size that does not divide into warps: NULL local finds a divisor */
    size_t g3 = 3 * 7 * 11 * 13;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &g3, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    read_back(m, r, 8 * sizeof(float));
    CHECK(r[0] == 3.0f && r[7] == 10.0f);

    /* a NULL buffer is allowed; the kernel is not run with it */
    cl_mem null_mem = NULL;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof null_mem, &null_mem));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof null_mem, NULL));
    /* clone: the arguments come along, and later changes stay apart */
    arg_mem(k, 0, m);
    cl_int err;
    cl_kernel c = clCloneKernel(k, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof null_mem, &null_mem));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, c, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    read_back(m, r, N * sizeof(float));
    CHECK(r[0] == 4.0f && r[N - 1] == (float)(N - 1) + 3.0f);
    clReleaseKernel(c);
    clReleaseKernel(k);
    clReleaseMemObject(m);
    free(h);
    free(r);
}

static void test_2d_3d(cl_program p) {
    cl_kernel k = kernel(p, "fill_ids");
    enum { TOTAL = 64 * 32 * 8 };
    cl_mem m = buffer(TOTAL * sizeof(cl_uint));
    arg_mem(k, 0, m);
    cl_uint *r = malloc(TOTAL * sizeof(cl_uint));
    const struct {
        cl_uint dim;
        size_t global[3], local[3];
        bool null_local;
    } cases[] = {
        {2, {64, 32, 1}, {16, 8, 1}, false},
        {3, {64, 32, 8}, {8, 4, 2}, false},
        {3, {64, 32, 8}, {0, 0, 0}, true},
        {2, {64, 128, 1}, {0, 0, 0}, true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t total = 1;
        for (cl_uint d = 0; d < cases[c].dim; d++)
            total *= cases[c].global[d];
        zero(m, TOTAL * sizeof(cl_uint));
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, cases[c].dim, NULL, cases[c].global,
                                                     cases[c].null_local ? NULL : cases[c].local, 0,
                                                     NULL, NULL));
        read_back(m, r, total * sizeof(cl_uint));
        size_t bad = 0;
        for (size_t i = 0; i < total; i++)
            bad += r[i] != i;
        CHECK(bad == 0);
        if (bad)
            fprintf(stderr, "fill_ids case %zu: %zu wrong\n", c, bad);
    }
    clReleaseKernel(k);
    clReleaseMemObject(m);
    free(r);
}

static void test_values(cl_program p) {
    struct pair_arg {
        int a;
        double b;
        char c;
    } pa = {7, 2.5, 9};
    cl_kernel k = kernel(p, "by_value");
    cl_mem m = buffer(8 * sizeof(double));
    cl_char c = -3;
    cl_short s = 1234;
    cl_long l = -123456789012LL;
    cl_float f = 0.25f;
    CHECK_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 16, &pa));
    ARG(k, 0, pa);
    ARG(k, 1, c);
    ARG(k, 2, s);
    ARG(k, 3, l);
    ARG(k, 4, f);
    arg_mem(k, 5, m);
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(queue, k, 0, NULL, NULL));
    double r[7] = {0};
    read_back(m, r, sizeof r);
    CHECK(r[0] == 7 && r[1] == 2.5 && r[2] == 9 && r[3] == -3 && r[4] == 1234 &&
          r[5] == -123456789012.0 && r[6] == 0.25);
    clReleaseKernel(k);

    k = kernel(p, "args8");
    arg_mem(k, 0, m);
    for (cl_uint i = 1; i < 8; i++) {
        cl_int v = (cl_int)(i * 10);
        ARG(k, i, v);
    }
    cl_event ev;
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(queue, k, 0, NULL, &ev));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_TASK);
    clReleaseEvent(ev);
    cl_int sum = 0;
    read_back(m, &sum, sizeof sum);
    CHECK(sum == 280);
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

static void test_kernels_in_program(cl_program p) {
    cl_uint n = 0;
    CHECK_ERR(CL_SUCCESS, clCreateKernelsInProgram(p, 0, NULL, &n));
    CHECK(n == 12);
    cl_kernel ks[12];
    CHECK_ERR(CL_INVALID_VALUE, clCreateKernelsInProgram(p, 3, ks, NULL));
    CHECK_ERR(CL_SUCCESS, clCreateKernelsInProgram(p, 12, ks, &n));
    for (cl_uint i = 0; i < 12; i++) {
        char name[64] = "";
        CHECK_ERR(CL_SUCCESS,
                  clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
        CHECK(name[0] != '\0');
        CHECK_ERR(CL_SUCCESS, clReleaseKernel(ks[i]));
    }
}

/* The application releases everything while the kernel still runs: culvert keeps it alive. */
static void test_release_in_flight(void) {
    cl_program p = build_ptx("basic.ptx", NULL);
    cl_kernel k = kernel(p, "spin");
    cl_mem out = buffer(sizeof(cl_uint));
    cl_mem dropped = buffer(sizeof(cl_uint));
    zero(out, sizeof(cl_uint));
    cl_ulong ns = 50 * 1000 * 1000;
    ARG(k, 0, ns);
    arg_mem(k, 1, out);
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(queue, k, 0, NULL, NULL));
    arg_mem(k, 1, dropped);
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(queue, k, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(dropped));
    CHECK_ERR(CL_SUCCESS, clReleaseKernel(k));
    CHECK_ERR(CL_SUCCESS, clReleaseProgram(p));
    CHECK_ERR(CL_INVALID_KERNEL, clReleaseKernel(k));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    cl_uint v = 0;
    read_back(out, &v, sizeof v);
    CHECK(v == 1234);
    clReleaseMemObject(out);
}

/* `extern __shared__` arrays get the extra dynamic shared memory attribute; past 48 KiB the
 * opt-in happens on the way. */
static void test_extra_shared_memory(cl_program p) {
    cl_kernel k = kernel(p, "extern_smem");
    cl_mem out = buffer(4 * sizeof(cl_uint));
    cl_uint words = 24 * 1024; /* 96 KiB */
    arg_mem(k, 0, out);
    ARG(k, 1, words);
    size_t extra = words * sizeof(cl_uint);
    CHECK_ERR(CL_INVALID_VALUE,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT, 4, &extra));
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT,
                                              sizeof extra, &extra));
    cl_ulong lmem = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CHECK(lmem >= extra);
    size_t global = 4 * 256, local = 256;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_uint r[4] = {0};
    read_back(out, r, sizeof r);
    cl_uint expect = 0;
    for (cl_uint i = 0; i < words; i++)
        expect += i * 3u;
    CHECK(r[0] == expect && r[3] == expect);
    /* more than the GPU has */
    extra = 512 * 1024;
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT,
                                              sizeof extra, &extra));
    CHECK_ERR(CL_OUT_OF_RESOURCES,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

/* CUDA images (cubin, fatbin): the kernels come from the driver's function list. */
static void test_cuda_images(void) {
    static const char *const files[] = {"basic.cubin", "basic.fatbin"};
    for (int i = 0; i < 2; i++) {
        cl_program p = build_ptx(files[i], NULL);
        cl_program_binary_type bt = 0;
        CHECK_ERR(CL_SUCCESS,
                  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
        CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        size_t n = 0;
        CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
        CHECK(n == 12);
        cl_kernel k = kernel(p, "add_one");
        cl_uint nargs = 0;
        CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
        CHECK(nargs == 2);
        enum { N = 1024 };
        float h[N];
        for (int j = 0; j < N; j++)
            h[j] = (float)j;
        cl_mem m = buffer(sizeof h);
        fill(m, h, sizeof h);
        cl_uint count = N;
        arg_mem(k, 0, m);
        ARG(k, 1, count);
        CHECK_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 1, 8, &m));
        size_t global = N;
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        read_back(m, h, sizeof h);
        CHECK(h[0] == 1.0f && h[N - 1] == (float)N);
        clReleaseKernel(k);
        clReleaseMemObject(m);
        clReleaseProgram(p);
    }
}

int main(void) {
    setup();
    test_binaries();
    cl_program p =
        build_ptx("basic.ptx", "-cl-nv-verbose -cl-nv-maxrregcount=64 -cl-nv-opt-level 3");
    test_program_info(p);
    test_kernel_info(p);
    test_args_and_1d(p);
    test_2d_3d(p);
    test_values(p);
    test_kernels_in_program(p);
    test_extra_shared_memory(p);
    CHECK_ERR(CL_SUCCESS, clReleaseProgram(p));
    test_release_in_flight();
    test_cuda_images();
    teardown();
    return cv_test_report("kernels");
}
