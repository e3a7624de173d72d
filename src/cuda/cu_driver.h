/* The CUDA driver API, loaded at run time: libcuda.so.1 is dlopen'ed, never linked, so culvert
 * loads (and reports no devices) on a machine without the NVIDIA driver. Only src/cuda includes
 * this header. */
#ifndef CV_CUDA_DRIVER_H
#define CV_CUDA_DRIVER_H

#include <cuda.h>
#include <stdbool.h>

#include "util/cl_headers.h"

/* cuCtxCreate's form of every driver since CUDA 4.0 (cuda.h of CUDA 13 declares only _v4, whose
 * creation parameters culvert does not need). */
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);

typedef struct cvcu_driver {
#define CU_SYM(name)          __typeof__(name) *name;
#define CU_SYM_OPTIONAL(name) CU_SYM(name)
#include "cuda/cu_symbols.def"
#undef CU_SYM
#undef CU_SYM_OPTIONAL
} cvcu_driver;

/* The loaded symbol table; valid once cvcu_load() returned true. */
extern cvcu_driver cvcu;

/* Loads libcuda and runs cuInit once. False (with the reason logged) when there is no driver. */
bool cvcu_load(void);
/* Why cvcu_load() failed, for logs. */
const char *cvcu_load_error(void);

/* CUresult -> cl_int, from one table. `fallback` is returned for results the table does not
 * name (callers pass the spec error that fits the operation). Logs the failure. */
cl_int cvcu_error(CUresult r, cl_int fallback, const char *what);

/* Evaluates a driver call; on failure converts, logs and yields the cl_int. */
#define CVCU_CALL(call, fallback) cvcu_error((call), (fallback), #call)

#endif
