// options: -cl-std=CL3.0
// expect: shfl.sync.down.b32
// expect: shfl.sync.up.b32
// expect: shfl.sync.idx.b32
// expect: vote.sync.all.pred
// expect: bar.warp.sync
// cl_khr_subgroups: sub-groups are warps.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void subgroups(__global int *i, __global uint *u, __global long *l, __global ulong *m,
                        __global float *f, __global double *d) {
    size_t g = get_global_id(0);
    uint info = get_sub_group_size() + get_max_sub_group_size() + get_num_sub_groups() +
                get_enqueued_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id();
    i[g] = sub_group_reduce_add(i[g]) + sub_group_scan_inclusive_min(i[g]) +
           sub_group_scan_exclusive_max(i[g]) + sub_group_broadcast(i[g], 3u) +
           sub_group_all(i[g] > 0) + sub_group_any(i[g] < 0) + (int)info;
    u[g] = sub_group_reduce_max(u[g]) + sub_group_scan_exclusive_add(u[g]);
    l[g] = sub_group_reduce_min(l[g]) + sub_group_broadcast(l[g], 0u);
    m[g] = sub_group_scan_inclusive_add(m[g]);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    f[g] = sub_group_reduce_add(f[g]) + sub_group_scan_exclusive_min(f[g]);
    d[g] = sub_group_reduce_max(d[g]) + sub_group_scan_inclusive_add(d[g]) +
           sub_group_broadcast(d[g], 31u);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
}
