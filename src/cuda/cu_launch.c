#include "core/backend.h"
#include "cuda/cu_driver.h"

#define CVCU_FUNCTION(f) ((CUfunction)(f))

cl_int cvcu_launch_kernel(const cvcu_launch *l, cvcu_stream *s, void **params) {
    CUresult r;
    bool cluster = l->cluster[0] | l->cluster[1] | l->cluster[2];
    if (!cluster && !l->cooperative) {
        /* The common case: nothing but the plain launch. */
        r = cvcu.cuLaunchKernel(CVCU_FUNCTION(l->func), l->grid[0], l->grid[1], l->grid[2],
                                l->block[0], l->block[1], l->block[2], l->smem, (CUstream)s, params,
                                NULL);
    } else if (cvcu.cuLaunchKernelEx) {
        CUlaunchAttribute attrs[2];
        unsigned n = 0;
        if (cluster) {
            attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            attrs[n].value.clusterDim.x = l->cluster[0] ? l->cluster[0] : 1;
            attrs[n].value.clusterDim.y = l->cluster[1] ? l->cluster[1] : 1;
            attrs[n].value.clusterDim.z = l->cluster[2] ? l->cluster[2] : 1;
            n++;
        }
        if (l->cooperative) {
            attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
            attrs[n].value.cooperative = 1;
            n++;
        }
        CUlaunchConfig cfg = {
            .gridDimX = l->grid[0],
            .gridDimY = l->grid[1],
            .gridDimZ = l->grid[2],
            .blockDimX = l->block[0],
            .blockDimY = l->block[1],
            .blockDimZ = l->block[2],
            .sharedMemBytes = l->smem,
            .hStream = (CUstream)s,
            .attrs = attrs,
            .numAttrs = n,
        };
        r = cvcu.cuLaunchKernelEx(&cfg, CVCU_FUNCTION(l->func), params, NULL);
    } else if (!cluster) {
        r = cvcu.cuLaunchCooperativeKernel(CVCU_FUNCTION(l->func), l->grid[0], l->grid[1],
                                           l->grid[2], l->block[0], l->block[1], l->block[2],
                                           l->smem, (CUstream)s, params);
    } else {
        r = CUDA_ERROR_NOT_SUPPORTED; /* clusters need cuLaunchKernelEx (CUDA 12) */
    }
    return r == CUDA_SUCCESS ? CL_SUCCESS : cvcu_error(r, CL_OUT_OF_RESOURCES, "cuLaunchKernel");
}

cl_int cvcu_occupancy_block_size(cvcu_function *f, size_t smem, int limit, int *block) {
    int min_grid = 0;
    *block = 0;
    return CVCU_CALL(cvcu.cuOccupancyMaxPotentialBlockSize(&min_grid, block, CVCU_FUNCTION(f), NULL,
                                                           smem, limit),
                     CL_OUT_OF_RESOURCES);
}

cl_int cvcu_occupancy_blocks_per_sm(cvcu_function *f, int threads, size_t smem, int *blocks) {
    *blocks = 0;
    return CVCU_CALL(
        cvcu.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, CVCU_FUNCTION(f), threads, smem),
        CL_OUT_OF_RESOURCES);
}
