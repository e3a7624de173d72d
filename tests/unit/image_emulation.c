/* The image builtins (src/compiler/builtins/images.cl with gen_images.py's wrappers) run on the
 * CPU: tests/image_emulation.cl calls them as a kernel does, on descriptors (docs/kernel-abi.md)
 * over host arrays, and every result is checked against a reference written here from the
 * OpenCL 3.0 API specification ("Image Addressing and Filtering", "Conversion Rules") and the
 * OpenCL C specification (border colours, channel mapping, queries), not from the builtins:
 * every channel order and type's reads (read_imagef/i/ui/h, with and without a sampler) and
 * writes (rounding, saturation, NaN), every addressing mode with nearest and linear filtering,
 * normalized and not, in and outside 1D, 1D array, 2D, 2D array and 3D images, depth images,
 * writes outside the image dropped, the queries, a sampler declared in the program. Exact where
 * the rules are (nearest sampling, conversions), within 1e-5 for linear filtering. Built without
 * clang (CV_IMG_NO_CLANG) it skips. */
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CV_IMG_NO_CLANG
int main(void) {
    fprintf(stderr, "SKIP: no clang to build the image builtins for the host\n");
    return 77;
}
#else

typedef struct desc {
    int64_t data_offset;
    uint64_t row_pitch, slice_pitch;
    uint32_t width, height, depth, array_size, order, type, image_type, element_size, reserved[2];
    uint64_t texture[16]; /* none: the host runs the software path */
} desc;
_Static_assert(sizeof(desc) == 192, "the descriptor is 192 bytes");

/* The sampler bits of docs/kernel-abi.md (clang's opencl-c-base.h values). */
enum {
    CLK_NORMALIZED_COORDS_FALSE = 0,
    CLK_NORMALIZED_COORDS_TRUE = 1,
    CLK_ADDRESS_NONE = 0,
    CLK_ADDRESS_CLAMP_TO_EDGE = 2,
    CLK_ADDRESS_CLAMP = 4,
    CLK_ADDRESS_REPEAT = 6,
    CLK_ADDRESS_MIRRORED_REPEAT = 8,
    CLK_FILTER_NEAREST = 0x10,
    CLK_FILTER_LINEAR = 0x20,
};

static int failures;
static long checks;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            if (failures++ < 40) {                                                                 \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fputc('\n', stderr);                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* ---- the builtins' callers (tests/image_emulation.cl) ---- */
typedef const void *img_t;
typedef const void *smp_t;
#define COLOUR_DECLS(N)                                                                            \
    void cvh_##N##_rf(img_t, smp_t, const float *, float *);                                       \
    void cvh_##N##_rfi(img_t, smp_t, const int *, float *);                                        \
    void cvh_##N##_ri(img_t, smp_t, const float *, int *);                                         \
    void cvh_##N##_rii(img_t, smp_t, const int *, int *);                                          \
    void cvh_##N##_rui(img_t, smp_t, const float *, unsigned *);                                   \
    void cvh_##N##_rh(img_t, smp_t, const float *, uint16_t *);                                    \
    SAMPLERLESS_DECLS(N)
#define SAMPLERLESS_DECLS(N)                                                                       \
    void cvh_##N##_lf(img_t, const int *, float *);                                                \
    void cvh_##N##_lrwf(img_t, const int *, float *);                                              \
    void cvh_##N##_li(img_t, const int *, int *);                                                  \
    void cvh_##N##_lui(img_t, const int *, unsigned *);                                            \
    void cvh_##N##_lh(img_t, const int *, uint16_t *);                                             \
    void cvh_##N##_wf(img_t, const int *, const float *);                                          \
    void cvh_##N##_wrwf(img_t, const int *, const float *);                                        \
    void cvh_##N##_wi(img_t, const int *, const int *);                                            \
    void cvh_##N##_wui(img_t, const int *, const unsigned *);                                      \
    void cvh_##N##_wh(img_t, const int *, const uint16_t *);                                       \
    void cvh_##N##_q(img_t, int *);
COLOUR_DECLS(1d)
SAMPLERLESS_DECLS(1db)
COLOUR_DECLS(1da)
COLOUR_DECLS(2d)
COLOUR_DECLS(2da)
COLOUR_DECLS(3d)
#define DEPTH_DECLS(N)                                                                             \
    float cvh_##N##_rf(img_t, smp_t, const float *);                                               \
    float cvh_##N##_rfi(img_t, smp_t, const int *);                                                \
    float cvh_##N##_lf(img_t, const int *);                                                        \
    float cvh_##N##_lrwf(img_t, const int *);                                                      \
    void cvh_##N##_wf(img_t, const int *, float);                                                  \
    void cvh_##N##_wrwf(img_t, const int *, float);
DEPTH_DECLS(2dd)
DEPTH_DECLS(2dad)
void cvh_q_1da(img_t, long *);
void cvh_q_2d(img_t, long *);
void cvh_q_2da(img_t, long *);
void cvh_q_3d(img_t, long *);
void cvh_q_2dd(img_t, long *);
void cvh_q_2dad(img_t, long *);
void cvh_q_1db(img_t, long *);
void cvh_const_2d(img_t, const float *, float *);

enum { K1D, K1DB, K1DA, K2D, K2DA, K3D, KINDS };
typedef struct kind_fns {
    const char *name;
    cl_mem_object_type type;
    void (*rf)(img_t, smp_t, const float *, float *);
    void (*rfi)(img_t, smp_t, const int *, float *);
    void (*ri)(img_t, smp_t, const float *, int *);
    void (*rii)(img_t, smp_t, const int *, int *);
    void (*rui)(img_t, smp_t, const float *, unsigned *);
    void (*rh)(img_t, smp_t, const float *, uint16_t *);
    void (*lf)(img_t, const int *, float *);
    void (*lrwf)(img_t, const int *, float *);
    void (*li)(img_t, const int *, int *);
    void (*lui)(img_t, const int *, unsigned *);
    void (*lh)(img_t, const int *, uint16_t *);
    void (*wf)(img_t, const int *, const float *);
    void (*wrwf)(img_t, const int *, const float *);
    void (*wi)(img_t, const int *, const int *);
    void (*wui)(img_t, const int *, const unsigned *);
    void (*wh)(img_t, const int *, const uint16_t *);
    void (*q)(img_t, int *);
} kind_fns;
#define SAMPLED(N)                                                                                 \
    cvh_##N##_rf, cvh_##N##_rfi, cvh_##N##_ri, cvh_##N##_rii, cvh_##N##_rui, cvh_##N##_rh
#define PLAIN(N)                                                                                   \
    cvh_##N##_lf, cvh_##N##_lrwf, cvh_##N##_li, cvh_##N##_lui, cvh_##N##_lh, cvh_##N##_wf,         \
        cvh_##N##_wrwf, cvh_##N##_wi, cvh_##N##_wui, cvh_##N##_wh, cvh_##N##_q
static const kind_fns kinds[KINDS] = {
    {"1D", CL_MEM_OBJECT_IMAGE1D, SAMPLED(1d), PLAIN(1d)},
    {"1D buffer", CL_MEM_OBJECT_IMAGE1D_BUFFER, NULL, NULL, NULL, NULL, NULL, NULL, PLAIN(1db)},
    {"1D array", CL_MEM_OBJECT_IMAGE1D_ARRAY, SAMPLED(1da), PLAIN(1da)},
    {"2D", CL_MEM_OBJECT_IMAGE2D, SAMPLED(2d), PLAIN(2d)},
    {"2D array", CL_MEM_OBJECT_IMAGE2D_ARRAY, SAMPLED(2da), PLAIN(2da)},
    {"3D", CL_MEM_OBJECT_IMAGE3D, SAMPLED(3d), PLAIN(3d)},
};

/* ---- images over host memory ---- */
typedef struct image {
    desc *d;
    unsigned char *pixels;
    size_t bytes;
    int kind;
    int n[3]; /* the bounds of x, y, z: layers of arrays are y (1D) or z (2D) */
} image;

static int channels(cl_channel_order o) {
    switch (o) {
    case CL_RG:
    case CL_RA:
        return 2;
    case CL_RGB:
        return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
        return 4;
    default:
        return 1;
    }
}

static int channel_size(cl_channel_type t) {
    switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
        return 1;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
        return 4;
    default:
        return 2;
    }
}

