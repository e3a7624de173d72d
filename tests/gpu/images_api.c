/* Images and samplers through the API (claimed unless CULVERT_IMAGES=0, core/image.h): the device's
 * image queries and extensions, the format list, creation of every image type (own storage, host
 * pointers, on buffers) with its queries, the spec's creation errors, reads and writes with
 * pitches (sub-regions, 1D and 2D arrays, 3D), copies between images and buffers, fills of
 * packed colours, maps, and samplers. Runs on the GPU and on the fake driver (fake.images_api):
 * kernels are built and given arguments, none runs here (cv-conformance's image section and the
 * CTS run kernels). */
#include "fake_cuda.h"
#include "queue_test.h"

#include <stdlib.h>
#include <time.h>

static cl_command_queue q;

static cl_mem image(cl_mem_flags flags, cl_channel_order order, cl_channel_type type,
                    cl_mem_object_type kind, size_t w, size_t h, size_t d, size_t layers,
                    size_t row_pitch, size_t slice_pitch, void *host, cl_mem buffer, cl_int *err) {
    cl_image_format f = {order, type};
    cl_image_desc desc = {.image_type = kind,
                          .image_width = w,
                          .image_height = h,
                          .image_depth = d,
                          .image_array_size = layers,
                          .image_row_pitch = row_pitch,
                          .image_slice_pitch = slice_pitch,
                          .mem_object = buffer};
    return clCreateImage(qt_context, flags, &f, &desc, host, err);
}

static size_t info_size(cl_mem m, cl_image_info p) {
    size_t v = 12345;
    CHECK_ERR(CL_SUCCESS, clGetImageInfo(m, p, sizeof v, &v, NULL));
    return v;
}

static unsigned char byte_at(size_t x, size_t y, size_t z, unsigned seed) {
    return (unsigned char)(x * 7 + y * 13 + z * 29 + seed * 101);
}

static void test_device(void) {
    cl_bool support = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(qt_device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL));
    CHECK(support == CL_TRUE);
    size_t w2 = 0, w3 = 0, layers = 0;
    cl_uint samplers = 0, reads = 0;
    clGetDeviceInfo(qt_device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w2, &w2, NULL);
    clGetDeviceInfo(qt_device, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof w3, &w3, NULL);
    clGetDeviceInfo(qt_device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof layers, &layers, NULL);
    clGetDeviceInfo(qt_device, CL_DEVICE_MAX_SAMPLERS, sizeof samplers, &samplers, NULL);
    clGetDeviceInfo(qt_device, CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof reads, &reads, NULL);
    /* The full profile's minimums. */
    CHECK(w2 >= 16384 && w3 >= 2048 && layers >= 2048 && samplers >= 16 && reads >= 128);
    char ext[8192] = "";
    clGetDeviceInfo(qt_device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    CHECK(strstr(ext, "cl_khr_3d_image_writes") != NULL);
    CHECK(strstr(ext, "cl_khr_image2d_from_buffer") != NULL);
    CHECK(strstr(ext, "cl_khr_depth_images") != NULL);
    cl_name_version feats[64];
    size_t n = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(qt_device, CL_DEVICE_OPENCL_C_FEATURES, sizeof feats, feats, &n));
    bool images = false;
    for (size_t i = 0; i < n / sizeof feats[0]; i++)
        images |= strcmp(feats[i].name, "__opencl_c_images") == 0;
    CHECK(images);
}

