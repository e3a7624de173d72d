// Parallel reduction: each work-group sums its slice (grid-stride) into one partial sum.
__kernel void reduce_sum(__global const float *in, __global float *partial, __local float *s,
                         uint n) {
    size_t lid = get_local_id(0), gsize = get_global_size(0);
    float acc = 0.0f;
    for (size_t i = get_global_id(0); i < n; i += gsize)
        acc += in[i];
    s[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
        if (lid < stride)
            s[lid] += s[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = s[0];
}
