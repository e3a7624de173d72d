/* Entry points of the mem work that have not landed yet. Each answers CL_INVALID_OPERATION (and
 * NULL for objects), never a false success. The work that implements one removes it here (and this
 * file with the last). */
#include "api/entry_points.h"
#include "core/log.h"

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret) {
    (void)context;
    (void)flags;
    (void)size;
    (void)host_ptr;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
    (void)memobj;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    (void)memobj;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
    (void)memobj;
    (void)param_name;
    (void)param_value_size;
    (void)param_value;
    (void)param_value_size_ret;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t cb, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)buffer;
    (void)blocking_read;
    (void)offset;
    (void)cb;
    (void)ptr;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t cb,
                                        const void *ptr, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)buffer;
    (void)blocking_write;
    (void)offset;
    (void)cb;
    (void)ptr;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t cb, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)src_buffer;
    (void)dst_buffer;
    (void)src_offset;
    (void)dst_offset;
    (void)cb;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t cb, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
    (void)command_queue;
    (void)buffer;
    (void)blocking_map;
    (void)map_flags;
    (void)offset;
    (void)cb;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void *mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)memobj;
    (void)mapped_ptr;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info, cl_int *errcode_ret) {
    (void)buffer;
    (void)flags;
    (void)buffer_create_type;
    (void)buffer_create_info;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj, void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data), void *user_data) {
    (void)memobj;
    (void)pfn_notify;
    (void)user_data;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)buffer;
    (void)blocking_read;
    (void)buffer_origin;
    (void)host_origin;
    (void)region;
    (void)buffer_row_pitch;
    (void)buffer_slice_pitch;
    (void)host_row_pitch;
    (void)host_slice_pitch;
    (void)ptr;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_read, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)buffer;
    (void)blocking_read;
    (void)buffer_origin;
    (void)host_origin;
    (void)region;
    (void)buffer_row_pitch;
    (void)buffer_slice_pitch;
    (void)host_row_pitch;
    (void)host_slice_pitch;
    (void)ptr;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)src_buffer;
    (void)dst_buffer;
    (void)src_origin;
    (void)dst_origin;
    (void)region;
    (void)src_row_pitch;
    (void)src_slice_pitch;
    (void)dst_row_pitch;
    (void)dst_slice_pitch;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void *pattern, size_t pattern_size, size_t offset,
                                       size_t cb, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)buffer;
    (void)pattern;
    (void)pattern_size;
    (void)offset;
    (void)cb;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects, const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue;
    (void)num_mem_objects;
    (void)mem_objects;
    (void)flags;
    (void)num_events_in_wait_list;
    (void)event_wait_list;
    (void)event;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
    (void)context;
    (void)properties;
    (void)flags;
    (void)size;
    (void)host_ptr;
    if (errcode_ret)
        *errcode_ret = CL_INVALID_OPERATION;
    CV_API_ERROR(CL_INVALID_OPERATION);
    return NULL;
}
