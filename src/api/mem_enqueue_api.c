/* Buffer commands: read, write, copy (and their rectangles), fill, map, unmap, migrate. This
 * file validates; core/mem_transfer.c runs them. */
#include "api/entry_points.h"
#include "api/mem_check.h"
#include "core/event.h"
#include "util/log.h"
#include "core/mem_transfer.h"
#include "core/image.h"
#include "core/queue.h"

#include <stdint.h>

bool cv_mem_offset_aligned(cl_device_id dev, size_t offset) {
    cl_uint bits = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) !=
            CL_SUCCESS ||
        bits < 8)
        bits = 8;
    return offset % (bits / 8) == 0;
}

/* Bytes a copy may touch: host values are 8-byte buffers. */
static size_t cv_mem_bytes(cl_mem m) {
    return m->kind == CV_MEM_HOST_VALUE ? sizeof(cl_ulong) : m->size;
}

cl_int cv_check_mem_on(cl_context ctx, cl_device_id dev, cl_mem m) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object." (an image is none) */
    if (!cv_is_mem(m) || m->kind == CV_MEM_IMAGE)
        err = CL_INVALID_MEM_OBJECT;
    /* "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the
     * same" */
    else if (m->context != ctx)
        err = CL_INVALID_CONTEXT;
    /* "CL_MISALIGNED_SUB_BUFFER_OFFSET if buffer is a sub-buffer object and offset specified
     * when the sub-buffer object is created is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN
     * value for device associated with queue." */
    else if (m->kind == CV_MEM_SUB_BUFFER && !cv_mem_offset_aligned(dev, m->offset))
        err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    return err;
}

static cl_int cv_check_queue_mem(cl_command_queue q, cl_mem m) {
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    return cv_is_queue(q) ? cv_check_mem_on(q->context, q->device, m) : CL_INVALID_COMMAND_QUEUE;
}

cl_int cv_check_waits(cl_command_queue q, bool blocking, cl_uint n, const cl_event *list) {
    cl_int err = cv_check_wait_list(q->context, n, list);
    /* "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the read and write operations are
     * blocking and the execution status of any of the events in event_wait_list is a negative
     * integer value." */
    for (cl_uint i = 0; err == CL_SUCCESS && blocking && i < n; i++)
        if (cv_event_status(list[i]) < 0)
            err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return err;
}

/* Queue, object, wait list: the checks every command with one buffer starts with. */
static cl_int cv_check_command(cl_command_queue q, cl_mem m, bool blocking, cl_uint n,
                               const cl_event *list) {
    cl_int err = cv_check_queue_mem(q, m);
    if (err == CL_SUCCESS)
        err = cv_check_waits(q, blocking, n, list);
    return err;
}

/* The host access flags that forbid reading (to_host) or writing the buffer from the host. */
static cl_mem_flags cv_host_forbids(bool to_host) {
    return CL_MEM_HOST_NO_ACCESS | (to_host ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY);
}

static cl_int cv_read_write(cl_command_queue q, cl_mem buffer, bool blocking, bool to_host,
                            size_t offset, size_t cb, void *ptr, const cv_waits *w) {
    cl_int err = cv_check_command(q, buffer, blocking, w->n, w->list);
    /* "CL_INVALID_VALUE if the region being read or written specified by (offset, size) is
     * out of bounds or if ptr is a NULL value." */
    if (err == CL_SUCCESS && (!cv_range_ok(offset, cb, cv_mem_bytes(buffer)) || !ptr))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been created
     * with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." / "CL_INVALID_OPERATION if
     * clEnqueueWriteBuffer is called on buffer which has been created with
     * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS." */
    else if (err == CL_SUCCESS && (buffer->flags & cv_host_forbids(to_host)))
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS && to_host)
        err = cv_enqueue_read(q, buffer, blocking, offset, cb, ptr, w);
    else if (err == CL_SUCCESS)
        err = cv_enqueue_write(q, buffer, blocking, offset, cb, ptr, w);
    return err;
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t cb, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_read_write(command_queue, buffer, blocking_read, true, offset, cb, ptr, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t cb,
                                        const void *ptr, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_read_write(command_queue, buffer, blocking_write, false, offset, cb,
                               (void *)(uintptr_t)ptr, &w);
    CV_API_ERROR(err);
    return err;
}