static int element_size(cl_channel_order o, cl_channel_type t) {
    if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555)
        return 2;
    if (t == CL_UNORM_INT_101010)
        return 4;
    return channels(o) * channel_size(t);
}

/* A descriptor and its pixels in one block (as a device image's storage), rows padded. */
static image make_image(int kind, cl_channel_order o, cl_channel_type t, int w, int h, int dd,
                        int layers) {
    image im = {0};
    int es = element_size(o, t);
    int rows = kind == K1DA ? layers : h, slices = kind == K2DA ? layers : dd;
    uint64_t row = (uint64_t)(w + 2) * es, slice = row * rows;
    im.bytes = slice * slices;
    unsigned char *block = aligned_alloc(64, sizeof(desc) + ((im.bytes + 63) & ~(size_t)63));
    memset(block, 0, sizeof(desc) + im.bytes);
    im.d = (desc *)block;
    im.pixels = block + sizeof(desc);
    *im.d =
        (desc){sizeof(desc), row, slice, w, h, dd, layers, o, t, kinds[kind].type, es, {0, 0}, {0}};
    im.kind = kind;
    im.n[0] = w;
    im.n[1] = rows;
    im.n[2] = slices;
    return im;
}

static unsigned char *texel_at(const image *im, int x, int y, int z) {
    return im->pixels + z * im->d->slice_pitch + y * im->d->row_pitch + x * im->d->element_size;
}

static uint32_t rnd32(void) {
    uint32_t high = (uint32_t)rand() << 16; /* first: operands' order is the compiler's */
    return high ^ (uint32_t)rand();
}

/* ---- reference conversions (the specification's rules) ---- */
static float half_to_float(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0    ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(1024 + m), e - 25);
    return h & 0x8000 ? -v : v;
}

/* Round to nearest even, overflow to infinity. */
static uint16_t float_to_half(float f) {
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    if (isnan(f))
        return sign | 0x7e00;
    if (a >= 65520.0)
        return sign | 0x7c00;
    if (a < ldexp(1, -14))
        return sign | (uint16_t)nearbyint(a * ldexp(1, 24));
    int e;
    frexp(a, &e);
    e -= 1; /* a = 1.m * 2^e */
    double m = nearbyint(a * ldexp(1, 10 - e));
    if (m == 2048) {
        m = 1024;
        e++;
    }
    return sign | (uint16_t)((e + 15) << 10 | ((int)m - 1024));
}

/* A float to a normalized integer: convert_T_sat_rte(f * scale), the float product rounded to
 * nearest even, saturated; NaN is 0. */
static long to_norm(float f, double scale, long lo, long hi) {
    if (isnan(f))
        return 0;
    volatile float product = f * (float)scale;
    double v = nearbyint((double)product);
    return v < lo ? lo : v > hi ? hi : (long)v;
}

static float unorm(long c, float d) {
    return (float)c / d;
}
static float snorm(long c, float d) {
    float v = (float)c / d;
    return v < -1.0f ? -1.0f : v;
}

/* The element's memory channels as floats / integers. */
static void ref_channels_f(const unsigned char *p, cl_channel_type t, int nch, float c[4]) {
    uint32_t packed = 0;
    memcpy(&packed, p, t == CL_UNORM_INT_101010 ? 4 : 2);
    switch (t) {
    case CL_UNORM_SHORT_565:
        c[0] = unorm(packed >> 11 & 31, 31), c[1] = unorm(packed >> 5 & 63, 63),
        c[2] = unorm(packed & 31, 31);
        return;
    case CL_UNORM_SHORT_555:
        c[0] = unorm(packed >> 10 & 31, 31), c[1] = unorm(packed >> 5 & 31, 31),
        c[2] = unorm(packed & 31, 31);
        return;
    case CL_UNORM_INT_101010:
        c[0] = unorm(packed >> 20 & 1023, 1023), c[1] = unorm(packed >> 10 & 1023, 1023),
        c[2] = unorm(packed & 1023, 1023);
        return;
    default:
        break;
    }
    for (int i = 0; i < nch; i++) {
        const unsigned char *q = p + i * channel_size(t);
        uint16_t u16;
        int16_t s16;
        memcpy(&u16, q, 2);
        memcpy(&s16, q, 2);
        switch (t) {
        case CL_UNORM_INT8:
            c[i] = unorm(*q, 255);
            break;
        case CL_SNORM_INT8:
            c[i] = snorm((int8_t)*q, 127);
            break;
        case CL_UNORM_INT16:
            c[i] = unorm(u16, 65535);
            break;
        case CL_SNORM_INT16:
            c[i] = snorm(s16, 32767);
            break;
        case CL_HALF_FLOAT:
            c[i] = half_to_float(u16);
            break;
        default:
            memcpy(&c[i], q, 4);
            break;
        }
    }
}

