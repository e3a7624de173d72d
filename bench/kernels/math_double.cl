// Math-heavy, double precision (cl_khr_fp64): sin / exp / log / pow per element, as bench_math
// of bench_kernels.cl does on float; the inputs vary with the work-item (0 to 1 over 1024 items).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void math_double(__global const double *a, __global double *r) {
    size_t i = get_global_id(0);
    double x = a[i] + (double)(i & 1023) * 0x1p-10;
    r[i] = sin(x) + exp(x * 0.1) + log(x + 1.5) + pow(x + 1.0, 1.3);
}
