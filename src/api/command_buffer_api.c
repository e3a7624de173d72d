/* cl_khr_command_buffer 0.9.8 entry points, and the host-value commands of cl_culvert_host_value
 * 0.2.0: handle checks and the spec's validation; core/command_buffer.c records and runs. The
 * recording commands answer "the errors defined by" their clEnqueue counterparts (api/mem_check.h
 * shares those checks) with the queue, context and wait-list errors replaced as the extension
 * says. */
#include "api/command_buffer_props.h"
#include "api/entry_points.h"
#include "api/image_check.h"
#include "api/mem_check.h"
#include "core/command_buffer.h"
#include "core/usm.h"
#include "core/event.h"
#include "core/host_value.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

/* "CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid command-buffer." */
static cl_int cv_check_command_buffer(cl_command_buffer_khr cb) {
    return cv_is_command_buffer(cb) ? CL_SUCCESS : CL_INVALID_COMMAND_BUFFER_KHR;
}

/* The checks every recording command starts with, in the order of the extension's lists.
 * Properties: the recording command's own (core/command_buffer.h) are checked by the caller;
 * these commands take none ("The cl_khr_command_buffer extension does not define any
 * properties"). mutable_ok: the command hands out a mutable-command handle. */
static cl_int cv_check_record(cl_command_buffer_khr cb, cl_command_queue q,
                              const cl_command_properties_khr *props, bool props_checked,
                              cl_mutable_command_khr *handle, bool mutable_ok, cv_cb_record *rec) {
    *rec = (cv_cb_record){0};
    cl_int err = cv_check_command_buffer(cb);
    /* "CL_INVALID_COMMAND_QUEUE if the cl_khr_command_buffer_multi_device extension is not
     * supported and command_queue is not NULL." */
    if (err == CL_SUCCESS && q)
        err = CL_INVALID_COMMAND_QUEUE;
    /* "CL_INVALID_OPERATION if command_buffer has been finalized." */
    else if (err == CL_SUCCESS &&
             cv_command_buffer_state(cb) != CL_COMMAND_BUFFER_STATE_RECORDING_KHR)
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE if values specified in properties are not valid." */
    else if (err == CL_SUCCESS && !props_checked)
        err = cv_read_bits_properties(props, NULL, 0, &rec->num_props);
    /* "CL_INVALID_VALUE if mutable_handle is not NULL." */
    if (err == CL_SUCCESS && handle && !mutable_ok)
        err = CL_INVALID_VALUE;
    rec->props = props;
    rec->handle_out = handle;
    return err;
}

/* "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL and
 * num_sync_points_in_wait_list is > 0, or sync_point_wait_list is not NULL and
 * num_sync_points_in_wait_list is 0, or if synchronization-point objects in
 * sync_point_wait_list are not valid synchronization-points." */
static cl_int cv_check_sync_points(cl_command_buffer_khr cb, cl_uint n,
                                   const cl_sync_point_khr *list, cl_sync_point_khr *out,
                                   cv_cb_record *rec) {
    cl_int err = CL_SUCCESS;
    if (!list != !n || !cv_command_buffer_sync_points_valid(cb, n, list))
        err = CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
    rec->num_sync = n;
    rec->sync = list;
    rec->sync_out = out;
    return err;
}

/* --- the command buffer --------------------------------------------------------------------- */

