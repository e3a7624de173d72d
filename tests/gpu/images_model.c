/* Images against a host model: a fixed random sequence of writes (host pitches given or not,
 * blocking and not, and through maps), reads checked against the model, copies between images
 * of one format, copies to and from a buffer, and fills, on images of every type (1D, 1D array,
 * 2D, 2D array, 3D) in a few formats, each applied to a host copy of the pixels when culvert
 * accepts it (refusals, such as regions out of range, change nothing); every few commands an
 * image is read back whole and compared with the model. The layouts are the OpenCL 3.0 API
 * specification's: a 1D array's layers are its rows in origin[1] and region[1], a host side
 * steps through them by its slice pitch (0: its row pitch). One image is a 1D image on a
 * buffer: the buffer must hold the image's bytes, and its writes are the image's. */
#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { IMAGES = 11, OPS = 1200, HOST_SLOTS = 8, SLOT = 1 << 20 };

typedef struct img {
    cl_mem mem;
    cl_mem_object_type type;
    size_t dim[3];        /* width, rows (1D array: layers), slices (2D array: layers) */
    size_t es;            /* bytes a pixel */
    int format;           /* index in formats */
    cl_mem under;         /* an image1d_buffer's buffer (the same bytes), NULL otherwise */
    unsigned char *model; /* packed: ((z * rows) + y) * width + x */
} img;

static const cl_image_format formats[] = {
    {CL_RGBA, CL_UNSIGNED_INT8}, {CL_R, CL_FLOAT}, {CL_RGBA, CL_FLOAT}, {CL_R, CL_UNSIGNED_INT8}};
static const size_t format_es[] = {4, 4, 16, 1};

static uint64_t state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&state);
}

/* Offsets of pixel (x, y, z) of a region: in the model, and on a host side with pitches rp, sp
 * (1D arrays: the layer, y, steps by sp). */
static size_t model_at(const img *m, size_t x, size_t y, size_t z) {
    return ((z * m->dim[1] + y) * m->dim[0] + x) * m->es;
}
static size_t host_at(const img *m, size_t x, size_t y, size_t z, size_t rp, size_t sp) {
    if (m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        return y * sp + x * m->es;
    return z * sp + y * rp + x * m->es;
}

/* Copies a region between the model (at origin o) and a host side (at 0 with pitches rp, sp). */
static void region_copy(img *m, const size_t o[3], const size_t r[3], unsigned char *host,
                        size_t rp, size_t sp, bool to_model) {
    for (size_t z = 0; z < r[2]; z++)
        for (size_t y = 0; y < r[1]; y++)
            for (size_t x = 0; x < r[0]; x++) {
                unsigned char *pm = m->model + model_at(m, o[0] + x, o[1] + y, o[2] + z);
                unsigned char *ph = host + host_at(m, x, y, z, rp, sp);
                memcpy(to_model ? pm : ph, to_model ? ph : pm, m->es);
            }
}

/* A random region of m that fits (mostly), and its origin. */
static void random_region(const img *m, size_t o[3], size_t r[3]) {
    for (int d = 0; d < 3; d++) {
        size_t n = m->dim[d];
        o[d] = rnd() % 8 == 0 ? rnd() % (n + 2) : rnd() % n;
        r[d] = rnd() % 8 == 0 ? 1 + rnd() % (n + 2) : 1 + rnd() % (n - o[d] > 0 ? n - o[d] : 1);
    }
}

/* Host pitches for a region: given (with room) or 0; the ones in effect in *erp, *esp. */
static void random_pitches(const img *m, const size_t r[3], size_t *rp, size_t *sp, size_t *erp,
                           size_t *esp) {
    bool array1d = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    bool has_slices =
        m->type == CL_MEM_OBJECT_IMAGE3D || m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || array1d;
    *rp = rnd() % 2 ? 0 : r[0] * m->es + (rnd() % 4) * m->es;
    *erp = *rp ? *rp : r[0] * m->es;
    size_t rows = array1d ? 1 : r[1];
    *sp = has_slices && rnd() % 2 ? *erp * rows + (rnd() % 3) * *erp : 0;
    *esp = *sp ? *sp : has_slices ? *erp * rows : 0;
}

static img make(cl_context ctx, int i) {
    static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE3D};
    /* the last: a 1D image on a buffer */
    img m = {.type = i == IMAGES - 1 ? CL_MEM_OBJECT_IMAGE1D_BUFFER : types[i % 5],
             .format = (int)(rnd() % 4)};
    m.es = format_es[m.format];
    m.dim[0] = 3 + rnd() % 60;
    bool one_d = m.type == CL_MEM_OBJECT_IMAGE1D || m.type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    m.dim[1] = one_d ? 1 : 2 + rnd() % 20;
    m.dim[2] = m.type == CL_MEM_OBJECT_IMAGE3D || m.type == CL_MEM_OBJECT_IMAGE2D_ARRAY
                   ? 2 + rnd() % 6
                   : 1;
    cl_image_desc d = {.image_type = m.type, .image_width = m.dim[0]};
    if (m.type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        d.image_array_size = m.dim[1];
    else
        d.image_height = m.dim[1];
    if (m.type == CL_MEM_OBJECT_IMAGE3D)
        d.image_depth = m.dim[2];
    if (m.type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
        d.image_array_size = m.dim[2];
    size_t bytes = m.dim[0] * m.dim[1] * m.dim[2] * m.es;
    m.model = malloc(bytes);
    REQUIRE(m.model != NULL);
    for (size_t k = 0; k < bytes; k++)
        m.model[k] = (unsigned char)rnd();
    /* Floats: no NaN patterns, which a copy need not keep bit for bit. */
    for (size_t k = 0; formats[m.format].image_channel_data_type == CL_FLOAT && k < bytes; k += 4)
        m.model[k + 3] &= 0x3f;
    cl_int err;
    if (m.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        m.under = cv_test_buffer(ctx, bytes, m.model);
        d.buffer = m.under;
        m.mem = clCreateImage(ctx, CL_MEM_READ_WRITE, &formats[m.format], &d, NULL, &err);
    } else {
        m.mem = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &formats[m.format], &d,
                              m.model, &err);
    }
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m.mem != NULL);
    return m;
}

