/* Section 5.8 of the OpenCL 3.0 API: program objects from source and binary, build, compile,
 * link, info queries. Skipped where the device has no compiler. */
#include "ct.h"

static const char *src_two =
    "kernel void add1(global int *a) { a[get_global_id(0)] += 1; }\n"
    "kernel void setv(global int *a, int v) { a[get_global_id(0)] = v; }\n";

#define NEED_COMPILER()                                                                            \
    do {                                                                                           \
        if (!ct_compiler(e))                                                                       \
            CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");                                      \
    } while (0)

static void create_with_source(ct_env *e) {
    NEED_COMPILER();
    const char *parts[] = {"kernel void a(global int *p) { p[0] = 1; }\n", "/* tail */"};
    size_t lens[] = {0, 4}; /* 0: NUL-terminated; 4: the tail cut short */
    cl_int err = 1;
    cl_program p = clCreateProgramWithSource(e->ctx, 2, parts, lens, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(p != NULL);
    char src[256] = "";
    size_t n = 0;
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(src), src, &n));
    char expect[256];
    snprintf(expect, sizeof(expect), "%s/* t", parts[0]);
    CT_CHECK(!strcmp(src, expect) && n == strlen(expect) + 1);
    cl_context c = NULL;
    cl_uint nd = 0, refs = 0;
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof(c), &c, NULL));
    CT_CHECK(c == e->ctx);
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(nd), &nd, NULL));
    CT_CHECK(nd == 1);
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    cl_build_status st = 1;
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
    CT_CHECK(st == CL_BUILD_NONE);
    size_t kn = 0;
    /* CL_PROGRAM_NUM_KERNELS: "CL_INVALID_PROGRAM_EXECUTABLE if ... a successfully built
     * program executable was not found for at least one device". */
    CT_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
           clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(kn), &kn, NULL));
    /* clCreateKernel: "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
     * executable for program." */
    CT_CHECK(clCreateKernel(p, "a", &err) == NULL);
    CT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
    CT_ERR(CL_SUCCESS, clRetainProgram(p));
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 2);
    clReleaseProgram(p);
    clReleaseProgram(p);
}

static void source_errors(ct_env *e) {
    NEED_COMPILER();
    cl_int err = CL_SUCCESS;
    const char *one = "kernel void a(global int *p) { }";
    /* "CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL." */
    CT_CHECK(clCreateProgramWithSource(e->ctx, 0, &one, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_CHECK(clCreateProgramWithSource(NULL, 1, &one, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
    CT_ERR(CL_INVALID_PROGRAM, clRetainProgram(NULL));
    CT_ERR(CL_INVALID_PROGRAM, clReleaseProgram(NULL));
}

static void build_and_info(ct_env *e) {
    NEED_COMPILER();
    cl_program p = ct_build(e, src_two, "-DUNUSED=1");
    CT_REQUIRE(p != NULL);
    cl_build_status st = 0;
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
    CT_CHECK(st == CL_BUILD_SUCCESS);
    char opts[128] = "";
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_OPTIONS, sizeof(opts), opts, NULL));
    CT_CHECK(strstr(opts, "-DUNUSED=1") != NULL);
    cl_program_binary_type bt = 0;
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL));
    CT_CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    size_t logn = 0;
    CT_ERR(CL_SUCCESS, clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &logn));
    CT_CHECK(logn >= 1);
    size_t kn = 0;
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(kn), &kn, NULL));
    CT_CHECK(kn == 2);
    char names[128] = "";
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, NULL));
    /* "a semicolon separated list of kernel names" (in any order). */
    CT_CHECK(!strcmp(names, "add1;setv") || !strcmp(names, "setv;add1"));
    size_t bsize = 0;
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(bsize), &bsize, NULL));
    CT_CHECK(bsize > 0);
    /* "CL_INVALID_VALUE if param_name is not valid". */
    CT_ERR(CL_INVALID_VALUE, clGetProgramInfo(p, 0x7fff, sizeof(kn), &kn, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetProgramBuildInfo(p, e->device, 0x7fff, sizeof(kn), &kn, NULL));
    /* "CL_INVALID_DEVICE if device is not in the list of devices associated with program." */
    CT_ERR(CL_INVALID_DEVICE,
           clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    CT_ERR(CL_INVALID_PROGRAM,
           clGetProgramInfo(NULL, CL_PROGRAM_NUM_KERNELS, sizeof(kn), &kn, NULL));
    clReleaseProgram(p);
}

static void build_failure(ct_env *e) {
    NEED_COMPILER();
    const char *bad = "kernel void broken(global int *a) { a[0] = undeclared_thing; }";
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &bad, NULL, &err);
    CT_REQUIRE(p != NULL);
    /* "CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program executable." */
    CT_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 1, &e->device, NULL, NULL, NULL));
    cl_build_status st = 0;
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_STATUS, sizeof(st), &st, NULL));
    CT_CHECK(st == CL_BUILD_ERROR);
    char log[4096] = "";
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL));
    CT_CHECK(strstr(log, "undeclared_thing") != NULL);
    CT_CHECK(clCreateKernel(p, "broken", &err) == NULL);
    CT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
    /* The program can be built again after fixing nothing: still a failure, never a crash. */
    CT_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    clReleaseProgram(p);
}

