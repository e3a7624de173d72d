/* cl_khr_command_buffer as culvert implements it: revision 0.9.8, with
 * cl_khr_command_buffer_mutable_dispatch 0.9.5 (the revisions of OpenCL-Headers v2025.07 that the
 * Khronos CTS is built with). Include this instead of <CL/cl_ext.h>, before anything else includes
 * that header.
 *
 * Why: the Khronos headers declare the command-buffer extensions under the same names in every
 * revision, with different parameters. Debian 12's opencl-headers (3.0~2023.02.06) declare an
 * older revision without the beta guard (no properties argument on the recording commands, a
 * cl_mutable_dispatch_config_khr with type/next members, CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
 * 1); newer headers declare 0.9.8 only with CL_ENABLE_BETA_EXTENSIONS. So while <CL/cl_ext.h> is
 * read, its command-buffer functions, function types and mutable-dispatch structs are renamed
 * (cvu_stale_ prefix) whatever revision it holds, and the revision below is declared after it:
 * the types, the enums, and the `_t` / `_fn` function types (no prototypes: the ICD loaders export
 * none of these functions; get them with clGetExtensionFunctionAddressForPlatform).
 *
 * Where CL/cl_ext.h came first (a test that includes it and then a core header), its names are
 * taken: only the enums and the scalar types follow, and CVU_CL_KHR_COMMAND_BUFFER_FULL stays
 * undefined. */
#ifndef CVU_CL_KHR_COMMAND_BUFFER_H
#define CVU_CL_KHR_COMMAND_BUFFER_H

#include <CL/cl.h>

#if !defined(__CL_EXT_H) && !defined(OPENCL_CL_EXT_H_)
#define CVU_CL_KHR_COMMAND_BUFFER_FULL 1

