/* Validation shared by the image commands and their command-buffer counterparts (api/image_api.c
 * defines it). Each check runs after the objects' own (cv_check_image_of). */
#ifndef CV_API_IMAGE_CHECK_H
#define CV_API_IMAGE_CHECK_H

#include "core/image.h"

/* image is an image of ctx and images are claimed: CL_INVALID_OPERATION, CL_INVALID_MEM_OBJECT,
 * CL_INVALID_CONTEXT as the image commands answer them. */
cl_int cv_check_image_of(cl_context ctx, cl_mem image);
/* clEnqueueCopyImage's checks; fills the rectangles of the pixels and the region in bytes. */
cl_int cv_check_image_copy(cl_mem src_image, cl_mem dst_image, const size_t *src_origin,
                           const size_t *dst_origin, const size_t *region, cv_rect *sr, cv_rect *dr,
                           size_t bytes[3]);
/* clEnqueueCopyImageToBuffer's and clEnqueueCopyBufferToImage's: the image's rectangle, the
 * buffer's (packed rows and slices from offset) and the region in bytes. */
cl_int cv_check_image_buffer(cl_mem image, cl_mem buffer, const size_t *origin,
                             const size_t *region, size_t offset, cv_rect *ir, cv_rect *br,
                             size_t bytes[3]);
/* clEnqueueFillImage's. */
cl_int cv_check_image_fill(cl_mem image, const void *fill_color, const size_t *origin,
                           const size_t *region);

#endif
