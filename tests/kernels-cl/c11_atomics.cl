// options: -cl-std=CL3.0
// expect: atom.global.add.u32
// expect: atom.shared.add.u64
// expect: atom.global.cas.b32
// expect: atom.acquire.gpu.global.exch.b32
// expect: st.release.gpu.global.b32
// expect: fence.acq_rel.cta
// OpenCL C 3.0 atomics at the minimum capabilities (relaxed order, work-group scope), and
// stronger orders (PTX's ordered instructions and fences; atomics_orders.cl has them all).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void c11(__global atomic_int *counter, __global atomic_uint *bits,
                  __global atomic_float *f, __global atomic_flag *lock, __global long *out) {
    __local atomic_long total;
    if (get_local_id(0) == 0)
        atomic_init(&total, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_or_explicit(bits, 1u << (get_local_id(0) & 31), memory_order_relaxed,
                             memory_scope_work_group);
    atomic_fetch_add_explicit(&total, (long)get_global_id(0), memory_order_relaxed,
                              memory_scope_work_group);
    float seen = atomic_load_explicit(f, memory_order_relaxed, memory_scope_work_group);
    while (!atomic_compare_exchange_weak_explicit(f, &seen, seen + 1.0f, memory_order_relaxed,
                                                  memory_order_relaxed, memory_scope_work_group))
        ;
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device))
        ;
    atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = atomic_load_explicit(&total, memory_order_relaxed,
                                                    memory_scope_work_group);
}
