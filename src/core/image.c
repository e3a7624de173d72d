/* Images: creation (pixels, descriptor, texture objects) and queries. See core/image.h; the
 * formats are core/image_format.c's, the commands core/image_transfer.c's. */
#include "core/image.h"
#include "compiler/compiler.h"
#include "core/backend.h"
#include "core/platform.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static bool cv_images_on;
static pthread_once_t cv_images_once = PTHREAD_ONCE_INIT;

static void cv_images_read(void) {
    const char *v = getenv("CULVERT_IMAGES");
    cv_images_on = !(v && strcmp(v, "0") == 0) && cvc_available();
}

/* Read once: every image call, device query and build asks. */
bool cv_images_enabled(void) {
    pthread_once(&cv_images_once, cv_images_read);
    return cv_images_on;
}

cl_uint cv_image_coord_dims(cl_mem_object_type type) {
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        return 1;
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        return 2;
    default:
        return 3;
    }
}

/* ---- creation ---------------------------------------------------------------------------- */

/* The descriptor kernels read (docs/kernel-abi.md). */
typedef struct cv_image_abi {
    int64_t data_offset;
    uint64_t row_pitch, slice_pitch;
    uint32_t width, height, depth, array_size;
    uint32_t channel_order, channel_type, image_type, element_size;
    uint32_t reserved[2];
    uint64_t texture[CV_IMAGE_TEXTURES];
} cv_image_abi;
_Static_assert(sizeof(cv_image_abi) == 192, "the kernel ABI's image descriptor is 192 bytes");

/* ---- layout ------------------------------------------------------------------------------ */

void cv_image_extent(const cl_image_desc *d, size_t ext[3]) {
    cl_mem_object_type t = d->image_type;
    ext[0] = d->image_width;
    ext[1] = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? d->image_array_size
             : cv_image_coord_dims(t) >= 2    ? d->image_height
                                              : 1;
    ext[2] = t == CL_MEM_OBJECT_IMAGE3D         ? d->image_depth
             : t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d->image_array_size
                                                : 1;
}

/* Pitches of rows `row` bytes apart: a 1D array's layers one row apart, the slices of 3D images
 * and 2D arrays `rows` rows apart, none otherwise. */
static size_t cv_packed_slice(cl_mem_object_type t, size_t row, size_t rows) {
    return t == CL_MEM_OBJECT_IMAGE1D_ARRAY                                 ? row
           : t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? row * rows
                                                                            : 0;
}

void cv_image_given_pitches(const cl_image_desc *d, size_t element_size, size_t *row,
                            size_t *slice) {
    *row = d->image_row_pitch ? d->image_row_pitch : d->image_width * element_size;
    *slice = d->image_slice_pitch ? d->image_slice_pitch
                                  : cv_packed_slice(d->image_type, *row, d->image_height);
}

void cv_image_layout_rect(cl_mem_object_type type, size_t row, size_t slice, const size_t ext[3],
                          size_t element_size, const size_t origin[3], cv_rect *out) {
    out->origin[0] = origin[0] * element_size;
    out->origin[1] = origin[1];
    out->origin[2] = origin[2];
    /* A 1D array's layers are its rows, a slice pitch apart. */
    out->row_pitch = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
    out->slice_pitch = type == CL_MEM_OBJECT_IMAGE3D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY
                           ? slice
                           : out->row_pitch * ext[1];
}

void cv_image_rect(const cv_image *img, const size_t origin[3], cv_rect *out) {
    size_t ext[3];
    cv_image_extent(&img->desc, ext);
    cv_image_layout_rect(img->desc.image_type, img->row_pitch, img->slice_pitch, ext,
                         img->element_size, origin, out);
}

void cv_image_region_bytes(const cv_image *img, const size_t region[3], size_t out[3]) {
    out[0] = region[0] * img->element_size;
    out[1] = region[1];
    out[2] = region[2];
}

/* Rows of a 2D image of its own start at multiples of this (bytes): the texture units' pitch
 * alignment (32 on the H100), with room for GPUs that ask more. */
#define CV_IMAGE_ROW_ALIGN 64

/* The pixels' pitches: the application's where the pixels are its memory (USE_HOST_PTR memory,
 * a buffer), else packed, a 2D image's rows padded for the texture units; and the storage's
 * size. */
