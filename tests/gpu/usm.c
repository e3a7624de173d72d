/* Unified shared memory (cl_intel_unified_shared_memory): device, host and shared allocations
 * used by a kernel, copies and fills between them, the allocation queries, the checks of the
 * allocation and free calls, kernel exec info. Under the fake driver the kernel does not run:
 * the checks of its results are left out there. */
#include "usm_common.h"

#include <stdint.h>
#include <string.h>

#define N 4096

static const char *src = "kernel void axpy(global int *y, global const int *x, int a) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    y[i] += a * x[i];\n"
                         "}\n";

static void check_capabilities(cl_device_id dev) {
    char ext[8192] = "";
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_intel_unified_shared_memory") != NULL);
    cl_device_unified_shared_memory_capabilities_intel host = 0, device = 0, shared = 0, sys = 9;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, sizeof host,
                                          &host, NULL));
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
                                          sizeof device, &device, NULL));
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
                              sizeof shared, &shared, NULL));
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL,
                                          sizeof sys, &sys, NULL));
    /* Device access is required of every device; system allocations are not claimed. */
    CHECK(device & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL);
    CHECK(host & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL);
    CHECK(shared & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL);
    CHECK(sys == 0);
}

static void check_allocation_rules(cl_context ctx, cl_device_id dev) {
    cl_int err = 0;
    /* "CL_INVALID_BUFFER_SIZE if size is zero" / "CL_INVALID_VALUE if alignment is not zero or a
     * power of two" / greater than the largest data type / "CL_INVALID_DEVICE if device is not
     * a valid device" / "CL_INVALID_PROPERTY if ... the same property name is specified more
     * than once" / placement flags on a device allocation / both placements on a shared one. */
    CHECK(device_alloc(ctx, dev, NULL, 0, 0, &err) == NULL && err == CL_INVALID_BUFFER_SIZE);
    CHECK(device_alloc(ctx, dev, NULL, 64, 12, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(device_alloc(ctx, dev, NULL, 64, 4096, &err) == NULL && err == CL_INVALID_VALUE);
    CHECK(device_alloc(ctx, (cl_device_id)ctx, NULL, 64, 0, &err) == NULL &&
          err == CL_INVALID_DEVICE);
    cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
    CHECK(host_alloc(ctx, twice, 64, 0, &err) == NULL && err == CL_INVALID_PROPERTY);
    cl_mem_properties_intel placed[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                        CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL, 0};
    CHECK(device_alloc(ctx, dev, placed, 64, 0, &err) == NULL && err == CL_INVALID_PROPERTY);
    cl_mem_properties_intel both[] = {
        CL_MEM_ALLOC_FLAGS_INTEL,
        CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL, 0};
    CHECK(shared_alloc(ctx, dev, both, 64, 0, &err) == NULL && err == CL_INVALID_PROPERTY);
    /* A shared allocation with a placement hint, and one with no device. */
    void *s1 = shared_alloc(ctx, dev, placed, 256, 128, &err);
    CHECK(s1 != NULL && err == CL_SUCCESS && (uintptr_t)s1 % 128 == 0);
    void *s2 = shared_alloc(ctx, NULL, NULL, 256, 0, &err);
    CHECK(s2 != NULL && err == CL_SUCCESS);
    cl_mem_alloc_flags_intel flags = 0;
    cl_device_id owner = (cl_device_id)ctx;
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, s1, CL_MEM_ALLOC_FLAGS_INTEL, sizeof flags, &flags, NULL));
    CHECK(flags == CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL);
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, s2, CL_MEM_ALLOC_DEVICE_INTEL, sizeof owner, &owner, NULL));
    CHECK(owner == NULL);
    /* "CL_INVALID_VALUE if ptr is not a value returned by clHostMemAllocINTEL,
     * clDeviceMemAllocINTEL, clSharedMemAllocINTEL, or a NULL pointer." */
    CHECK_ERR(CL_INVALID_VALUE, mem_free(ctx, (char *)s1 + 8));
    CHECK_ERR(CL_SUCCESS, mem_free(ctx, NULL));
    CHECK_ERR(CL_SUCCESS, mem_free(ctx, s1));
    CHECK_ERR(CL_INVALID_VALUE, mem_free(ctx, s1));
    CHECK_ERR(CL_SUCCESS, blocking_free(ctx, s2));
    /* An SVM allocation is no USM allocation. */
    void *svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
    cl_unified_shared_memory_type_intel type = 0;
    if (svm) {
        CHECK_ERR(CL_INVALID_VALUE, mem_free(ctx, svm));
        CHECK_ERR(CL_SUCCESS,
                  alloc_info(ctx, svm, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
        CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL);
        clSVMFree(ctx, svm);
    }
}

