/* culvert's demo: finds the culvert platform, compiles an OpenCL C kernel, runs it on the GPU
 * and checks every result on the CPU. Exit status 0 only when all results are right. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source = "kernel void saxpy(float a, global const float *x, global float *y) {\n"
                            "    size_t i = get_global_id(0);\n"
                            "    y[i] = a * x[i] + y[i];\n"
                            "}\n";

#define N (1 << 20)

static cl_platform_id find_culvert(void) {
    cl_platform_id platforms[16], found = NULL;
    cl_uint n = 0;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        n = 0;
    for (cl_uint i = 0; i < n && i < 16 && !found; i++) {
        char name[64] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, "culvert") == 0)
            found = platforms[i];
    }
    return found;
}

int main(void) {
    cl_int err = CL_SUCCESS;
    cl_platform_id platform = find_culvert();
    cl_device_id dev = NULL;
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "demo: no culvert GPU device (is the ICD registered and a GPU there?)\n");
        return 77;
    }
    char name[256] = "", version[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version, version, NULL);
    printf("culvert demo on %s (%s)\n", name, version);

    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(N - i);
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "demo: build failed (%d):\n%s\n", err, log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "saxpy", &err);
    cl_mem bx =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *x, x, &err);
    cl_mem by =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof *y, y, &err);
    float a = 2.0f;
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof bx, &bx);
    clSetKernelArg(k, 2, sizeof by, &by);
    size_t global = N;
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    float *out = malloc(N * sizeof *out);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, by, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL);
    int wrong = 0;
    for (int i = 0; err == CL_SUCCESS && i < N; i++)
        if (fabsf(out[i] - (a * x[i] + y[i])) > 1e-3f * fabsf(a * x[i] + y[i]))
            wrong++;
    printf("saxpy of %d floats: %s (%d wrong, error %d)\n", N,
           err == CL_SUCCESS && wrong == 0 ? "all results correct" : "FAILED", wrong, err);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(x);
    free(y);
    free(out);
    return err == CL_SUCCESS && wrong == 0 ? 0 : 1;
}