cl_command_buffer_khr CL_API_CALL
clCreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue *queues,
                         const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = NULL;
    cv_bits_property props[] = {
        {CL_COMMAND_BUFFER_FLAGS_KHR,
         CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR | CL_COMMAND_BUFFER_MUTABLE_KHR, 0, false},
        {CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR,
         CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, 0, false},
    };
    cv_cb_config cfg = {0};
    /* "CL_INVALID_VALUE if ... the cl_khr_command_buffer_multi_device extension is not
     * supported and num_queues is not one." */
    if (num_queues != 1)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if queues is NULL." */
    else if (!queues)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_COMMAND_QUEUE if any command-queue in queues is not a valid command-queue." */
    else if (!cv_is_queue(queues[0]))
        err = CL_INVALID_COMMAND_QUEUE;
    /* A device without command buffers (no CUDA graphs in its driver) does not list the
     * extension; its queues record nothing. */
    else if (!cv_command_buffer_supported(queues[0]->device))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE if values specified in properties are not valid, or if the same
     * property name is specified more than once." (DEVICE_SIDE_SYNC belongs to
     * cl_khr_command_buffer_multi_device, which culvert does not offer) */
    else
        err = cv_read_bits_properties(properties, props, 2, &cfg.num_props);
    /* "CL_INVALID_PROPERTY if values specified in properties are valid but are not supported by
     * all the devices associated with command-queues in queues." */
    if (err == CL_SUCCESS && (props[0].value & CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR) &&
        !(cv_command_buffer_capabilities(queues[0]->device) &
          CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR))
        err = CL_INVALID_PROPERTY;
    if (err == CL_SUCCESS) {
        cfg.flags = props[0].value;
        cfg.no_additional_groups = props[1].value != 0;
        cfg.props = properties;
        cb = cv_command_buffer_create(queues[0], &cfg, &err);
    }
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return cb;
}

