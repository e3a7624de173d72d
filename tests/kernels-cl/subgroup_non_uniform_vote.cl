// options: -cl-std=CL3.0
// expect: vote.sync.all.pred
// expect: vote.sync.any.pred
// expect: activemask.b32
// cl_khr_subgroup_non_uniform_vote, called where only some lanes run.
#define ALL_EQUAL(T)                                                                               \
    __kernel void all_equal_##T(__global const T *p, __global int *r) {                            \
        size_t g = get_global_id(0);                                                               \
        if (get_sub_group_local_id() % 3 != 1)                                                     \
            r[g] = sub_group_non_uniform_all_equal(p[g]);                                          \
    }
ALL_EQUAL(char)
ALL_EQUAL(uchar)
ALL_EQUAL(short)
ALL_EQUAL(ushort)
ALL_EQUAL(int)
ALL_EQUAL(uint)
ALL_EQUAL(long)
ALL_EQUAL(ulong)
ALL_EQUAL(float)
ALL_EQUAL(double)

__kernel void vote(__global const int *p, __global int *r) {
    size_t g = get_global_id(0);
    if (p[g] > 2)
        r[g] = sub_group_elect() + 2 * sub_group_non_uniform_all(p[g] & 1) +
               4 * sub_group_non_uniform_any(p[g] == 7);
}
