/* Images and samplers (optional: CL_DEVICE_IMAGE_SUPPORT). The formats every device with images
 * must list, image objects of each type and what clGetImageInfo says of them, the creation errors,
 * host transfers with pitches (write, read, map), device copies and fills (image to image, to and
 * from buffers), samplers and their info, and kernels that read through samplers, read without
 * one, query the image and write it. A device without images skips every case (the errors it
 * must give then are in the buffer section's unclaimed_features). */
#include "ct.h"

#include <math.h>

#define SETUP_IMAGES()                                                                             \
    if (!ct_dev_uint(e->device, CL_DEVICE_IMAGE_SUPPORT))                                          \
    CT_SKIP("no image support")

static cl_image_desc desc_of(cl_mem_object_type type, size_t w, size_t h, size_t d,
                             size_t array_size) {
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = type;
    desc.image_width = w;
    desc.image_height = h;
    desc.image_depth = d;
    desc.image_array_size = array_size;
    return desc;
}

static bool lists_format(const cl_image_format *list, cl_uint n, cl_channel_order order,
                         cl_channel_type type) {
    for (cl_uint i = 0; i < n; i++)
        if (list[i].image_channel_order == order && list[i].image_channel_data_type == type)
            return true;
    return false;
}

/* OpenCL 3.0, "Minimum List of Supported Image Formats": for reading and for writing, a device
 * with images lists CL_RGBA with each of these data types, and CL_BGRA with CL_UNORM_INT8. */
static void minimum_formats(ct_env *e) {
    SETUP_IMAGES();
    static const cl_channel_type rgba[] = {
        CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SIGNED_INT8,    CL_SIGNED_INT16, CL_SIGNED_INT32,
        CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
    static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE2D,
                                               CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY};
    static const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t f = 0; f < 2; f++) {
            cl_uint n = 0;
            CT_ERR(CL_SUCCESS, clGetSupportedImageFormats(e->ctx, flags[f], types[t], 0, NULL, &n));
            CT_REQUIRE(n > 0);
            cl_image_format *list = calloc(n, sizeof *list);
            cl_uint again = 0;
            CT_ERR(CL_SUCCESS,
                   clGetSupportedImageFormats(e->ctx, flags[f], types[t], n, list, &again));
            CT_CHECK(again == n);
            for (size_t i = 0; i < sizeof rgba / sizeof rgba[0]; i++)
                CT_CHECK(lists_format(list, n, CL_RGBA, rgba[i]));
            CT_CHECK(lists_format(list, n, CL_BGRA, CL_UNORM_INT8));
            free(list);
        }
    /* "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
     * image_formats is not NULL." */
    cl_image_format one;
    cl_uint n = 0;
    CT_ERR(CL_INVALID_VALUE, clGetSupportedImageFormats(e->ctx, CL_MEM_READ_WRITE,
                                                        CL_MEM_OBJECT_BUFFER, 0, NULL, &n));
    CT_ERR(CL_INVALID_VALUE, clGetSupportedImageFormats(e->ctx, CL_MEM_READ_WRITE,
                                                        CL_MEM_OBJECT_IMAGE2D, 0, &one, &n));
}

/* Each image type: clGetImageInfo and clGetMemObjectInfo answer what it was made with. */
static void create_and_info(ct_env *e) {
    SETUP_IMAGES();
    const cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_int err = CL_SUCCESS;
    cl_mem buf = ct_buffer(e, CL_MEM_READ_WRITE, 64 * 4, NULL);
    CT_REQUIRE(buf != NULL);
    struct {
        cl_image_desc desc;
        size_t height, depth, array_size; /* as clGetImageInfo answers them */
    } cases[] = {
        {desc_of(CL_MEM_OBJECT_IMAGE1D, 64, 0, 0, 0), 0, 0, 0},
        {desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 64, 0, 0, 3), 0, 0, 3},
        {desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0), 0, 0, 0},
        {desc_of(CL_MEM_OBJECT_IMAGE2D, 64, 32, 0, 0), 32, 0, 0},
        {desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 64, 32, 0, 5), 32, 0, 5},
        {desc_of(CL_MEM_OBJECT_IMAGE3D, 64, 32, 8, 0), 32, 8, 0},
    };
    cases[2].desc.buffer = buf;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const cl_image_desc *d = &cases[i].desc;
        cl_mem img = clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, d, NULL, &err);
        CT_ERR(CL_SUCCESS, err);
        if (!img)
            continue;
        cl_image_format got;
        size_t elem = 0, row = 0, slice = 0, w = 0, h = 9, dep = 9, arr = 9;
        cl_mem from = NULL;
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof got, &got, NULL));
        CT_CHECK(got.image_channel_order == CL_RGBA &&
                 got.image_channel_data_type == CL_UNORM_INT8);
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof elem, &elem, NULL));
        CT_CHECK(elem == 4);
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL));
        CT_CHECK(row >= 64 * 4);
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, NULL));
        /* "the size in bytes of a 2D slice for a 3D image or the size of each image in a 1D or 2D
         * image array... For a 1D image, 1D image buffer and 2D image object return 0." */
        if (d->image_type == CL_MEM_OBJECT_IMAGE3D || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
            CT_CHECK(slice >= row * 32);
        else if (d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
            CT_CHECK(slice >= row);
        else
            CT_CHECK(slice == 0);
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof w, &w, NULL));
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof h, &h, NULL));
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof dep, &dep, NULL));
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof arr, &arr, NULL));
        CT_CHECK(w == 64 && h == cases[i].height && dep == cases[i].depth &&
                 arr == cases[i].array_size);
        CT_ERR(CL_SUCCESS, clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof from, &from, NULL));
        CT_CHECK(from == (d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? buf : NULL));
        cl_uint levels = 9, samples = 9;
        CT_ERR(CL_SUCCESS,
               clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof levels, &levels, NULL));
        CT_ERR(CL_SUCCESS,
               clGetImageInfo(img, CL_IMAGE_NUM_SAMPLES, sizeof samples, &samples, NULL));
        CT_CHECK(levels == 0 && samples == 0);
        cl_mem_object_type type = 0;
        CT_ERR(CL_SUCCESS, clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof type, &type, NULL));
        CT_CHECK(type == d->image_type);
        /* "CL_INVALID_VALUE if param_name is not valid" */
        CT_ERR(CL_INVALID_VALUE, clGetImageInfo(img, 0x7fff, sizeof w, &w, NULL));
        clReleaseMemObject(img);
    }
    clReleaseMemObject(buf);
}