static void ref_channels_i(const unsigned char *p, cl_channel_type t, int nch, int32_t c[4]) {
    for (int i = 0; i < nch; i++) {
        const unsigned char *q = p + i * channel_size(t);
        int16_t s16;
        uint16_t u16;
        memcpy(&s16, q, 2);
        memcpy(&u16, q, 2);
        c[i] = t == CL_SIGNED_INT8      ? (int8_t)*q
               : t == CL_UNSIGNED_INT8  ? *q
               : t == CL_SIGNED_INT16   ? s16
               : t == CL_UNSIGNED_INT16 ? u16
                                        : (memcpy(&c[i], q, 4), c[i]);
    }
}

/* Where each of r, g, b, a comes from (a memory channel, or Z: 0, O: 1), per order. */
enum { Z = 8, O = 9 };
static const int *rgba_from(cl_channel_order o) {
    static const int r[] = {0, Z, Z, O}, a[] = {Z, Z, Z, 0}, rg[] = {0, 1, Z, O},
                     ra[] = {0, Z, Z, 1}, rgb[] = {0, 1, 2, O}, rgba[] = {0, 1, 2, 3},
                     bgra[] = {2, 1, 0, 3}, argb[] = {1, 2, 3, 0}, abgr[] = {3, 2, 1, 0},
                     in[] = {0, 0, 0, 0}, lum[] = {0, 0, 0, O};
    switch (o) {
    case CL_A:
        return a;
    case CL_RG:
        return rg;
    case CL_RA:
        return ra;
    case CL_RGB:
        return rgb;
    case CL_RGBA:
        return rgba;
    case CL_BGRA:
        return bgra;
    case CL_ARGB:
        return argb;
    case CL_ABGR:
        return abgr;
    case CL_INTENSITY:
        return in;
    case CL_LUMINANCE:
        return lum;
    default: /* CL_R, CL_DEPTH */
        return r;
    }
}

/* Which component of the written value each memory channel stores. */
static const int *memory_from(cl_channel_order o) {
    static const int r[] = {0}, a[] = {3}, rg[] = {0, 1}, ra[] = {0, 3}, rgb[] = {0, 1, 2},
                     rgba[] = {0, 1, 2, 3}, bgra[] = {2, 1, 0, 3}, argb[] = {3, 0, 1, 2},
                     abgr[] = {3, 2, 1, 0};
    switch (o) {
    case CL_A:
        return a;
    case CL_RG:
        return rg;
    case CL_RA:
        return ra;
    case CL_RGB:
        return rgb;
    case CL_RGBA:
        return rgba;
    case CL_BGRA:
        return bgra;
    case CL_ARGB:
        return argb;
    case CL_ABGR:
        return abgr;
    default:
        return r;
    }
}

/* The border colour: (0, 0, 0, 1) without alpha (R, RG, RGB, LUMINANCE), else (0, 0, 0, 0). */
static float border_alpha(cl_channel_order o) {
    return o == CL_R || o == CL_RG || o == CL_RGB || o == CL_LUMINANCE ? 1.0f : 0.0f;
}

static int inside(const image *im, int x, int y, int z) {
    return x >= 0 && y >= 0 && z >= 0 && x < im->n[0] && y < im->n[1] && z < im->n[2];
}

static void ref_texel_f(const image *im, int x, int y, int z, float out[4]) {
    cl_channel_order o = im->d->order;
    if (!inside(im, x, y, z)) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = border_alpha(o);
        return;
    }
    float c[4] = {0};
    ref_channels_f(texel_at(im, x, y, z), im->d->type, channels(o), c);
    const int *from = rgba_from(o);
    for (int k = 0; k < 4; k++)
        out[k] = from[k] == Z ? 0.0f : from[k] == O ? 1.0f : c[from[k]];
}

static void ref_texel_i(const image *im, int x, int y, int z, int32_t out[4]) {
    cl_channel_order o = im->d->order;
    if (!inside(im, x, y, z)) {
        out[0] = out[1] = out[2] = 0;
        out[3] = (int)border_alpha(o);
        return;
    }
    int32_t c[4] = {0};
    ref_channels_i(texel_at(im, x, y, z), im->d->type, channels(o), c);
    const int *from = rgba_from(o);
    for (int k = 0; k < 4; k++)
        out[k] = from[k] == Z ? 0 : from[k] == O ? 1 : c[from[k]];
}

/* The element write_imagef stores. */
static void ref_encode_f(cl_channel_order o, cl_channel_type t, const float v[4],
                         unsigned char *p) {
    const int *from = memory_from(o);
    if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010) {
        uint32_t e =
            t == CL_UNORM_SHORT_565
                ? (uint32_t)(to_norm(v[0], 31, 0, 31) << 11 | to_norm(v[1], 63, 0, 63) << 5 |
                             to_norm(v[2], 31, 0, 31))
            : t == CL_UNORM_SHORT_555
                ? (uint32_t)(to_norm(v[0], 31, 0, 31) << 10 | to_norm(v[1], 31, 0, 31) << 5 |
                             to_norm(v[2], 31, 0, 31))
                : (uint32_t)(to_norm(v[0], 1023, 0, 1023) << 20 |
                             to_norm(v[1], 1023, 0, 1023) << 10 | to_norm(v[2], 1023, 0, 1023));
        memcpy(p, &e, element_size(o, t));
        return;
    }
    for (int i = 0; i < channels(o); i++) {
        float f = v[from[i]];
        unsigned char *q = p + i * channel_size(t);
        int16_t s16;
        uint16_t u16;
        switch (t) {
        case CL_UNORM_INT8:
            *q = (unsigned char)to_norm(f, 255, 0, 255);
            break;
        case CL_SNORM_INT8:
            *q = (unsigned char)(int8_t)to_norm(f, 127, -128, 127);
            break;
        case CL_UNORM_INT16:
            u16 = (uint16_t)to_norm(f, 65535, 0, 65535);
            memcpy(q, &u16, 2);
            break;
        case CL_SNORM_INT16:
            s16 = (int16_t)to_norm(f, 32767, -32768, 32767);
            memcpy(q, &s16, 2);
            break;
        case CL_HALF_FLOAT:
            u16 = float_to_half(f);
            memcpy(q, &u16, 2);
            break;
        default:
            memcpy(q, &f, 4);
            break;
        }
    }
}