static void test_formats(void) {
    cl_uint n = 0, n3 = 0;
    CHECK_ERR(CL_SUCCESS, clGetSupportedImageFormats(qt_context, CL_MEM_READ_WRITE,
                                                     CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
    CHECK_ERR(CL_SUCCESS, clGetSupportedImageFormats(qt_context, CL_MEM_READ_ONLY,
                                                     CL_MEM_OBJECT_IMAGE3D, 0, NULL, &n3));
    /* Depth formats are 2D only. */
    CHECK(n > 40 && n3 == n - 2);
    cl_image_format *f = calloc(n, sizeof *f);
    CHECK_ERR(CL_SUCCESS, clGetSupportedImageFormats(qt_context, CL_MEM_READ_WRITE,
                                                     CL_MEM_OBJECT_IMAGE2D, n, f, NULL));
    /* The OpenCL 3.0 minimum list (read-write): RGBA of every type, BGRA UNORM_INT8, R and RG. */
    static const cl_channel_type must[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                           CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                           CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                           CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
    for (size_t k = 0; k < sizeof must / sizeof must[0]; k++) {
        bool rgba = false, r = false;
        for (cl_uint i = 0; i < n; i++) {
            rgba |= f[i].image_channel_order == CL_RGBA && f[i].image_channel_data_type == must[k];
            r |= f[i].image_channel_order == CL_R && f[i].image_channel_data_type == must[k];
        }
        CHECK(rgba && r);
    }
    free(f);
    /* "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
     * image_formats is not NULL." */
    cl_image_format one;
    CHECK_ERR(CL_INVALID_VALUE, clGetSupportedImageFormats(qt_context, CL_MEM_READ_WRITE,
                                                           CL_MEM_OBJECT_BUFFER, 0, NULL, &n));
    CHECK_ERR(CL_INVALID_VALUE, clGetSupportedImageFormats(qt_context, CL_MEM_READ_WRITE,
                                                           CL_MEM_OBJECT_IMAGE2D, 0, &one, &n));
    CHECK_ERR(CL_INVALID_CONTEXT, clGetSupportedImageFormats(NULL, CL_MEM_READ_WRITE,
                                                             CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n));
}

static void test_create_errors(void) {
    cl_int err = 0;
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    unsigned char host[64];
    CHECK(!clCreateImage(qt_context, 0, NULL, &d, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    CHECK(!clCreateImage(qt_context, 0, &f, NULL, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    CHECK(!image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 0, 4, 1, 1, 0, 0, NULL, NULL,
                 &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    CHECK(!image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_BUFFER, 4, 4, 1, 1, 0, 0, NULL, NULL,
                 &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    /* A row pitch without host memory. */
    CHECK(!image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 64, 0, NULL, NULL,
                 &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    /* A row pitch shorter than a row, or no multiple of the pixel. */
    CHECK(!image(CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 2, 1, 1, 8,
                 0, host, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    CHECK(!image(CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 2, 1, 1,
                 18, 0, host, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    CHECK(!image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 65536, 4, 1, 1, 0, 0, NULL, NULL,
                 &err));
    CHECK_ERR(CL_INVALID_IMAGE_SIZE, err);
    CHECK(!image(0, CL_RGB, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, NULL, &err));
    CHECK_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED, err);
    CHECK(!image(0, 0x1234, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    /* A type the specification does not name, and a packed type on an order that refuses it,
     * are invalid descriptors; sRGBA is defined but not held. */
    CHECK(!image(0, CL_RGBA, 0x7fff, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    CHECK(!image(0, CL_R, CL_UNORM_SHORT_565, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, NULL,
                 &err));
    CHECK_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    CHECK(!image(0, CL_sRGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, NULL,
                 &err));
    CHECK_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED, err);
    CHECK(!image(0, CL_DEPTH, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 1, 0, 0, NULL, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
    /* A row pitch whose rows pass SIZE_MAX. */
    CHECK(!image(CL_MEM_USE_HOST_PTR, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1,
                 SIZE_MAX / 2 - 7, 0, host, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_SIZE, err);
    CHECK(!image(CL_MEM_USE_HOST_PTR, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0,
                 0, NULL, NULL, &err));
    CHECK_ERR(CL_INVALID_HOST_PTR, err);
    CHECK(!image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, host, NULL,
                 &err));
    CHECK_ERR(CL_INVALID_HOST_PTR, err);
    CHECK(!image(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8,
                 CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, NULL, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    d.num_mip_levels = 2;
    CHECK(!clCreateImage(qt_context, 0, &f, &d, NULL, &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    d.num_mip_levels = 0;
    cl_mem_properties props[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
    CHECK(!clCreateImageWithProperties(qt_context, props, 0, &f, &d, NULL, &err));
    CHECK_ERR(CL_INVALID_PROPERTY, err);
    CHECK(!clCreateImage(NULL, 0, &f, &d, NULL, &err));
    CHECK_ERR(CL_INVALID_CONTEXT, err);
    /* An image on a buffer too small for it, or on a write-only buffer read-only. */
    cl_mem small = clCreateBuffer(qt_context, CL_MEM_WRITE_ONLY, 60, NULL, &err);
    CHECK(!image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, NULL, small,
                 &err));
    CHECK_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
    CHECK(!image(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 1, 1, 1,
                 0, 0, NULL, small, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(!image(CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 1,
                 1, 1, 0, 0, host, small, &err));
    CHECK(err == CL_INVALID_VALUE || err == CL_INVALID_HOST_PTR);
    clReleaseMemObject(small);
}

/* Every type's queries. */
static void test_info(void) {
    cl_int err = 0;
    struct {
        cl_mem_object_type type;
        size_t w, h, d, layers;
        size_t want_h, want_d, want_layers;
    } cases[] = {
        {CL_MEM_OBJECT_IMAGE1D, 100, 1, 1, 1, 0, 0, 0},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 100, 1, 1, 5, 0, 0, 5},
        {CL_MEM_OBJECT_IMAGE2D, 100, 30, 1, 1, 30, 0, 0},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 100, 30, 1, 5, 30, 0, 5},
        {CL_MEM_OBJECT_IMAGE3D, 100, 30, 7, 1, 30, 7, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_mem m = image(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, cases[i].type, cases[i].w,
                         cases[i].h, cases[i].d, cases[i].layers, 0, 0, NULL, NULL, &err);
        CHECK_ERR(CL_SUCCESS, err);
        REQUIRE(m);
        cl_image_format f;
        CHECK_ERR(CL_SUCCESS, clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, NULL));
        CHECK(f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_FLOAT);
        CHECK(info_size(m, CL_IMAGE_ELEMENT_SIZE) == 16);
        CHECK(info_size(m, CL_IMAGE_WIDTH) == cases[i].w);
        CHECK(info_size(m, CL_IMAGE_HEIGHT) == cases[i].want_h);
        CHECK(info_size(m, CL_IMAGE_DEPTH) == cases[i].want_d);
        CHECK(info_size(m, CL_IMAGE_ARRAY_SIZE) == cases[i].want_layers);
        size_t row = info_size(m, CL_IMAGE_ROW_PITCH), slice = info_size(m, CL_IMAGE_SLICE_PITCH);
        CHECK(row >= 1600);
        if (cases[i].type == CL_MEM_OBJECT_IMAGE1D || cases[i].type == CL_MEM_OBJECT_IMAGE2D)
            CHECK(slice == 0);
        else
            CHECK(slice >= row);
        cl_mem_object_type t = 0;
        CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL));
        CHECK(t == cases[i].type);
        size_t size = 0;
        CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
        CHECK(size >= cases[i].w * 16 * (cases[i].h ? cases[i].h : 1));
        CHECK_ERR(CL_INVALID_VALUE, clGetImageInfo(m, 0x7777, sizeof size, &size, NULL));
        /* Buffer commands refuse images: "CL_INVALID_MEM_OBJECT if buffer is not a valid
         * buffer object." */
        CHECK_ERR(CL_INVALID_MEM_OBJECT,
                  clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, &size, 0, NULL, NULL));
        clReleaseMemObject(m);
    }
    cl_mem b = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 64, NULL, &err);
    size_t v;
    CHECK_ERR(CL_INVALID_MEM_OBJECT, clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof v, &v, NULL));
    clReleaseMemObject(b);
}

/* A 3D image (or 2D array) written whole with padded host pitches, a sub-region read back with
 * other pitches; a 1D array's layers likewise. */
static void test_read_write(cl_mem_object_type type) {
    enum { W = 37, H = 11, D = 5, E = 4 };
    cl_int err = 0;
    bool is3 = type == CL_MEM_OBJECT_IMAGE3D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    bool arr1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t h = arr1 ? 1 : H, d = is3 ? D : 1;
    size_t ext[3] = {W, arr1 ? H : h, d};
    cl_mem m = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8, type, W, h,
                     type == CL_MEM_OBJECT_IMAGE3D ? D : 1,
                     arr1                                  ? H
                     : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? D
                                                           : 1,
                     0, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    size_t row = W * E + 12, slice = row * ext[1] + 40;
    unsigned char *src = calloc(slice * ext[2], 1);
    for (size_t z = 0; z < ext[2]; z++)
        for (size_t y = 0; y < ext[1]; y++)
            for (size_t x = 0; x < W * E; x++)
                src[z * slice + y * row + x] = byte_at(x, y, z, 1);
    size_t origin[3] = {0, 0, 0};
    /* 1D arrays: the host steps through layers by its slice pitch, the row pitch is ignored. */
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteImage(q, m, CL_TRUE, origin, ext, arr1 ? 0 : row,
                                              is3    ? slice
                                              : arr1 ? row
                                                     : 0,
                                              src, 0, NULL, NULL));
    size_t o[3] = {3, 2, is3 ? 1 : 0}, r[3] = {20, ext[1] - 4, is3 ? 3 : 1};
    size_t rrow = r[0] * E + 4, rslice = rrow * r[1];
    unsigned char *dst = calloc(rslice * r[2], 1);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, m, CL_TRUE, o, r, arr1 ? 0 : rrow,
                                             is3    ? rslice
                                             : arr1 ? rrow
                                                    : 0,
                                             dst, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            for (size_t x = 0; x < r[0] * E; x++) {
                size_t at = arr1 ? y * rrow + x : z * rslice + y * rrow + x;
                bad += dst[at] != byte_at(o[0] * E + x, o[1] + y, o[2] + z, 1);
            }
    if (bad)
        fprintf(stderr, "read/write, type 0x%x: %zu wrong bytes\n", (unsigned)type, bad);
    CHECK(bad == 0);
    /* Regions past the image, zeros in region, slice pitches of 2D images. */
    size_t past[3] = {W - 2, 1, 1}, at[3] = {3, 0, 0}, zero[3] = {0, 1, 1};
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadImage(q, m, CL_TRUE, at, past, 0, 0, dst, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadImage(q, m, CL_TRUE, origin, zero, 0, 0, dst, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadImage(q, m, CL_TRUE, origin, r, 0, 0, NULL, 0, NULL, NULL));
    /* Host pitches whose span passes SIZE_MAX. */
    size_t two[3] = {1, 2, is3 ? 2 : 1};
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueReadImage(q, m, CL_TRUE, origin, two, SIZE_MAX / 2 + 8, 0,
                                                   dst, 0, NULL, NULL));
    free(src);
    free(dst);
    clReleaseMemObject(m);
}

/* CL_MEM_COPY_HOST_PTR with the host's own pitches (padded rows and slices), every type with
 * rows: what is read back (packed) is the host's pixels. */
static void test_copy_host_ptr(void) {
    enum { W = 7, H = 5, L = 3, E = 2 };
    static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D,
                                               CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE1D_ARRAY};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        cl_mem_object_type t = types[i];
        bool arr1 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY, flat = t == CL_MEM_OBJECT_IMAGE2D;
        size_t rows = arr1 ? 1 : H, slices = flat ? 1 : L;
        /* Slice pitches are whole rows ("a multiple of the image_row_pitch"). */
        size_t row = W * E + 6, slice = arr1 ? 2 * W * E : row * (rows + 1);
        unsigned char *host = calloc(slice * slices + row, 1), got[W * H * L * E];
        for (size_t z = 0; z < slices; z++)
            for (size_t y = 0; y < rows; y++)
                for (size_t x = 0; x < W * E; x++)
                    host[z * slice + y * row + x] = byte_at(x, y, z, 9);
        cl_int err = 0;
        cl_mem m = image(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RG, CL_UNORM_INT8, t, W,
                         arr1 ? 1 : H, t == CL_MEM_OBJECT_IMAGE3D ? L : 1, flat ? 1 : L,
                         arr1 ? 0 : row, flat ? 0 : slice, host, NULL, &err);
        CHECK_ERR(CL_SUCCESS, err);
        REQUIRE(m);
        /* The image's own pitches are reported as the host's. */
        CHECK(info_size(m, CL_IMAGE_ROW_PITCH) == (arr1 ? W * E : row));
        size_t o[3] = {0, 0, 0}, r[3] = {W, arr1 ? L : H, arr1 || flat ? 1 : L};
        CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t z = 0; z < slices; z++)
            for (size_t y = 0; y < rows; y++)
                for (size_t x = 0; x < W * E; x++)
                    bad += got[(z * rows + y) * W * E + x] != byte_at(x, y, z, 9);
        if (bad)
            fprintf(stderr, "COPY_HOST_PTR, type 0x%x: %zu wrong bytes\n", (unsigned)t, bad);
        CHECK(bad == 0);
        clReleaseMemObject(m);
        free(host);
    }
}

static void test_copies(void) {
    enum { W = 40, H = 20, E = 8 };
    cl_int err = 0;
    cl_mem a = image(CL_MEM_READ_WRITE, CL_RGBA, CL_HALF_FLOAT, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1,
                     0, 0, NULL, NULL, &err);
    cl_mem b = image(CL_MEM_READ_WRITE, CL_RGBA, CL_HALF_FLOAT, CL_MEM_OBJECT_IMAGE3D, W, H, 3, 1,
                     0, 0, NULL, NULL, &err);
    cl_mem other = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT16, CL_MEM_OBJECT_IMAGE2D, W, H, 1,
                         1, 0, 0, NULL, NULL, &err);
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, W * H * E + 100, NULL, &err);
    REQUIRE(a && b && other && buf);
    unsigned char *src = malloc(W * H * E), *got = calloc(W * H * E, 1);
    for (size_t i = 0; i < W * H * E; i++)
        src[i] = byte_at(i, 0, 0, 2);
    size_t o[3] = {0, 0, 0}, all[3] = {W, H, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteImage(q, a, CL_TRUE, o, all, 0, 0, src, 0, NULL, NULL));
    /* a -> slice 2 of b at (5, 4), a 30 x 12 region from (7, 3) */
    size_t so[3] = {7, 3, 0}, dof[3] = {5, 4, 2}, reg[3] = {30, 12, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyImage(q, a, b, so, dof, reg, 0, NULL, NULL));
    /* b -> buffer at 100 bytes, packed */
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyImageToBuffer(q, b, buf, dof, reg, 100, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(q, buf, CL_TRUE, 100, reg[0] * reg[1] * E, got, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t y = 0; y < reg[1]; y++)
        for (size_t x = 0; x < reg[0] * E; x++)
            bad += got[y * reg[0] * E + x] != src[(so[1] + y) * W * E + so[0] * E + x];
    CHECK(bad == 0);
    /* buffer -> a at the origin, then a's first rows read back */
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBufferToImage(q, buf, a, 100, o, reg, 0, NULL, NULL));
    memset(got, 0, W * H * E);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, a, CL_TRUE, o, reg, 0, 0, got, 0, NULL, NULL));
    bad = 0;
    for (size_t y = 0; y < reg[1]; y++)
        for (size_t x = 0; x < reg[0] * E; x++)
            bad += got[y * reg[0] * E + x] != src[(so[1] + y) * W * E + so[0] * E + x];
    CHECK(bad == 0);
    /* The spec's errors. */
    CHECK_ERR(CL_IMAGE_FORMAT_MISMATCH, clEnqueueCopyImage(q, a, other, o, o, reg, 0, NULL, NULL));
    size_t near[3] = {10, 5, 0};
    CHECK_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(q, a, a, o, near, reg, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(q, a, buf, o, all, 200, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyImageToBuffer(q, a, b, o, reg, 0, 0, NULL, NULL));
    free(src);
    free(got);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(other);
    clReleaseMemObject(buf);
}

/* A fill packs the colour as the format says, inside the region only. */
static void fill_case(cl_channel_order order, cl_channel_type type, const void *color,
                      const unsigned char *want, size_t esz) {
    enum { W = 9, H = 7 };
    cl_int err = 0;
    cl_mem m = image(CL_MEM_READ_WRITE, order, type, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, 0, 0, NULL,
                     NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    unsigned char zero[W * H * 16] = {0}, got[W * H * 16];
    size_t o[3] = {0, 0, 0}, all[3] = {W, H, 1}, fo[3] = {2, 1, 0}, fr[3] = {5, 4, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteImage(q, m, CL_TRUE, o, all, 0, 0, zero, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueFillImage(q, m, color, fo, fr, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, m, CL_TRUE, o, all, 0, 0, got, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            bool in = x >= fo[0] && x < fo[0] + fr[0] && y >= fo[1] && y < fo[1] + fr[1];
            bad += memcmp(got + (y * W + x) * esz, in ? want : zero, esz) != 0;
        }
    if (bad)
        fprintf(stderr, "fill 0x%x/0x%x: %zu wrong pixels (first pixel %02x %02x %02x %02x)\n",
                (unsigned)order, (unsigned)type, bad, got[(fo[1] * W + fo[0]) * esz],
                got[(fo[1] * W + fo[0]) * esz + 1], got[(fo[1] * W + fo[0]) * esz + 2],
                got[(fo[1] * W + fo[0]) * esz + 3]);
    CHECK(bad == 0);
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillImage(q, m, NULL, fo, fr, 0, NULL, NULL));
    clReleaseMemObject(m);
}

/* A fill of a box inside a 3D image (rows and slices with gaps around it). */
static void test_fill_3d(void) {
    enum { W = 6, H = 5, D = 4, E = 4 };
    cl_int err = 0;
    cl_mem m = image(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE3D, W, H, D, 1,
                     0, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    unsigned char zero[W * H * D * E] = {0}, got[W * H * D * E];
    size_t o[3] = {0, 0, 0}, all[3] = {W, H, D}, fo[3] = {1, 1, 1}, fr[3] = {3, 3, 2};
    float c[4] = {1.0f, 0.0f, 0.5f, 1.0f};
    const unsigned char want[E] = {255, 0, 128, 255};
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteImage(q, m, CL_TRUE, o, all, 0, 0, zero, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueFillImage(q, m, c, fo, fr, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, m, CL_TRUE, o, all, 0, 0, got, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t z = 0; z < D; z++)
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++) {
                bool in = x >= fo[0] && x < fo[0] + fr[0] && y >= fo[1] && y < fo[1] + fr[1] &&
                          z >= fo[2] && z < fo[2] + fr[2];
                bad += memcmp(got + ((z * H + y) * W + x) * E, in ? want : zero, E) != 0;
            }
    CHECK(bad == 0);
    clReleaseMemObject(m);
}

static void test_fills(void) {
    float c[4] = {0.5f, 1.5f, -1.0f, 0.2f};
    /* UNORM_INT8: round(0.5 * 255) = 128 (127.5 to even), 1.5 saturates, -1 to 0, 0.2 -> 51 */
    unsigned char rgba8[4] = {128, 255, 0, 51}, bgra8[4] = {0, 255, 128, 51};
    fill_case(CL_RGBA, CL_UNORM_INT8, c, rgba8, 4);
    fill_case(CL_BGRA, CL_UNORM_INT8, c, bgra8, 4);
    cl_int ci[4] = {-40000, 7, 40000, -3};
    int16_t s16[4] = {-32768, 7, 32767, -3};
    fill_case(CL_RGBA, CL_SIGNED_INT16, ci, (unsigned char *)s16, 8);
    float f[4] = {1.25f, -2.5f, 3.0f, 65536.0f};
    fill_case(CL_RGBA, CL_FLOAT, f, (unsigned char *)f, 16);
    /* half: 1.25 = 0x3d00, -2.5 = 0xc100, 3 = 0x4200, 65536 overflows to infinity 0x7c00 */
    uint16_t h[4] = {0x3d00, 0xc100, 0x4200, 0x7c00};
    fill_case(CL_RGBA, CL_HALF_FLOAT, f, (unsigned char *)h, 8);
    cl_uint cu[4] = {300, 1, 2, 3};
    unsigned char r8 = 255;
    fill_case(CL_R, CL_UNSIGNED_INT8, cu, &r8, 1);
    /* 565: r 0.5 -> 16 (15.5 to even), g 1.5 -> 63, b -1 -> 0 */
    uint16_t p565 = (uint16_t)(16 << 11 | 63 << 5 | 0);
    fill_case(CL_RGB, CL_UNORM_SHORT_565, c, (unsigned char *)&p565, 2);
}

static void test_map(void) {
    enum { W = 33, H = 9, E = 4 };
    cl_int err = 0;
    unsigned char *store = malloc(W * E * H);
    for (size_t i = 0; i < W * E * H; i++)
        store[i] = byte_at(i, 0, 0, 3);
    cl_mem plain = image(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, CL_RGBA, CL_UNORM_INT8,
                         CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, 0, 0, store, NULL, &err);
    cl_mem used = image(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, CL_RGBA, CL_UNORM_INT8,
                        CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, 0, 0, store, NULL, &err);
    REQUIRE(plain && used);
    size_t o[3] = {4, 2, 0}, r[3] = {10, 5, 1}, row = 0, slice = 77;
    for (int k = 0; k < 2; k++) {
        cl_mem m = k ? used : plain;
        unsigned char *p = clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &row,
                                             &slice, 0, NULL, NULL, &err);
        CHECK_ERR(CL_SUCCESS, err);
        REQUIRE(p);
        CHECK(row >= r[0] * E && slice == 0);
        /* "If the image object is created with CL_MEM_USE_HOST_PTR ... the pointer returned ...
         * will be derived from the host_ptr" */
        if (k)
            CHECK(p == store + o[1] * W * E + o[0] * E);
        size_t bad = 0;
        for (size_t y = 0; y < r[1]; y++)
            for (size_t x = 0; x < r[0] * E; x++)
                bad += p[y * row + x] != byte_at((o[1] + y) * W * E + o[0] * E + x, 0, 0, 3);
        CHECK(bad == 0);
        p[0] = 0xee;
        cl_uint count = 0;
        clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL);
        CHECK(count == 1);
        CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
        unsigned char px[4];
        size_t one[3] = {1, 1, 1};
        CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, m, CL_TRUE, o, one, 0, 0, px, 0, NULL, NULL));
        CHECK(px[0] == 0xee);
        /* "CL_INVALID_VALUE if image_row_pitch is NULL." */
        CHECK(!clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, r, NULL, &slice, 0, NULL, NULL,
                                 &err));
        CHECK_ERR(CL_INVALID_VALUE, err);
    }
    clReleaseMemObject(plain);
    clReleaseMemObject(used);
    free(store);
}

/* Images on buffers: the buffer's bytes are the pixels, both ways. */
static void test_on_buffer(void) {
    enum { W = 16, H = 6, E = 4, ROW = 80 };
    cl_int err = 0;
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, ROW * H, NULL, &err);
    unsigned char bytes[ROW * H];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = byte_at(i, 0, 0, 4);
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL));
    cl_mem img2 = image(0, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, ROW, 0, NULL,
                        buf, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem img1 = image(0, CL_R, CL_UNSIGNED_INT32, CL_MEM_OBJECT_IMAGE1D_BUFFER, ROW * H / 4, 1, 1,
                        1, 0, 0, NULL, buf, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(img1 && img2);
    CHECK(info_size(img2, CL_IMAGE_ROW_PITCH) == ROW);
    cl_mem assoc = NULL, ib = NULL;
    clGetMemObjectInfo(img2, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
    clGetImageInfo(img1, CL_IMAGE_BUFFER, sizeof ib, &ib, NULL);
    CHECK(assoc == buf && ib == buf);
    unsigned char got[W * E * H];
    size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, img2, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W * E; x++)
            bad += got[y * W * E + x] != bytes[y * ROW + x];
    CHECK(bad == 0);
    cl_uint word = 0xdeadbeef;
    size_t at[3] = {5, 0, 0}, one[3] = {1, 1, 1};
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteImage(q, img1, CL_TRUE, at, one, 0, 0, &word, 0, NULL, NULL));
    cl_uint back = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, buf, CL_TRUE, 20, 4, &back, 0, NULL, NULL));
    CHECK(back == 0xdeadbeef);
    /* The buffer outlives its release while an image holds it; its count is the
     * application's. */
    cl_uint refs = 0;
    clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    CHECK(refs == 1);
    clReleaseMemObject(buf);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, img2, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
    CHECK(got[0] == bytes[0]);
    clReleaseMemObject(img1);
    clReleaseMemObject(img2);
}

static void test_samplers(void) {
    cl_int err = 0;
    cl_sampler s = clCreateSampler(qt_context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(s);
    cl_uint v = 0;
    cl_bool norm = CL_FALSE;
    CHECK_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof v, &v, NULL));
    CHECK(v == CL_ADDRESS_REPEAT);
    CHECK_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof v, &v, NULL));
    CHECK(v == CL_FILTER_LINEAR);
    CHECK_ERR(CL_SUCCESS,
              clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
    CHECK(norm == CL_TRUE);
    CHECK_ERR(CL_SUCCESS, clRetainSampler(s));
    CHECK_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, NULL));
    CHECK(v == 2);
    clReleaseSampler(s);
    clReleaseSampler(s);
    cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    s = clCreateSamplerWithProperties(qt_context, props, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_sampler_properties back[4] = {0};
    size_t n = 0;
    CHECK_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &n));
    CHECK(n == sizeof props && back[1] == CL_FILTER_LINEAR);
    /* Defaults: normalized, clamp. */
    CHECK_ERR(CL_SUCCESS, clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof v, &v, NULL));
    CHECK(v == CL_ADDRESS_CLAMP);
    clReleaseSampler(s);
    CHECK(!clCreateSampler(qt_context, CL_TRUE, 0x9999, CL_FILTER_LINEAR, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(!clCreateSampler(qt_context, 7, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                     CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    CHECK(!clCreateSamplerWithProperties(qt_context, twice, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(!clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err));
    CHECK_ERR(CL_INVALID_CONTEXT, err);
    CHECK_ERR(CL_INVALID_SAMPLER, clRetainSampler(NULL));
    CHECK_ERR(CL_INVALID_SAMPLER,
              clGetSamplerInfo((cl_sampler)qt_context, CL_SAMPLER_FILTER_MODE, sizeof v, &v, NULL));
}

/* Kernel arguments: an image parameter takes an image and no buffer; a pointer to a struct whose
 * name starts like an image type's (the CTS's image_kernel_data) is a buffer argument. */
static void test_kernel_args(void) {
    const char *src = "typedef struct { int width; } image_kernel_data;\n"
                      "kernel void k(read_only image1d_t im, global image_kernel_data *out) {\n"
                      "    out->width = get_image_width(im);\n"
                      "}\n"
                      "typedef image1d_t my_image;\n"
                      "kernel void t(my_image im, global int *out) {\n"
                      "    out[0] = get_image_width(im);\n"
                      "}\n"
                      "kernel void s(read_only image2d_t im, sampler_t smp, global float4 *o) {\n"
                      "    o[0] = read_imagef(im, smp, (float2)(0.5f, 0.5f));\n"
                      "}\n";
    cl_int err = 0;
    cl_program p = clCreateProgramWithSource(qt_context, 1, &src, NULL, &err);
    REQUIRE(p);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &qt_device, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem img = image(CL_MEM_READ_ONLY, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE1D, 5, 1, 1, 1, 0, 0,
                       NULL, NULL, &err);
    cl_mem buf = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 16, NULL, &err);
    /* An image type named by a typedef is an image argument too. */
    cl_kernel t = clCreateKernel(p, "t", &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (k && t && img && buf) {
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof img, &img));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof buf, &buf));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof buf, &buf));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 1, sizeof img, &img));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(t, 0, sizeof img, &img));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(t, 0, sizeof buf, &buf));
        char name[32] = "";
        CHECK_ERR(CL_SUCCESS,
                  clGetKernelArgInfo(t, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL));
        CHECK(strcmp(name, "my_image") == 0);
    }
    clReleaseKernel(t);
    /* Texture objects wait for the first read-only binding (core/image.h) and are made once
     * (the fake driver's call counts): creating the image makes none, the first binding 16 (one
     * per sampler state), a second none. A launch whose read-only images all have them runs the
     * module's textured variant (core/ptx_textured.h), loaded by the first such launch; an image
     * without them (a 3D image) keeps the entry. */
    fakecuda_state *fake = fakecuda_find();
    cl_kernel sk = clCreateKernel(p, "s", &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_sampler smp = clCreateSampler(qt_context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err);
    if (fake && sk && smp && buf) {
        long live = fake->live_textures;
        fake->calls_begin();
        cl_mem tex = image(CL_MEM_READ_ONLY, CL_RGBA, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 8, 8, 1,
                           1, 0, 0, NULL, NULL, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK(fake->calls("cuTexObjectCreate") == 0);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(sk, 0, sizeof tex, &tex));
        CHECK(fake->calls("cuTexObjectCreate") == 16);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(sk, 0, sizeof tex, &tex));
        CHECK(fake->calls("cuTexObjectCreate") == 16);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(sk, 1, sizeof smp, &smp));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(sk, 2, sizeof buf, &buf));
        size_t one = 1;
        unsigned long loads = fake->calls("cuModuleLoadDataEx") + fake->calls("cuModuleLoadData");
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, sk, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, sk, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK(fake->calls("cuModuleLoadDataEx") + fake->calls("cuModuleLoadData") == loads + 1);
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        unsigned variant = fake->num_launches ? fake->launches[fake->num_launches - 1].module : 0;
        /* CL_A: a format the texture units do not read as OpenCL does: no texture objects, the
         * entry runs (no module is loaded for it); then the textured image again. */
        cl_mem soft = image(CL_MEM_READ_ONLY, CL_A, CL_UNORM_INT8, CL_MEM_OBJECT_IMAGE2D, 8, 8, 1,
                            1, 0, 0, NULL, NULL, &err);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(sk, 0, sizeof soft, &soft));
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, sk, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        unsigned entry = fake->num_launches ? fake->launches[fake->num_launches - 1].module : 0;
        CHECK(variant && entry && variant != entry);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(sk, 0, sizeof tex, &tex));
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, sk, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK(fake->num_launches && fake->launches[fake->num_launches - 1].module == variant);
        CHECK(fake->calls("cuModuleLoadDataEx") + fake->calls("cuModuleLoadData") == loads + 1);
        CHECK(fake->calls("cuTexObjectCreate") == 16);
        fake->calls_end();
        clReleaseMemObject(soft);
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK(fake->live_textures == live + 16);
        clReleaseMemObject(tex);
        /* The launches held the image: it goes, and its texture objects, once their completion
         * has been seen (culvert's tracker), within moments. */
        for (int i = 0; i < 1000 && fake->live_textures != live; i++)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
        CHECK(fake->live_textures == live);
    }
    clReleaseSampler(smp);
    clReleaseKernel(sk);
    clReleaseMemObject(buf);
    clReleaseMemObject(img);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

int main(void) {
    qt_setup();
    q = qt_queue(0);
    test_device();
    test_formats();
    test_create_errors();
    test_info();
    test_read_write(CL_MEM_OBJECT_IMAGE2D);
    test_read_write(CL_MEM_OBJECT_IMAGE3D);
    test_read_write(CL_MEM_OBJECT_IMAGE2D_ARRAY);
    test_read_write(CL_MEM_OBJECT_IMAGE1D_ARRAY);
    test_copy_host_ptr();
    test_copies();
    test_fills();
    test_fill_3d();
    test_map();
    test_on_buffer();
    test_samplers();
    test_kernel_args();
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    return cv_test_report("images_api");
}
