// Math-heavy: sin / exp / log / pow per element.
__kernel void math_heavy(__global const float *in, __global float *out) {
    size_t i = get_global_id(0);
    float x = in[i];
    out[i] = sin(x) * exp(x * 0.01f) + log(fabs(x) + 1.0f) + pow(fabs(x) + 0.5f, 1.7f);
}
