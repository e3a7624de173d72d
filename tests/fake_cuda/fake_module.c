/* Modules, functions and launches: PTX parsed with culvert's own parser (src/core/ptx.c; a module
 * with `not_an_instruction` fails to JIT, with a log), the functions' attributes from their
 * signatures, and launches recorded in the state (fake_cuda.h) instead of run, after the checks
 * the driver makes (grid and block limits, the dynamic shared memory opt-in, clusters). Loads
 * and unloads are device-wide calls, as the real driver's are: they wait until no stream is held
 * up by a wait or a host function. */
#include "fake_internal.h"

#include "core/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fake_function {
    const cv_ptx_kernel *sig;
    unsigned module;     /* its module's serial (launch records carry it) */
    unsigned generation; /* of its module: fake_generation when loaded */
    int max_dynamic_smem;
    int non_portable;
} fake_function;

typedef struct fake_module {
    unsigned generation; /* fake_generation when loaded */
    char *text;
    cv_ptx_module ptx;
    bool parsed;
    fake_function *functions; /* one per kernel */
    bool probe;               /* culvert's clock probe, not counted as a program's module */
} fake_module;

static void free_module(fake_module *m) {
    if (m->parsed)
        cv_ptx_free(&m->ptx);
    free(m->functions);
    free(m->text);
    free(m);
}

/* A JIT option's value (-1: not given). */
static int jit_option(unsigned n, const CUjit_option *keys, void **values, CUjit_option key) {
    for (unsigned i = 0; i < n; i++)
        if (keys[i] == key)
            return (int)(uintptr_t)values[i];
    return -1;
}

/* Writes a JIT log (CU_JIT_ERROR_LOG_BUFFER or CU_JIT_INFO_LOG_BUFFER), within its size. */
static void jit_log(unsigned n, const CUjit_option *keys, void **values, CUjit_option key,
                    const char *text) {
    CUjit_option size_key = key == CU_JIT_ERROR_LOG_BUFFER ? CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
                                                           : CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
    int size = jit_option(n, keys, values, size_key);
    for (unsigned i = 0; i < n && size > 0; i++)
        if (keys[i] == key)
            snprintf(values[i], (size_t)size, "%s", text);
}

/* What the JIT refuses in culvert's PTX. */
static CUresult check_module(const char *text, const cv_ptx_module *ptx) {
    /* CUDA's loader has been seen to refuse OpenCL-style `.ptr` parameter annotations (and
     * nvcc never writes them): culvert must have dropped them. */
    for (unsigned i = 0; i < ptx->num_kernels; i++)
        for (unsigned j = 0; j < ptx->kernels[i].num_params; j++)
            if (ptx->kernels[i].params[j].space != CV_PTX_NOT_PTR) {
                fprintf(stderr, "fake: a .ptr parameter annotation reached the loader\n");
                return CUDA_ERROR_INVALID_IMAGE;
            }
    /* The rewritten PTX must declare what its __local loads use. */
    if (strstr(text, "%cvsm") && !strstr(text, "__cv_dynamic_smem[]")) {
        fprintf(stderr, "fake: __local pointers without __cv_dynamic_smem\n");
        return CUDA_ERROR_INVALID_PTX;
    }
    return CUDA_SUCCESS;
}

static CUresult load(CUmodule *out, const char *text, unsigned n, CUjit_option *keys,
                     void **values) {
    CUresult sticky = fake_need_ctx();
    if (sticky)
        return sticky;
    if (strstr(text, "not_an_instruction")) {
        jit_log(n, keys, values, CU_JIT_ERROR_LOG_BUFFER,
                "ptxas application ptx input, line 5; error   : "
                "Unknown instruction 'not_an_instruction' (fake)");
        return CUDA_ERROR_INVALID_PTX;
    }
    fake_module *m = calloc(1, sizeof *m);
    if (!m || !(m->text = strdup(text))) {
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    char msg[256];
    m->parsed = cv_ptx_parse(m->text, strlen(m->text), &m->ptx, msg, sizeof msg) == CL_SUCCESS;
    if (!m->parsed) {
        fprintf(stderr, "fake: culvert handed the driver unparsable PTX: %s\n", msg);
        free_module(m);
        return CUDA_ERROR_INVALID_PTX;
    }
    m->functions = calloc(m->ptx.num_kernels + 1, sizeof *m->functions);
    CUresult r = m->functions ? check_module(text, &m->ptx) : CUDA_ERROR_OUT_OF_MEMORY;
    if (r) {
        free_module(m);
        return r;
    }
    m->generation = fake_generation;
    static _Atomic unsigned serial;
    unsigned module = atomic_fetch_add(&serial, 1) + 1;
    for (unsigned i = 0; i < m->ptx.num_kernels; i++)
        m->functions[i] = (fake_function){
            .sig = &m->ptx.kernels[i],
            .module = module,
            .generation = m->generation,
            .max_dynamic_smem = fake_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)};
    if (jit_option(n, keys, values, CU_JIT_LOG_VERBOSE) == 1)
        jit_log(n, keys, values, CU_JIT_INFO_LOG_BUFFER, "ptxas info    : fake verbose log");
    LOCK;
    fake_device_wide_wait();
    fake_state.jit_max_registers = jit_option(n, keys, values, CU_JIT_MAX_REGISTERS);
    fake_state.jit_opt_level = jit_option(n, keys, values, CU_JIT_OPTIMIZATION_LEVEL);
    fake_state.jit_target = jit_option(n, keys, values, CU_JIT_TARGET);
    fake_state.jit_verbose = jit_option(n, keys, values, CU_JIT_LOG_VERBOSE);
    /* culvert's clock probe (cuda/cu_ktime.c) is no program's: it stays for the process */
    m->probe = cv_ptx_find(&m->ptx, "__cv_clock_probe") != NULL;
    fake_state.modules_loaded += !m->probe;
    UNLOCK;
    *out = (CUmodule)m;
    return CUDA_SUCCESS;
}

