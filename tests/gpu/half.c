/* cl_khr_fp16 on culvert's GPU against a CPU reference (half_ref.h): conversions to half from
 * every type with every rounding mode (overflow to inf or the largest finite value, denormals,
 * NaN), conversions from every half value to every type with every rounding mode and _sat,
 * relational functions (scalar 1/0, vector -1/0) and select, vloadN/vstoreN and
 * vload_half/vstore_half of half vectors, common and geometric functions; the common and
 * relational functions and conversions of half8 and half16 values loaded from memory agree with
 * the scalar functions element by element, NaN and infinities among the inputs; the functions
 * that move half values between work-items (work_group_broadcast) keep NaN payloads. */
#include "half_ref.h"
#include "test_util.h"

#include <float.h>
#include <limits.h>
#include <string.h>

#define NH 65536 /* every half */
#define NR 4096  /* random inputs of the other tests */

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    /* to half: default, rte, rtz, rtp, rtn; scalars and (for float and int) half4 */
    "#define TO_HALF(T) kernel void to_half_##T(global const T *in, global ushort *out) {\\\n"
    "  size_t i = get_global_id(0); T x = in[i]; global ushort *o = out + 5 * i;\\\n"
    "  o[0] = as_ushort(convert_half(x)); o[1] = as_ushort(convert_half_rte(x));\\\n"
    "  o[2] = as_ushort(convert_half_rtz(x)); o[3] = as_ushort(convert_half_rtp(x));\\\n"
    "  o[4] = as_ushort(convert_half_rtn(x)); }\n"
    "TO_HALF(float) TO_HALF(double) TO_HALF(char) TO_HALF(uchar) TO_HALF(short)\n"
    "TO_HALF(ushort) TO_HALF(int) TO_HALF(uint) TO_HALF(long) TO_HALF(ulong)\n"
    "#define TO_HALF4(T) kernel void to_half4_##T(global const T *in, global ushort *out) {\\\n"
    "  size_t i = get_global_id(0); T##4 x = vload4(i, in);\\\n"
    "  vstore4(as_ushort4(convert_half4(x)), 5 * i, out);\\\n"
    "  vstore4(as_ushort4(convert_half4_rte(x)), 5 * i + 1, out);\\\n"
    "  vstore4(as_ushort4(convert_half4_rtz(x)), 5 * i + 2, out);\\\n"
    "  vstore4(as_ushort4(convert_half4_rtp(x)), 5 * i + 3, out);\\\n"
    "  vstore4(as_ushort4(convert_half4_rtn(x)), 5 * i + 4, out); }\n"
    "TO_HALF4(float) TO_HALF4(int) TO_HALF4(ulong)\n"
    /* the same roundings through vstore_half (the CTS's test_half: rtp/rtn of a double below
     * half's smallest denormal) */
    "#define VSTORE_HALF(T) kernel void vstore_half_##T(global const T *in, global half *out) {\\\n"
    "  size_t i = get_global_id(0); T x = in[i];\\\n"
    "  vstore_half(x, 5 * i, out); vstore_half_rte(x, 5 * i + 1, out);\\\n"
    "  vstore_half_rtz(x, 5 * i + 2, out); vstore_half_rtp(x, 5 * i + 3, out);\\\n"
    "  vstore_half_rtn(x, 5 * i + 4, out); }\n"
    "VSTORE_HALF(float) VSTORE_HALF(double)\n"
    /* from half: default, rte, rtz, rtp, rtn, then the same with _sat */
    "#define FROM_HALF(T) kernel void from_half_##T(global const ushort *in, global T *out) {\\\n"
    "  size_t i = get_global_id(0); half x = as_half(in[i]); global T *o = out + 10 * i;\\\n"
    "  o[0] = convert_##T(x); o[1] = convert_##T##_rte(x); o[2] = convert_##T##_rtz(x);\\\n"
    "  o[3] = convert_##T##_rtp(x); o[4] = convert_##T##_rtn(x); o[5] = convert_##T##_sat(x);\\\n"
    "  o[6] = convert_##T##_sat_rte(x); o[7] = convert_##T##_sat_rtz(x);\\\n"
    "  o[8] = convert_##T##_sat_rtp(x); o[9] = convert_##T##_sat_rtn(x); }\n"
    "FROM_HALF(char) FROM_HALF(uchar) FROM_HALF(short) FROM_HALF(ushort) FROM_HALF(int)\n"
    "FROM_HALF(uint) FROM_HALF(long) FROM_HALF(ulong)\n"
    "#define FROM_HALF4(T) kernel void from_half4_##T(global const ushort *in, global T *out) {\\\n"
    "  size_t i = get_global_id(0); half4 x = as_half4(vload4(i, in));\\\n"
    "  vstore4(convert_##T##4(x), 10 * i, out); vstore4(convert_##T##4_rte(x), 10 * i + 1, "
    "out);\\\n"
    "  vstore4(convert_##T##4_rtz(x), 10 * i + 2, out);\\\n"
    "  vstore4(convert_##T##4_rtp(x), 10 * i + 3, out);\\\n"
    "  vstore4(convert_##T##4_rtn(x), 10 * i + 4, out);\\\n"
    "  vstore4(convert_##T##4_sat(x), 10 * i + 5, out);\\\n"
    "  vstore4(convert_##T##4_sat_rte(x), 10 * i + 6, out);\\\n"
    "  vstore4(convert_##T##4_sat_rtz(x), 10 * i + 7, out);\\\n"
    "  vstore4(convert_##T##4_sat_rtp(x), 10 * i + 8, out);\\\n"
    "  vstore4(convert_##T##4_sat_rtn(x), 10 * i + 9, out); }\n"
    "FROM_HALF4(uchar) FROM_HALF4(int) FROM_HALF4(long)\n"
    "kernel void from_half_fp(global const ushort *in, global float *f, global double *d) {\n"
    "  size_t i = get_global_id(0); half x = as_half(in[i]);\n"
    "  f[2 * i] = convert_float(x); f[2 * i + 1] = convert_float_rtp(x);\n"
    "  d[2 * i] = convert_double(x); d[2 * i + 1] = convert_double_rtn(x); }\n"
    /* relational: 9 binary + 5 unary functions, each as 4 scalars and one half4 */
    "#define R2(f, k) s[k] = (int4)(f(x.s0, y.s0), f(x.s1, y.s1), f(x.s2, y.s2), f(x.s3, y.s3));"
    " v[k] = f(x, y);\n"
    "#define R1(f, k) s[k] = (int4)(f(x.s0), f(x.s1), f(x.s2), f(x.s3)); v[k] = f(x);\n"
    "kernel void relational(global const ushort *a, global const ushort *b, global int4 *si,\n"
    "                       global short4 *vs, global ushort4 *sel) {\n"
    "  size_t i = get_global_id(0); half4 x = as_half4(vload4(i, a)), y = as_half4(vload4(i, b));\n"
    "  global int4 *s = si + 14 * i; global short4 *v = vs + 14 * i;\n"
    "  R2(isequal, 0) R2(isnotequal, 1) R2(isgreater, 2) R2(isgreaterequal, 3) R2(isless, 4)\n"
    "  R2(islessequal, 5) R2(islessgreater, 6) R2(isordered, 7) R2(isunordered, 8)\n"
    "  R1(isfinite, 9) R1(isinf, 10) R1(isnan, 11) R1(isnormal, 12) R1(signbit, 13)\n"
    "  short4 m = as_short4(vload4(i, a)); ushort4 um = vload4(i, b);\n"
    "  sel[3 * i] = as_ushort4(select(x, y, m));\n"
    "  sel[3 * i + 1] = as_ushort4(select(x, y, um));\n"
    "  sel[3 * i + 2] = (ushort4)(as_ushort(select(x.s0, y.s0, m.s0)),\n"
    "                            as_ushort(select(x.s1, y.s1, um.s1)),\n"
    "                            as_ushort(bitselect(x.s2, y.s2, as_half(um.s2))),\n"
    "                            as_ushort(bitselect(x, y, as_half4(m)).s3)); }\n"
    /* memory: vloadN/vstoreN of half3/4/8/16 and vload_half4/vstore_half4_rtz */
    "kernel void memory(global const half *in, global half *out3, global half *out16,\n"
    "                   global half *out, local half *l) {\n"
    "  size_t i = get_global_id(0), li = get_local_id(0);\n"
    "  vstore3(vload3(i, in), i, out3);\n"
    "  vstore16(vload16(i, in), li, l); barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  vstore8(vload8(2 * li + 1, l), 2 * i + 1, out16); vstore8(vload8(2 * li, l), 2 * i, "
    "out16);\n"
    "  half p[4]; vstore4(vload4(i, in), 0, p); vstore_half4_rtz(vload_half4(0, p), i, out); }\n"
    /* common and geometric functions on 4 inputs per work-item, results as bits */
    "kernel void funcs(global const ushort *a, global ushort *out) {\n"
    "  size_t i = get_global_id(0); half4 x = as_half4(vload4(2 * i, a)),\n"
    "  y = as_half4(vload4(2 * i + 1, a)); global ushort *o = out + 32 * i; half ip = 0;\n"
    "  o[0] = as_ushort(dot(x, y)); o[1] = as_ushort(length(x)); o[2] = as_ushort(distance(x, "
    "y));\n"
    "  vstore4(as_ushort4(normalize(x)), 0, o + 3); vstore3(as_ushort3(cross(x.xyz, y.xyz)), 0, o "
    "+ 7);\n"
    "  o[10] = as_ushort(clamp(x.s0, (half)-1, (half)1)); o[11] = as_ushort(mix(x.s0, y.s0, "
    "0.25h));\n"
    "  o[12] = as_ushort(step(y.s0, x.s0)); o[13] = as_ushort(smoothstep((half)-2, (half)2, "
    "x.s0));\n"
    "  o[14] = as_ushort(sign(x.s0)); o[15] = as_ushort(degrees(x.s0));\n"
    "  o[16] = as_ushort(radians(x.s0)); o[17] = as_ushort(max(x.s0, y.s0));\n"
    "  o[18] = as_ushort(min(x.s0, y.s0)); o[19] = as_ushort(fract(x.s0, &ip));\n"
    "  o[20] = as_ushort(ip); o[21] = as_ushort(nextafter(x.s0, y.s0));\n"
    "  o[22] = as_ushort(fma(x.s0, y.s0, x.s1)); o[23] = as_ushort(x.s0 / y.s0);\n"
    "  o[24] = as_ushort(x.s0 * y.s0 + x.s1); o[25] = as_ushort(dot(x.s01, y.s01));\n"
    "  o[26] = as_ushort(length(x.xyz)); o[27] = as_ushort(clamp(x, y.s1, y.s1).s2);\n"
    "  o[28] = as_ushort(fabs(x.s0)); o[29] = as_ushort(copysign(x.s0, y.s0));\n"
    "  o[30] = as_ushort(nan((ushort)5)); o[31] = as_ushort(mad(x.s2, y.s2, y.s3)); }\n"
    /* half8/half16 straight from memory: per element the vector function's result and the
     * scalar function's on the same inputs (relationals: -1/0 against minus 1/0), WN pairs */
    "#define WN 21\n"
    "#define WIDE(N)\\\n"
    "kernel void wide##N(global const half##N *a, global const half##N *b,\\\n"
    "                    global const half *s, global short *out) {\\\n"
    "  size_t i = get_global_id(0); half lo = s[2 * i], hi = s[2 * i + 1];\\\n"
    "  half##N r[12]; short##N c[8]; float##N f = convert_float##N(a[i]);\\\n"
    "  r[0] = fmin(a[i], b[i]); r[1] = fmax(a[i], b[i]); r[2] = clamp(a[i], lo, hi);\\\n"
    "  r[3] = degrees(a[i]); r[4] = radians(a[i]); r[5] = sign(a[i]); r[6] = step(a[i], b[i]);\\\n"
    "  r[7] = step(lo, b[i]); r[8] = smoothstep(lo, hi, b[i]); r[9] = min(a[i], b[i]);\\\n"
    "  r[10] = max(a[i], lo); r[11] = fmin(a[i], lo);\\\n"
    "  c[0] = isequal(a[i], b[i]); c[1] = isnotequal(a[i], b[i]); c[2] = isgreater(a[i], b[i]);\\\n"
    "  c[3] = isgreaterequal(a[i], b[i]); c[4] = isless(a[i], b[i]);\\\n"
    "  c[5] = islessequal(a[i], b[i]); c[6] = islessgreater(a[i], b[i]);\\\n"
    "  c[7] = isunordered(a[i], b[i]);\\\n"
    "  global const half *as = (global const half *)a + i * N, *bs = (global const half *)b + i * "
    "N;\\\n"
    "  for (int j = 0; j < N; j++) {\\\n"
    "    half x = as[j], y = bs[j]; global short *o = out + (i * N + j) * 2 * WN;\\\n"
    "    half q[12] = {fmin(x, y), fmax(x, y), clamp(x, lo, hi), degrees(x), radians(x), "
    "sign(x),\\\n"
    "                  step(x, y), step(lo, y), smoothstep(lo, hi, y), min(x, y), max(x, lo),\\\n"
    "                  fmin(x, lo)};\\\n"
    "    int t[8] = {isequal(x, y), isnotequal(x, y), isgreater(x, y), isgreaterequal(x, y),\\\n"
    "                isless(x, y), islessequal(x, y), islessgreater(x, y), isunordered(x, y)};\\\n"
    "    for (int k = 0; k < 12; k++) {\\\n"
    "      o[2 * k] = as_short(((half *)&r[k])[j]); o[2 * k + 1] = as_short(q[k]); }\\\n"
    "    for (int k = 0; k < 8; k++) {\\\n"
    "      o[24 + 2 * k] = ((short *)&c[k])[j]; o[25 + 2 * k] = (short)-t[k]; }\\\n"
    "    float g = ((float *)&f)[j], h = convert_float(x);\\\n"
    "    o[40] = (short)(as_uint(g) >> 13); o[41] = (short)(as_uint(h) >> 13); }}\n"
    "WIDE(8) WIDE(16)\n";

