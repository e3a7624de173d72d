/* What the command-buffer tests share: the extension's functions (the revision culvert
 * implements, src/util/cl_khr_command_buffer.h), a context and queues on the culvert device, and
 * a small PTX kernel. Under the fake driver (tests/fake_cuda) copies, fills and host-value
 * operations run but kernels do not: their launches are recorded, and the tests read them. */
#ifndef CV_TEST_COMMAND_BUFFER_COMMON_H
#define CV_TEST_COMMAND_BUFFER_COMMON_H

#include "util/cl_khr_command_buffer.h" /* first: it reads CL/cl_ext.h itself */

#include "fake_cuda.h"
#include "test_util.h"

#include <string.h>

typedef struct cbt_api {
    clCreateCommandBufferKHR_fn create;
    clRetainCommandBufferKHR_fn retain;
    clReleaseCommandBufferKHR_fn release;
    clFinalizeCommandBufferKHR_fn finalize;
    clEnqueueCommandBufferKHR_fn enqueue;
    clCommandBarrierWithWaitListKHR_fn barrier;
    clCommandCopyBufferKHR_fn copy;
    clCommandCopyBufferRectKHR_fn copy_rect;
    clCommandCopyBufferToImageKHR_fn copy_to_image;
    clCommandCopyImageKHR_fn copy_image;
    clCommandCopyImageToBufferKHR_fn copy_from_image;
    clCommandFillBufferKHR_fn fill;
    clCommandFillImageKHR_fn fill_image;
    clCommandNDRangeKernelKHR_fn ndrange;
    clCommandSVMMemcpyKHR_fn svm_copy;
    clCommandSVMMemFillKHR_fn svm_fill;
    clGetCommandBufferInfoKHR_fn info;
    clUpdateMutableCommandsKHR_fn update;
    clGetMutableCommandInfoKHR_fn command_info;
    clCommandWaitHostValueCULVERT_fn wait_value;
    clCommandWriteHostValueCULVERT_fn write_value;
    clCreateHostValue_fn host_value;
    clSignalHostValue_fn signal;
    clLoadHostValue_fn load;
} cbt_api;

static cbt_api cbt;
static cl_platform_id cbt_platform;
static cl_device_id cbt_device;
static cl_context cbt_context;
static cl_command_queue cbt_queue, cbt_ooo_queue;
static fakecuda_state *cbt_fake; /* NULL on a real driver */

#define CBT_FN(field, name) cbt.field = (name##_fn)cv_test_ext_fn(cbt_platform, #name)

/* The device and the extension's functions; skips (77) without a culvert device or without the
 * extension. */
