/* The OpenCL calls tests/gpu/subgroup_ext.c makes, renamed to fake_cl.c's: buffers in host
 * memory, kernels found by name in the executable and run on warp_emu.c. Included before
 * CL/cl.h (the prototypes there then declare the emu_ names). */
#ifndef FAKE_CL_H
#define FAKE_CL_H

#define clGetDeviceInfo                    emu_clGetDeviceInfo
#define clCreateContext                    emu_clCreateContext
#define clCreateCommandQueueWithProperties emu_clCreateCommandQueueWithProperties
#define clCreateProgramWithSource          emu_clCreateProgramWithSource
#define clBuildProgram                     emu_clBuildProgram
#define clGetProgramBuildInfo              emu_clGetProgramBuildInfo
#define clCreateKernel                     emu_clCreateKernel
#define clSetKernelArg                     emu_clSetKernelArg
#define clEnqueueNDRangeKernel             emu_clEnqueueNDRangeKernel
#define clEnqueueReadBuffer                emu_clEnqueueReadBuffer
#define clReleaseKernel                    emu_clReleaseKernel
#define clReleaseMemObject                 emu_clReleaseMemObject
#define clCreateBuffer                     emu_clCreateBuffer
#define clReleaseProgram                   emu_clReleaseProgram
#define clReleaseCommandQueue              emu_clReleaseCommandQueue
#define clReleaseContext                   emu_clReleaseContext
#define cv_test_gpu_device_or_skip         emu_device

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

cl_device_id emu_device(cl_platform_id *platform);

#endif
