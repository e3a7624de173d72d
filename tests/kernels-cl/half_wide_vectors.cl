// Half builtins computed in float or double on vectors loaded straight from memory: half.ll
// widens them element by element, since LLVM 16 made the fpext of a loaded half8/half16 (and a
// half4 to double) one extending vector load into float registers with the raw bits
// (unit.compiler_corpus checks every load's register width).
// expect: cvt.f32.f16
// expect: cvt.f64.f16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define COMMON(T)                                                                                  \
    kernel void common_##T(global const T *x, global const T *y, global const half *s,           \
                           global T *out) {                                                        \
        size_t i = get_global_id(0);                                                               \
        global T *o = out + 12 * i;                                                                \
        o[0] = fmin(x[i], y[i]);                                                                   \
        o[1] = fmax(x[i], s[i]);                                                                   \
        o[2] = clamp(x[i], s[i], s[i + 1]);                                                        \
        o[3] = degrees(x[i]);                                                                      \
        o[4] = radians(x[i]);                                                                      \
        o[5] = sign(x[i]);                                                                         \
        o[6] = step(x[i], y[i]);                                                                   \
        o[7] = step(s[i], y[i]);                                                                   \
        o[8] = smoothstep(s[i], s[i + 1], y[i]);                                                   \
        o[9] = mix(x[i], y[i], s[i]);                                                              \
        o[10] = min(x[i], y[i]);                                                                   \
        o[11] = sqrt(x[i]) + sin(y[i]);                                                            \
    }
COMMON(half8)
COMMON(half16)

#define RELATIONAL(T, S)                                                                           \
    kernel void relational_##T(global const T *x, global const T *y, global S *out) {             \
        size_t i = get_global_id(0);                                                               \
        global S *o = out + 8 * i;                                                                 \
        o[0] = isgreater(x[i], y[i]);                                                              \
        o[1] = isgreaterequal(x[i], y[i]);                                                         \
        o[2] = isless(x[i], y[i]);                                                                 \
        o[3] = islessequal(x[i], y[i]);                                                            \
        o[4] = islessgreater(x[i], y[i]);                                                          \
        o[5] = isnotequal(x[i], y[i]);                                                             \
        o[6] = isequal(x[i], y[i]);                                                                \
        o[7] = isunordered(x[i], y[i]);                                                            \
    }
RELATIONAL(half8, short8)
RELATIONAL(half16, short16)

kernel void conversions(global const half16 *h, global float8 *f8, global float16 *f16,
                        global double4 *d4, global double8 *d8, global double16 *d16) {
    size_t i = get_global_id(0);
    f8[i] = convert_float8(h[i].lo);
    f16[i] = convert_float16(h[i]);
    d4[i] = convert_double4(h[i].s0123);
    d8[i] = convert_double8(h[i].hi);
    d16[i] = convert_double16(h[i]);
}
