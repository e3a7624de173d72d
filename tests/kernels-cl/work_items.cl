// options: -cl-std=CL3.0
// expect: .shared .align 8 .b8 __cv_launch_info[64]
// expect: //cv:reqd_work_group_size ids 8 4 2
// expect: //cv:kernel-attributes ids reqd_work_group_size(8,4,2)
__kernel __attribute__((reqd_work_group_size(8, 4, 2))) void ids(__global ulong *out) {
    size_t g = get_global_linear_id();
    out[g * 12 + 0] = get_global_id(0) + get_global_id(1) + get_global_id(2);
    out[g * 12 + 1] = get_global_size(0) * get_global_size(1) * get_global_size(2);
    out[g * 12 + 2] = get_local_id(0) + get_local_id(1) + get_local_id(2);
    out[g * 12 + 3] = get_local_size(0) + get_local_size(1) + get_local_size(2);
    out[g * 12 + 4] = get_group_id(0) + get_group_id(1) + get_group_id(2);
    out[g * 12 + 5] = get_num_groups(0) + get_num_groups(1) + get_num_groups(2);
    out[g * 12 + 6] = get_global_offset(0) + get_global_offset(1) + get_global_offset(2);
    out[g * 12 + 7] = get_work_dim();
    out[g * 12 + 8] = get_enqueued_local_size(0);
    out[g * 12 + 9] = get_local_linear_id();
    out[g * 12 + 10] = get_global_id(3) + get_local_size(7);
    out[g * 12 + 11] = g;
}

/* A kernel that uses no work-item function still declares the launch block. */
__kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4)))
void no_ids(__global int *p) {
    p[0] = 1;
}