/* Do [a, a + n) and [b, b + n), offsets within one root buffer, overlap? */
static bool cv_ranges_overlap(size_t a, size_t b, size_t n) {
    return n > 0 && a < b + n && b < a + n;
}

cl_int cv_check_copy_range(cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                           size_t cb) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset +
     * size require accessing elements outside the src_buffer and dst_buffer buffer objects
     * respectively." */
    if (!cv_range_ok(src_offset, cb, cv_mem_bytes(src)) ||
        !cv_range_ok(dst_offset, cb, cv_mem_bytes(dst)))
        err = CL_INVALID_VALUE;
    /* "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
     * object and the source and destination regions overlap or if src_buffer and dst_buffer
     * are different sub-buffers of the same associated buffer object and they overlap." */
    else if (cv_mem_root(src) == cv_mem_root(dst) &&
             cv_ranges_overlap(cv_mem_root_offset(src) + src_offset,
                               cv_mem_root_offset(dst) + dst_offset, cb))
        err = CL_MEM_COPY_OVERLAP;
    return err;
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t cb, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_check_queue_mem(command_queue, src_buffer);
    if (err == CL_SUCCESS)
        err = cv_check_command(command_queue, dst_buffer, false, num_events_in_wait_list,
                               event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_check_copy_range(src_buffer, dst_buffer, src_offset, dst_offset, cb);
    if (err == CL_SUCCESS)
        err =
            cv_enqueue_copy(command_queue, src_buffer, dst_buffer, src_offset, dst_offset, cb, &w);
    CV_API_ERROR(err);
    return err;
}

/* --- rectangles ----------------------------------------------------------------------------- */

/* Defaults and checks one side's pitches (the spec's rules, shared by every rect command). */
static cl_int cv_rect_pitches(const size_t region[3], size_t *row, size_t *slice) {
    cl_int err = CL_SUCCESS;
    size_t min_slice = 0;
    /* "CL_INVALID_VALUE if buffer_row_pitch is not 0 and is less than region[0]." (and the
     * same for the host and for both sides of a copy) */
    if (*row == 0)
        *row = region[0];
    else if (*row < region[0])
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS && __builtin_mul_overflow(region[1], *row, &min_slice))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if buffer_slice_pitch is not 0 and is less than region[1] ×
     * buffer_row_pitch and not a multiple of buffer_row_pitch." (either fault is refused:
     * slices of whole rows are what the copies assume) */
    if (err == CL_SUCCESS && *slice == 0)
        *slice = min_slice;
    else if (err == CL_SUCCESS && (*slice < min_slice || *slice % *row != 0))
        err = CL_INVALID_VALUE;
    return err;
}

/* First byte and one past the last byte a rectangle touches; false on overflow. */
static bool cv_rect_span(const cv_rect *r, const size_t region[3], size_t *start, size_t *end) {
    size_t a, b, c, d, e, f;
    bool ovf = __builtin_mul_overflow(r->origin[2], r->slice_pitch, &a) ||
               __builtin_mul_overflow(r->origin[1], r->row_pitch, &b) ||
               __builtin_add_overflow(a, b, start) ||
               __builtin_add_overflow(*start, r->origin[0], start) ||
               __builtin_mul_overflow(region[2] - 1, r->slice_pitch, &c) ||
               __builtin_mul_overflow(region[1] - 1, r->row_pitch, &d) ||
               __builtin_add_overflow(c, d, &e) || __builtin_add_overflow(e, region[0], &f) ||
               __builtin_add_overflow(*start, f, end);
    return !ovf;
}

