// expect: atom.global.add.u32
// expect: atom.shared
__kernel void atomics32(__global int *g, __global uint *u, __global float *f, __local int *s) {
    size_t i = get_global_id(0);
    if (get_local_id(0) == 0)
        s[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&s[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&g[0], 1);
    atomic_sub(&g[1], 1);
    atomic_max(&g[2], (int)i);
    atomic_min(&u[0], (uint)i);
    atomic_cmpxchg(&g[3], 0, (int)i);
    atomic_xchg(&f[0], (float)i);
    atom_add(&g[4], s[0]);
    atomic_or(&u[1], 1u << (i & 31));
}
