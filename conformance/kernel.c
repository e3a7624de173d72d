/* Section 5.9 of the OpenCL 3.0 API: kernel objects, arguments, work-group info. */
#include "ct.h"

static const char *src =
    "kernel void k(global float *out, const global float *in, int n, local float *tmp)\n"
    "{ size_t i = get_global_id(0); tmp[get_local_id(0)] = in[i]; out[i] = tmp[get_local_id(0)] + "
    "n; }\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed(global int *a) { a[get_global_id(0)] = 1; }\n";

#define SETUP()                                                                                    \
    if (!ct_compiler(e))                                                                           \
        CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");                                          \
    cl_program p = ct_build(e, src, "-cl-kernel-arg-info");                                        \
    CT_REQUIRE(p != NULL)

static void create_and_info(ct_env *e) {
    SETUP();
    cl_int err = 1;
    cl_kernel k = clCreateKernel(p, "k", &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(k != NULL);
    char name[32] = "";
    cl_uint nargs = 0, refs = 0;
    cl_context c = NULL;
    cl_program kp = NULL;
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL));
    CT_CHECK(!strcmp(name, "k"));
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
    CT_CHECK(nargs == 4);
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(c), &c, NULL));
    CT_CHECK(c == e->ctx);
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(kp), &kp, NULL));
    CT_CHECK(kp == p);
    size_t n = 0;
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, NULL, &n));
    CT_CHECK(n >= 1);
    CT_ERR(CL_SUCCESS, clRetainKernel(k));
    CT_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 2);
    clReleaseKernel(k);
    /* "CL_INVALID_VALUE if param_name is not valid". */
    CT_ERR(CL_INVALID_VALUE, clGetKernelInfo(k, 0x7fff, sizeof(refs), &refs, NULL));
    /* "CL_INVALID_KERNEL_NAME if kernel_name is not found in program." */
    CT_CHECK(clCreateKernel(p, "no_such_kernel", &err) == NULL);
    CT_ERR(CL_INVALID_KERNEL_NAME, err);
    /* "CL_INVALID_VALUE if kernel_name is NULL." */
    CT_CHECK(clCreateKernel(p, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    CT_CHECK(clCreateKernel(NULL, "k", &err) == NULL);
    CT_ERR(CL_INVALID_PROGRAM, err);
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    CT_ERR(CL_INVALID_KERNEL, clRetainKernel(NULL));
    CT_ERR(CL_INVALID_KERNEL, clReleaseKernel(NULL));
    CT_ERR(CL_INVALID_KERNEL,
           clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL));
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void kernels_in_program(ct_env *e) {
    SETUP();
    cl_uint n = 0;
    CT_ERR(CL_SUCCESS, clCreateKernelsInProgram(p, 0, NULL, &n));
    CT_CHECK(n == 2);
    cl_kernel ks[2] = {NULL, NULL};
    /* "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of
     * kernels in program." */
    CT_ERR(CL_INVALID_VALUE, clCreateKernelsInProgram(p, 1, ks, NULL));
    CT_ERR(CL_SUCCESS, clCreateKernelsInProgram(p, 2, ks, &n));
    char a[32] = "", b[32] = "";
    if (ks[0] && ks[1]) {
        clGetKernelInfo(ks[0], CL_KERNEL_FUNCTION_NAME, sizeof(a), a, NULL);
        clGetKernelInfo(ks[1], CL_KERNEL_FUNCTION_NAME, sizeof(b), b, NULL);
        CT_CHECK((!strcmp(a, "k") && !strcmp(b, "fixed")) ||
                 (!strcmp(a, "fixed") && !strcmp(b, "k")));
        clReleaseKernel(ks[0]);
        clReleaseKernel(ks[1]);
    }
    clReleaseProgram(p);
}

static void set_arg(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL);
    CT_REQUIRE(k && m);
    cl_int n = 3;
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(m), &m));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof(n), &n));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 3, 64, NULL));
    /* "If the argument is a buffer object, the arg_value pointer can be NULL or point to a NULL
     * value". */
    cl_mem null_mem = NULL;
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof(cl_mem), &null_mem));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof(cl_mem), NULL));
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." */
    CT_ERR(CL_INVALID_ARG_INDEX, clSetKernelArg(k, 4, sizeof(n), &n));
    /* "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an argument
     * that is not a memory object or if the argument is a memory object and arg_size !=
     * sizeof(cl_mem) or if arg_size is zero and the argument is declared with the local
     * qualifier". */
    CT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, 2, &n));
    CT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &m));
    CT_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 3, 0, NULL));
    /* "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value" (NULL for a by-value
     * argument) "or if the argument is declared with the local qualifier and arg_value is not
     * NULL". */
    CT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 2, sizeof(n), NULL));
    CT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 3, 64, &n));
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    CT_ERR(CL_INVALID_KERNEL, clSetKernelArg(NULL, 0, sizeof(m), &m));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void set_arg_wrong_object(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k");
    CT_REQUIRE(k != NULL);
    /* "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the specified
     * arg_value is not a valid memory object." */
    cl_command_queue notmem = e->q;
    CT_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(notmem), &notmem));
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void arg_info(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k");
    CT_REQUIRE(k != NULL);
    cl_kernel_arg_address_qualifier aq = 0;
    CT_ERR(CL_SUCCESS,
           clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
    CT_CHECK(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CT_ERR(CL_SUCCESS,
           clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
    CT_CHECK(aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
    CT_ERR(CL_SUCCESS,
           clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, NULL));
    CT_CHECK(aq == CL_KERNEL_ARG_ADDRESS_PRIVATE);
    cl_kernel_arg_access_qualifier acc = 0;
    CT_ERR(CL_SUCCESS,
           clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(acc), &acc, NULL));
    CT_CHECK(acc == CL_KERNEL_ARG_ACCESS_NONE);
    char tn[64] = "", an[64] = "";
    CT_ERR(CL_SUCCESS, clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof(tn), tn, NULL));
    CT_CHECK(!strcmp(tn, "float*"));
    CT_ERR(CL_SUCCESS, clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof(an), an, NULL));
    CT_CHECK(!strcmp(an, "in"));
    cl_kernel_arg_type_qualifier tq = 0;
    CT_ERR(CL_SUCCESS,
           clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq), &tq, NULL));
    CT_CHECK(tq & CL_KERNEL_ARG_TYPE_CONST);
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." */
    CT_ERR(CL_INVALID_ARG_INDEX,
           clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_NAME, sizeof(an), an, NULL));
    /* "CL_INVALID_VALUE if param_name is not valid". */
    CT_ERR(CL_INVALID_VALUE, clGetKernelArgInfo(k, 0, 0x7fff, sizeof(an), an, NULL));
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void work_group_info(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k"), f = ct_kernel(p, "fixed");
    CT_REQUIRE(k && f);
    size_t wg = 0, mult = 0, cwg[3] = {9, 9, 9};
    cl_ulong lmem = 0, pmem = 0;
    CT_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg),
                                                &wg, NULL));
    CT_CHECK(wg >= 1 && wg <= ct_dev_size(e->device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    CT_ERR(CL_SUCCESS,
           clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                    sizeof(mult), &mult, NULL));
    CT_CHECK(mult >= 1);
    CT_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                                sizeof(cwg), cwg, NULL));
    CT_CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
    CT_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(f, e->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                                sizeof(cwg), cwg, NULL));
    CT_CHECK(cwg[0] == 4 && cwg[1] == 2 && cwg[2] == 1);
    CT_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                                sizeof(lmem), &lmem, NULL));
    CT_ERR(CL_SUCCESS, clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                                sizeof(pmem), &pmem, NULL));
    /* "device ... can be NULL if there is only one device associated with kernel." */
    CT_ERR(CL_SUCCESS,
           clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL));
    /* "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a custom
     * device and kernel is not a built-in kernel." */
    if (!(ct_dev_bits(e->device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CUSTOM)) {
        size_t gws[3];
        CT_ERR(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_GLOBAL_WORK_SIZE,
                                                          sizeof(gws), gws, NULL));
    }
    CT_ERR(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(k, e->device, 0x7fff, sizeof(wg), &wg, NULL));
    /* "CL_INVALID_KERNEL if kernel is a not a valid kernel object." */
    CT_ERR(CL_INVALID_KERNEL, clGetKernelWorkGroupInfo(NULL, e->device, CL_KERNEL_WORK_GROUP_SIZE,
                                                       sizeof(wg), &wg, NULL));
    clReleaseKernel(k);
    clReleaseKernel(f);
    clReleaseProgram(p);
}

