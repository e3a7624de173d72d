/* culvert's OpenCL vendor extensions. Layout after the Khronos cl_ext.h: extension name and
 * version macros, enums, `_fn`/`_t` function types, and prototypes, which are declared only when
 * CL_CULVERT_PROTOTYPES is defined (get the functions from
 * clGetExtensionFunctionAddressForPlatform otherwise; the ICD loaders export none of them).
 *
 * PROVISIONAL: the enum values come from one block of 16 (CL_CULVERT_ENUM_BASE) that the Khronos
 * registry (OpenCL-Docs xml/cl.xml, read at commit a6e3fc6) does not allocate: it hands vendor
 * blocks out upwards from 0x4000 (the last one then was 0x4290-0x429F) and reserves the rest up
 * to 0x4FFF for vendor extensions. They may move if Khronos assigns culvert a block. */
#ifndef CL_CULVERT_H
#define CL_CULVERT_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CL_CULVERT_ENUM_BASE 0x4F80

/***************************************************************
 * cl_culvert_host_value: 64-bit slots in mapped pinned host memory that the host and the GPU both
 * read and write; a queue can wait on the GPU until a slot meets a condition.
 *
 * A host value is a cl_mem of 8 bytes (CL_MEM_SIZE), created with clCreateHostValue and
 * reference counted with clRetainMemObject/clReleaseMemObject. clGetMemObjectInfo answers
 * CL_MEM_IS_HOST_VALUE_CULVERT (CL_TRUE) and CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT (the
 * slot's 64-bit device address, for CUDA stream memory operations of the application's own). A
 * host value is also a kernel argument: kernels see it as `__global volatile ulong *` (or
 * `.u64` PTX pointer) and may read and write it while the host does.
 *
 * The extension is listed (platform and device, with CL_CULVERT_HOST_VALUE_EXTENSION_VERSION)
 * only on devices with 64-bit stream memory operations and mapped host memory
 * (CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, CAN_MAP_HOST_MEMORY). Elsewhere the
 * functions return CL_INVALID_OPERATION.
 *
 * Errors (all functions): CL_INVALID_MEM_OBJECT if host_value is not a valid host value (a
 * buffer is not one); CL_OUT_OF_RESOURCES / CL_OUT_OF_HOST_MEMORY when culvert cannot
 * allocate what it needs.
 *
 * Deadlock: clEnqueueWaitHostValue makes every later command of its queue wait until the value
 * meets the condition. If nothing ever signals it, clFinish, clWaitForEvents on later events,
 * blocking enqueues and the queue's last clReleaseCommandQueue wait forever. With CULVERT_LOG=1
 * (or higher) culvert logs a warning to stderr for each wait still unmet after
 * CULVERT_HOST_VALUE_WARN_MS milliseconds (default 5000; 0 turns the check off). A hand-off
 * between queues (one writes what another waits on) is invisible to CUDA's scheduler: enqueue
 * the writer's commands before the waiter's (see docs/host-value.md).
 ***************************************************************/
#define cl_culvert_host_value                   1
#define CL_CULVERT_HOST_VALUE_EXTENSION_NAME    "cl_culvert_host_value"
#define CL_CULVERT_HOST_VALUE_EXTENSION_VERSION CL_MAKE_VERSION(0, 2, 0)

typedef cl_uint cl_host_value_condition;

/* cl_host_value_condition: when a clEnqueueWaitHostValue wait is over (slot = the host value's
 * current content, value = the wait's operand). */
#define CL_HOST_VALUE_GEQ_CULVERT (CL_CULVERT_ENUM_BASE + 0) /* (int64)(slot - value) >= 0 */
#define CL_HOST_VALUE_EQ_CULVERT  (CL_CULVERT_ENUM_BASE + 1) /* slot == value */
#define CL_HOST_VALUE_AND_CULVERT (CL_CULVERT_ENUM_BASE + 2) /* (slot & value) != 0 */
/* Only on devices with CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR; elsewhere
 * clEnqueueWaitHostValue answers CL_INVALID_VALUE for it. */
#define CL_HOST_VALUE_NOR_CULVERT (CL_CULVERT_ENUM_BASE + 3) /* ~(slot | value) != 0 */

/* cl_mem_info */
#define CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT (CL_CULVERT_ENUM_BASE + 4) /* cl_ulong */
#define CL_MEM_IS_HOST_VALUE_CULVERT             (CL_CULVERT_ENUM_BASE + 5) /* cl_bool */

/* cl_command_type (CL_EVENT_COMMAND_TYPE) */
#define CL_COMMAND_WAIT_HOST_VALUE_CULVERT  (CL_CULVERT_ENUM_BASE + 6)
#define CL_COMMAND_WRITE_HOST_VALUE_CULVERT (CL_CULVERT_ENUM_BASE + 7)

/* clCreateHostValue: a new host value holding initial_value, usable by every device of context
 * that has the extension. errcode_ret: CL_INVALID_CONTEXT if context is not a valid context;
 * CL_INVALID_OPERATION if no device of context supports cl_culvert_host_value. */
typedef cl_mem CL_API_CALL clCreateHostValue_t(cl_context context, cl_ulong initial_value,
                                               cl_int *errcode_ret);
