/* Math builtins against the OpenCL C ULP limits (full profile, OpenCL C spec 7.4), through the
 * OpenCL API on culvert's GPU device: every float, double and half (cl_khr_fp16: every one of the
 * 65536 inputs for one-argument functions) function culvert's library ships
 * is run over many inputs (random over wide ranges plus special values) and compared with a
 * long double reference computed here on the CPU. Prints the worst error of each function. */
#include "half_ref.h"
#include "test_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define N (1 << 16)

typedef struct fn_case {
    const char *name; /* OpenCL C name */
    int args;         /* 1 or 2 (or 3 for fma) */
    double ulp_float, ulp_double;
    long double (*ref)(long double, long double, long double);
    double lo, hi;   /* input range for random values */
    double ulp_half; /* cl_khr_fp16 (OpenCL C spec, half precision ULP values) */
} fn_case;

#define R1(f, e)                                                                                   \
    static long double ref_##f(long double x, long double y, long double z) {                      \
        (void)y;                                                                                   \
        (void)z;                                                                                   \
        return e;                                                                                  \
    }
#define R2(f, e)                                                                                   \
    static long double ref_##f(long double x, long double y, long double z) {                      \
        (void)z;                                                                                   \
        return e;                                                                                  \
    }
R1(sin, sinl(x))
R1(cos, cosl(x))
R1(tan, tanl(x))
R1(asin, asinl(x))
R1(acos, acosl(x))
R1(atan, atanl(x))
R1(sinh, sinhl(x))
R1(cosh, coshl(x))
R1(tanh, tanhl(x))
R1(asinh, asinhl(x))
R1(acosh, acoshl(x))
R1(atanh, atanhl(x))
R1(exp, expl(x))
R1(exp2, exp2l(x))
R1(exp10, powl(10.0L, x))
R1(expm1, expm1l(x))
R1(log, logl(x))
R1(log2, log2l(x))
R1(log10, log10l(x))
R1(log1p, log1pl(x))
R1(sqrt, sqrtl(x))
R1(rsqrt, 1.0L / sqrtl(x))
R1(cbrt, cbrtl(x))
R1(erf, erfl(x))
R1(erfc, erfcl(x))
R1(tgamma, tgammal(x))
R1(floor, floorl(x))
R1(ceil, ceill(x))
R1(trunc, truncl(x))
R1(round, roundl(x))
R1(fabs, fabsl(x))
/* sinpi/cospi: x = n + f with |f| <= 1/2 (exact), so no cancellation enters the reference. */
#define PI_L 3.14159265358979323846264338327950288L
static long double ref_sinpi(long double x, long double y, long double z) {
    (void)y, (void)z;
    if (isinf(x) || isnan(x))
        return NAN;
    long double n = roundl(x), f = x - n;
    long double s = sinl(f * PI_L);
    return fmodl(fabsl(n), 2.0L) == 1 ? -s : s;
}
static long double ref_cospi(long double x, long double y, long double z) {
    (void)y, (void)z;
    if (isinf(x) || isnan(x))
        return NAN;
    long double n = roundl(x), f = fabsl(x - n);
    long double c = sinl((0.5L - f) * PI_L); /* cos(pi f) = sin(pi (1/2 - f)) */
    return fmodl(fabsl(n), 2.0L) == 1 ? -c : c;
}
/* tanpi: x = n + f with |f| <= 1/2 exact; past |f| = 1/4 through tan(pi f) = 1 / tan(pi (1/2 -
 * |f|)) (the sign of f's), so no argument near pi/2 loses bits. At n + 1/2: +inf for even n, -inf
 * for odd (OpenCL C spec). */
static long double ref_tanpi(long double x, long double y, long double z) {
    (void)y, (void)z;
    if (isinf(x) || isnan(x))
        return NAN;
    long double m = floorl(x);
    if (x - m == 0.5L)
        return fmodl(fabsl(m), 2.0L) == 0 ? INFINITY : -INFINITY;
    long double f = x - roundl(x);
    if (fabsl(f) <= 0.25L)
        return tanl(f * PI_L);
    return copysignl(1.0L, f) / tanl((0.5L - fabsl(f)) * PI_L);
}
R1(asinpi, asinl(x) / PI_L)
R1(acospi, acosl(x) / PI_L)
R1(atanpi, atanl(x) / PI_L)
R1(logb, logbl(x))
R2(atan2pi, atan2l(x, y) / PI_L)
R2(remainder, remainderl(x, y))
R2(copysign, copysignl(x, y))
R1(rint, rintl(x))
R2(maxmag, fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y))
R2(minmag, fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y))
/* powr: pow for x >= 0, with the OpenCL C special cases (NaN for 0^0, inf^0, 1^inf). */
static long double ref_powr(long double x, long double y, long double z) {
    (void)z;
    if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) || (isinf(x) && y == 0) ||
        (x == 1 && isinf(y)))
        return NAN;
    return powl(x, y);
}
R2(pow, powl(x, y))
R2(atan2, atan2l(x, y))
R2(hypot, hypotl(x, y))
R2(fmod, fmodl(x, y))
R2(fmin, fminl(x, y))
R2(fmax, fmaxl(x, y))
R2(fdim, fdiml(x, y))
R2(divide, x / y)
static long double ref_fma(long double x, long double y, long double z) {
    return fmal(x, y, z);
}

