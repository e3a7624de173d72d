// options: -cl-std=CL3.0
// expect: atom.shared.add.f32
// expect: atom.global.add.f64
// expect: atom.shared.add.f64
// expect: atom.acq_rel.gpu.shared.add.f32
// expect: atom.acq_rel.gpu.global.cas.b32
// expect: atom.acquire.gpu.shared.add.f64
// expect: atom.release.sys.global.add.f64
// expect: atom.global.cas.b32
// expect: atom.acq_rel.cta.shared.cas.b64
// cl_ext_float_atomics: atomic_fetch_add/sub (atom.add.f64, atom.shared.add.f32, a
// compare-and-swap loop for float in global memory, whose atom.add.f32 flushes subnormals) and
// atomic_fetch_min/max (a compare-and-swap loop) for float and double, global and local memory,
// in every form.
#if !defined(cl_ext_float_atomics) || !defined(__opencl_c_ext_fp32_global_atomic_add) ||         \
    !defined(__opencl_c_ext_fp32_local_atomic_add) ||                                             \
    !defined(__opencl_c_ext_fp32_global_atomic_min_max) ||                                        \
    !defined(__opencl_c_ext_fp32_local_atomic_min_max) ||                                         \
    !defined(__opencl_c_ext_fp64_global_atomic_add) ||                                            \
    !defined(__opencl_c_ext_fp64_local_atomic_add) ||                                             \
    !defined(__opencl_c_ext_fp64_global_atomic_min_max) ||                                        \
    !defined(__opencl_c_ext_fp64_local_atomic_min_max)
#error "cl_ext_float_atomics feature macros missing"
#endif

#define OPS(op, p, v)                                                                              \
    acc += atomic_fetch_##op(p, v) +                                                               \
           atomic_fetch_##op##_explicit(p, v, memory_order_acq_rel) +                              \
           atomic_fetch_##op##_explicit(p, v, memory_order_relaxed, memory_scope_work_group) +     \
           atomic_fetch_##op##_explicit(p, v, memory_order_release, memory_scope_all_devices);
#define ALL(p, v) OPS(add, p, v) OPS(sub, p, v) OPS(min, p, v) OPS(max, p, v)

__kernel void float_atomics(__global atomic_float *gf, __global atomic_double *gd,
                            __global float *outf, __global double *outd, float vf, double vd) {
    __local atomic_float lf;
    __local atomic_double ld;
    if (get_local_id(0) == 0) {
        atomic_init(&lf, 0.0f);
        atomic_init(&ld, 0.0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    ALL(gf, vf)
    ALL(&lf, vf)
    outf[get_global_id(0)] = acc;
    double acc_d = 0.0;
    {
        double acc = 0.0;
        ALL(gd, vd)
        ALL(&ld, vd)
        acc_d = acc;
    }
    // The relaxed sum of a work-group, then acquire (shared) and device-scope release (global).
    atomic_fetch_add_explicit(&ld, vd, memory_order_acquire, memory_scope_work_group);
    atomic_fetch_min_explicit(&ld, vd, memory_order_acq_rel, memory_scope_work_group);
    atomic_fetch_add_explicit(&lf, vf, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(&ld, vd, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(gf, vf, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(gd, vd, memory_order_acquire, memory_scope_device);
    outd[get_global_id(0)] = acc_d;
}
