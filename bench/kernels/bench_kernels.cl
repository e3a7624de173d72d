/* cv-bench's OpenCL C kernels: the same source on every OpenCL platform. BENCH_NV_TIMER is
 * defined by cv-bench for NVIDIA devices (vendor id 0x10de), where inline PTX reads
 * %globaltimer. */

kernel void bench_empty(void) {}

/* Eight arguments of the common kinds, set before every enqueue; the body does no work (c is
 * never 12345). */
kernel void bench_args8(global int *a, global const int *b, int c, int d, float e, float f,
                        long g, global int *h)
{
    if (c == 12345)
        a[0] = b[0] + d + (int)e + (int)f + (int)g + h[0];
}

kernel void bench_inc(global int *a) { a[0] += 1; }

#ifdef BENCH_NV_TIMER
/* Spins until %globaltimer has advanced by ns nanoseconds; returns the timer it ended at. */
ulong spin_timer(ulong ns)
{
    ulong t0, t1;
    __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    } while (t1 - t0 < ns);
    return t1;
}
#endif

kernel void bench_spin(ulong ns)
{
#ifdef BENCH_NV_TIMER
    spin_timer(ns);
#else
    /* No timer (a CPU device): ns counts loop turns, which the host calibrates. */
    volatile ulong x = 0;
    for (ulong i = 0; i < ns; i++)
        x += i;
#endif
}

/* Spins ns nanoseconds, then stores the %globaltimer it ended at: the "kernel's end" of the rows
 * that wait for it (0 without the timer). */
kernel void bench_spin_end(ulong ns, global ulong *end)
{
#ifdef BENCH_NV_TIMER
    end[0] = spin_timer(ns);
#else
    end[0] = 0;
#endif
}

kernel void bench_copy4(global float4 *dst, const global float4 *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}

/* 2 x 8 x iters FLOP per work-item. */
kernel void bench_fma(global float *out, int iters)
{
    float a = (float)get_global_id(0) * 1e-7f, b = 0.999f, c = 1e-3f;
    float x0 = a, x1 = a + 1, x2 = a + 2, x3 = a + 3, x4 = a + 4, x5 = a + 5, x6 = a + 6, x7 = a + 7;
    for (int i = 0; i < iters; i++) {
        x0 = fma(x0, b, c); x1 = fma(x1, b, c); x2 = fma(x2, b, c); x3 = fma(x3, b, c);
        x4 = fma(x4, b, c); x5 = fma(x5, b, c); x6 = fma(x6, b, c); x7 = fma(x7, b, c);
    }
    out[get_global_id(0)] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

/* Integer / bit-twiddling rounds (hash style); one round = one "op" in the report. */
kernel void bench_hash(global uint *out, int rounds)
{
    uint h = (uint)get_global_id(0) * 0x9e3779b9u, k = 0x85ebca6bu;
    for (int i = 0; i < rounds; i++) {
        h ^= rotate(h, 13u) + k;
        h = (h ^ (h >> 16)) * 0x7feb352du;
        k = (k << 5) ^ (k >> 27) ^ h;
    }
    out[get_global_id(0)] = h ^ k;
}

/* clpeak's compute pattern: two chained multiply-adds per step, each operand the other's result
 * (x = y*x + y; y = x*y + x), so every operation waits on the last; a work-item's vector
 * components are independent chains. CHAIN_64 is 64 multiply-adds (mul + add: 2 ops each) per
 * component. x starts from the seed argument and y from the local id, so nothing folds; y is
 * stored (its components summed). */
#define BENCH_MULADD(a, b, c) (((a) * (b)) + (c))
#define CHAIN_4(M, x, y)                                                                           \
    x = M(y, x, y);                                                                                \
    y = M(x, y, x);                                                                                \
    x = M(y, x, y);                                                                                \
    y = M(x, y, x);
#define CHAIN_16(M, x, y) CHAIN_4(M, x, y) CHAIN_4(M, x, y) CHAIN_4(M, x, y) CHAIN_4(M, x, y)
#define CHAIN_64(M, x, y) CHAIN_16(M, x, y) CHAIN_16(M, x, y) CHAIN_16(M, x, y) CHAIN_16(M, x, y)

/* A chain kernel: x and y of type T start as X0 and Y0, `iters` turns of CHAIN_64 with M, and
 * OUT (y's components summed) is stored. */
#define CHAIN_KERNEL(name, S, T, M, X0, Y0, OUT)                                                   \
    kernel void name(global S *out, int iters, S seed)                                            \
    {                                                                                              \
        T x = X0, y = Y0;                                                                          \
        for (int i = 0; i < iters; i++) {                                                          \
            CHAIN_64(M, x, y)                                                                      \
        }                                                                                          \
        out[get_global_id(0)] = OUT;                                                               \
    }

/* 2 x 64 x iters integer ops per work-item (x 4 on int4). */
CHAIN_KERNEL(bench_mad_int, int, int, BENCH_MULADD, seed, (int)get_local_id(0), y)
CHAIN_KERNEL(bench_mad_int4, int, int4, BENCH_MULADD, ((int4)(seed, seed + 1, seed + 2, seed + 3)),
             ((int4)((int)get_local_id(0))), (y.s0 + y.s1 + y.s2 + y.s3))
/* The same with mad24 (24-bit operands: results past 24 bits are the implementation's, as in
 * clpeak). */
CHAIN_KERNEL(bench_mad24, int, int, mad24, seed, (int)get_local_id(0), y)
/* The same with float2 and mad (clpeak's single-precision kernels): 2 x 64 x 2 x iters FLOP per
 * work-item. */
CHAIN_KERNEL(bench_mad_float2, float, float2, mad, ((float2)(seed, seed + 1.0f)),
             ((float2)((float)get_local_id(0))), (y.s0 + y.s1))

/* SHA-256 compression (FIPS 180-4): Sigma0/Sigma1 with rotate(), Ch and Maj with bitselect(),
 * the message schedule rolling in 16 private words. Each work-item hashes `iters` blocks, chained:
 * the state after a block (its feed-forward added) is the next block's initial state, and the
 * schedule's last 16 words W[48..63] its message; the first message comes from the global id.
 * 64 x iters rounds per work-item; the first word of the final state is stored. */
constant uint sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u,
    0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u,
    0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
    0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au,
    0x5b9cca4fu, 0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u
};
#define SHA_ROTR(x, n) rotate((x), 32u - (n))
#define SHA_S0(x) (SHA_ROTR(x, 2u) ^ SHA_ROTR(x, 13u) ^ SHA_ROTR(x, 22u))
#define SHA_S1(x) (SHA_ROTR(x, 6u) ^ SHA_ROTR(x, 11u) ^ SHA_ROTR(x, 25u))
#define SHA_s0(x) (SHA_ROTR(x, 7u) ^ SHA_ROTR(x, 18u) ^ ((x) >> 3))
#define SHA_s1(x) (SHA_ROTR(x, 17u) ^ SHA_ROTR(x, 19u) ^ ((x) >> 10))

