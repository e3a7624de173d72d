/* Modules and functions: cuModuleLoadDataEx with JIT options (its logs are the build log),
 * cuModuleGetFunction, cuFuncGetAttribute/SetAttribute. The handles are the CUDA handles. */
#ifndef CV_CUDA_MODULE_H
#define CV_CUDA_MODULE_H

#include "util/cl_headers.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct cvcu_module cvcu_module;
typedef struct cvcu_function cvcu_function;

typedef struct cvcu_jit_options {
    int max_registers; /* 0: the JIT's choice (-cl-nv-maxrregcount) */
    int opt_level;     /* 0..4, or -1: the default (-cl-nv-opt-level) */
    bool verbose;      /* -cl-nv-verbose: the JIT's info log (registers, spills) */
    int target;        /* compute capability as major*10+minor for CU_JIT_TARGET; 0: none */
} cvcu_jit_options;

/* Loads a module (PTX text, 0-terminated, or a cubin/fatbin image) into the current context.
 * *log receives the JIT's error and info logs (malloc'ed, possibly empty; NULL when out of
 * memory). CL_BUILD_PROGRAM_FAILURE / CL_INVALID_BINARY when the driver refuses the image. */
cl_int cvcu_module_load(const void *image, const cvcu_jit_options *opts, cvcu_module **out,
                        char **log);
void cvcu_module_unload(cvcu_module *m);
/* CL_INVALID_KERNEL_NAME when the module has no such function. */
cl_int cvcu_module_function(cvcu_module *m, const char *name, cvcu_function **out);
/* Functions of a module (cubin/fatbin without PTX to read): names, malloc'ed array of strdup'ed
 * names. CL_INVALID_OPERATION when the driver cannot enumerate (before CUDA 12.4). */
cl_int cvcu_module_function_names(cvcu_module *m, char ***names, unsigned *count);
/* Parameter offsets and sizes of a function (CUDA 12.4+); CL_INVALID_OPERATION otherwise. */
cl_int cvcu_function_param(cvcu_function *f, unsigned index, size_t *offset, size_t *size);

typedef struct cvcu_func_attrs {
    int max_threads; /* per block, for this function */
    int static_smem; /* bytes of static shared memory */
    int local_bytes; /* per-thread local (private) memory */
    int num_regs;
    int max_dynamic_smem; /* current opt-in limit */
    int cluster[3];       /* compile-time cluster dimensions, 0 when none */
} cvcu_func_attrs;

cl_int cvcu_function_attrs(cvcu_function *f, cvcu_func_attrs *out);
/* Raises the function's dynamic shared memory limit (the opt-in past 48 KiB). */
cl_int cvcu_function_set_max_dynamic_smem(cvcu_function *f, int bytes);
/* Allows cluster sizes past the portable 8 blocks. */
cl_int cvcu_function_allow_large_clusters(cvcu_function *f);

#endif
