// options: -cl-std=CL3.0
// expect: vote.sync.ballot.b32
// expect: %lanemask_eq
// expect: %lanemask_ge
// expect: %lanemask_gt
// expect: %lanemask_le
// expect: %lanemask_lt
// expect: popc.b32
// cl_khr_subgroup_ballot: ballots and masks, non-uniform broadcasts of every type.
__kernel void ballot(__global const int *p, __global uint4 *masks, __global uint *r) {
    size_t g = get_global_id(0);
    uint4 b = sub_group_ballot(p[g] & 1);
    masks[g * 6] = b;
    masks[g * 6 + 1] = get_sub_group_eq_mask();
    masks[g * 6 + 2] = get_sub_group_ge_mask();
    masks[g * 6 + 3] = get_sub_group_gt_mask();
    masks[g * 6 + 4] = get_sub_group_le_mask();
    masks[g * 6 + 5] = get_sub_group_lt_mask();
    r[g * 8] = sub_group_inverse_ballot(b);
    r[g * 8 + 1] = sub_group_ballot_bit_extract(b, (uint)p[g]);
    r[g * 8 + 2] = sub_group_ballot_bit_count(b);
    r[g * 8 + 3] = sub_group_ballot_inclusive_scan(b);
    r[g * 8 + 4] = sub_group_ballot_exclusive_scan(b);
    r[g * 8 + 5] = sub_group_ballot_find_lsb(b);
    r[g * 8 + 6] = sub_group_ballot_find_msb(b);
}

#define BROADCASTS(T)                                                                              \
    __kernel void nu_broadcast_##T(__global T *s, __global T##2 *a, __global T##3 *b,              \
                                   __global T##4 *c, __global T##8 *d, __global T##16 *e) {        \
        size_t g = get_global_id(0);                                                               \
        if (get_sub_group_local_id() >= 4) {                                                       \
            s[g] = sub_group_non_uniform_broadcast(s[g], 4u) + sub_group_broadcast_first(s[g]);    \
            a[g] = sub_group_non_uniform_broadcast(a[g], 5u);                                      \
            b[g] = sub_group_non_uniform_broadcast(b[g], 6u);                                      \
            c[g] = sub_group_non_uniform_broadcast(c[g], 7u);                                      \
            d[g] = sub_group_non_uniform_broadcast(d[g], 8u);                                      \
            e[g] = sub_group_non_uniform_broadcast(e[g], 31u);                                     \
        }                                                                                          \
    }
BROADCASTS(char)
BROADCASTS(uchar)
BROADCASTS(short)
BROADCASTS(ushort)
BROADCASTS(int)
BROADCASTS(uint)
BROADCASTS(long)
BROADCASTS(ulong)
BROADCASTS(float)
BROADCASTS(double)
