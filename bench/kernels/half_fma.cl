// Compute: half-precision FMA throughput (cl_khr_fp16), reported beside fp32 (bench_fma of
// bench_kernels.cl): 8 independent half2 chains of `iters` fma (32 flops per iteration).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void half_fma(__global half *out, int iters) {
    half2 a = (half2)((half)(get_global_id(0) & 255) * (half)1e-3f, (half)0.5f);
    half2 b = (half2)(0.999h, 0.998h), c = (half2)(1e-3h, 2e-3h);
    half2 x0 = a, x1 = a + 1.0h, x2 = a + 2.0h, x3 = a + 3.0h, x4 = a + 4.0h, x5 = a + 5.0h,
          x6 = a + 6.0h, x7 = a + 7.0h;
    for (int i = 0; i < iters; i++) {
        x0 = fma(x0, b, c);
        x1 = fma(x1, b, c);
        x2 = fma(x2, b, c);
        x3 = fma(x3, b, c);
        x4 = fma(x4, b, c);
        x5 = fma(x5, b, c);
        x6 = fma(x6, b, c);
        x7 = fma(x7, b, c);
    }
    half2 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
    out[get_global_id(0)] = s.x + s.y;
}