cl_int CL_API_CALL clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer) {
    cl_int err = cv_check_command_buffer(command_buffer);
    if (err == CL_SUCCESS)
        cv_retain(&command_buffer->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer) {
    cl_int err = cv_check_command_buffer(command_buffer);
    /* "After the command_buffer reference count becomes zero and has finished execution, the
     * command-buffer is deleted": its launches hold it until then. */
    if (err == CL_SUCCESS)
        cv_release(&command_buffer->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer) {
    cl_int err = cv_check_command_buffer(command_buffer);
    if (err == CL_SUCCESS)
        err = cv_command_buffer_finalize(command_buffer);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                                             cl_command_buffer_info_khr param_name,
                                             size_t param_value_size, void *param_value,
                                             size_t *param_value_size_ret) {
    cl_int err = cv_check_command_buffer(command_buffer);
    if (err == CL_SUCCESS)
        err = cv_command_buffer_info(command_buffer, param_name,
                                     &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

/* The queue a launch runs on: the given one, or the one of the creation. */
static cl_int cv_check_enqueue_queue(cl_command_buffer_khr cb, cl_uint num_queues,
                                     cl_command_queue *queues, cl_command_queue *q) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or queues is not NULL and
     * num_queues is 0." */
    if (!queues != !num_queues)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if num_queues is > 0 and not the same value as num_queues set on
     * command_buffer creation." */
    else if (num_queues > 1)
        err = CL_INVALID_VALUE;
    *q = queues ? queues[0] : cb->queue;
    /* "CL_INVALID_COMMAND_QUEUE if any element of queues is not a valid command-queue." */
    if (err == CL_SUCCESS && !cv_is_queue(*q))
        err = CL_INVALID_COMMAND_QUEUE;
    /* "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if the properties of any command-queue in queues
     * contains a property not specified by
     * CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR." (the required properties are none)
     */
    else if (err == CL_SUCCESS &&
             ((*q)->properties & ~cv_command_buffer_queue_properties((*q)->device)))
        err = CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
    /* "CL_INVALID_DEVICE if any element of queues does not have the same device as the
     * command-queue set on command_buffer creation at the same list index." */
    else if (err == CL_SUCCESS && (*q)->device != cb->device)
        err = CL_INVALID_DEVICE;
    /* "CL_INVALID_CONTEXT if any element of queues does not have the same context as the
     * command-queue set on command_buffer creation at the same list index." */
    else if (err == CL_SUCCESS && (*q)->context != cb->context)
        err = CL_INVALID_CONTEXT;
    return err;
}

cl_int CL_API_CALL clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue *queues,
                                             cl_command_buffer_khr command_buffer,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event) {
    cl_command_queue q = NULL;
    cl_int err = cv_check_command_buffer(command_buffer);
    /* "CL_INVALID_OPERATION if command_buffer is not in the Executable state.": checked once,
     * under the command buffer's lock, where the launch begins (cv_command_buffer_enqueue): an
     * update on another thread may change the state until then, and a replay pays for one lock. */
    if (err == CL_SUCCESS)
        err = cv_check_enqueue_queue(command_buffer, num_queues, queues, &q);
    /* "CL_INVALID_CONTEXT if context associated with command_buffer and events in
     * event_wait_list are not the same." / "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is
     * NULL and num_events_in_wait_list > 0, or event_wait_list is not NULL and
     * num_events_in_wait_list is 0, or if event objects in event_wait_list are not valid
     * events." */
    if (err == CL_SUCCESS)
        err = cv_check_wait_list(command_buffer->context, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_command_buffer_enqueue(command_buffer, q, num_events_in_wait_list, event_wait_list,
                                        event);
    CV_API_ERROR(err);
    return err;
}

/* --- recording ------------------------------------------------------------------------------ */

cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer,
                                                   cl_command_queue command_queue,
                                                   const cl_command_properties_khr *properties,
                                                   cl_uint num_sync_points_in_wait_list,
                                                   const cl_sync_point_khr *sync_point_wait_list,
                                                   cl_sync_point_khr *sync_point,
                                                   cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cl_int err = cv_check_record(command_buffer, command_queue, properties, false, mutable_handle,
                                 false, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(command_buffer, num_sync_points_in_wait_list,
                                   sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_cb_record_barrier(command_buffer, &rec);
    CV_API_ERROR(err);
    return err;
}

/* "CL_INVALID_CONTEXT if the context associated with command_buffer, src_buffer, and
 * dst_buffer is not the same." (and the other errors of the buffer's object) */
static cl_int cv_check_record_mem(cl_command_buffer_khr cb, cl_mem m) {
    return cv_check_mem_on(cb->context, cb->device, m);
}

cl_int CL_API_CALL clCommandCopyBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cl_int err = cv_check_record(command_buffer, command_queue, properties, false, mutable_handle,
                                 false, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_record_mem(command_buffer, src_buffer);
    if (err == CL_SUCCESS)
        err = cv_check_record_mem(command_buffer, dst_buffer);
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(command_buffer, num_sync_points_in_wait_list,
                                   sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_copy_range(src_buffer, dst_buffer, src_offset, dst_offset, size);
    if (err == CL_SUCCESS)
        err = cv_cb_record_copy(command_buffer, &rec, src_buffer, dst_buffer, src_offset,
                                dst_offset, size);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCommandCopyBufferRectKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
    size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cv_rect s, d;
    cl_int err = cv_check_record(command_buffer, command_queue, properties, false, mutable_handle,
                                 false, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_record_mem(command_buffer, src_buffer);
    if (err == CL_SUCCESS)
        err = cv_check_record_mem(command_buffer, dst_buffer);
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(command_buffer, num_sync_points_in_wait_list,
                                   sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_copy_rect(src_buffer, dst_buffer, src_origin, dst_origin, region,
                                 src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch, &s,
                                 &d);
    if (err == CL_SUCCESS)
        err = cv_cb_record_copy_rect(command_buffer, &rec, CL_COMMAND_COPY_BUFFER_RECT, src_buffer,
                                     dst_buffer, &s, &d, region);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCommandFillBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list, cl_sync_point_khr *sync_point,
    cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cl_int err = cv_check_record(command_buffer, command_queue, properties, false, mutable_handle,
                                 false, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_record_mem(command_buffer, buffer);
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(command_buffer, num_sync_points_in_wait_list,
                                   sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_fill(buffer, pattern, pattern_size, offset, size);
    if (err == CL_SUCCESS)
        err = cv_cb_record_fill(command_buffer, &rec, buffer, pattern, pattern_size, offset, size);
    CV_API_ERROR(err);
    return err;
}

/* --- images: rectangles of the pixels' buffers (the checks of their clEnqueue commands) --- */

/* The recording checks and an image of the command buffer's context (or two). */
static cl_int cv_check_record_images(cl_command_buffer_khr cb, cl_command_queue q,
                                     const cl_command_properties_khr *props,
                                     cl_mutable_command_khr *handle, cl_mem a, cl_mem b,
                                     cl_uint num_sync, const cl_sync_point_khr *sync_list,
                                     cl_sync_point_khr *sync_point, cv_cb_record *rec) {
    cl_int err = cv_check_record(cb, q, props, false, handle, false, rec);
    if (err == CL_SUCCESS)
        err = cv_check_image_of(cb->context, a);
    if (err == CL_SUCCESS && b)
        err = cv_check_image_of(cb->context, b);
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(cb, num_sync, sync_list, sync_point, rec);
    return err;
}

cl_int CL_API_CALL clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cv_rect s, d;
    size_t bytes[3];
    cl_int err = cv_check_record_images(command_buffer, command_queue, properties, mutable_handle,
                                        src_image, dst_image, num_sync_points_in_wait_list,
                                        sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_image_copy(src_image, dst_image, src_origin, dst_origin, region, &s, &d,
                                  bytes);
    if (err == CL_SUCCESS)
        err = cv_cb_record_copy_rect(command_buffer, &rec, CL_COMMAND_COPY_IMAGE,
                                     src_image->image->pixels, dst_image->image->pixels, &s, &d,
                                     bytes);
    CV_API_ERROR(err);
    return err;
}

/* Both directions between an image and a buffer. */
static cl_int cv_record_image_buffer(cl_command_buffer_khr cb, cl_command_queue q,
                                     const cl_command_properties_khr *props,
                                     cl_mutable_command_khr *handle, cl_command_type type,
                                     cl_mem image, cl_mem buffer, const size_t *origin,
                                     const size_t *region, size_t offset, cl_uint num_sync,
                                     const cl_sync_point_khr *sync_list,
                                     cl_sync_point_khr *sync_point) {
    cv_cb_record rec;
    cv_rect ir, br;
    size_t bytes[3];
    cl_int err = cv_check_record_images(cb, q, props, handle, image, NULL, num_sync, sync_list,
                                        sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_record_mem(cb, buffer);
    if (err == CL_SUCCESS)
        err = cv_check_image_buffer(image, buffer, origin, region, offset, &ir, &br, bytes);
    bool to_buffer = type == CL_COMMAND_COPY_IMAGE_TO_BUFFER;
    cl_mem pixels = err == CL_SUCCESS ? image->image->pixels : NULL;
    if (err == CL_SUCCESS)
        err = cv_cb_record_copy_rect(cb, &rec, type, to_buffer ? pixels : buffer,
                                     to_buffer ? buffer : pixels, to_buffer ? &ir : &br,
                                     to_buffer ? &br : &ir, bytes);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
    return cv_record_image_buffer(command_buffer, command_queue, properties, mutable_handle,
                                  CL_COMMAND_COPY_BUFFER_TO_IMAGE, dst_image, src_buffer,
                                  dst_origin, region, src_offset, num_sync_points_in_wait_list,
                                  sync_point_wait_list, sync_point);
}

cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
    return cv_record_image_buffer(command_buffer, command_queue, properties, mutable_handle,
                                  CL_COMMAND_COPY_IMAGE_TO_BUFFER, src_image, dst_buffer,
                                  src_origin, region, dst_offset, num_sync_points_in_wait_list,
                                  sync_point_wait_list, sync_point);
}

/* A fill is a copy from a buffer of the command buffer's own, packed with the colour at
 * recording (the region's pixels, one graph copy node whatever the pitches); the command holds
 * that buffer. */
cl_int CL_API_CALL clCommandFillImageKHR(cl_command_buffer_khr command_buffer,
                                         cl_command_queue command_queue,
                                         const cl_command_properties_khr *properties, cl_mem image,
                                         const void *fill_color, const size_t *origin,
                                         const size_t *region, cl_uint num_sync_points_in_wait_list,
                                         const cl_sync_point_khr *sync_point_wait_list,
                                         cl_sync_point_khr *sync_point,
                                         cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cl_int err = cv_check_record_images(command_buffer, command_queue, properties, mutable_handle,
                                        image, NULL, num_sync_points_in_wait_list,
                                        sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_image_fill(image, fill_color, origin, region);
    unsigned char *packed = NULL;
    cl_mem scratch = NULL;
    if (err == CL_SUCCESS) {
        const cv_image *img = image->image;
        size_t bytes[3], n = region[0] * region[1] * region[2];
        unsigned char pixel[16] = {0};
        cv_image_pack_color(&img->format, fill_color, pixel);
        cv_image_region_bytes(img, region, bytes);
        packed = malloc(n * img->element_size);
        err = packed ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        for (size_t i = 0; packed && i < n; i++)
            memcpy(packed + i * img->element_size, pixel, img->element_size);
        if (err == CL_SUCCESS)
            scratch =
                cv_buffer_create(command_buffer->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 n * img->element_size, packed, NULL, 0, &err);
        cv_rect ir, sr = {{0, 0, 0}, bytes[0], bytes[0] * bytes[1]};
        cv_image_rect(img, origin, &ir);
        if (err == CL_SUCCESS)
            err = cv_cb_record_copy_rect(command_buffer, &rec, CL_COMMAND_FILL_IMAGE, scratch,
                                         img->pixels, &sr, &ir, bytes);
    }
    if (scratch)
        cv_mem_release(scratch);
    free(packed);
    CV_API_ERROR(err);
    return err;
}

/* --- SVM copies and fills (the checks of clEnqueueSVMMemcpy and clEnqueueSVMMemFill) -------- */

/* The recording checks of an SVM command, its device's SVM among them: "CL_INVALID_OPERATION if
 * the device associated with command_queue does not support SVM." */
static cl_int cv_check_record_svm(cl_command_buffer_khr cb, cl_command_queue q,
                                  const cl_command_properties_khr *props,
                                  cl_mutable_command_khr *handle, cl_uint num_sync,
                                  const cl_sync_point_khr *sync_list, cl_sync_point_khr *sync_point,
                                  cv_cb_record *rec) {
    cl_int err = cv_check_record(cb, q, props, false, handle, false, rec);
    if (err == CL_SUCCESS && !(cv_usm_svm_caps(cb->device) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(cb, num_sync, sync_list, sync_point, rec);
    return err;
}

cl_int CL_API_CALL clCommandSVMMemcpyKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, void *dst_ptr, const void *src_ptr, size_t size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cl_int err =
        cv_check_record_svm(command_buffer, command_queue, properties, mutable_handle,
                            num_sync_points_in_wait_list, sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_ptr_copy(dst_ptr, src_ptr, size);
    if (err == CL_SUCCESS)
        err = cv_cb_record_svm_copy(command_buffer, &rec, dst_ptr, src_ptr, size);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCommandSVMMemFillKHR(cl_command_buffer_khr command_buffer,
                                          cl_command_queue command_queue,
                                          const cl_command_properties_khr *properties,
                                          void *svm_ptr, const void *pattern, size_t pattern_size,
                                          size_t size, cl_uint num_sync_points_in_wait_list,
                                          const cl_sync_point_khr *sync_point_wait_list,
                                          cl_sync_point_khr *sync_point,
                                          cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cl_int err =
        cv_check_record_svm(command_buffer, command_queue, properties, mutable_handle,
                            num_sync_points_in_wait_list, sync_point_wait_list, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_check_ptr_fill(svm_ptr, pattern, pattern_size, size);
    if (err == CL_SUCCESS)
        err = cv_cb_record_svm_fill(command_buffer, &rec, svm_ptr, pattern, pattern_size, size);
    CV_API_ERROR(err);
    return err;
}

/* --- kernels -------------------------------------------------------------------------------- */

cl_int CL_API_CALL clCommandNDRangeKernelKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_command_properties_khr *properties, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
    cv_cb_record rec;
    cv_bits_property props[] = {
        {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
         CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
             CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
             CL_MUTABLE_DISPATCH_EXEC_INFO_KHR,
         0, false},
        {CL_MUTABLE_DISPATCH_ASSERTS_KHR, CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR,
         0, false},
    };
    /* The mutable-dispatch extension is offered wherever command buffers are: a handle is
     * welcome. */
    cl_int err = cv_check_record(command_buffer, command_queue, properties, true, mutable_handle,
                                 true, &rec);
    /* "CL_INVALID_VALUE if values specified in properties are not valid." */
    if (err == CL_SUCCESS)
        err = cv_read_bits_properties(properties, props, 2, &rec.num_props);
    cl_mutable_dispatch_fields_khr caps =
        err == CL_SUCCESS ? cv_mutable_dispatch_capabilities(command_buffer->device) : 0;
    /* "If CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR is not specified then it defaults to the value
     * returned by the CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR device query." */
    cl_mutable_dispatch_fields_khr updatable = props[0].given ? props[0].value : caps;
    bool no_additional = command_buffer && err == CL_SUCCESS &&
                         (command_buffer->no_additional_groups || props[1].value);
    /* "CL_INVALID_OPERATION if the requested CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR properties
     * are not reported by CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR for the device associated
     * with command_queue." */
    if (err == CL_SUCCESS && (updatable & ~caps))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    else if (err == CL_SUCCESS && !cv_is_kernel(kernel))
        err = CL_INVALID_KERNEL;
    /* "CL_INVALID_CONTEXT if the context associated with command_buffer and kernel is not the
     * same." */
    else if (err == CL_SUCCESS && kernel->context != command_buffer->context)
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
     * CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)." */
    else if (err == CL_SUCCESS && (work_dim < 1 || work_dim > 3))
        err = CL_INVALID_WORK_DIMENSION;
    /* "CL_INVALID_VALUE if command_buffer was created with the
     * CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR property with
     * CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR and local_work_size is NULL, or
     * if properties includes the CL_MUTABLE_DISPATCH_ASSERTS_KHR property with
     * CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR and local_work_size is NULL." */
    else if (err == CL_SUCCESS && no_additional && !local_work_size)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(command_buffer, num_sync_points_in_wait_list,
                                   sync_point_wait_list, sync_point, &rec);
    /* The rest are clEnqueueNDRangeKernel's (core/kernel_launch.h). */
    if (err == CL_SUCCESS)
        err = cv_cb_record_kernel(command_buffer, &rec, kernel, work_dim, global_work_offset,
                                  global_work_size, local_work_size, updatable, no_additional);
    CV_API_ERROR(err);
    return err;
}

/* --- host values (cl_culvert_host_value 0.2.0; the texts are include/CL/cl_culvert.h's) ----- */

static cl_int cv_record_host_value(cl_command_buffer_khr cb, cl_command_queue q,
                                   const cl_properties *props, cl_command_type type, cl_mem hv,
                                   cl_ulong value, cl_host_value_condition condition,
                                   cl_uint num_sync, const cl_uint *sync, cl_uint *sync_point,
                                   cl_mutable_command_khr *handle) {
    cv_cb_record rec;
    cl_int err = cv_check_record(cb, q, props, false, handle, false, &rec);
    /* "CL_INVALID_MEM_OBJECT if host_value is not a host value" */
    if (err == CL_SUCCESS && !cv_is_host_value(hv))
        err = CL_INVALID_MEM_OBJECT;
    /* "CL_INVALID_CONTEXT if the contexts of command_buffer and host_value differ" */
    else if (err == CL_SUCCESS && hv->context != cb->context)
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_OPERATION if the command buffer's device cannot record host-value commands" */
    else if (err == CL_SUCCESS && !cv_command_buffer_host_values(cb->device))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE (the wait) if condition is not a cl_host_value_condition the device
     * supports" */
    else if (err == CL_SUCCESS && type == CL_COMMAND_WAIT_HOST_VALUE_CULVERT &&
             !cv_host_value_condition_supported(cb->device, condition))
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_check_sync_points(cb, num_sync, sync, sync_point, &rec);
    if (err == CL_SUCCESS)
        err = cv_cb_record_host_value(cb, &rec, type, hv, value, condition);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCommandWaitHostValueCULVERT(cl_command_buffer_khr command_buffer,
                                                 cl_command_queue command_queue,
                                                 const cl_properties *properties, cl_mem host_value,
                                                 cl_ulong value, cl_host_value_condition condition,
                                                 cl_uint num_sync_points_in_wait_list,
                                                 const cl_uint *sync_point_wait_list,
                                                 cl_uint *sync_point,
                                                 cl_mutable_command_khr *mutable_handle) {
    return cv_record_host_value(command_buffer, command_queue, properties,
                                CL_COMMAND_WAIT_HOST_VALUE_CULVERT, host_value, value, condition,
                                num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
                                mutable_handle);
}

cl_int CL_API_CALL clCommandWriteHostValueCULVERT(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_properties *properties, cl_mem host_value, cl_ulong value,
    cl_uint num_sync_points_in_wait_list, const cl_uint *sync_point_wait_list, cl_uint *sync_point,
    cl_mutable_command_khr *mutable_handle) {
    return cv_record_host_value(
        command_buffer, command_queue, properties, CL_COMMAND_WRITE_HOST_VALUE_CULVERT, host_value,
        value, 0, num_sync_points_in_wait_list, sync_point_wait_list, sync_point, mutable_handle);
}