static cl_context ctx;
static cl_command_queue queue;
static cl_program prog;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void) {
    return cv_test_xorshift(&rng);
}

static cl_mem buffer(size_t size, const void *init) {
    return cv_test_buffer(ctx, size, init);
}

/* Runs kernel `name` over `n` work-items with the buffers given, reads back buffer `out_arg`. */
static void run(const char *name, size_t n, cl_mem *args, int nargs, int out_arg, void *result,
                size_t result_size) {
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (err != CL_SUCCESS)
        return;
    for (int a = 0; a < nargs; a++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)a, sizeof(cl_mem), &args[a]));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, args[out_arg], CL_TRUE, 0, result_size, result,
                                              0, NULL, NULL));
    clReleaseKernel(k);
}

static const char *mode_name[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const int mode_of[] = {HR_RTE, HR_RTE, HR_RTZ, HR_RTP, HR_RTN};

/* Converting to half: the source types, their size, and how to read one as a long double. */
typedef struct src_type {
    const char *name;
    size_t size;
    bool is_float;
    bool is_signed;
} src_type;

static long double load_value(const src_type *t, const void *p) {
    if (t->is_float)
        return t->size == 4 ? (long double)*(const float *)p : (long double)*(const double *)p;
    if (t->is_signed) {
        int64_t v = t->size == 1   ? *(const int8_t *)p
                    : t->size == 2 ? *(const int16_t *)p
                    : t->size == 4 ? *(const int32_t *)p
                                   : *(const int64_t *)p;
        return (long double)v;
    }
    uint64_t v = t->size == 1   ? *(const uint8_t *)p
                 : t->size == 2 ? *(const uint16_t *)p
                 : t->size == 4 ? *(const uint32_t *)p
                                : *(const uint64_t *)p;
    return (long double)v;
}

/* Inputs for conversions to half: the edges (overflow, ties, denormals, NaN) and random
 * values of every magnitude. */
static void fill_source(const src_type *t, unsigned char *in, size_t n) {
    static const double edges[] = {0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   65504.0,
                                   65519.99,
                                   65520.0,
                                   65535.0,
                                   65536.0,
                                   -65520.0,
                                   -70000.0,
                                   1e10,
                                   0x1p-24,
                                   0x1p-25,
                                   0x1.8p-25,
                                   0x1.0000001p-25,
                                   0x1p-14,
                                   0x1.ff8p-15,
                                   0x1.0003p-14,
                                   1.00048828125,
                                   1.000732421875,
                                   2049.0,
                                   2051.0,
                                   -2051.0,
                                   INFINITY,
                                   -INFINITY,
                                   NAN,
                                   1e-45,
                                   4097.0,
                                   -4097.0,
                                   127.5,
                                   1e-300};
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = in + i * t->size;
        uint64_t r = next();
        if (t->is_float) {
            double v;
            if (i < sizeof edges / sizeof edges[0])
                v = edges[i];
            else if (i % 2) /* any magnitude a half can round to, and past it */
                v = ldexp((double)(r >> 11) / 9007199254740992.0 + 0.5, (int)(r % 50) - 30) *
                    ((r >> 6) % 2 ? -1 : 1);
            else { /* random bits of the type */
                float f;
                uint32_t u = (uint32_t)r;
                memcpy(&f, &u, 4);
                v = t->size == 4 ? f : (double)f * 1.0000001;
            }
            if (t->size == 4) {
                float f = (float)v;
                memcpy(p, &f, 4);
            } else
                memcpy(p, &v, 8);
        } else {
            /* small values, the type's edges and random bits */
            uint64_t v = r;
            if (i % 3 == 0)
                v = (uint64_t)((int64_t)(r % 140000) - 70000);
            memcpy(p, &v, t->size); /* little-endian: the low bytes */
        }
    }
}

