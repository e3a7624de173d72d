// options: -cl-std=CL3.0
// expect: shfl.sync.down.b32
// expect: shfl.sync.idx.b32
// expect: vote.sync.ballot.b32
// cl_khr_subgroup_clustered_reduce: every operation of every type, every cluster size.
#define CLUSTERED(T, N)                                                                            \
    (sub_group_clustered_reduce_add(x, N) + sub_group_clustered_reduce_mul(x, N) +                 \
     sub_group_clustered_reduce_min(x, N) + sub_group_clustered_reduce_max(x, N))
#define CLUSTERED_BITS(T, N)                                                                       \
    (sub_group_clustered_reduce_and(x, N) ^ sub_group_clustered_reduce_or(x, N) ^                  \
     sub_group_clustered_reduce_xor(x, N))
#define ARITH(T)                                                                                   \
    __kernel void clustered_##T(__global T *p) {                                                   \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        p[g] = CLUSTERED(T, 1u) + CLUSTERED(T, 2u) + CLUSTERED(T, 4u) + CLUSTERED(T, 8u) +         \
               CLUSTERED(T, 16u) + CLUSTERED(T, 32u);                                              \
    }
#define BITS(T)                                                                                    \
    __kernel void clustered_bits_##T(__global T *p) {                                              \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        p[g] = CLUSTERED_BITS(T, 1u) ^ CLUSTERED_BITS(T, 2u) ^ CLUSTERED_BITS(T, 4u) ^             \
               CLUSTERED_BITS(T, 8u) ^ CLUSTERED_BITS(T, 16u) ^ CLUSTERED_BITS(T, 32u);            \
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

__kernel void clustered_logical(__global int *p) {
    size_t g = get_global_id(0);
    int x = p[g];
    p[g] = sub_group_clustered_reduce_logical_and(x & 1, 4u) +
           2 * sub_group_clustered_reduce_logical_or(x & 2, 8u) +
           4 * sub_group_clustered_reduce_logical_xor(x & 4, 32u) +
           8 * sub_group_clustered_reduce_logical_and(x & 8, 1u) +
           16 * sub_group_clustered_reduce_logical_or(x & 16, 2u) +
           32 * sub_group_clustered_reduce_logical_xor(x & 32, 16u);
}
