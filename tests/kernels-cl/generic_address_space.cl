// options: -cl-std=CL3.0
// expect: isspacep.global
// expect: isspacep.shared
// expect: isspacep.local
// expect: atom.add.u32
// expect: atom.acquire.gpu.add.u32
// expect: atom.acq_rel.gpu.cas.b64
// expect: atom.release.cta.exch.b32
// expect: atom.relaxed.sys.add.f64
// expect: ld.acquire.gpu.b32
// expect: st.release.gpu.b64
// expect: fence.sc.gpu
// The generic address space (__opencl_c_generic_address_space): every builtin clang declares
// with a generic pointer parameter, called through pointers that may point to global, local or
// private memory (chosen at run time, so the generic PTX stays), the named-pointer calls beside
// them, to_global/to_local/to_private and get_fence. tests/gpu/generic_address_space.c runs them.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#ifndef __opencl_c_generic_address_space
#error "__opencl_c_generic_address_space is not defined"
#endif

// The math functions with a pointer result, for one floating-point type and its vectors.
#define MATH(T, IT)                                                                                \
    void math_##T(T *p, IT *q, T x) {                                                              \
        T a = fract(x, p);                                                                         \
        a += frexp(x, q) + lgamma_r(x, q + 1) + modf(x, p + 1) + remquo(x, x + (T)1, q + 2);       \
        p[2] = a + sincos(x, p + 3);                                                               \
    }
MATH(float, int)
MATH(float3, int3)
MATH(double, int)
MATH(double2, int2)
MATH(half, int)
MATH(half2, int2)

// vloadN / vstoreN of every element type through a generic pointer.
#define VEC(T)                                                                                     \
    void vec_##T(T *p, const T *c, size_t i) {                                                     \
        vstore2(vload2(i, c), i, p);                                                               \
        vstore3(vload3(i, c), i + 1, p);                                                           \
        vstore4(vload4(i, c), i + 2, p);                                                           \
        vstore8(vload8(i, c), i + 3, p);                                                           \
        vstore16(vload16(i, c), i + 4, p);                                                         \
    }
VEC(char)
VEC(uchar)
VEC(short)
VEC(ushort)
VEC(int)
VEC(uint)
VEC(long)
VEC(ulong)
VEC(float)
VEC(double)
VEC(half)

// The half loads and stores of float and double data, with a rounding mode and without.
#define HALF_STORES(T, R)                                                                          \
    vstore_half##R(v.s0, 0, h);                                                                    \
    vstore_half2##R(v.s01, 1, h);                                                                  \
    vstore_half3##R(v.s012, 1, h + 2);                                                             \
    vstore_half4##R(v.s0123, 1, h + 4);                                                            \
    vstore_half8##R(v.s01234567, 1, h + 8);                                                        \
    vstore_half16##R(v, 1, h + 16);                                                                \
    vstorea_half2##R(v.s01, 2, h);                                                                 \
    vstorea_half3##R(v.s012, 2, h);                                                                \
    vstorea_half4##R(v.s0123, 2, h);                                                               \
    vstorea_half8##R(v.s01234567, 2, h);                                                           \
    vstorea_half16##R(v, 2, h);
#define HALF(T, R)                                                                                 \
    void half_##T(half *h, const half *c, T##16 v, T *out) {                                       \
        float16 f = vload_half16(0, c);                                                            \
        f.s0 += vload_half(1, c);                                                                  \
        f.s01 += vload_half2(1, c);                                                                \
        f.s012 += vload_half3(1, c);                                                               \
        f.s0123 += vload_half4(1, c) + vloada_half4(1, c);                                         \
        f.s01234567 += vload_half8(1, c) + vloada_half8(1, c);                                     \
        f.s01 += vloada_half2(1, c);                                                               \
        f.s012 += vloada_half3(1, c);                                                              \
        f += vloada_half16(1, c);                                                                  \
        out[0] = (T)(f.s0 + f.s1 + f.s2 + f.sf);                                                   \
        HALF_STORES(T, )                                                                           \
        HALF_STORES(T, R)                                                                          \
    }
