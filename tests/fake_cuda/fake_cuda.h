/* The fake CUDA driver (tests/fake_cuda, a libcuda.so.1 for tests without a GPU), as its tests
 * see it: its state, looked up with dlsym through one accessor, holds the knobs a test turns and
 * what the fake recorded (launches, JIT options, modules, value and event waits, call counts).
 * The environment knobs: FAKECUDA_NODEV=1 hides the device; FAKECUDA_FAULT_KERNEL=name makes
 * every launch of that function fault once its stream reaches it and its stream time is up (a
 * GPU exception: the context is poisoned, every call on it answers CUDA_ERROR_ILLEGAL_ADDRESS
 * until cuDevicePrimaryCtxReset, or cuCtxDestroy for a context cuCtxCreate made);
 * FAKECUDA_FAULT_COPY=n makes the n-th copy the streams run fault the same way with
 * CUDA_ERROR_LAUNCH_FAILED (a copy engine's MMU fault); FAKECUDA_RESET_KEEPS_FAULT=1 makes
 * cuDevicePrimaryCtxReset destroy the primary context's objects but leave its error (as a driver
 * may: then only a context made by cuCtxCreate works); FAKECUDA_RECOVER_REFUSALS=n makes the first
 * n resets keep the error and the first n cuCtxCreate calls fail (CUDA_ERROR_ILLEGAL_ADDRESS), as a
 * driver still tearing the faulted context down might; FAKECUDA_COPY_DELAY_US sets
 * copy_delay_us and FAKECUDA_LAUNCH_US launch_us; FAKECUDA_LOST_TEARDOWN_US makes each call that
 * tears an object of a poisoned context down (cuStreamDestroy, cuEventDestroy, the frees) take
 * that long before it answers the error (fake_internal.h). A release (cuMemFree, cuMemFreeHost,
 * cuMemHostUnregister) of memory that an operation still queued on a stream uses aborts: the real
 * driver does not order them. */
#ifndef CV_TEST_FAKE_CUDA_H
#define CV_TEST_FAKE_CUDA_H

#include <cuda.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

#define FAKECUDA_MAX_LAUNCHES 1024
#define FAKECUDA_PARAM_BYTES  512
/* query_answer's default: queries answer what the streams and events really are. */
#define FAKECUDA_TRUTH (-1)

typedef struct fakecuda_launch {
    char func[64];
    unsigned module; /* the serial of the function's module, in load order from 1 */
    unsigned grid[3], block[3], smem, cluster[3];
    bool cooperative, ex;
    bool graph; /* a kernel node's launch (recorded when its graph launch reaches it) */
    unsigned num_params;
    unsigned param_offset[16]; /* where each parameter's bytes start in params */
    unsigned char params[FAKECUDA_PARAM_BYTES];
} fakecuda_launch;

typedef struct fakecuda_state {
    /* Knobs. instant: a device of infinite speed whose value waits never block (for tests that
     * count calls and must not depend on the stream threads' timing): an operation enqueued on
     * an idle stream takes effect in the calling thread before the call returns (host functions
     * still run on the stream's thread), and value waits pass at once. query_answer: what every
     * cuStreamQuery and cuEventQuery answers (CUDA_ERROR_NOT_READY: the work still runs), or
     * FAKECUDA_TRUTH. */
    _Atomic bool instant;
    _Atomic int query_answer;
    /* How long each queued copy waits on its stream before it runs (a GPU busy with other
     * processes' work): microseconds, FAKECUDA_COPY_DELAY_US at the start. */
    _Atomic unsigned copy_delay_us;
    /* How long every launch of a program's kernel (a graph's kernel nodes too) runs on its stream
     * (host waits behind it sleep): microseconds, FAKECUDA_LAUNCH_US at the start; 0: launches
     * take no stream time. A timed twin's START and END are that far apart. */
    _Atomic unsigned launch_us;
    /* How long each queued cuStreamWriteValue64 waits on its stream before its store (the GPU's
     * few microseconds for a memory operation): microseconds, 0 at the start. */
    _Atomic unsigned write_value_delay_us;
    /* What cuOccupancyMaxActiveBlocksPerMultiprocessor answers: blocks per multiprocessor; 0
     * (the start): an H100's answer for a function of few registers, min(32, 2048 / threads). */
    _Atomic int blocks_per_sm;
    /* How many of the next cuMemAlloc calls of a counting thread (calls_begin) answer
     * CUDA_ERROR_OUT_OF_MEMORY (0: none): culvert's own threads allocate too, at their times. */
    _Atomic unsigned fail_mem_allocs;

    /* Call counting: the driver calls the calling thread makes between calls_begin and
     * calls_end are counted per function name (other threads' calls are not), so a test can
     * hold culvert's enqueue and wait paths to a number of CUDA calls. calls(name): the calls of
     * `name` (as culvert names it: "cuMemHostGetDevicePointer", not the _v2) since the last
     * calls_begin; calls(NULL): all of them. */
    void (*calls_begin)(void);
    void (*calls_end)(void);
    unsigned long (*calls)(const char *name);

    /* Launches, recorded when they are made (kernels do not run, but for culvert's clock probe
     * and the timed twins: fake_timer.c). A test may reset num_launches; past
     * FAKECUDA_MAX_LAUNCHES the records start again from the first (the last is the latest). */
    unsigned num_launches;
    fakecuda_launch launches[FAKECUDA_MAX_LAUNCHES];
    /* the last cuModuleLoadDataEx's JIT options (-1: not given) */
    int jit_max_registers, jit_opt_level, jit_target, jit_verbose;
    _Atomic unsigned modules_loaded, modules_unloaded;
    int last_max_dynamic_smem; /* the last cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) */
    size_t printf_fifo_size;   /* the last cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE); 0: none */
    /* the last cuStreamWaitValue64 (address, value, stream) and cuStreamWaitEvent (stream,
     * event) of a counting thread (calls_begin) */
    unsigned long long wait_value_addr, wait_value;
    void *wait_value_stream, *wait_event_stream, *wait_event;
    /* the host side of the last copy the fake queued as a DMA (of pinned or registered memory,
     * as CUDA's table has it when the copy is made) */
    const void *_Atomic last_dma_host;
    /* Graphs (fake_graph.c): nodes are run in the order they were added; these count what the
     * process did with them (any thread). */
    _Atomic unsigned graphs_live, graph_execs_live, graph_launches;
    _Atomic unsigned graph_edges; /* dependencies given to nodes added */
    /* CLOCK_MONOTONIC ns at which the streams last finished a kernel's time (launch_us) */
    _Atomic unsigned long long last_kernel_end_ns;
    /* cuEventRecord calls of timing events (created without CU_EVENT_DISABLE_TIMING) */
    _Atomic unsigned long timing_records;
    /* texture objects created and not destroyed */
    _Atomic long live_textures;
} fakecuda_state;

/* The fake's state when the libcuda.so.1 the process finds is the fake; NULL when it is another
 * driver (LD_LIBRARY_PATH does not lead to tests/fake_cuda). */
static inline fakecuda_state *fakecuda_find(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    fakecuda_state *(*get)(void) =
        lib ? (fakecuda_state * (*)(void)) dlsym(lib, "fakecuda_get_state") : NULL;
    return get ? get() : NULL;
}

#endif
