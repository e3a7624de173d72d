#include "core/backend.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"
#include "cuda/cu_memory.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CVCU_MODULE(m)   ((CUmodule)(m))
#define CVCU_FUNCTION(f) ((CUfunction)(f))
#define CVCU_LOG_SIZE    (64 * 1024)

cl_int cvcu_module_load(const void *image, const cvcu_jit_options *opts, cvcu_module **out,
                        char **log) {
    char *info = calloc(1, CVCU_LOG_SIZE), *error = calloc(1, CVCU_LOG_SIZE);
    CUjit_option keys[8];
    void *values[8];
    unsigned n = 0;
    cl_int err = CL_SUCCESS;
    *out = NULL;
    *log = NULL;
    if (!info || !error)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS) {
        keys[n] = CU_JIT_INFO_LOG_BUFFER;
        values[n++] = info;
        keys[n] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
        values[n++] = (void *)(uintptr_t)(CVCU_LOG_SIZE - 1);
        keys[n] = CU_JIT_ERROR_LOG_BUFFER;
        values[n++] = error;
        keys[n] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
        values[n++] = (void *)(uintptr_t)(CVCU_LOG_SIZE - 1);
        if (opts->verbose) {
            keys[n] = CU_JIT_LOG_VERBOSE;
            values[n++] = (void *)(uintptr_t)1;
        }
        if (opts->max_registers > 0) {
            keys[n] = CU_JIT_MAX_REGISTERS;
            values[n++] = (void *)(uintptr_t)(unsigned)opts->max_registers;
        }
        if (opts->opt_level >= 0) {
            keys[n] = CU_JIT_OPTIMIZATION_LEVEL;
            values[n++] = (void *)(uintptr_t)(unsigned)opts->opt_level;
        }
        if (opts->target > 0) {
            keys[n] = CU_JIT_TARGET;
            values[n++] = (void *)(uintptr_t)(unsigned)opts->target;
        }
        CUmodule m = NULL;
        CUresult r = cvcu.cuModuleLoadDataEx(&m, image, n, keys, values);
        /* The image was read: a refusal is the program's fault, so it is a build failure
         * (or an invalid binary), never a device error. */
        if (r == CUDA_ERROR_OUT_OF_MEMORY)
            err = cvcu_error(r, CL_OUT_OF_RESOURCES, "cuModuleLoadDataEx");
        else if (r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU)
            err = cvcu_error(r, CL_INVALID_BINARY, "cuModuleLoadDataEx");
        else if (r == CUDA_ERROR_JIT_COMPILER_NOT_FOUND || r == CUDA_ERROR_JIT_COMPILATION_DISABLED)
            err = cvcu_error(r, CL_COMPILER_NOT_AVAILABLE, "cuModuleLoadDataEx");
        else if (r != CUDA_SUCCESS) {
            cvcu_error(r, CL_BUILD_PROGRAM_FAILURE, "cuModuleLoadDataEx");
            err = CL_BUILD_PROGRAM_FAILURE;
            if (!error[0]) {
                const char *name = "?", *what = "";
                cvcu.cuGetErrorName(r, &name);
                cvcu.cuGetErrorString(r, &what);
                snprintf(error, CVCU_LOG_SIZE, "cuModuleLoadDataEx: %s: %s\n", name, what);
            }
        }
        *out = (cvcu_module *)m;
    }
    if (err != CL_OUT_OF_HOST_MEMORY) {
        size_t le = strlen(error), li = strlen(info);
        *log = malloc(le + li + 2);
        if (*log) {
            memcpy(*log, error, le);
            (*log)[le] = '\0';
            if (le && li && error[le - 1] != '\n')
                strcat(*log, "\n");
            strcat(*log, info);
        }
    }
    free(info);
    free(error);
    return err;
}

cl_int cvcu_module_load_unblocked(const void *image, const cvcu_jit_options *opts,
                                  cvcu_module **out, char **log, bool *later) {
    static const _Atomic bool now_or_never = true;
    cl_int err = CL_SUCCESS;
    *out = NULL;
    *log = NULL;
    *later = !cvcu_gates_quiet_begin(&now_or_never);
    if (!*later) {
        err = cvcu_module_load(image, opts, out, log);
        cvcu_gates_quiet_end();
    }
    return err;
}

void cvcu_module_unload(cvcu_module *m) {
    /* Waits for the device, like the frees: not while a gate is closed (cu_gates.c). */
    cvcu_module_unload_later(m);
}

