// expect: atom.global.add.u64
// expect: atom.shared.add.u64
// expect: atom.global.cas.b64
// expect: atom.global.max.s64
// expect: atom.global.min.u64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void int64_atomics(__global long *l, __global ulong *u, __local long *scratch) {
    size_t i = get_global_id(0);
    if (get_local_id(0) == 0)
        scratch[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&scratch[0], (long)i);
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&l[0], 1L);
    atom_sub(&l[1], 2L);
    atom_xchg(&l[2], (long)i);
    atom_inc(&l[3]);
    atom_dec(&l[4]);
    atom_cmpxchg(&u[0], 0UL, (ulong)i);
    atom_max(&l[5], (long)i);
    atom_min(&u[1], (ulong)i);
    atom_and(&u[2], ~(ulong)i);
    atom_or(&u[3], (ulong)i);
    atom_xor(&u[4], (ulong)i);
    if (get_local_id(0) == 0)
        atom_add(&l[6], scratch[0]);
}