/* --- the header's own revision, renamed away --------------------------------------------------- */
#define CVU_STALE_CB(name) name##_cvu_stale
#define clCreateCommandBufferKHR           CVU_STALE_CB(clCreateCommandBufferKHR)
#define clCreateCommandBufferKHR_fn        CVU_STALE_CB(clCreateCommandBufferKHR_fn)
#define clCreateCommandBufferKHR_t         CVU_STALE_CB(clCreateCommandBufferKHR_t)
#define clFinalizeCommandBufferKHR         CVU_STALE_CB(clFinalizeCommandBufferKHR)
#define clFinalizeCommandBufferKHR_fn      CVU_STALE_CB(clFinalizeCommandBufferKHR_fn)
#define clFinalizeCommandBufferKHR_t       CVU_STALE_CB(clFinalizeCommandBufferKHR_t)
#define clRetainCommandBufferKHR           CVU_STALE_CB(clRetainCommandBufferKHR)
#define clRetainCommandBufferKHR_fn        CVU_STALE_CB(clRetainCommandBufferKHR_fn)
#define clRetainCommandBufferKHR_t         CVU_STALE_CB(clRetainCommandBufferKHR_t)
#define clReleaseCommandBufferKHR          CVU_STALE_CB(clReleaseCommandBufferKHR)
#define clReleaseCommandBufferKHR_fn       CVU_STALE_CB(clReleaseCommandBufferKHR_fn)
#define clReleaseCommandBufferKHR_t        CVU_STALE_CB(clReleaseCommandBufferKHR_t)
#define clEnqueueCommandBufferKHR          CVU_STALE_CB(clEnqueueCommandBufferKHR)
#define clEnqueueCommandBufferKHR_fn       CVU_STALE_CB(clEnqueueCommandBufferKHR_fn)
#define clEnqueueCommandBufferKHR_t        CVU_STALE_CB(clEnqueueCommandBufferKHR_t)
#define clCommandBarrierWithWaitListKHR    CVU_STALE_CB(clCommandBarrierWithWaitListKHR)
#define clCommandBarrierWithWaitListKHR_fn CVU_STALE_CB(clCommandBarrierWithWaitListKHR_fn)
#define clCommandBarrierWithWaitListKHR_t  CVU_STALE_CB(clCommandBarrierWithWaitListKHR_t)
#define clCommandCopyBufferKHR             CVU_STALE_CB(clCommandCopyBufferKHR)
#define clCommandCopyBufferKHR_fn          CVU_STALE_CB(clCommandCopyBufferKHR_fn)
#define clCommandCopyBufferKHR_t           CVU_STALE_CB(clCommandCopyBufferKHR_t)
#define clCommandCopyBufferRectKHR         CVU_STALE_CB(clCommandCopyBufferRectKHR)
#define clCommandCopyBufferRectKHR_fn      CVU_STALE_CB(clCommandCopyBufferRectKHR_fn)
#define clCommandCopyBufferRectKHR_t       CVU_STALE_CB(clCommandCopyBufferRectKHR_t)
#define clCommandCopyBufferToImageKHR      CVU_STALE_CB(clCommandCopyBufferToImageKHR)
#define clCommandCopyBufferToImageKHR_fn   CVU_STALE_CB(clCommandCopyBufferToImageKHR_fn)
#define clCommandCopyBufferToImageKHR_t    CVU_STALE_CB(clCommandCopyBufferToImageKHR_t)
#define clCommandCopyImageKHR              CVU_STALE_CB(clCommandCopyImageKHR)
#define clCommandCopyImageKHR_fn           CVU_STALE_CB(clCommandCopyImageKHR_fn)
#define clCommandCopyImageKHR_t            CVU_STALE_CB(clCommandCopyImageKHR_t)
#define clCommandCopyImageToBufferKHR      CVU_STALE_CB(clCommandCopyImageToBufferKHR)
#define clCommandCopyImageToBufferKHR_fn   CVU_STALE_CB(clCommandCopyImageToBufferKHR_fn)
#define clCommandCopyImageToBufferKHR_t    CVU_STALE_CB(clCommandCopyImageToBufferKHR_t)
#define clCommandFillBufferKHR             CVU_STALE_CB(clCommandFillBufferKHR)
#define clCommandFillBufferKHR_fn          CVU_STALE_CB(clCommandFillBufferKHR_fn)
#define clCommandFillBufferKHR_t           CVU_STALE_CB(clCommandFillBufferKHR_t)
#define clCommandFillImageKHR              CVU_STALE_CB(clCommandFillImageKHR)
#define clCommandFillImageKHR_fn           CVU_STALE_CB(clCommandFillImageKHR_fn)
#define clCommandFillImageKHR_t            CVU_STALE_CB(clCommandFillImageKHR_t)
#define clCommandNDRangeKernelKHR          CVU_STALE_CB(clCommandNDRangeKernelKHR)
#define clCommandNDRangeKernelKHR_fn       CVU_STALE_CB(clCommandNDRangeKernelKHR_fn)
#define clCommandNDRangeKernelKHR_t        CVU_STALE_CB(clCommandNDRangeKernelKHR_t)
#define clCommandSVMMemcpyKHR              CVU_STALE_CB(clCommandSVMMemcpyKHR)
#define clCommandSVMMemcpyKHR_fn           CVU_STALE_CB(clCommandSVMMemcpyKHR_fn)
#define clCommandSVMMemcpyKHR_t            CVU_STALE_CB(clCommandSVMMemcpyKHR_t)
#define clCommandSVMMemFillKHR             CVU_STALE_CB(clCommandSVMMemFillKHR)
#define clCommandSVMMemFillKHR_fn          CVU_STALE_CB(clCommandSVMMemFillKHR_fn)
#define clCommandSVMMemFillKHR_t           CVU_STALE_CB(clCommandSVMMemFillKHR_t)
#define clGetCommandBufferInfoKHR          CVU_STALE_CB(clGetCommandBufferInfoKHR)
#define clGetCommandBufferInfoKHR_fn       CVU_STALE_CB(clGetCommandBufferInfoKHR_fn)
#define clGetCommandBufferInfoKHR_t        CVU_STALE_CB(clGetCommandBufferInfoKHR_t)
#define clRemapCommandBufferKHR            CVU_STALE_CB(clRemapCommandBufferKHR)
#define clRemapCommandBufferKHR_fn         CVU_STALE_CB(clRemapCommandBufferKHR_fn)
#define clRemapCommandBufferKHR_t          CVU_STALE_CB(clRemapCommandBufferKHR_t)
#define clUpdateMutableCommandsKHR         CVU_STALE_CB(clUpdateMutableCommandsKHR)
#define clUpdateMutableCommandsKHR_fn      CVU_STALE_CB(clUpdateMutableCommandsKHR_fn)
#define clUpdateMutableCommandsKHR_t       CVU_STALE_CB(clUpdateMutableCommandsKHR_t)
#define clGetMutableCommandInfoKHR         CVU_STALE_CB(clGetMutableCommandInfoKHR)
#define clGetMutableCommandInfoKHR_fn      CVU_STALE_CB(clGetMutableCommandInfoKHR_fn)
#define clGetMutableCommandInfoKHR_t       CVU_STALE_CB(clGetMutableCommandInfoKHR_t)
#define _cl_mutable_dispatch_arg_khr       CVU_STALE_CB(_cl_mutable_dispatch_arg_khr)
#define cl_mutable_dispatch_arg_khr        CVU_STALE_CB(cl_mutable_dispatch_arg_khr)
#define _cl_mutable_dispatch_exec_info_khr CVU_STALE_CB(_cl_mutable_dispatch_exec_info_khr)
#define cl_mutable_dispatch_exec_info_khr  CVU_STALE_CB(cl_mutable_dispatch_exec_info_khr)
#define _cl_mutable_dispatch_config_khr    CVU_STALE_CB(_cl_mutable_dispatch_config_khr)
#define cl_mutable_dispatch_config_khr     CVU_STALE_CB(cl_mutable_dispatch_config_khr)
#define _cl_mutable_base_config_khr        CVU_STALE_CB(_cl_mutable_base_config_khr)
#define cl_mutable_base_config_khr         CVU_STALE_CB(cl_mutable_base_config_khr)

