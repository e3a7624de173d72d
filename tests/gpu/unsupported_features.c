/* Optional features culvert does not claim answer the spec's errors, with the handles they are
 * given checked first, and the device says it lacks them. IL programs are claimed where
 * llvm-spirv is found: the test runs with CULVERT_LLVM_SPIRV naming none (tests/CMakeLists.txt),
 * as on a machine without it (tests/gpu/il_program.c tests them where they are). */
/* clSetProgramReleaseCallback is deprecated by OpenCL 3.0, and still part of it. */
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "test_util.h"

static void CL_CALLBACK on_release(cl_program p, void *user) {
    (void)p;
    ++*(int *)user;
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err = 0;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(ctx != NULL);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(q != NULL);

    cl_bool images = CL_TRUE;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    CHECK(images == CL_FALSE);
    cl_image_format fmt = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {CL_MEM_OBJECT_IMAGE2D, 16, 16, 1, 1, 0, 0, 0, 0, {NULL}};
    /* "CL_INVALID_OPERATION if there are no devices in context that support images." */
    CHECK(clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err) == NULL);
    CHECK(err == CL_INVALID_OPERATION);
    cl_uint nfmt = 99;
    CHECK_ERR(CL_SUCCESS, clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D,
                                                     0, NULL, &nfmt));
    CHECK(nfmt == 0);
    CHECK(clCreateSamplerWithProperties(ctx, NULL, &err) == NULL && err == CL_INVALID_OPERATION);
    size_t origin[3] = {0}, region[3] = {1, 1, 1};
    float px[4];
    /* "CL_INVALID_OPERATION if the device associated with command_queue does not support
     * images." (culvert checks the queue first; there is no image to pass) */
    CHECK_ERR(CL_INVALID_OPERATION,
              clEnqueueReadImage(q, NULL, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    /* Pipes, IL, built-in and native kernels, device queues. */
    CHECK(clCreatePipe(ctx, 0, 4, 16, NULL, &err) == NULL && err == CL_INVALID_OPERATION);
    CHECK(clCreateProgramWithIL(ctx, "x", 1, &err) == NULL && err == CL_INVALID_OPERATION);
    CHECK(clCreateProgramWithBuiltInKernels(ctx, 1, &dev, "none", &err) == NULL &&
          err == CL_INVALID_VALUE);
    CHECK_ERR(CL_INVALID_OPERATION, clSetDefaultDeviceCommandQueue(ctx, dev, q));
    /* A program from source on a device without IL: "CL_INVALID_OPERATION if no devices
     * associated with program support intermediate language programs" (before "not a valid
     * program object created from an intermediate language", as the CTS wants), and no
     * program-scope destructors: clSetProgramReleaseCallback is CL_INVALID_OPERATION too. */
    const char *src = "kernel void k(global int *p) { *p = 1; }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    REQUIRE(prog != NULL);
    cl_uint spec = 42;
    CHECK_ERR(CL_INVALID_OPERATION,
              clSetProgramSpecializationConstant(prog, 0, sizeof spec, &spec));
    CHECK_ERR(CL_INVALID_PROGRAM,
              clSetProgramSpecializationConstant((cl_program)ctx, 0, sizeof spec, &spec));
    int released = 0;
    CHECK_ERR(CL_INVALID_OPERATION, clSetProgramReleaseCallback(prog, on_release, &released));
    CHECK_ERR(CL_INVALID_VALUE, clSetProgramReleaseCallback(prog, NULL, NULL));
    size_t il_size = 99;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(prog, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == 0);
    CHECK_ERR(CL_SUCCESS, clReleaseProgram(prog));
    CHECK(released == 0);
    char il[64] = "";
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof il, il, NULL));
    CHECK(il[0] == '\0');
    cl_bool pipes = CL_TRUE;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_PIPE_SUPPORT, sizeof pipes, &pipes, NULL));
    CHECK(pipes == CL_FALSE);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("unsupported_features");
}
