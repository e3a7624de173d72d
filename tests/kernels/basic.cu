// Test kernels for culvert's PTX path, compiled to PTX by nvcc at build time (tests/CMakeLists.txt).
// extern "C": the entry names are the OpenCL kernel names.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct pair_arg {
    int a;
    double b;
    char c;
};

extern "C" __global__ void empty(void) {}

extern "C" __global__ void add_one(float *a, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += 1.0f;
}

// Every work-item writes its linear global id: checks 1D/2D/3D grids.
extern "C" __global__ void fill_ids(unsigned *out) {
    size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t y = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
    size_t z = blockIdx.z * (size_t)blockDim.z + threadIdx.z;
    size_t gx = (size_t)gridDim.x * blockDim.x, gy = (size_t)gridDim.y * blockDim.y;
    size_t lin = x + y * gx + z * gx * gy;
    out[lin] = (unsigned)lin;
}

extern "C" __global__ void copy_float4(float4 *dst, const float4 *src, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

// A struct and scalars of every size by value.
extern "C" __global__ void by_value(struct pair_arg p, char c, short s, long long l, float f,
                                    double *out) {
    out[0] = p.a;
    out[1] = p.b;
    out[2] = p.c;
    out[3] = c;
    out[4] = s;
    out[5] = (double)l;
    out[6] = f;
}

extern "C" __global__ void args8(int *out, int a, int b, int c, int d, int e, int f, int g) {
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = a + b + c + d + e + f + g;
}

// Dynamic shared memory through `extern __shared__` (the extra shared memory launch attribute).
extern "C" __global__ void extern_smem(unsigned *out, unsigned words) {
    extern __shared__ unsigned smem[];
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
        smem[i] = i * 3u;
    __syncthreads();
    unsigned sum = 0;
    for (unsigned i = 0; i < words; i++)
        sum += smem[i];
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

// Thread-block clusters (sm_90): each block writes its rank in the cluster.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_rank(unsigned *out) {
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0)
        out[blockIdx.x] = cluster.block_rank() + 100u * cluster.num_blocks();
}

// No compile-time cluster: the launch attribute decides.
extern "C" __global__ void cluster_any(unsigned *out) {
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0)
        out[blockIdx.x] = cluster.block_rank() + 100u * cluster.num_blocks();
}

// Grid-wide synchronisation: needs a cooperative launch.
extern "C" __global__ void coop_sum(unsigned *counter, unsigned *out) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0)
        atomicAdd(counter, 1u);
    grid.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = atomicAdd(counter, 0u);
}

// Spins about `ns` nanoseconds: keeps a launch in flight.
extern "C" __global__ void spin(unsigned long long ns, unsigned *out) {
    unsigned long long start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    unsigned long long now = start;
    while (now - start < ns)
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = 1234u;
}

// Compile-time work-group size (.reqntid).
extern "C" __global__ void __launch_bounds__(64) bounded(unsigned *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
