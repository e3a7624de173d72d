/* Program-scope __global variables (OpenCL C 3.0, __opencl_c_program_scope_global_variables):
 * the device claims them with the sizes the spec asks for, their initial values are there at
 * the first launch, they keep their values from one launch to the next and are shared by the
 * program's kernels, each program has its own, a variable of the claimed maximum size works,
 * clGetProgramBuildInfo reports their size, kernels on a profiling queue (timed) see the same
 * variables as elsewhere, and OpenCL C 1.2 still refuses them. */
#include "test_util.h"

#include <stdbool.h>
#include <string.h>

static const char *src =
    "global int counter = 5;\n"
    "global float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
    "global int *global where = &counter;\n"
    "static global long total;\n"
    "global struct { int a; float b; } pair = {7, 0.5f};\n"
    "kernel void bump(void) {\n"
    "    atomic_fetch_add_explicit((volatile global atomic_int *)&counter, 1,\n"
    "                              memory_order_relaxed, memory_scope_work_group);\n"
    "}\n"
    "kernel void read_back(global long *out) {\n"
    "    total += counter;\n"
    "    out[0] = counter; out[1] = (long)table[3]; out[2] = *where; out[3] = total;\n"
    "    out[4] = pair.a + (long)(pair.b * 2.0f);\n"
    "}\n";

static cl_program build(cl_context ctx, cl_device_id dev, const char *text, const char *options,
                        cl_int *err) {
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, NULL, err);
    if (p && (*err = clBuildProgram(p, 1, &dev, options, NULL, NULL)) != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        if (strcmp(options, "-cl-std=CL1.2"))
            fprintf(stderr, "build failed (%d):\n%s\n", *err, log);
    }
    return p;
}

/* read_back's five values after `bumps` work-items of bump; on a profiling queue, with events
 * (the kernels that time themselves: their timed twins). */
static void run(cl_command_queue q, cl_program p, cl_mem out, size_t bumps, cl_long got[5]) {
    cl_int err;
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    bool timed = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
    cl_event e1 = NULL, e2 = NULL;
    cl_kernel b = clCreateKernel(p, "bump", &err), r = clCreateKernel(p, "read_back", &err);
    CHECK(b && r);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(r, 0, sizeof out, &out));
    size_t one = 1;
    if (bumps)
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueNDRangeKernel(q, b, 1, NULL, &bumps, NULL, 0, NULL, timed ? &e1 : NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(q, r, 1, NULL, &one, NULL, 0, NULL, timed ? &e2 : NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(q, out, CL_TRUE, 0, 5 * sizeof(cl_long), got, 0, NULL, NULL));
    if (e1)
        cv_test_check_profiled(e1);
    if (e2)
        cv_test_check_profiled(e2);
    clReleaseKernel(b);
    clReleaseKernel(r);
}

int main(void) {
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err;
    cl_command_queue q;
    cl_context ctx = cv_test_context(dev, &q);

    /* The claim: the feature, and at least the 64 KiB the spec asks of a device that has it. */
    CHECK(cv_test_has_c_feature(dev, "__opencl_c_program_scope_global_variables", 0));
    size_t max_var = 0, preferred = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max_var,
                                          &max_var, NULL));
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
                                          sizeof preferred, &preferred, NULL));
    CHECK(max_var >= 65536 && preferred >= max_var);

    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 5 * sizeof(cl_long), NULL, &err);
    REQUIRE(out != NULL);
    cl_program a = build(ctx, dev, src, "-cl-std=CL3.0", &err);
    REQUIRE(err == CL_SUCCESS);
    size_t total = 0;
    CHECK_ERR(CL_SUCCESS, clGetProgramBuildInfo(a, dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                                sizeof total, &total, NULL));
    CHECK(total >= 4 + 16 + 8 + 8 + 8);

    /* Initial values, then 1000 increments by one kernel seen by the other, then 24 more. */
    cl_long got[5];
    run(q, a, out, 0, got);
    CHECK(got[0] == 5 && got[1] == 4 && got[2] == 5 && got[3] == 5 && got[4] == 8);
    run(q, a, out, 1000, got);
    CHECK(got[0] == 1005 && got[2] == 1005 && got[3] == 5 + 1005);
    run(q, a, out, 24, got);
    CHECK(got[0] == 1029 && got[3] == 5 + 1005 + 1029);
    if (got[0] != 1029 || got[3] != 2039)
        fprintf(stderr, "counter %lld, total %lld\n", (long long)got[0], (long long)got[3]);

    /* Another program of the same source: its own variables, initialized again. */
    cl_program b = build(ctx, dev, src, "-cl-std=CL3.0", &err);
    REQUIRE(err == CL_SUCCESS);
    run(q, b, out, 3, got);
    CHECK(got[0] == 8 && got[3] == 8);
    run(q, a, out, 0, got);
    CHECK(got[0] == 1029);

    /* The same variables for the kernels on a profiling queue (their timed twins share the
     * entries' module): bumped there, read back there and here. */
    cl_command_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue pq = clCreateCommandQueueWithProperties(ctx, dev, prof, &err);
    REQUIRE(pq != NULL);
    run(pq, a, out, 10, got);
    CHECK(got[0] == 1039 && got[3] == 2039 + 1029 + 1039);
    run(q, a, out, 5, got);
    CHECK(got[0] == 1044 && got[3] == 2039 + 1029 + 1039 + 1044);
    if (got[0] != 1044)
        fprintf(stderr, "after the profiling queue: counter %lld, total %lld\n", (long long)got[0],
                (long long)got[3]);
    clReleaseCommandQueue(pq);

    /* A variable of the largest size claimed: written at both ends, read back. */
    char big[512];
    snprintf(big, sizeof big,
             "global uchar big[%zu];\n"
             "kernel void ends(global long *out) {\n"
             "    big[0] = 11; big[sizeof(big) - 1] = 22;\n"
             "    out[0] = big[0] + big[sizeof(big) - 1]; out[1] = sizeof(big);\n"
             "}\n",
             max_var);
    cl_program c = build(ctx, dev, big, "-cl-std=CL3.0", &err);
    CHECK(err == CL_SUCCESS);
    if (err == CL_SUCCESS) {
        cl_kernel k = clCreateKernel(c, "ends", &err);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof out, &out));
        size_t one = 1;
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadBuffer(q, out, CL_TRUE, 0, 2 * sizeof(cl_long), got, 0, NULL, NULL));
        CHECK(got[0] == 33 && (size_t)got[1] == max_var);
        clReleaseKernel(k);
    }
    if (c)
        clReleaseProgram(c);

    /* OpenCL C 1.2 has no program-scope __global variables: a build error, as before. */
    cl_program old = build(ctx, dev, src, "-cl-std=CL1.2", &err);
    CHECK(err == CL_BUILD_PROGRAM_FAILURE);
    if (old)
        clReleaseProgram(old);

    clReleaseProgram(a);
    clReleaseProgram(b);
    clReleaseMemObject(out);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("program_scope_globals");
}
