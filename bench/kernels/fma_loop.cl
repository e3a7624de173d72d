// Compute: fp32 FMA throughput, 4 independent chains of `iters` iterations (8 flops each).
__kernel void fma_loop(__global float *out, float a, float b, int iters) {
    float x = (float)get_global_id(0), y = x + 1.0f, z = x + 2.0f, w = x + 3.0f;
    for (int i = 0; i < iters; i++) {
        x = fma(x, a, b);
        y = fma(y, a, b);
        z = fma(z, a, b);
        w = fma(w, a, b);
    }
    out[get_global_id(0)] = x + y + z + w;
}
