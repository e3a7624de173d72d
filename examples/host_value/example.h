/* What the cl_culvert_host_value examples share: finding culvert's GPU, getting the extension's
 * functions by name, loading PTX. Each example exits 77 when there is no culvert GPU with the
 * extension (the test harness counts that as skipped). */
#ifndef CULVERT_EXAMPLE_H
#define CULVERT_EXAMPLE_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_culvert.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXAMPLE_SKIP 77

typedef struct example {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    clCreateHostValue_fn create_host_value;
    clSignalHostValue_fn signal_host_value;
    clLoadHostValue_fn load_host_value;
    clEnqueueWaitHostValue_fn enqueue_wait_host_value;
    clEnqueueWriteHostValue_fn enqueue_write_host_value;
} example;

/* Extension functions are not exported by the ICD loader: ask the platform for them. */
#define EXAMPLE_FN(ex, name)                                                                       \
    ((name##_fn)clGetExtensionFunctionAddressForPlatform((ex)->platform, #name))

static inline void example_open(example *ex) {
    cl_platform_id platforms[16];
    cl_uint n = 0;
    memset(ex, 0, sizeof *ex);
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        n = 0;
    for (cl_uint i = 0; i < n && i < 16 && !ex->device; i++) {
        char ext[4096] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL);
        if (strstr(ext, CL_CULVERT_HOST_VALUE_EXTENSION_NAME) &&
            clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &ex->device, NULL) == CL_SUCCESS)
            ex->platform = platforms[i];
    }
    if (!ex->platform) {
        fprintf(stderr, "no GPU with %s: skipped\n", CL_CULVERT_HOST_VALUE_EXTENSION_NAME);
        exit(EXAMPLE_SKIP);
    }
    cl_int err = CL_SUCCESS;
    ex->context = clCreateContext(NULL, 1, &ex->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        ex->queue = clCreateCommandQueueWithProperties(ex->context, ex->device, NULL, &err);
    ex->create_host_value = EXAMPLE_FN(ex, clCreateHostValue);
    ex->signal_host_value = EXAMPLE_FN(ex, clSignalHostValue);
    ex->load_host_value = EXAMPLE_FN(ex, clLoadHostValue);
    ex->enqueue_wait_host_value = EXAMPLE_FN(ex, clEnqueueWaitHostValue);
    ex->enqueue_write_host_value = EXAMPLE_FN(ex, clEnqueueWriteHostValue);
    if (err != CL_SUCCESS || !ex->create_host_value || !ex->signal_host_value ||
        !ex->load_host_value || !ex->enqueue_wait_host_value || !ex->enqueue_write_host_value) {
        fprintf(stderr, "set-up failed (%d)\n", err);
        exit(1);
    }
}

static inline cl_mem example_host_value(example *ex, cl_ulong initial) {
    cl_int err = CL_SUCCESS;
    cl_mem hv = ex->create_host_value(ex->context, initial, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateHostValue: %d\n", err);
        exit(1);
    }
    return hv;
}

/* One kernel from PTX text (what NVIDIA's OpenCL calls a program binary). */
static inline cl_kernel example_kernel(example *ex, const char *ptx, const char *name) {
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    size_t len = strlen(ptx) + 1;
    const unsigned char *bin = (const unsigned char *)ptx;
    cl_program p =
        clCreateProgramWithBinary(ex->context, 1, &ex->device, &len, &bin, &status, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &ex->device, NULL, NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, name, &err) : NULL;
    if (err != CL_SUCCESS) {
        fprintf(stderr, "kernel %s from PTX: %d\n", name, err);
        exit(1);
    }
    clReleaseProgram(p); /* the kernel keeps it */
    return k;
}

static inline double example_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits (spinning) until the host value reaches at least `want` (cyclic, as the GPU's GEQ);
 * returns the value, or the last one seen after timeout_s. */
static inline cl_ulong example_spin_until(example *ex, cl_mem hv, cl_ulong want, double timeout_s) {
    double end = example_now() + timeout_s;
    cl_ulong v = 0;
    ex->load_host_value(hv, &v);
    while ((long long)(v - want) < 0 && example_now() < end)
        ex->load_host_value(hv, &v);
    return v;
}

static inline void example_close(example *ex) {
    clReleaseCommandQueue(ex->queue);
    clReleaseContext(ex->context);
}

#endif