/* clGetImageInfo of a buffer: "CL_INVALID_MEM_OBJECT if image is a not a valid image object". */
static void info_of_a_buffer(ct_env *e) {
    SETUP_IMAGES();
    cl_mem buf = ct_buffer(e, CL_MEM_READ_WRITE, 256, NULL);
    CT_REQUIRE(buf != NULL);
    size_t w = 0;
    CT_ERR(CL_INVALID_MEM_OBJECT, clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof w, &w, NULL));
    clReleaseMemObject(buf);
}

/* clCreateImage's errors about the format: "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values
 * specified in image_format are not valid or if image_format is NULL." */
static void format_errors(ct_env *e) {
    SETUP_IMAGES();
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 16, 16, 0, 0);
    cl_int err = CL_SUCCESS;
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, NULL, &d, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    const cl_image_format bad = {CL_RGBA, 0x7fff}, mismatch = {CL_R, CL_UNORM_SHORT_565};
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &bad, &d, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    /* CL_UNORM_SHORT_565 "can only be used if channel order is CL_RGB or CL_RGBx" */
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &mismatch, &d, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
}

/* clCreateImage's errors about the descriptor and the sizes. */
static void descriptor_errors(ct_env *e) {
    SETUP_IMAGES();
    const cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 16, 16, 0, 0);
    cl_int err = CL_SUCCESS;
    unsigned char host[16 * 16 * 4 + 64];
    /* "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if
     * image_desc is NULL." A width of 0 is none ("image_width ... must be >= 1"). */
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    cl_image_desc zero = d;
    zero.image_width = 0;
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &zero, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    /* "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid": a buffer
     * type is no image type */
    cl_image_desc not_image = d;
    not_image.image_type = CL_MEM_OBJECT_BUFFER;
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &not_image, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    /* image_row_pitch "must be 0 if host_ptr is NULL"; with host_ptr, "a multiple of the image
     * element size in bytes" */
    cl_image_desc pitch = d;
    pitch.image_row_pitch = 16 * 4 + 2;
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &pitch, host,
                           &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    pitch.image_row_pitch = 16 * 4;
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &pitch, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    /* "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum
     * image dimensions described in the Device Queries table for all devices in context." */
    cl_image_desc wide = d;
    wide.image_width = ct_dev_size(e->device, CL_DEVICE_IMAGE2D_MAX_WIDTH) + 1;
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &wide, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_IMAGE_SIZE, err);
}

/* clCreateImage's errors about the type, the flags and the host pointer. */
static void create_errors(ct_env *e) {
    SETUP_IMAGES();
    const cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 16, 16, 0, 0);
    cl_int err = CL_SUCCESS;
    unsigned char host[16 * 16 * 4];
    /* "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
     * are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
     * CL_MEM_USE_HOST_PTR are not set in flags." */
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d, NULL,
                           &err) == NULL);
    CT_ERR(CL_INVALID_HOST_PTR, err);
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &d, host, &err) == NULL);
    CT_ERR(CL_INVALID_HOST_PTR, err);
    /* "CL_INVALID_VALUE if values specified in flags are not valid" */
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &fmt, &d, NULL, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* an image1d_buffer needs a buffer: "buffer must be a valid buffer memory object if
     * image_type is CL_MEM_OBJECT_IMAGE1D_BUFFER" */
    cl_image_desc no_buffer = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0);
    CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &no_buffer, NULL, &err) == NULL);
    CT_ERR2(CL_INVALID_IMAGE_DESCRIPTOR, CL_INVALID_MEM_OBJECT, err);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 7 + seed * 13 + (i >> 8));
}

/* A 2D image made from host memory with a padded row pitch, read back whole with another pitch
 * and in part (origin and region); a region written, read again. */
