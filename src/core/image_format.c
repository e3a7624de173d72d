/* Image formats: the channel orders and types culvert holds, the size of a pixel, the format
 * lists, and a fill colour packed as one pixel (the API specification's conversion rules). */
#include "core/image.h"

#include <math.h>
#include <string.h>

/* The channel types by family: which orders take them. */
static const cl_channel_type cv_all_types[] = {
    CL_SNORM_INT8,     CL_SNORM_INT16,    CL_UNORM_INT8,   CL_UNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
static const cl_channel_type cv_byte_types[] = {CL_SNORM_INT8, CL_UNORM_INT8, CL_SIGNED_INT8,
                                                CL_UNSIGNED_INT8};
static const cl_channel_type cv_packed_types[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555,
                                                  CL_UNORM_INT_101010};
static const cl_channel_type cv_float_types[] = {CL_UNORM_INT8,  CL_UNORM_INT16, CL_SNORM_INT8,
                                                 CL_SNORM_INT16, CL_HALF_FLOAT,  CL_FLOAT};
static const cl_channel_type cv_depth_types[] = {CL_UNORM_INT16, CL_FLOAT};

#define CV_TYPES(a) a, sizeof a / sizeof a[0]

/* A channel order and the types it takes (the API specification's table of image channel orders
 * and data types); channels: the order's count. */
typedef struct cv_order_types {
    cl_channel_order order;
    unsigned channels;
    const cl_channel_type *types;
    size_t num_types;
} cv_order_types;

/* The channel orders culvert holds. */
static const cv_order_types cv_orders[] = {
    {CL_R, 1, CV_TYPES(cv_all_types)},           {CL_A, 1, CV_TYPES(cv_all_types)},
    {CL_RG, 2, CV_TYPES(cv_all_types)},          {CL_RA, 2, CV_TYPES(cv_all_types)},
    {CL_RGBA, 4, CV_TYPES(cv_all_types)},        {CL_RGB, 3, CV_TYPES(cv_packed_types)},
    {CL_BGRA, 4, CV_TYPES(cv_byte_types)},       {CL_ARGB, 4, CV_TYPES(cv_byte_types)},
    {CL_ABGR, 4, CV_TYPES(cv_byte_types)},       {CL_INTENSITY, 1, CV_TYPES(cv_float_types)},
    {CL_LUMINANCE, 1, CV_TYPES(cv_float_types)}, {CL_DEPTH, 1, CV_TYPES(cv_depth_types)},
};

/* Formats the specification defines that culvert does not hold. CL_RGB is taken with every
 * defined type, as implementations offer it with 8-bit and float channels beyond the core rule. */
static const cl_channel_type cv_unorm8_type[] = {CL_UNORM_INT8};
static const cl_channel_type cv_rgba_unheld[] = {CL_UNORM_INT_101010_2};
static const cl_channel_type cv_rgb_unheld[] = {CL_UNORM_INT24, CL_UNORM_INT_101010_2};
static const cl_channel_type cv_depth_stencil_types[] = {CL_UNORM_INT24, CL_FLOAT};
static const cv_order_types cv_unheld_orders[] = {
    {CL_Rx, 1, CV_TYPES(cv_all_types)},
    {CL_RGx, 2, CV_TYPES(cv_all_types)},
    {CL_RGBx, 3, CV_TYPES(cv_packed_types)},
    {CL_RGBA, 4, CV_TYPES(cv_rgba_unheld)},
    {CL_RGB, 3, CV_TYPES(cv_all_types)},
    {CL_RGB, 3, CV_TYPES(cv_rgb_unheld)},
    {CL_DEPTH_STENCIL, 1, CV_TYPES(cv_depth_stencil_types)},
    {CL_sRGB, 3, CV_TYPES(cv_unorm8_type)},
    {CL_sRGBx, 3, CV_TYPES(cv_unorm8_type)},
    {CL_sRGBA, 4, CV_TYPES(cv_unorm8_type)},
    {CL_sBGRA, 4, CV_TYPES(cv_unorm8_type)},
};

/* The row of a table that takes the format, NULL for none. */
static const cv_order_types *cv_order_row(const cv_order_types *rows, size_t n,
                                          const cl_image_format *f) {
    for (size_t i = 0; f && i < n; i++)
        for (size_t k = 0; rows[i].order == f->image_channel_order && k < rows[i].num_types; k++)
            if (rows[i].types[k] == f->image_channel_data_type)
                return &rows[i];
    return NULL;
}

static size_t cv_type_size(cl_channel_type t) {
    switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
        return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
        return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

size_t cv_image_element_size(const cl_image_format *f) {
    const cv_order_types *row = cv_order_row(cv_orders, sizeof cv_orders / sizeof cv_orders[0], f);
    cl_channel_type t = row ? f->image_channel_data_type : 0;
    /* The packed types hold all three channels in one 16- or 32-bit word. */
    return !row                                                 ? 0
           : t == CL_UNORM_INT_101010                           ? 4
           : t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 ? 2
                                                                : row->channels * cv_type_size(t);
}

/* Whether a format is one the API specification defines, held or not. */
bool cv_image_format_defined(const cl_image_format *f) {
    return cv_image_element_size(f) ||
           cv_order_row(cv_unheld_orders, sizeof cv_unheld_orders / sizeof cv_unheld_orders[0], f);
}

cl_uint cv_image_formats(cl_mem_object_type type, cl_image_format *out, cl_uint max) {
    cl_uint n = 0;
    for (size_t i = 0; i < sizeof cv_orders / sizeof cv_orders[0]; i++) {
        /* Depth images are 2D images and 2D image arrays (cl_khr_depth_images). */
        if (cv_orders[i].order == CL_DEPTH && type != CL_MEM_OBJECT_IMAGE2D &&
            type != CL_MEM_OBJECT_IMAGE2D_ARRAY)
            continue;
        for (size_t k = 0; k < cv_orders[i].num_types; k++, n++)
            if (out && n < max)
                out[n] = (cl_image_format){cv_orders[i].order, cv_orders[i].types[k]};
    }
    return n;
}

/* float -> half, rounding to nearest even (NaN stays NaN, overflow is infinity). */
static uint16_t cv_half_of(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t a = x & 0x7fffffffu;
    if (a > 0x7f800000u)
        return sign | 0x7e00;
    if (a >= 0x477ff000u) /* rounds to 65520 or more: infinity */
        return sign | 0x7c00;
    if (a < 0x38800000u) { /* a half denormal (or zero): units of 2^-24 */
        float v = fabsf(f) * 16777216.0f;
        return sign | (uint16_t)nearbyintf(v);
    }
    uint32_t mant = a & 0x7fffff, exp = (a >> 23) - 112;
    uint32_t h = (exp << 10) | (mant >> 13), rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++;
    return sign | (uint16_t)h;
}

/* A normalized value in [lo, 1] times scale, rounded to nearest even; NaN is 0. */
static long cv_norm(float v, float lo, float scale) {
    if (isnan(v))
        return 0;
    v = v < lo ? lo : v > 1.0f ? 1.0f : v;
    return lrintf(v * scale);
}

static long long cv_clamp_ll(long long v, long long lo, long long hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/* One channel value into its bytes at p. */
static void cv_put_channel(cl_channel_type t, const void *color, unsigned c, unsigned char *p) {
    const float *f = color;
    const cl_int *i = color;
    const cl_uint *u = color;
    union {
        int8_t s8;
        uint8_t u8;
        int16_t s16;
        uint16_t u16;
        int32_t s32;
        uint32_t u32;
        float f32;
    } v;
    switch (t) {
    case CL_SNORM_INT8:
        v.s8 = (int8_t)cv_norm(f[c], -1.0f, 127.0f);
        break;
    case CL_UNORM_INT8:
        v.u8 = (uint8_t)cv_norm(f[c], 0.0f, 255.0f);
        break;
    case CL_SNORM_INT16:
        v.s16 = (int16_t)cv_norm(f[c], -1.0f, 32767.0f);
        break;
    case CL_UNORM_INT16:
        v.u16 = (uint16_t)cv_norm(f[c], 0.0f, 65535.0f);
        break;
    case CL_SIGNED_INT8:
        v.s8 = (int8_t)cv_clamp_ll(i[c], INT8_MIN, INT8_MAX);
        break;
    case CL_SIGNED_INT16:
        v.s16 = (int16_t)cv_clamp_ll(i[c], INT16_MIN, INT16_MAX);
        break;
    case CL_SIGNED_INT32:
        v.s32 = i[c];
        break;
    case CL_UNSIGNED_INT8:
        v.u8 = (uint8_t)(u[c] > UINT8_MAX ? UINT8_MAX : u[c]);
        break;
    case CL_UNSIGNED_INT16:
        v.u16 = (uint16_t)(u[c] > UINT16_MAX ? UINT16_MAX : u[c]);
        break;
    case CL_UNSIGNED_INT32:
        v.u32 = u[c];
        break;
    case CL_HALF_FLOAT:
        v.u16 = cv_half_of(f[c]);
        break;
    default:
        v.f32 = f[c];
        break;
    }
    memcpy(p, &v, cv_type_size(t));
}

void cv_image_pack_color(const cl_image_format *f, const void *color, unsigned char *pixel) {
    cl_channel_type t = f->image_channel_data_type;
    const float *c = color;
    /* Memory order of the channels, as indices into (r, g, b, a); the single-channel orders
     * store the colour's first component (red), CL_A its alpha. */
    static const struct {
        cl_channel_order order;
        unsigned n, idx[4];
    } layout[] = {
        {CL_R, 1, {0}},
        {CL_A, 1, {3}},
        {CL_RG, 2, {0, 1}},
        {CL_RA, 2, {0, 3}},
        {CL_RGBA, 4, {0, 1, 2, 3}},
        {CL_BGRA, 4, {2, 1, 0, 3}},
        {CL_ARGB, 4, {3, 0, 1, 2}},
        {CL_ABGR, 4, {3, 2, 1, 0}},
        {CL_INTENSITY, 1, {0}},
        {CL_LUMINANCE, 1, {0}},
        {CL_DEPTH, 1, {0}},
    };
    if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010) {
        uint32_t word;
        if (t == CL_UNORM_SHORT_565)
            word = (uint32_t)(cv_norm(c[0], 0, 31) << 11 | cv_norm(c[1], 0, 63) << 5 |
                              cv_norm(c[2], 0, 31));
        else if (t == CL_UNORM_SHORT_555)
            word = (uint32_t)(cv_norm(c[0], 0, 31) << 10 | cv_norm(c[1], 0, 31) << 5 |
                              cv_norm(c[2], 0, 31));
        else
            word = (uint32_t)(cv_norm(c[0], 0, 1023) << 20 | cv_norm(c[1], 0, 1023) << 10 |
                              cv_norm(c[2], 0, 1023));
        if (t == CL_UNORM_INT_101010)
            memcpy(pixel, &word, 4);
        else {
            uint16_t h = (uint16_t)word;
            memcpy(pixel, &h, 2);
        }
        return;
    }
    size_t size = cv_type_size(t);
    for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++)
        if (layout[i].order == f->image_channel_order)
            for (unsigned k = 0; k < layout[i].n; k++)
                cv_put_channel(t, color, layout[i].idx[k], pixel + k * size);
}
