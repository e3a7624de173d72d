// options: -cl-std=CL3.0
// expect: ld.acquire.gpu.global.b32
// expect: ld.acquire.sys.shared.b64
// expect: ld.relaxed.sys.global.b64
// expect: st.release.gpu.global.b32
// expect: st.release.cta.shared.b64
// expect: st.relaxed.gpu.global.b32
// expect: atom.acquire.gpu.global.add.u32
// expect: atom.release.cta.shared.or.b64
// expect: atom.acq_rel.sys.global.cas.b64
// expect: atom.acq_rel.gpu.shared.exch.b32
// expect: atom.relaxed.sys.global.min.s32
// expect: atom.acquire.cta.global.max.u64
// expect: fence.sc.gpu
// expect: fence.sc.sys
// expect: fence.acq_rel.cta
// expect: fence.acq_rel.gpu
// OpenCL C 3.0 atomics with every order and scope (__opencl_c_atomic_order_acq_rel,
// __opencl_c_atomic_order_seq_cst, __opencl_c_atomic_scope_device,
// __opencl_c_atomic_scope_all_devices): every function in its three forms (explicit order and
// scope, explicit order, neither), for every type in global and local memory. The `dispatch`
// kernel takes the order and scope at run time, so every PTX variant is in its PTX (and ptxas
// checks them all).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#if !defined(__opencl_c_atomic_order_acq_rel) || !defined(__opencl_c_atomic_order_seq_cst) ||    \
    !defined(__opencl_c_atomic_scope_device) || !defined(__opencl_c_atomic_scope_all_devices)
#error "the atomic order and scope features are not defined"
#endif

#define O memory_order_seq_cst
#define S memory_scope_all_devices
#define S2 memory_scope_all_svm_devices

// Load, store, exchange and compare-exchange (every `expected` address space): all types.
#define BASIC(T, p, v, ep, el, eg)                                                                 \
    acc += (long)atomic_load(p) + (long)atomic_load_explicit(p, memory_order_acquire) +          \
           (long)atomic_load_explicit(p, O, S);                                                    \
    atomic_store(p, v);                                                                            \
    atomic_store_explicit(p, v, memory_order_release);                                             \
    atomic_store_explicit(p, v, O, S2);                                                            \
    acc += (long)atomic_exchange(p, v) + (long)atomic_exchange_explicit(p, v, memory_order_acq_rel) + \
           (long)atomic_exchange_explicit(p, v, O, memory_scope_device);                           \
    acc += atomic_compare_exchange_strong(p, ep, v) + atomic_compare_exchange_weak(p, ep, v) +     \
           atomic_compare_exchange_strong(p, el, v) + atomic_compare_exchange_weak(p, el, v) +     \
           atomic_compare_exchange_strong(p, eg, v) + atomic_compare_exchange_weak(p, eg, v);      \
    acc += atomic_compare_exchange_strong_explicit(p, ep, v, memory_order_release,               \
                                                   memory_order_acquire) +                         \
           atomic_compare_exchange_weak_explicit(p, el, v, O, O) +                                 \
           atomic_compare_exchange_strong_explicit(p, eg, v, O, O, S) +                            \
           atomic_compare_exchange_weak_explicit(p, ep, v, memory_order_acq_rel,                  \
                                                 memory_order_relaxed, memory_scope_device) +      \
           atomic_compare_exchange_strong_explicit(p, el, v, O, O, memory_scope_work_group) +      \
           atomic_compare_exchange_weak_explicit(p, eg, v, O, O, S2);

// The integer read-modify-writes.
#define FETCH1(op, p, v)                                                                           \
    acc += (long)atomic_fetch_##op(p, v) +                                                         \
           (long)atomic_fetch_##op##_explicit(p, v, memory_order_acq_rel) +                        \
           (long)atomic_fetch_##op##_explicit(p, v, O, S);
#define FETCH(p, v)                                                                                \
    FETCH1(add, p, v) FETCH1(sub, p, v) FETCH1(or, p, v) FETCH1(xor, p, v) FETCH1(and, p, v)       \
        FETCH1(min, p, v) FETCH1(max, p, v)

