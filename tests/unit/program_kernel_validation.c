/* Program and kernel entry points refuse bad handles and arguments with the spec's errors, with
 * no GPU. The ICD loader answers NULL handles itself, so the calls go through culvert's own
 * dispatch table (read from the platform handle, as the loader does); the platform handle also
 * serves as an object of the wrong type. */
#include "test_util.h"

#include <CL/cl_icd.h>
#include <string.h>

static void CL_CALLBACK notify(cl_program p, void *user_data) {
    (void)p;
    (void)user_data;
}

int main(void) {
    setenv("CULVERT_EMPTY_PLATFORM", "1", 1);
    cl_platform_id plat = cv_test_culvert_platform();
    if (!plat) {
        fprintf(stderr, "culvert platform not found even with CULVERT_EMPTY_PLATFORM=1\n");
        return 1;
    }
    const cl_icd_dispatch *d = *(const cl_icd_dispatch *const *)plat;
    cl_context wrong_ctx = (cl_context)plat;
    cl_program wrong_p = (cl_program)plat;
    cl_kernel wrong_k = (cl_kernel)plat;
    cl_command_queue wrong_q = (cl_command_queue)plat;
    cl_device_id wrong_dev = (cl_device_id)plat;
    cl_int err;
    const char *src = "kernel void k(void) {}";
    static const unsigned char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n";
    const unsigned char *bins[1] = {ptx};
    size_t len = sizeof ptx, size = 0;
    cl_int status = 0;

    for (int i = 0; i < 2; i++) {
        cl_context c = i ? wrong_ctx : NULL;
        cl_program p = i ? wrong_p : NULL;
        cl_kernel k = i ? wrong_k : NULL;
        cl_command_queue q = i ? wrong_q : NULL;

        /* "CL_INVALID_CONTEXT if context is not a valid context." */
        err = 0;
        CHECK(d->clCreateProgramWithSource(c, 1, &src, NULL, &err) == NULL);
        CHECK_ERR(CL_INVALID_CONTEXT, err);
        err = 0;
        CHECK(d->clCreateProgramWithBinary(c, 1, &wrong_dev, &len, bins, &status, &err) == NULL);
        CHECK_ERR(CL_INVALID_CONTEXT, err);
        err = 0;
        CHECK(d->clLinkProgram(c, 0, NULL, NULL, 1, &wrong_p, NULL, NULL, &err) == NULL);
        CHECK_ERR(CL_INVALID_CONTEXT, err);
        CHECK(d->clCreateProgramWithSource(c, 1, &src, NULL, NULL) == NULL);

        /* "CL_INVALID_PROGRAM if program is not a valid program object." */
        CHECK_ERR(CL_INVALID_PROGRAM, d->clRetainProgram(p));
        CHECK_ERR(CL_INVALID_PROGRAM, d->clReleaseProgram(p));
        CHECK_ERR(CL_INVALID_PROGRAM, d->clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
        CHECK_ERR(CL_INVALID_PROGRAM,
                  d->clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL));
        CHECK_ERR(CL_INVALID_PROGRAM,
                  d->clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof size, &size, NULL));
        CHECK_ERR(CL_INVALID_PROGRAM,
                  d->clGetProgramBuildInfo(p, wrong_dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size));
        CHECK_ERR(CL_INVALID_PROGRAM, d->clSetProgramReleaseCallback(p, notify, NULL));
        err = 0;
        CHECK(d->clCreateKernel(p, "k", &err) == NULL);
        CHECK_ERR(CL_INVALID_PROGRAM, err);
        cl_uint n = 0;
        CHECK_ERR(CL_INVALID_PROGRAM, d->clCreateKernelsInProgram(p, 0, NULL, &n));

        /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
        CHECK_ERR(CL_INVALID_KERNEL, d->clRetainKernel(k));
        CHECK_ERR(CL_INVALID_KERNEL, d->clReleaseKernel(k));
        CHECK_ERR(CL_INVALID_KERNEL, d->clSetKernelArg(k, 0, sizeof n, &n));
        CHECK_ERR(CL_INVALID_KERNEL, d->clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL));
        CHECK_ERR(CL_INVALID_KERNEL,
                  d->clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, NULL, &size));
        CHECK_ERR(CL_INVALID_KERNEL, d->clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE,
                                                                 sizeof size, &size, NULL));
        CHECK_ERR(CL_INVALID_KERNEL,
                  d->clGetKernelSubGroupInfo(k, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                             sizeof size, &size, NULL));
        CHECK_ERR(CL_INVALID_KERNEL,
                  d->clGetKernelSubGroupInfoKHR(k, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                                sizeof size, &size, NULL));
        CHECK_ERR(CL_INVALID_KERNEL,
                  d->clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL));
        err = 0;
        CHECK(d->clCloneKernel(k, &err) == NULL);
        CHECK_ERR(CL_INVALID_KERNEL, err);

        /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
        size_t global = 64;
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueNDRangeKernel(q, wrong_k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clEnqueueTask(q, wrong_k, 0, NULL, NULL));
    }

    /* The argument checks that come before any object is looked at. */
    err = 0;
    CHECK(d->clCreateProgramWithSource(wrong_ctx, 0, &src, NULL, &err) == NULL);
    CHECK(err == CL_INVALID_CONTEXT); /* the context is checked first */

    return cv_test_report("program_kernel_validation");
}
