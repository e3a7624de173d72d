// options: -cl-std=CL3.0
// expect: .entry core_builtins
// expect: bar.sync
// OpenCL C 1.2 and 3.0 core functions: integer, common, geometric, relational, async copies,
// fences, half and native forms, ctz and work_group_barrier.
__kernel void core_builtins(__global int *p, __global float *f, __local int *l) {
    p[0] = ctz(p[1]);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    l[0] = 1;
    p[2] = get_enqueued_local_size(0) + get_global_linear_id() + get_local_linear_id();
    f[0] = vload_half(0, (__global half *)p);
    vstore_half_rte(f[1], 0, (__global half *)p);
    p[3] = popcount(p[4]) + clz(p[5]) + rotate(p[6], 3) + mul24(p[7], 2) + add_sat(p[8], 1) +
           hadd(p[9], 2) + mad_sat(p[1], 2, 3) + upsample((short)1, (ushort)2);
    f[2] = fract(f[3], f + 4) + modf(f[5], f + 6) + frexp(f[7], p + 10) + lgamma_r(f[8], p + 11) +
           remquo(f[9], 2.0f, p + 12) + sincos(f[10], f + 11);
    p[13] = any((int4)(1, 0, 0, 0)) + all((int4)(1)) + isnan(f[12]) + signbit(f[13]);
    float4 s = shuffle((float4)(1, 2, 3, 4), (uint4)(3, 2, 1, 0));
    f[14] = s.x + shuffle2((float2)(1, 2), (float2)(3, 4), (uint2)(3, 0)).x;
    f[15] = fast_length((float4)f[1]) + fast_normalize((float4)f[2]).x + distance(f[3], f[4]) +
            cross((float4)f[5], (float4)f[6]).y;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    event_t e = async_work_group_copy(l, p, 4, 0);
    wait_group_events(1, &e);
    prefetch(p, 4);
    f[16] = half_divide(f[1], f[2]) + native_divide(f[1], f[2]) + native_recip(f[3]) +
            native_rsqrt(f[4]) + native_sqrt(f[5]) + half_exp(f[6]) + half_log(f[7]) +
            half_powr(f[8], f[9]);
}