static void build_errors(ct_env *e) {
    NEED_COMPILER();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &src_two, NULL, &err);
    CT_REQUIRE(p != NULL);
    /* "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
     * device_list is not NULL and num_devices is zero." */
    CT_ERR(CL_INVALID_VALUE, clBuildProgram(p, 1, NULL, NULL, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clBuildProgram(p, 0, &e->device, NULL, NULL, NULL));
    /* "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL." */
    int user = 0;
    CT_ERR(CL_INVALID_VALUE, clBuildProgram(p, 1, &e->device, NULL, NULL, &user));
    /* "CL_INVALID_DEVICE if any device in device_list is not in the list of devices associated
     * with program." */
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    CT_ERR(CL_INVALID_PROGRAM, clBuildProgram(NULL, 1, &e->device, NULL, NULL, NULL));
    /* "CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid." */
    CT_ERR(CL_INVALID_BUILD_OPTIONS,
           clBuildProgram(p, 1, &e->device, "-cl-no-such-option-ct", NULL, NULL));
    clReleaseProgram(p);
}

static volatile int build_cb_calls;
static void CL_CALLBACK build_cb(cl_program p, void *user) {
    (void)p;
    __atomic_add_fetch((volatile int *)user, 1, __ATOMIC_RELEASE);
}

static void build_callback_and_defines(ct_env *e) {
    NEED_COMPILER();
    const char *src = "kernel void k(global int *a) { a[0] = VAL * 2; }";
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
    CT_REQUIRE(p != NULL);
    build_cb_calls = 0;
    CT_ERR(CL_SUCCESS,
           clBuildProgram(p, 1, &e->device, "-D VAL=21", build_cb, (void *)&build_cb_calls));
    CT_CHECK(ct_wait_flag(&build_cb_calls, 10000) == 1);
    cl_kernel k = ct_kernel(p, "k");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 4, NULL);
    CT_REQUIRE(k && m);
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(m), &m));
    CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, k, 0, NULL, NULL));
    cl_int v = 0;
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    CT_CHECK(v == 42);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Runs kernel `name` of p on one work-item with a buffer that holds `start` as its first
 * argument (and *value as its second, unless value is NULL): the int the kernel leaves in the
 * buffer, or -1 with the failure reported. */
static cl_int run_int(ct_env *e, cl_program p, const char *name, cl_int start,
                      const cl_int *value) {
    cl_kernel k = ct_kernel(p, name);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &start);
    cl_int v = -1;
    if (k && m) {
        CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(m), &m));
        if (value)
            CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof(*value), value));
        CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, k, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    }
    if (k)
        clReleaseKernel(k);
    if (m)
        clReleaseMemObject(m);
    return v;
}

/* A program made again (clCreateProgramWithBinary) from p's binary for the device. */
static cl_program from_binary(ct_env *e, cl_program p) {
    size_t size = 0;
    CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL));
    unsigned char *bin = size ? malloc(size) : NULL;
    unsigned char *bins[1] = {bin};
    cl_program q = NULL;
    if (bin && clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bins), bins, NULL) == CL_SUCCESS) {
        cl_int status = 1, err = 1;
        const unsigned char *cbins[1] = {bin};
        q = clCreateProgramWithBinary(e->ctx, 1, &e->device, &size, cbins, &status, &err);
        CT_ERR(CL_SUCCESS, err);
        CT_ERR(CL_SUCCESS, status);
    }
    CT_CHECK(q != NULL);
    free(bin);
    return q;
}

