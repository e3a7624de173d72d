// expect: lop3.b32
// expect: prmt.b32
// Inline PTX as programs written for NVIDIA's OpenCL use it (hashcat's IS_NV paths).
__kernel void inline_ptx(__global uint *p) {
    uint r, s;
    ulong t;
    uint a = p[0], b = p[1], c = p[2];
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    asm volatile("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(s) : "r"(r));
    __asm__("mov.b64 %0, {%1, %2};" : "=l"(t) : "r"(r), "r"(s));
    p[3] = s;
    ((__global ulong *)p)[2] = t;
}