#include <CL/cl_ext.h>

#undef clCreateCommandBufferKHR
#undef clCreateCommandBufferKHR_fn
#undef clCreateCommandBufferKHR_t
#undef clFinalizeCommandBufferKHR
#undef clFinalizeCommandBufferKHR_fn
#undef clFinalizeCommandBufferKHR_t
#undef clRetainCommandBufferKHR
#undef clRetainCommandBufferKHR_fn
#undef clRetainCommandBufferKHR_t
#undef clReleaseCommandBufferKHR
#undef clReleaseCommandBufferKHR_fn
#undef clReleaseCommandBufferKHR_t
#undef clEnqueueCommandBufferKHR
#undef clEnqueueCommandBufferKHR_fn
#undef clEnqueueCommandBufferKHR_t
#undef clCommandBarrierWithWaitListKHR
#undef clCommandBarrierWithWaitListKHR_fn
#undef clCommandBarrierWithWaitListKHR_t
#undef clCommandCopyBufferKHR
#undef clCommandCopyBufferKHR_fn
#undef clCommandCopyBufferKHR_t
#undef clCommandCopyBufferRectKHR
#undef clCommandCopyBufferRectKHR_fn
#undef clCommandCopyBufferRectKHR_t
#undef clCommandCopyBufferToImageKHR
#undef clCommandCopyBufferToImageKHR_fn
#undef clCommandCopyBufferToImageKHR_t
#undef clCommandCopyImageKHR
#undef clCommandCopyImageKHR_fn
#undef clCommandCopyImageKHR_t
#undef clCommandCopyImageToBufferKHR
#undef clCommandCopyImageToBufferKHR_fn
#undef clCommandCopyImageToBufferKHR_t
#undef clCommandFillBufferKHR
#undef clCommandFillBufferKHR_fn
#undef clCommandFillBufferKHR_t
#undef clCommandFillImageKHR
#undef clCommandFillImageKHR_fn
#undef clCommandFillImageKHR_t
#undef clCommandNDRangeKernelKHR
#undef clCommandNDRangeKernelKHR_fn
#undef clCommandNDRangeKernelKHR_t
#undef clCommandSVMMemcpyKHR
#undef clCommandSVMMemcpyKHR_fn
#undef clCommandSVMMemcpyKHR_t
#undef clCommandSVMMemFillKHR
#undef clCommandSVMMemFillKHR_fn
#undef clCommandSVMMemFillKHR_t
#undef clGetCommandBufferInfoKHR
#undef clGetCommandBufferInfoKHR_fn
#undef clGetCommandBufferInfoKHR_t
#undef clRemapCommandBufferKHR
#undef clRemapCommandBufferKHR_fn
#undef clRemapCommandBufferKHR_t
#undef clUpdateMutableCommandsKHR
#undef clUpdateMutableCommandsKHR_fn
#undef clUpdateMutableCommandsKHR_t
#undef clGetMutableCommandInfoKHR
#undef clGetMutableCommandInfoKHR_fn
#undef clGetMutableCommandInfoKHR_t
#undef _cl_mutable_dispatch_arg_khr
#undef cl_mutable_dispatch_arg_khr
#undef _cl_mutable_dispatch_exec_info_khr
#undef cl_mutable_dispatch_exec_info_khr
#undef _cl_mutable_dispatch_config_khr
#undef cl_mutable_dispatch_config_khr
#undef _cl_mutable_base_config_khr
#undef cl_mutable_base_config_khr
#undef CVU_STALE_CB
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* --- cl_khr_command_buffer 0.9.8 ---------------------------------------------------------------- */
#undef CL_KHR_COMMAND_BUFFER_EXTENSION_NAME
#define CL_KHR_COMMAND_BUFFER_EXTENSION_NAME "cl_khr_command_buffer"
#undef CL_KHR_COMMAND_BUFFER_EXTENSION_VERSION
#define CL_KHR_COMMAND_BUFFER_EXTENSION_VERSION CL_MAKE_VERSION(0, 9, 8)