typedef clCreateHostValue_t *clCreateHostValue_fn;

/* clSignalHostValue: release-ordered store of value (host writes before it are visible to whoever
 * observes the value: a GPU wait, a kernel, or an acquire load). As cheap as an atomic store;
 * callable from any thread, including event callbacks. */
typedef cl_int CL_API_CALL clSignalHostValue_t(cl_mem host_value, cl_ulong value);
typedef clSignalHostValue_t *clSignalHostValue_fn;

/* clLoadHostValue: acquire-ordered load into *value. CL_INVALID_VALUE if value is NULL. */
typedef cl_int CL_API_CALL clLoadHostValue_t(cl_mem host_value, cl_ulong *value);
typedef clLoadHostValue_t *clLoadHostValue_fn;

/* clResetHostValue: stores 0. */
typedef cl_int CL_API_CALL clResetHostValue_t(cl_mem host_value);
typedef clResetHostValue_t *clResetHostValue_fn;

/* clEnqueueWaitHostValue: the queue's later commands wait, on the GPU (cuStreamWaitValue64),
 * until the host value meets condition against value. No host thread is involved: signal it with
 * clSignalHostValue from any thread, with clEnqueueWriteHostValue from another queue, or from a
 * kernel. The event (CL_COMMAND_WAIT_HOST_VALUE_CULVERT) completes when the wait is over; with
 * profiling, its END - START is how long the GPU waited. The host value stays alive until the
 * wait is over, even if the application releases it first.
 * Errors: CL_INVALID_COMMAND_QUEUE if queue is not a valid command-queue; CL_INVALID_MEM_OBJECT;
 * CL_INVALID_CONTEXT if the contexts of queue and host_value (or of the wait-list events) differ;
 * CL_INVALID_OPERATION if the queue's device does not support cl_culvert_host_value;
 * CL_INVALID_VALUE if condition is not a cl_host_value_condition the device supports;
 * CL_INVALID_EVENT_WAIT_LIST as for any enqueue. */
typedef cl_int CL_API_CALL clEnqueueWaitHostValue_t(
    cl_command_queue queue, cl_mem host_value, cl_ulong value, cl_host_value_condition condition,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event);
typedef clEnqueueWaitHostValue_t *clEnqueueWaitHostValue_fn;

/* clEnqueueWriteHostValue: the GPU stores value into the host value (cuStreamWriteValue64) once
 * the queue's earlier commands are done, after a memory fence: a host that sees the value with
 * clLoadHostValue also sees what those commands wrote. Command type
 * CL_COMMAND_WRITE_HOST_VALUE_CULVERT; errors as clEnqueueWaitHostValue (no condition). */
typedef cl_int CL_API_CALL clEnqueueWriteHostValue_t(cl_command_queue queue, cl_mem host_value,
                                                     cl_ulong value,
                                                     cl_uint num_events_in_wait_list,
                                                     const cl_event *event_wait_list,
                                                     cl_event *event);
typedef clEnqueueWriteHostValue_t *clEnqueueWriteHostValue_fn;

/* Host-value commands in command buffers (cl_khr_command_buffer; version 0.2.0 of this
 * extension): clCommandWaitHostValueCULVERT and clCommandWriteHostValueCULVERT record what
 * clEnqueueWaitHostValue and clEnqueueWriteHostValue enqueue, as memory-operation nodes of the
 * command buffer's CUDA graph: every launch of the command buffer waits for (or writes) the host
 * value on the GPU, with no host callback in its path. Like any recorded command they take part
 * in sync points; recorded with an in-order queue, every later command waits for a wait; with
 * an out-of-order queue, only the commands that name its sync point (or follow a later barrier).
 * The types are cl_khr_command_buffer's, spelled out so that this header needs no beta Khronos
 * header: struct _cl_command_buffer_khr * is cl_command_buffer_khr, cl_uint is
 * cl_sync_point_khr, struct _cl_mutable_command_khr * is cl_mutable_command_khr, and
 * cl_properties is cl_command_properties_khr.
 * Errors: CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid command-buffer;
 * CL_INVALID_COMMAND_QUEUE if command_queue is not NULL; CL_INVALID_OPERATION if command_buffer
 * has been finalized; CL_INVALID_VALUE if properties is not NULL or an empty list, or if
 * mutable_handle is not NULL; CL_INVALID_MEM_OBJECT if host_value is not a host value;
 * CL_INVALID_CONTEXT if the contexts of command_buffer and host_value differ;
 * CL_INVALID_OPERATION if the command buffer's device cannot record host-value commands (it needs
 * cl_culvert_host_value and memory-operation graph nodes: CUDA 11.7 or newer); CL_INVALID_VALUE
 * (the wait) if condition is not a cl_host_value_condition the device supports;
 * CL_INVALID_SYNC_POINT_WAIT_LIST_KHR as for any recorded command. */