cl_int cvcu_module_function(cvcu_module *m, const char *name, cvcu_function **out) {
    CUfunction f = NULL;
    cl_int err =
        CVCU_CALL(cvcu.cuModuleGetFunction(&f, CVCU_MODULE(m), name), CL_INVALID_KERNEL_NAME);
    *out = (cvcu_function *)f;
    return err;
}

cl_int cvcu_module_function_names(cvcu_module *m, char ***names, unsigned *count) {
    cl_int err = CL_SUCCESS;
    unsigned n = 0;
    CUfunction *fs = NULL;
    *names = NULL;
    *count = 0;
    if (!cvcu.cuModuleGetFunctionCount || !cvcu.cuModuleEnumerateFunctions || !cvcu.cuFuncGetName)
        err = CL_INVALID_OPERATION;
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuModuleGetFunctionCount(&n, CVCU_MODULE(m)), CL_INVALID_BINARY);
    if (err == CL_SUCCESS && n) {
        fs = calloc(n, sizeof *fs);
        *names = calloc(n, sizeof **names);
        err = fs && *names ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS && n)
        err = CVCU_CALL(cvcu.cuModuleEnumerateFunctions(fs, n, CVCU_MODULE(m)), CL_INVALID_BINARY);
    for (unsigned i = 0; err == CL_SUCCESS && i < n; i++) {
        const char *name = NULL;
        err = CVCU_CALL(cvcu.cuFuncGetName(&name, fs[i]), CL_INVALID_BINARY);
        if (err == CL_SUCCESS) {
            (*names)[i] = strdup(name ? name : "");
            err = (*names)[i] ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        }
        *count = i + 1;
    }
    free(fs);
    if (err != CL_SUCCESS) {
        for (unsigned i = 0; *names && i < *count; i++)
            free((*names)[i]);
        free(*names);
        *names = NULL;
        *count = 0;
    }
    return err;
}

cl_int cvcu_function_param(cvcu_function *f, unsigned index, size_t *offset, size_t *size) {
    if (!cvcu.cuFuncGetParamInfo)
        return CL_INVALID_OPERATION;
    CUresult r = cvcu.cuFuncGetParamInfo(CVCU_FUNCTION(f), index, offset, size);
    /* CUDA_ERROR_INVALID_VALUE past the last parameter: the caller's way to count them. */
    return r == CUDA_SUCCESS ? CL_SUCCESS : CL_INVALID_ARG_INDEX;
}

cl_int cvcu_function_attrs(cvcu_function *f, cvcu_func_attrs *out) {
    static const struct {
        CUfunction_attribute attr;
        size_t offset;
    } attrs[] = {
        {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, offsetof(cvcu_func_attrs, max_threads)},
        {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, offsetof(cvcu_func_attrs, static_smem)},
        {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, offsetof(cvcu_func_attrs, local_bytes)},
        {CU_FUNC_ATTRIBUTE_NUM_REGS, offsetof(cvcu_func_attrs, num_regs)},
        {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
         offsetof(cvcu_func_attrs, max_dynamic_smem)},
    };
    static const CUfunction_attribute cluster[3] = {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
                                                    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
                                                    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH};
    cl_int err = CL_SUCCESS;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; err == CL_SUCCESS && i < sizeof attrs / sizeof attrs[0]; i++)
        err = CVCU_CALL(cvcu.cuFuncGetAttribute((int *)((char *)out + attrs[i].offset),
                                                attrs[i].attr, CVCU_FUNCTION(f)),
                        CL_OUT_OF_RESOURCES);
    /* Only sm_90 and later know clusters: a refusal means none. */
    for (int i = 0; err == CL_SUCCESS && i < 3; i++)
        if (cvcu.cuFuncGetAttribute(&out->cluster[i], cluster[i], CVCU_FUNCTION(f)) != CUDA_SUCCESS)
            out->cluster[i] = 0;
    return err;
}

cl_int cvcu_function_set_max_dynamic_smem(cvcu_function *f, int bytes) {
    return CVCU_CALL(cvcu.cuFuncSetAttribute(
                         CVCU_FUNCTION(f), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
                     CL_OUT_OF_RESOURCES);
}

cl_int cvcu_function_allow_large_clusters(cvcu_function *f) {
    return CVCU_CALL(cvcu.cuFuncSetAttribute(
                         CVCU_FUNCTION(f), CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
                     CL_INVALID_VALUE);
}