/* Region and origins present, no zero in region, pitches right; the rect fits in `bytes`. */
static cl_int cv_check_rect(const size_t *origin, const size_t region[3], size_t *row,
                            size_t *slice, size_t bytes, cv_rect *out) {
    size_t start = 0, end = 0;
    cl_int err = cv_rect_pitches(region, row, slice);
    if (err == CL_SUCCESS) {
        for (int i = 0; i < 3; i++)
            out->origin[i] = origin[i];
        out->row_pitch = *row;
        out->slice_pitch = *slice;
        /* "CL_INVALID_VALUE if the region being read or written specified by (buffer_origin,
         * region, buffer_row_pitch, buffer_slice_pitch) is out of bounds." */
        if (!cv_rect_span(out, region, &start, &end) || end > bytes)
            err = CL_INVALID_VALUE;
    }
    return err;
}

/* "CL_INVALID_VALUE if buffer_origin, host_origin, or region is NULL." / "CL_INVALID_VALUE if
 * any region array element is 0." */
static cl_int cv_check_region(const size_t *o1, const size_t *o2, const size_t *region) {
    return o1 && o2 && region && region[0] && region[1] && region[2] ? CL_SUCCESS
                                                                     : CL_INVALID_VALUE;
}

static cl_int cv_rect_host(cl_command_queue q, cl_mem buffer, bool blocking, bool to_host,
                           const size_t *buffer_origin, const size_t *host_origin,
                           const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                           size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                           const cv_waits *w) {
    cv_rect buf, host;
    cl_int err = cv_check_command(q, buffer, blocking, w->n, w->list);
    if (err == CL_SUCCESS)
        err = cv_check_region(buffer_origin, host_origin, region);
    if (err == CL_SUCCESS)
        err = cv_check_rect(buffer_origin, region, &buffer_row_pitch, &buffer_slice_pitch,
                            cv_mem_bytes(buffer), &buf);
    /* Host memory has no size to check against: SIZE_MAX keeps the overflow checks. */
    if (err == CL_SUCCESS)
        err =
            cv_check_rect(host_origin, region, &host_row_pitch, &host_slice_pitch, SIZE_MAX, &host);
    /* "CL_INVALID_VALUE if ptr is NULL." */
    if (err == CL_SUCCESS && !ptr)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if clEnqueueReadBufferRect is called on buffer which has been
     * created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." / "CL_INVALID_OPERATION if
     * clEnqueueWriteBufferRect is called on buffer which has been created with
     * CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS." */
    else if (err == CL_SUCCESS &&
             (buffer->flags &
              (CL_MEM_HOST_NO_ACCESS | (to_host ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY))))
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS)
        err = cv_enqueue_rect(
            q, to_host ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, blocking,
            to_host ? NULL : buffer, &buf, to_host ? buffer : NULL, &buf, ptr, &host, region, w);
    return err;
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_rect_host(command_queue, buffer, blocking_read, true, buffer_origin,
                              host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                              host_row_pitch, host_slice_pitch, ptr, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = cv_rect_host(command_queue, buffer, blocking_write, false, buffer_origin,
                              host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                              host_row_pitch, host_slice_pitch, (void *)(uintptr_t)ptr, &w);
    CV_API_ERROR(err);
    return err;
}

/* Absolute offset (in the root buffer) of row (y, z) of a rect. */
static int64_t cv_rect_row(size_t base, const cv_rect *r, size_t y, size_t z) {
    return (int64_t)(base + (r->origin[2] + z) * r->slice_pitch +
                     (r->origin[1] + y) * r->row_pitch + r->origin[0]);
}

/* Does the source row [a, a + w) meet a row of the destination rect? Destination slices are a
 * slice pitch apart and each spans less than one (slice pitch >= rows x row pitch), rows are a
 * row pitch (>= w) apart: only the slice and row at or just before a, and the ones after them,
 * can meet it. */
static bool cv_row_meets_rect(int64_t a, int64_t w, size_t dbase, const cv_rect *d,
                              const size_t region[3]) {
    int64_t base0 = cv_rect_row(dbase, d, 0, 0);
    int64_t sp = (int64_t)d->slice_pitch, rp = (int64_t)d->row_pitch;
    int64_t zc = a >= base0 ? (a - base0) / sp : 0;
    bool meets = false;
    for (int64_t z = zc > 0 ? zc - 1 : 0; z <= zc + 1 && z < (int64_t)region[2] && !meets; z++) {
        int64_t base = base0 + z * sp;
        int64_t yc = a >= base ? (a - base) / rp : 0;
        for (int64_t y = yc > 0 ? yc - 1 : 0; y <= yc + 1 && y < (int64_t)region[1] && !meets;
             y++) {
            int64_t b = base + y * rp;
            meets = b < a + w && a < b + w;
        }
    }
    return meets;
}

