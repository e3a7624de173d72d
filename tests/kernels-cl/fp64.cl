// expect: .f64
__kernel void fp64_math(__global const double *a, __global double *b, __global double2 *c) {
    size_t i = get_global_id(0);
    double x = a[i];
    b[i] = sqrt(x) + exp(x) + log(x + 1.0) + pow(x, 1.5) + sin(x) * cos(x) + fma(x, x, 1.0) +
           tan(x) + atan2(x, 2.0) + cbrt(x) + floor(x) + rint(x) + fmod(x, 3.0) + hypot(x, 1.0);
    c[i] = (double2)(x, -x) * 0.5 + convert_double2(convert_float2((double2)(x, x)));
}
