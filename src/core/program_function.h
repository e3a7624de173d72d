/* A kernel function of a built module, shared by every cl_kernel made from it: the backend's
 * function and what the backend says of it. Core-private, as it holds backend values: src/api sees
 * cv_program_function only as an incomplete type (core/program.h). */
#ifndef CV_CORE_PROGRAM_FUNCTION_H
#define CV_CORE_PROGRAM_FUNCTION_H

#include "core/backend.h"
#include "core/program.h"

struct cv_program_function {
    const cv_ptx_kernel *sig; /* parameters and metadata (in the device's cv_ptx_module) */
    cvcu_function *func;
    cvcu_func_attrs attrs;
    /* The dynamic shared memory limit opted into so far (cuFuncSetAttribute once per raise). */
    _Atomic int smem_optin;
    /* Cached occupancy answer for a NULL local size: (smem << 16) | block, 0 when none. */
    _Atomic uint64_t default_block;
    /* Its module calls CUDA's vprintf: the driver prints the output at synchronizations only,
     * so waits on the queue synchronize once the work is done (core/queue.c). */
    bool prints;
    /* The timed twin (core/ptx_timing.h) that profiling queues launch, NULL where the entry has
     * none; its attributes and dynamic shared memory opt-in, as the entry's. */
    cvcu_function *timed;
    cvcu_func_attrs timed_attrs;
    _Atomic int timed_smem_optin;
};

#endif
