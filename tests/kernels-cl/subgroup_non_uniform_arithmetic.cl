// options: -cl-std=CL3.0
// expect: shfl.sync.idx.b32
// expect: shfl.sync.down.b32
// expect: shfl.sync.up.b32
// expect: vote.sync.ballot.b32
// cl_khr_subgroup_non_uniform_arithmetic: every operation of every type, where only some lanes run.
#define ARITH(T)                                                                                   \
    __kernel void nu_arith_##T(__global T *p) {                                                    \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        if (x != 3)                                                                                \
            p[g] = sub_group_non_uniform_reduce_add(x) + sub_group_non_uniform_reduce_mul(x) +     \
                   sub_group_non_uniform_reduce_min(x) + sub_group_non_uniform_reduce_max(x) +     \
                   sub_group_non_uniform_scan_inclusive_add(x) +                                   \
                   sub_group_non_uniform_scan_inclusive_mul(x) +                                   \
                   sub_group_non_uniform_scan_inclusive_min(x) +                                   \
                   sub_group_non_uniform_scan_inclusive_max(x) +                                   \
                   sub_group_non_uniform_scan_exclusive_add(x) +                                   \
                   sub_group_non_uniform_scan_exclusive_mul(x) +                                   \
                   sub_group_non_uniform_scan_exclusive_min(x) +                                   \
                   sub_group_non_uniform_scan_exclusive_max(x);                                    \
    }
#define BITS(T)                                                                                    \
    __kernel void nu_bits_##T(__global T *p) {                                                     \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        if (x & 1)                                                                                 \
            p[g] = sub_group_non_uniform_reduce_and(x) ^ sub_group_non_uniform_reduce_or(x) ^      \
                   sub_group_non_uniform_reduce_xor(x) ^                                           \
                   sub_group_non_uniform_scan_inclusive_and(x) ^                                   \
                   sub_group_non_uniform_scan_inclusive_or(x) ^                                    \
                   sub_group_non_uniform_scan_inclusive_xor(x) ^                                   \
                   sub_group_non_uniform_scan_exclusive_and(x) ^                                   \
                   sub_group_non_uniform_scan_exclusive_or(x) ^                                    \
                   sub_group_non_uniform_scan_exclusive_xor(x);                                    \
    }
ARITH(char)
ARITH(uchar)
ARITH(short)
ARITH(ushort)
ARITH(int)
ARITH(uint)
ARITH(long)
ARITH(ulong)
ARITH(float)
ARITH(double)
BITS(char)
BITS(uchar)
BITS(short)
BITS(ushort)
BITS(int)
BITS(uint)
BITS(long)
BITS(ulong)

__kernel void nu_logical(__global int *p) {
    size_t g = get_global_id(0);
    int x = p[g];
    if (x > 1)
        p[g] = sub_group_non_uniform_reduce_logical_and(x & 4) +
               2 * sub_group_non_uniform_reduce_logical_or(x & 8) +
               4 * sub_group_non_uniform_reduce_logical_xor(x & 16) +
               8 * sub_group_non_uniform_scan_inclusive_logical_and(x & 4) +
               16 * sub_group_non_uniform_scan_inclusive_logical_or(x & 8) +
               32 * sub_group_non_uniform_scan_inclusive_logical_xor(x & 16) +
               64 * sub_group_non_uniform_scan_exclusive_logical_and(x & 4) +
               128 * sub_group_non_uniform_scan_exclusive_logical_or(x & 8) +
               256 * sub_group_non_uniform_scan_exclusive_logical_xor(x & 16);
}
