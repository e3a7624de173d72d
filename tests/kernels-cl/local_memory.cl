// expect: .ptr .shared
// expect: bar.sync
// expect: //cv:arg reduce 1 local none none float* scratch
__kernel void reduce(__global const float *in, __local float *scratch, __global float *out) {
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

/* A __local variable declared in the kernel stays static shared memory. */
__kernel void static_local(__global int *out) {
    __local int tile[64];
    tile[get_local_id(0) & 63] = (int)get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = tile[63 - (get_local_id(0) & 63)];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}