static size_t cv_image_pitches(cv_image *img, bool own_layout) {
    const cl_image_desc *d = &img->desc;
    if (own_layout) {
        img->row_pitch = d->image_width * img->element_size;
        if (d->image_type == CL_MEM_OBJECT_IMAGE2D)
            img->row_pitch =
                (img->row_pitch + CV_IMAGE_ROW_ALIGN - 1) / CV_IMAGE_ROW_ALIGN * CV_IMAGE_ROW_ALIGN;
        img->slice_pitch = cv_packed_slice(d->image_type, img->row_pitch, d->image_height);
    } else
        cv_image_given_pitches(d, img->element_size, &img->row_pitch, &img->slice_pitch);
    size_t origin[3] = {0, 0, 0}, ext[3];
    cv_rect r;
    cv_image_extent(d, ext);
    cv_image_layout_rect(d->image_type, img->row_pitch, img->slice_pitch, ext, img->element_size,
                         origin, &r);
    return r.slice_pitch * ext[2];
}

/* CL_MEM_COPY_HOST_PTR: host_ptr, laid out with the descriptor's pitches (or packed), into the
 * image's own rows, synchronously (nobody else sees the image yet). */
static cl_int cv_image_upload(cv_image *img, cl_device_id dev, const void *host_ptr) {
    const cl_image_desc *d = &img->desc;
    size_t origin[3] = {0, 0, 0}, ext[3], bytes[3], row, slice;
    cv_rect r, host;
    cv_image_extent(d, ext);
    cv_image_region_bytes(img, ext, bytes);
    cv_image_rect(img, origin, &r);
    cv_image_given_pitches(d, img->element_size, &row, &slice);
    cv_image_layout_rect(d->image_type, row, slice, ext, img->element_size, origin, &host);
    cvcu_rect_side dst = {img->pixels->device_address, NULL, {0, 0, 0}, r.row_pitch, r.slice_pitch};
    cvcu_rect_side src = {
        0, (void *)(uintptr_t)host_ptr, {0, 0, 0}, host.row_pitch, host.slice_pitch};
    cvcu_host_copy c = {.dev = dev->cu, .blocking = true};
    cl_int err = cvcu_device_bind(dev->cu);
    if (err == CL_SUCCESS)
        err = cvcu_copy_rect(&c, &dst, &src, bytes);
    if (err == CL_SUCCESS)
        err = cvcu_stream_sync(NULL);
    return err;
}

/* The texture objects of a 2D image's sampling (docs/kernel-abi.md): one per sampler state, for
 * the formats the texture units read as OpenCL does (R, RG, RGBA, BGRA of normalized 8- and
 * 16-bit integers, half and float). Where the driver or the memory's alignment refuses one, the
 * image has none and is sampled in software. */
static void cv_image_textures(cv_image *img, cl_mem_flags flags, cl_device_id dev) {
    static const struct {
        cl_channel_type type;
        cvcu_tex_format format;
    } types[] = {{CL_UNORM_INT8, CVCU_TEX_U8},
                 {CL_UNORM_INT16, CVCU_TEX_U16},
                 {CL_HALF_FLOAT, CVCU_TEX_HALF},
                 {CL_FLOAT, CVCU_TEX_FLOAT}};
    /* By the sampler's addressing mode / 2: none, clamp-to-edge, clamp, repeat, mirrored. */
    static const cvcu_tex_address modes[] = {CVCU_TEX_CLAMP, CVCU_TEX_CLAMP, CVCU_TEX_BORDER,
                                             CVCU_TEX_WRAP, CVCU_TEX_MIRROR};
    cl_channel_order o = img->format.image_channel_order;
    unsigned channels = o == CL_R ? 1 : o == CL_RG ? 2 : o == CL_RGBA || o == CL_BGRA ? 4 : 0;
    cvcu_texture_desc t = {.address = img->pixels->device_address,
                           .width = img->desc.image_width,
                           .height = img->desc.image_height,
                           .row_pitch = img->row_pitch,
                           .channels = channels};
    bool found = false;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == img->format.image_channel_data_type) {
            t.format = types[i].format;
            found = true;
        }
    /* A write-only image is never a read-only argument (clSetKernelArg refuses it).
     * CULVERT_IMAGE_TEXTURES=0: software sampling only (to compare the two). */
    const char *off = getenv("CULVERT_IMAGE_TEXTURES");
    /* A texture object is one device's: contexts of several devices sample in software. */
    if (img->pixels->context->num_devices > 1)
        return;
    if ((off && strcmp(off, "0") == 0) || img->desc.image_type != CL_MEM_OBJECT_IMAGE2D ||
        (flags & CL_MEM_WRITE_ONLY) || !channels || !found ||
        cvcu_device_bind(dev->cu) != CL_SUCCESS)
        return;
    img->texture_device = dev;
    for (unsigned slot = 0; slot < CV_IMAGE_TEXTURES; slot++) {
        /* Slots 0-9: normalized coordinates; 10-15: unnormalized, none to clamp. */
        unsigned state = slot < 10 ? slot : slot - 10;
        t.normalized_coords = slot < 10;
        t.linear = state & 1;
        t.address_mode = modes[state / 2];
        /* The border (clamp) is (0, 0, 0, 0): the kernel sets alpha to 1 for R and RG. */
        if (cvcu_texture_create(dev->cu, &t, &img->texture[slot]) != CL_SUCCESS)
            break;
    }
    /* All or none. */
    if (!img->texture[CV_IMAGE_TEXTURES - 1])
        for (unsigned slot = 0; slot < CV_IMAGE_TEXTURES; slot++) {
            cvcu_texture_destroy(dev->cu, img->texture[slot]);
            img->texture[slot] = 0;
        }
}