static const fn_case cases[] = {
    {"sin", 1, 4, 4, ref_sin, -100, 100, 2},
    {"cos", 1, 4, 4, ref_cos, -100, 100, 2},
    {"tan", 1, 5, 5, ref_tan, -10, 10, 2},
    {"asin", 1, 4, 4, ref_asin, -1, 1, 2},
    {"acos", 1, 4, 4, ref_acos, -1, 1, 2},
    {"atan", 1, 5, 5, ref_atan, -100, 100, 2},
    {"sinh", 1, 4, 4, ref_sinh, -80, 80, 2},
    {"cosh", 1, 4, 4, ref_cosh, -80, 80, 2},
    {"tanh", 1, 5, 5, ref_tanh, -20, 20, 2},
    {"asinh", 1, 4, 4, ref_asinh, -1e6, 1e6, 2},
    {"acosh", 1, 4, 4, ref_acosh, 1, 1e6, 2},
    {"atanh", 1, 5, 5, ref_atanh, -1, 1, 2},
    {"exp", 1, 3, 3, ref_exp, -80, 80, 2},
    {"exp2", 1, 3, 3, ref_exp2, -120, 120, 2},
    {"exp10", 1, 3, 3, ref_exp10, -35, 35, 2},
    {"expm1", 1, 3, 3, ref_expm1, -80, 80, 2},
    {"log", 1, 3, 3, ref_log, 0, 1e30, 2},
    {"log2", 1, 3, 3, ref_log2, 0, 1e30, 2},
    {"log10", 1, 3, 3, ref_log10, 0, 1e30, 2},
    {"log1p", 1, 2, 2, ref_log1p, -1, 1e30, 2},
    {"sqrt", 1, 3, 0, ref_sqrt, 0, 1e30, 0},
    {"rsqrt", 1, 2, 2, ref_rsqrt, 0, 1e30, 1},
    {"cbrt", 1, 2, 2, ref_cbrt, -1e30, 1e30, 2},
    {"erf", 1, 16, 16, ref_erf, -6, 6, 4},
    {"erfc", 1, 16, 16, ref_erfc, -6, 20, 4},
    {"tgamma", 1, 16, 16, ref_tgamma, 0.01, 30, 4},
    {"floor", 1, 0, 0, ref_floor, -1e6, 1e6, 0},
    {"ceil", 1, 0, 0, ref_ceil, -1e6, 1e6, 0},
    {"trunc", 1, 0, 0, ref_trunc, -1e6, 1e6, 0},
    {"round", 1, 0, 0, ref_round, -1e6, 1e6, 0},
    {"fabs", 1, 0, 0, ref_fabs, -1e30, 1e30, 0},
    {"sinpi", 1, 4, 4, ref_sinpi, -100, 100, 2},
    {"cospi", 1, 4, 4, ref_cospi, -100, 100, 2},
    {"pow", 2, 16, 16, ref_pow, 0, 100, 4},
    {"powr", 2, 16, 16, ref_powr, 0, 100, 4},
    {"atan2", 2, 6, 6, ref_atan2, -100, 100, 2},
    {"hypot", 2, 4, 4, ref_hypot, -1e15, 1e15, 2},
    {"fmod", 2, 0, 0, ref_fmod, -1e6, 1e6, 0},
    {"fmin", 2, 0, 0, ref_fmin, -1e6, 1e6, 0},
    {"fmax", 2, 0, 0, ref_fmax, -1e6, 1e6, 0},
    {"fdim", 2, 0, 0, ref_fdim, -1e6, 1e6, 0},
    {"divide", 2, 2.5, 0, ref_divide, -1e15, 1e15, 1},
    {"fma", 3, 0, 0, ref_fma, -1e6, 1e6, 0},
    {"asinpi", 1, 4, 4, ref_asinpi, -1, 1, 2},
    {"acospi", 1, 5, 5, ref_acospi, -1, 1, 2},
    {"atanpi", 1, 5, 5, ref_atanpi, -100, 100, 2},
    {"tanpi", 1, 6, 6, ref_tanpi, -100, 100, 2},
    {"logb", 1, 0, 0, ref_logb, -1e30, 1e30, 0},
    {"atan2pi", 2, 6, 6, ref_atan2pi, -100, 100, 2},
    {"remainder", 2, 0, 0, ref_remainder, -1e6, 1e6, 0},
    {"copysign", 2, 0, 0, ref_copysign, -1e6, 1e6, 0},
    {"rint", 1, 0, 0, ref_rint, -1e7, 1e7, 0},
    {"maxmag", 2, 0, 0, ref_maxmag, -1e6, 1e6, 0},
    {"minmag", 2, 0, 0, ref_minmag, -1e6, 1e6, 0},
    /* Huge arguments of the trigonometric functions (the CTS found cos(-0x1p+122) 5.3e8 ulp
     * off: argument reduction), sign times a log-uniform magnitude up to 3e38. */
    {"sin", 1, 4, 4, ref_sin, -3e38, 3e38, 2},
    {"cos", 1, 4, 4, ref_cos, -3e38, 3e38, 2},
    {"tan", 1, 5, 5, ref_tan, -3e38, 3e38, 2},
    /* Denormal float results (exp(-64) was 10 ulp off; CL_FP_DENORM is claimed, so none may be
     * flushed); double and half get small normal ones from the same inputs. */
    {"exp", 1, 3, 3, ref_exp, -103, -64, 2},
    {"exp2", 1, 3, 3, ref_exp2, -149, -100, 2},
    {"exp10", 1, 3, 3, ref_exp10, -44, -30, 2},
};

