/* culvert's image builtins, in software: the OpenCL C image functions (read_image*, write_image*,
 * get_image_*) on the image descriptor of docs/kernel-abi.md ("Images and samplers"), with plain
 * global loads and stores. gen_images.py compiles this file with one wrapper per mangled builtin
 * name into images.ll; tests/unit/image_emulation.c runs it on the CPU against a reference written
 * from the specifications.
 *
 * Addressing and filtering follow the OpenCL 3.0 API specification ("Image Addressing and
 * Filtering"), the conversions its "Conversion Rules". Where the specifications leave a result
 * undefined (a read outside the image with CLK_ADDRESS_NONE, a samplerless read outside it, a
 * write outside it, repeat modes with unnormalized coordinates, read_imagei/ui with a linear
 * filter), the choice here is the cheap safe one: the border colour, a dropped write, clamping
 * to the edge, nearest filtering. No coordinate ever reaches memory outside the image.
 *
 * Everything is in this one file of static functions so that the host test compiles exactly the
 * code the GPU runs; only the __asm-named wrappers (gen_images.py) are NVPTX-specific. */

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
/* Each multiply and add rounds on its own, on the GPU as on the host test. */
#pragma OPENCL FP_CONTRACT OFF

struct cv_image_desc {
    long data_offset; /* pixels = (char *)descriptor + data_offset */
    ulong row_pitch;
    ulong slice_pitch;
    uint width, height, depth, array_size;
    uint channel_order, channel_type, image_type, element_size;
    uint reserved[2];
    /* Texture objects per sampler state (cv_texture_slot), 0 where there is none: 2D images of
     * a format the texture units read (core/image.c). */
    ulong texture[16];
};
typedef global const struct cv_image_desc cv_image;

/* cl.h's values (the descriptor holds them; CLK_* of OpenCL C are the same). */
#define CV_R         0x10B0
#define CV_A         0x10B1
#define CV_RG        0x10B2
#define CV_RA        0x10B3
#define CV_RGB       0x10B4
#define CV_RGBA      0x10B5
#define CV_BGRA      0x10B6
#define CV_ARGB      0x10B7
#define CV_INTENSITY 0x10B8
#define CV_LUMINANCE 0x10B9
#define CV_DEPTH     0x10BD
#define CV_ABGR      0x10C3

#define CV_SNORM_INT8       0x10D0
#define CV_SNORM_INT16      0x10D1
#define CV_UNORM_INT8       0x10D2
#define CV_UNORM_INT16      0x10D3
#define CV_UNORM_SHORT_565  0x10D4
#define CV_UNORM_SHORT_555  0x10D5
#define CV_UNORM_INT_101010 0x10D6
#define CV_SIGNED_INT8      0x10D7
#define CV_SIGNED_INT16     0x10D8
#define CV_SIGNED_INT32     0x10D9
#define CV_UNSIGNED_INT8    0x10DA
#define CV_UNSIGNED_INT16   0x10DB
#define CV_UNSIGNED_INT32   0x10DC
#define CV_HALF_FLOAT       0x10DD
#define CV_FLOAT            0x10DE

/* Sampler bits (clang's opencl-c-base.h). */
#define CV_NORMALIZED      0x1
#define CV_ADDRESS_MASK    0xE
#define CV_CLAMP_TO_EDGE   0x2
#define CV_CLAMP           0x4
#define CV_REPEAT          0x6
#define CV_MIRRORED_REPEAT 0x8
#define CV_FILTER_LINEAR   0x20

/* Image kinds: which coordinates exist and what bounds them. */
#define CV_1D        0
#define CV_1D_BUFFER 1
#define CV_1D_ARRAY  2
#define CV_2D        3
#define CV_2D_ARRAY  4
#define CV_3D        5

#define CV_INLINE static inline __attribute__((always_inline))

/* Only clang's builtins: OpenCL C's own (min, convert_float4...) are library functions, which
 * neither this library nor the host test links. */
#define cv_to_float4(v) __builtin_convertvector((v), float4)
#define cv_vmin         __builtin_elementwise_min
#define cv_vmax         __builtin_elementwise_max
CV_INLINE int cv_min(int a, int b) {
    return a < b ? a : b;
}
CV_INLINE int cv_max(int a, int b) {
    return a > b ? a : b;
}

/* ---- the descriptor ---- */

/* The descriptor's fields ahead of its textures, as one value. On the GPU: four 16-byte loads
 * through the read-only cache (clSetKernelArg writes a descriptor before the launches that read it,
 * never during one), in one asm statement without side effects, so that a kernel loads them once
 * and together, ahead of the bounds test that needs the first of them (loaded one by one, the
 * pixel's address waited for a second round trip after that test). */
typedef struct {
    long data_offset;
    ulong row_pitch, slice_pitch;
    uint width, height, depth, array_size, channel_order, channel_type, element_size;
} cv_header;