static void sub_group_info(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k");
    CT_REQUIRE(k != NULL);
    size_t local[1] = {8}, out = 0;
    cl_int err = clGetKernelSubGroupInfo(k, e->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                         sizeof(local), local, sizeof(out), &out, NULL);
    if (ct_dev_uint(e->device, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0) {
        /* "CL_INVALID_OPERATION if device does not support subgroups." */
        CT_ERR(CL_INVALID_OPERATION, err);
    } else {
        CT_ERR(CL_SUCCESS, err);
        CT_CHECK(out >= 1);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void clone(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k");
    float in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
    cl_mem mi = ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mo = ct_buffer(e, CL_MEM_READ_WRITE, sizeof(out), NULL);
    CT_REQUIRE(k && mi && mo);
    cl_int n = 10;
    clSetKernelArg(k, 0, sizeof(mo), &mo);
    clSetKernelArg(k, 1, sizeof(mi), &mi);
    clSetKernelArg(k, 2, sizeof(n), &n);
    clSetKernelArg(k, 3, 8 * sizeof(float), NULL);
    cl_int err = 1;
    /* "clCloneKernel ... also makes a copy of the kernel arguments". */
    cl_kernel c = clCloneKernel(k, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(c != NULL);
    clReleaseKernel(k); /* the clone stands alone */
    size_t g = 8;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, c, 1, NULL, &g, &g, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    bool ok = true;
    for (int i = 0; i < 8; i++)
        ok &= out[i] == in[i] + 10;
    CT_CHECK(ok);
    CT_CHECK(clCloneKernel(NULL, &err) == NULL);
    CT_ERR(CL_INVALID_KERNEL, err);
    clReleaseKernel(c);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseProgram(p);
}

static void exec_info_and_svm(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "k");
    CT_REQUIRE(k != NULL);
    cl_bool v = CL_FALSE;
    /* "CL_INVALID_VALUE if param_name is not valid". */
    CT_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(k, 0x7fff, sizeof(v), &v));
    if (ct_dev_bits(e->device, CL_DEVICE_SVM_CAPABILITIES) == 0) {
        int x = 0;
        /* clSetKernelArgSVMPointer: "CL_INVALID_OPERATION if no devices in the context
         * associated with kernel support SVM." */
        CT_ERR(CL_INVALID_OPERATION, clSetKernelArgSVMPointer(k, 0, &x));
        /* clSetKernelExecInfo: "CL_INVALID_OPERATION if no devices in the context associated
         * with kernel support SVM." */
        void *ptrs[1] = {&x};
        CT_ERR(CL_INVALID_OPERATION,
               clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(ptrs), ptrs));
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static const ct_case cases[] = {
    {"create_and_info", create_and_info},
    {"kernels_in_program", kernels_in_program},
    {"set_arg", set_arg},
    {"set_arg_wrong_object", set_arg_wrong_object},
    {"arg_info", arg_info},
    {"work_group_info", work_group_info},
    {"sub_group_info", sub_group_info},
    {"clone", clone},
    {"exec_info_and_svm", exec_info_and_svm},
};
CT_SECTION(ct_kernel_section, "kernel", cases);
