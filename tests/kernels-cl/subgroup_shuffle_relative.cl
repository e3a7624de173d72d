// options: -cl-std=CL3.0
// expect: shfl.sync.up.b32
// expect: shfl.sync.down.b32
// cl_khr_subgroup_shuffle_relative: sub_group_shuffle_up and _down of every scalar type.
#define RELATIVE(T)                                                                                \
    __kernel void relative_##T(__global T *p, uint delta) {                                        \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        p[g] = sub_group_shuffle_up(x, delta) + sub_group_shuffle_down(x, 1u);                     \
    }
RELATIVE(char)
RELATIVE(uchar)
RELATIVE(short)
RELATIVE(ushort)
RELATIVE(int)
RELATIVE(uint)
RELATIVE(long)
RELATIVE(ulong)
RELATIVE(float)
RELATIVE(double)