CV_INLINE cv_header cv_hdr(cv_image *d) {
#ifdef __NVPTX__
    ulong offset, row, slice_lo, slice_hi, unused0, unused1, unused2;
    uint w, h, depth, layers, order, type, kind, size;
    __asm__("ld.global.nc.v2.u64 {%0, %1}, [%15];\n\t"
            "ld.global.nc.v4.u32 {%2, %3, %4, %5}, [%15+16];\n\t"
            "ld.global.nc.v4.u32 {%6, %7, %8, %9}, [%15+32];\n\t"
            "ld.global.nc.v4.u32 {%10, %11, %12, %13}, [%15+48];\n\t"
            "mov.b64 %14, 0;"
            : "=l"(offset), "=l"(row), "=r"(slice_lo), "=r"(slice_hi), "=r"(w), "=r"(h),
              "=r"(depth), "=r"(layers), "=r"(order), "=r"(type), "=r"(kind), "=r"(size),
              "=r"(unused0), "=r"(unused1), "=l"(unused2)
            : "l"(d));
    cv_header r = {(long)offset, row, (ulong)slice_hi << 32 | slice_lo, w, h, depth, layers, order,
                   type,         size};
    return r;
#else
    cv_header r = {d->data_offset,  d->row_pitch,   d->slice_pitch, d->width,
                   d->height,       d->depth,       d->array_size,  d->channel_order,
                   d->channel_type, d->element_size};
    return r;
#endif
}

/* ---- geometry ---- */

/* The bounds of x, y and z: a 1D array's layers are its y, a 2D array's its z. */
CV_INLINE uint3 cv_extent(cv_image *d, int kind) {
    cv_header h = cv_hdr(d);
    uint ny = kind == CV_1D_ARRAY ? h.array_size : kind >= CV_2D ? h.height : 1;
    uint nz = kind == CV_2D_ARRAY ? h.array_size : kind == CV_3D ? h.depth : 1;
    return (uint3)(h.width, ny, nz);
}

/* Filtered (not layer) coordinates. */
CV_INLINE int cv_dims(int kind) {
    return kind == CV_3D ? 3 : kind >= CV_2D ? 2 : 1;
}

CV_INLINE bool cv_inside(int x, int y, int z, uint3 n) {
    return (uint)x < n.x && (uint)y < n.y && (uint)z < n.z;
}

CV_INLINE global uchar *cv_pixel(cv_image *d, int x, int y, int z) {
    /* x * element_size < 2^32: a 1D image buffer's 2^28 pixels (CV_IMAGE_BUF_MAX) of 16 bytes. */
    cv_header h = cv_hdr(d);
    global uchar *p = (global uchar *)d + h.data_offset;
    return p + (ulong)(uint)z * h.slice_pitch + (ulong)(uint)y * h.row_pitch +
           (ulong)((uint)x * h.element_size);
}

/* floor(f) as an int, kept within [-2, n + 1] first: the conversion of a huge value, an infinity
 * or NaN (which lands on -2) is then defined, and every result outside [0, n) stays outside. */
CV_INLINE int cv_to_int(float f, uint n) {
    return (int)__builtin_fminf(__builtin_fmaxf(f, -2.0f), (float)n + 1.0f);
}

/* A layer: clamp(rint(coordinate), 0, layers - 1); -1 (outside) when there are none. */
CV_INLINE int cv_layer(float f, uint n) {
    float r = __builtin_fminf(__builtin_fmaxf(__builtin_rintf(f), 0.0f), (float)n - 1.0f);
    return n ? (int)r : -1;
}

CV_INLINE int cv_clamp_edge(int i, uint n) {
    return cv_min(cv_max(i, 0), (int)n - 1);
}

/* s' = |s - 2 rint(s / 2)|: the mirrored coordinate of CLK_ADDRESS_MIRRORED_REPEAT. */
CV_INLINE float cv_mirror(float s) {
    float t = 2.0f * __builtin_rintf(0.5f * s);
    return __builtin_fabsf(s - t);
}

/* The texel a nearest-filtered float coordinate names (possibly outside: the border). */
CV_INLINE int cv_nearest(float s, uint n, uint smp) {
    float fn = (float)n;
    uint mode = smp & CV_ADDRESS_MASK;
    if ((smp & CV_NORMALIZED) && mode == CV_REPEAT) {
        float u = (s - __builtin_floorf(s)) * fn;
        int i = cv_to_int(__builtin_floorf(u), n);
        return i > (int)n - 1 ? i - (int)n : i;
    }
    if ((smp & CV_NORMALIZED) && mode == CV_MIRRORED_REPEAT) {
        float u = cv_mirror(s) * fn;
        return cv_min(cv_to_int(__builtin_floorf(u), n), (int)n - 1);
    }
    float u = (smp & CV_NORMALIZED) ? s * fn : s;
    int i = cv_to_int(__builtin_floorf(u), n);
    /* Repeat modes with unnormalized coordinates are undefined: clamped to the edge. */
    return mode == CV_CLAMP || mode == 0 ? i : cv_clamp_edge(i, n);
}