/* Error of got against the reference, in ULPs of the result type at the reference
 * (mant_bits: significand bits with the implicit one; min_exp: frexp exponent of the smallest
 * normal number, below which the ulp is fixed). */
static double ulp_error(long double ref, double got, int mant_bits, int min_exp) {
    if (isnan(ref))
        return isnan(got) ? 0 : INFINITY;
    if (isinf(ref)) {
        /* A finite result past the largest value rounds to infinity: equal signs required. */
        return (isinf(got) && !signbit(got) == !signbit(ref)) ? 0 : INFINITY;
    }
    if (isnan(got) || isinf(got))
        return INFINITY;
    int e;
    frexpl(ref, &e);
    if (ref == 0)
        e = min_exp;
    if (e < min_exp)
        e = min_exp; /* subnormal results: the ulp is fixed */
    long double ulp = ldexpl(1.0L, e - mant_bits);
    return (double)(fabsl((long double)got - ref) / ulp);
}

static uint64_t rng = 88172645463325252ULL;
static double rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Inputs: special values first, then random ones spread logarithmically for wide ranges. */
static double input(const fn_case *c, size_t i, int which) {
    /* denormal inputs too: 1e-40, -3e-39 and 0x1p-149 for float, 1e-310 for double */
    static const double special[] = {0.0, -0.0,  1.0, -1.0, 0.5,    2.0,      INFINITY, -INFINITY,
                                     NAN, 1e-40, 3.0, 10.0, -3e-39, 0x1p-149, 1e-310,   -0x1p-1074};
    if (i < sizeof special / sizeof special[0] * 3)
        return special[(i + (size_t)which * 5) % (sizeof special / sizeof special[0])];
    double lo = c->lo, hi = c->hi, r = rnd();
    if (hi - lo > 1e4 && lo >= 0) /* log-uniform over (0, hi] */
        return exp(log(1e-30 + hi) * r + log(lo > 0 ? lo : 1e-30) * (1 - r));
    if (hi - lo > 1e4) { /* symmetric wide range: sign times log-uniform magnitude */
        double m = exp(log(hi) * r + log(1e-20) * (1 - r));
        return rnd() < 0.5 ? -m : m;
    }
    return lo + (hi - lo) * r;
}

static const char *type_name[] = {"float", "double", "half"};

static char *kernel_source(const fn_case *c, int prec) {
    static char src[1024];
    const char *t = type_name[prec];
    char expr[128];
    if (!strcmp(c->name, "divide"))
        snprintf(expr, sizeof expr, "a[i] / b[i]");
    else if (c->args == 1)
        snprintf(expr, sizeof expr, "%s(a[i])", c->name);
    else if (c->args == 2)
        snprintf(expr, sizeof expr, "%s(a[i], b[i])", c->name);
    else
        snprintf(expr, sizeof expr, "%s(a[i], b[i], d[i])", c->name);
    snprintf(src, sizeof src,
             "%s__kernel void f(__global const %s *a, __global const %s *b, __global const %s *d,"
             " __global %s *r) { size_t i = get_global_id(0); r[i] = %s; }\n",
             prec == 1   ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
             : prec == 2 ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                         : "",
             t, t, t, t, expr);
    return src;
}