static cl_int cv_image_write_descriptor(cv_image *img) {
    const cl_image_desc *d = &img->desc;
    bool array = cv_image_is_array(d->image_type);
    cl_uint dims = cv_image_coord_dims(d->image_type);
    cv_image_abi abi = {
        .data_offset = (int64_t)(img->pixels->device_address - img->descriptor->device_address),
        .row_pitch = img->row_pitch,
        /* Kernels step through the layers of a 1D array by the slice pitch too. */
        .slice_pitch = img->slice_pitch,
        .width = (uint32_t)d->image_width,
        .height =
            (uint32_t)(dims >= 2 && d->image_type != CL_MEM_OBJECT_IMAGE1D_ARRAY ? d->image_height
                                                                                 : 1),
        .depth = (uint32_t)(d->image_type == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 1),
        .array_size = (uint32_t)(array ? d->image_array_size : 1),
        .channel_order = img->format.image_channel_order,
        .channel_type = img->format.image_channel_data_type,
        .image_type = d->image_type,
        .element_size = (uint32_t)img->element_size,
    };
    memcpy(abi.texture, img->texture, sizeof abi.texture);
    return cv_mem_upload(img->descriptor, &abi);
}

cl_mem cv_image_create(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                       const cl_image_desc *desc, void *host_ptr, const cl_mem_properties *props,
                       size_t num_props, cl_int *err) {
    cv_image *img = calloc(1, sizeof *img);
    cl_mem m = NULL;
    *err = img ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (img) {
        img->format = *format;
        img->desc = *desc;
        img->element_size = cv_image_element_size(format);
        atomic_init(&img->textures_tried, false);
        atomic_init(&img->bound, false);
        /* The pixels keep the application's layout where they are its memory. */
        size_t size = cv_image_pitches(img, !desc->mem_object && !(flags & CL_MEM_USE_HOST_PTR));
        m = cv_mem_new(ctx, CV_MEM_IMAGE, flags, size);
        if (!m) {
            free(img);
            *err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (m) {
        m->image = img;
        if (num_props) {
            m->properties = calloc(num_props, sizeof *props);
            if (m->properties) {
                memcpy(m->properties, props, num_props * sizeof *props);
                m->num_properties = num_props;
            } else
                *err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (*err == CL_SUCCESS && desc->mem_object) {
        /* On the application's buffer: its bytes are the pixels. */
        img->pixels = desc->mem_object;
        cv_hold(&img->pixels->obj);
    } else if (*err == CL_SUCCESS) {
        /* Its own storage, with USE_HOST_PTR's and ALLOC_HOST_PTR's meaning for the pixels;
         * COPY_HOST_PTR's pixels are copied in row by row (their pitches are the host's). */
        bool use = flags & CL_MEM_USE_HOST_PTR;
        cl_mem_flags host_flags = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR);
        img->pixels = cv_buffer_create(ctx, CL_MEM_READ_WRITE | host_flags, m->size,
                                       use ? host_ptr : NULL, NULL, 0, err);
        if (img->pixels && use)
            m->host_ptr = host_ptr;
        if (*err == CL_SUCCESS && (flags & CL_MEM_COPY_HOST_PTR))
            *err = cv_image_upload(img, ctx->devices[0], host_ptr);
    }
    /* The descriptor waits for the first kernel argument (cv_image_bind). */
    if (*err != CL_SUCCESS && m) {
        cv_release(&m->obj);
        m = NULL;
    }
    return m;
}

/* Descriptors and texture objects are made once per image, whichever thread binds it first. */
static pthread_mutex_t cv_image_bind_lock = PTHREAD_MUTEX_INITIALIZER;

/* Destroys the image's texture objects: it is sampled in software. */
static void cv_image_drop_textures(cv_image *img) {
    for (unsigned slot = 0; slot < CV_IMAGE_TEXTURES; slot++) {
        cvcu_texture_destroy(img->texture_device->cu, img->texture[slot]);
        img->texture[slot] = 0;
    }
}

cl_int cv_image_bind(cl_mem m, bool sampling) {
    cv_image *img = m->image;
    /* After the first binding (the first read-only one for the textures): without the lock. */
    if (atomic_load_explicit(&img->bound, memory_order_acquire) &&
        (!sampling || atomic_load_explicit(&img->textures_tried, memory_order_acquire)))
        return CL_SUCCESS;
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&cv_image_bind_lock);
    bool fresh = !atomic_load_explicit(&img->bound, memory_order_relaxed);
    /* Kernels find the image by its descriptor's address (data_offset is relative to it). */
    if (!img->descriptor) {
        img->descriptor = cv_buffer_create(m->context, CL_MEM_READ_ONLY, sizeof(cv_image_abi), NULL,
                                           NULL, 0, &err);
        if (img->descriptor)
            m->device_address = img->descriptor->device_address;
    }
    bool textures = err == CL_SUCCESS && sampling &&
                    !atomic_load_explicit(&img->textures_tried, memory_order_relaxed);
    if (textures)
        cv_image_textures(img, m->flags, m->context->devices[0]);
    if (err == CL_SUCCESS && (fresh || (textures && img->texture[0]))) {
        err = cv_image_write_descriptor(img);
        /* A descriptor that cannot take them leaves the image sampled in software; one never
         * written is written at the next binding. */
        if (err != CL_SUCCESS && textures && img->texture[0]) {
            cv_image_drop_textures(img);
            if (!fresh)
                err = CL_SUCCESS;
        }
    }
    /* The descriptor and textures are written before the flags, which readers load with
     * acquire. */
    if (textures)
        atomic_store_explicit(&img->textures_tried, true, memory_order_release);
    if (err == CL_SUCCESS && fresh)
        atomic_store_explicit(&img->bound, true, memory_order_release);
    pthread_mutex_unlock(&cv_image_bind_lock);
    /* clSetKernelArg's errors: what is not the host's memory is the device's resources (device
     * memory that ran out included). */
    return err == CL_SUCCESS || err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES;
}

void cv_image_free(cv_image *img) {
    for (unsigned slot = 0; img->texture_device && slot < CV_IMAGE_TEXTURES; slot++)
        cvcu_texture_destroy(img->texture_device->cu, img->texture[slot]);
    if (img->pixels && img->desc.mem_object)
        cv_unhold(&img->pixels->obj);
    else if (img->pixels)
        cv_mem_release(img->pixels);
    if (img->descriptor)
        cv_mem_release(img->descriptor);
    free(img);
}

/* ---- queries ---------------------------------------------------------------------------- */

cl_int cv_image_info(cl_mem m, cl_image_info param, const cv_info *out) {
    const cv_image *img = m->image;
    const cl_image_desc *d = &img->desc;
    cl_mem_object_type t = d->image_type;
    cl_int err;
    switch (param) {
    case CL_IMAGE_FORMAT:
        err = cv_info_bytes(out, &img->format, sizeof img->format);
        break;
    case CL_IMAGE_ELEMENT_SIZE:
        err = cv_info_size(out, img->element_size);
        break;
    case CL_IMAGE_ROW_PITCH:
    case CL_IMAGE_SLICE_PITCH: {
        /* The application's layout, whatever padding the image's own storage has ("For a 1D
         * image, 1D image buffer and 2D image object" the slice pitch is 0). */
        size_t row, slice;
        cv_image_given_pitches(d, img->element_size, &row, &slice);
        err = cv_info_size(out, param == CL_IMAGE_ROW_PITCH ? row : slice);
        break;
    }
    case CL_IMAGE_WIDTH:
        err = cv_info_size(out, d->image_width);
        break;
    case CL_IMAGE_HEIGHT:
        /* "For a 1D image, 1D image buffer and 1D image array object, height = 0." */
        err = cv_info_size(out, t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                                        t == CL_MEM_OBJECT_IMAGE3D
                                    ? d->image_height
                                    : 0);
        break;
    case CL_IMAGE_DEPTH:
        /* "For a 1D image, 1D image buffer, 2D image or 1D and 2D image array object, depth
         * = 0." */
        err = cv_info_size(out, t == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 0);
        break;
    case CL_IMAGE_ARRAY_SIZE:
        err = cv_info_size(out, cv_image_is_array(t) ? d->image_array_size : 0);
        break;
    case CL_IMAGE_BUFFER:
        err = cv_info_ptr(out, t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? d->buffer : NULL);
        break;
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES:
        err = cv_info_uint(out, 0);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
