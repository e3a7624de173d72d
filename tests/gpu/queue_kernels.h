/* A kernel that spins for a given number of nanoseconds on %globaltimer, from PTX given to
 * clCreateProgramWithBinary. The tests that use it skip (77) while the branch they are built on
 * has no PTX programs yet (CL_INVALID_OPERATION). */
#ifndef CV_QUEUE_KERNELS_H
#define CV_QUEUE_KERNELS_H

#include "queue_test.h"

static const char qt_spin_ptx[] = ".version 7.0\n"
                                  ".target sm_70\n"
                                  ".address_size 64\n"
                                  ".visible .entry spin(.param .u64 ns)\n"
                                  "{\n"
                                  "  .reg .pred p;\n"
                                  "  .reg .u64 t0, t1, d, lim;\n"
                                  "  ld.param.u64 lim, [ns];\n"
                                  "  mov.u64 t0, %globaltimer;\n"
                                  "LOOP:\n"
                                  "  mov.u64 t1, %globaltimer;\n"
                                  "  sub.u64 d, t1, t0;\n"
                                  "  setp.lt.u64 p, d, lim;\n"
                                  "  @p bra LOOP;\n"
                                  "  ret;\n"
                                  "}\n"
                                  ".visible .entry fault(.param .u64 addr)\n"
                                  "{\n"
                                  "  .reg .u64 a;\n"
                                  "  .reg .u32 v;\n"
                                  "  ld.param.u64 a, [addr];\n"
                                  "  mov.u32 v, 1;\n"
                                  "  st.global.u32 [a], v;\n"
                                  "  ret;\n"
                                  "}\n";

static inline cl_kernel qt_kernel(const char *name) {
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    size_t len = sizeof qt_spin_ptx;
    const unsigned char *bin = (const unsigned char *)qt_spin_ptx;
    cl_program p = clCreateProgramWithBinary(qt_context, 1, &qt_device, &len, &bin, &status, &err);
    if (err == CL_INVALID_OPERATION) {
        fprintf(stderr, "clCreateProgramWithBinary is not in this build yet: skipped\n");
        exit(CV_TEST_SKIP);
    }
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &qt_device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k);
    clReleaseProgram(p);
    return k;
}

/* Enqueues spin(ns) as one work-item. */
static inline cl_int qt_spin(cl_command_queue q, cl_kernel k, cl_ulong ns, cl_uint n,
                             const cl_event *wait, cl_event *e) {
    size_t one = 1;
    cl_int err = clSetKernelArg(k, 0, sizeof ns, &ns);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, n, wait, e);
    return err;
}

#endif