static void write_read_2d(ct_env *e) {
    SETUP_IMAGES();
    enum { W = 37, H = 19, PITCH = W * 4 + 12 };
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    d.image_row_pitch = PITCH;
    unsigned char *src = malloc(PITCH * H), *back = calloc(W * H * 4, 1);
    fill_pattern(src, PITCH * H, 1);
    cl_int err = CL_SUCCESS;
    cl_mem img =
        clCreateImage(e->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d, src, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(img != NULL);
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    CT_ERR(CL_SUCCESS,
           clEnqueueReadImage(e->q, img, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    int wrong = 0;
    for (int y = 0; y < H; y++)
        wrong += memcmp(back + y * W * 4, src + y * PITCH, W * 4) != 0;
    CT_CHECK(wrong == 0);
    /* a region at (5, 3), 10 x 4, written from a tight buffer, then read with a row pitch */
    unsigned char part[10 * 4 * 4], got[4 * 48];
    fill_pattern(part, sizeof part, 2);
    size_t at[3] = {5, 3, 0}, reg[3] = {10, 4, 1};
    CT_ERR(CL_SUCCESS, clEnqueueWriteImage(e->q, img, CL_TRUE, at, reg, 0, 0, part, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadImage(e->q, img, CL_TRUE, at, reg, 48, 0, got, 0, NULL, NULL));
    wrong = 0;
    for (int y = 0; y < 4; y++)
        wrong += memcmp(got + y * 48, part + y * 40, 40) != 0;
    CT_CHECK(wrong == 0);
    /* "CL_INVALID_VALUE if the region being read or written specified by origin and region is out
     * of bounds", "if values in origin and region do not follow rules described in the argument
     * description": region[2] of a 2D image must be 1. */
    size_t past[3] = {W - 2, 0, 0}, three[3] = {3, 1, 1}, deep[3] = {1, 1, 2};
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueReadImage(e->q, img, CL_TRUE, past, three, 0, 0, got, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueReadImage(e->q, img, CL_TRUE, origin, deep, 0, 0, got, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if ptr is NULL." */
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueReadImage(e->q, img, CL_TRUE, origin, three, 0, 0, NULL, 0, NULL, NULL));
    clReleaseMemObject(img);
    free(src);
    free(back);
}

/* A 3D image and a 2D array written and read by slices with row and slice pitches. */
static void write_read_3d(ct_env *e) {
    SETUP_IMAGES();
    enum { W = 9, H = 7, D = 5, ROW = W * 8 + 8, SLICE = ROW * H + 16 };
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT16}; /* 8 bytes an element */
    static const cl_mem_object_type types[2] = {CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE2D_ARRAY};
    for (int t = 0; t < 2; t++) {
        cl_image_desc d = types[t] == CL_MEM_OBJECT_IMAGE3D ? desc_of(types[t], W, H, D, 0)
                                                            : desc_of(types[t], W, H, 0, D);
        cl_int err = CL_SUCCESS;
        cl_mem img = clCreateImage(e->ctx, CL_MEM_READ_ONLY, &fmt, &d, NULL, &err);
        CT_ERR(CL_SUCCESS, err);
        CT_REQUIRE(img != NULL);
        unsigned char *src = malloc(SLICE * D), *back = calloc(W * H * D * 8, 1);
        fill_pattern(src, SLICE * D, 3 + (unsigned)t);
        size_t origin[3] = {0, 0, 0}, region[3] = {W, H, D};
        CT_ERR(CL_SUCCESS, clEnqueueWriteImage(e->q, img, CL_FALSE, origin, region, ROW, SLICE, src,
                                               0, NULL, NULL));
        CT_ERR(CL_SUCCESS,
               clEnqueueReadImage(e->q, img, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
        int wrong = 0;
        for (int z = 0; z < D; z++)
            for (int y = 0; y < H; y++)
                wrong += memcmp(back + (z * H + y) * W * 8, src + z * SLICE + y * ROW, W * 8) != 0;
        CT_CHECK(wrong == 0);
        clReleaseMemObject(img);
        free(src);
        free(back);
    }
}

/* Device-side: fill (a float color into UNORM_INT8 and a uint color into UNSIGNED_INT32), copy
 * between images, image to buffer and buffer to image. */
static void fill_and_copy(ct_env *e) {
    SETUP_IMAGES();
    enum { W = 24, H = 10 };
    const cl_image_format unorm = {CL_RGBA, CL_UNORM_INT8}, u32 = {CL_RGBA, CL_UNSIGNED_INT32};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    cl_int err = CL_SUCCESS;
    cl_mem a = clCreateImage(e->ctx, CL_MEM_READ_WRITE, &unorm, &d, NULL, &err);
    cl_mem b = clCreateImage(e->ctx, CL_MEM_READ_WRITE, &unorm, &d, NULL, &err);
    cl_mem c = clCreateImage(e->ctx, CL_MEM_READ_WRITE, &u32, &d, NULL, &err);
    cl_mem buf = ct_buffer(e, CL_MEM_READ_WRITE, W * H * 4, NULL);
    CT_REQUIRE(a && b && c && buf);
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    /* "The fill color is a single floating-point value if the channel order is CL_DEPTH. Otherwise,
     * the fill color is a four component RGBA floating-point color value if the image channel data
     * type is not an unnormalized signed or unsigned integer type" (converted as write_imagef
     * would: round to nearest for UNORM_INT8) */
    const float color[4] = {0.0f, 1.0f, 0.5f, 0.25f};
    CT_ERR(CL_SUCCESS, clEnqueueFillImage(e->q, a, color, origin, region, 0, NULL, NULL));
    unsigned char px[W * H * 4];
    CT_ERR(CL_SUCCESS,
           clEnqueueReadImage(e->q, a, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < W * H; i++)
        wrong += px[4 * i] != 0 || px[4 * i + 1] != 255 || abs(px[4 * i + 2] - 128) > 1 ||
                 abs(px[4 * i + 3] - 64) > 1;
    CT_CHECK(wrong == 0);
    const cl_uint ucolor[4] = {7, 0xffffffffu, 123456, 0};
    CT_ERR(CL_SUCCESS, clEnqueueFillImage(e->q, c, ucolor, origin, region, 0, NULL, NULL));
    cl_uint upx[W * H * 4];
    CT_ERR(CL_SUCCESS,
           clEnqueueReadImage(e->q, c, CL_TRUE, origin, region, 0, 0, upx, 0, NULL, NULL));
    wrong = 0;
    for (int i = 0; i < W * H * 4; i++)
        wrong += upx[i] != ucolor[i % 4];
    CT_CHECK(wrong == 0);
    /* image a's pattern: written from the host; copied to b at an offset */
    unsigned char pattern[W * H * 4];
    fill_pattern(pattern, sizeof pattern, 4);
    CT_ERR(CL_SUCCESS,
           clEnqueueWriteImage(e->q, a, CL_TRUE, origin, region, 0, 0, pattern, 0, NULL, NULL));
    size_t src_at[3] = {2, 1, 0}, dst_at[3] = {5, 4, 0}, reg[3] = {8, 5, 1};
    CT_ERR(CL_SUCCESS, clEnqueueCopyImage(e->q, a, b, src_at, dst_at, reg, 0, NULL, NULL));
    unsigned char got[8 * 5 * 4];
    CT_ERR(CL_SUCCESS, clEnqueueReadImage(e->q, b, CL_TRUE, dst_at, reg, 0, 0, got, 0, NULL, NULL));
    wrong = 0;
    for (int y = 0; y < 5; y++)
        wrong += memcmp(got + y * 32, pattern + ((1 + y) * W + 2) * 4, 32) != 0;
    CT_CHECK(wrong == 0);
    /* "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format." */
    CT_ERR(CL_IMAGE_FORMAT_MISMATCH,
           clEnqueueCopyImage(e->q, a, c, src_at, dst_at, reg, 0, NULL, NULL));
    /* image to buffer (tight rows at an offset), and back into b from that buffer */
    CT_ERR(CL_SUCCESS, clEnqueueCopyImageToBuffer(e->q, a, buf, src_at, reg, 16, 0, NULL, NULL));
    unsigned char linear[8 * 5 * 4];
    CT_ERR(CL_SUCCESS,
           clEnqueueReadBuffer(e->q, buf, CL_TRUE, 16, sizeof linear, linear, 0, NULL, NULL));
    wrong = 0;
    for (int y = 0; y < 5; y++)
        wrong += memcmp(linear + y * 32, pattern + ((1 + y) * W + 2) * 4, 32) != 0;
    CT_CHECK(wrong == 0);
    size_t corner[3] = {0, 0, 0};
    CT_ERR(CL_SUCCESS, clEnqueueCopyBufferToImage(e->q, buf, b, 16, corner, reg, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadImage(e->q, b, CL_TRUE, corner, reg, 0, 0, got, 0, NULL, NULL));
    CT_CHECK(memcmp(got, linear, sizeof got) == 0);
    /* "CL_INVALID_VALUE if the 1D, 2D or 3D rectangular region specified by src_offset and
     * src_offset + src_cb refer to a region outside src_buffer" */
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueCopyBufferToImage(e->q, buf, b, W * H * 4 - 8, corner, reg, 0, NULL, NULL));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(buf);
}

/* Map a region of a 2D image for writing: the row pitch the map returns, written through it, seen
 * by a read after the unmap; a read map sees what was written. */
static void map_image(ct_env *e) {
    SETUP_IMAGES();
    enum { W = 20, H = 12 };
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT16};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    cl_int err = CL_SUCCESS;
    cl_mem img = clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &d, NULL, &err);
    CT_REQUIRE(img != NULL);
    size_t at[3] = {3, 2, 0}, reg[3] = {6, 5, 1}, row = 0, slice = 99;
    cl_ushort *p = clEnqueueMapImage(e->q, img, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, at, reg,
                                     &row, &slice, 0, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(p != NULL);
    CT_CHECK(row >= 6 * 8);
    /* "For a 2D image, zero is returned" in image_slice_pitch */
    CT_CHECK(slice == 0);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 6 * 4; x++)
            ((cl_ushort *)((char *)p + y * row))[x] = (cl_ushort)(1000 * y + x);
    CT_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(e->q, img, p, 0, NULL, NULL));
    cl_ushort got[5 * 6 * 4];
    CT_ERR(CL_SUCCESS, clEnqueueReadImage(e->q, img, CL_TRUE, at, reg, 0, 0, got, 0, NULL, NULL));
    int wrong = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 24; x++)
            wrong += got[y * 24 + x] != 1000 * y + x;
    CT_CHECK(wrong == 0);
    cl_ushort *r = clEnqueueMapImage(e->q, img, CL_TRUE, CL_MAP_READ, at, reg, &row, NULL, 0, NULL,
                                     NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(r != NULL);
    CT_CHECK(r[0] == 0 && ((cl_ushort *)((char *)r + 4 * row))[23] == 4023);
    CT_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(e->q, img, r, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if image_row_pitch is NULL." */
    CT_CHECK(clEnqueueMapImage(e->q, img, CL_TRUE, CL_MAP_READ, at, reg, NULL, NULL, 0, NULL, NULL,
                               &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clReleaseMemObject(img);
}

/* Samplers: what clGetSamplerInfo answers, both creation forms, and their errors. */
static void sampler_info(ct_env *e) {
    SETUP_IMAGES();
    cl_int err = CL_SUCCESS;
    cl_sampler s =
        clCreateSampler(e->ctx, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(s != NULL);
    cl_bool norm = CL_FALSE;
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    cl_context ctx = NULL;
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof ctx, &ctx, NULL));
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CT_CHECK(norm == CL_TRUE && am == CL_ADDRESS_MIRRORED_REPEAT && fm == CL_FILTER_LINEAR &&
             ctx == e->ctx && refs == 1);
    /* clCreateSampler gives no properties: "If sampler was not created using
     * clCreateSamplerWithProperties, a param_value_size_ret of 0 is returned" */
    size_t size = 99;
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &size));
    CT_CHECK(size == 0);
    CT_ERR(CL_SUCCESS, clRetainSampler(s));
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CT_CHECK(refs == 2);
    CT_ERR(CL_SUCCESS, clReleaseSampler(s));
    CT_ERR(CL_SUCCESS, clReleaseSampler(s));
    const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                           CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE, 0};
    s = clCreateSamplerWithProperties(e->ctx, props, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(s != NULL);
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    /* the default of a property not given: "CL_FILTER_NEAREST" */
    CT_CHECK(fm == CL_FILTER_NEAREST && norm == CL_FALSE);
    cl_sampler_properties back[5] = {0};
    CT_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &size));
    CT_CHECK(size == sizeof props && memcmp(back, props, sizeof props) == 0);
    clReleaseSampler(s);
    /* "CL_INVALID_VALUE if the property name in sampler_properties is not a supported property
     * name, if the value specified for a supported property name is not valid, or if the same
     * property name is specified more than once." */
    const cl_sampler_properties unknown[] = {0x7fff, 1, 0},
                                twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                           CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    CT_CHECK(clCreateSamplerWithProperties(e->ctx, unknown, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateSamplerWithProperties(e->ctx, twice, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
}

/* clCreateSampler: "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a
 * combination of these arguments are not valid"; the same for a property's value. A sampler
 * argument set to an image: "CL_INVALID_SAMPLER for an argument declared to be of type sampler_t
 * when the specified arg_value is not a valid sampler object". */
static void sampler_value_errors(ct_env *e) {
    SETUP_IMAGES();
    cl_int err = CL_SUCCESS;
    const cl_sampler_properties bad_mode[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7fff, 0},
                                bad_filter[] = {CL_SAMPLER_FILTER_MODE, 0x7fff, 0};
    CT_CHECK(clCreateSamplerWithProperties(e->ctx, bad_mode, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateSamplerWithProperties(e->ctx, bad_filter, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateSampler(e->ctx, CL_TRUE, 0x7fff, CL_FILTER_NEAREST, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateSampler(e->ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x7fff, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    if (!ct_compiler(e))
        return;
    const cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
    cl_mem img = clCreateImage(e->ctx, CL_MEM_READ_ONLY, &fmt, &d, NULL, &err);
    cl_program p = ct_build(e,
                            "kernel void k(read_only image2d_t i, sampler_t s, global float4 *o)"
                            " { *o = read_imagef(i, s, (int2)(0, 0)); }\n",
                            NULL);
    CT_REQUIRE(img && p);
    cl_kernel k = ct_kernel(p, "k");
    CT_REQUIRE(k != NULL);
    CT_ERR(CL_INVALID_SAMPLER, clSetKernelArg(k, 1, sizeof img, &img));
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(img);
}

static const char *kernel_src =
    "constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                             CLK_FILTER_NEAREST;\n"
    /* every pixel through the constant sampler, the sampler argument (normalized, linear: at pixel
     * centres it returns the pixel) and without a sampler; the sizes and format */
    "kernel void sample(read_only image2d_t img, sampler_t lin, global float4 *out,\n"
    "                   global int *info) {\n"
    "    int x = get_global_id(0), y = get_global_id(1), w = get_image_width(img);\n"
    "    int h = get_image_height(img);\n"
    "    float2 centre = (float2)((x + 0.5f) / w, (y + 0.5f) / h);\n"
    "    out[3 * (y * w + x)] = read_imagef(img, nearest, (int2)(x, y));\n"
    "    out[3 * (y * w + x) + 1] = read_imagef(img, lin, centre);\n"
    "    out[3 * (y * w + x) + 2] = read_imagef(img, (int2)(x, y));\n"
    "    if (x == 0 && y == 0) {\n"
    "        info[0] = w; info[1] = h; info[2] = get_image_channel_data_type(img);\n"
    "        info[3] = get_image_channel_order(img);\n"
    "        int2 dim = get_image_dim(img); info[4] = dim.x; info[5] = dim.y;\n"
    "        info[6] = as_int(read_imagef(img, nearest, (int2)(-5, h + 3)).x);\n"
    "    }\n"
    "}\n"
    /* a write-only image written from the global id, as UNSIGNED_INT32 */
    "kernel void paint(write_only image2d_t img) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    write_imageui(img, (int2)(x, y), (uint4)(x, y, x * y, 7));\n"
    "}\n";

/* Kernels read a UNORM_INT8 image through a constant nearest sampler, a normalized linear
 * sampler argument at pixel centres and without a sampler, query it, and write another. */
/* An image type named by a typedef is an image argument (its CL_KERNEL_ARG_TYPE_NAME is the
 * typedef's name), beside a pointer to a struct whose name starts like an image type's. */
static void typedef_image_arg(ct_env *e) {
    SETUP_IMAGES();
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    static const char *src = "typedef image2d_t picture;\n"
                             "typedef struct { int w, h; } image_dims;\n"
                             "kernel void dims(picture p, global image_dims *o) {\n"
                             "    o->w = get_image_width(p);\n"
                             "    o->h = get_image_height(p);\n"
                             "}\n";
    const cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 13, 7, 0, 0);
    cl_int err = CL_SUCCESS;
    cl_mem img = clCreateImage(e->ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
    cl_mem out = ct_buffer(e, CL_MEM_READ_WRITE, 2 * sizeof(cl_int), NULL);
    CT_REQUIRE(img && out);
    cl_program p = ct_build(e, src, "-cl-kernel-arg-info");
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "dims");
    CT_REQUIRE(k);
    char name[32] = "";
    CT_ERR(CL_SUCCESS, clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL));
    CT_CHECK(strcmp(name, "picture") == 0);
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof img, &img));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof out, &out));
    size_t one = 1;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_int got[2] = {0, 0};
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    ct_checks++;
    if (got[0] != 13 || got[1] != 7)
        ct_fail(__FILE__, __LINE__, "width %d, height %d: want 13, 7", got[0], got[1]);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
}

static void kernel_read_write(ct_env *e) {
    SETUP_IMAGES();
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    enum { W = 16, H = 8 };
    const cl_image_format unorm = {CL_RGBA, CL_UNORM_INT8}, u32 = {CL_RGBA, CL_UNSIGNED_INT32};
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
    unsigned char px[W * H * 4];
    fill_pattern(px, sizeof px, 5);
    cl_int err = CL_SUCCESS;
    cl_mem img =
        clCreateImage(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &unorm, &d, px, &err);
    cl_mem dst = clCreateImage(e->ctx, CL_MEM_WRITE_ONLY, &u32, &d, NULL, &err);
    cl_mem out = ct_buffer(e, CL_MEM_READ_WRITE, W * H * 3 * sizeof(cl_float4), NULL);
    cl_mem info = ct_buffer(e, CL_MEM_READ_WRITE, 8 * sizeof(cl_int), NULL);
    cl_sampler lin = clCreateSampler(e->ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    CT_REQUIRE(img && dst && out && info && lin);
    cl_program p = ct_build(e, kernel_src, NULL);
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "sample"), w = ct_kernel(p, "paint");
    CT_REQUIRE(k && w);
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof img, &img));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof lin, &lin));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof out, &out));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 3, sizeof info, &info));
    size_t g[2] = {W, H};
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clSetKernelArg(w, 0, sizeof dst, &dst));
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, w, 2, NULL, g, NULL, 0, NULL, NULL));
    float *res = malloc(W * H * 3 * sizeof(cl_float4));
    cl_int got_info[8];
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, out, CL_TRUE, 0, W * H * 3 * sizeof(cl_float4),
                                           res, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS,
           clEnqueueReadBuffer(e->q, info, CL_TRUE, 0, sizeof got_info, got_info, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < 4; c++) {
            float want = px[4 * i + c] / 255.0f;
            /* nearest and samplerless: exact; linear at pixel centres: the pixel, within the
             * filter's precision */
            wrong +=
                fabsf(res[12 * i + c] - want) > 1e-6f || fabsf(res[12 * i + 8 + c] - want) > 1e-6f;
            wrong += fabsf(res[12 * i + 4 + c] - want) > 2.0f / 255;
        }
    CT_CHECK(wrong == 0);
    float edge;
    memcpy(&edge, &got_info[6], sizeof edge);
    CT_CHECK(got_info[0] == W && got_info[1] == H && got_info[2] == CL_UNORM_INT8 &&
             got_info[3] == CL_RGBA && got_info[4] == W && got_info[5] == H);
    /* CLK_ADDRESS_CLAMP_TO_EDGE: (-5, h + 3) reads the pixel at (0, h - 1) */
    CT_CHECK(fabsf(edge - px[4 * (H - 1) * W] / 255.0f) < 1e-6f);
    cl_uint painted[W * H * 4];
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    CT_ERR(CL_SUCCESS,
           clEnqueueReadImage(e->q, dst, CL_TRUE, origin, region, 0, 0, painted, 0, NULL, NULL));
    wrong = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const cl_uint *q = painted + 4 * (y * W + x);
            wrong +=
                q[0] != (cl_uint)x || q[1] != (cl_uint)y || q[2] != (cl_uint)(x * y) || q[3] != 7;
        }
    CT_CHECK(wrong == 0);
    free(res);
    clReleaseKernel(k);
    clReleaseKernel(w);
    clReleaseProgram(p);
    clReleaseSampler(lin);
    clReleaseMemObject(img);
    clReleaseMemObject(dst);
    clReleaseMemObject(out);
    clReleaseMemObject(info);
}