struct _cl_command_buffer_khr;
struct _cl_mutable_command_khr;
typedef cl_int CL_API_CALL clCommandWaitHostValueCULVERT_t(
    struct _cl_command_buffer_khr *command_buffer, cl_command_queue command_queue,
    const cl_properties *properties, cl_mem host_value, cl_ulong value,
    cl_host_value_condition condition, cl_uint num_sync_points_in_wait_list,
    const cl_uint *sync_point_wait_list, cl_uint *sync_point,
    struct _cl_mutable_command_khr **mutable_handle);
typedef clCommandWaitHostValueCULVERT_t *clCommandWaitHostValueCULVERT_fn;

typedef cl_int CL_API_CALL clCommandWriteHostValueCULVERT_t(
    struct _cl_command_buffer_khr *command_buffer, cl_command_queue command_queue,
    const cl_properties *properties, cl_mem host_value, cl_ulong value,
    cl_uint num_sync_points_in_wait_list, const cl_uint *sync_point_wait_list, cl_uint *sync_point,
    struct _cl_mutable_command_khr **mutable_handle);
typedef clCommandWriteHostValueCULVERT_t *clCommandWriteHostValueCULVERT_fn;

/***************************************************************
 * cl_culvert_cuda_interop: the CUDA objects behind culvert's OpenCL objects, and queues that wrap
 * an existing CUstream (culvert neither owns nor destroys it).
 ***************************************************************/
#define cl_culvert_cuda_interop                   1
#define CL_CULVERT_CUDA_INTEROP_EXTENSION_NAME    "cl_culvert_cuda_interop"
#define CL_CULVERT_CUDA_INTEROP_EXTENSION_VERSION CL_MAKE_VERSION(0, 1, 0)

/* cl_queue_properties key (value: a CUstream of the CUDA context CL_CONTEXT_CUDA_CONTEXT_CULVERT
 * returns, cast to cl_queue_properties; the queue is in order and culvert never destroys the
 * stream), and
 * cl_command_queue_info (returns the CUstream of an in-order queue, as a void *; NULL for an
 * out-of-order queue, which spreads its commands over several streams) */
#define CL_QUEUE_CUDA_STREAM_CULVERT (CL_CULVERT_ENUM_BASE + 8)
/* cl_event_info: the CUevent recorded after the command (void *), NULL before submission */
#define CL_EVENT_CUDA_EVENT_CULVERT (CL_CULVERT_ENUM_BASE + 9)
/* cl_context_info: the CUcontext (void *) culvert uses on the context's first device: the device's
 * primary context (shared with the CUDA runtime), or, after a GPU fault that the primary context's
 * reset did not recover from, a context culvert created for the device (the same for every
 * cl_context made after that fault) */
#define CL_CONTEXT_CUDA_CONTEXT_CULVERT (CL_CULVERT_ENUM_BASE + 10)
/* cl_device_info: the CUdevice ordinal (cl_int) */
#define CL_DEVICE_CUDA_DEVICE_CULVERT (CL_CULVERT_ENUM_BASE + 11)

/***************************************************************
 * cl_culvert_launch_attributes: clSetKernelExecInfo parameters for CUDA launch attributes.
 ***************************************************************/
#define cl_culvert_launch_attributes                   1
#define CL_CULVERT_LAUNCH_ATTRIBUTES_EXTENSION_NAME    "cl_culvert_launch_attributes"
#define CL_CULVERT_LAUNCH_ATTRIBUTES_EXTENSION_VERSION CL_MAKE_VERSION(0, 1, 0)

/* size_t[3]: thread-block cluster dimensions, in work-groups ({0,0,0} or {1,1,1}: none) */
#define CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT (CL_CULVERT_ENUM_BASE + 12)
/* size_t: bytes of dynamic shared memory for PTX kernels that declare `extern .shared` arrays */
#define CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT (CL_CULVERT_ENUM_BASE + 13)
/* cl_bool: launch cooperatively (grid-wide synchronisation) */
#define CL_KERNEL_EXEC_INFO_COOPERATIVE_CULVERT (CL_CULVERT_ENUM_BASE + 14)

#ifdef CL_CULVERT_PROTOTYPES
extern CL_API_ENTRY clCreateHostValue_t clCreateHostValue;
extern CL_API_ENTRY clSignalHostValue_t clSignalHostValue;
extern CL_API_ENTRY clLoadHostValue_t clLoadHostValue;
extern CL_API_ENTRY clResetHostValue_t clResetHostValue;
extern CL_API_ENTRY clEnqueueWaitHostValue_t clEnqueueWaitHostValue;
extern CL_API_ENTRY clEnqueueWriteHostValue_t clEnqueueWriteHostValue;
extern CL_API_ENTRY clCommandWaitHostValueCULVERT_t clCommandWaitHostValueCULVERT;
extern CL_API_ENTRY clCommandWriteHostValueCULVERT_t clCommandWriteHostValueCULVERT;
#endif

/* cl_ext_float_atomics (a Khronos EXT extension culvert implements): the device queries and their
 * bits, for cl_ext.h versions that predate it. */
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT   0x4233
typedef cl_bitfield cl_device_fp_atomic_capabilities_ext;
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT        (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT    (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT  (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT         (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT     (1 << 18)
#endif

#ifdef __cplusplus
}
#endif

#endif /* CL_CULVERT_H */