/* The element write_imagei (is_signed) or write_imageui stores: each value saturated to the
 * channel type. */
static void ref_encode_i(cl_channel_order o, cl_channel_type t, const int64_t v[4],
                         unsigned char *p) {
    const int *from = memory_from(o);
    for (int i = 0; i < channels(o); i++) {
        int64_t x = v[from[i]];
        int64_t lo = t == CL_SIGNED_INT8    ? -128
                     : t == CL_SIGNED_INT16 ? -32768
                     : t == CL_SIGNED_INT32 ? INT32_MIN
                                            : 0;
        int64_t hi = t == CL_SIGNED_INT8      ? 127
                     : t == CL_SIGNED_INT16   ? 32767
                     : t == CL_SIGNED_INT32   ? INT32_MAX
                     : t == CL_UNSIGNED_INT8  ? 255
                     : t == CL_UNSIGNED_INT16 ? 65535
                                              : UINT32_MAX;
        x = x < lo ? lo : x > hi ? hi : x;
        uint32_t bits = (uint32_t)x;
        memcpy(p + i * channel_size(t), &bits, channel_size(t));
    }
}

/* ---- the formats ---- */
static const cl_channel_type all_types[] = {CL_SNORM_INT8,     CL_SNORM_INT16,   CL_UNORM_INT8,
                                            CL_UNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                            CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                            CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
static const cl_channel_order plain_orders[] = {
    CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_BGRA, CL_ARGB, CL_ABGR, CL_INTENSITY, CL_LUMINANCE};
static const cl_channel_type packed_types[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555,
                                               CL_UNORM_INT_101010};

static int is_int_type(cl_channel_type t) {
    return t >= CL_SIGNED_INT8 && t <= CL_UNSIGNED_INT32;
}

typedef void (*format_fn)(cl_channel_order o, cl_channel_type t);
static void each_format(format_fn fn) {
    for (size_t i = 0; i < sizeof plain_orders / sizeof *plain_orders; i++)
        for (size_t k = 0; k < sizeof all_types / sizeof *all_types; k++)
            fn(plain_orders[i], all_types[k]);
    for (size_t k = 0; k < 3; k++)
        fn(CL_RGB, packed_types[k]);
}

/* Random pixel bits; float and half channels finite (NaN payloads are not the point here). */
static void random_fill(image *im) {
    for (size_t i = 0; i < im->bytes; i++)
        im->pixels[i] = (unsigned char)rand();
    cl_channel_type t = im->d->type;
    if (t != CL_FLOAT && t != CL_HALF_FLOAT)
        return;
    for (size_t i = 0; i + channel_size(t) <= im->bytes; i += channel_size(t)) {
        if (t == CL_FLOAT) {
            /* one after the other: the order of a call's arguments is the compiler's */
            int scale = (int)(rnd32() % 40);
            float f = ldexpf((float)(int32_t)rnd32(), -scale);
            memcpy(im->pixels + i, &f, 4);
        } else if ((im->pixels[i + 1] & 0x7c) == 0x7c) {
            im->pixels[i + 1] &= 0xbf;
        }
    }
}

static int same_f(float a, float b) {
    return a == b || (isnan(a) && isnan(b));
}

#define FMT_ARGS(o, t) (unsigned)(o), (unsigned)(t)

/* Every pixel of a 2D image read each way the format allows, against the reference. */
static void check_reads(cl_channel_order o, cl_channel_type t) {
    image im = make_image(K2D, o, t, 7, 5, 1, 1);
    random_fill(&im);
    const kind_fns *k = &kinds[K2D];
    smp_t plain =
        (smp_t)(uintptr_t)(CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST);
    for (int y = -1; y <= 5; y++)
        for (int x = -1; x <= 7; x++) {
            int c[4] = {x, y, 0, 0};
            if (!is_int_type(t)) {
                float ref[4], got[4], got2[4], got3[4];
                uint16_t h[4];
                ref_texel_f(&im, x, y, 0, ref);
                k->lf(im.d, c, got);
                k->lrwf(im.d, c, got2);
                k->rfi(im.d, plain, c, got3);
                k->lh(im.d, c, h);
                for (int i = 0; i < 4; i++) {
                    CHECK(same_f(got[i], ref[i]) && same_f(got2[i], ref[i]) &&
                              same_f(got3[i], ref[i]),
                          "read %04x/%04x (%d,%d)[%d]: %a %a %a, want %a", FMT_ARGS(o, t), x, y, i,
                          got[i], got2[i], got3[i], ref[i]);
                    CHECK(h[i] == float_to_half(ref[i]),
                          "read_imageh %04x/%04x (%d,%d)[%d]: %04x, want %04x", FMT_ARGS(o, t), x,
                          y, i, h[i], float_to_half(ref[i]));
                }
            } else {
                int32_t ref[4], got[4];
                unsigned ugot[4];
                ref_texel_i(&im, x, y, 0, ref);
                k->li(im.d, c, got);
                k->lui(im.d, c, ugot);
                for (int i = 0; i < 4; i++)
                    CHECK(got[i] == ref[i] && ugot[i] == (unsigned)ref[i],
                          "read_imagei/ui %04x/%04x (%d,%d)[%d]: %d %u, want %d", FMT_ARGS(o, t), x,
                          y, i, got[i], ugot[i], ref[i]);
            }
        }
    free(im.d);
}

static const float special[] = {
    0.0f,       -0.0f,      1.0f,        -1.0f,      0.5f,         2.0f,       -2.0f,
    1e30f,      -1e30f,     INFINITY,    -INFINITY,  NAN,          0.5f / 255, 1.5f / 255,
    2.5f / 255, 0.5f / 127, -0.5f / 127, 0.5f / 31,  0.5f / 65535, 65504.0f,   65520.0f,
    1e-8f,      -1e-8f,     0.999999f,   0x1.0p-24f, 3.0f / 65536};

/* Writes of specials and random values in every format: the element stored and nothing else. */
static void check_writes(cl_channel_order o, cl_channel_type t) {
    image im = make_image(K2D, o, t, 3, 2, 1, 1);
    unsigned char *want = malloc(im.bytes);
    const kind_fns *k = &kinds[K2D];
    int es = element_size(o, t);
    for (int n = 0; n < 300; n++) {
        int c[4] = {n % 3, (n / 3) % 2, 0, 0};
        memset(im.pixels, 0xa5, im.bytes);
        memcpy(want, im.pixels, im.bytes);
        unsigned char *dst = want + (texel_at(&im, c[0], c[1], 0) - im.pixels);
        if (!is_int_type(t)) {
            float v[4];
            for (int i = 0; i < 4; i++) {
                int r = (int)(rnd32() % 3);
                v[i] = r == 0   ? special[rnd32() % (sizeof special / sizeof *special)]
                       : r == 1 ? (float)(int32_t)(rnd32() % 300000 - 150000) / 65536.0f
                                : ldexpf((float)(int32_t)rnd32(), -31);
            }
            if (n % 4 == 3 && t != CL_HALF_FLOAT) { /* write_imageh: half values */
                uint16_t h[4];
                for (int i = 0; i < 4; i++) {
                    h[i] = isnan(v[i]) ? 0x3c00 : float_to_half(v[i]);
                    v[i] = half_to_float(h[i]);
                }
                k->wh(im.d, c, h);
            } else if (n % 2) {
                k->wrwf(im.d, c, v);
            } else {
                k->wf(im.d, c, v);
            }
            ref_encode_f(o, t, v, dst);
            if (t == CL_HALF_FLOAT || t == CL_FLOAT) /* NaN: any NaN */
                for (int i = 0; i < channels(o); i++)
                    if (isnan(v[memory_from(o)[i]]))
                        memcpy(dst + i * channel_size(t),
                               texel_at(&im, c[0], c[1], 0) + i * channel_size(t), channel_size(t));
            CHECK(
                !memcmp(im.pixels, want, im.bytes),
                "write_imagef %04x/%04x (%a, %a, %a, %a): %02x%02x%02x%02x, want %02x%02x%02x%02x",
                FMT_ARGS(o, t), v[0], v[1], v[2], v[3], texel_at(&im, c[0], c[1], 0)[0],
                es > 1 ? texel_at(&im, c[0], c[1], 0)[1] : 0,
                es > 2 ? texel_at(&im, c[0], c[1], 0)[2] : 0,
                es > 3 ? texel_at(&im, c[0], c[1], 0)[3] : 0, dst[0], es > 1 ? dst[1] : 0,
                es > 2 ? dst[2] : 0, es > 3 ? dst[3] : 0);
        } else {
            static const int64_t iv[] = {0,      1,     -1,    127,       128,       -128,
                                         -129,   255,   256,   32767,     32768,     -32768,
                                         -32769, 65535, 65536, INT32_MAX, INT32_MIN, 77};
            int sv[4];
            unsigned uv[4];
            int64_t ref[4];
            for (int i = 0; i < 4; i++) {
                int64_t x = iv[rnd32() % (sizeof iv / sizeof *iv)];
                sv[i] = (int)x;
                uv[i] = (unsigned)x;
                ref[i] = n % 2 ? (int64_t)uv[i] : (int64_t)sv[i];
            }
            if (n % 2)
                k->wui(im.d, c, uv);
            else
                k->wi(im.d, c, sv);
            ref_encode_i(o, t, ref, dst);
            CHECK(!memcmp(im.pixels, want, im.bytes),
                  "write_image%s %04x/%04x (%lld %lld %lld %lld)", n % 2 ? "ui" : "i",
                  FMT_ARGS(o, t), (long long)ref[0], (long long)ref[1], (long long)ref[2],
                  (long long)ref[3]);
        }
    }
    free(want);
    free(im.d);
}

/* Every value of each normalized type read back exactly as c / max (OpenCL: the conversion is
 * exact for these), through a 1D image of them all. */
static void check_exhaustive(void) {
    static const cl_channel_type types[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_UNORM_INT16,
                                            CL_SNORM_INT16, CL_HALF_FLOAT};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        cl_channel_type t = types[k];
        int n = channel_size(t) == 1 ? 256 : 65536;
        image im = make_image(K1D, CL_R, t, n, 1, 1, 1);
        for (int i = 0; i < n; i++)
            memcpy(im.pixels + i * channel_size(t), &i, channel_size(t));
        for (int i = 0; i < n; i++) {
            int c[4] = {i, 0, 0, 0};
            float got[4], ref[4];
            kinds[K1D].lf(im.d, c, got);
            ref_texel_f(&im, i, 0, 0, ref);
            CHECK(same_f(got[0], ref[0]), "value %d of %04x: %a, want %a", i, (unsigned)t, got[0],
                  ref[0]);
        }
        free(im.d);
    }
    for (size_t k = 0; k < 3; k++) {
        cl_channel_type t = packed_types[k];
        image im = make_image(K1D, CL_RGB, t, 65536, 1, 1, 1);
        for (int i = 0; i < 65536; i++) {
            uint32_t bits = t == CL_UNORM_INT_101010 ? (uint32_t)i * 16411u : (uint32_t)i;
            memcpy(im.pixels + i * element_size(CL_RGB, t), &bits, element_size(CL_RGB, t));
        }
        for (int i = 0; i < 65536; i++) {
            int c[4] = {i, 0, 0, 0};
            float got[4], ref[4];
            kinds[K1D].lf(im.d, c, got);
            ref_texel_f(&im, i, 0, 0, ref);
            CHECK(!memcmp(got, ref, sizeof got), "packed %04x value %d", (unsigned)t, i);
        }
        free(im.d);
    }
}