/* Do two rects of one root buffer share a byte? Each source row against the few destination
 * rows that can meet it. Beyond 2^26 rows (minutes of checking) their spans decide. */
static bool cv_rects_overlap(size_t sbase, const cv_rect *s, size_t dbase, const cv_rect *d,
                             const size_t region[3]) {
    size_t s0 = 0, s1 = 0, d0 = 0, d1 = 0; /* cv_check_rect ruled out overflow */
    cv_rect_span(s, region, &s0, &s1);
    cv_rect_span(d, region, &d0, &d1);
    if (sbase + s1 <= dbase + d0 || dbase + d1 <= sbase + s0)
        return false;
    if ((double)region[1] * (double)region[2] > (double)((size_t)1 << 26))
        return true;
    bool overlap = false;
    for (size_t z = 0; z < region[2] && !overlap; z++)
        for (size_t y = 0; y < region[1] && !overlap; y++)
            overlap = cv_row_meets_rect(cv_rect_row(sbase, s, y, z), (int64_t)region[0], dbase, d,
                                        region);
    return overlap;
}

cl_int cv_check_copy_rect(cl_mem src, cl_mem dst, const size_t *src_origin,
                          const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                          size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                          cv_rect *s, cv_rect *d) {
    /* "CL_INVALID_VALUE if src_origin, dst_origin, or region is NULL." / "CL_INVALID_VALUE if
     * any region array element is 0." */
    cl_int err = cv_check_region(src_origin, dst_origin, region);
    /* "CL_INVALID_VALUE if the (src_origin, region, src_row_pitch, src_slice_pitch) or
     * (dst_origin, region, dst_row_pitch, dst_slice_pitch) require accessing elements outside
     * the src_buffer and dst_buffer buffer objects respectively." */
    if (err == CL_SUCCESS)
        err = cv_check_rect(src_origin, region, &src_row_pitch, &src_slice_pitch, cv_mem_bytes(src),
                            s);
    if (err == CL_SUCCESS)
        err = cv_check_rect(dst_origin, region, &dst_row_pitch, &dst_slice_pitch, cv_mem_bytes(dst),
                            d);
    /* "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and
     * src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to
     * dst_row_pitch." */
    if (err == CL_SUCCESS && src == dst && src_slice_pitch != dst_slice_pitch &&
        src_row_pitch != dst_row_pitch)
        err = CL_INVALID_VALUE;
    /* "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
     * object and the source and destination regions overlap or if src_buffer and dst_buffer
     * are different sub-buffers of the same associated buffer object and they overlap." */
    else if (err == CL_SUCCESS && cv_mem_root(src) == cv_mem_root(dst) &&
             cv_rects_overlap(cv_mem_root_offset(src), s, cv_mem_root_offset(dst), d, region))
        err = CL_MEM_COPY_OVERLAP;
    return err;
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cv_rect s, d;
    cl_int err = cv_check_queue_mem(command_queue, src_buffer);
    if (err == CL_SUCCESS)
        err = cv_check_command(command_queue, dst_buffer, false, num_events_in_wait_list,
                               event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_check_copy_rect(src_buffer, dst_buffer, src_origin, dst_origin, region,
                                 src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch, &s,
                                 &d);
    if (err == CL_SUCCESS)
        err = cv_enqueue_rect(command_queue, CL_COMMAND_COPY_BUFFER_RECT, false, dst_buffer, &d,
                              src_buffer, &s, NULL, NULL, region, &w);
    CV_API_ERROR(err);
    return err;
}

/* --- fill, map, unmap, migrate --------------------------------------------------------------- */

cl_int cv_check_fill(cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                     size_t cb) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if offset or offset + size require accessing elements outside the
     * buffer buffer object respectively." */
    if (!cv_range_ok(offset, cb, cv_mem_bytes(buffer)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not
     * one of { 1, 2, 4, 8, 16, 32, 64, 128 }." */
    else if (!pattern || pattern_size == 0 || pattern_size > 128 ||
             (pattern_size & (pattern_size - 1)))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if offset and size are not a multiple of pattern_size." */
    else if (offset % pattern_size || cb % pattern_size)
        err = CL_INVALID_VALUE;
    return err;
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void *pattern, size_t pattern_size, size_t offset,
                                       size_t cb, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err =
        cv_check_command(command_queue, buffer, false, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_check_fill(buffer, pattern, pattern_size, offset, cb);
    if (err == CL_SUCCESS)
        err = cv_enqueue_fill(command_queue, buffer, pattern, pattern_size, offset, cb, &w);
    CV_API_ERROR(err);
    return err;
}

static cl_int cv_check_map_flags(cl_mem buffer, cl_map_flags f) {
    cl_int err = CL_SUCCESS;
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    /* "CL_INVALID_VALUE if ... values specified in map_flags are not valid." (unknown bits;
     * CL_MAP_WRITE_INVALIDATE_REGION "is mutually exclusive with CL_MAP_READ or
     * CL_MAP_WRITE") */
    if ((f & ~known) ||
        ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE))))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or
     * CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags" */
    else if ((buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) &&
             (f & CL_MAP_READ))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_READ_ONLY or
     * CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in
     * map_flags" */
    else if ((buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) &&
             (f & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
        err = CL_INVALID_OPERATION;
    return err;
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t cb, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    void *ptr = NULL;
    cl_int err = cv_check_command(command_queue, buffer, blocking_map, num_events_in_wait_list,
                                  event_wait_list);
    /* "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or if
     * size is 0 or if values specified in map_flags are not valid." */
    if (err == CL_SUCCESS && (!cv_range_ok(offset, cb, cv_mem_bytes(buffer)) || cb == 0))
        err = CL_INVALID_VALUE;
    else if (err == CL_SUCCESS)
        err = cv_check_map_flags(buffer, map_flags);
    if (err == CL_SUCCESS)
        ptr = cv_enqueue_map(command_queue, buffer, blocking_map, map_flags, offset, cb, &w, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return ptr;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void *mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    /* An image's maps are ranges of its pixels' buffer (core/image_transfer.c), a buffer of
     * the image's context. */
    cl_mem target = cv_is_mem(memobj) ? cv_mem_storage(memobj) : memobj;
    cl_int err =
        cv_check_command(command_queue, target, false, num_events_in_wait_list, event_wait_list);
    /* "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or
     * clEnqueueMapImage for memobj." (checked against the live maps as the command runs) */
    if (err == CL_SUCCESS && !mapped_ptr)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_enqueue_unmap(command_queue, target, mapped_ptr, &w);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects, const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
    cv_waits w = {num_events_in_wait_list, event_wait_list, event};
    cl_int err = CL_SUCCESS;
    const cl_mem_migration_flags known =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    if (!cv_is_queue(command_queue))
        err = CL_INVALID_COMMAND_QUEUE;
    /* "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL." */
    else if (num_mem_objects == 0 || !mem_objects)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if flags is not 0 or is not any of the values described in the table
     * above." */
    else if (flags & ~known)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid memory
     * object." / "CL_INVALID_CONTEXT if the context associated with command_queue and memory
     * objects in mem_objects are not the same" */
    /* (An image is checked as the buffer of its pixels, of its context.) */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_mem_objects; i++) {
        cl_mem m = mem_objects[i];
        err = cv_check_queue_mem(command_queue, cv_is_mem(m) ? cv_mem_storage(m) : m);
    }
    if (err == CL_SUCCESS)
        err = cv_check_waits(command_queue, false, num_events_in_wait_list, event_wait_list);
    if (err == CL_SUCCESS)
        err = cv_enqueue_migrate(command_queue, num_mem_objects, mem_objects, flags, &w);
    CV_API_ERROR(err);
    return err;
}
