// Compute: half-precision FMA throughput (half2 arithmetic), reported beside fp32.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_fma(__global half *out, float af, float bf, int iters) {
    half2 a = (half2)((half)af, (half)af), b = (half2)((half)bf, (half)bf);
    half2 x = (half2)((half)get_global_id(0), (half)1.0f), y = x + b, z = y + b, w = z + b;
    for (int i = 0; i < iters; i++) {
        x = x * a + b;
        y = y * a + b;
        z = z * a + b;
        w = w * a + b;
    }
    half2 s = x + y + z + w;
    vstore_half((float)(s.x + s.y), get_global_id(0), out);
}