/* ---- addressing and filtering (the specification's formulas, in float where it computes) ---- */
static int ref_nearest(float s, int n, unsigned smp) {
    unsigned mode = smp & 0xE;
    int norm = smp & CLK_NORMALIZED_COORDS_TRUE, i;
    if (norm && mode == CLK_ADDRESS_REPEAT) {
        float u = (s - floorf(s)) * n;
        i = (int)floorf(u);
        if (i > n - 1)
            i = i - n;
    } else if (norm && mode == CLK_ADDRESS_MIRRORED_REPEAT) {
        float s2 = 2.0f * rintf(0.5f * s);
        s2 = fabsf(s - s2);
        float u = s2 * n;
        i = (int)floorf(u);
        i = i < n - 1 ? i : n - 1;
    } else {
        float u = norm ? s * n : s;
        i = (int)floorf(u);
        if (mode == CLK_ADDRESS_CLAMP_TO_EDGE)
            i = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
        /* CLK_ADDRESS_CLAMP: clamp(i, -1, n), the border outside; CLK_ADDRESS_NONE: the border
         * outside (culvert's choice for an undefined read) */
    }
    return i;
}

static void ref_linear(float s, int n, unsigned smp, int *i0, int *i1, float *a) {
    unsigned mode = smp & 0xE;
    int norm = smp & CLK_NORMALIZED_COORDS_TRUE;
    float u;
    if (norm && mode == CLK_ADDRESS_REPEAT) {
        u = (s - floorf(s)) * n;
        *i0 = (int)floorf(u - 0.5f);
        *i1 = *i0 + 1;
        if (*i0 < 0)
            *i0 = n + *i0;
        if (*i1 > n - 1)
            *i1 = *i1 - n;
    } else if (norm && mode == CLK_ADDRESS_MIRRORED_REPEAT) {
        float s2 = 2.0f * rintf(0.5f * s);
        s2 = fabsf(s - s2);
        u = s2 * n;
        *i0 = (int)floorf(u - 0.5f);
        *i1 = *i0 + 1;
        *i0 = *i0 > 0 ? *i0 : 0;
        *i1 = *i1 < n - 1 ? *i1 : n - 1;
    } else {
        u = norm ? s * n : s;
        *i0 = (int)floorf(u - 0.5f);
        *i1 = *i0 + 1;
        if (mode == CLK_ADDRESS_CLAMP_TO_EDGE) {
            *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
            *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
        }
    }
    float x = u - 0.5f;
    *a = x - floorf(x);
}