/* The two texels and the weight of the second that linear filtering takes along one axis. */
CV_INLINE int2 cv_linear_axis(float s, uint n, uint smp, float *weight) {
    float fn = (float)n;
    uint mode = smp & CV_ADDRESS_MASK;
    float u;
    if ((smp & CV_NORMALIZED) && mode == CV_REPEAT)
        u = (s - __builtin_floorf(s)) * fn;
    else if ((smp & CV_NORMALIZED) && mode == CV_MIRRORED_REPEAT)
        u = cv_mirror(s) * fn;
    else
        u = (smp & CV_NORMALIZED) ? s * fn : s;
    float x = u - 0.5f, f = __builtin_floorf(x);
    *weight = x - f;
    int i0 = cv_to_int(f, n), i1 = i0 + 1;
    if ((smp & CV_NORMALIZED) && mode == CV_REPEAT) {
        if (i0 < 0)
            i0 += (int)n;
        if (i1 > (int)n - 1)
            i1 -= (int)n;
    } else if ((smp & CV_NORMALIZED) && mode == CV_MIRRORED_REPEAT) {
        i0 = cv_max(i0, 0);
        i1 = cv_min(i1, (int)n - 1);
    } else if (mode != CV_CLAMP && mode != 0) {
        i0 = cv_clamp_edge(i0, n);
        i1 = cv_clamp_edge(i1, n);
    }
    return (int2)(i0, i1);
}

/* ---- pixels as bits ---- */

/* An element's bytes as 32-bit words (little endian, zero past the element). Pixels are aligned
 * to their size (every supported size is a power of two). */
CV_INLINE uint4 cv_load_bits(global const uchar *p, uint size) {
    switch (size) {
    case 1:
        return (uint4)(*p, 0, 0, 0);
    case 2:
        return (uint4)(*(global const ushort *)p, 0, 0, 0);
    case 4:
        return (uint4)(*(global const uint *)p, 0, 0, 0);
    case 8:
        return (uint4)(*(global const uint2 *)p, 0, 0);
    default:
        return *(global const uint4 *)p;
    }
}

CV_INLINE void cv_store_bits(global uchar *p, uint size, uint4 w) {
    switch (size) {
    case 1:
        *p = (uchar)w.x;
        break;
    case 2:
        *(global ushort *)p = (ushort)w.x;
        break;
    case 4:
        *(global uint *)p = w.x;
        break;
    case 8:
        *(global uint2 *)p = w.xy;
        break;
    default:
        *(global uint4 *)p = w;
        break;
    }
}

/* The channels in memory order, each in a word: bytes, 16-bit halves or words of the element. */
CV_INLINE uint4 cv_bytes(uint w) {
    return (uint4)(w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, w >> 24);
}
CV_INLINE uint4 cv_halves(uint2 w) {
    return (uint4)(w.x & 0xffff, w.x >> 16, w.y & 0xffff, w.y >> 16);
}

/* ---- conversions to float ---- */

/* c / d correctly rounded without a division: the product with 1/d and one FMA correction is
 * exact for every c in [-d, d] of these divisors (the host test checks all of them). */
CV_INLINE float cv_div(float c, float d, float r) {
    float q = c * r;
    return __builtin_fmaf(__builtin_fmaf(-q, d, c), r, q);
}
CV_INLINE float4 cv_div4(float4 c, float d, float r) {
    return (float4)(cv_div(c.x, d, r), cv_div(c.y, d, r), cv_div(c.z, d, r), cv_div(c.w, d, r));
}
CV_INLINE float4 cv_unorm8(uint w) {
    return cv_div4(cv_to_float4(cv_bytes(w)), 255.0f, 1.0f / 255.0f);
}
CV_INLINE float cv_half_bits(uint h) {
    return (float)as_half((ushort)h);
}

/* The channels of a pixel in memory order as floats (normalized, half and float types; the
 * integer types give their values, an undefined read). The packed RGB types give (r, g, b). */