/* Scalar and handle types: the same in every revision (a repeated typedef is valid C11). */
typedef cl_bitfield cl_device_command_buffer_capabilities_khr;
typedef struct _cl_command_buffer_khr *cl_command_buffer_khr;
typedef cl_uint cl_sync_point_khr;
typedef cl_uint cl_command_buffer_info_khr;
typedef cl_uint cl_command_buffer_state_khr;
typedef cl_properties cl_command_buffer_properties_khr;
typedef cl_bitfield cl_command_buffer_flags_khr;
typedef cl_properties cl_command_properties_khr;
typedef struct _cl_mutable_command_khr *cl_mutable_command_khr;

#undef CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR 0x12A9
#undef CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR 0x129A
#undef CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR
#define CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR 0x12AA
#undef CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR
#define CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR (1 << 0)
#undef CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR
#define CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR (1 << 1)
#undef CL_COMMAND_BUFFER_FLAGS_KHR
#define CL_COMMAND_BUFFER_FLAGS_KHR 0x1293
#undef CL_INVALID_COMMAND_BUFFER_KHR
#define CL_INVALID_COMMAND_BUFFER_KHR -1138
#undef CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
#define CL_INVALID_SYNC_POINT_WAIT_LIST_KHR -1139
#undef CL_INCOMPATIBLE_COMMAND_QUEUE_KHR
#define CL_INCOMPATIBLE_COMMAND_QUEUE_KHR -1140
#undef CL_COMMAND_BUFFER_QUEUES_KHR
#define CL_COMMAND_BUFFER_QUEUES_KHR 0x1294
#undef CL_COMMAND_BUFFER_NUM_QUEUES_KHR
#define CL_COMMAND_BUFFER_NUM_QUEUES_KHR 0x1295
#undef CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR
#define CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR 0x1296
#undef CL_COMMAND_BUFFER_STATE_KHR
#define CL_COMMAND_BUFFER_STATE_KHR 0x1297
#undef CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR
#define CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR 0x1298
#undef CL_COMMAND_BUFFER_CONTEXT_KHR
#define CL_COMMAND_BUFFER_CONTEXT_KHR 0x1299
#undef CL_COMMAND_BUFFER_STATE_RECORDING_KHR
#define CL_COMMAND_BUFFER_STATE_RECORDING_KHR 0
#undef CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
#define CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR 1
#undef CL_COMMAND_COMMAND_BUFFER_KHR
#define CL_COMMAND_COMMAND_BUFFER_KHR 0x12A8

#ifdef CVU_CL_KHR_COMMAND_BUFFER_FULL
typedef cl_command_buffer_khr CL_API_CALL clCreateCommandBufferKHR_t(
    cl_uint num_queues, const cl_command_queue *queues,
    const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret);