/* ---- every sampler state, against the specification's formulas ---- */

static const char *states_src =
    "kernel void at(read_only image2d_t img, sampler_t s, global const float2 *c,\n"
    "               global float4 *out) {\n"
    "    out[get_global_id(0)] = read_imagef(img, s, c[get_global_id(0)]);\n"
    "}\n";

/* The API specification's addressing ("Image Addressing and Filtering") of one coordinate: the
 * texel index for nearest (*i0), or the two for linear and the weight (*a); -1 or n: outside
 * (the border). u is the coordinate in texels (s * n where normalized). */
static void address(cl_addressing_mode mode, bool normalized, bool linear, float s, int n, int *i0,
                    int *i1, float *a) {
    float u = normalized ? s * n : s;
    if (mode == CL_ADDRESS_REPEAT) {
        u = (s - floorf(s)) * n;
    } else if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
        float m = 2.0f * rintf(0.5f * s);
        u = fabsf(s - m) * n;
    }
    if (!linear) {
        int i = (int)floorf(u);
        if (mode == CL_ADDRESS_REPEAT && i > n - 1)
            i -= n;
        if (mode == CL_ADDRESS_MIRRORED_REPEAT)
            i = i < n - 1 ? i : n - 1;
        if (mode == CL_ADDRESS_CLAMP_TO_EDGE || mode == CL_ADDRESS_NONE)
            i = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
        if (mode == CL_ADDRESS_CLAMP)
            i = i < -1 ? -1 : i > n ? n : i;
        *i0 = *i1 = i;
        *a = 0;
        return;
    }
    int j0 = (int)floorf(u - 0.5f), j1 = j0 + 1;
    *a = (u - 0.5f) - floorf(u - 0.5f);
    if (mode == CL_ADDRESS_REPEAT) {
        j0 = j0 < 0 ? j0 + n : j0;
        j1 = j1 > n - 1 ? j1 - n : j1;
    } else if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
        j0 = j0 < 0 ? 0 : j0;
        j1 = j1 > n - 1 ? n - 1 : j1;
    } else if (mode == CL_ADDRESS_CLAMP) {
        j0 = j0 < -1 ? -1 : j0 > n ? n : j0;
        j1 = j1 < -1 ? -1 : j1 > n ? n : j1;
    } else {
        j0 = j0 < 0 ? 0 : j0 > n - 1 ? n - 1 : j0;
        j1 = j1 < 0 ? 0 : j1 > n - 1 ? n - 1 : j1;
    }
    *i0 = j0;
    *i1 = j1;
}