/* Exact answers the CTS's math_brute_force (-w) and math_edge_cases check, where culvert's
 * library was wrong on the H100: signed zeros of tanpi at odd integers and of atanpi(-0), NaN from
 * acospi(NaN) and ldexp(NaN, n), and denormal results of ldexp, remquo and rootn that were
 * flushed to zero. Computed on the GPU from a buffer (nothing folds them at build time); float3
 * and float4 too, which run other code. */
static const char *exact_src =
    "kernel void exact(global const float *a, global const double *b, global float *f,\n"
    "                  global double *d, global int *iq) {\n"
    "    f[0] = tanpi(a[0]); f[1] = tanpi(a[1]); f[2] = tanpi(a[2]); f[3] = tanpi(a[3]);\n"
    "    f[4] = ldexp(a[4], 0); f[5] = ldexp(a[5], 1); f[6] = ldexp(a[6], -5);\n"
    "    int q = 7; f[7] = remquo(a[7], a[8], &q); iq[0] = q;\n"
    "    f[8] = rootn(a[9], 1); f[9] = rootn(a[10], 3); f[10] = rootn(a[11], 2);\n"
    "    f[11] = rootn(a[12], -2); f[12] = rootn(a[13], -3);\n"
    "    d[0] = acospi(b[0]); d[1] = atanpi(b[1]); d[2] = acospi(b[2]);\n"
    "    float3 t3 = tanpi(vload3(0, a)); vstore3(t3, 0, f + 13);\n"
    "    float4 l4 = ldexp(vload4(0, a + 4), (int4)(0, 1, -5, 0)); vstore4(l4, 0, f + 16);\n"
    "    float4 r4 = remquo((float4)(a[7]), (float4)(a[8]), (global int4 *)(iq + 4)); f[20] = "
    "r4.w;\n"
    "    int q2 = 0; f[21] = remquo(a[14], a[15], &q2); iq[1] = q2; f[22] = ldexp(a[16], 1);\n"
    "    d[3] = tanpi(b[3]); d[4] = hypot(b[4], b[5]);\n"
    "    d[5] = ldexp(b[6], 1); d[6] = ldexp(b[7], -2);\n"
    "}\n";

static void check_exact(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    const float a[17] = {1.0f,
                         -1.0f,
                         3.0f,
                         2.0f,
                         -0x1.fffffcp-127f,
                         NAN,
                         0x1.8p-123f,
                         -0x1.5b2dd8p-127f,
                         -0x1.0068eap-110f,
                         -0x1.000002p-126f,
                         -8.0f,
                         -4.0f,
                         0.0f,
                         -0.0f,
                         -0x1.32f29ep+100f,
                         -0x1.216308p+79f,
                         -NAN};
    const double b[8] = {NAN, -0.0, -1.0, 1.0, -0x1.0000000000001p+64, -DBL_MAX, -NAN, 0x1.8p-1021};
    /* expected float bits (0x7fc00000: any NaN) */
    const uint32_t want[23] = {0x80000000, 0x00000000, 0x80000000, 0x00000000, 0x807fffff,
                               0x7fc00000, 0x00300000, 0x8056cb76, 0x80800001, 0xc0000000,
                               0x7fc00000, 0x7f800000, 0xff800000, 0x80000000, 0x00000000,
                               0x80000000, 0x807fffff, 0x7fc00000, 0x00300000, 0x8056cb76,
                               0x8056cb76, 0x665845e0, 0x7fc00000};
    cl_int err = 0;
    cl_program p = cv_test_build(ctx, dev, 1, &exact_src, NULL, "exact values", &err);
    REQUIRE(p != NULL);
    cl_kernel k = clCreateKernel(p, "exact", &err);
    REQUIRE(k != NULL);
    cl_mem ma = cv_test_buffer(ctx, sizeof a, a), mb = cv_test_buffer(ctx, sizeof b, b);
    cl_mem mf = cv_test_buffer(ctx, 23 * sizeof(float), NULL);
    cl_mem md = cv_test_buffer(ctx, 7 * sizeof(double), NULL);
    cl_mem mq = cv_test_buffer(ctx, 8 * sizeof(int), NULL);
    cl_mem args[5] = {ma, mb, mf, md, mq};
    for (cl_uint i = 0; i < 5; i++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    uint32_t got[23];
    double d[7];
    int qbits[8];
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, mf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, md, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(q, mq, CL_TRUE, 0, sizeof qbits, qbits, 0, NULL, NULL));
    for (int i = 0; i < 23; i++) {
        bool nan = (got[i] & 0x7fffffff) > 0x7f800000;
        bool ok = want[i] == 0x7fc00000 ? nan : got[i] == want[i];
        if (!ok)
            fprintf(stderr, "  exact value %d: got 0x%08x, want 0x%08x\n", i, got[i], want[i]);
        CHECK(ok);
    }
    /* remquo's quotient: x / y rounds to 0 there; the seven low bits of a large one (30, with
     * the sign of x / y: positive), where libdevice keeps three (6). */
    CHECK(qbits[0] == 0);
    if (qbits[1] != 30)
        fprintf(stderr, "  remquo quotient %d, want 30\n", qbits[1]);
    CHECK(qbits[1] == 30);
    CHECK(isnan(d[0]) && d[1] == 0 && signbit(d[1]) && d[2] == 1.0);
    /* tanpi(1) is -0; hypot(2^64, DBL_MAX) is DBL_MAX (libdevice's overflowed to inf) */
    CHECK(d[3] == 0 && signbit(d[3]));
    if (d[4] != DBL_MAX)
        fprintf(stderr, "  hypot: %a\n", d[4]);
    CHECK(d[4] == DBL_MAX);
    /* ldexp double: NaN stays NaN (libclc's ldexp(-NaN, 1) was -inf); a denormal result */
    CHECK(isnan(d[5]) && d[6] == 0x1.8p-1023);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mf);
    clReleaseMemObject(md);
    clReleaseMemObject(mq);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Vector relationals with NaN operands (the CTS found isnotequal, isgreater... of half8 and half16
 * wrong where an operand is NaN): each of the nine on 8- and 16-wide float, double and half
 * vectors from a buffer, each lane -1 (true) or 0 against the host's answer. */
