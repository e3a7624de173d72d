// expect: //cv:arg scale 1 constant none const float* factors
// expect: ld.global
__constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__kernel void scale(__global float *data, __constant float *factors, uint n) {
    size_t i = get_global_id(0);
    if (i < n)
        data[i] *= factors[i % 8] + table[i & 3] + vload4(0, factors).w;
}