/* The texel (x, y) of a UNORM_INT8 image of order `order` as read_imagef returns it; outside the
 * image the border colour ((0, 0, 0, 0), or alpha 1 for an order without alpha). */
static void texel(const unsigned char *px, cl_channel_order order, int w, int h, int x, int y,
                  float out[4]) {
    bool in = x >= 0 && x < w && y >= 0 && y < h;
    int ch = order == CL_R ? 1 : 4;
    const unsigned char *p = px + ((size_t)y * w + x) * ch;
    for (int c = 0; c < 4; c++)
        out[c] = c == 3 && order == CL_R ? 1.0f : 0.0f;
    if (!in)
        return;
    if (order == CL_R)
        out[0] = p[0] / 255.0f;
    for (int c = 0; order != CL_R && c < 4; c++)
        out[c] = p[order == CL_BGRA && c < 3 ? 2 - c : c] / 255.0f;
}

/* Every sampler state (normalized coordinates with each addressing mode, unnormalized with none,
 * clamp-to-edge and clamp; nearest and linear) as an argument, at coordinates inside and outside
 * a 5 x 4 UNORM_INT8 image of each order given, none of them at a texel's edge, against the
 * formulas: nearest exactly, linear within 2/255 (the texture units' weights have 8 fractional
 * bits). CLK_ADDRESS_NONE is read where every texel used is inside (outside it is undefined). */
