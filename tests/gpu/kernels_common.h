/* What the kernel GPU tests share: a context and queue on the culvert GPU, programs from the
 * test PTX (tests/kernels, built into CV_TEST_PTX_DIR), buffers. Included by one test each. */
#ifndef CV_TEST_KERNELS_COMMON_H
#define CV_TEST_KERNELS_COMMON_H

#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;

static inline void setup(void) {
    cl_platform_id platform;
    cl_int err;
    dev = cv_test_gpu_device_or_skip(&platform);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS && ctx);
    queue = clCreateCommandQueue(ctx, dev, 0, &err);
    REQUIRE(err == CL_SUCCESS && queue);
}

static inline void teardown(void) {
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
}

/* The bytes of a test PTX file (0-terminated); *len without the terminator. */
static inline unsigned char *read_ptx(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CV_TEST_PTX_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    REQUIRE(got == (size_t)n);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* A built program from a test kernel file (PTX, cubin or fatbin); prints the build log when the
 * build fails. */
static inline cl_program build_ptx(const char *name, const char *options) {
    size_t len;
    unsigned char *ptx = read_ptx(name, &len);
    const unsigned char *bins[1] = {ptx};
    cl_int status = -1, err;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
    free(ptx);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, status);
    REQUIRE(p != NULL);
    err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build of %s failed (%d):\n%s\n", name, err, log);
    }
    CHECK_ERR(CL_SUCCESS, err);
    return p;
}

static inline cl_kernel kernel(cl_program p, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k != NULL);
    return k;
}

static inline cl_mem buffer(size_t size) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m != NULL);
    return m;
}

static inline void fill(cl_mem m, const void *src, size_t size) {
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, size, src, 0, NULL, NULL));
}

static inline void zero(cl_mem m, size_t size) {
    void *z = calloc(1, size);
    fill(m, z, size);
    free(z);
}

static inline void read_back(cl_mem m, void *dst, size_t size) {
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, dst, 0, NULL, NULL));
}

static inline void arg_mem(cl_kernel k, cl_uint i, cl_mem m) {
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, i, sizeof m, &m));
}

#define ARG(k, i, v) CHECK_ERR(CL_SUCCESS, clSetKernelArg((k), (i), sizeof(v), &(v)))

#endif