CV_INLINE float4 cv_channels_f(uint4 w, uint type) {
    switch (type) {
    case CV_UNORM_INT8:
        return cv_unorm8(w.x);
    case CV_SNORM_INT8:
        return cv_vmax(
            cv_div4(cv_to_float4(as_int4(cv_bytes(w.x) << 24) >> 24), 127.0f, 1.0f / 127.0f),
            (float4)(-1.0f));
    case CV_UNORM_INT16:
        return cv_div4(cv_to_float4(cv_halves(w.xy)), 65535.0f, 1.0f / 65535.0f);
    case CV_SNORM_INT16:
        return cv_vmax(
            cv_div4(cv_to_float4(as_int4(cv_halves(w.xy) << 16) >> 16), 32767.0f, 1.0f / 32767.0f),
            (float4)(-1.0f));
    case CV_UNORM_SHORT_565:
        return (float4)(cv_div((float)((w.x >> 11) & 31), 31.0f, 1.0f / 31.0f),
                        cv_div((float)((w.x >> 5) & 63), 63.0f, 1.0f / 63.0f),
                        cv_div((float)(w.x & 31), 31.0f, 1.0f / 31.0f), 1.0f);
    case CV_UNORM_SHORT_555:
        return (float4)(cv_div((float)((w.x >> 10) & 31), 31.0f, 1.0f / 31.0f),
                        cv_div((float)((w.x >> 5) & 31), 31.0f, 1.0f / 31.0f),
                        cv_div((float)(w.x & 31), 31.0f, 1.0f / 31.0f), 1.0f);
    case CV_UNORM_INT_101010:
        return cv_div4((float4)((w.x >> 20) & 1023, (w.x >> 10) & 1023, w.x & 1023, 1023), 1023.0f,
                       1.0f / 1023.0f);
    case CV_HALF_FLOAT: {
        uint4 h = cv_halves(w.xy);
        return (float4)(cv_half_bits(h.x), cv_half_bits(h.y), cv_half_bits(h.z), cv_half_bits(h.w));
    }
    case CV_SIGNED_INT8:
        return cv_to_float4(as_int4(cv_bytes(w.x) << 24) >> 24);
    case CV_UNSIGNED_INT8:
        return cv_to_float4(cv_bytes(w.x));
    case CV_SIGNED_INT16:
        return cv_to_float4(as_int4(cv_halves(w.xy) << 16) >> 16);
    case CV_UNSIGNED_INT16:
        return cv_to_float4(cv_halves(w.xy));
    case CV_SIGNED_INT32:
        return cv_to_float4(as_int4(w));
    case CV_UNSIGNED_INT32:
        return cv_to_float4(w);
    default: /* CV_FLOAT */
        return as_float4(w);
    }
}

/* The integer channels of a pixel in memory order: signed types sign-extended, unsigned ones
 * zero-extended (read_imagei and read_imageui read the same bits). */
CV_INLINE int4 cv_channels_i(uint4 w, uint type) {
    switch (type) {
    case CV_SIGNED_INT8:
    case CV_SNORM_INT8:
        return as_int4(cv_bytes(w.x) << 24) >> 24;
    case CV_UNSIGNED_INT8:
    case CV_UNORM_INT8:
        return as_int4(cv_bytes(w.x));
    case CV_SIGNED_INT16:
    case CV_SNORM_INT16:
        return as_int4(cv_halves(w.xy) << 16) >> 16;
    case CV_UNSIGNED_INT16:
    case CV_UNORM_INT16:
    case CV_HALF_FLOAT:
        return as_int4(cv_halves(w.xy));
    default:
        return as_int4(w);
    }
}

/* Memory order -> (r, g, b, a): missing colour channels 0, a missing alpha `one`. */
#define CV_SWIZZLE(T, c, order, one)                                                               \
    switch (order) {                                                                               \
    case CV_R:                                                                                     \
    case CV_DEPTH:                                                                                 \
        return (T)(c.x, 0, 0, one);                                                                \
    case CV_A:                                                                                     \
        return (T)(0, 0, 0, c.x);                                                                  \
    case CV_RG:                                                                                    \
        return (T)(c.x, c.y, 0, one);                                                              \
    case CV_RA:                                                                                    \
        return (T)(c.x, 0, 0, c.y);                                                                \
    case CV_RGB:                                                                                   \
        return (T)(c.x, c.y, c.z, one);                                                            \
    case CV_BGRA:                                                                                  \
        return c.zyxw;                                                                             \
    case CV_ARGB:                                                                                  \
        return c.yzwx;                                                                             \
    case CV_ABGR:                                                                                  \
        return c.wzyx;                                                                             \
    case CV_INTENSITY:                                                                             \
        return c.xxxx;                                                                             \
    case CV_LUMINANCE:                                                                             \
        return (T)(c.x, c.x, c.x, one);                                                            \
    default:                                                                                       \
        return c;                                                                                  \
    }

CV_INLINE float4 cv_swizzle_f(float4 c,
                              uint order){CV_SWIZZLE(float4, c, order, 1.0f)} CV_INLINE int4
    cv_swizzle_i(int4 c, uint order){CV_SWIZZLE(int4, c, order, 1)}

