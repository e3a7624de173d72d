/* The driver functions whose answers matter to culvert's program and kernel paths: an H100's
 * attributes, modules (PTX parsed with culvert's parser: a module with `not_an_instruction`
 * fails to JIT, with a log), functions and their attributes, and recorded launches that check
 * what the driver checks (grid and block limits, dynamic shared memory opt-in, clusters); a
 * current context per thread, distinct stream and event handles, queries that answer complete
 * (or not ready: cvmock_set_pending), pinned host memory the device sees at its host address;
 * every call counted for the thread that asked (cvmock_calls_begin). */
#include "cuda_mock.h"

#include "core/ptx.h"

#include <cuda.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CVMOCK_EXPORT __attribute__((visibility("default")))

static cvmock_state state = {.jit_max_registers = -1, .jit_opt_level = -1, .jit_target = -1};

/* ---- call counting: the calls of the thread between cvmock_calls_begin and _end */
#define CVMOCK_MAX_NAMES 128
static struct {
    const char *name;
    unsigned long n;
} counts[CVMOCK_MAX_NAMES];
static unsigned num_counts;
static __thread bool counting;

void cvmock_count(const char *name);
void cvmock_count(const char *name) {
    if (!counting)
        return;
    unsigned i = 0;
    while (i < num_counts && strcmp(counts[i].name, name) != 0)
        i++;
    if (i == num_counts && num_counts < CVMOCK_MAX_NAMES)
        counts[num_counts++].name = name;
    if (i < num_counts)
        counts[i].n++;
}

CVMOCK_EXPORT void cvmock_calls_begin(void);
void cvmock_calls_begin(void) {
    for (unsigned i = 0; i < num_counts; i++)
        counts[i].n = 0;
    counting = true;
}

CVMOCK_EXPORT void cvmock_calls_end(void);
void cvmock_calls_end(void) {
    counting = false;
}

CVMOCK_EXPORT unsigned long cvmock_calls(const char *name);
unsigned long cvmock_calls(const char *name) {
    unsigned long n = 0;
    for (unsigned i = 0; i < num_counts; i++)
        if (!name || strcmp(counts[i].name, name) == 0)
            n += counts[i].n;
    return n;
}

/* ---- contexts, streams, events, pinned memory: distinct handles, queries that answer */
static _Atomic bool pending;
static int the_ctx;
static __thread CUcontext current;

CVMOCK_EXPORT void cvmock_set_pending(bool p);
void cvmock_set_pending(bool p) {
    pending = p;
}

CVMOCK_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) {
    cvmock_count("cuDevicePrimaryCtxRetain");
    *ctx = d == 0 ? (CUcontext)&the_ctx : NULL;
    return d == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CVMOCK_EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx) {
    cvmock_count("cuCtxGetCurrent");
    *ctx = current;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
    cvmock_count("cuCtxSetCurrent");
    current = ctx;
    return CUDA_SUCCESS;
}

/* A distinct handle (streams and events carry nothing here). */
static CUresult mock_handle(void **out) {
    *out = calloc(1, 64);
    return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CVMOCK_EXPORT CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority) {
    cvmock_count("cuStreamCreateWithPriority");
    (void)flags;
    (void)priority;
    return mock_handle((void **)s);
}

CVMOCK_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags) {
    cvmock_count("cuStreamCreate");
    (void)flags;
    return mock_handle((void **)s);
}

