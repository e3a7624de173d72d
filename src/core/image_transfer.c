/* The image commands that are no plain buffer rectangle: fills (one pixel repeated over a
 * region: the first row, then copies of what is filled) and maps (the span of whole rows the region
 * covers, mapped as a range of the pixels' buffer, with the image's pitches). Reads, writes and
 * copies are buffer rectangles (core/mem_transfer.c) on the image's pixels (cv_image_rect). */
#include "core/image.h"
#include "core/backend.h"
#include "core/command.h"
#include "core/transfer.h"

/* Offset of the first byte and the length of the bytes a region touches. */
static void cv_image_span(const cv_image *img, const size_t origin[3], const size_t region[3],
                          size_t *offset, size_t *size) {
    cv_rect r;
    cv_image_rect(img, origin, &r);
    *offset = r.origin[2] * r.slice_pitch + r.origin[1] * r.row_pitch + r.origin[0];
    *size = (region[2] - 1) * r.slice_pitch + (region[1] - 1) * r.row_pitch +
            region[0] * img->element_size;
}

/* Copies rows (or slices) [0, n) of the region at `at` to [done, done + n), doubling what is
 * filled: log2 of the rows copies where a row-by-row fill would take one call per row. */
static cl_int cv_fill_double(const cvcu_host_copy *c, cl_ulong at, const cv_rect *r, size_t row,
                             size_t rows, size_t slices, bool by_slice) {
    cl_int err = CL_SUCCESS;
    size_t total = by_slice ? slices : rows;
    for (size_t done = 1; err == CL_SUCCESS && done < total;) {
        size_t n = done < total - done ? done : total - done;
        size_t region[3] = {row, by_slice ? rows : n, by_slice ? n : 1};
        cvcu_rect_side src = {at, NULL, {0, 0, 0}, r->row_pitch, r->slice_pitch};
        cvcu_rect_side dst = src;
        dst.origin[by_slice ? 2 : 1] = done;
        err = cvcu_copy_rect(c, &dst, &src, region);
        done += n;
    }
    return err;
}

cl_int cv_enqueue_fill_image(cl_command_queue q, cl_mem image, const unsigned char *pixel,
                             const size_t origin[3], const size_t region[3], const cv_waits *w) {
    cv_image *img = image->image;
    cv_command cmd;
    cl_ulong a = 0;
    cv_rect r;
    cv_image_rect(img, origin, &r);
    size_t row = region[0] * img->element_size;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_FILL_IMAGE, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_transfer_use(&cmd, img->pixels, true, false, &a);
        if (err == CL_SUCCESS)
            err = cv_command_keep(&cmd, &image->obj);
        cl_ulong at = a + r.origin[2] * r.slice_pitch + r.origin[1] * r.row_pitch + r.origin[0];
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, false, NULL);
        if (err == CL_SUCCESS && row == r.row_pitch &&
            (region[2] == 1 || row * region[1] == r.slice_pitch)) {
            /* One run of bytes: one fill. */
            err = cvcu_fill(cmd.stream, at, pixel, img->element_size, row * region[1] * region[2]);
        } else if (err == CL_SUCCESS) {
            /* The first row, then rows and slices copied from what is filled. */
            err = cvcu_fill(cmd.stream, at, pixel, img->element_size, row);
            if (err == CL_SUCCESS)
                err = cv_fill_double(&c, at, &r, row, region[1], region[2], false);
            if (err == CL_SUCCESS)
                err = cv_fill_double(&c, at, &r, row, region[1], region[2], true);
        }
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

void *cv_enqueue_map_image(cl_command_queue q, cl_mem image, bool blocking, cl_map_flags flags,
                           const size_t origin[3], const size_t region[3], size_t *row_pitch,
                           size_t *slice_pitch, const cv_waits *w, cl_int *err) {
    cv_image *img = image->image;
    size_t offset, size;
    cv_image_span(img, origin, region, &offset, &size);
    cv_rect r;
    cv_image_rect(img, origin, &r);
    /* The span holds bytes outside the region where rows or slices leave gaps: an invalidating
     * map must still read them, or its unmap would write stale bytes over them. */
    bool gaps = region[0] * img->element_size != r.row_pitch ||
                (region[2] > 1 && region[1] * r.row_pitch != r.slice_pitch);
    if ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && gaps)
        flags = CL_MAP_WRITE;
    void *ptr = cv_enqueue_map_as(q, CL_COMMAND_MAP_IMAGE, img->pixels, blocking, flags, offset,
                                  size, w, err);
    if (ptr) {
        *row_pitch = img->row_pitch;
        /* "image_slice_pitch ... for a 1D image array ... the size of each 1D image"; 0 for 1D
         * and 2D images. */
        cl_mem_object_type t = img->desc.image_type;
        *slice_pitch = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                               t == CL_MEM_OBJECT_IMAGE1D_ARRAY
                           ? img->slice_pitch
                           : 0;
    }
    return ptr;
}
