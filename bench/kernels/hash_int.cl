// Integer / bit twiddling: a hash-style mixing loop (rotates, xors, multiplies).
__kernel void hash_int(__global const uint *in, __global uint *out, int rounds) {
    size_t i = get_global_id(0);
    uint a = in[i], b = 0x9e3779b9u ^ (uint)i, c = 0x85ebca6bu, d = 0xc2b2ae35u;
    for (int r = 0; r < rounds; r++) {
        a += b;
        d = rotate(d ^ a, 16u);
        c += d;
        b = rotate(b ^ c, 12u);
        a += b;
        d = rotate(d ^ a, 8u);
        c += d;
        b = rotate(b ^ c, 7u);
        a = a * 0xcc9e2d51u + (c >> 3);
    }
    out[i] = a ^ b ^ c ^ d;
}