CVMOCK_EXPORT CUresult cuStreamDestroy(CUstream s) {
    cvmock_count("cuStreamDestroy");
    free(s);
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuStreamGetCtx(CUstream s, CUcontext *ctx) {
    cvmock_count("cuStreamGetCtx");
    (void)s;
    *ctx = (CUcontext)&the_ctx;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuStreamQuery(CUstream s) {
    cvmock_count("cuStreamQuery");
    (void)s;
    return pending ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags) {
    cvmock_count("cuEventCreate");
    (void)flags;
    return mock_handle((void **)e);
}

CVMOCK_EXPORT CUresult cuEventDestroy(CUevent e) {
    cvmock_count("cuEventDestroy");
    free(e);
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuEventQuery(CUevent e) {
    cvmock_count("cuEventQuery");
    (void)e;
    return pending ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuMemHostAlloc(void **p, size_t size, unsigned flags) {
    cvmock_count("cuMemHostAlloc");
    (void)flags;
    *p = calloc(1, size);
    return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CVMOCK_EXPORT CUresult cuMemFreeHost(void *p) {
    cvmock_count("cuMemFreeHost");
    free(p);
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuStreamWaitValue64(CUstream s, CUdeviceptr addr, cuuint64_t value,
                                           unsigned flags) {
    cvmock_count("cuStreamWaitValue64");
    (void)flags;
    if (counting) { /* the test's thread: culvert's tracker makes none of these */
        state.wait_value_addr = addr;
        state.wait_value = value;
        state.wait_value_stream = s;
    }
    return CUDA_SUCCESS;
}

/* Streams run nothing: the write happens at once (a host address: pinned memory). */
CVMOCK_EXPORT CUresult cuStreamWriteValue64(CUstream s, CUdeviceptr addr, cuuint64_t value,
                                            unsigned flags) {
    cvmock_count("cuStreamWriteValue64");
    (void)s;
    (void)flags;
    __atomic_store_n((cuuint64_t *)(uintptr_t)addr, value, __ATOMIC_RELEASE);
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
    cvmock_count("cuStreamWaitEvent");
    (void)flags;
    if (counting) {
        state.wait_event_stream = s;
        state.wait_event = e;
    }
    return CUDA_SUCCESS;
}

/* Mapped pinned memory: the device sees it at the host address (unified addressing). */
CVMOCK_EXPORT CUresult cuMemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned flags) {
    cvmock_count("cuMemHostGetDevicePointer");
    (void)flags;
    *d = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT cvmock_state *cvmock_state_get(void);
cvmock_state *cvmock_state_get(void) {
    return &state;
}

typedef struct mock_module {
    char *text;
    cv_ptx_module ptx;
} mock_module;

typedef struct mock_function {
    const cv_ptx_kernel *sig;
    int max_dynamic_smem;
    int non_portable;
} mock_function;

CVMOCK_EXPORT CUresult cuInit(unsigned flags) {
    cvmock_count("cuInit");
    (void)flags;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuDriverGetVersion(int *v) {
    cvmock_count("cuDriverGetVersion");
    *v = 13000;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuGetErrorName(CUresult r, const char **s) {
    cvmock_count("cuGetErrorName");
    (void)r;
    *s = "CUDA_ERROR_MOCK";
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuGetErrorString(CUresult r, const char **s) {
    cvmock_count("cuGetErrorString");
    (void)r;
    *s = "mock error";
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuDeviceGetCount(int *n) {
    cvmock_count("cuDeviceGetCount");
    *n = 1;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    cvmock_count("cuDeviceGet");
    *d = ordinal;
    return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CVMOCK_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    cvmock_count("cuDeviceGetName");
    (void)d;
    snprintf(name, (size_t)len, "Mock H100 (culvert tests)");
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuDeviceTotalMem(size_t *bytes, CUdevice d) {
    cvmock_count("cuDeviceTotalMem");
    (void)d;
    *bytes = (size_t)80 << 30;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuMemGetInfo(size_t *free_bytes, size_t *total) {
    cvmock_count("cuMemGetInfo");
    *free_bytes = (size_t)79 << 30;
    *total = (size_t)80 << 30;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    cvmock_count("cuDeviceGetAttribute");
    (void)d;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
        *v = 1024;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
        *v = 64;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
        *v = 2147483647;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
        *v = 65535;
        break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
        *v = 32;
        break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
        *v = 132;
        break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
        *v = 9;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
        *v = 48 * 1024;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        *v = 227 * 1024;
        break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
        *v = 1980000;
        break;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
        *v = 1;
        break;
    default:
        *v = 0;
        break;
    }
    return CUDA_SUCCESS;
}

/* Reads a JIT option's value. */
static int mock_option(unsigned n, const CUjit_option *keys, void **values, CUjit_option key) {
    for (unsigned i = 0; i < n; i++)
        if (keys[i] == key)
            return (int)(uintptr_t)values[i];
    return -1;
}

CVMOCK_EXPORT CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned n,
                                          CUjit_option *keys, void **values) {
    cvmock_count("cuModuleLoadDataEx");
    state.jit_max_registers = mock_option(n, keys, values, CU_JIT_MAX_REGISTERS);
    state.jit_opt_level = mock_option(n, keys, values, CU_JIT_OPTIMIZATION_LEVEL);
    state.jit_target = mock_option(n, keys, values, CU_JIT_TARGET);
    state.jit_verbose = mock_option(n, keys, values, CU_JIT_LOG_VERBOSE);
    const char *text = image;
    if (strstr(text, "not_an_instruction")) {
        for (unsigned i = 0; i < n; i++)
            if (keys[i] == CU_JIT_ERROR_LOG_BUFFER)
                snprintf(values[i], 256,
                         "ptxas application ptx input, line 5; error   : "
                         "Unknown instruction 'not_an_instruction' (mock)");
        return CUDA_ERROR_INVALID_PTX;
    }
    mock_module *m = calloc(1, sizeof *m);
    m->text = strdup(text);
    char msg[256];
    if (cv_ptx_parse(m->text, strlen(m->text), &m->ptx, msg, sizeof msg) != CL_SUCCESS) {
        fprintf(stderr, "mock: culvert handed the driver unparsable PTX: %s\n", msg);
        free(m->text);
        free(m);
        return CUDA_ERROR_INVALID_PTX;
    }
    /* CUDA's loader has been seen to refuse OpenCL-style `.ptr` parameter annotations (and
     * nvcc never writes them): culvert must have dropped them. */
    for (unsigned i = 0; i < m->ptx.num_kernels; i++)
        for (unsigned j = 0; j < m->ptx.kernels[i].num_params; j++)
            if (m->ptx.kernels[i].params[j].space != CV_PTX_NOT_PTR) {
                fprintf(stderr, "mock: a .ptr parameter annotation reached the loader\n");
                return CUDA_ERROR_INVALID_IMAGE;
            }
    /* The rewritten PTX must declare what its __local loads use. */
    if (strstr(text, "%cvsm") && !strstr(text, "__cv_dynamic_smem[]")) {
        fprintf(stderr, "mock: __local pointers without __cv_dynamic_smem\n");
        return CUDA_ERROR_INVALID_PTX;
    }
    for (unsigned i = 0; i < n; i++)
        if (keys[i] == CU_JIT_INFO_LOG_BUFFER &&
            mock_option(n, keys, values, CU_JIT_LOG_VERBOSE) == 1)
            snprintf(values[i], 128, "ptxas info    : mock verbose log");
    state.modules_loaded++;
    *out = (CUmodule)m;
    return CUDA_SUCCESS;
}

/* Not culvert's (it passes JIT options): bench/latency_probe's, so that it runs here too. */
CVMOCK_EXPORT CUresult cuModuleLoadData(CUmodule *out, const void *image) {
    return cuModuleLoadDataEx(out, image, 0, NULL, NULL);
}

CVMOCK_EXPORT CUresult cuModuleUnload(CUmodule mod) {
    cvmock_count("cuModuleUnload");
    mock_module *m = (mock_module *)mod;
    state.modules_unloaded++;
    cv_ptx_free(&m->ptx);
    free(m->text);
    free(m);
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name) {
    cvmock_count("cuModuleGetFunction");
    mock_module *m = (mock_module *)mod;
    const cv_ptx_kernel *k = cv_ptx_find(&m->ptx, name);
    if (!k)
        return CUDA_ERROR_NOT_FOUND;
    mock_function *fn = calloc(1, sizeof *fn); /* leaked with the module: a test's lifetime */
    fn->sig = k;
    fn->max_dynamic_smem = 48 * 1024;
    *f = (CUfunction)fn;
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f) {
    cvmock_count("cuFuncGetAttribute");
    mock_function *fn = (mock_function *)f;
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

CVMOCK_EXPORT CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
    cvmock_count("cuFuncSetAttribute");
    mock_function *fn = (mock_function *)f;
    if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        if (v > 227 * 1024)
            return CUDA_ERROR_INVALID_VALUE;
        fn->max_dynamic_smem = v;
        state.last_max_dynamic_smem = v;
    } else if (a == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED) {
        fn->non_portable = v;
    }
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f,
                                                        CUoccupancyB2DSize fn, size_t smem,
                                                        int limit) {
    cvmock_count("cuOccupancyMaxPotentialBlockSize");
    (void)f;
    (void)fn;
    (void)smem;
    (void)limit;
    *min_grid = 132;
    *block = 768; /* not a power of two: culvert must find divisors */
    return CUDA_SUCCESS;
}

/* What the driver checks, then the record. */
static CUresult mock_launch(CUfunction f, const unsigned grid[3], const unsigned block[3],
                            unsigned smem, void **params, const unsigned cluster[3], bool coop,
                            bool ex) {
    mock_function *fn = (mock_function *)f;
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
    if (state.num_launches == CVMOCK_MAX_LAUNCHES)
        return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    cvmock_launch *l = &state.launches[state.num_launches++];
    memset(l, 0, sizeof *l);
    snprintf(l->func, sizeof l->func, "%s", k->name);
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    memcpy(l->cluster, cluster, sizeof l->cluster);
    l->smem = smem;
    l->cooperative = coop;
    l->ex = ex;
    unsigned off = 0;
    for (unsigned i = 0; i < k->num_params && i < 16; i++) {
        unsigned size = k->params[i].size;
        if (off + size > CVMOCK_PARAM_BYTES)
            break;
        l->param_offset[i] = off;
        memcpy(l->params + off, params[i], size);
        off += size;
        l->num_params = i + 1;
    }
    return CUDA_SUCCESS;
}

CVMOCK_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                      unsigned bx, unsigned by, unsigned bz, unsigned smem,
                                      CUstream s, void **params, void **extra) {
    cvmock_count("cuLaunchKernel");
    (void)s;
    (void)extra;
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz}, none[3] = {0, 0, 0};
    return mock_launch(f, grid, block, smem, params, none, false, false);
}

CVMOCK_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy,
                                                 unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                                 unsigned smem, CUstream s, void **params) {
    cvmock_count("cuLaunchCooperativeKernel");
    (void)s;
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz}, none[3] = {0, 0, 0};
    return mock_launch(f, grid, block, smem, params, none, true, false);
}

CVMOCK_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params,
                                        void **extra) {
    cvmock_count("cuLaunchKernelEx");
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
    return mock_launch(f, grid, block, c->sharedMemBytes, params, cluster, coop, true);
}
