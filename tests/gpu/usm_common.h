/* cl_intel_unified_shared_memory's functions for the USM tests (gpu/usm.c, gpu/usm_model.c): the
 * ICD loaders export none of them; usm_load takes them from the platform (a missing one fails the
 * test). */
#ifndef CV_TEST_USM_COMMON_H
#define CV_TEST_USM_COMMON_H

#include "test_util.h"

static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemFreeINTEL_fn mem_free;
static clMemBlockingFreeINTEL_fn blocking_free;
static clGetMemAllocInfoINTEL_fn alloc_info;
static clSetKernelArgMemPointerINTEL_fn set_arg;
static clEnqueueMemFillINTEL_fn fill;
static clEnqueueMemcpyINTEL_fn copy;
static clEnqueueMigrateMemINTEL_fn migrate;
static clEnqueueMemAdviseINTEL_fn advise;

static inline void usm_load(cl_platform_id platform) {
#define USM_FN(var, name) var = (name##_fn)cv_test_ext_fn(platform, #name)
    USM_FN(host_alloc, clHostMemAllocINTEL);
    USM_FN(device_alloc, clDeviceMemAllocINTEL);
    USM_FN(shared_alloc, clSharedMemAllocINTEL);
    USM_FN(mem_free, clMemFreeINTEL);
    USM_FN(blocking_free, clMemBlockingFreeINTEL);
    USM_FN(alloc_info, clGetMemAllocInfoINTEL);
    USM_FN(set_arg, clSetKernelArgMemPointerINTEL);
    USM_FN(fill, clEnqueueMemFillINTEL);
    USM_FN(copy, clEnqueueMemcpyINTEL);
    USM_FN(migrate, clEnqueueMigrateMemINTEL);
    USM_FN(advise, clEnqueueMemAdviseINTEL);
#undef USM_FN
}

#endif
