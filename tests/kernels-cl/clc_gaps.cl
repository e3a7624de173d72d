// Builtins libclc 16 lacks for NVPTX (builtins/clc_gaps.ll): the async copies and prefetch of
// 3-vectors (moved as 4-component vectors, as the spec has it: one v4 store for a float3),
// mad_hi, smoothstep(double, double, doubleN); nan(ulong) sets the quiet bit
// (0x7ff8000000000000, not infinity's 0x7ff0000000000000); the saturated conversions from float
// and double test for NaN (0; PTX cvt of NaN gives INT_MIN, LONG_MIN ... on the H100); mul24
// and mad24 are one PTX mul.lo/mad.lo of all 32 bits each, as inline asm (libclc bfe'd each
// operand's low 24 bits first; plain IR would let LLVM turn mad24_chain's y * x + y into
// y * (x + 1), a mul.lo and an add); vstore_half and vstorea_half with a rounding mode convert
// each element once with that rounding (cvt.rp.f16.f64 ...; libclc rounded in the source type
// first and lost values below half's smallest denormal); convert_float_rtz(uint) and the other
// rounded conversions to float and double that can round are one cvt with that rounding each
// (libclc's overshot at the top: convert_float_rtz(0xffffffff) was 2^32).
// expect: st.shared.v4.f32
// expect: 9221120237041090560
// expect: setp.nan.f64
// expect: setp.nan.f32
// expect: begin inline asm
// expect: cvt.rp.f16.f64
// expect: cvt.rm.f16.f32
// expect: cvt.rz.f16.f64
// expect: cvt.rz.f32.u32
// expect: cvt.rm.f64.s64
// expect: cvt.rp.f32.f64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define COPIES(T)                                                                                  \
    kernel void copies_##T(global const T *src, global T *dst, local T *tmp, uint n) {            \
        event_t e = async_work_group_copy(tmp, src, n, 0);                                         \
        e = async_work_group_strided_copy(tmp + n, src, n, 2, e);                                  \
        wait_group_events(1, &e);                                                                  \
        e = async_work_group_copy(dst, tmp, n, 0);                                                 \
        e = async_work_group_strided_copy(dst + 2 * n, tmp + n, n, 3, e);                          \
        wait_group_events(1, &e);                                                                  \
        prefetch(src, n);                                                                          \
    }
COPIES(char3)
COPIES(uchar3)
COPIES(short3)
COPIES(ushort3)
COPIES(int3)
COPIES(uint3)
COPIES(long3)
COPIES(ulong3)
COPIES(float3)
COPIES(double3)

#define MAD_HI(T)                                                                                  \
    kernel void mad_hi_##T(global const T *a, global T *out) {                                     \
        size_t i = get_global_id(0);                                                               \
        out[i] = mad_hi(a[i], a[i + 1], a[i + 2]);                                                 \
    }
#define MAD_HI_ALL(T) MAD_HI(T) MAD_HI(T##2) MAD_HI(T##3) MAD_HI(T##4) MAD_HI(T##8) MAD_HI(T##16)
MAD_HI_ALL(char)
MAD_HI_ALL(uchar)
MAD_HI_ALL(short)
MAD_HI_ALL(ushort)
MAD_HI_ALL(int)
MAD_HI_ALL(uint)
MAD_HI_ALL(long)
MAD_HI_ALL(ulong)

#define MUL24(T)                                                                                   \
    kernel void mul24_##T(global const T *a, global T *out) {                                      \
        size_t i = get_global_id(0);                                                               \
        out[2 * i] = mad24(a[i], a[i + 1], a[i + 2]);                                              \
        out[2 * i + 1] = mul24(a[i], a[i + 3]);                                                    \
    }
#define MUL24_ALL(T) MUL24(T) MUL24(T##2) MUL24(T##3) MUL24(T##4) MUL24(T##8) MUL24(T##16)
MUL24_ALL(int)
MUL24_ALL(uint)

kernel void mad24_chain(global int *out, int a) {
    int x = a, y = (int)get_local_id(0);
    for (int i = 0; i < 16; i++) {
        x = mad24(y, x, y);
        y = mad24(x, y, x);
    }
    out[get_global_id(0)] = y;
}

#define SMOOTHSTEP(T)                                                                              \
    kernel void smoothstep_##T(global const double *e, global const T *x, global T *out) {        \
        size_t i = get_global_id(0);                                                               \
        out[i] = smoothstep(e[0], e[1], x[i]);                                                     \
    }
SMOOTHSTEP(double2)
SMOOTHSTEP(double3)
SMOOTHSTEP(double4)
SMOOTHSTEP(double8)
SMOOTHSTEP(double16)

kernel void quiet_nan(global double *d, global float *f, global const ulong *code) {
    d[0] = nan(0UL);
    d[1] = nan(code[0]);
    f[0] = nan(0U);
    vstore4(nan((ulong4)(code[0])), 1, d);
}

kernel void saturated(global const double *d, global const float *f, global int *i, global long *l,
                      global uchar4 *u, global ulong *ul) {
    i[0] = convert_int_sat(d[0]);
    l[0] = convert_long_sat(f[0]);
    u[0] = convert_uchar4_sat_rte(vload4(0, f));
    ul[0] = convert_ulong_sat(d[1]);
}

kernel void vstore_half_rounding(global const double4 *d, global const float3 *f, global half *h,
                                 local half *l) {
    size_t i = get_global_id(0);
    vstore_half_rtp(d[i].x, i, h);
    vstore_half4_rtn(d[i], i + 1, h);
    vstorea_half3_rtn(f[i], i, l);
    vstore_half_rtz(d[i].y, i + 2, l);
    vstorea_half4_rte(convert_float4(d[i]), i, h + 64);
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore_half(vload_half(i, l), 128 + i, h);
}

kernel void rounded_conversions(global const uint *u, global const long4 *l, global const double *d,
                                global float *f, global double4 *o) {
    size_t i = get_global_id(0);
    f[i] = convert_float_rtz(u[i]);
    o[i] = convert_double4_rtn(l[i]);
    f[i + 1] = convert_float_rtp(d[i]);
    vstore4(convert_float4_rtn(l[i]), i + 1, f);
}