static void test_to_half(void) {
    static const src_type types[] = {{"float", 4, true, true},  {"double", 8, true, true},
                                     {"char", 1, false, true},  {"uchar", 1, false, false},
                                     {"short", 2, false, true}, {"ushort", 2, false, false},
                                     {"int", 4, false, true},   {"uint", 4, false, false},
                                     {"long", 8, false, true},  {"ulong", 8, false, false}};
    unsigned char *in = malloc(NR * 8);
    uint16_t *out = malloc(NR * 5 * sizeof(uint16_t));
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        const src_type *t = &types[ti];
        fill_source(t, in, NR);
        /* vec 0: convert_half scalars, 1: convert_half4, 2: vstore_half scalars */
        for (int form = 0; form < 3; form++) {
            bool vec = form == 1;
            char name[64];
            snprintf(name, sizeof name,
                     form == 2 ? "vstore_half_%s"
                     : vec     ? "to_half4_%s"
                               : "to_half_%s",
                     t->name);
            if (vec && strcmp(t->name, "float") && strcmp(t->name, "int") &&
                strcmp(t->name, "ulong"))
                continue;
            if (form == 2 && !t->is_float)
                continue;
            size_t items = vec ? NR / 4 : NR;
            cl_mem args[2] = {buffer(NR * t->size, in), buffer(NR * 5 * sizeof(uint16_t), NULL)};
            memset(out, 0, NR * 5 * sizeof(uint16_t));
            run(name, items, args, 2, 1, out, NR * 5 * sizeof(uint16_t));
            int bad = 0;
            for (size_t i = 0; i < NR; i++) {
                long double x = load_value(t, in + i * t->size);
                for (int m = 0; m < 5; m++) {
                    /* scalar: 5 per item; half4: item i/4 wrote mode m at 20 (i/4) + 4 m */
                    size_t at = vec ? (i / 4) * 20 + (size_t)m * 4 + i % 4 : i * 5 + (size_t)m;
                    uint16_t want = half_from(x, mode_of[m]), got = out[at];
                    bool ok = got == want || (half_is_nan(want) && half_is_nan(got));
                    if (!ok && bad++ < 4)
                        fprintf(stderr, "  %s convert_half%s(%La): got 0x%04x, want 0x%04x\n", name,
                                mode_name[m], x, got, want);
                }
            }
            printf("%-20s %d wrong of %d\n", name, bad, NR * 5);
            CHECK(bad == 0);
            clReleaseMemObject(args[0]);
            clReleaseMemObject(args[1]);
        }
    }
    free(in);
    free(out);
}

