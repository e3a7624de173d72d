// expect: //cv:arg qualifiers 0 global none const|volatile int* a
// expect: //cv:arg qualifiers 1 global none restrict float* b
// expect: //cv:arg qualifiers 2 private none none uint n
// expect: //cv:arg qualifiers 3 private none none float4 f
__kernel void qualifiers(__global const volatile int *a, __global float *restrict b, uint n,
                         float4 f) {
    b[get_global_id(0)] = a[n] + f.x;
}