typedef clCreateCommandBufferKHR_t *clCreateCommandBufferKHR_fn;
typedef cl_int CL_API_CALL clFinalizeCommandBufferKHR_t(cl_command_buffer_khr command_buffer);
typedef clFinalizeCommandBufferKHR_t *clFinalizeCommandBufferKHR_fn;
typedef cl_int CL_API_CALL clRetainCommandBufferKHR_t(cl_command_buffer_khr command_buffer);
typedef clRetainCommandBufferKHR_t *clRetainCommandBufferKHR_fn;
typedef cl_int CL_API_CALL clReleaseCommandBufferKHR_t(cl_command_buffer_khr command_buffer);
typedef clReleaseCommandBufferKHR_t *clReleaseCommandBufferKHR_fn;
typedef cl_int CL_API_CALL clEnqueueCommandBufferKHR_t(cl_uint num_queues, cl_command_queue *queues,
                                                       cl_command_buffer_khr command_buffer,
                                                       cl_uint num_events_in_wait_list,
                                                       const cl_event *event_wait_list,
                                                       cl_event *event);
typedef clEnqueueCommandBufferKHR_t *clEnqueueCommandBufferKHR_fn;
typedef cl_int CL_API_CALL clCommandBarrierWithWaitListKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandBarrierWithWaitListKHR_t *clCommandBarrierWithWaitListKHR_fn;
typedef cl_int CL_API_CALL clCommandCopyBufferKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandCopyBufferKHR_t *clCommandCopyBufferKHR_fn;
typedef cl_int CL_API_CALL clCommandCopyBufferRectKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef clCommandCopyBufferRectKHR_t *clCommandCopyBufferRectKHR_fn;
typedef cl_int CL_API_CALL clCommandCopyBufferToImageKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef clCommandCopyBufferToImageKHR_t *clCommandCopyBufferToImageKHR_fn;
typedef cl_int CL_API_CALL clCommandCopyImageKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef clCommandCopyImageKHR_t *clCommandCopyImageKHR_fn;
typedef cl_int CL_API_CALL clCommandCopyImageToBufferKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef clCommandCopyImageToBufferKHR_t *clCommandCopyImageToBufferKHR_fn;
typedef cl_int CL_API_CALL clCommandFillBufferKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandFillBufferKHR_t *clCommandFillBufferKHR_fn;
typedef cl_int CL_API_CALL clCommandFillImageKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem image, const void *fill_color,
    const size_t *origin, const size_t *region, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandFillImageKHR_t *clCommandFillImageKHR_fn;
typedef cl_int CL_API_CALL clCommandNDRangeKernelKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandNDRangeKernelKHR_t *clCommandNDRangeKernelKHR_fn;
typedef cl_int CL_API_CALL clGetCommandBufferInfoKHR_t(cl_command_buffer_khr command_buffer,
                                                       cl_command_buffer_info_khr param_name,
                                                       size_t param_value_size, void *param_value,
                                                       size_t *param_value_size_ret);
typedef clGetCommandBufferInfoKHR_t *clGetCommandBufferInfoKHR_fn;
typedef cl_int CL_API_CALL clCommandSVMMemcpyKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, void *dst_ptr, const void *src_ptr, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle);
typedef clCommandSVMMemcpyKHR_t *clCommandSVMMemcpyKHR_fn;
typedef cl_int CL_API_CALL clCommandSVMMemFillKHR_t(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, void *svm_ptr, const void *pattern,
    size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle);
typedef clCommandSVMMemFillKHR_t *clCommandSVMMemFillKHR_fn;
#endif

/* --- cl_khr_command_buffer_multi_device 0.9.2: the flag a creation may name ------------------- */
#undef CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR
#define CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR (1 << 2)

/* --- cl_khr_command_buffer_mutable_dispatch 0.9.5 ---------------------------------------------- */
#undef CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_NAME
#define CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_NAME "cl_khr_command_buffer_mutable_dispatch"
#undef CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_VERSION
#define CL_KHR_COMMAND_BUFFER_MUTABLE_DISPATCH_EXTENSION_VERSION CL_MAKE_VERSION(0, 9, 5)