/* (r, g, b, a) -> memory order (what the channels past the format's count hold is not stored). */
CV_INLINE uint4 cv_unswizzle(uint4 v, uint order) {
    switch (order) {
    case CV_A:
        return v.wwww;
    case CV_RA:
        return v.xwww;
    case CV_BGRA:
        return v.zyxw;
    case CV_ARGB:
        return v.wxyz;
    case CV_ABGR:
        return v.wzyx;
    default: /* R, RG, RGB, RGBA, INTENSITY, LUMINANCE, DEPTH: x first */
        return v;
    }
}

/* The border colour: (0, 0, 0, 1) for the orders without alpha, (0, 0, 0, 0) otherwise (and 0 for
 * depth). */
CV_INLINE bool cv_border_opaque(uint order) {
    return order == CV_R || order == CV_RG || order == CV_RGB || order == CV_LUMINANCE;
}

/* ---- texels ---- */

/* The other formats' texels: out of line, so that a program's reads share one copy of the
 * switches. */
__attribute__((noinline)) static float4 cv_decode_f(cv_image *d, global const uchar *p) {
    cv_header h = cv_hdr(d);
    return cv_swizzle_f(cv_channels_f(cv_load_bits(p, h.element_size), h.channel_type),
                        h.channel_order);
}

/* The texel at (x, y, z) as float4, or the border colour outside the image. */
CV_INLINE float4 cv_texel_f(cv_image *d, int x, int y, int z, uint3 n) {
    uint order = cv_hdr(d).channel_order, type = cv_hdr(d).channel_type;
    if (!cv_inside(x, y, z, n))
        return (float4)(0.0f, 0.0f, 0.0f, cv_border_opaque(order) ? 1.0f : 0.0f);
    global const uchar *p = cv_pixel(d, x, y, z);
    /* The common formats first: one load, no swizzle. */
    if (order == CV_RGBA && type == CV_FLOAT)
        return *(global const float4 *)p;
    if (order == CV_RGBA && type == CV_UNORM_INT8)
        return cv_unorm8(*(global const uint *)p);
    return cv_decode_f(d, p);
}

CV_INLINE int4 cv_texel_i(cv_image *d, int x, int y, int z, uint3 n) {
    uint order = cv_hdr(d).channel_order;
    if (!cv_inside(x, y, z, n))
        return (int4)(0, 0, 0, cv_border_opaque(order) ? 1 : 0);
    global const uchar *p = cv_pixel(d, x, y, z);
    return cv_swizzle_i(
        cv_channels_i(cv_load_bits(p, cv_hdr(d).element_size), cv_hdr(d).channel_type), order);
}

/* Linear filtering (float results): the weighted sum of the spec's 2, 4 or 8 texels, term by term
 * in its order, each weight the product of its factors in its order (a missing axis's factor 1
 * changes no product). Kept out of line: a program's calls share one copy. */
__attribute__((noinline)) static float4 cv_linear_f(cv_image *d, uint smp, float4 c, int kind) {
    uint3 n = cv_extent(d, kind);
    float a, b = 0.0f, g = 0.0f;
    int2 i = cv_linear_axis(c.x, n.x, smp, &a);
    int2 j = (int2)(0, 0), k = (int2)(0, 0);
    int dims = cv_dims(kind);
    if (dims >= 2)
        j = cv_linear_axis(c.y, n.y, smp, &b);
    else if (kind == CV_1D_ARRAY)
        j = (int2)(cv_layer(c.y, n.y));
    if (dims == 3)
        k = cv_linear_axis(c.z, n.z, smp, &g);
    else if (kind == CV_2D_ARRAY)
        k = (int2)(cv_layer(c.z, n.z));
    float4 sum = (float4)(0.0f);
    for (int t = 0; t < 1 << dims; t++) {
        bool x1 = t & 1, y1 = t & 2, z1 = t & 4;
        float w = (x1 ? a : 1.0f - a) * (y1 ? b : 1.0f - b) * (z1 ? g : 1.0f - g);
        sum += w * cv_texel_f(d, x1 ? i.y : i.x, y1 ? j.y : j.x, z1 ? k.y : k.x, n);
    }
    return sum;
}

/* The texel coordinates nearest filtering takes for float coordinates (layers rounded). */
CV_INLINE int3 cv_nearest_xyz(float4 c, int kind, uint smp, uint3 n) {
    int dims = cv_dims(kind);
    int x = cv_nearest(c.x, n.x, smp);
    int y = dims >= 2 ? cv_nearest(c.y, n.y, smp) : kind == CV_1D_ARRAY ? cv_layer(c.y, n.y) : 0;
    int z = dims == 3 ? cv_nearest(c.z, n.z, smp) : kind == CV_2D_ARRAY ? cv_layer(c.z, n.z) : 0;
    return (int3)(x, y, z);
}