HALF(float, _rte)
HALF(double, _rtz)

// The C11 atomics on generic pointers: every function, its three forms, each type.
#define ATOMIC_INT(T, A)                                                                           \
    T atomics_##T(A *p, T *e, T v) {                                                               \
        atomic_init(p, v);                                                                         \
        T r = atomic_fetch_add(p, v) + atomic_fetch_sub_explicit(p, v, memory_order_relaxed) +     \
              atomic_fetch_or_explicit(p, v, memory_order_acquire, memory_scope_device) +          \
              atomic_fetch_xor(p, v) + atomic_fetch_and_explicit(p, v, memory_order_release) +     \
              atomic_fetch_min_explicit(p, v, memory_order_acq_rel, memory_scope_work_group) +     \
              atomic_fetch_max(p, v);                                                              \
        atomic_store_explicit(p, r, memory_order_release, memory_scope_device);                    \
        r += atomic_load_explicit(p, memory_order_acquire, memory_scope_device) +                  \
             atomic_exchange_explicit(p, v, memory_order_release, memory_scope_work_group);        \
        r += atomic_compare_exchange_strong_explicit(p, e, v, memory_order_acq_rel,                \
                                                     memory_order_acquire, memory_scope_device);   \
        r += atomic_compare_exchange_weak_explicit(p, e, v, memory_order_relaxed,                  \
                                                   memory_order_relaxed, memory_scope_work_group); \
        r += atomic_compare_exchange_strong(p, e, v) + atomic_compare_exchange_weak(p, e, v);      \
        return r + atomic_load(p) + atomic_exchange(p, v);                                         \
    }
ATOMIC_INT(int, atomic_int)
ATOMIC_INT(uint, atomic_uint)
ATOMIC_INT(long, atomic_long)
ATOMIC_INT(ulong, atomic_ulong)

#define ATOMIC_FLOAT(T, A)                                                                         \
    T atomics_##T(A *p, T *e, T v) {                                                               \
        atomic_init(p, v);                                                                         \
        T r = atomic_fetch_add(p, v) + atomic_fetch_sub_explicit(p, v, memory_order_release) +     \
              atomic_fetch_add_explicit(p, v, memory_order_relaxed, memory_scope_all_devices) +    \
              atomic_fetch_min(p, v) +                                                             \
              atomic_fetch_max_explicit(p, v, memory_order_relaxed, memory_scope_work_group);      \
        atomic_store(p, r);                                                                        \
        r += atomic_load_explicit(p, memory_order_acquire) + atomic_exchange(p, v);                \
        r += atomic_compare_exchange_strong_explicit(p, e, v, memory_order_acq_rel,                \
                                                     memory_order_relaxed, memory_scope_device);   \
        return r + atomic_compare_exchange_weak(p, e, v);                                          \
    }
ATOMIC_FLOAT(float, atomic_float)
ATOMIC_FLOAT(double, atomic_double)

// atomic_uintptr_t with a ptrdiff_t operand, and the flag.
size_t atomics_uintptr(atomic_uintptr_t *p, ptrdiff_t d, atomic_flag *f) {
    size_t r = atomic_fetch_add(p, d) + atomic_fetch_sub_explicit(p, d, memory_order_relaxed);
    r += atomic_fetch_add_explicit(p, d, memory_order_seq_cst, memory_scope_device);
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire, memory_scope_device))
        ;
    atomic_flag_clear_explicit(f, memory_order_release, memory_scope_device);
    r += atomic_flag_test_and_set(f) + atomic_flag_test_and_set_explicit(f, memory_order_relaxed);
    atomic_flag_clear(f);
    atomic_flag_clear_explicit(f, memory_order_relaxed);
    return r;
}