/* Converting every half to each integer type: rounding by mode, then saturation (NaN -> 0) for
 * _sat; without _sat only results in range are defined (and default is toward zero). */
static void test_from_half(void) {
    static const struct {
        const char *name;
        size_t size;
        bool is_signed;
        long double lo, hi;
    } types[] = {{"char", 1, true, -128, 127},
                 {"uchar", 1, false, 0, 255},
                 {"short", 2, true, -32768, 32767},
                 {"ushort", 2, false, 0, 65535},
                 {"int", 4, true, INT_MIN, INT_MAX},
                 {"uint", 4, false, 0, UINT_MAX},
                 {"long", 8, true, (long double)INT64_MIN, (long double)INT64_MAX},
                 {"ulong", 8, false, 0, (long double)UINT64_MAX}};
    uint16_t *in = malloc(NH * sizeof(uint16_t));
    for (size_t i = 0; i < NH; i++)
        in[i] = (uint16_t)i;
    unsigned char *out = malloc((size_t)NH * 10 * 8);
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        for (int vec = 0; vec < 2; vec++) {
            char name[64];
            snprintf(name, sizeof name, vec ? "from_half4_%s" : "from_half_%s", types[ti].name);
            if (vec && strcmp(types[ti].name, "uchar") && strcmp(types[ti].name, "int") &&
                strcmp(types[ti].name, "long"))
                continue;
            size_t sz = types[ti].size, items = vec ? NH / 4 : NH;
            cl_mem args[2] = {buffer(NH * sizeof(uint16_t), in), buffer(NH * 10 * sz, NULL)};
            run(name, items, args, 2, 1, out, NH * 10 * sz);
            int bad = 0;
            for (size_t i = 0; i < NH; i++) {
                double v = half_value((uint16_t)i);
                for (int k = 0; k < 10; k++) {
                    int m = k % 5;
                    bool sat = k >= 5;
                    /* default conversion to an integer rounds toward zero */
                    long double want = isnan(v) ? 0 : round_by(v, m == 0 ? HR_RTZ : mode_of[m]);
                    if (!sat && (isnan(v) || want < types[ti].lo || want > types[ti].hi))
                        continue; /* undefined without _sat */
                    want = want < types[ti].lo   ? types[ti].lo
                           : want > types[ti].hi ? types[ti].hi
                                                 : want;
                    size_t at = vec ? (i / 4) * 40 + (size_t)k * 4 + i % 4 : i * 10 + (size_t)k;
                    src_type st = {types[ti].name, sz, false, types[ti].is_signed};
                    long double got = load_value(&st, out + at * sz);
                    if (got != want && bad++ < 4)
                        fprintf(stderr, "  %s %s(0x%04zx = %g): got %.0Lf, want %.0Lf\n", name,
                                sat ? "sat" : "", i, v, got, want);
                    (void)m;
                }
            }
            printf("%-20s %d wrong\n", name, bad);
            CHECK(bad == 0);
            clReleaseMemObject(args[0]);
            clReleaseMemObject(args[1]);
        }
    }
    /* float and double: exact */
    float *f = malloc(NH * 2 * sizeof(float));
    double *d = malloc(NH * 2 * sizeof(double));
    cl_mem args[3] = {buffer(NH * sizeof(uint16_t), in), buffer(NH * 2 * sizeof(float), NULL),
                      buffer(NH * 2 * sizeof(double), NULL)};
    run("from_half_fp", NH, args, 3, 1, f, NH * 2 * sizeof(float));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, args[2], CL_TRUE, 0, NH * 2 * sizeof(double),
                                              d, 0, NULL, NULL));
    int bad = 0;
    for (size_t i = 0; i < NH; i++) {
        double v = half_value((uint16_t)i);
        for (int k = 0; k < 2; k++) {
            bool ok = isnan(v) ? isnan(f[2 * i + k]) && isnan(d[2 * i + k])
                               : f[2 * i + k] == v && d[2 * i + k] == v &&
                                     !signbit(f[2 * i + k]) == !signbit(v);
            if (!ok && bad++ < 4)
                fprintf(stderr, "  convert_float/double(0x%04zx): %g %g, want %g\n", i,
                        f[2 * i + k], d[2 * i + k], v);
        }
    }
    printf("%-20s %d wrong\n", "from_half_fp", bad);
    CHECK(bad == 0);
    for (int a = 0; a < 3; a++)
        clReleaseMemObject(args[a]);
    free(f);
    free(d);
    free(in);
    free(out);
}