/* Integer coordinates with a sampler (unnormalized, nearest): the addressing mode applies to the
 * coordinates, layers are clamped. */
CV_INLINE int3 cv_sampled_xyz(int4 c, int kind, uint smp, uint3 n) {
    int dims = cv_dims(kind);
    bool edge = (smp & CV_ADDRESS_MASK) != CV_CLAMP && (smp & CV_ADDRESS_MASK) != 0;
    int x = edge ? cv_clamp_edge(c.x, n.x) : c.x;
    int y = dims >= 2             ? (edge ? cv_clamp_edge(c.y, n.y) : c.y)
            : kind == CV_1D_ARRAY ? cv_clamp_edge(c.y, n.y)
                                  : 0;
    int z = dims == 3             ? (edge ? cv_clamp_edge(c.z, n.z) : c.z)
            : kind == CV_2D_ARRAY ? cv_clamp_edge(c.z, n.z)
                                  : 0;
    return (int3)(x, y, z);
}

/* Samplerless coordinates: the kind's own ones, the others 0. */
CV_INLINE int3 cv_plain_xyz(int4 c, int kind) {
    return (int3)(c.x, kind == CV_1D_ARRAY || kind >= CV_2D ? c.y : 0,
                  kind == CV_2D_ARRAY || kind == CV_3D ? c.z : 0);
}

/* ---- the builtins' bodies ---- */

/* read_imagef / read_imageh with a sampler and float coordinates. */
CV_INLINE float4 cv_read_f(cv_image *d, int kind, uint smp, float4 c) {
    if (smp & CV_FILTER_LINEAR)
        return cv_linear_f(d, smp, c, kind);
    uint3 n = cv_extent(d, kind);
    int3 t = cv_nearest_xyz(c, kind, smp, n);
    return cv_texel_f(d, t.x, t.y, t.z, n);
}

/* A sampler state's texture slot (docs/kernel-abi.md): normalized coordinates take slots 0-9,
 * (addressing mode / 2) * 2 + linear; unnormalized ones 10-15 for none, clamp-to-edge and clamp;
 * 16 (no texture) for repeat modes on unnormalized coordinates, which are undefined. */
CV_INLINE uint cv_texture_slot(uint smp) {
    uint mode = (smp >> 1) & 7, linear = (smp & CV_FILTER_LINEAR) ? 1 : 0;
    return (smp & CV_NORMALIZED) ? mode * 2 + linear : mode <= 2 ? 10 + mode * 2 + linear : 16;
}

/* The software sampling of a read-only 2D image where it has no texture object for the sampler's
 * state: out of line under this name, which the loader's textured variant of a module replaces
 * with a stub (core/ptx_textured.h) for launches whose read-only images all have them. */
#ifdef __NVPTX__
__attribute__((noinline, pure)) static float4 cv_read_f_2d_soft(cv_image *d, uint smp, float4 c) {
    return cv_read_f(d, CV_2D, smp, c);
}
#endif

/* 1 in the textured variant of a module, 0 elsewhere: the loader's variant (core/ptx_textured.h)
 * turns this instruction's 0 into 1, and ptxas then drops the test for a texture object and the
 * fallback's call, so that a kernel's texture fetches stand together in one block. */
CV_INLINE uint cv_textured_variant(void) {
    uint v;
    __asm__("mov.u32 %0, 0; // cv:textured-variant" : "=r"(v));
    return v;
}

/* read_imagef of a read-only 2D image with a sampler and float coordinates: the texture units
 * sample where the image has a texture for the sampler's state (their addressing and filtering
 * are the sampler's; linear weights have 8 fractional bits), in software otherwise. Read-write
 * images never take the texture path: the texture cache does not see the kernel's own writes.
 * The launches of the textured variant have every texture (core/kernel_enqueue.c). */
CV_INLINE float4 cv_read_f_2d_ro(cv_image *d, uint smp, float4 c) {
#ifdef __NVPTX__
    uint slot = cv_texture_slot(smp);
    ulong tex = slot < 16 ? d->texture[slot] : 0;
    uint order = cv_hdr(d).channel_order;
    if (slot < 16 && (cv_textured_variant() || tex)) {
        float x, y, z, w;
        __asm__("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
                : "l"(tex), "f"(c.x), "f"(c.y));
        /* The textured orders (R, RG, RGBA, BGRA), channels as the texture holds them: selects,
         * not branches, which would part the fetches of consecutive reads. */
        bool bgra = order == CV_BGRA, four = order == CV_RGBA || bgra, two = order == CV_RG;
        return (float4)(bgra ? z : x, four || two ? y : 0.0f, four ? (bgra ? x : z) : 0.0f,
                        four ? w : 1.0f);
    }
    return cv_read_f_2d_soft(d, smp, c);
#else
    return cv_read_f(d, CV_2D, smp, c);
#endif
}

