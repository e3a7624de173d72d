/* A stand-in libcuda.so.1 for tests without a GPU (tests/mock): one device shaped like an H100,
 * modules parsed with culvert's PTX parser, launches recorded instead of run. The test reads
 * the records through cvmock_state(), looked up with dlsym. */
#ifndef CV_TEST_CUDA_MOCK_H
#define CV_TEST_CUDA_MOCK_H

#include <dlfcn.h>
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
    /* the last cuStreamWaitValue64 (address, value, stream) and cuStreamWaitEvent (stream,
     * event) of a counting thread (cvmock_calls_begin) */
    unsigned long long wait_value_addr, wait_value;
    void *wait_value_stream, *wait_event_stream, *wait_event;
} cvmock_state;

typedef cvmock_state *(*cvmock_state_fn)(void);

/* A function of the mock in the libcuda.so.1 the process finds; NULL when that is another
 * driver (LD_LIBRARY_PATH does not lead to the mock). */
static inline void *cvmock_fn(const char *name) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    return lib ? dlsym(lib, name) : NULL;
}

/* Call counting (cvmock_calls_*, looked up with dlsym): the driver calls the calling thread makes
 * between begin and end are counted per function name (the tracker's and other threads' calls are
 * not), so a test can hold culvert's enqueue and wait paths to a number of CUDA calls. */
typedef void (*cvmock_calls_begin_fn)(void);
typedef void (*cvmock_calls_end_fn)(void);
/* Calls of `name` (as culvert names it: "cuMemHostGetDevicePointer", not the _v2) counted since
 * the last begin; NULL: all calls. */
typedef unsigned long (*cvmock_calls_fn)(const char *name);
/* While true, event and stream queries answer CUDA_ERROR_NOT_READY (work still running). */
typedef void (*cvmock_set_pending_fn)(bool pending);

#endif