static const char *relational_src =
    "#ifdef FP64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
    "#ifdef FP16\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#endif\n"
    "kernel void rel(global const T *a, global const T *b, global R *r) {\n"
    "    T x = a[0], y = b[0];\n"
    "    r[0] = isequal(x, y); r[1] = isnotequal(x, y); r[2] = isgreater(x, y);\n"
    "    r[3] = isgreaterequal(x, y); r[4] = isless(x, y); r[5] = islessequal(x, y);\n"
    "    r[6] = islessgreater(x, y); r[7] = isordered(x, y); r[8] = isunordered(x, y);\n"
    "}\n";

static bool relational_want(int fn, double x, double y) {
    switch (fn) {
    case 0:
        return x == y;
    case 1:
        return x != y;
    case 2:
        return x > y;
    case 3:
        return x >= y;
    case 4:
        return x < y;
    case 5:
        return x <= y;
    case 6:
        return x < y || x > y;
    case 7:
        return !isnan(x) && !isnan(y);
    default:
        return isnan(x) || isnan(y);
    }
}

static void check_relationals(cl_context ctx, cl_device_id dev, cl_command_queue q, bool fp64,
                              bool fp16) {
    static const double a[16] = {NAN, 1,   1,   2,  NAN, -0.0,     INFINITY, -INFINITY,
                                 3,   NAN, 0.5, -2, 7,   INFINITY, 1,        -NAN};
    static const double b[16] = {1,   NAN, 1,   1,  NAN, 0.0, INFINITY, 5,
                                 3.5, 0,   0.5, -3, 7,   NAN, 2,        4};
    static const char *names[9] = {"isequal",        "isnotequal", "isgreater",
                                   "isgreaterequal", "isless",     "islessequal",
                                   "islessgreater",  "isordered",  "isunordered"};
    for (int prec = 0; prec < 3; prec++) {
        if ((prec == 1 && !fp64) || (prec == 2 && !fp16))
            continue;
        size_t es = prec == 1 ? 8 : prec == 2 ? 2 : 4;
        for (int n = 8; n <= 16; n += 8) {
            char opts[96];
            snprintf(opts, sizeof opts, "-DT=%s%d -DR=%s%d%s", type_name[prec], n,
                     prec == 1   ? "long"
                     : prec == 2 ? "short"
                                 : "int",
                     n,
                     prec == 1   ? " -DFP64"
                     : prec == 2 ? " -DFP16"
                                 : "");
            unsigned char in_a[16 * 8], in_b[16 * 8], out[9 * 16 * 8];
            for (int i = 0; i < n; i++) {
                if (prec == 0) {
                    float fa = (float)a[i], fb = (float)b[i];
                    memcpy(in_a + 4 * i, &fa, 4), memcpy(in_b + 4 * i, &fb, 4);
                } else if (prec == 1) {
                    memcpy(in_a + 8 * i, &a[i], 8), memcpy(in_b + 8 * i, &b[i], 8);
                } else {
                    uint16_t ha = half_from(a[i], HR_RTE), hb = half_from(b[i], HR_RTE);
                    memcpy(in_a + 2 * i, &ha, 2), memcpy(in_b + 2 * i, &hb, 2);
                }
            }
            cl_int err = 0;
            cl_program p = cv_test_build(ctx, dev, 1, &relational_src, opts, "relationals", &err);
            REQUIRE(p != NULL);
            cl_kernel k = clCreateKernel(p, "rel", &err);
            REQUIRE(k != NULL);
            cl_mem ma = cv_test_buffer(ctx, es * (size_t)n, in_a);
            cl_mem mb = cv_test_buffer(ctx, es * (size_t)n, in_b);
            cl_mem mr = cv_test_buffer(ctx, 9 * es * (size_t)n, NULL);
            cl_mem args[3] = {ma, mb, mr};
            for (cl_uint i = 0; i < 3; i++)
                CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
            size_t one = 1;
            CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
            CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, mr, CL_TRUE, 0, 9 * es * (size_t)n, out, 0,
                                                      NULL, NULL));
            int bad = 0;
            for (int fn = 0; fn < 9; fn++)
                for (int i = 0; i < n; i++) {
                    const unsigned char *e = out + ((size_t)fn * (size_t)n + (size_t)i) * es;
                    long long v = es == 8   ? *(const int64_t *)e
                                  : es == 4 ? *(const int32_t *)e
                                            : *(const int16_t *)e;
                    long long want = relational_want(fn, a[i], b[i]) ? -1 : 0;
                    if (v != want && bad++ < 4)
                        fprintf(stderr, "  %s(%s%d) lane %d (%g, %g): got %lld, want %lld\n",
                                names[fn], type_name[prec], n, i, a[i], b[i], v, want);
                }
            printf("relationals %s%d: %d lanes wrong\n", type_name[prec], n, bad);
            CHECK(bad == 0);
            clReleaseMemObject(ma);
            clReleaseMemObject(mb);
            clReleaseMemObject(mr);
            clReleaseKernel(k);
            clReleaseProgram(p);
        }
    }
}