/* read_imagei / read_imageui with a sampler and float coordinates (always nearest). */
CV_INLINE int4 cv_read_i(cv_image *d, int kind, uint smp, float4 c) {
    uint3 n = cv_extent(d, kind);
    int3 t = cv_nearest_xyz(c, kind, smp, n);
    return cv_texel_i(d, t.x, t.y, t.z, n);
}

/* With a sampler and integer coordinates. */
CV_INLINE float4 cv_read_f_int(cv_image *d, int kind, uint smp, int4 c) {
    uint3 n = cv_extent(d, kind);
    int3 t = cv_sampled_xyz(c, kind, smp, n);
    return cv_texel_f(d, t.x, t.y, t.z, n);
}
CV_INLINE int4 cv_read_i_int(cv_image *d, int kind, uint smp, int4 c) {
    uint3 n = cv_extent(d, kind);
    int3 t = cv_sampled_xyz(c, kind, smp, n);
    return cv_texel_i(d, t.x, t.y, t.z, n);
}

/* Samplerless reads. */
CV_INLINE float4 cv_load_f(cv_image *d, int kind, int4 c) {
    int3 t = cv_plain_xyz(c, kind);
    return cv_texel_f(d, t.x, t.y, t.z, cv_extent(d, kind));
}
CV_INLINE int4 cv_load_i(cv_image *d, int kind, int4 c) {
    int3 t = cv_plain_xyz(c, kind);
    return cv_texel_i(d, t.x, t.y, t.z, cv_extent(d, kind));
}

/* ---- conversions from float ---- */

/* x * scale (a float product) rounded to the nearest integer, ties to even, clamped to [lo, hi]:
 * the specification's convert_<type>_sat_rte(f * scale) (a tie of the rounded product is rounded
 * as a tie, within the 0.6 the specification allows of the exact product); NaN gives 0. Two
 * instructions and a select per channel: the exact product's tie correction had cost an image
 * write kernel ~30 % on the H100. */
CV_INLINE float cv_scale_round(float x, float scale, float lo, float hi) {
    float r = __builtin_rintf(x * scale);
    return x != x ? 0.0f : __builtin_fminf(__builtin_fmaxf(r, lo), hi);
}
CV_INLINE int cv_norm(float x, float scale, float lo, float hi) {
#ifdef __NVPTX__
    /* PTX's float-to-integer conversions (cvt.rni: to nearest, ties to even) clamp to the
     * destination's range and give 0 for NaN: cv_scale_round's result in one conversion and one
     * or two integer clamps. */
    if (lo == 0.0f)
        return (int)__builtin_elementwise_min(__nvvm_f2ui_rn(x * scale), (uint)hi);
    return __builtin_elementwise_max(__builtin_elementwise_min(__nvvm_f2i_rn(x * scale), (int)hi),
                                     (int)lo);
#else
    return (int)cv_scale_round(x, scale, lo, hi);
#endif
}
CV_INLINE uint4 cv_norm4(float4 v, float scale, float lo, float hi) {
    return as_uint4((int4)(cv_norm(v.x, scale, lo, hi), cv_norm(v.y, scale, lo, hi),
                           cv_norm(v.z, scale, lo, hi), cv_norm(v.w, scale, lo, hi)));
}
CV_INLINE uint cv_pack8(uint4 c) {
    return (c.x & 0xff) | (c.y & 0xff) << 8 | (c.z & 0xff) << 16 | c.w << 24;
}
CV_INLINE uint2 cv_pack16(uint4 c) {
    return (uint2)((c.x & 0xffff) | c.y << 16, (c.z & 0xffff) | c.w << 16);
}
CV_INLINE uint cv_half_of(float f) {
    return as_ushort((half)f);
}

/* Memory-order float channels -> the element's words. */
CV_INLINE uint4 cv_bits_of_f(float4 c, uint type) {
    switch (type) {
    case CV_UNORM_INT8:
        return (uint4)(cv_pack8(cv_norm4(c, 255.0f, 0.0f, 255.0f)), 0, 0, 0);
    case CV_SNORM_INT8:
        return (uint4)(cv_pack8(cv_norm4(c, 127.0f, -128.0f, 127.0f)), 0, 0, 0);
    case CV_UNORM_INT16:
        return (uint4)(cv_pack16(cv_norm4(c, 65535.0f, 0.0f, 65535.0f)), 0, 0);
    case CV_SNORM_INT16:
        return (uint4)(cv_pack16(cv_norm4(c, 32767.0f, -32768.0f, 32767.0f)), 0, 0);
    case CV_UNORM_SHORT_565: {
        uint4 r = cv_norm4(c, 31.0f, 0.0f, 31.0f);
        return (uint4)(r.x << 11 | (uint)cv_norm(c.y, 63.0f, 0.0f, 63.0f) << 5 | r.z, 0, 0, 0);
    }
    case CV_UNORM_SHORT_555: {
        uint4 r = cv_norm4(c, 31.0f, 0.0f, 31.0f);
        return (uint4)(r.x << 10 | r.y << 5 | r.z, 0, 0, 0);
    }
    case CV_UNORM_INT_101010: {
        uint4 r = cv_norm4(c, 1023.0f, 0.0f, 1023.0f);
        return (uint4)(r.x << 20 | r.y << 10 | r.z, 0, 0, 0);
    }
    case CV_HALF_FLOAT:
        return (uint4)(cv_pack16((uint4)(cv_half_of(c.x), cv_half_of(c.y), cv_half_of(c.z),
                                         cv_half_of(c.w))),
                       0, 0);
    default: /* CV_FLOAT (write_imagef of an integer format is undefined: its bits) */
        return as_uint4(c);
    }
}