static int ref_layer(float f, int n) {
    float r = rintf(f);
    return r < 0 ? 0 : r > n - 1 ? n - 1 : (int)r;
}

static int dims_of(int kind) {
    return kind == K3D ? 3 : kind == K2D || kind == K2DA ? 2 : 1;
}

/* The sample, and in mag (NULL: not wanted) the sum of its terms' magnitudes, |weight x texel|:
 * a float weighted sum is exact to about 1e-5 of that, not of the result (texels of opposite
 * signs cancel). */
static void ref_sample(const image *im, unsigned smp, const float c[4], int linear, float out[4],
                       float mag[4]) {
    int kind = im->kind, dims = dims_of(kind);
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    float w[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++) {
        if (d < dims) {
            if (linear)
                ref_linear(c[d], im->n[d], smp, &lo[d], &hi[d], &w[d]);
            else
                lo[d] = hi[d] = ref_nearest(c[d], im->n[d], smp);
        } else if ((kind == K1DA && d == 1) || (kind == K2DA && d == 2)) {
            lo[d] = hi[d] = ref_layer(c[d], im->n[d]);
        }
    }
    double sum[4] = {0, 0, 0, 0}, abs_sum[4] = {0, 0, 0, 0};
    for (int t = 0; t < 8; t++) {
        double weight = 1;
        int xyz[3];
        for (int d = 0; d < 3; d++) {
            int second = t >> d & 1;
            if (second && (d >= dims || !linear))
                weight = 0;
            xyz[d] = second ? hi[d] : lo[d];
            if (d < dims && linear)
                weight *= second ? w[d] : 1.0 - w[d];
        }
        if (weight == 0)
            continue;
        float texel[4];
        ref_texel_f(im, xyz[0], xyz[1], xyz[2], texel);
        for (int i = 0; i < 4; i++) {
            sum[i] += weight * texel[i];
            abs_sum[i] += fabs(weight * texel[i]);
        }
    }
    for (int i = 0; i < 4; i++) {
        out[i] = (float)sum[i];
        if (mag)
            mag[i] = (float)abs_sum[i];
    }
}

/* A coordinate along an axis of n texels: texel edges and centres, just off them, and random
 * ones, inside and outside. */
static float pick_coord(int n, int norm) {
    float v;
    switch (rnd32() % 4) {
    case 0:
        v = (float)((int)(rnd32() % (4 * n + 1)) - n) / 2.0f; /* edges and centres */
        break;
    case 1:
        v = nextafterf((float)((int)(rnd32() % (3 * n + 1)) - n),
                       rnd32() % 2 ? INFINITY : -INFINITY);
        break;
    default:
        v = ((float)(rnd32() % 100000) / 100000.0f) * 4 * n - 1.5f * n;
        break;
    }
    return norm ? v / n : v;
}