/* A module or function of a context that was reset since: the test aborts. */
static void check_generation(unsigned generation, const char *what) {
    if (generation != fake_generation) {
        fprintf(stderr, "fake: %s used after the context was reset\n", what);
        abort();
    }
}

bool fake_launch_faults(const char *name) {
    const char *fault = getenv("FAKECUDA_FAULT_KERNEL");
    size_t n = fault ? strlen(fault) : 0;
    return fault && strncmp(fault, name, n) == 0 &&
           (name[n] == '\0' || strcmp(name + n, "__cv_timed") == 0);
}

CUresult fake_launch_check(CUfunction f, const unsigned grid[3], const unsigned block[3],
                           unsigned smem, void **params, const unsigned cluster[3]) {
    CUresult sticky = fake_need_ctx();
    if (sticky)
        return sticky;
    fake_function *fn = (fake_function *)f;
    check_generation(fn->generation, "a function");
    const cv_ptx_kernel *k = fn->sig;
    static const unsigned max_grid[3] = {2147483647u, 65535, 65535},
                          max_block[3] = {1024, 1024, 64};
    unsigned threads = block[0] * block[1] * block[2];
    for (int d = 0; d < 3; d++)
        if (!grid[d] || !block[d] || grid[d] > max_grid[d] || block[d] > max_block[d])
            return CUDA_ERROR_INVALID_VALUE;
    if (threads > (k->max_threads ? k->max_threads : 1024))
        return CUDA_ERROR_INVALID_VALUE;
    if ((int)smem > fn->max_dynamic_smem)
        return CUDA_ERROR_INVALID_VALUE;
    const unsigned *cd = cluster[0] ? cluster : k->cluster_dims;
    for (int d = 0; cd[0] && d < 3; d++)
        if (grid[d] % cd[d])
            return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    if (k->num_params && !params)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

void fake_launch_fill(fakecuda_launch *l, CUfunction f, const unsigned grid[3],
                      const unsigned block[3], unsigned smem, void **params,
                      const unsigned cluster[3], bool coop, bool ex) {
    const cv_ptx_kernel *k = ((fake_function *)f)->sig;
    memset(l, 0, sizeof *l);
    snprintf(l->func, sizeof l->func, "%s", k->name);
    l->module = ((fake_function *)f)->module;
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    memcpy(l->cluster, cluster, sizeof l->cluster);
    l->smem = smem;
    l->cooperative = coop;
    l->ex = ex;
    unsigned off = 0;
    for (unsigned i = 0; i < k->num_params && i < 16; i++) {
        unsigned size = k->params[i].size;
        if (off + size > FAKECUDA_PARAM_BYTES)
            break;
        l->param_offset[i] = off;
        memcpy(l->params + off, params[i], size);
        off += size;
        l->num_params = i + 1;
    }
}

void fake_launch_record(const fakecuda_launch *l) {
    if (fake_state.num_launches == FAKECUDA_MAX_LAUNCHES)
        fake_state.num_launches = 0; /* the records start again: the last is the latest */
    fake_state.launches[fake_state.num_launches++] = *l;
}

/* What the driver checks, then the record (and the run, for the kernels the fake runs); a launch
 * of FAKECUDA_FAULT_KERNEL faults once its stream reaches it and its stream time is up. */
static CUresult launch(CUstream s, CUfunction f, const unsigned grid[3], const unsigned block[3],
                       unsigned smem, void **params, const unsigned cluster[3], bool coop,
                       bool ex) {
    CUresult r = fake_launch_check(f, grid, block, smem, params, cluster);
    if (r != CUDA_SUCCESS)
        return r;
    const cv_ptx_kernel *k = ((fake_function *)f)->sig;
    /* culvert's clock probe and context check run without a record: tests see the launches of
     * programs */
    if (strcmp(k->name, "__cv_clock_probe") == 0 || strcmp(k->name, "__cv_context_check") == 0)
        return fake_kernel_run(s, k->name, k->num_params, NULL, params);
    fakecuda_launch l;
    fake_launch_fill(&l, f, grid, block, smem, params, cluster, coop, ex);
    LOCK;
    fake_launch_record(&l);
    UNLOCK;
    if (fake_launch_faults(k->name)) {
        r = fake_kernel_time(s);
        return r ? r : fake_enqueue(s, (fake_op){.kind = OP_FAULT});
    }
    return fake_kernel_run(s, k->name, k->num_params,
                           k->num_params ? k->params[k->num_params - 1].name : NULL, params);
}

#pragma GCC visibility push(default)

CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned n, CUjit_option *keys,
                            void **values) {
    FAKE_CALL;
    return load(out, image, n, keys, values);
}

