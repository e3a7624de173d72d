/* Writes the OpenCL C source of tests/gpu/subgroup_ext.c for the emulation (kernels.cmake):
 * vloadn/vstoren become emu_ functions defined in the source itself (libclc is not linked). */
#include "fake_cl.h"

#define main subgroup_ext_main
#include "../gpu/subgroup_ext.c"
#undef main

int main(void) {
    static const char *vectors[] = {"2", "3", "4", "8", "16"};
    printf("#define EMU_V(T, N) __attribute__((overloadable)) T##N emu_vload##N(size_t o, "
           "const global T *p) { T##N v; for (int k = 0; k < N; k++) ((T *)&v)[k] = p[o * N + "
           "k]; return v; } __attribute__((overloadable)) void emu_vstore##N(T##N v, size_t o, "
           "global T *p) { for (int k = 0; k < N; k++) p[o * N + k] = ((T *)&v)[k]; }\n");
    printf("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    for (size_t t = 0; t < NTYPES; t++)
        for (size_t v = 0; v < 5; v++)
            printf("EMU_V(%s, %s)\n", types[t].name, vectors[v]);
    const char *s = program_source();
    for (const char *p = s; *p; p++) {
        if (!strncmp(p, "vload", 5) || !strncmp(p, "vstore", 6))
            fputs("emu_", stdout);
        putchar(*p);
    }
    return 0;
}