static void check_sampling(void) {
    static const unsigned modes[] = {CLK_ADDRESS_NONE, CLK_ADDRESS_CLAMP_TO_EDGE, CLK_ADDRESS_CLAMP,
                                     CLK_ADDRESS_REPEAT, CLK_ADDRESS_MIRRORED_REPEAT};
    static const int sizes[KINDS][3] = {{5, 1, 1}, {0}, {5, 1, 3}, {5, 4, 1}, {5, 4, 3}, {4, 3, 5}};
    for (int kind = 0; kind < KINDS; kind++) {
        if (kind == K1DB)
            continue;
        const kind_fns *k = &kinds[kind];
        for (int fmt = 0; fmt < 2; fmt++) {
            cl_channel_order o = fmt ? CL_RG : CL_RGBA;
            cl_channel_type t = fmt ? CL_UNORM_INT8 : CL_FLOAT;
            const int *s = sizes[kind];
            image im = make_image(kind, o, t, s[0], kind == K1DA ? 1 : s[1], kind == K3D ? s[2] : 1,
                                  kind == K1DA   ? s[1]
                                  : kind == K2DA ? s[2]
                                                 : 1);
            random_fill(&im);
            for (size_t m = 0; m < 5; m++)
                for (int norm = 0; norm < 2; norm++)
                    for (int linear = 0; linear < 2; linear++) {
                        if (!norm && modes[m] >= CLK_ADDRESS_REPEAT)
                            continue; /* undefined without normalized coordinates */
                        unsigned smp = modes[m] | (norm ? CLK_NORMALIZED_COORDS_TRUE : 0) |
                                       (linear ? CLK_FILTER_LINEAR : CLK_FILTER_NEAREST);
                        for (int n = 0; n < 400; n++) {
                            float c[4] = {0, 0, 0, 0};
                            for (int d = 0; d < 3; d++) {
                                int layer = (kind == K1DA && d == 1) || (kind == K2DA && d == 2);
                                c[d] = layer ? (float)((int)(rnd32() % 13) - 4) / 2.0f
                                             : pick_coord(im.n[d], norm);
                            }
                            float got[4], ref[4], mag[4];
                            k->rf(im.d, (smp_t)(uintptr_t)smp, c, got);
                            ref_sample(&im, smp, c, linear, ref, mag);
                            for (int i = 0; i < 4; i++) {
                                float tol = linear ? 1e-5f * (1.0f + mag[i]) : 0.0f;
                                CHECK(fabsf(got[i] - ref[i]) <= tol || same_f(got[i], ref[i]),
                                      "%s %04x sampler %#x at (%a, %a, %a)[%d]: %a, want %a",
                                      k->name, (unsigned)t, smp, c[0], c[1], c[2], i, got[i],
                                      ref[i]);
                            }
                            /* read_imageh: the float result rounded to half (nearest only:
                             * linear is within a tolerance). */
                            uint16_t h[4];
                            k->rh(im.d, (smp_t)(uintptr_t)smp, c, h);
                            if (!linear)
                                for (int i = 0; i < 4; i++)
                                    CHECK(h[i] == float_to_half(ref[i]), "%s read_imageh", k->name);
                            /* read_imagei/ui: nearest whatever the filter. */
                            if (fmt == 1) {
                                int gi[4];
                                unsigned gu[4];
                                float rn[4];
                                k->ri(im.d, (smp_t)(uintptr_t)smp, c, gi);
                                k->rui(im.d, (smp_t)(uintptr_t)smp, c, gu);
                                ref_sample(&im, smp, c, 0, rn, NULL);
                                for (int i = 0; i < 4; i++) {
                                    int32_t want = (int32_t)lrintf(rn[i] * (i < 2 ? 255.0f : 1.0f));
                                    CHECK(gi[i] == want && gu[i] == (unsigned)want,
                                          "%s read_imagei sampler %#x [%d]: %d %u, want %d",
                                          k->name, smp, i, gi[i], gu[i], want);
                                }
                            }
                        }
                    }
            /* Integer coordinates with a sampler, and samplerless (the border outside, layers
             * too). */
            for (size_t m = 0; m < 3; m++) {
                unsigned smp = modes[m] | CLK_FILTER_NEAREST;
                for (int n = 0; n < 300; n++) {
                    int c[4] = {0, 0, 0, 0}, xyz[3] = {0, 0, 0}, plain[3] = {0, 0, 0};
                    for (int d = 0; d < 3; d++) {
                        int layer = (kind == K1DA && d == 1) || (kind == K2DA && d == 2);
                        if (d >= dims_of(kind) && !layer)
                            continue;
                        c[d] = (int)(rnd32() % (unsigned)(im.n[d] + 4)) - 2;
                        int e = c[d] < 0 ? 0 : c[d] > im.n[d] - 1 ? im.n[d] - 1 : c[d];
                        xyz[d] = layer || modes[m] == CLK_ADDRESS_CLAMP_TO_EDGE ? e : c[d];
                        plain[d] = c[d];
                    }
                    float got[4], ref[4], lgot[4], lref[4];
                    k->rfi(im.d, (smp_t)(uintptr_t)smp, c, got);
                    ref_texel_f(&im, xyz[0], xyz[1], xyz[2], ref);
                    k->lf(im.d, c, lgot);
                    ref_texel_f(&im, plain[0], plain[1], plain[2], lref);
                    CHECK(!memcmp(got, ref, sizeof got),
                          "%s int coordinates sampler %#x (%d %d %d)", k->name, smp, c[0], c[1],
                          c[2]);
                    CHECK(!memcmp(lgot, lref, sizeof got), "%s samplerless (%d %d %d)", k->name,
                          c[0], c[1], c[2]);
                }
            }
            free(im.d);
        }
    }
}

/* Writes land where the descriptor says (pitches, layers) and nowhere outside the image. */
static void check_write_places(void) {
    for (int kind = 0; kind < KINDS; kind++) {
        image im = make_image(kind, CL_RGBA, CL_UNSIGNED_INT16, 3, kind >= K2D ? 2 : 1,
                              kind == K3D ? 3 : 1, kind == K1DA || kind == K2DA ? 2 : 1);
        unsigned char *want = malloc(im.bytes);
        for (int n = 0; n < 200; n++) {
            int c[4] = {0, 0, 0, 0};
            for (int d = 0; d < 3; d++)
                c[d] = (int)(rnd32() % 7) - 2;
            memset(im.pixels, 0x5a, im.bytes);
            memcpy(want, im.pixels, im.bytes);
            int xyz[3] = {c[0], kind == K1DA || kind >= K2D ? c[1] : 0,
                          kind == K2DA || kind == K3D ? c[2] : 0};
            unsigned v[4] = {1u + n, 2, 3, 4};
            if (inside(&im, xyz[0], xyz[1], xyz[2])) {
                int64_t r[4] = {v[0], v[1], v[2], v[3]};
                ref_encode_i(CL_RGBA, CL_UNSIGNED_INT16, r,
                             want + (texel_at(&im, xyz[0], xyz[1], xyz[2]) - im.pixels));
            }
            kinds[kind].wui(im.d, c, v);
            CHECK(!memcmp(im.pixels, want, im.bytes), "%s write at (%d %d %d)", kinds[kind].name,
                  c[0], c[1], c[2]);
        }
        free(want);
        free(im.d);
    }
}

