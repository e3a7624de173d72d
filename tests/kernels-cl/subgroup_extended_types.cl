// options: -cl-std=CL3.0
// expect: shfl.sync.idx.b32
// expect: shfl.sync.down.b32
// expect: shfl.sync.up.b32
// cl_khr_subgroup_extended_types: sub_group_broadcast of char, uchar, short, ushort and of the
// vectors of every type; reductions and scans of char, uchar, short, ushort.
#define NARROW(T)                                                                                  \
    __kernel void ext_##T(__global T *p) {                                                         \
        size_t g = get_global_id(0);                                                               \
        T x = p[g];                                                                                \
        p[g] = sub_group_broadcast(x, 1u) + sub_group_reduce_add(x) + sub_group_reduce_min(x) +    \
               sub_group_reduce_max(x) + sub_group_scan_inclusive_add(x) +                         \
               sub_group_scan_inclusive_min(x) + sub_group_scan_inclusive_max(x) +                 \
               sub_group_scan_exclusive_add(x) + sub_group_scan_exclusive_min(x) +                 \
               sub_group_scan_exclusive_max(x);                                                    \
    }
NARROW(char)
NARROW(uchar)
NARROW(short)
NARROW(ushort)

#define VECTORS(T)                                                                                 \
    __kernel void ext_vec_##T(__global T##2 *a, __global T##3 *b, __global T##4 *c,                \
                              __global T##8 *d, __global T##16 *e) {                               \
        size_t g = get_global_id(0);                                                               \
        a[g] = sub_group_broadcast(a[g], 2u);                                                      \
        b[g] = sub_group_broadcast(b[g], 3u);                                                      \
        c[g] = sub_group_broadcast(c[g], 4u);                                                      \
        d[g] = sub_group_broadcast(d[g], 5u);                                                      \
        e[g] = sub_group_broadcast(e[g], 31u);                                                     \
    }
VECTORS(char)
VECTORS(uchar)
VECTORS(short)
VECTORS(ushort)
VECTORS(int)
VECTORS(uint)
VECTORS(long)
VECTORS(ulong)
VECTORS(float)
VECTORS(double)