int main(void) {
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!images) {
        fprintf(stderr, "no image support: skipped\n");
        return CV_TEST_SKIP;
    }
    cl_command_queue q;
    cl_context ctx = cv_test_context(dev, &q);
    img ims[IMAGES];
    for (int i = 0; i < IMAGES; i++)
        ims[i] = make(ctx, i);
    cl_mem buffer = cv_test_buffer(ctx, SLOT, NULL);
    cv_test_slots slots = cv_test_slots_new(HOST_SLOTS, SLOT);
    unsigned char *back = malloc(SLOT), *want = malloc(SLOT), *bmodel = calloc(1, SLOT);
    REQUIRE(back && want && bmodel);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, buffer, CL_TRUE, 0, SLOT, bmodel, 0, NULL, NULL));
    int applied = 0, compared = 0;
    bool same = true;
    for (int it = 0; it < OPS && same; it++) {
        unsigned char *host = cv_test_slot(&slots, q);
        img *a = &ims[rnd() % IMAGES], *b = &ims[rnd() % IMAGES];
        size_t o[3], r[3], rp, sp, erp, esp;
        random_region(a, o, r);
        random_pitches(a, r, &rp, &sp, &erp, &esp);
        size_t host_bytes = host_at(a, r[0], r[1] - 1, r[2] - 1, erp, esp);
        for (size_t k = 0; k < host_bytes && k < SLOT; k++)
            host[k] = (unsigned char)rnd();
        for (size_t k = 0; formats[a->format].image_channel_data_type == CL_FLOAT &&
                           k + 4 <= host_bytes && k + 4 <= SLOT;
             k += 4)
            host[k + 3] &= 0x3f;
        cl_bool blocking = rnd() % 2;
        cl_int e = CL_SUCCESS;
        if (host_bytes > SLOT)
            continue;
        switch (rnd() % 7) {
        case 0:
            e = clEnqueueWriteImage(q, a->mem, blocking, o, r, rp, sp, host, 0, NULL, NULL);
            if (e == CL_SUCCESS)
                region_copy(a, o, r, host, erp, esp, true);
            break;
        case 1:
            e = clEnqueueReadImage(q, a->mem, CL_TRUE, o, r, rp, sp, back, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                region_copy(a, o, r, want, erp, esp, false);
                for (size_t z = 0; z < r[2] && same; z++)
                    for (size_t y = 0; y < r[1] && same; y++) {
                        size_t at = host_at(a, 0, y, z, erp, esp);
                        same = cv_test_same_bytes(back + at, want + at, r[0] * a->es,
                                                  "command %d: a read of image %d", it,
                                                  (int)(a - ims));
                    }
            }
            break;
        case 2: {
            /* mostly a partner of the same format (others are refused) */
            for (int tries = 0; tries < 8 && b->format != a->format && rnd() % 4; tries++)
                b = &ims[rnd() % IMAGES];
            size_t bo[3], br[3];
            random_region(b, bo, br);
            e = clEnqueueCopyImage(q, b->mem, a->mem, bo, o, r, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                /* through the host: the source region first, then into the destination */
                size_t packed_rp = r[0] * b->es, packed_sp = packed_rp * r[1];
                region_copy(b, bo, r, want, packed_rp, packed_sp, false);
                /* the destination's layout of the same region */
                for (size_t z = 0; z < r[2]; z++)
                    for (size_t y = 0; y < r[1]; y++)
                        memcpy(a->model + model_at(a, o[0], o[1] + y, o[2] + z),
                               want + host_at(b, 0, y, z, packed_rp, packed_sp), r[0] * a->es);
            }
            break;
        }
        case 3: {
            size_t off = (rnd() % 64) * a->es;
            e = clEnqueueCopyImageToBuffer(q, a->mem, buffer, o, r, off, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                size_t row = r[0] * a->es;
                for (size_t z = 0; z < r[2]; z++)
                    for (size_t y = 0; y < r[1]; y++)
                        memcpy(bmodel + off + (z * r[1] + y) * row,
                               a->model + model_at(a, o[0], o[1] + y, o[2] + z), row);
            }
            break;
        }
        case 4: {
            size_t off = (rnd() % 64) * a->es;
            e = clEnqueueCopyBufferToImage(q, buffer, a->mem, off, o, r, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                size_t row = r[0] * a->es;
                for (size_t z = 0; z < r[2]; z++)
                    for (size_t y = 0; y < r[1]; y++)
                        memcpy(a->model + model_at(a, o[0], o[1] + y, o[2] + z),
                               bmodel + off + (z * r[1] + y) * row, row);
            }
            break;
        }
        case 5: {
            size_t map_rp = 0, map_sp = 0;
            void *p = clEnqueueMapImage(q, a->mem, CL_TRUE, CL_MAP_WRITE, o, r, &map_rp, &map_sp, 0,
                                        NULL, NULL, &e);
            CHECK((e == CL_SUCCESS) == (p != NULL));
            if (p) {
                /* the mapped region's own pitches; a 1D array's layers step by the slice pitch */
                size_t msp = a->type == CL_MEM_OBJECT_IMAGE1D_ARRAY && !map_sp ? map_rp : map_sp;
                for (size_t z = 0; z < r[2]; z++)
                    for (size_t y = 0; y < r[1]; y++)
                        memcpy((unsigned char *)p + host_at(a, 0, y, z, map_rp, msp),
                               host + host_at(a, 0, y, z, erp, esp), r[0] * a->es);
                CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, a->mem, p, 0, NULL, NULL));
                region_copy(a, o, r, host, erp, esp, true);
            }
            break;
        }
        default: {
            const cl_image_format *f = &formats[a->format];
            float fc[4] = {1.5f, -2.0f, 0.25f, 8.0f};
            cl_uint uc[4] = {7, 200, 33, 255};
            bool is_float = f->image_channel_data_type == CL_FLOAT;
            e = clEnqueueFillImage(q, a->mem, is_float ? (void *)fc : (void *)uc, o, r, 0, NULL,
                                   NULL);
            if (e == CL_SUCCESS) {
                unsigned char px[16];
                size_t channels = f->image_channel_order == CL_RGBA ? 4 : 1;
                for (size_t ch = 0; ch < channels; ch++) {
                    if (is_float)
                        memcpy(px + 4 * ch, &fc[ch], 4);
                    else
                        px[ch] = (unsigned char)uc[ch];
                }
                for (size_t z = 0; z < r[2]; z++)
                    for (size_t y = 0; y < r[1]; y++)
                        for (size_t x = 0; x < r[0]; x++)
                            memcpy(a->model + model_at(a, o[0] + x, o[1] + y, o[2] + z), px, a->es);
            }
            break;
        }
        }
        CHECK(e <= CL_SUCCESS);
        applied += e == CL_SUCCESS;
        if (same && rnd() % 4 == 0) {
            img *v = &ims[rnd() % IMAGES];
            static const size_t zero[3] = {0, 0, 0};
            size_t bytes = v->dim[0] * v->dim[1] * v->dim[2] * v->es;
            CHECK_ERR(CL_SUCCESS, clEnqueueReadImage(q, v->mem, CL_TRUE, zero, v->dim, 0, 0, back,
                                                     0, NULL, NULL));
            same = cv_test_same_bytes(back, v->model, bytes, "command %d: image %d", it,
                                      (int)(v - ims));
            /* an image1d_buffer: its buffer holds the same bytes, and writes to the buffer are
             * the image's */
            if (same && v->under) {
                CHECK_ERR(CL_SUCCESS,
                          clEnqueueReadBuffer(q, v->under, CL_TRUE, 0, bytes, back, 0, NULL, NULL));
                same = cv_test_same_bytes(back, v->model, bytes,
                                          "command %d: the buffer of image %d", it, (int)(v - ims));
                size_t at = (rnd() % v->dim[0]) * v->es, len = v->es * (1 + rnd() % 4);
                len = at + len <= bytes ? len : bytes - at;
                unsigned char px[64] = {0x11, 0x22, 0x33, 0x04};
                CHECK_ERR(CL_SUCCESS,
                          clEnqueueWriteBuffer(q, v->under, CL_TRUE, at, len, px, 0, NULL, NULL));
                memcpy(v->model + at, px, len);
            }
            compared++;
        }
    }
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(applied > OPS / 4 && compared > OPS / 8);
    printf("%d of %d commands accepted, %d images compared with the model\n", applied, OPS,
           compared);
    for (int i = 0; i < IMAGES; i++) {
        clReleaseMemObject(ims[i].mem);
        if (ims[i].under)
            clReleaseMemObject(ims[i].under);
        free(ims[i].model);
    }
    clReleaseMemObject(buffer);
    cv_test_slots_free(&slots);
    free(back);
    free(want);
    free(bmodel);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("images_model");
}