static void sampler_states_of(ct_env *e, const cl_channel_order *orders, size_t num_orders) {
    SETUP_IMAGES();
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    enum { W = 5, H = 4 };
    static const float ns[] = {-0.3f, 0.02f, 0.1f, 0.5f, 0.93f, 1.37f};
    static const float nt[] = {-0.2f, 0.05f, 0.45f, 0.99f, 1.3f};
    static const float us[] = {-1.3f, 0.25f, 2.5f, 4.9f, 6.2f};
    static const float ut[] = {-0.6f, 0.7f, 1.5f, 3.9f, 5.1f};
    static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                               CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                               CL_ADDRESS_MIRRORED_REPEAT};
    enum { N = 6 * 5 };
    cl_program p = ct_build(e, states_src, NULL);
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "at");
    cl_mem cbuf = ct_buffer(e, CL_MEM_READ_WRITE, N * sizeof(cl_float2), NULL);
    cl_mem obuf = ct_buffer(e, CL_MEM_READ_WRITE, N * sizeof(cl_float4), NULL);
    CT_REQUIRE(k && cbuf && obuf);
    int wrong = 0;
    for (size_t oi = 0; oi < num_orders; oi++) {
        cl_image_format f = {orders[oi], CL_UNORM_INT8};
        cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0);
        unsigned char px[W * H * 4];
        fill_pattern(px, sizeof px, 11 + (unsigned)oi);
        cl_int err = CL_SUCCESS;
        cl_mem img =
            clCreateImage(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
        CT_REQUIRE(img != NULL);
        for (int norm = 1; norm >= 0; norm--)
            for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++)
                for (int lin = 0; lin < 2; lin++) {
                    cl_addressing_mode mode = modes[mi];
                    if (!norm && (mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT))
                        continue;
                    cl_float2 c[N];
                    int n = 0;
                    for (int i = 0; i < 6; i++)
                        for (int j = 0; j < 5; j++) {
                            float s = norm ? ns[i] : us[i < 5 ? i : 4];
                            float t = norm ? nt[j] : ut[j];
                            float smax = norm ? 1.0f : W, tmax = norm ? 1.0f : H;
                            /* With no addressing, texels outside are undefined: nearest
                             * reads inside, linear only where both taps are inside. */
                            float sx = norm ? s * W : s, ty = norm ? t * H : t;
                            if (mode == CL_ADDRESS_NONE &&
                                (s < 0 || s >= smax || t < 0 || t >= tmax ||
                                 (lin &&
                                  (sx < 0.5f || sx > W - 0.5f || ty < 0.5f || ty > H - 0.5f))))
                                continue;
                            c[n].s[0] = s;
                            c[n++].s[1] = t;
                        }
                    cl_sampler smp =
                        clCreateSampler(e->ctx, norm ? CL_TRUE : CL_FALSE, mode,
                                        lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
                    CT_REQUIRE(smp != NULL);
                    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, cbuf, CL_TRUE, 0, n * sizeof c[0],
                                                            c, 0, NULL, NULL));
                    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof img, &img));
                    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof smp, &smp));
                    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof cbuf, &cbuf));
                    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 3, sizeof obuf, &obuf));
                    size_t g = (size_t)n;
                    CT_ERR(CL_SUCCESS,
                           clEnqueueNDRangeKernel(e->q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
                    cl_float4 got[N];
                    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, obuf, CL_TRUE, 0,
                                                           n * sizeof got[0], got, 0, NULL, NULL));
                    for (int q = 0; q < n; q++) {
                        int x0, x1, y0, y1;
                        float a, b, t00[4], t10[4], t01[4], t11[4];
                        address(mode, norm, lin, c[q].s[0], W, &x0, &x1, &a);
                        address(mode, norm, lin, c[q].s[1], H, &y0, &y1, &b);
                        texel(px, orders[oi], W, H, x0, y0, t00);
                        texel(px, orders[oi], W, H, x1, y0, t10);
                        texel(px, orders[oi], W, H, x0, y1, t01);
                        texel(px, orders[oi], W, H, x1, y1, t11);
                        for (int ch = 0; ch < 4; ch++) {
                            float want = (1 - a) * (1 - b) * t00[ch] + a * (1 - b) * t10[ch] +
                                         (1 - a) * b * t01[ch] + a * b * t11[ch];
                            bool bad = fabsf(got[q].s[ch] - want) > (lin ? 2.0f / 255 : 1e-6f);
                            if (bad && wrong < 8)
                                fprintf(stderr,
                                        "    order 0x%x %s %s mode 0x%x at (%g, %g) channel %d: "
                                        "got %g, want %g\n",
                                        (unsigned)orders[oi], norm ? "normalized" : "unnormalized",
                                        lin ? "linear" : "nearest", (unsigned)mode, c[q].s[0],
                                        c[q].s[1], ch, got[q].s[ch], want);
                            wrong += bad;
                        }
                    }
                    clReleaseSampler(smp);
                }
        clReleaseMemObject(img);
    }
    CT_CHECK(wrong == 0);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(cbuf);
    clReleaseMemObject(obuf);
}

