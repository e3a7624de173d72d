// options: -cl-std=CL3.0
// expect: shfl.sync
// The sub-group extensions' and the work-group functions' half overloads (builtins/half.ll:
// through the float ones).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *p, global half4 *q) {
    uint i = get_sub_group_local_id();
    half x = p[get_global_id(0)];
    p[get_global_id(0)] = sub_group_shuffle(x, i ^ 1) + sub_group_shuffle_down(x, 1) + sub_group_clustered_reduce_add(x, 4)
        + sub_group_non_uniform_scan_inclusive_mul(x) + sub_group_broadcast_first(x) + (half)sub_group_non_uniform_all_equal(x);
    q[get_global_id(0)] = sub_group_broadcast(q[0], 3) + sub_group_non_uniform_broadcast(q[1], 2);
}
kernel void wg(global half *p) {
    half x = p[get_global_id(0)];
    p[get_global_id(0)] = work_group_reduce_add(x) + work_group_scan_exclusive_max(x) +
                          work_group_scan_inclusive_min(x) + work_group_broadcast(x, 3);
}