kernel void bench_sha256(global uint *out, int iters)
{
    uint gid = (uint)get_global_id(0), w[16];
    uint s[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
#pragma unroll
    for (int i = 0; i < 16; i++)
        w[i] = (gid + (uint)i) * 0x9e3779b9u;
    for (int n = 0; n < iters; n++) {
        uint a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
#pragma unroll
        for (int i = 0; i < 64; i++) {
            /* W[i]: W[i-16] + s0(W[i-15]) + W[i-7] + s1(W[i-2]) past the first 16. */
            if (i >= 16)
                w[i & 15] += SHA_s0(w[(i + 1) & 15]) + w[(i + 9) & 15] + SHA_s1(w[(i + 14) & 15]);
            uint t1 = h + SHA_S1(e) + bitselect(g, f, e) + sha256_k[i] + w[i & 15];
            uint t2 = SHA_S0(a) + bitselect(a, b, a ^ c); /* Maj(a, b, c) */
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        s[0] += a; s[1] += b; s[2] += c; s[3] += d;
        s[4] += e; s[5] += f; s[6] += g; s[7] += h;
    }
    out[gid] = s[0];
}

/* Blowfish-style rounds: the work-group loads four 256-entry S-boxes (sbox: 1024 words) into
 * local memory, then each work-item runs 16 x iters Feistel rounds on (L, R), seeded by its
 * global id, with Blowfish's F: ((S0[x >> 24] + S1[x >> 16 & 255]) ^ S2[x >> 8 & 255]) +
 * S3[x & 255]. L ^ R is stored. */
#define BF_F(S, x)                                                                                 \
    ((((S)[0][(x) >> 24] + (S)[1][((x) >> 16) & 255]) ^ (S)[2][((x) >> 8) & 255]) +               \
     (S)[3][(x) & 255])

kernel void bench_blowfish(global uint *out, int iters, global const uint *sbox)
{
    local uint S[4][256];
    for (uint i = get_local_id(0); i < 1024; i += get_local_size(0))
        S[i >> 8][i & 255] = sbox[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint L = (uint)get_global_id(0), R = L * 0x9e3779b9u;
    for (int n = 0; n < iters; n++) {
#pragma unroll
        for (int r = 0; r < 16; r += 2) {
            R ^= BF_F(S, L);
            L ^= BF_F(S, R);
        }
    }
    out[get_global_id(0)] = L ^ R;
}

/* Tiled SGEMM, C = A * B, n x n, row-major, n a multiple of 16, 16 x 16 work-groups. */
kernel void bench_sgemm(global const float *A, global const float *B, global float *C, int n)
{
    local float ta[16][16], tb[16][16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n; t += 16) {
        ta[ly][lx] = A[row * n + t + lx];
        tb[ly][lx] = B[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; k++)
            acc = fma(ta[ly][k], tb[k][lx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

/* Parallel sum: each work-group (256) reduces 256 x per_item elements to one partial sum. */
kernel void bench_reduce(global const float *in, global float *partial, int per_item)
{
    local float tmp[256];
    size_t l = get_local_id(0);
    size_t base = get_group_id(0) * 256 * (size_t)per_item;
    float s = 0.0f;
    for (int i = 0; i < per_item; i++)
        s += in[base + (size_t)i * 256 + l];
    tmp[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t w = 128; w > 0; w >>= 1) {
        if (l < w)
            tmp[l] += tmp[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = tmp[0];
}

/* Math-heavy: sin, exp, log, pow per element. */
/* Reads one buffer and writes another: written back in place, the values grew run after run to
 * infinity and NaN, and the row timed the functions' NaN paths. */
kernel void bench_math(global const float *a, global float *r)
{
    size_t i = get_global_id(0);
    float x = a[i] + (float)(i & 1023) * 0x1p-10f;
    r[i] = sin(x) + exp(x * 0.1f) + log(x + 1.5f) + pow(x + 1.0f, 1.3f);
}
