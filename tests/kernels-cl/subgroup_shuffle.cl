// options: -cl-std=CL3.0
// expect: shfl.sync.idx.b32
// expect: shfl.sync.bfly.b32
// expect: activemask.b32
// cl_khr_subgroup_shuffle: sub_group_shuffle and sub_group_shuffle_xor of every scalar type.
#define SHUFFLE(T)                                                                                 \
    __kernel void shuffle_##T(__global T *p, __global const uint *idx) {                           \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        p[g] = sub_group_shuffle(x, idx[g]) + sub_group_shuffle_xor(x, 5u);                        \
    }
SHUFFLE(char)
SHUFFLE(uchar)
SHUFFLE(short)
SHUFFLE(ushort)
SHUFFLE(int)
SHUFFLE(uint)
SHUFFLE(long)
SHUFFLE(ulong)
SHUFFLE(float)
SHUFFLE(double)
