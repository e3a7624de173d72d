// expect: .entry math_float
__kernel void math_float(__global const float *a, __global float *b) {
    size_t i = get_global_id(0);
    float x = a[i];
    b[i] = sin(x) + cos(x) + tan(x) + asin(x * 0.1f) + acos(x * 0.1f) + atan(x) + sinh(x) +
           cosh(x) + tanh(x) + exp(x) + exp2(x) + exp10(x) + expm1(x) + log(x) + log2(x) +
           log10(x) + log1p(x) + pow(x, 2.5f) + powr(x, 1.5f) + pown(x, 3) + rootn(x, 3) +
           sqrt(x) + rsqrt(x) + cbrt(x) + fabs(x) + floor(x) + ceil(x) + round(x) + trunc(x) +
           fmin(x, 1.0f) + fmax(x, 2.0f) + fmod(x, 3.0f) + remainder(x, 2.0f) + hypot(x, 2.0f) +
           erf(x) + erfc(x) + lgamma(x) + tgamma(x) + native_sin(x) + native_exp(x) +
           half_cos(x) + copysign(x, -1.0f) + ldexp(x, 3) + logb(x) + nextafter(x, 0.0f) +
           sinpi(x) + cospi(x) + atan2(x, 1.5f) + fdim(x, 1.0f) + mad(x, x, x) + degrees(x) +
           radians(x) + sign(x);
}