/* Not culvert's (it passes JIT options): bench/latency_probe's, so that it runs here too. */
CUresult cuModuleLoadData(CUmodule *out, const void *image);
CUresult cuModuleLoadData(CUmodule *out, const void *image) {
    FAKE_CALL;
    return load(out, image, 0, NULL, NULL);
}

CUresult cuModuleUnload(CUmodule mod) {
    FAKE_CALL;
    check_generation(((fake_module *)mod)->generation, "a module");
    LOCK;
    fake_device_wide_wait();
    fake_state.modules_unloaded += !((fake_module *)mod)->probe;
    UNLOCK;
    free_module((fake_module *)mod);
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name) {
    FAKE_CALL;
    fake_module *m = (fake_module *)mod;
    const cv_ptx_kernel *k = cv_ptx_find(&m->ptx, name);
    if (!k)
        return CUDA_ERROR_NOT_FOUND;
    *f = (CUfunction)&m->functions[k - m->ptx.kernels];
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f) {
    FAKE_CALL;
    fake_function *fn = (fake_function *)f;
    switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
        *v = fn->sig->max_threads ? (int)fn->sig->max_threads : 1024;
        break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
        *v = 32;
        break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        *v = fn->max_dynamic_smem;
        break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        *v = (int)fn->sig->cluster_dims[a - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH];
        break;
    default:
        *v = 0;
        break;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
    FAKE_CALL;
    fake_function *fn = (fake_function *)f;
    if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        if (v > fake_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN))
            return CUDA_ERROR_INVALID_VALUE;
        fn->max_dynamic_smem = v;
        fake_state.last_max_dynamic_smem = v;
    } else if (a == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED) {
        fn->non_portable = v;
    }
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f,
                                          CUoccupancyB2DSize fn, size_t smem, int limit) {
    FAKE_CALL;
    (void)f;
    (void)fn;
    (void)smem;
    (void)limit;
    *min_grid = fake_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    *block = 768; /* not a power of two: culvert must find divisors */
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction f, int threads,
                                                     size_t smem) {
    FAKE_CALL;
    (void)f;
    (void)smem;
    int set = fake_state.blocks_per_sm, fit = threads > 0 ? 2048 / threads : 0;
    *blocks = set ? set : fit < 32 ? fit : 32;
    return threads > 0 && threads <= 1024 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
    FAKE_CALL;
    (void)extra;
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz}, none[3] = {0, 0, 0};
    return launch(s, f, grid, block, smem, params, none, false, false);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned smem, CUstream s,
                                   void **params) {
    FAKE_CALL;
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz}, none[3] = {0, 0, 0};
    return launch(s, f, grid, block, smem, params, none, true, false);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra) {
    FAKE_CALL;
    (void)extra;
    const unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
    const unsigned block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
    unsigned cluster[3] = {0, 0, 0};
    bool coop = false;
    for (unsigned i = 0; i < c->numAttrs; i++) {
        if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            cluster[0] = c->attrs[i].value.clusterDim.x;
            cluster[1] = c->attrs[i].value.clusterDim.y;
            cluster[2] = c->attrs[i].value.clusterDim.z;
        } else if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
            coop = c->attrs[i].value.cooperative != 0;
        }
    }
    return launch(c->hStream, f, grid, block, c->sharedMemBytes, params, cluster, coop, true);
}

#pragma GCC visibility pop
