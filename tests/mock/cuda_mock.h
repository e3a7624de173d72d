/* A stand-in libcuda.so.1 for tests without a GPU (tests/mock): one device shaped like an H100,
 * modules parsed with culvert's PTX parser, launches recorded instead of run. The test reads
 * the records through cvmock_state(), looked up with dlsym. */
#ifndef CV_TEST_CUDA_MOCK_H
#define CV_TEST_CUDA_MOCK_H

#include <stdbool.h>
#include <stddef.h>

#define CVMOCK_MAX_LAUNCHES 1024
#define CVMOCK_PARAM_BYTES  512

typedef struct cvmock_launch {
    char func[64];
    unsigned grid[3], block[3], smem, cluster[3];
    bool cooperative, ex;
    unsigned num_params;
    unsigned param_offset[16]; /* where each parameter's bytes start in params */
    unsigned char params[CVMOCK_PARAM_BYTES];
} cvmock_launch;

typedef struct cvmock_state {
    unsigned num_launches;
    cvmock_launch launches[CVMOCK_MAX_LAUNCHES];
    /* the last cuModuleLoadDataEx's JIT options (-1: not given) */
    int jit_max_registers, jit_opt_level, jit_target, jit_verbose;
    unsigned modules_loaded, modules_unloaded;
    int last_max_dynamic_smem; /* the last cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) */
} cvmock_state;

typedef cvmock_state *(*cvmock_state_fn)(void);

#endif
