/* Kernel launches: cuLaunchKernel, cuLaunchKernelEx (clusters), cuLaunchCooperativeKernel, and
 * the occupancy calculator for a default work-group size. */
#ifndef CV_CUDA_LAUNCH_H
#define CV_CUDA_LAUNCH_H

#include "cuda/cu_module.h"
#include "cuda/cu_stream.h"

typedef struct cvcu_launch {
    cvcu_function *func;
    unsigned grid[3], block[3];
    unsigned smem;       /* dynamic shared memory bytes */
    unsigned cluster[3]; /* 0 0 0: no cluster attribute */
    bool cooperative;
} cvcu_launch;

/* One launch on the stream. params: one pointer per kernel parameter. */
cl_int cvcu_launch_kernel(const cvcu_launch *l, cvcu_stream *s, void **params);
/* Is cuLaunchKernelEx there (clusters)? */
bool cvcu_launch_ex_available(void);
/* The block size with the best occupancy for this much dynamic shared memory. */
cl_int cvcu_occupancy_block_size(cvcu_function *f, size_t smem, int limit, int *block);
/* How many blocks of this size fit on one multiprocessor at once (cooperative launches). */
cl_int cvcu_occupancy_blocks_per_sm(cvcu_function *f, int block, size_t smem, int *blocks);

#endif