__kernel void generic_builtins(__global float *g, __global double *gd, __global half *gh,
                               __global int *gi, __global uchar *gb, __global atomic_int *ai,
                               __global atomic_long *al, __global atomic_float *af,
                               __global atomic_double *ad, __global atomic_uintptr_t *ap,
                               __global atomic_flag *flag, int which, memory_order o,
                               memory_scope s) {
    __local float lf[64];
    __local double ld[64];
    __local half lh[64];
    __local int li[64];
    __local uchar lb[256];
    __local atomic_int lai;
    __local atomic_long lal;
    float pf[64];
    double pd[64];
    half ph[64];
    int pi[64];
    uchar pb[256];
    // A pointer into the space `which` names: generic for the compiler.
    float *f = which == 0 ? (float *)g : which == 1 ? (float *)lf : (float *)pf;
    double *d = which == 0 ? (double *)gd : which == 1 ? (double *)ld : (double *)pd;
    half *h = which == 0 ? (half *)gh : which == 1 ? (half *)lh : (half *)ph;
    int *i = which == 0 ? (int *)gi : which == 1 ? (int *)li : (int *)pi;
    uchar *b = which == 0 ? (uchar *)gb : which == 1 ? (uchar *)lb : (uchar *)pb;
    for (int k = 0; k < 64; k++) {
        pf[k] = g[k];
        lf[k] = g[k];
        pd[k] = gd[k];
        ld[k] = gd[k];
        ph[k] = gh[k];
        lh[k] = gh[k];
        pi[k] = gi[k];
        li[k] = gi[k];
    }
    for (int k = 0; k < 256; k++)
        pb[k] = lb[k] = gb[k];

    math_float(f, i, f[0]);
    math_float3((float3 *)f, (int3 *)i, vload3(0, f));
    math_double(d, i, d[0]);
    math_double2((double2 *)d, (int2 *)i, vload2(1, d));
    math_half(h, i, h[0]);
    math_half2((half2 *)h, (int2 *)i, vload2(1, h));
    vec_char((char *)b, (const char *)b, 1);
    vec_uchar(b, b, 2);
    vec_short((short *)b, (const short *)b, 1);
    vec_ushort((ushort *)b, (const ushort *)b, 1);
    vec_int(i, i, 0);
    vec_uint((uint *)i, (const uint *)i, 0);
    vec_long((long *)d, (const long *)d, 0);
    vec_ulong((ulong *)d, (const ulong *)d, 0);
    vec_float(f, f, 0);
    vec_double(d, d, 0);
    vec_half(h, h, 0);
    half_float(h, h, vload16(0, f), f);
    half_double(h, h, vload16(0, d), d);

    // Atomics on a generic pointer to global or local memory.
    atomic_int *gai = which == 0 ? (atomic_int *)ai : (atomic_int *)&lai;
    atomic_long *gal = which == 0 ? (atomic_long *)al : (atomic_long *)&lal;
    int ei = 0;
    long el = 0;
    float ef = 0;
    double ed = 0;
    gi[0] = atomics_int(gai, &ei, 1) + atomics_uint((atomic_uint *)gai, (uint *)&ei, 2u);
    gd[0] = atomics_long(gal, &el, 3) + atomics_ulong((atomic_ulong *)gal, (ulong *)&el, 4);
    g[0] = atomics_float((atomic_float *)af, &ef, 1.5f);
    gd[1] = atomics_double((atomic_double *)ad, &ed, 2.5);
    // An order and a scope known at run time only.
    gi[3] = atomic_fetch_add_explicit(gai, 1, o, s);
    gd[2] = atomics_uintptr((atomic_uintptr_t *)ap, which, (atomic_flag *)flag);
    atomic_work_item_fence(get_fence(gai), memory_order_seq_cst, memory_scope_device);

    // The conversions and the fence flags of the three spaces.
    gi[1] = (to_global(f) != NULL) | (to_local(f) != NULL) << 1 | (to_private(f) != NULL) << 2;
    gi[2] = get_fence(f) | get_fence((const int *)i) << 4;
    __global float *back = to_global(f);
    if (back)
        back[1] = 1.0f;
    __local float *lback = to_local(f);
    if (lback)
        g[2] = lback[0];
    for (int k = 0; k < 64; k++)
        g[k + 3] += f[k] + (float)d[k] + (float)h[k] + (float)i[k] + (float)b[k];
}