static void binary_round_trip(ct_env *e) {
    NEED_COMPILER();
    cl_program p = ct_build(e, src_two, NULL);
    CT_REQUIRE(p != NULL);
    cl_program q = from_binary(e, p);
    clReleaseProgram(p);
    CT_REQUIRE(q != NULL);
    CT_ERR(CL_SUCCESS, clBuildProgram(q, 1, &e->device, NULL, NULL, NULL));
    cl_int v = 1234;
    CT_CHECK(run_int(e, q, "setv", 0, &v) == 1234);
    clReleaseProgram(q);
}

static void binary_errors(ct_env *e) {
    cl_int status = 0, err = CL_SUCCESS;
    const unsigned char junk[64] = "this is not a program binary of any device, really not.";
    const unsigned char *bins[1] = {junk};
    size_t size = sizeof(junk), zero = 0;
    /* "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero or
     * binaries[i] is NULL." */
    CT_CHECK(clCreateProgramWithBinary(e->ctx, 1, &e->device, &zero, bins, &status, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_VALUE if device_list is NULL or num_devices is zero." */
    CT_CHECK(clCreateProgramWithBinary(e->ctx, 0, &e->device, &size, bins, &status, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateProgramWithBinary(e->ctx, 1, NULL, &size, bins, &status, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_BINARY if an invalid program binary was encountered for any device.
     * binary_status will return specific status for each device." */
    cl_program p = clCreateProgramWithBinary(e->ctx, 1, &e->device, &size, bins, &status, &err);
    if (p) {
        /* Some implementations accept the bytes and fail at build time. */
        CT_ERR2(CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BINARY,
                clBuildProgram(p, 1, &e->device, NULL, NULL, NULL));
        clReleaseProgram(p);
    } else {
        CT_ERR(CL_INVALID_BINARY, err);
        CT_ERR(CL_INVALID_BINARY, status);
    }
}

/* A program of src compiled (clCompileProgram) with the given embedded headers; NULL when it
 * cannot be created. */
static cl_program compiled(ct_env *e, const char *src, cl_uint num_headers, const cl_program *hdr,
                           const char **names) {
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (p)
        CT_ERR(CL_SUCCESS,
               clCompileProgram(p, 1, &e->device, NULL, num_headers, hdr, names, NULL, NULL));
    return p;
}

static void compile_and_link(ct_env *e) {
    NEED_COMPILER();
    if (!ct_dev_uint(e->device, CL_DEVICE_LINKER_AVAILABLE))
        CT_SKIP("CL_DEVICE_LINKER_AVAILABLE is false");
    const char *header = "#define FACTOR 3\nint scale(int x);\n";
    const char *lib_src = "#include \"ct_scale.h\"\nint scale(int x) { return x * FACTOR; }\n";
    const char *main_src = "#include \"ct_scale.h\"\n"
                           "kernel void k(global int *a) { a[0] = scale(a[0]); }\n";
    cl_int err = CL_SUCCESS;
    cl_program hdr = clCreateProgramWithSource(e->ctx, 1, &header, NULL, &err);
    CT_REQUIRE(hdr != NULL);
    const char *names[] = {"ct_scale.h"};
    cl_program lib = compiled(e, lib_src, 1, &hdr, names);
    cl_program mainp = compiled(e, main_src, 1, &hdr, names);
    CT_REQUIRE(lib && mainp);
    cl_program_binary_type bt = 0;
    CT_ERR(CL_SUCCESS,
           clGetProgramBuildInfo(lib, e->device, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL));
    CT_CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    /* A library from the compiled object, then an executable from main + library. */
    cl_program library =
        clLinkProgram(e->ctx, 1, &e->device, "-create-library", 1, &lib, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (library) {
        CT_ERR(CL_SUCCESS, clGetProgramBuildInfo(library, e->device, CL_PROGRAM_BINARY_TYPE,
                                                 sizeof(bt), &bt, NULL));
        CT_CHECK(bt == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    }
    cl_program both[2] = {mainp, library ? library : lib};
    cl_program exe = clLinkProgram(e->ctx, 1, &e->device, NULL, 2, both, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (exe) {
        CT_CHECK(run_int(e, exe, "k", 14, NULL) == 42);
        clReleaseProgram(exe);
    }
    /* "CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL or if
     * num_input_programs is zero and input_programs is not NULL or if num_input_programs is
     * not zero and input_programs is NULL." */
    CT_CHECK(clLinkProgram(e->ctx, 1, &e->device, NULL, 0, NULL, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clLinkProgram(e->ctx, 1, &e->device, NULL, 1, NULL, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* clCompileProgram: "CL_INVALID_VALUE if num_input_headers is zero and header_include_names
     * or input_headers are not NULL or if num_input_headers is not zero and
     * header_include_names or input_headers are NULL." */
    if (library)
        clReleaseProgram(library);
    clReleaseProgram(hdr);
    clReleaseProgram(lib);
    clReleaseProgram(mainp);
}

/* "CL_INVALID_OPERATION if there are kernel objects attached to program": once the application
 * released its kernel, clBuildProgram builds again, with the new options. */
static void rebuild_options(ct_env *e) {
    NEED_COMPILER();
    const char *src = "kernel void k(global int *a) { a[0] = VALUE; }\n";
    cl_program p = ct_build(e, src, "-D VALUE=1");
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "k");
    CT_ERR(CL_INVALID_OPERATION, clBuildProgram(p, 1, &e->device, "-D VALUE=5", NULL, NULL));
    if (k)
        clReleaseKernel(k);
    CT_CHECK(run_int(e, p, "k", 0, NULL) == 1);
    CT_ERR(CL_SUCCESS, clBuildProgram(p, 1, &e->device, "-D VALUE=5", NULL, NULL));
    CT_CHECK(run_int(e, p, "k", 0, NULL) == 5);
    clReleaseProgram(p);
}

/* A kernel may call another kernel as a function (OpenCL C 6.9 "__kernel functions ... can
 * also be called by other kernels"): in one program, and across clLinkProgram's inputs, one of
 * them a library made again from its binary, which is CL_PROGRAM_BINARY_TYPE_LIBRARY. */
static void kernel_calls_kernel(ct_env *e) {
    NEED_COMPILER();
    const char *one = "kernel void twice(global int *a) { a[0] *= 2; }\n"
                      "kernel void four(global int *a) { twice(a); twice(a); }\n";
    cl_program p = ct_build(e, one, NULL);
    CT_REQUIRE(p != NULL);
    CT_CHECK(run_int(e, p, "four", 3, NULL) == 12);
    CT_CHECK(run_int(e, p, "twice", 3, NULL) == 6);
    clReleaseProgram(p);
    if (!ct_dev_uint(e->device, CL_DEVICE_LINKER_AVAILABLE))
        CT_SKIP("CL_DEVICE_LINKER_AVAILABLE is false");
    const char *lib_src = "kernel void add7(global int *a) { a[0] += 7; }\n";
    const char *main_src = "kernel void add7(global int *a);\n"
                           "kernel void uses(global int *a) { add7(a); a[0] *= 10; }\n";
    cl_int err = CL_SUCCESS;
    cl_program lib = compiled(e, lib_src, 0, NULL, NULL);
    cl_program mainp = compiled(e, main_src, 0, NULL, NULL);
    CT_REQUIRE(lib && mainp);
    cl_program both[2] = {mainp, lib};
    cl_program exe = clLinkProgram(e->ctx, 1, &e->device, NULL, 2, both, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (exe) {
        CT_CHECK(run_int(e, exe, "uses", 1, NULL) == 80);
        clReleaseProgram(exe);
    }
    cl_program library =
        clLinkProgram(e->ctx, 1, &e->device, "-create-library", 1, &lib, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(library != NULL);
    cl_program again = from_binary(e, library);
    if (again) {
        cl_program_binary_type bt = 0;
        CT_ERR(CL_SUCCESS, clGetProgramBuildInfo(again, e->device, CL_PROGRAM_BINARY_TYPE,
                                                 sizeof(bt), &bt, NULL));
        CT_CHECK(bt == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        cl_program with_lib[2] = {mainp, again};
        exe = clLinkProgram(e->ctx, 1, &e->device, NULL, 2, with_lib, NULL, NULL, &err);
        CT_ERR(CL_SUCCESS, err);
        if (exe) {
            CT_CHECK(run_int(e, exe, "uses", 2, NULL) == 90);
            clReleaseProgram(exe);
        }
        clReleaseProgram(again);
    }
    clReleaseProgram(library);
    clReleaseProgram(lib);
    clReleaseProgram(mainp);
}

/* NULL where the spec demands an error: "CL_INVALID_VALUE if count is zero or if strings or any
 * entry in strings is NULL", "CL_INVALID_DEVICE if any device in device_list is not in the list
 * of devices associated with program", "CL_INVALID_VALUE if lengths or binaries is NULL", and
 * for clCompileProgram "if num_input_headers is not zero and header_include_names or
 * input_headers are NULL". */
static void null_arguments(ct_env *e) {
    NEED_COMPILER();
    cl_int err = CL_SUCCESS, status = 0;
    const char *one = "kernel void a(global int *p) { }";
    const char *with_null[] = {one, NULL};
    const char *names[] = {"ct_scale.h"};
    const unsigned char junk[8] = "1234567";
    const unsigned char *bins[1] = {junk};
    size_t size = sizeof(junk);
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &one, NULL, &err);
    CT_REQUIRE(p != NULL);
    CT_CHECK(clCreateProgramWithSource(e->ctx, 1, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateProgramWithSource(e->ctx, 2, with_null, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    cl_device_id null_dev = NULL;
    CT_ERR(CL_INVALID_DEVICE, clBuildProgram(p, 1, &null_dev, NULL, NULL, NULL));
    CT_CHECK(clCreateProgramWithBinary(e->ctx, 1, &e->device, NULL, bins, &status, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateProgramWithBinary(e->ctx, 1, &e->device, &size, NULL, &status, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_ERR(CL_INVALID_VALUE, clCompileProgram(p, 1, &e->device, NULL, 1, NULL, names, NULL, NULL));
    clReleaseProgram(p);
}

static void il_and_builtins(ct_env *e) {
    cl_int err = CL_SUCCESS;
    char *il = ct_dev_str(e->device, CL_DEVICE_IL_VERSION);
    if (!il[0]) {
        const unsigned int word = 0x07230203;
        /* "CL_INVALID_OPERATION if no devices in context support intermediate language
         * programs." */
        CT_CHECK(clCreateProgramWithIL(e->ctx, &word, sizeof(word), &err) == NULL);
        /* (the four bytes are no valid IL either: "CL_INVALID_VALUE if ... the IL is not
         * valid" may come first; the order of checks is not specified) */
        CT_ERR2(CL_INVALID_OPERATION, CL_INVALID_VALUE, err);
    }
    free(il);
    char *bik = ct_dev_str(e->device, CL_DEVICE_BUILT_IN_KERNELS);
    /* "CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a kernel name that is
     * not supported by any of the devices in device_list." */
    CT_CHECK(clCreateProgramWithBuiltInKernels(e->ctx, 1, &e->device, "ct_no_such_kernel", &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateProgramWithBuiltInKernels(e->ctx, 1, &e->device, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    free(bik);
}

static void CL_CALLBACK release_notify(cl_program p, void *user) {
    (void)p;
    ++*(int *)user;
}

static void spec_constant_and_release_cb(ct_env *e) {
    NEED_COMPILER();
    cl_program p = ct_build(e, src_two, NULL);
    CT_REQUIRE(p != NULL);
    cl_int v = 1;
    /* "CL_INVALID_PROGRAM if program is not a valid program object created from an
     * intermediate language (e.g. SPIR-V)" / "CL_INVALID_OPERATION if no devices associated
     * with program support intermediate language programs." (the CTS's consistency_il_programs
     * wants the second where both apply; PoCL 3.1 answers the first) */
    CT_ERR2(CL_INVALID_PROGRAM, CL_INVALID_OPERATION,
            clSetProgramSpecializationConstant(p, 1, sizeof(v), &v));
    char *il = ct_dev_str(e->device, CL_DEVICE_IL_VERSION);
    if (!il[0]) {
        /* OpenCL C has no program-scope constructors or destructors; without IL no program
         * can have them: "CL_INVALID_OPERATION if no devices in the context associated with
         * program support destructors for program scope global variables." */
        cl_bool present = CL_TRUE;
        CT_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
                                            sizeof(present), &present, NULL));
        CT_CHECK(present == CL_FALSE);
        int called = 0;
        CT_ERR(CL_INVALID_OPERATION, clSetProgramReleaseCallback(p, release_notify, &called));
        clReleaseProgram(p);
        p = NULL;
        CT_CHECK(called == 0);
    }
    free(il);
    if (p)
        clReleaseProgram(p);
}

static const ct_case cases[] = {
    {"create_with_source", create_with_source},
    {"source_errors", source_errors},
    {"build_and_info", build_and_info},
    {"build_failure", build_failure},
    {"build_errors", build_errors},
    {"build_callback_and_defines", build_callback_and_defines},
    {"binary_round_trip", binary_round_trip},
    {"binary_errors", binary_errors},
    {"compile_and_link", compile_and_link},
    {"rebuild_options", rebuild_options},
    {"kernel_calls_kernel", kernel_calls_kernel},
    {"null_arguments", null_arguments},
    {"il_and_builtins", il_and_builtins},
    {"spec_constant", spec_constant_and_release_cb},
};
CT_SECTION(ct_program_section, "program", cases);