#define LOCALS(T)                                                                                  \
    __local atomic_##T l_##T;                                                                      \
    __local T le_##T;                                                                              \
    T pe_##T = (T)1;                                                                               \
    if (get_local_id(0) == 0) {                                                                    \
        atomic_init(&l_##T, (T)0);                                                                 \
        le_##T = (T)0;                                                                             \
    }
#define TYPE(T)                                                                                    \
    BASIC(T, g_##T, (T)v, &pe_##T, &le_##T, ge_##T)                                                \
    BASIC(T, &l_##T, (T)v, &pe_##T, &le_##T, ge_##T)

__kernel void forms(__global atomic_int *g_int, __global atomic_uint *g_uint,
                    __global atomic_long *g_long, __global atomic_ulong *g_ulong,
                    __global atomic_float *g_float, __global atomic_double *g_double,
                    __global int *ge_int, __global uint *ge_uint, __global long *ge_long,
                    __global ulong *ge_ulong, __global float *ge_float, __global double *ge_double,
                    __global atomic_flag *gf, __global long *out, int v) {
    long acc = 0;
    __local atomic_int li;
    __local atomic_uint lu;
    __local atomic_long ll;
    __local atomic_ulong lul;
    __local atomic_flag lf;
    if (get_local_id(0) == 0) {
        atomic_init(&li, 0);
        atomic_init(&lu, 0u);
        atomic_init(&ll, 0);
        atomic_init(&lul, 0ul);
        atomic_flag_clear_explicit(&lf, memory_order_relaxed, memory_scope_work_group);
    }
    LOCALS(int) LOCALS(uint) LOCALS(long) LOCALS(ulong) LOCALS(float) LOCALS(double)
    barrier(CLK_LOCAL_MEM_FENCE);
    TYPE(int) TYPE(uint) TYPE(long) TYPE(ulong) TYPE(float) TYPE(double)
    FETCH(g_int, v) FETCH(g_uint, (uint)v) FETCH(g_long, (long)v) FETCH(g_ulong, (ulong)v)
    FETCH(&li, v) FETCH(&lu, (uint)v) FETCH(&ll, (long)v) FETCH(&lul, (ulong)v)
    // atomic_uintptr_t with a ptrdiff_t operand.
    __global atomic_uintptr_t *gp = (__global atomic_uintptr_t *)g_ulong;
    __local atomic_uintptr_t *lp = (__local atomic_uintptr_t *)&lul;
    FETCH1(add, gp, (ptrdiff_t)v) FETCH1(sub, gp, (ptrdiff_t)v)
    FETCH1(add, lp, (ptrdiff_t)v) FETCH1(sub, lp, (ptrdiff_t)v)
    acc += atomic_flag_test_and_set(gf) + atomic_flag_test_and_set(&lf) +
           atomic_flag_test_and_set_explicit(gf, memory_order_acquire) +
           atomic_flag_test_and_set_explicit(&lf, O, S);
    atomic_flag_clear(gf);
    atomic_flag_clear(&lf);
    atomic_flag_clear_explicit(gf, memory_order_release);
    atomic_flag_clear_explicit(&lf, O, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel,
                           memory_scope_device);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_sub_group);
    out[get_global_id(0)] = acc;
}

// Order and scope known only at run time: every PTX variant of each kind of access.
__kernel void dispatch(__global atomic_int *gi, __global atomic_ulong *gu, __global atomic_long *gl,
                       __global long *out, memory_order o, memory_order of, memory_scope s,
                       int v) {
    __local atomic_int li;
    __local atomic_ulong lu;
    if (get_local_id(0) == 0) {
        atomic_init(&li, 0);
        atomic_init(&lu, 0ul);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    long acc = atomic_load_explicit(gi, o, s) + (long)atomic_load_explicit(&lu, o, s) +
               (long)atomic_load_explicit(gu, o, s);
    atomic_store_explicit(gi, v, o, s);
    atomic_store_explicit(&lu, (ulong)v, o, s);
    acc += atomic_fetch_add_explicit(gi, v, o, s) + (long)atomic_fetch_or_explicit(&lu, v, o, s) +
           atomic_fetch_min_explicit(gi, v, o, s) + (long)atomic_fetch_max_explicit(gu, v, o, s) +
           atomic_exchange_explicit(&li, v, o, s);
    ulong e = 0;
    acc += atomic_compare_exchange_strong_explicit(gu, &e, (ulong)v, o, of, s);
    acc += atomic_fetch_and_explicit(gl, v, o, s) + atomic_fetch_xor_explicit(&li, v, o, s);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, o, s);
    out[get_global_id(0)] = acc;
}
