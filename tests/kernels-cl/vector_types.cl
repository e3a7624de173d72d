// expect: .entry vector_ops
// expect: //cv:arg vector_ops 0 global none const float4* a
__kernel void vector_ops(__global const float4 *a, __global float4 *b, __global const uchar16 *c,
                         __global int8 *d, __global const float *e, __global short2 *f) {
    size_t i = get_global_id(0);
    float4 x = a[i] * 2.0f + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    x.xy = x.yx;
    float4 y = vload4(i, e);
    vstore4(y + x, i, (__global float *)b + 4 * get_global_size(0));
    b[i] = fma(x, y, (float4)0.5f) + dot(x, y) + length(x.xyz);
    uchar16 u = c[i];
    int8 s = convert_int8(u.lo) + convert_int8_sat(as_char8(u.hi));
    d[i] = s + (int8)(popcount(s.s0), clz(s.s1), mad24(s.s2, 3, 1), rotate(s.s3, 5), 0, 0, 0, 1);
    f[i] = convert_short2_sat(x.zw) + (short2)(abs_diff(1, 2), max(s.s4, s.s5));
    float4 z = select(x, y, isgreater(x, y));
    b[i] += z + clamp(x, 0.0f, 1.0f) + mix(x, y, 0.25f) + step(0.5f, y) + smoothstep(0.0f, 1.0f, x);
}