/* Random halves, with every class (zero, denormal, normal, inf, NaN) often. */
static uint16_t random_half(void) {
    static const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00,
                                        0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0xfe01};
    uint64_t r = next();
    if (r % 4 == 0)
        return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
    return (uint16_t)(r >> 16);
}

static void test_relational(void) {
    enum { PAIRS = NR };
    uint16_t *a = malloc(PAIRS * 2), *b = malloc(PAIRS * 2);
    for (size_t i = 0; i < PAIRS; i++) {
        a[i] = random_half();
        b[i] = i % 5 == 0 ? a[i] : random_half(); /* equal pairs too */
    }
    int *si = malloc(PAIRS * 14 * sizeof(int));
    int16_t *vs = malloc(PAIRS * 14 * sizeof(int16_t));
    uint16_t *sel = malloc(PAIRS * 3 * sizeof(uint16_t));
    cl_mem args[5] = {
        buffer(PAIRS * 2, a), buffer(PAIRS * 2, b), buffer(PAIRS * 14 * sizeof(int), NULL),
        buffer(PAIRS * 14 * sizeof(int16_t), NULL), buffer(PAIRS * 3 * sizeof(uint16_t), NULL)};
    run("relational", PAIRS / 4, args, 5, 2, si, PAIRS * 14 * sizeof(int));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, args[3], CL_TRUE, 0,
                                              PAIRS * 14 * sizeof(int16_t), vs, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, args[4], CL_TRUE, 0,
                                              PAIRS * 3 * sizeof(uint16_t), sel, 0, NULL, NULL));
    static const char *names[] = {"isequal",     "isnotequal",  "isgreater",     "isgreaterequal",
                                  "isless",      "islessequal", "islessgreater", "isordered",
                                  "isunordered", "isfinite",    "isinf",         "isnan",
                                  "isnormal",    "signbit"};
    int bad = 0;
    for (size_t i = 0; i < PAIRS; i++) {
        double x = half_value(a[i]), y = half_value(b[i]);
        bool un = isnan(x) || isnan(y);
        bool want[14] = {x == y,
                         !(x == y),
                         x > y,
                         x >= y,
                         x < y,
                         x <= y,
                         !un && x != y,
                         !un,
                         un,
                         isfinite(x),
                         isinf(x),
                         isnan(x),
                         isfinite(x) && fabs(x) >= 0x1p-14,
                         (a[i] & 0x8000) != 0};
        size_t g = i / 4, lane = i % 4;
        for (int f = 0; f < 14; f++) {
            int s = si[(g * 14 + (size_t)f) * 4 + lane];
            int16_t v = vs[(g * 14 + (size_t)f) * 4 + lane];
            if ((s != (want[f] ? 1 : 0) || v != (want[f] ? -1 : 0)) && bad++ < 4)
                fprintf(stderr, "  %s(0x%04x, 0x%04x): scalar %d, vector %d, want %d\n", names[f],
                        a[i], b[i], s, v, want[f]);
        }
        /* select: vector by the mask's MSB, scalar by the mask being non-zero; bitselect */
        bool msb_a = (a[i] & 0x8000) != 0, msb_b = (b[i] & 0x8000) != 0;
        uint16_t want_sel[3] = {msb_a ? b[i] : a[i], msb_b ? b[i] : a[i], 0};
        if (lane == 0)
            want_sel[2] = a[i] ? b[i] : a[i];
        else if (lane == 1)
            want_sel[2] = b[i] ? b[i] : a[i];
        else if (lane == 2)
            want_sel[2] = (uint16_t)((a[i] & ~b[i]) | (b[i] & b[i]));
        else
            want_sel[2] = (uint16_t)((a[i] & ~a[i]) | (b[i] & a[i]));
        for (int k = 0; k < 3; k++) {
            uint16_t got = sel[(g * 3 + (size_t)k) * 4 + lane];
            if (got != want_sel[k] && bad++ < 4)
                fprintf(stderr,
                        "  select/bitselect %d (0x%04x, 0x%04x) lane %zu: 0x%04x, want 0x%04x\n", k,
                        a[i], b[i], lane, got, want_sel[k]);
        }
    }
    printf("%-20s %d wrong\n", "relational", bad);
    CHECK(bad == 0);
    for (int k = 0; k < 5; k++)
        clReleaseMemObject(args[k]);
    free(a);
    free(b);
    free(si);
    free(vs);
    free(sel);
}