/* Rounded conversions that can round: int, uint, long, ulong and double to float, long and ulong
 * to double, in each mode (the CTS's test_conversions found convert_float_rtz(0xffffffff) 2^32:
 * libclc stepped back from the nearest value by converting it back, which saturates). The host
 * rounds from long double, which holds every source exactly. */
#define CONV_N 4096
static const char *conversion_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define ALL(T, R) kernel void from_##T##_to_##R(global const T *x, global R *r) {\\\n"
    "    size_t i = get_global_id(0); r[4 * i] = convert_##R##_rte(x[i]);\\\n"
    "    r[4 * i + 1] = convert_##R##_rtz(x[i]); r[4 * i + 2] = convert_##R##_rtp(x[i]);\\\n"
    "    r[4 * i + 3] = convert_##R##2_rtn((T##2)(x[i])).y; }\n"
    "ALL(int, float) ALL(uint, float) ALL(long, float) ALL(ulong, float) ALL(double, float)\n"
    "ALL(long, double) ALL(ulong, double)\n";

static long double round_to(long double x, int mode, bool dbl) {
    long double r = dbl ? (long double)(double)x : (long double)(float)x;
    long double up = dbl ? (long double)nextafter((double)r, INFINITY)
                         : (long double)nextafterf((float)r, INFINITY);
    long double down = dbl ? (long double)nextafter((double)r, -INFINITY)
                           : (long double)nextafterf((float)r, -INFINITY);
    if ((mode == HR_RTZ && fabsl(r) > fabsl(x)) || (mode == HR_RTN && r > x))
        return r > x ? down : up;
    if (mode == HR_RTP && r < x)
        return up;
    return r;
}