/* Depth images: a float, the border 0 outside. */
static void check_depth(void) {
    for (int fmt = 0; fmt < 2; fmt++) {
        cl_channel_type t = fmt ? CL_UNORM_INT16 : CL_FLOAT;
        for (int array = 0; array < 2; array++) {
            image im = make_image(array ? K2DA : K2D, CL_DEPTH, t, 4, 3, 1, array ? 2 : 1);
            random_fill(&im);
            for (int n = 0; n < 300; n++) {
                unsigned smp = (n % 3 == 0 ? CLK_ADDRESS_CLAMP : CLK_ADDRESS_CLAMP_TO_EDGE) |
                               (n % 2 ? CLK_FILTER_LINEAR : CLK_FILTER_NEAREST) |
                               CLK_NORMALIZED_COORDS_TRUE;
                float c[4] = {pick_coord(4, 1), pick_coord(3, 1), (float)(n % 4) - 1, 0}, ref[4],
                      mag[4];
                int ic[4] = {n % 6 - 1, n % 5 - 1, n % 3, 0};
                float got = array ? cvh_2dad_rf(im.d, (smp_t)(uintptr_t)smp, c)
                                  : cvh_2dd_rf(im.d, (smp_t)(uintptr_t)smp, c);
                ref_sample(&im, smp, c, n % 2, ref, mag);
                CHECK(fabsf(got - ref[0]) <= (n % 2 ? 1e-5f * (1.0f + mag[0]) : 0.0f),
                      "depth read %a, want %a", got, ref[0]);
                float lgot = array ? cvh_2dad_lf(im.d, ic) : cvh_2dd_lf(im.d, ic);
                float rw = array ? cvh_2dad_lrwf(im.d, ic) : cvh_2dd_lrwf(im.d, ic);
                ref_texel_f(&im, ic[0], ic[1], array ? ic[2] : 0, ref);
                CHECK(lgot == ref[0] && rw == ref[0], "depth samplerless %a %a, want %a", lgot, rw,
                      ref[0]);
                float v = (float)(n % 7) / 5.0f - 0.2f;
                int w[4] = {n % 4, n % 3, n % 2, 0};
                unsigned char want[4] = {0};
                ref_encode_f(CL_DEPTH, t, (float[4]){v, 0, 0, 0}, want);
                if (n % 2)
                    array ? cvh_2dad_wf(im.d, w, v) : cvh_2dd_wf(im.d, w, v);
                else
                    array ? cvh_2dad_wrwf(im.d, w, v) : cvh_2dd_wrwf(im.d, w, v);
                CHECK(!memcmp(texel_at(&im, w[0], w[1], array ? w[2] : 0), want,
                              (size_t)channel_size(t)),
                      "depth write %a", v);
            }
            free(im.d);
        }
    }
}

static void check_queries(void) {
    for (int kind = 0; kind < KINDS; kind++) {
        image im = make_image(kind, CL_RA, CL_SNORM_INT16, 7, kind == K2D || kind >= K2D ? 5 : 1,
                              kind == K3D ? 3 : 1, kind == K1DA || kind == K2DA ? 4 : 1);
        int q[3];
        kinds[kind].q(im.d, q);
        CHECK(q[0] == 7 && q[1] == CL_SNORM_INT16 && q[2] == CL_RA, "%s queries %d %#x %#x",
              kinds[kind].name, q[0], q[1], q[2]);
        long o[4] = {0, 0, 0, 0};
        switch (kind) {
        case K1DB:
            cvh_q_1db(im.d, o);
            CHECK(o[0] == 7, "1D buffer width");
            break;
        case K1DA:
            cvh_q_1da(im.d, o);
            CHECK(o[0] == 4, "1D array size %ld", o[0]);
            break;
        case K2D:
            cvh_q_2d(im.d, o);
            CHECK(o[0] == 5 && o[1] == 7 && o[2] == 5, "2D queries");
            break;
        case K2DA:
            cvh_q_2da(im.d, o);
            CHECK(o[0] == 5 && o[1] == 7 && o[2] == 5 && o[3] == 4, "2D array queries");
            break;
        case K3D:
            cvh_q_3d(im.d, o);
            CHECK(o[0] == 5 && o[1] == 3 && o[2] == 3005007 && o[3] == 0, "3D queries");
            break;
        default:
            break;
        }
        free(im.d);
    }
    image d = make_image(K2D, CL_DEPTH, CL_FLOAT, 6, 2, 1, 1);
    long o[4];
    cvh_q_2dd(d.d, o);
    CHECK(o[0] == 2 && o[1] == 6 && o[2] == 2 && o[3] == CL_DEPTH, "depth queries");
    free(d.d);
    image da = make_image(K2DA, CL_DEPTH, CL_UNORM_INT16, 6, 2, 1, 9);
    cvh_q_2dad(da.d, o);
    CHECK(o[0] == 2 && o[1] == 2006 && o[2] == 9 && o[3] == CL_UNORM_INT16, "depth array queries");
    free(da.d);
}

/* A sampler declared in the program: normalized, mirrored repeat, linear. */
static void check_constant_sampler(void) {
    image im = make_image(K2D, CL_RGBA, CL_FLOAT, 5, 4, 1, 1);
    random_fill(&im);
    unsigned smp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
    for (int n = 0; n < 200; n++) {
        float c[4] = {pick_coord(5, 1), pick_coord(4, 1), 0, 0}, got[4], ref[4], mag[4];
        cvh_const_2d(im.d, c, got);
        ref_sample(&im, smp, c, 1, ref, mag);
        for (int i = 0; i < 4; i++)
            CHECK(fabsf(got[i] - ref[i]) <= 1e-5f * (1.0f + mag[i]),
                  "constant sampler (%a, %a)[%d]: %a, want %a", c[0], c[1], i, got[i], ref[i]);
    }
    free(im.d);
}

int main(void) {
    srand(12345);
    each_format(check_reads);
    each_format(check_writes);
    check_exhaustive();
    check_sampling();
    check_write_places();
    check_depth();
    check_queries();
    check_constant_sampler();
    if (failures)
        fprintf(stderr, "%d failures of %ld checks\n", failures, checks);
    else
        printf("image builtins: %ld checks passed\n", checks);
    return failures ? 1 : 0;
}
#endif