static void test_memory(void) {
    enum { ITEMS = 256, LOCAL = 64 };
    uint16_t *in = malloc(ITEMS * 16 * 2), *o3 = malloc(ITEMS * 3 * 2),
             *o16 = malloc(ITEMS * 16 * 2), *o = malloc(ITEMS * 4 * 2);
    for (size_t i = 0; i < ITEMS * 16; i++) {
        in[i] = random_half();
        if (half_is_nan(in[i]))
            in[i] = 0x3555; /* vload_half/vstore_half round trip a NaN to some NaN */
    }
    cl_mem args[4] = {buffer(ITEMS * 16 * 2, in), buffer(ITEMS * 3 * 2, NULL),
                      buffer(ITEMS * 16 * 2, NULL), buffer(ITEMS * 4 * 2, NULL)};
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "memory", &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (k) {
        for (cl_uint a = 0; a < 4; a++)
            CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, a, sizeof(cl_mem), &args[a]));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 4, LOCAL * 16 * 2, NULL));
        size_t g = ITEMS, l = LOCAL;
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &l, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, args[1], CL_TRUE, 0, ITEMS * 3 * 2, o3, 0,
                                                  NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, args[2], CL_TRUE, 0, ITEMS * 16 * 2, o16,
                                                  0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadBuffer(queue, args[3], CL_TRUE, 0, ITEMS * 4 * 2, o, 0, NULL, NULL));
        clReleaseKernel(k);
    }
    /* vload3/vstore3 move 3 halves at 3 i; vload16/vstore8 all; the float round trip is exact */
    CHECK(memcmp(o3, in, ITEMS * 3 * 2) == 0);
    CHECK(memcmp(o16, in, ITEMS * 16 * 2) == 0);
    CHECK(memcmp(o, in, ITEMS * 4 * 2) == 0);
    printf("%-20s %s\n", "memory",
           memcmp(o3, in, ITEMS * 3 * 2) || memcmp(o16, in, ITEMS * 32) || memcmp(o, in, ITEMS * 8)
               ? "wrong"
               : "ok");
    for (int a = 0; a < 4; a++)
        clReleaseMemObject(args[a]);
    free(in);
    free(o3);
    free(o16);
    free(o);
}

/* |got - want| within `ulps` half ulps of want plus `abs_err` (for sums that cancel). */
static bool near(uint16_t got, long double want, double ulps, long double abs_err) {
    double g = half_value(got);
    if (isnan(want))
        return isnan(g);
    uint16_t w = half_from(want, HR_RTE);
    if (isinf(half_value(w)))
        return g == half_value(w) || fabs(g) == 65504;
    if (isnan(g) || isinf(g))
        return false;
    long double a = fabsl(want) < 0x1p-14L ? 0x1p-14L : fabsl(want);
    int e;
    frexpl(a, &e);
    long double ulp = ldexpl(1, e - 11);
    return fabsl((long double)g - want) <= ulps * ulp + abs_err;
}