static void check_rounded_conversions(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    static const struct {
        const char *from, *to;
        int size; /* of the source; 0: double */
        bool is_signed;
    } pairs[] = {{"int", "float", 4, true},    {"uint", "float", 4, false},
                 {"long", "float", 8, true},   {"ulong", "float", 8, false},
                 {"double", "float", 0, true}, {"long", "double", 8, true},
                 {"ulong", "double", 8, false}};
    static const int modes[4] = {HR_RTE, HR_RTZ, HR_RTP, HR_RTN};
    cl_int err = 0;
    cl_program p = cv_test_build(ctx, dev, 1, &conversion_src, NULL, "conversions", &err);
    REQUIRE(p != NULL);
    uint64_t *in = malloc(CONV_N * 8);
    unsigned char *out = malloc(CONV_N * 4 * 8);
    for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++) {
        bool dbl = !strcmp(pairs[pi].to, "double");
        size_t in_size = pairs[pi].size ? (size_t)pairs[pi].size : 8, out_size = dbl ? 8 : 4;
        static const uint64_t edges[] = {
            0xffffffffULL,         0x80000001ULL,         0x7fffffffULL,
            0xfffffffeULL,         0x1000001ULL,          ~0ULL,
            0x7fffffffffffffffULL, 0x8000000000000001ULL, 0x20000000000001ULL,
            0xfffffffffffff7ffULL, 0xc000000000000400ULL};
        for (size_t i = 0; i < CONV_N; i++) {
            uint64_t v = i < sizeof edges / sizeof edges[0] ? edges[i] : rng;
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            if (!pairs[pi].size) { /* a finite double: random bits, then edges near float's top */
                double d;
                memcpy(&d, &v, 8);
                if (!isfinite(d) || i % 3 == 0)
                    d = ldexp((double)(v >> 11) / 9007199254740992.0 + 0.5, (int)(v % 300) - 150);
                memcpy(&v, &d, 8);
            }
            memcpy((unsigned char *)in + i * in_size, &v, in_size);
        }
        char name[64];
        snprintf(name, sizeof name, "from_%s_to_%s", pairs[pi].from, pairs[pi].to);
        cl_kernel k = clCreateKernel(p, name, &err);
        REQUIRE(k != NULL);
        cl_mem mi = cv_test_buffer(ctx, CONV_N * in_size, in);
        cl_mem mo = cv_test_buffer(ctx, CONV_N * 4 * out_size, NULL);
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof mi, &mi));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof mo, &mo));
        size_t global = CONV_N;
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, mo, CL_TRUE, 0, CONV_N * 4 * out_size, out, 0,
                                                  NULL, NULL));
        int bad = 0;
        for (size_t i = 0; i < CONV_N; i++) {
            const unsigned char *src = (const unsigned char *)in + i * in_size;
            long double x;
            if (!pairs[pi].size) {
                double d;
                memcpy(&d, src, 8);
                x = d;
            } else if (in_size == 4) {
                uint32_t u;
                memcpy(&u, src, 4);
                x = pairs[pi].is_signed ? (long double)(int32_t)u : (long double)u;
            } else {
                uint64_t u;
                memcpy(&u, src, 8);
                x = pairs[pi].is_signed ? (long double)(int64_t)u : (long double)u;
            }
            for (int m = 0; m < 4; m++) {
                const unsigned char *o = out + (i * 4 + (size_t)m) * out_size;
                long double got = dbl ? (long double)*(const double *)o : *(const float *)o;
                long double want = round_to(x, modes[m], dbl);
                if (got != want && bad++ < 4)
                    fprintf(stderr, "  %s mode %d of %La: got %La, want %La\n", name, m, x, got,
                            want);
            }
        }
        printf("%-22s %d wrong of %d\n", name, bad, CONV_N * 4);
        CHECK(bad == 0);
        clReleaseMemObject(mi);
        clReleaseMemObject(mo);
        clReleaseKernel(k);
    }
    free(in);
    free(out);
    clReleaseProgram(p);
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    double *in[3], *res = malloc(N * sizeof(double));
    for (int k = 0; k < 3; k++)
        in[k] = malloc(N * sizeof(double));
    cl_mem buf[4];
    for (int k = 0; k < 4; k++) {
        buf[k] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(double), NULL, &err);
        REQUIRE(err == CL_SUCCESS);
    }
    /* half where the device claims cl_khr_fp16 (culvert does with its compiler) */
    char ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    int precisions = strstr(ext, "cl_khr_fp16") ? 3 : 2;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const fn_case *c = &cases[ci];
        for (int prec = 0; prec < precisions; prec++) {
            bool dbl = prec == 1, hlf = prec == 2;
            size_t es = dbl ? sizeof(double) : hlf ? sizeof(uint16_t) : sizeof(float);
            for (int k = 0; k < 3; k++)
                for (size_t i = 0; i < N; i++) {
                    if (hlf) /* one argument: every half; more: random values and bits */
                        ((uint16_t *)in[k])[i] =
                            c->args == 1 || i % 2
                                ? (c->args == 1 ? (uint16_t)i : (uint16_t)(rnd() * 65536))
                                : half_from(input(c, i, k), HR_RTE);
                    else if (!dbl)
                        ((float *)in[k])[i] = (float)input(c, i, k);
                    else
                        in[k][i] = input(c, i, k);
                }
            const char *src = kernel_source(c, prec);
            cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
            CHECK(err == CL_SUCCESS);
            err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
            if (err != CL_SUCCESS) {
                char log[8192] = "";
                clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
                fprintf(stderr, "%s (%s): build failed %d:\n%s\n", c->name, type_name[prec], err,
                        log);
                CHECK(err == CL_SUCCESS);
                clReleaseProgram(p);
                continue;
            }
            cl_kernel kern = clCreateKernel(p, "f", &err);
            CHECK(err == CL_SUCCESS);
            for (int k = 0; k < 3; k++) {
                CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, buf[k], CL_TRUE, 0, N * es, in[k], 0,
                                                           NULL, NULL));
                CHECK_ERR(CL_SUCCESS, clSetKernelArg(kern, (cl_uint)k, sizeof(cl_mem), &buf[k]));
            }
            CHECK_ERR(CL_SUCCESS, clSetKernelArg(kern, 3, sizeof(cl_mem), &buf[3]));
            size_t global = N, local = 256;
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, &local, 0, NULL, NULL));
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueReadBuffer(q, buf[3], CL_TRUE, 0, N * es, res, 0, NULL, NULL));
            /* A limit of 0 ulp means correctly rounded: within half an ulp of the exact value. */
            double worst = 0, limit = dbl ? c->ulp_double : hlf ? c->ulp_half : c->ulp_float;
            if (limit == 0)
                limit = 0.5;
            size_t worst_i = 0, bad = 0;
            for (size_t i = 0; i < N; i++) {
                long double x, y, z;
                double got;
                if (dbl) {
                    x = in[0][i], y = in[1][i], z = in[2][i], got = res[i];
                } else if (hlf) {
                    x = half_value(((uint16_t *)in[0])[i]), y = half_value(((uint16_t *)in[1])[i]);
                    z = half_value(((uint16_t *)in[2])[i]), got = half_value(((uint16_t *)res)[i]);
                } else {
                    x = ((float *)in[0])[i], y = ((float *)in[1])[i], z = ((float *)in[2])[i];
                    got = ((float *)res)[i];
                }
                long double ref = c->ref(x, y, z);
                /* Float results are compared with the reference rounded to what float can hold
                 * (a reference past FLT_MAX is infinity, as the spec's rounding says). */
                if (!dbl && !hlf && fabsl(ref) > (long double)FLT_MAX * (1 + 0x1p-25L))
                    ref = ref > 0 ? INFINITY : -INFINITY;
                if (dbl && fabsl(ref) > (long double)DBL_MAX * (1 + 0x1p-54L))
                    ref = ref > 0 ? INFINITY : -INFINITY;
                /* half: past 65520 rounds to infinity */
                if (hlf && fabsl(ref) >= 65520)
                    ref = ref > 0 ? INFINITY : -INFINITY;
                /* Denormal inputs and results are never flushed:
                 * CL_DEVICE_{SINGLE,DOUBLE,HALF}_FP_CONFIG have CL_FP_DENORM. */
                double e = dbl   ? ulp_error(ref, got, 53, -1021)
                           : hlf ? ulp_error(ref, got, 11, -13)
                                 : ulp_error(ref, got, 24, -125);
                if (e > limit + 1e-9) {
                    if (bad < 3)
                        fprintf(
                            stderr,
                            "  %s(%s) at %.17g, %.17g, %.17g: got %.17g, ref %.17Lg, %.2f ulp\n",
                            c->name, type_name[prec], (double)x, (double)y, (double)z, got, ref, e);
                    bad++;
                }
                if (e > worst && e != INFINITY) {
                    worst = e;
                    worst_i = i;
                }
            }
            printf("%-9s %-6s [%g, %g] worst %8.3f ulp (limit %4.1f) at input %zu; %zu of %d over "
                   "the limit\n",
                   c->name, type_name[prec], c->lo, c->hi, worst, limit, worst_i, bad, N);
            CHECK(bad == 0);
            clReleaseKernel(kern);
            clReleaseProgram(p);
        }
    }
    check_exact(ctx, dev, q);
    check_rounded_conversions(ctx, dev, q);
    check_relationals(ctx, dev, q, strstr(ext, "cl_khr_fp64") != NULL, precisions == 3);
    for (int k = 0; k < 4; k++)
        clReleaseMemObject(buf[k]);
    for (int k = 0; k < 3; k++)
        free(in[k]);
    free(res);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("math_ulp");
}
