// options: -cl-std=CL3.0
// expect: .visible .global .align 4 .u32 counter = 5;
// expect: .global .align 8 .u64 where = counter;
// Program-scope __global variables (__opencl_c_program_scope_global_variables): initialized,
// uninitialized, static, arrays, and a pointer initialized with another variable's address.
global int counter = 5;
global float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
global int *global where = &counter;
static global long total;
global struct {
    int a;
    float b;
} pair = {7, 0.5f};

kernel void bump(void) {
    atomic_fetch_add_explicit((volatile global atomic_int *)&counter, 1, memory_order_relaxed,
                              memory_scope_work_group);
}

kernel void read_back(global long *out) {
    total += counter;
    out[0] = counter;
    out[1] = (long)table[3];
    out[2] = *where;
    out[3] = total;
    out[4] = pair.a + (long)(pair.b * 2.0f);
}