static void test_funcs(void) {
    enum { ITEMS = NR / 8 };
    uint16_t *a = malloc(ITEMS * 8 * 2), *out = malloc(ITEMS * 32 * 2);
    for (size_t i = 0; i < ITEMS * 8; i++) /* moderate values, [-16, 16], signs mixed */
        a[i] =
            half_from(ldexpl((long double)(next() % 2048) / 2048 + 0.5L, (int)(next() % 10) - 5) *
                          (next() % 2 ? -1 : 1),
                      HR_RTE);
    cl_mem args[2] = {buffer(ITEMS * 8 * 2, a), buffer(ITEMS * 32 * 2, NULL)};
    run("funcs", ITEMS, args, 2, 1, out, ITEMS * 32 * 2);
    int bad = 0;
    for (size_t i = 0; i < ITEMS; i++) {
        long double x[4], y[4];
        for (int k = 0; k < 4; k++) {
            x[k] = half_value(a[8 * i + (size_t)k]);
            y[k] = half_value(a[8 * i + 4 + (size_t)k]);
        }
        const uint16_t *o = out + 32 * i;
        long double dot = 0, mag = 0, len = 0, dist = 0, len3 = 0;
        for (int k = 0; k < 4; k++) {
            dot += x[k] * y[k];
            mag += fabsl(x[k] * y[k]);
            len += x[k] * x[k];
            dist += (x[k] - y[k]) * (x[k] - y[k]);
            if (k < 3)
                len3 += x[k] * x[k];
        }
        len = sqrtl(len);
        long double cross[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                                x[0] * y[1] - x[1] * y[0]};
        long double t = (x[0] + 2) / 4;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        long double ip = floorl(x[0]), fr = x[0] - ip;
        long double want[32] = {dot,
                                len,
                                sqrtl(dist),
                                x[0] / len,
                                x[1] / len,
                                x[2] / len,
                                x[3] / len,
                                cross[0],
                                cross[1],
                                cross[2],
                                x[0] < -1  ? -1
                                : x[0] > 1 ? 1
                                           : x[0],
                                x[0] + (y[0] - x[0]) * 0.25L,
                                x[0] < y[0] ? 0 : 1,
                                t * t * (3 - 2 * t),
                                x[0] > 0   ? 1
                                : x[0] < 0 ? -1
                                           : x[0],
                                x[0] * 180 / 3.14159265358979323846L,
                                x[0] * 3.14159265358979323846L / 180,
                                fmaxl(x[0], y[0]),
                                fminl(x[0], y[0]),
                                fr < 0x1.ffcp-1L ? fr : 0x1.ffcp-1L,
                                ip,
                                0,
                                fmal(x[0], y[0], x[1]),
                                x[0] / y[0],
                                fmal(x[0], y[0], x[1]),
                                x[0] * y[0] + x[1] * y[1],
                                sqrtl(len3),
                                y[1],
                                fabsl(x[0]),
                                copysignl(x[0], y[0]),
                                NAN,
                                fmal(x[2], y[2], y[3])};
        /* nextafter: the neighbouring half toward y */
        uint16_t ax = a[8 * i], nx;
        if (x[0] == y[0])
            nx = a[8 * i + 4];
        else if (x[0] == 0)
            nx = (uint16_t)((a[8 * i + 4] & 0x8000) | 1);
        else
            nx = (uint16_t)(ax + (((x[0] < y[0]) == (x[0] > 0)) ? 1 : -1));
        want[21] = half_value(nx);
        /* allowed error: derived functions 2-3 ulp; sums with cancellation by their terms */
        static const double ulps[32] = {1, 2, 2, 2, 2, 2, 2, 1, 1, 1, 0, 2, 0, 2, 0, 2,
                                        2, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0};
        for (int k = 0; k < 32; k++) {
            long double abs_err = 0;
            if (k == 0 || k == 25)
                abs_err = mag * 0x1p-20L; /* the terms of a dot product, to float's precision */
            if (k >= 7 && k <= 9)
                abs_err = 0x1p-20L * (fabsl(x[0]) + fabsl(x[1]) + fabsl(x[2])) *
                          (fabsl(y[0]) + fabsl(y[1]) + fabsl(y[2]));
            if (k == 11)
                abs_err = 0x1p-12L * (fabsl(x[0]) + fabsl(y[0]));
            bool ok = ulps[k] == 0 && !isnan(want[k]) ? o[k] == half_from(want[k], HR_RTE)
                                                      : near(o[k], want[k], ulps[k], abs_err);
            if (k == 30)
                ok = half_is_nan(o[k]);
            if (k == 24) /* a*b+c: fused or not, each within 1 ulp */
                ok = near(o[k], want[k], 1, fabsl(x[0] * y[0]) * 0x1p-11L);
            if (!ok && bad++ < 6)
                fprintf(stderr,
                        "  funcs result %d for x=(%Lg %Lg %Lg %Lg) y=(%Lg %Lg %Lg %Lg): got "
                        "%g (0x%04x), want %Lg\n",
                        k, x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3], half_value(o[k]), o[k],
                        want[k]);
        }
    }
    printf("%-20s %d wrong\n", "common/geometric", bad);
    CHECK(bad == 0);
    clReleaseMemObject(args[0]);
    clReleaseMemObject(args[1]);
    free(a);
    free(out);
}

/* half8 and half16 values loaded from memory (LLVM 16 can make their widening to float a load
 * of the raw bits into float registers): each element of the vector functions' results equals
 * the scalar function's on that element, NaNs included (a NaN result matches any NaN). */