static inline void cbt_load(void) {
    cbt_device = cv_test_gpu_device_or_skip(&cbt_platform);
    char ext[8192] = "";
    clGetDeviceInfo(cbt_device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    if (!strstr(ext, "cl_khr_command_buffer ")) {
        fprintf(stderr, "no cl_khr_command_buffer: skipped\n");
        exit(CV_TEST_SKIP);
    }
    CBT_FN(create, clCreateCommandBufferKHR);
    CBT_FN(retain, clRetainCommandBufferKHR);
    CBT_FN(release, clReleaseCommandBufferKHR);
    CBT_FN(finalize, clFinalizeCommandBufferKHR);
    CBT_FN(enqueue, clEnqueueCommandBufferKHR);
    CBT_FN(barrier, clCommandBarrierWithWaitListKHR);
    CBT_FN(copy, clCommandCopyBufferKHR);
    CBT_FN(copy_rect, clCommandCopyBufferRectKHR);
    CBT_FN(copy_to_image, clCommandCopyBufferToImageKHR);
    CBT_FN(copy_image, clCommandCopyImageKHR);
    CBT_FN(copy_from_image, clCommandCopyImageToBufferKHR);
    CBT_FN(fill, clCommandFillBufferKHR);
    CBT_FN(fill_image, clCommandFillImageKHR);
    CBT_FN(ndrange, clCommandNDRangeKernelKHR);
    CBT_FN(svm_copy, clCommandSVMMemcpyKHR);
    CBT_FN(svm_fill, clCommandSVMMemFillKHR);
    CBT_FN(info, clGetCommandBufferInfoKHR);
    CBT_FN(update, clUpdateMutableCommandsKHR);
    CBT_FN(command_info, clGetMutableCommandInfoKHR);
    CBT_FN(wait_value, clCommandWaitHostValueCULVERT);
    CBT_FN(write_value, clCommandWriteHostValueCULVERT);
    CBT_FN(host_value, clCreateHostValue);
    CBT_FN(signal, clSignalHostValue);
    CBT_FN(load, clLoadHostValue);
    cbt_fake = fakecuda_find();
}

/* cbt_load, then a context and two queues (in order, out of order). */
static inline void cbt_setup(void) {
    cl_int err = CL_SUCCESS;
    cbt_load();
    cbt_context = clCreateContext(NULL, 1, &cbt_device, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cbt_queue = clCreateCommandQueue(cbt_context, cbt_device, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    cbt_ooo_queue =
        clCreateCommandQueue(cbt_context, cbt_device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    REQUIRE(err == CL_SUCCESS);
}

static inline void cbt_teardown(void) {
    clReleaseCommandQueue(cbt_ooo_queue);
    clReleaseCommandQueue(cbt_queue);
    clReleaseContext(cbt_context);
}

/* A command buffer on q with the flags given (0: no properties at all). */
static inline cl_command_buffer_khr cbt_new(cl_command_queue q, cl_command_buffer_flags_khr flags) {
    cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR, flags, 0};
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = cbt.create(1, &q, flags ? props : NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(cb);
    return cb;
}

/* add(buf, v): buf[i] += v for every work-item i (PTX as nvcc writes it: no launch
 * information, so no global offset and uniform work-groups only). */
static const char cbt_add_ptx[] = ".version 7.0\n"
                                  ".target sm_70\n"
                                  ".address_size 64\n"
                                  ".visible .entry add(.param .u64 buf, .param .u32 v)\n"
                                  "{\n"
                                  "  .reg .u32 r<6>;\n"
                                  "  .reg .u64 a, off;\n"
                                  "  ld.param.u64 a, [buf];\n"
                                  "  ld.param.u32 r0, [v];\n"
                                  "  mov.u32 r1, %ctaid.x;\n"
                                  "  mov.u32 r2, %ntid.x;\n"
                                  "  mov.u32 r3, %tid.x;\n"
                                  "  mad.lo.u32 r4, r1, r2, r3;\n"
                                  "  mul.wide.u32 off, r4, 4;\n"
                                  "  add.u64 a, a, off;\n"
                                  "  ld.global.u32 r5, [a];\n"
                                  "  add.u32 r5, r5, r0;\n"
                                  "  st.global.u32 [a], r5;\n"
                                  "  ret;\n"
                                  "}\n";

/* The program of add, built. */
static inline cl_program cbt_add_program(void) {
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    size_t len = sizeof cbt_add_ptx;
    const unsigned char *bin = (const unsigned char *)cbt_add_ptx;
    cl_program p =
        clCreateProgramWithBinary(cbt_context, 1, &cbt_device, &len, &bin, &status, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &cbt_device, "", NULL, NULL));
    return p;
}

static inline cl_kernel cbt_add_kernel(void) {
    cl_int err = CL_SUCCESS;
    cl_program p = cbt_add_program();
    cl_kernel k = clCreateKernel(p, "add", &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k);
    clReleaseProgram(p);
    return k;
}

/* Reads n ints of a buffer (blocking). */
static inline void cbt_read(cl_mem m, cl_int *out, size_t n) {
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(cbt_queue, m, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
}

/* Are all n ints v? */
static inline int cbt_all(const cl_int *a, size_t n, cl_int v) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != v)
            return 0;
    return 1;
}

#endif
