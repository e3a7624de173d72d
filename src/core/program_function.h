/* A kernel function of a built module, shared by every cl_kernel made from it: the backend's
 * function and what the backend says of it. Core-private, as it holds backend values: src/api sees
 * cv_program_function only as an incomplete type (core/program.h). */
#ifndef CV_CORE_PROGRAM_FUNCTION_H
#define CV_CORE_PROGRAM_FUNCTION_H

#include "core/backend.h"
#include "core/program.h"

#include <pthread.h>

/* The timed twins of a module's entries (core/ptx_timing.h) in a module of their own, which the
 * first launch on a profiling queue that can run one loads: a program that no profiling queue
 * runs never pays the JIT for them (about as much as for its entries). A module with program-scope
 * variables keeps its twins beside its entries instead (one copy of each variable). */
typedef struct cv_program_twins {
    pthread_mutex_t lock;
    _Atomic bool tried; /* the load was tried: each function's timed is final */
    char *text;         /* the entries' PTX as loaded, until the twins' text is made */
    char *alone;        /* the twins' module text (made once), until tried */
    struct cv_ptx_timing_stats *stats; /* what making it found, until tried */
    cvcu_jit_options jit;              /* the entries' */
    cl_device_id device;
    struct cvcu_module *module; /* NULL until loaded, or where the driver refused it */
    cv_program_function *functions;
    uint32_t num_functions;
    /* The textured variant of the module with its own timed twins (core/ptx_textured.h), made
     * where the module has image sampling to stub out, loaded by the first launch that can run
     * it. Its functions are in the order of functions (NULL: not loaded, or refused). */
    bool has_textured; /* set once at creation */
    _Atomic bool textured_tried;
    char *textured_text;                        /* until loaded */
    struct cv_ptx_timing_stats *textured_stats; /* its twins, until loaded */
    struct cvcu_module *textured_module;
    cv_program_function *textured;
} cv_program_twins;

struct cv_program_function {
    const cv_ptx_kernel *sig; /* parameters and metadata (in the device's cv_ptx_module) */
    cvcu_function *func;
    cvcu_func_attrs attrs;
    /* The dynamic shared memory limit opted into so far (cuFuncSetAttribute once per raise). */
    _Atomic int smem_optin;
    /* Cached occupancy answer for a NULL local size: (smem << 16) | block, 0 when none. */
    _Atomic uint64_t default_block;
    /* Cached occupancy answer for kernel timing's choice (core/kernel_enqueue.c):
     * (dynamic shared memory << 20) | (block size << 8) | blocks per multiprocessor; 0: none. */
    _Atomic uint64_t residency;
    /* Its module calls CUDA's vprintf: the driver prints the output at synchronizations only,
     * so waits on the queue synchronize once the work is done (core/queue.c). */
    bool prints;
    /* The timed twin (core/ptx_timing.h) that profiling queues launch, NULL where the entry has
     * none; its attributes and dynamic shared memory opt-in, as the entry's. */
    cvcu_function *timed;
    cvcu_func_attrs timed_attrs;
    _Atomic int timed_smem_optin;
    cv_program_twins *twins; /* the module's twins where they are apart, else NULL */
};

/* f's timed twin, NULL where it has none: loads the twins' module on first use (thread-safe). */
cvcu_function *cv_program_function_timed(cv_program_function *f);
/* f's textured variant (core/ptx_textured.h), NULL where there is none: loads the variant's
 * module on first use (thread-safe). */
cv_program_function *cv_program_function_textured(cv_program_function *f);
/* Unloads and frees what cv_program_load made of the twins (NULL: nothing). */
void cv_program_twins_free(cv_program_twins *t);

#endif