static void test_wide(void) {
    enum { ITEMS = 256, WN = 21 };
    static const size_t widths[] = {8, 16};
    static const char *names[WN] = {"fmin",
                                    "fmax",
                                    "clamp",
                                    "degrees",
                                    "radians",
                                    "sign",
                                    "step",
                                    "step(s)",
                                    "smoothstep",
                                    "min",
                                    "max(s)",
                                    "fmin(s)",
                                    "isequal",
                                    "isnotequal",
                                    "isgreater",
                                    "isgreaterequal",
                                    "isless",
                                    "islessequal",
                                    "islessgreater",
                                    "isunordered",
                                    "convert_float (low bits)"};
    for (size_t w = 0; w < 2; w++) {
        size_t n = widths[w], count = ITEMS * n;
        uint16_t *a = malloc(count * 2), *b = malloc(count * 2), *lim = malloc(ITEMS * 4);
        int16_t *out = malloc(count * 2 * WN * sizeof(int16_t));
        REQUIRE(a && b && lim && out);
        for (size_t i = 0; i < count; i++) {
            a[i] = random_half();
            b[i] = i % 5 == 0 ? a[i] : random_half();
        }
        for (size_t i = 0; i < ITEMS; i++) { /* finite edges lo < hi */
            uint16_t x = (uint16_t)(next() % 0x7000), y = (uint16_t)(next() % 0x7000);
            x |= next() % 2 ? 0x8000 : 0;
            double vx = half_value(x), vy = half_value(y);
            lim[2 * i] = vx < vy ? x : y;
            lim[2 * i + 1] = vx < vy ? y : (uint16_t)(vx == vy ? 0x7bff : x);
        }
        cl_mem args[4] = {buffer(count * 2, a), buffer(count * 2, b), buffer(ITEMS * 4, lim),
                          buffer(count * 2 * WN * sizeof(int16_t), NULL)};
        char name[16];
        snprintf(name, sizeof name, "wide%zu", n);
        run(name, ITEMS, args, 4, 3, out, count * 2 * WN * sizeof(int16_t));
        int bad = 0;
        for (size_t e = 0; e < count; e++)
            for (int k = 0; k < WN; k++) {
                uint16_t v = (uint16_t)out[(e * WN + (size_t)k) * 2];
                uint16_t sc = (uint16_t)out[(e * WN + (size_t)k) * 2 + 1];
                bool nans = k < 12 && half_is_nan(v) && half_is_nan(sc);
                /* degrees, radians, smoothstep: float code of another shape may differ by a
                 * float ulp, which can move the half result by one */
                bool near = (k == 3 || k == 4 || k == 8) && ((v ^ sc) & 0x8000) == 0 &&
                            abs((int)v - (int)sc) <= 1;
                if (v != sc && !nans && !near && bad++ < 6)
                    fprintf(stderr, "  half%zu %s(0x%04x, 0x%04x): vector 0x%04x, scalar 0x%04x\n",
                            n, names[k], a[e], b[e], v, sc);
            }
        printf("%-20s %d wrong\n", name, bad);
        CHECK(bad == 0);
        for (int k = 0; k < 4; k++)
            clReleaseMemObject(args[k]);
        free(a);
        free(b);
        free(lim);
        free(out);
    }
}

/* work_group_broadcast of half (OpenCL C 3.0) moves the bits: NaN payloads and signs too. */
static void test_wg_broadcast(cl_device_id dev) {
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void wgb(global const ushort *in, global ushort *out) {\n"
        "  size_t i = get_global_id(0);\n"
        "  out[3 * i] = as_ushort(work_group_broadcast(as_half(in[i]), 5));\n"
        "  out[3 * i + 1] = as_ushort(work_group_broadcast(as_half(in[i]), 6, 0));\n"
        "  out[3 * i + 2] = as_ushort(work_group_broadcast(as_half(in[i]), 7, 0, 0));\n"
        "}\n";
    cl_int err;
    cl_program p = cv_test_build(ctx, dev, 1, &src, "-cl-std=CL3.0", "half broadcast", &err);
    CHECK(err == CL_SUCCESS);
    if (err != CL_SUCCESS)
        return;
    enum { ITEMS = 256, LOCAL = 64 };
    static const uint16_t nans[] = {0x7e01, 0xfe83, 0x7c01, 0x7fff, 0xfd55};
    uint16_t in[ITEMS], out[3 * ITEMS];
    for (int i = 0; i < ITEMS; i++)
        in[i] = i % 2 ? nans[(size_t)i / 2 % 5] : (uint16_t)next();
    cl_mem args[2] = {buffer(sizeof in, in), buffer(sizeof out, NULL)};
    cl_kernel k = clCreateKernel(p, "wgb", &err);
    CHECK_ERR(CL_SUCCESS, err);
    for (int a = 0; a < 2 && err == CL_SUCCESS; a++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)a, sizeof(cl_mem), &args[a]));
    size_t global = ITEMS, local = LOCAL;
    if (err == CL_SUCCESS)
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(queue, args[1], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < ITEMS; i++)
        for (int f = 0; f < 3; f++) {
            uint16_t want = in[i / LOCAL * LOCAL + 5 + f];
            if (out[3 * i + f] != want && bad++ < 4)
                fprintf(stderr, "  work_group_broadcast(half) #%d item %d: 0x%04x, want 0x%04x\n",
                        f, i, out[3 * i + f], want);
        }
    printf("%-20s %d wrong\n", "work_group_broadcast", bad);
    CHECK(bad == 0);
    if (k)
        clReleaseKernel(k);
    clReleaseMemObject(args[0]);
    clReleaseMemObject(args[1]);
    clReleaseProgram(p);
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    char ext[8192] = "";
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    if (!compiler) {
        fprintf(stderr, "half: no OpenCL C compiler: skipped\n");
        return CV_TEST_SKIP;
    }
    /* With the compiler, culvert claims cl_khr_fp16. */
    REQUIRE(strstr(ext, "cl_khr_fp16") != NULL);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    prog = cv_test_build(ctx, dev, 1, &source, "", "half", &err);
    REQUIRE(err == CL_SUCCESS);
    test_to_half();
    test_from_half();
    test_relational();
    test_memory();
    test_funcs();
    test_wide();
    test_wg_broadcast(dev);
    clReleaseProgram(prog);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("half");
}