static void sampler_states(ct_env *e) {
    static const cl_channel_order orders[] = {CL_RGBA, CL_BGRA};
    sampler_states_of(e, orders, 2);
}

/* The same on CL_R: alpha 1, also the border's ("If the image channel order is CL_R, CL_RG, CL_RGB,
 * or CL_LUMINANCE, the border color is (0.0f, 0.0f, 0.0f, 1.0f)"). */
static void sampler_states_r(ct_env *e) {
    static const cl_channel_order orders[] = {CL_R};
    sampler_states_of(e, orders, 1);
}

static const ct_case cases[] = {
    {"minimum_formats", minimum_formats},     {"create_and_info", create_and_info},
    {"info_of_a_buffer", info_of_a_buffer},   {"format_errors", format_errors},
    {"descriptor_errors", descriptor_errors}, {"create_errors", create_errors},
    {"write_read_2d", write_read_2d},         {"write_read_3d", write_read_3d},
    {"fill_and_copy", fill_and_copy},         {"map_image", map_image},
    {"sampler_info", sampler_info},           {"sampler_value_errors", sampler_value_errors},
    {"kernel_read_write", kernel_read_write}, {"typedef_image_arg", typedef_image_arg},
    {"sampler_states", sampler_states},       {"sampler_states_r", sampler_states_r},
};

CT_SECTION(ct_image_section, "image", cases);