typedef cl_uint cl_command_buffer_update_type_khr;
typedef cl_bitfield cl_mutable_dispatch_fields_khr;
typedef cl_uint cl_mutable_command_info_khr;
#ifdef CVU_CL_KHR_COMMAND_BUFFER_FULL
typedef struct _cl_mutable_dispatch_arg_khr {
    cl_uint arg_index;
    size_t arg_size;
    const void *arg_value;
} cl_mutable_dispatch_arg_khr;
typedef struct _cl_mutable_dispatch_exec_info_khr {
    cl_uint param_name;
    size_t param_value_size;
    const void *param_value;
} cl_mutable_dispatch_exec_info_khr;
typedef struct _cl_mutable_dispatch_config_khr {
    cl_mutable_command_khr command;
    cl_uint num_args;
    cl_uint num_svm_args;
    cl_uint num_exec_infos;
    cl_uint work_dim;
    const cl_mutable_dispatch_arg_khr *arg_list;
    const cl_mutable_dispatch_arg_khr *arg_svm_list;
    const cl_mutable_dispatch_exec_info_khr *exec_info_list;
    const size_t *global_work_offset;
    const size_t *global_work_size;
    const size_t *local_work_size;
} cl_mutable_dispatch_config_khr;
#endif
typedef cl_bitfield cl_mutable_dispatch_asserts_khr;

#undef CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
#define CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR (1 << 0)
#undef CL_COMMAND_BUFFER_MUTABLE_KHR
#define CL_COMMAND_BUFFER_MUTABLE_KHR (1 << 1)
#undef CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR
#define CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR (1 << 2)
#undef CL_INVALID_MUTABLE_COMMAND_KHR
#define CL_INVALID_MUTABLE_COMMAND_KHR -1141
#undef CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR
#define CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR 0x12B0
#undef CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
#define CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR 0x12B1
#undef CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR (1 << 0)
#undef CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR (1 << 1)
#undef CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR
#define CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR (1 << 2)
#undef CL_MUTABLE_DISPATCH_ARGUMENTS_KHR
#define CL_MUTABLE_DISPATCH_ARGUMENTS_KHR (1 << 3)
#undef CL_MUTABLE_DISPATCH_EXEC_INFO_KHR
#define CL_MUTABLE_DISPATCH_EXEC_INFO_KHR (1 << 4)
#undef CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR
#define CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR 0x12A0
#undef CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR
#define CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR 0x12A1
#undef CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR
#define CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR 0x12AD
#undef CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR
#define CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR 0x12A2
#undef CL_MUTABLE_DISPATCH_KERNEL_KHR
#define CL_MUTABLE_DISPATCH_KERNEL_KHR 0x12A3
#undef CL_MUTABLE_DISPATCH_DIMENSIONS_KHR
#define CL_MUTABLE_DISPATCH_DIMENSIONS_KHR 0x12A4
#undef CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR 0x12A5
#undef CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR
#define CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR 0x12A6
#undef CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR
#define CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR 0x12A7
#undef CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR
#define CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR 0
#undef CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B7
#undef CL_MUTABLE_DISPATCH_ASSERTS_KHR
#define CL_MUTABLE_DISPATCH_ASSERTS_KHR 0x12B8
#undef CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR
#define CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR (1 << 0)
#undef CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
#define CL_COMMAND_BUFFER_STATE_FINALIZED_KHR 2

#ifdef CVU_CL_KHR_COMMAND_BUFFER_FULL
typedef cl_int CL_API_CALL clUpdateMutableCommandsKHR_t(
    cl_command_buffer_khr command_buffer, cl_uint num_configs,
    const cl_command_buffer_update_type_khr *config_types, const void **configs);
typedef clUpdateMutableCommandsKHR_t *clUpdateMutableCommandsKHR_fn;
typedef cl_int CL_API_CALL clGetMutableCommandInfoKHR_t(cl_mutable_command_khr command,
                                                        cl_mutable_command_info_khr param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret);
typedef clGetMutableCommandInfoKHR_t *clGetMutableCommandInfoKHR_fn;
#endif

#ifdef __cplusplus
}
#endif

#endif
