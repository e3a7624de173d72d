// options: -cl-std=CL3.0
// expect: bar.sync
// expect: bar.red.and.pred
// expect: bar.red.or.pred
// expect: shfl.sync.up.b32
// expect: shfl.sync.idx.b32
// OpenCL C 3.0 work-group collective functions: every function and type.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef __opencl_c_work_group_collective_functions
#error "__opencl_c_work_group_collective_functions is not defined"
#endif

#define ALL_OF(T, x)                                                                               \
    (work_group_reduce_add(x) + work_group_reduce_min(x) + work_group_reduce_max(x) +             \
     work_group_scan_inclusive_add(x) + work_group_scan_inclusive_min(x) +                         \
     work_group_scan_inclusive_max(x) + work_group_scan_exclusive_add(x) +                         \
     work_group_scan_exclusive_min(x) + work_group_scan_exclusive_max(x) +                         \
     work_group_broadcast(x, (size_t)0) + work_group_broadcast(x, (size_t)1, (size_t)0) +          \
     work_group_broadcast(x, (size_t)0, (size_t)0, (size_t)0))

// Called, not inlined, under -cl-opt-disable: the scratch array is then used in a .func.
int helper(int v) { return work_group_reduce_add(v) + work_group_scan_exclusive_add(v); }

__kernel void collectives(__global int *i, __global uint *u, __global long *l, __global ulong *m,
                          __global float *f, __global double *d) {
    size_t g = get_global_id(0);
    i[g] = ALL_OF(int, i[g]) + work_group_all(i[g] > 0) + work_group_any(i[g] < 0) + helper(i[g]);
    u[g] = ALL_OF(uint, u[g]);
    l[g] = ALL_OF(long, l[g]);
    m[g] = ALL_OF(ulong, m[g]);
    f[g] = ALL_OF(float, f[g]);
    d[g] = ALL_OF(double, d[g]);
}

// Two collectives back to back and a broadcast from a 2D id.
__kernel void back_to_back(__global int *a, __global float *b) {
    size_t g = get_global_linear_id();
    int s = work_group_reduce_add(a[g]);
    int t = work_group_scan_inclusive_max(a[g] + s);
    b[g] = work_group_broadcast(b[g], (size_t)1, (size_t)1) + (float)t;
}
