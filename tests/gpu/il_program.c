/* SPIR-V programs (clCreateProgramWithIL, cl_khr_il_program): tests/kernels-spirv/il_spec.spvasm
 * (a kernel il_add(global int *a, int b): a[i] += b * C, with C specialization constant 7, 1234567
 * by default) built, specialized, compiled and linked, its kernel run and checked (on the GPU;
 * the fake driver runs no kernel: there the PTX is checked); the API's errors; on a device with
 * images, tests/kernels-spirv/images.spvasm's image arguments. Skips where the device reports no
 * IL (no llvm-spirv found) or the build had no spirv-as. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static unsigned char *read_spv(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    if (f && fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        rewind(f);
        b = n > 0 ? malloc((size_t)n) : NULL;
        if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
            free(b);
            b = NULL;
        }
        *len = b ? (size_t)n : 0;
    }
    if (f)
        fclose(f);
    return b;
}

/* The program's PTX for dev (malloc'ed, 0-terminated). */
static char *ptx_of(cl_program p) {
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    char *text = calloc(1, size + 1);
    REQUIRE(text);
    unsigned char *bins[1] = {(unsigned char *)text};
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    return text;
}

/* a[i] = i, then il_add(a, b) over n items; checks a[i] == i + b * c (on a GPU). */
static void run(cl_context ctx, cl_command_queue q, cl_program p, cl_int b, cl_int c) {
    enum { N = 256 };
    cl_int err, host[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    cl_kernel k = clCreateKernel(p, "il_add", &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k);
    cl_uint nargs = 0;
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    CHECK(nargs == 2);
    cl_mem m = cv_test_buffer(ctx, sizeof host, host);
    size_t global = N, local = 64;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof b, &b));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N && !cv_test_fake_cuda(); i++)
        bad += host[i] != (cl_int)((cl_uint)i + (cl_uint)b * (cl_uint)c);
    CHECK(bad == 0);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* images.spvasm's kernel images(read_only image2d_t a, sampler_t s, write_only image2d_t b,
 * global float4 *o, read_only image3d_t c) over one work-item, with a and b 1 x 1 of 1.0 and
 * c 1 x 1 x 1 of 2.0: o[0] = three reads of a + (width, height, depth, 0) + a read of c. A
 * SPIR-V module names no parameters, so the arguments are told apart by their access qualifiers
 * (the CTS's spirv14_image_operand_* set an image there), and clGetKernelArgInfo has nothing. */
static void run_images(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    size_t len = 0;
    unsigned char *spv = read_spv(CV_IMAGES_SPV, &len);
    REQUIRE(spv);
    cl_int err;
    cl_program p = clCreateProgramWithIL(ctx, spv, len, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "images", &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k);
    const cl_image_format rgba = {CL_RGBA, CL_FLOAT};
    const cl_image_desc d2 = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 1, .image_height = 1};
    const cl_image_desc d3 = {
        .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 1, .image_height = 1, .image_depth = 1};
    const cl_float ones[4] = {1, 1, 1, 1}, twos[4] = {2, 2, 2, 2};
    cl_mem a =
        clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba, &d2, (void *)ones, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem b = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &rgba, &d2, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem c =
        clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba, &d3, (void *)twos, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_float out[4] = {0};
    cl_mem o = cv_test_buffer(ctx, sizeof out, out);
    /* "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the specified
     * arg_value is not a valid memory object": a buffer is no image, an image no buffer. */
    CHECK_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof o, &o));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 3, sizeof a, &a));
    CHECK_ERR(CL_INVALID_SAMPLER, clSetKernelArg(k, 1, sizeof o, &o));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof s, &s));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof b, &b));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 3, sizeof o, &o));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 4, sizeof c, &c));
    cl_kernel_arg_access_qualifier access = 0;
    CHECK_ERR(
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
        clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL));
    size_t global[2] = {1, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    CHECK(cv_test_fake_cuda() || (out[0] == 6 && out[1] == 6 && out[2] == 6 && out[3] == 5));
    if (!cv_test_fake_cuda() && !(out[0] == 6 && out[3] == 5))
        printf("images: o[0] = (%g, %g, %g, %g), expected (6, 6, 6, 5)\n", out[0], out[1], out[2],
               out[3]);
    clReleaseMemObject(o);
    clReleaseSampler(s);
    clReleaseMemObject(c);
    clReleaseMemObject(b);
    clReleaseMemObject(a);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(spv);
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    char il_version[256] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof il_version, il_version, NULL));
    size_t len = 0;
    unsigned char *spv = read_spv(CV_IL_SPV, &len);
    if (!il_version[0] || !spv) {
        printf("il_program: skipped (%s)\n", spv ? "no IL on this device" : "no " CV_IL_SPV);
        return CV_TEST_SKIP;
    }
    /* 1.0 to 1.3 with LLVM 15's translator, 1.4 too from LLVM 16's */
    CHECK(strncmp(il_version, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3", 43) == 0);
    size_t ils_size = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &ils_size));
    CHECK(ils_size == (strstr(il_version, "SPIR-V_1.4") ? 5 : 4) * sizeof(cl_name_version));
    char ext[8192] = "";
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_il_program") != NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(ctx);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(q);

    /* errors of creation */
    cl_program none = clCreateProgramWithIL(ctx, NULL, len, &err);
    CHECK(!none && err == CL_INVALID_VALUE);
    none = clCreateProgramWithIL(ctx, spv, 0, &err);
    CHECK(!none && err == CL_INVALID_VALUE);
    static const char not_spirv[64] = "this is no SPIR-V module, only text of 64 bytes";
    none = clCreateProgramWithIL(ctx, not_spirv, sizeof not_spirv, &err);
    CHECK(!none && err == CL_INVALID_VALUE);
    none = clCreateProgramWithIL(NULL, spv, len, &err);
    CHECK(!none && err == CL_INVALID_CONTEXT);

    /* the default value of the constant */
    cl_program p = clCreateProgramWithIL(ctx, spv, len, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p);
    size_t il_size = 0;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == len);
    unsigned char *back = malloc(len);
    REQUIRE(back);
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_IL, len, back, NULL));
    CHECK(memcmp(back, spv, len) == 0);
    free(back);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    char *ptx = ptx_of(p);
    CHECK(strstr(ptx, ".entry il_add") != NULL && strstr(ptx, "1234567") != NULL);
    free(ptx);
    run(ctx, q, p, 3, 1234567);

    /* specialized: errors first, then 42 */
    cl_program s = clCreateProgramWithIL(ctx, spv, len, &err);
    REQUIRE(s);
    cl_int value = 42;
    cl_long wide = 42;
    CHECK_ERR(CL_INVALID_SPEC_ID, clSetProgramSpecializationConstant(s, 8, sizeof value, &value));
    CHECK_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(s, 7, sizeof wide, &wide));
    CHECK_ERR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(s, 7, sizeof value, NULL));
    CHECK_ERR(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(NULL, 7, 4, &value));
    CHECK_ERR(CL_SUCCESS, clSetProgramSpecializationConstant(s, 7, sizeof value, &value));
    CHECK_ERR(CL_SUCCESS, clBuildProgram(s, 1, &dev, NULL, NULL, NULL));
    ptx = ptx_of(s);
    CHECK(strstr(ptx, ", 42,") != NULL && strstr(ptx, "1234567") == NULL);
    free(ptx);
    run(ctx, q, s, 5, 42);

    /* clCompileProgram of IL, then clLinkProgram */
    cl_program o = clCreateProgramWithIL(ctx, spv, len, &err);
    REQUIRE(o);
    CHECK_ERR(CL_SUCCESS, clCompileProgram(o, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program_binary_type type = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(o, dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_program linked = clLinkProgram(ctx, 1, &dev, NULL, 1, &o, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (linked) {
        run(ctx, q, linked, 7, 1234567);
        clReleaseProgram(linked);
    }

    /* a source program is no IL program */
    const char *src = "kernel void k(global int *a) { a[0] = 1; }";
    cl_program from_source = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    REQUIRE(from_source);
    CHECK_ERR(CL_INVALID_PROGRAM,
              clSetProgramSpecializationConstant(from_source, 7, sizeof value, &value));
    size_t none_size = 1;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(from_source, CL_PROGRAM_IL, 0, NULL, &none_size));
    CHECK(none_size == 0);

    cl_bool images = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (images)
        run_images(ctx, dev, q);
    else
        printf("il_program: no image support, the image module not run\n");

    clReleaseProgram(from_source);
    clReleaseProgram(o);
    clReleaseProgram(s);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(spv);
    return cv_test_report("il_program");
}
