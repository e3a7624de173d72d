/* Images: a cl_mem of kind CV_MEM_IMAGE whose pixels live in linear device memory, row after
 * row (an internal buffer of the image's own, or the application's buffer for image1d_buffer
 * and cl_khr_image2d_from_buffer), described to kernels by a 64-byte descriptor in an internal
 * buffer of its own (docs/kernel-abi.md, "Images and samplers"). Kernels sample in software
 * (src/compiler/builtins/images.cl), or with the texture units for 2D images of the formats they
 * read; the transfers are the buffer rectangles' copies. */
#ifndef CV_CORE_IMAGE_H
#define CV_CORE_IMAGE_H

#include "core/mem.h"
#include "core/mem_transfer.h"

/* The limits clGetDeviceInfo reports and image creation checks: widths and heights, layers,
 * pixels of a 1D image buffer. Pixels are addressed in software, so these are choices within
 * the descriptor's 32-bit sizes (NVIDIA's OpenCL on the H100 reports the same 2D and 3D sizes). */
#define CV_IMAGE2D_MAX   32768
#define CV_IMAGE3D_MAX   16384
#define CV_IMAGE_LAYERS  2048
#define CV_IMAGE_BUF_MAX ((size_t)1 << 28)

/* Images are claimed where the compiler is (kernels need its builtins), unless CULVERT_IMAGES=0
 * says not to (the Khronos CTS image suites pass and run to their end on the H100:
 * docs/known-issues.md, "Images"). */
bool cv_images_enabled(void);

/* Bytes of one pixel of a format culvert holds; 0 for a format it does not (an unknown or
 * disallowed order/type pair). */
size_t cv_image_element_size(const cl_image_format *f);
/* Whether the specification defines the format (culvert may still not hold it). */
bool cv_image_format_defined(const cl_image_format *f);
/* The formats of clGetSupportedImageFormats for these flags and type (every one culvert holds
 * for that type: the list does not depend on the flags). Returns how many; writes at most max. */
cl_uint cv_image_formats(cl_mem_object_type type, cl_image_format *out, cl_uint max);

/* Texture objects an image's descriptor holds: one per sampler state (docs/kernel-abi.md). */
#define CV_IMAGE_TEXTURES 16

typedef struct cv_image {
    cl_image_format format;
    cl_image_desc desc; /* as given; pitches filled in; mem_object: the buffer it views */
    size_t element_size;
    size_t row_pitch, slice_pitch; /* of the pixels in device memory */
    cl_mem pixels;                 /* internal buffer, or the application's buffer (held) */
    /* Internal buffer of the kernels' descriptor, made and written when the image first becomes
     * a kernel argument (cv_image_bind; NULL before): creation is one allocation (and the
     * pixels' upload), and images that only transfers touch never cost a descriptor. */
    cl_mem descriptor;
    _Atomic bool bound; /* the descriptor is written; set under cv_image_bind_lock (image.c) */
    /* Read-only 2D images of the formats the texture units read: a texture object per sampler
     * state on texture_device (the context's first device), or none (0). Made when the image
     * first becomes a read-only kernel argument (cv_image_bind): images no kernel samples never
     * cost texture objects. */
    uint64_t texture[CV_IMAGE_TEXTURES];
    cl_device_id texture_device;
    _Atomic bool textures_tried; /* set under cv_image_bind_lock (image.c) */
} cv_image;

static inline cv_image *cv_mem_image(cl_mem m) {
    return m->kind == CV_MEM_IMAGE ? m->image : NULL;
}

/* The buffer that holds m's bytes: an image's pixels (its maps and migrations are theirs), m
 * itself otherwise. */
static inline cl_mem cv_mem_storage(cl_mem m) {
    return m->kind == CV_MEM_IMAGE ? m->image->pixels : m;
}

/* The number of dimensions of the image type's coordinates (1 for 1D and 1D buffers, 2 for 2D
 * and 1D arrays, 3 for 3D and 2D arrays). */
cl_uint cv_image_coord_dims(cl_mem_object_type type);
/* Does the type carry layers? */
static inline bool cv_image_is_array(cl_mem_object_type type) {
    return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* Creates an image (format, descriptor, flags and host_ptr validated by the API; for images on
 * a buffer, desc->mem_object is that buffer; row/slice pitch as given). */
cl_mem cv_image_create(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                       const cl_image_desc *desc, void *host_ptr, const cl_mem_properties *props,
                       size_t num_props, cl_int *err);
cl_int cv_image_info(cl_mem m, cl_image_info param, const cv_info *out);
/* Before m is a kernel argument: its descriptor, made and written once, and m->device_address
 * its address; with sampling (a read-only argument) its texture objects where it can have them,
 * written into the descriptor (once; kernels already enqueued read either state, both correct).
 * CL_OUT_OF_HOST_MEMORY or CL_OUT_OF_RESOURCES (clSetKernelArg's errors) where the descriptor
 * cannot be had; the next binding tries again. */
cl_int cv_image_bind(cl_mem m, bool sampling);
/* Lets go of what an image holds (its buffers); the cl_mem's destroy calls it. */
void cv_image_free(cv_image *img);

/* The image's extent in pixels, rows and slices, as regions count them (a 1D array's layers are
 * its rows, a 2D array's its slices). */
void cv_image_extent(const cl_image_desc *d, size_t ext[3]);
/* The application's layout of the image: the pitches the descriptor gives, else packed rows and
 * slices (the API's slice pitch: between a 1D array's layers; 0 for 1D and 2D images). What
 * CL_IMAGE_ROW_PITCH / SLICE_PITCH report and host_ptr holds. */
void cv_image_given_pitches(const cl_image_desc *d, size_t element_size, size_t *row,
                            size_t *slice);
/* A region of memory laid out with the API's pitches of an image of this type and extent, as a
 * buffer rectangle (origin in pixels; bytes, rows, slices out; a 1D array's layers are rows a
 * slice pitch apart; slice pitches spanning whole rows, as the copies count them). */
void cv_image_layout_rect(cl_mem_object_type type, size_t row, size_t slice, const size_t ext[3],
                          size_t element_size, const size_t origin[3], cv_rect *out);
/* A rectangle of the image's pixels as a buffer rectangle of img->pixels. */
void cv_image_rect(const cv_image *img, const size_t origin[3], cv_rect *out);
/* The region in bytes (region[0] in pixels). */
void cv_image_region_bytes(const cv_image *img, const size_t region[3], size_t out[3]);

/* The fill colour (float4, int4 or uint4 as the channel type takes) packed as one pixel. */
void cv_image_pack_color(const cl_image_format *f, const void *color, unsigned char *pixel);

/* Commands, validated by the API. */
cl_int cv_enqueue_fill_image(cl_command_queue q, cl_mem image, const unsigned char *pixel,
                             const size_t origin[3], const size_t region[3], const cv_waits *w);
void *cv_enqueue_map_image(cl_command_queue q, cl_mem image, bool blocking, cl_map_flags flags,
                           const size_t origin[3], const size_t region[3], size_t *row_pitch,
                           size_t *slice_pitch, const cv_waits *w, cl_int *err);

#endif