/* Each kind of allocation answers the queries for a pointer into its middle. */
static void check_queries(cl_context ctx, cl_device_id dev, void *p, size_t size,
                          cl_unified_shared_memory_type_intel want, cl_device_id want_dev) {
    cl_unified_shared_memory_type_intel type = 0;
    void *base = NULL;
    size_t got_size = 0;
    cl_device_id owner = NULL;
    const char *inside = (const char *)p + size / 2;
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, inside, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, inside, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL));
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, inside, CL_MEM_ALLOC_SIZE_INTEL, sizeof got_size, &got_size, NULL));
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, inside, CL_MEM_ALLOC_DEVICE_INTEL, sizeof owner, &owner, NULL));
    CHECK(type == want && base == p && got_size == size && owner == want_dev);
    (void)dev;
}

static void check_unknown_pointer(cl_context ctx) {
    int local = 0;
    cl_unified_shared_memory_type_intel type = 0;
    void *base = &local;
    size_t size = 9;
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, &local, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, &local, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL));
    CHECK_ERR(CL_SUCCESS,
              alloc_info(ctx, &local, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL && base == NULL && size == 0);
    /* "CL_INVALID_VALUE if param_name is not a valid Unified Shared Memory allocation query." /
     * "... if param_value is not NULL and param_value_size is smaller than the size of the query
     * return type." */
    CHECK_ERR(CL_INVALID_VALUE, alloc_info(ctx, &local, 0x1234, sizeof type, &type, NULL));
    CHECK_ERR(CL_INVALID_VALUE, alloc_info(ctx, &local, CL_MEM_ALLOC_SIZE_INTEL, 1, &size, NULL));
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err = 0;
    usm_load(platform);
    check_capabilities(dev);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(ctx != NULL);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(q != NULL);
    check_allocation_rules(ctx, dev);
    check_unknown_pointer(ctx);

    size_t bytes = N * sizeof(int);
    int *d = device_alloc(ctx, dev, NULL, bytes, 0, &err);
    int *h = host_alloc(ctx, NULL, bytes, 64, &err);
    int *s = shared_alloc(ctx, dev, NULL, bytes, 0, &err);
    REQUIRE(d && h && s);
    check_queries(ctx, dev, d, bytes, CL_MEM_TYPE_DEVICE_INTEL, dev);
    check_queries(ctx, dev, h, bytes, CL_MEM_TYPE_HOST_INTEL, NULL);
    check_queries(ctx, dev, s, bytes, CL_MEM_TYPE_SHARED_INTEL, dev);

    /* Host memory written by the host, copied to the device allocation; the shared one
     * filled with 2. */
    for (int i = 0; i < N; i++)
        h[i] = i;
    CHECK_ERR(CL_SUCCESS, copy(q, CL_FALSE, d, h, bytes, 0, NULL, NULL));
    int two = 2;
    CHECK_ERR(CL_SUCCESS, fill(q, s, &two, sizeof two, bytes, 0, NULL, NULL));
    /* The errors of the commands: NULL pointers, overlap, pattern sizes and alignment. */
    CHECK_ERR(CL_INVALID_VALUE, copy(q, CL_TRUE, NULL, h, 4, 0, NULL, NULL));
    CHECK_ERR(CL_MEM_COPY_OVERLAP, copy(q, CL_TRUE, h + 1, h, 8, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, fill(q, s, &two, 3, 12, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, fill(q, (char *)s + 2, &two, 4, 8, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, fill(q, s, NULL, 4, 8, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE, fill(NULL, s, &two, 4, 8, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, migrate(q, s, bytes, 0x100, 0, NULL, NULL));

    /* s[i] += 3 * d[i] on the device: 2 + 3i. Migrations and advice on the way. */
    cl_program prog = cv_test_build(ctx, dev, 1, &src, NULL, "usm kernel", &err);
    REQUIRE(prog != NULL);
    cl_kernel k = clCreateKernel(prog, "axpy", &err);
    REQUIRE(k != NULL);
    int a = 3;
    CHECK_ERR(CL_SUCCESS, set_arg(k, 0, s));
    CHECK_ERR(CL_SUCCESS, set_arg(k, 1, d));
    CHECK_ERR(CL_INVALID_ARG_INDEX, set_arg(k, 3, d));
    CHECK_ERR(CL_INVALID_ARG_VALUE, set_arg(k, 2, d));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof a, &a));
    cl_bool yes = CL_TRUE;
    void *ptrs[2] = {d, s};
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                              sizeof yes, &yes));
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs));
    CHECK_ERR(CL_INVALID_VALUE,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL, 1, &yes));
    CHECK_ERR(CL_SUCCESS, migrate(q, s, bytes, 0, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, advise(q, s, bytes, 0, 0, NULL, NULL));
    size_t n = N;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, migrate(q, s, bytes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &e));
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_MIGRATEMEM_INTEL);
    clReleaseEvent(e);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    if (!cv_test_fake_cuda()) {
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += s[i] != 2 + 3 * i;
        CHECK(wrong == 0);
    } else {
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += s[i] != 2;
        CHECK(wrong == 0);
    }
    /* The device allocation back to host memory of the application (a blocking copy), then
     * into the host allocation. */
    int *back = calloc(N, sizeof *back);
    REQUIRE(back);
    CHECK_ERR(CL_SUCCESS, copy(q, CL_TRUE, back, d, bytes, 0, NULL, NULL));
    CHECK(memcmp(back, h, bytes) == 0);
    memset(h, 0, bytes);
    CHECK_ERR(CL_SUCCESS, copy(q, CL_TRUE, h, s, bytes, 0, NULL, NULL));
    CHECK(memcmp(h, s, bytes) == 0);
    free(back);

    /* Buffer reads and writes with a USM pointer as the host side: device memory is copied as
     * device memory (a staged copy would touch it on the host). */
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    REQUIRE(buf != NULL);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, bytes, d, 0, NULL, NULL));
    int *d2 = device_alloc(ctx, dev, NULL, bytes, 0, &err);
    REQUIRE(d2 != NULL);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, d2, 0, NULL, NULL));
    int *check = calloc(N, sizeof *check);
    REQUIRE(check);
    CHECK_ERR(CL_SUCCESS, copy(q, CL_TRUE, check, d2, bytes, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += check[i] != i;
    CHECK(wrong == 0);
    /* A rectangle of 16 rows of 64 bytes into the device allocation. */
    size_t origin[3] = {0, 0, 0}, region[3] = {64, 16, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBufferRect(q, buf, CL_TRUE, origin, origin, region, 128, 0,
                                                  64, 0, d2, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, copy(q, CL_TRUE, check, d2, 64 * 16, 0, NULL, NULL));
    wrong = 0;
    for (int row = 0; row < 16; row++)
        for (int i = 0; i < 16; i++)
            wrong += check[row * 16 + i] != row * 32 + i;
    CHECK(wrong == 0);
    free(check);
    clReleaseMemObject(buf);
    CHECK_ERR(CL_SUCCESS, mem_free(ctx, d2));

    clReleaseKernel(k);
    clReleaseProgram(prog);
    CHECK_ERR(CL_SUCCESS, mem_free(ctx, d));
    CHECK_ERR(CL_SUCCESS, blocking_free(ctx, h));
    /* s is left to the context's release. */
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("usm");
}
