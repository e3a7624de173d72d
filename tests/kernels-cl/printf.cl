// expect: vprintf
// expect: .entry print_values
__kernel void print_values(__global const float *f, __global const long *l) {
    size_t i = get_global_id(0);
    printf("hello\n");
    printf("%s %c\n", "literal", 'x');
    printf("item %d: %f %.3e %g %ld %lu %x %o %p\n", (int)i, f[i], f[i], (double)f[i] * 2, l[i],
           (ulong)l[i], (uint)i, 8u, f);
    printf("%v4hlf %#v2hhx %+v2ld %v3hd\n", (float4)f[i], (uchar2)(1, 2), (long2)l[i], (short3)(1));
    if (printf("%5.2f|%-4d|%+i\n", 1.5f, 7, 3) < 0)
        printf("failed\n");
}
