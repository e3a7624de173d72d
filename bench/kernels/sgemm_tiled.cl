// Tiled SGEMM C = A * B (row-major, N multiple of TILE), local-memory tiles of TILE x TILE.
#ifndef TILE
#define TILE 16
#endif
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void
sgemm_tiled(__global const float *restrict A, __global const float *restrict B,
            __global float *restrict C, int N) {
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE + 1];
    int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    int row = (int)get_group_id(1) * TILE + ty, col = (int)get_group_id(0) * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < N; t += TILE) {
        As[ty][tx] = A[row * N + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc = fma(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