/* Memory-order integer channels -> the element's words, saturated to the channel type from a
 * signed (write_imagei) or unsigned (write_imageui) value. */
CV_INLINE uint4 cv_bits_of_i(uint4 c, uint type, bool is_signed) {
    int4 s = as_int4(c);
    switch (type) {
    case CV_SIGNED_INT8:
        return (uint4)(cv_pack8(is_signed ? as_uint4(cv_vmin(cv_vmax(s, (int4)(-128)), (int4)(127)))
                                          : cv_vmin(c, (uint4)(127))),
                       0, 0, 0);
    case CV_UNSIGNED_INT8:
        return (uint4)(cv_pack8(is_signed ? as_uint4(cv_vmin(cv_vmax(s, (int4)(0)), (int4)(255)))
                                          : cv_vmin(c, (uint4)(255))),
                       0, 0, 0);
    case CV_SIGNED_INT16:
        return (uint4)(cv_pack16(is_signed
                                     ? as_uint4(cv_vmin(cv_vmax(s, (int4)(-32768)), (int4)(32767)))
                                     : cv_vmin(c, (uint4)(32767))),
                       0, 0);
    case CV_UNSIGNED_INT16:
        return (uint4)(cv_pack16(is_signed ? as_uint4(cv_vmin(cv_vmax(s, (int4)(0)), (int4)(65535)))
                                           : cv_vmin(c, (uint4)(65535))),
                       0, 0);
    case CV_SIGNED_INT32:
        return is_signed ? c : cv_vmin(c, (uint4)(0x7fffffff));
    case CV_UNSIGNED_INT32:
        return is_signed ? as_uint4(cv_vmax(s, (int4)(0))) : c;
    default: /* a float or normalized format: undefined, the low bits stored */
        return type == CV_UNORM_INT8 || type == CV_SNORM_INT8 ? (uint4)(cv_pack8(c), 0, 0, 0)
               : type == CV_FLOAT                             ? c
                                                              : (uint4)(cv_pack16(c), 0, 0);
    }
}

/* The other formats' writes, out of line as cv_decode_f. */
__attribute__((noinline)) static void cv_encode_f(cv_image *d, global uchar *p, float4 v) {
    cv_header h = cv_hdr(d);
    float4 m = as_float4(cv_unswizzle(as_uint4(v), h.channel_order));
    cv_store_bits(p, h.element_size, cv_bits_of_f(m, h.channel_type));
}

/* write_imagef / write_imageh (the half values are exact as floats). */
CV_INLINE void cv_write_f(cv_image *d, int kind, int4 c, float4 v) {
    int3 t = cv_plain_xyz(c, kind);
    if (!cv_inside(t.x, t.y, t.z, cv_extent(d, kind)))
        return;
    uint order = cv_hdr(d).channel_order, type = cv_hdr(d).channel_type;
    global uchar *p = cv_pixel(d, t.x, t.y, t.z);
    if (order == CV_RGBA && type == CV_FLOAT) {
        *(global float4 *)p = v;
        return;
    }
    if (order == CV_RGBA && type == CV_UNORM_INT8) {
        *(global uint *)p = cv_pack8(cv_norm4(v, 255.0f, 0.0f, 255.0f));
        return;
    }
    cv_encode_f(d, p, v);
}

/* write_imagei (is_signed) / write_imageui. */
CV_INLINE void cv_write_i(cv_image *d, int kind, int4 c, uint4 v, bool is_signed) {
    int3 t = cv_plain_xyz(c, kind);
    if (!cv_inside(t.x, t.y, t.z, cv_extent(d, kind)))
        return;
    global uchar *p = cv_pixel(d, t.x, t.y, t.z);
    cv_header h = cv_hdr(d);
    uint4 m = cv_unswizzle(v, h.channel_order);
    cv_store_bits(p, h.element_size, cv_bits_of_i(m, h.channel_type, is_signed));
}
