/* Image entry points: creation, formats, queries, and the image commands (read, write, copy,
 * copies to and from buffers, fill, map). This file validates; core/image*.c and the buffer
 * rectangles of core/mem_transfer.c run them. Without image support (core/image.h:
 * cv_images_enabled) every one answers the spec's error for a device without images. */
#include "api/entry_points.h"
#include "api/image_check.h"
#include "api/mem_check.h"
#include "core/event.h"
#include "core/image.h"
#include "core/queue.h"
#include "util/log.h"

#include <stdint.h>
#include <string.h>

static bool cv_known_image_type(cl_mem_object_type t) {
    return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
           t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ||
           t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

/* Flags an image on a buffer gets: "If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or
 * CL_MEM_WRITE_ONLY values are not specified in flags, they are inherited from the
 * corresponding memory access qualifiers associated with mem_object. The CL_MEM_USE_HOST_PTR,
 * CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR values cannot be specified in flags but are
 * inherited ... If the CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS
 * values are not specified in flags, they are inherited". */
static cl_mem_flags cv_flags_on_buffer(cl_mem buffer, cl_mem_flags flags) {
    if (!(flags & CV_MEM_ACCESS_FLAGS))
        flags |= buffer->flags & CV_MEM_ACCESS_FLAGS;
    if (!(flags & CV_MEM_HOST_ACCESS_FLAGS))
        flags |= buffer->flags & CV_MEM_HOST_ACCESS_FLAGS;
    return flags |
           (buffer->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
}

/* The buffer an image is made on: access flags that contradict the buffer's, or host pointer
 * flags, are CL_INVALID_VALUE ("CL_INVALID_VALUE if an image is being created from another memory
 * object (buffer or image) under one of the following circumstances: 1) mem_object was created
 * with CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, 2)
 * mem_object was created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
 * CL_MEM_WRITE_ONLY, 3) flags specifies CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or
 * CL_MEM_COPY_HOST_PTR."; the host access flags likewise). */
static cl_int cv_check_flags_on_buffer(cl_mem b, cl_mem_flags f) {
    cl_mem_flags p = b->flags;
    bool bad =
        ((p & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((p & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        (f & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ||
        ((p & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) ||
        ((p & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) ||
        ((p & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
    return bad ? CL_INVALID_VALUE : CL_SUCCESS;
}

/* The descriptor's sizes against the type and the device limits. */
static cl_int cv_check_image_sizes(const cl_image_desc *d) {
    cl_mem_object_type t = d->image_type;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid": a zero
     * dimension the type uses. */
    if (d->image_width == 0 ||
        ((t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
          t == CL_MEM_OBJECT_IMAGE3D) &&
         d->image_height == 0) ||
        (t == CL_MEM_OBJECT_IMAGE3D && d->image_depth == 0) ||
        (cv_image_is_array(t) && d->image_array_size == 0))
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    /* "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum
     * image dimensions described in the Device Queries table for all devices in context." */
    else if ((t == CL_MEM_OBJECT_IMAGE1D && d->image_width > CV_IMAGE2D_MAX) ||
             (t == CL_MEM_OBJECT_IMAGE1D_ARRAY && d->image_width > CV_IMAGE2D_MAX) ||
             (t == CL_MEM_OBJECT_IMAGE1D_BUFFER && d->image_width > CV_IMAGE_BUF_MAX) ||
             ((t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) &&
              (d->image_width > CV_IMAGE2D_MAX || d->image_height > CV_IMAGE2D_MAX)) ||
             (t == CL_MEM_OBJECT_IMAGE3D &&
              (d->image_width > CV_IMAGE3D_MAX || d->image_height > CV_IMAGE3D_MAX ||
               d->image_depth > CV_IMAGE3D_MAX)) ||
             (cv_image_is_array(t) && d->image_array_size > CV_IMAGE_LAYERS))
        err = CL_INVALID_IMAGE_SIZE;
    return err;
}

/* Row and slice pitches given with host memory or a buffer: at least a row (slice) of pixels and
 * a multiple of the pixel size ("CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc
 * are not valid"; "image_row_pitch ... must be 0 if host_ptr is NULL and can be either 0 or >=
 * image_width * size of element in bytes if host_ptr is not NULL ... If image_row_pitch is not 0,
 * it must be a multiple of the image element size in bytes", and the same for the slice pitch,
 * of image_row_pitch * image_height (1D arrays: image_row_pitch)). */
static cl_int cv_check_image_pitches(const cl_image_desc *d, size_t elem, bool pitches_allowed) {
    cl_mem_object_type t = d->image_type;
    size_t row = d->image_row_pitch ? d->image_row_pitch : d->image_width * elem;
    size_t rows = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : d->image_height;
    bool slices = t == CL_MEM_OBJECT_IMAGE3D || cv_image_is_array(t);
    cl_int err = CL_SUCCESS;
    if (!pitches_allowed && (d->image_row_pitch || d->image_slice_pitch))
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    else if (d->image_row_pitch &&
             (d->image_row_pitch < d->image_width * elem || d->image_row_pitch % elem))
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    else if (d->image_slice_pitch && slices &&
             (d->image_slice_pitch < row * rows || d->image_slice_pitch % row))
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    /* Pitches so large that the image's bytes pass SIZE_MAX describe no memory:
     * "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum". */
    size_t given_row, given_slice, ext[3], bytes;
    cv_image_given_pitches(d, elem, &given_row, &given_slice);
    cv_image_extent(d, ext);
    if (err == CL_SUCCESS && (__builtin_mul_overflow(given_row, ext[1], &bytes) ||
                              __builtin_mul_overflow(given_slice, ext[2], &bytes)))
        err = CL_INVALID_IMAGE_SIZE;
    return err;
}

/* An image on a buffer: image1d_buffer, or a 2D image of cl_khr_image2d_from_buffer. */
static cl_int cv_check_image_on_buffer(cl_context ctx, const cl_image_desc *d, size_t elem) {
    cl_mem b = d->mem_object;
    cl_int err = CL_SUCCESS;
    size_t row = d->image_row_pitch ? d->image_row_pitch : d->image_width * elem;
    size_t need = d->image_type == CL_MEM_OBJECT_IMAGE2D ? row * d->image_height : row;
    /* "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid": the
     * memory object is no buffer of the context (an image on an image is not offered), or
     * too small ("the size of the buffer ... must be >= image_row_pitch * image_height"). */
    if (!cv_is_mem(b) || b->context != ctx || b->kind == CV_MEM_IMAGE ||
        b->kind == CV_MEM_HOST_VALUE || need > b->size)
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    /* A 1D image buffer's pitch is its width's ("image_row_pitch must be 0" where no pitch
     * applies is read as: equal to the packed one). */
    else if (d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && d->image_row_pitch &&
             d->image_row_pitch != d->image_width * elem)
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    return err;
}

static cl_mem cv_create_image(cl_context context, const cl_mem_properties *properties,
                              cl_mem_flags flags, const cl_image_format *format,
                              const cl_image_desc *desc, void *host_ptr, cl_int *errcode) {
    cl_mem m = NULL;
    cl_int err = CL_SUCCESS;
    size_t num_props = cv_mem_props_len(properties), elem = 0;
    bool on_buffer = false;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_OPERATION if there are no devices in context that support images." */
    else if (!cv_images_enabled())
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_PROPERTY if a property name in properties is not a supported property name"
     * (no image property is). */
    else if (num_props > 1)
        err = CL_INVALID_PROPERTY;
    else
        err = cv_check_mem_flags(flags);
    /* "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid or
     * if image_format is NULL." */
    if (err == CL_SUCCESS && !format)
        err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    /* "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if
     * image_desc is NULL": the type, mip levels and samples (none are offered), a memory
     * object where the type takes none. */
    else if (err == CL_SUCCESS &&
             (!desc || !cv_known_image_type(desc->image_type) || desc->num_mip_levels ||
              desc->num_samples ||
              (desc->mem_object && desc->image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER &&
               desc->image_type != CL_MEM_OBJECT_IMAGE2D) ||
              (!desc->mem_object && desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER)))
        err = CL_INVALID_IMAGE_DESCRIPTOR;
    if (err == CL_SUCCESS) {
        on_buffer = desc->mem_object != NULL;
        elem = cv_image_element_size(format);
        /* "CL_IMAGE_FORMAT_NOT_SUPPORTED if the image_format is not supported." A format the
         * specification does not define (an unknown order or type, or a type its order's rule
         * refuses) is no valid image_format: an invalid descriptor. */
        if (elem == 0)
            err = cv_image_format_defined(format) ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                                                  : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
        else if (format->image_channel_order == CL_DEPTH &&
                 desc->image_type != CL_MEM_OBJECT_IMAGE2D &&
                 desc->image_type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
            err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    }
    if (err == CL_SUCCESS)
        err = cv_check_image_sizes(desc);
    if (err == CL_SUCCESS && on_buffer)
        err = cv_check_image_on_buffer(context, desc, elem);
    if (err == CL_SUCCESS && on_buffer)
        err = cv_check_flags_on_buffer(desc->mem_object, flags);
    if (err == CL_SUCCESS)
        err = cv_check_image_pitches(desc, elem, host_ptr != NULL || on_buffer);
    /* "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
     * are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
     * CL_MEM_USE_HOST_PTR are not set in flags." */
    if (err == CL_SUCCESS && !on_buffer &&
        (host_ptr == NULL) == ((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0))
        err = CL_INVALID_HOST_PTR;
    if (err == CL_SUCCESS && on_buffer && host_ptr)
        err = CL_INVALID_HOST_PTR;
    if (err == CL_SUCCESS) {
        cl_image_desc d = *desc;
        if (on_buffer)
            flags = cv_flags_on_buffer(d.mem_object, flags);
        if (!(flags & CV_MEM_ACCESS_FLAGS))
            flags |= CL_MEM_READ_WRITE;
        m = cv_image_create(context, flags, format, &d, on_buffer ? NULL : host_ptr, properties,
                            num_props, &err);
    }
    if (errcode)
        *errcode = err;
    return m;
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format,
                                 const cl_image_desc *image_desc, void *host_ptr,
                                 cl_int *errcode_ret) {
    cl_int err;
    cl_mem m = cv_create_image(context, NULL, flags, image_format, image_desc, host_ptr, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties *properties,
                                               cl_mem_flags flags,
                                               const cl_image_format *image_format,
                                               const cl_image_desc *image_desc, void *host_ptr,
                                               cl_int *errcode_ret) {
    cl_int err;
    cl_mem m =
        cv_create_image(context, properties, flags, image_format, image_desc, host_ptr, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_row_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                       .image_width = image_width,
                       .image_height = image_height,
                       .image_row_pitch = image_row_pitch};
    cl_int err;
    cl_mem m = cv_create_image(context, NULL, flags, image_format, &d, host_ptr, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                       .image_width = image_width,
                       .image_height = image_height,
                       .image_depth = image_depth,
                       .image_row_pitch = image_row_pitch,
                       .image_slice_pitch = image_slice_pitch};
    cl_int err;
    /* "CL_INVALID_IMAGE_SIZE if image_width, image_height are 0 or if image_depth less than or
     * equal to 1" (clCreateImage3D) */
    cl_mem m = NULL;
    if (cv_is_context(context) && cv_images_enabled() && image_depth <= 1)
        err = CL_INVALID_IMAGE_SIZE;
    else
        m = cv_create_image(context, NULL, flags, image_format, &d, host_ptr, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return m;
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format *image_formats,
                                              cl_uint *num_image_formats) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
     * image_formats is not NULL." (CL_MEM_KERNEL_READ_AND_WRITE is a flag of this query) */
    else if (cv_check_mem_flags(flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE) !=
                 CL_SUCCESS ||
             !cv_known_image_type(image_type) || (num_entries == 0 && image_formats))
        err = CL_INVALID_VALUE;
    /* Without image support the list is empty. */
    cl_uint n = 0;
    if (err == CL_SUCCESS && cv_images_enabled())
        n = cv_image_formats(image_type, image_formats, num_entries);
    if (err == CL_SUCCESS && num_image_formats)
        *num_image_formats = n;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
    cv_info out = {param_value_size, param_value, param_value_size_ret};
    /* "CL_INVALID_MEM_OBJECT if image is a not a valid image object." */
    cl_int err = cv_is_mem(image) && cv_mem_image(image) ? cv_image_info(image, param_name, &out)
                                                         : CL_INVALID_MEM_OBJECT;
    CV_API_ERROR(err);
    return err;
}

/* ---- commands ------------------------------------------------------------------------------- */

cl_int cv_check_image_of(cl_context ctx, cl_mem image) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_OPERATION if the device associated with command_queue does not support
     * images" */
    if (!cv_images_enabled())
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_MEM_OBJECT if image is not a valid image object." */
    else if (!cv_is_mem(image) || !cv_mem_image(image))
        err = CL_INVALID_MEM_OBJECT;
    /* "CL_INVALID_CONTEXT if the context associated with command_queue and image are not the
     * same" */
    else if (image->context != ctx)
        err = CL_INVALID_CONTEXT;
    return err;
}

/* The queue, an image of its context, image support on its device. */
static cl_int cv_check_image_on(cl_command_queue q, cl_mem image) {
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    return cv_is_queue(q) ? cv_check_image_of(q->context, image) : CL_INVALID_COMMAND_QUEUE;
}

/* "CL_INVALID_VALUE if the region being read or written specified by origin and region is out
 * of bounds or if ptr is a NULL value." / "CL_INVALID_VALUE if values in origin and region do
 * not follow rules described in the argument description for origin and region": no zero in
 * region, the coordinates the type has none of are 0 (origin) and 1 (region), layers within
 * the array. */
static cl_int cv_check_image_region(const cv_image *img, const size_t *origin,
                                    const size_t *region) {
    size_t extent[3];
    cv_image_extent(&img->desc, extent);
    if (!origin || !region)
        return CL_INVALID_VALUE;
    for (int i = 0; i < 3; i++)
        if (region[i] == 0 || origin[i] > extent[i] || region[i] > extent[i] - origin[i])
            return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

/* Host pitches of a read or write: 0 is packed; otherwise at least that ("CL_INVALID_VALUE if
 * image is a 1D or 2D image and slice_pitch or input_slice_pitch is not 0."). */
static cl_int cv_host_pitches(const cv_image *img, const size_t region[3], size_t *row,
                              size_t *slice) {
    cl_mem_object_type t = img->desc.image_type;
    size_t packed_row = region[0] * img->element_size;
    bool flat = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE2D ||
                t == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    cl_int err = CL_SUCCESS;
    if (flat && *slice)
        err = CL_INVALID_VALUE;
    else if (*row && *row < packed_row)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS) {
        if (!*row)
            *row = packed_row;
        /* A 1D array's layers are the host's rows. Pitches whose span passes SIZE_MAX describe
         * no host memory. */
        size_t rows = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : region[1], span, all;
        if (__builtin_mul_overflow(*row, rows, &span) ||
            __builtin_mul_overflow(*slice ? *slice : span, region[2], &all) ||
            (t == CL_MEM_OBJECT_IMAGE1D_ARRAY &&
             __builtin_mul_overflow(*slice ? *slice : span, region[1], &all)))
            err = CL_INVALID_VALUE;
        else if (*slice && *slice < span)
            err = CL_INVALID_VALUE;
        else if (!*slice)
            *slice = span;
    }
    return err;
}

static cl_int cv_read_write_image(cl_command_queue q, cl_mem image, bool blocking, bool to_host,
                                  const size_t *origin, const size_t *region, size_t row,
                                  size_t slice, void *ptr, const cv_waits *w) {
    cl_int err = cv_check_image_on(q, image);
    cv_image *img = err == CL_SUCCESS ? image->image : NULL;
    if (err == CL_SUCCESS)
        err = cv_check_waits(q, blocking, w->n, w->list);
    if (err == CL_SUCCESS)
        err = cv_check_image_region(img, origin, region);
    if (err == CL_SUCCESS && !ptr)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_host_pitches(img, region, &row, &slice);
    /* "CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has been created
     * with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." / "... clEnqueueWriteImage is
     * called on image which has been created with CL_MEM_HOST_READ_ONLY or
     * CL_MEM_HOST_NO_ACCESS." */
    if (err == CL_SUCCESS &&
        (image->flags &
         (CL_MEM_HOST_NO_ACCESS | (to_host ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY))))
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS) {
        cv_rect r, host;
        size_t bytes[3], zero[3] = {0, 0, 0};
        cv_image_rect(img, origin, &r);
        cv_image_region_bytes(img, region, bytes);
        /* The host memory holds the region with the host's pitches. */
        cv_image_layout_rect(img->desc.image_type, row, slice, region, img->element_size, zero,
                             &host);
        err = cv_enqueue_rect(q, to_host ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, blocking,
                              to_host ? NULL : img->pixels, &r, to_host ? img->pixels : NULL, &r,
                              ptr, &host, bytes, w);
    }
    return err;
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_read, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch,
                                      void *ptr, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_read_write_image(command_queue, image, blocking_read, true, origin, region,
                                     row_pitch, slice_pitch, ptr, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                       cl_bool blocking_write, const size_t *origin,
                                       const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err =
        cv_read_write_image(command_queue, image, blocking_write, false, origin, region,
                            input_row_pitch, input_slice_pitch, (void *)(uintptr_t)ptr, &w);
    CV_API_ERROR(err);
    return err;
}

/* Do two boxes of one image (origins and one region, in pixels and layers) meet? */
static bool cv_boxes_meet(const size_t *a, const size_t *b, const size_t *region) {
    for (int i = 0; i < 3; i++)
        if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i])
            return false;
    return true;
}

cl_int cv_check_image_copy(cl_mem src_image, cl_mem dst_image, const size_t *src_origin,
                           const size_t *dst_origin, const size_t *region, cv_rect *sr, cv_rect *dr,
                           size_t bytes[3]) {
    const cv_image *s = src_image->image, *d = dst_image->image;
    cl_int err = CL_SUCCESS;
    /* "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format." */
    if (memcmp(&s->format, &d->format, sizeof s->format) != 0)
        err = CL_IMAGE_FORMAT_MISMATCH;
    if (err == CL_SUCCESS)
        err = cv_check_image_region(s, src_origin, region);
    if (err == CL_SUCCESS)
        err = cv_check_image_region(d, dst_origin, region);
    /* "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the source
     * and destination regions overlap." */
    if (err == CL_SUCCESS && src_image == dst_image &&
        cv_boxes_meet(src_origin, dst_origin, region))
        err = CL_MEM_COPY_OVERLAP;
    if (err == CL_SUCCESS) {
        cv_image_rect(s, src_origin, sr);
        cv_image_rect(d, dst_origin, dr);
        cv_image_region_bytes(s, region, bytes);
    }
    return err;
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                      cl_mem dst_image, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_check_image_on(command_queue, src_image);
    if (err == CL_SUCCESS)
        err = cv_check_image_on(command_queue, dst_image);
    cv_image *s = err == CL_SUCCESS ? src_image->image : NULL;
    cv_image *d = err == CL_SUCCESS ? dst_image->image : NULL;
    if (err == CL_SUCCESS)
        err = cv_check_waits(command_queue, false, num_events_in_wait_list, event_wait_list);
    cv_rect sr, dr;
    size_t bytes[3];
    if (err == CL_SUCCESS)
        err = cv_check_image_copy(src_image, dst_image, src_origin, dst_origin, region, &sr, &dr,
                                  bytes);
    if (err == CL_SUCCESS)
        err = cv_enqueue_rect(command_queue, CL_COMMAND_COPY_IMAGE, false, d->pixels, &dr,
                              s->pixels, &sr, NULL, NULL, bytes, &w);
    CV_API_ERROR(err);
    return err;
}

/* Copies between an image and a buffer: the buffer side is packed rows and slices from
 * offset. */
cl_int cv_check_image_buffer(cl_mem image, cl_mem buffer, const size_t *origin,
                             const size_t *region, size_t offset, cv_rect *ir, cv_rect *br,
                             size_t bytes[3]) {
    const cv_image *img = image->image;
    cl_int err = cv_check_image_region(img, origin, region);
    if (err == CL_SUCCESS) {
        cv_image_region_bytes(img, region, bytes);
        size_t total = bytes[0] * bytes[1] * bytes[2];
        /* "CL_INVALID_VALUE if ... dst_offset + dst_cb ... refer to an area outside" the
         * buffer (src_offset for clEnqueueCopyBufferToImage). */
        if (offset > buffer->size || total > buffer->size - offset)
            err = CL_INVALID_VALUE;
    }
    if (err == CL_SUCCESS) {
        *br = (cv_rect){{offset, 0, 0}, bytes[0], bytes[0] * bytes[1]};
        cv_image_rect(img, origin, ir);
    }
    return err;
}

static cl_int cv_image_buffer_copy(cl_command_queue q, cl_command_type type, cl_mem image,
                                   cl_mem buffer, const size_t *origin, const size_t *region,
                                   size_t offset, const cv_waits *w) {
    cl_int err = cv_check_image_on(q, image);
    if (err == CL_SUCCESS)
        err = cv_check_mem_on(q->context, q->device, buffer);
    if (err == CL_SUCCESS)
        err = cv_check_waits(q, false, w->n, w->list);
    cv_rect ir, br;
    size_t bytes[3];
    if (err == CL_SUCCESS)
        err = cv_check_image_buffer(image, buffer, origin, region, offset, &ir, &br, bytes);
    if (err == CL_SUCCESS) {
        cl_mem pixels = image->image->pixels;
        bool to_buffer = type == CL_COMMAND_COPY_IMAGE_TO_BUFFER;
        err = cv_enqueue_rect(q, type, false, to_buffer ? buffer : pixels, to_buffer ? &br : &ir,
                              to_buffer ? pixels : buffer, to_buffer ? &ir : &br, NULL, NULL, bytes,
                              w);
    }
    return err;
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_image_buffer_copy(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, src_image,
                                      dst_buffer, src_origin, region, dst_offset, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                              cl_mem dst_image, size_t src_offset,
                                              const size_t *dst_origin, const size_t *region,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_image_buffer_copy(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, dst_image,
                                      src_buffer, dst_origin, region, src_offset, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int cv_check_image_fill(cl_mem image, const void *fill_color, const size_t *origin,
                           const size_t *region) {
    /* "CL_INVALID_VALUE if fill_color is NULL." */
    return fill_color ? cv_check_image_region(image->image, origin, region) : CL_INVALID_VALUE;
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                      const void *fill_color, const size_t *origin,
                                      const size_t *region, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_check_image_on(command_queue, image);
    if (err == CL_SUCCESS)
        err = cv_check_waits(command_queue, false, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_check_image_fill(image, fill_color, origin, region);
    if (err == CL_SUCCESS) {
        unsigned char pixel[16] = {0};
        cv_image_pack_color(&image->image->format, fill_color, pixel);
        err = cv_enqueue_fill_image(command_queue, image, pixel, origin, region, &w);
    }
    CV_API_ERROR(err);
    return err;
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                    cl_bool blocking_map, cl_map_flags map_flags,
                                    const size_t *origin, const size_t *region,
                                    size_t *image_row_pitch, size_t *image_slice_pitch,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event,
                                    cl_int *errcode_ret) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    void *ptr = NULL;
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    cl_int err = cv_check_image_on(command_queue, image);
    cl_mem_object_type t = err == CL_SUCCESS ? image->image->desc.image_type : 0;
    if (err == CL_SUCCESS)
        err = cv_check_waits(command_queue, blocking_map, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_check_image_region(image->image, origin, region);
    /* "CL_INVALID_VALUE if image_row_pitch is NULL." / "CL_INVALID_VALUE if image is a 3D image,
     * 1D or 2D image array object and image_slice_pitch is NULL." / map flags that are not
     * valid ("mutually exclusive" with CL_MAP_WRITE_INVALIDATE_REGION) */
    if (err == CL_SUCCESS &&
        (!image_row_pitch ||
         (!image_slice_pitch && (t == CL_MEM_OBJECT_IMAGE3D || cv_image_is_array(t))) ||
         (map_flags & ~known) ||
         ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
          (map_flags & (CL_MAP_READ | CL_MAP_WRITE)))))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if image has been created with CL_MEM_HOST_WRITE_ONLY or
     * CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags or if image has been created
     * with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
     * CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags." */
    else if (err == CL_SUCCESS &&
             (((image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) &&
               (map_flags & CL_MAP_READ)) ||
              ((image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) &&
               (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))))
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS) {
        size_t row = 0, slice = 0;
        ptr = cv_enqueue_map_image(command_queue, image, blocking_map, map_flags, origin, region,
                                   &row, &slice, &w, &err);
        if (ptr) {
            *image_row_pitch = row;
            if (image_slice_pitch)
                *image_slice_pitch = slice;
        }
    }
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return ptr;
}
