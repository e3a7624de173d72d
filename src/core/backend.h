/* The backend interface: everything core asks of the GPU backend, which src/cuda implements (one
 * CUDA driver API symbol table, dlopen'ed). It is the one core header that src/cuda includes, and
 * no header that src/api includes (directly or through core's headers) includes it: api never
 * sees backend types, and core's api-facing headers hold backend handles only as pointers to
 * incomplete types (scripts/check-layers.sh checks both). Every name here is cvcu_: declared by
 * core, defined by the backend. The handles are opaque (the CUDA handles themselves); the structs
 * are what the two sides exchange. */
#ifndef CV_CORE_BACKEND_H
#define CV_CORE_BACKEND_H

#include "util/cl_headers.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cvcu_device cvcu_device;
typedef struct cvcu_stream cvcu_stream;
typedef struct cvcu_event cvcu_event;
typedef struct cvcu_module cvcu_module;
typedef struct cvcu_function cvcu_function;
typedef struct cvcu_graph cvcu_graph;
typedef struct cvcu_graph_exec cvcu_graph_exec;
typedef struct cvcu_graph_node cvcu_graph_node;

/* --- devices: the CUDA device and the context culvert uses on it ---------------------------- */

/* What the backend reads of a device, once. */
typedef struct cvcu_device_props {
    char name[256];
    int ordinal;
    int cc_major, cc_minor;
    int driver_version; /* CUDA driver version, e.g. 13000 */
    cl_uint compute_units;
    cl_uint clock_mhz;
    cl_uint max_threads_per_block;
    cl_uint max_block_dim[3];
    cl_uint max_grid_dim[3];
    cl_uint warp_size;
    cl_uint regs_per_block;
    cl_uint async_engines;
    cl_uint pci_domain, pci_bus, pci_device;
    cl_uint mem_bus_width;
    /* Texture objects over pitched linear memory: the first pixel's and the rows' alignment
     * (bytes), the largest width, height (pixels) and pitch (bytes). */
    cl_uint texture_align, texture_pitch_align, texture2d_linear_max[3];
    cl_ulong global_mem; /* total */
    cl_ulong max_alloc;  /* free memory when culvert started: one allocation may take it all */
    cl_ulong l2_size;
    cl_ulong const_mem;
    cl_ulong local_mem;          /* per work-group, claimed (CULVERT_LOCAL_MEM_SIZE; 48 KiB) */
    cl_ulong local_mem_static;   /* CUDA's per-block default (48 KiB) */
    cl_ulong local_mem_max;      /* what a launch may use, with the opt-in (227 KiB on an H100) */
    cl_ulong reserved_local_mem; /* the driver's own share of each block's shared memory */
    int stream_priority_low, stream_priority_high;
    unsigned char uuid[16];
    bool gpu_overlap, exec_timeout, integrated, ecc, can_map_host, unified_addressing;
    bool stream_mem_ops64, cooperative_launch, cluster_launch;
    bool stream_wait_nor;    /* cuStreamWaitValue's NOR condition */
    bool graphs;             /* the driver has the graph functions command buffers use */
    bool graph_mem_ops;      /* ... and memory-operation nodes on mapped host memory (CUDA 11.7+) */
    bool managed_memory;     /* cuMemAllocManaged works on the device (and the driver has it) */
    bool concurrent_managed; /* the host and the device may touch managed memory at once */
} cvcu_device_props;

/* Why the driver could not be used (for logs). */
const char *cvcu_load_error(void);
/* Number of CUDA devices; 0 when the driver is missing or has none. */
int cvcu_device_count(void);
/* Retains the device's primary context (shared with CUDA libraries in the same process) and
 * reads its properties; *props points into the device, which lives as long as the process. */
cl_int cvcu_device_open(int ordinal, cvcu_device **out, const cvcu_device_props **props);
/* Makes the device's context current on the calling thread (cheap when it already is).
 * CL_OUT_OF_RESOURCES, bound all the same, while the device is lost (below). */
cl_int cvcu_device_bind(cvcu_device *dev);
/* The bytes CUDA keeps for the output of kernels' printf between synchronizations
 * (CU_LIMIT_PRINTF_FIFO_SIZE; CUDA's own default is 1 MiB, which a kernel of many work-items each
 * printing overflows, and what does not fit is lost): CL_DEVICE_PRINTF_BUFFER_SIZE. */
#define CVCU_PRINTF_BUFFER_BYTES ((size_t)64 << 20)
/* Sizes the printf buffer of the device's context to CVCU_PRINTF_BUFFER_BYTES, once per context
 * (CUDA takes the size before the first launch of a kernel that prints); dev bound. */
cl_int cvcu_device_printf_buffer(cvcu_device *dev);
/* Interop: the CUcontext behind a device: its primary context, or culvert's own where a fault's
 * recovery had to make one (cvcu_device_attach). */
void *cvcu_device_context(cvcu_device *dev);

/* Faults. A sticky CUDA error (a kernel's illegal access, a copy into unmapped memory, ...)
 * poisons the device's CUDA context for the process: the device is lost. Every command in
 * flight on it fails (its CUDA event answers the error), nothing new starts on it
 * (cvcu_device_bind fails), and the cl_contexts that use it are lost with it. Once none is left,
 * the next cvcu_device_attach recovers the device: the primary context reset, or, where that
 * does not give a working context, a context of culvert's own; then the device works again.
 * A cl_context starts using dev (binds it): recovers a lost device that no cl_context uses any
 * more; CL_DEVICE_NOT_AVAILABLE while lost cl_contexts remain or when no context works. */
cl_int cvcu_device_attach(cvcu_device *dev);
/* A cl_context stops using dev. */
void cvcu_device_detach(cvcu_device *dev);
bool cvcu_device_lost(const cvcu_device *dev);
/* Whether dev is lost; if so, `what` receives the error's name and the call that first answered
 * it (for the contexts' notify callbacks). */
bool cvcu_device_fault(cvcu_device *dev, char *what, size_t n);
/* handler() is called once per fault, on whatever thread met it and possibly under the
 * backend's locks: it may only note the fault and wake a thread of its own. */
void cvcu_set_fault_handler(void (*handler)(void));

/* --- streams and events ---------------------------------------------------------------------- */

/* priority: CUDA's number (lower is higher priority; 0 is the default). */
cl_int cvcu_stream_create(int priority, cvcu_stream **out);
/* culvert stops using s (its commands finished): forgets its gates and destroys it where
 * culvert owns it. */
void cvcu_stream_release(cvcu_stream *s, bool owned);
cl_int cvcu_stream_sync(cvcu_stream *s);
/* CL_COMPLETE when everything enqueued has finished, CL_SUBMITTED while work is pending. */
cl_int cvcu_stream_query(cvcu_stream *s);
cl_int cvcu_stream_wait_event(cvcu_stream *s, cvcu_event *e);
/* An application's CUstream (interop): CL_SUCCESS when it is a stream of dev's context. culvert
 * never destroys such a stream. */
cl_int cvcu_stream_check_foreign(void *handle, cvcu_device *dev);

/* timing: the event can be used for elapsed times (costs a little more to record). Host waits
 * never sleep in the driver (core/wait.h), so no event is blocking-sync. */
cl_int cvcu_event_create(bool timing, cvcu_event **out);
void cvcu_event_destroy(cvcu_event *e);
cl_int cvcu_event_record(cvcu_event *e, cvcu_stream *s);
/* CL_COMPLETE, CL_SUBMITTED, or a negative error of the work before it. */
cl_int cvcu_event_query(cvcu_event *e);
cl_int cvcu_event_sync(cvcu_event *e);

/* Device timestamps on the host clock (cvu_host_time_ns). An anchor, a timing event recorded on an
 * idle stream within a known window of host time (the narrowest of three tries), is renewed every
 * CULVERT_PROFILING_ANCHOR_MS (default 1000) so that float milliseconds from cuEventElapsedTime
 * stay finer than 0.1 us; the rate of the device clock against the host's follows the anchors.
 * Testing hook: CULVERT_PROFILING_DRIFT_PPM scales every device interval, as a device clock that
 * runs fast by that many parts per million would. ev: a completed timing event of dev's context. */
cl_int cvcu_clock_host_ns(cvcu_device *dev, cvcu_event *ev, cl_ulong *ns);

/* --- kernel timing: START and END from the GPU's %globaltimer (docs/kernel-abi.md) ----------- */

/* One command's slot: two words of device memory that the blocks of its timed launches raise
 * (the command's generation keeps the newest command's apart from older ones'). Slots are pooled
 * per device. */
typedef struct cvcu_ktime cvcu_ktime;

/* Makes kernel timing ready on dev: loads the probe (only while no gate is closed) and maps
 * %globaltimer onto the host clock. False where it cannot (yet: a failed try is repeated after a
 * period); commands are timed by CUDA events then. Profiling queues call it when made. */
bool cvcu_ktime_prepare(cvcu_device *dev);
/* %globaltimer's step in ns as the probe saw it (prepares first); 0 when unknown. */
cl_ulong cvcu_ktime_step(cvcu_device *dev);
/* A slot for one command, with a new generation; NULL where kernel timing is not ready or no slot
 * could be had (the command is timed by CUDA events). */
cvcu_ktime *cvcu_ktime_get(cvcu_device *dev);
/* The 16 bytes of a timed launch's timing parameter (the same for every launch of a command). */
void cvcu_ktime_param(const cvcu_ktime *t, uint64_t param[2]);
/* START and END on the host clock, once the command completed; seen: the host time it was first
 * seen complete (0: now). False where the kernel left no time (it never finished). Copies the
 * slot's words from the device, together with those of other commands seen complete by then. */
bool cvcu_ktime_read(cvcu_ktime *t, cl_ulong seen, cl_ulong *start, cl_ulong *end);
/* Gives the slot back (NULL: nothing): whatever its command left, the next one's generation
 * outranks it. */
void cvcu_ktime_put(cvcu_ktime *t);

/* --- host flags: 64-bit slots in mapped pinned host memory ----------------------------------- */

/* A slot that the host and the GPU both see: the one mechanism behind GPU-gated user events,
 * queues' completion flags and cl_culvert_host_value (cuda/cu_slots.c, cuda/cu_gates.c). Slots are
 * carved from shared pinned pages (cuMemHostAlloc DEVICEMAP|PORTABLE), so thousands of them do not
 * cost a page each. */
typedef struct cvcu_slot {
    _Atomic uint64_t *host; /* the host's view */
    cl_ulong device;        /* the device's address of the same 8 bytes */
} cvcu_slot;

/* A slot from dev's pool, starting at 0. Bind dev's context first. The pages are portable (every
 * device's streams can use them) and belong to dev's context: they go with its recovery, so a
 * slot must not outlive the cl_contexts that use dev. */
cl_int cvcu_slot_alloc(cvcu_device *dev, cvcu_slot **out);
/* Back to the pool (NULL: nothing). The caller guarantees no GPU work still waits on or writes
 * the slot. */
void cvcu_slot_free(cvcu_slot *slot);

/* Conditions of cuStreamWaitValue64, in CUDA's numbering. */
typedef enum cvcu_wait_condition {
    CVCU_WAIT_GEQ = 0, /* (int64_t)(*slot - value) >= 0 */
    CVCU_WAIT_EQ = 1,
    CVCU_WAIT_AND = 2, /* (*slot & value) != 0 */
    CVCU_WAIT_NOR = 3, /* ~(*slot | value) != 0 */
} cvcu_wait_condition;

/* Whether `slot` meets the condition against `value` (the GPU's test, on the host). */
static inline bool cvcu_wait_condition_met(uint64_t slot, uint64_t value,
                                           cvcu_wait_condition cond) {
    bool met = false;
    switch (cond) {
    case CVCU_WAIT_GEQ: /* cyclic: ignores wrap-around, as cuStreamWaitValue64 */
        met = (int64_t)(slot - value) >= 0;
        break;
    case CVCU_WAIT_EQ:
        met = slot == value;
        break;
    case CVCU_WAIT_AND:
        met = (slot & value) != 0;
        break;
    case CVCU_WAIT_NOR:
        met = ~(slot | value) != 0;
        break;
    }
    return met;
}

/* Who waits at a gate, for the warning about a wait that stays closed: printed, never
 * dereferenced. */
typedef struct cvcu_wait_watch {
    const void *queue;      /* the cl_command_queue */
    const void *host_value; /* the cl_mem waited for */
} cvcu_wait_watch;

/* The stream waits, on the GPU, until the slot's 64-bit value meets the condition (a gate,
 * which only the host opens: cuda/cu_gates.c). watch: NULL, or who waits; then, with
 * CULVERT_LOG on, a background thread logs a warning once the gate has stayed closed for
 * CULVERT_HOST_VALUE_WARN_MS (default 5000; 0: never), and the end of a wait it warned about. */
cl_int cvcu_stream_wait_value(cvcu_stream *s, const cvcu_slot *slot, cl_ulong value,
                              cvcu_wait_condition cond, const cvcu_wait_watch *watch);
/* The GPU writes `value` to `address` once the stream's earlier work is done. */
cl_int cvcu_stream_write_value(cvcu_stream *s, cl_ulong address, cl_ulong value);

/* --- memory: device memory, pinned host memory, copies and fills ----------------------------- */

/* The copies take the stream the command runs on; the caller has bound the device's context
 * (cv_command_begin does). Host pointers may be pageable (plain malloc) or pinned (cuMemHostAlloc,
 * registered): pinned ones are recognised and copied directly; pageable ones go through the
 * staging paths described in cuda/cu_memory.c. */

/* Device memory of the bound context. CL_MEM_OBJECT_ALLOCATION_FAILURE when it does not fit. */
cl_int cvcu_mem_alloc(size_t size, cl_ulong *address);
/* Binds dev first: frees are also called from destructors on any thread. */
void cvcu_mem_free(cvcu_device *dev, cl_ulong address);
/* Waits until the frees queued so far are done: the driver's frees wait for the device's work, so
 * the work queued before them is done too. Returns at once while a gate is closed (the frees wait
 * for the application then, which may be this very thread). */
void cvcu_mem_free_settle(void);

/* Managed memory (cuMemAllocManaged, attached to every stream): one address that the host and
 * every device of the process use, its pages moved to whoever touches them (shared virtual
 * memory, USM shared allocations). Freed with cvcu_mem_free. Devices whose props say
 * managed_memory only; CL_MEM_OBJECT_ALLOCATION_FAILURE when it does not fit. */
cl_int cvcu_managed_alloc(size_t size, cl_ulong *address);
/* Moves the pages of managed memory [address, address + n) to dev's memory, or to the host's
 * where dev is NULL, in the stream's order (cuMemPrefetchAsync); a hint, as OpenCL's
 * migrations are: CL_SUCCESS without the move where the driver has no prefetch. */
cl_int cvcu_mem_prefetch(cvcu_stream *s, cvcu_device *dev, cl_ulong address, size_t n);

/* Pinned, portable host memory (usable from every context of the process). The free waits
 * (off the caller's thread) until every copy queued before it is done: copies of other commands
 * may DMA a pointer the application got from a map. */
cl_int cvcu_host_alloc(size_t size, void **ptr);
void cvcu_host_free(void *ptr);
/* Pins the application's memory (CL_MEM_USE_HOST_PTR) so copies to and from it run at pinned
 * speed. Fails, harmlessly, where CUDA refuses (already registered, not ordinary memory). */
cl_int cvcu_host_register(void *ptr, size_t size);
/* The application gave up the memory of cvcu_host_register(ptr, size) (its last release of the
 * buffer): from this call on, copies treat the range as pageable memory (the application may
 * use it for anything at once), while commands in flight may still use the registration. */
void cvcu_host_retire(void *ptr, size_t size);
/* Undoes cvcu_host_register(ptr, size), retired before: after every copy queued before this call
 * is done with the range. */
void cvcu_host_unregister(void *ptr);

/* How a host-side copy may behave. blocking: the caller waits for the command anyway, so the
 * copy may wait for the stream. When not blocking, the copy never waits for work before it on
 * the stream (that work may be gated on a user event the caller sets later). */
typedef struct cvcu_host_copy {
    cvcu_device *dev; /* whose staging buffers to use */
    cvcu_stream *stream;
    bool blocking;
    /* A blocking copy whose host side waits for the GPU (through the staging pipeline) calls
     * settle(settle_arg) instead of the driver's wait where that would also wait for the work
     * queued before the copy: it returns once everything put on the stream so far is done
     * (core's host wait, which sleeps through long work) or with the error that stopped it.
     * NULL: the driver waits. */
    cl_int (*settle)(void *arg);
    void *settle_arg;
    /* Where not NULL: set true when the copy finished within the call (nothing of it is left on
     * the stream, so a blocking command need not wait for it again). */
    bool *done;
} cvcu_host_copy;

cl_int cvcu_copy_to_device(const cvcu_host_copy *c, cl_ulong dst, const void *src, size_t n);
cl_int cvcu_copy_to_host(const cvcu_host_copy *c, void *dst, cl_ulong src, size_t n);
/* Device to device (also between devices of one process: unified addressing). */
cl_int cvcu_copy_device(cvcu_stream *s, cl_ulong dst, cl_ulong src, size_t n);
/* Host memory to host memory in the stream's order (clEnqueueSVMMemcpy between two pointers no
 * allocation of culvert's holds): a blocking copy settles the stream and copies at once, any
 * other copies in a host function on the stream. */
cl_int cvcu_copy_host_to_host(const cvcu_host_copy *c, void *dst, const void *src, size_t n);

/* One side of a rectangular copy: a device address or a host pointer, with its pitches. */
typedef struct cvcu_rect_side {
    cl_ulong device; /* used when host is NULL */
    void *host;
    size_t origin[3]; /* bytes, rows, slices */
    size_t row_pitch, slice_pitch;
} cvcu_rect_side;

/* region: bytes, rows, slices. Pitches are validated by the caller (slice_pitch a multiple of
 * row_pitch). */
cl_int cvcu_copy_rect(const cvcu_host_copy *c, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                      const size_t region[3]);

/* Fills n bytes at dst (n a multiple of pattern_size; dst aligned to the pattern size up to 4)
 * with a pattern of 1, 2, 4, ..., 128 bytes. The pattern is read before the call returns. */
cl_int cvcu_fill(cvcu_stream *s, cl_ulong dst, const void *pattern, size_t pattern_size, size_t n);

/* --- modules and functions: cuModuleLoadDataEx with JIT options, cuFuncGetAttribute ---------- */

typedef struct cvcu_jit_options {
    int max_registers; /* 0: the JIT's choice (-cl-nv-maxrregcount) */
    int opt_level;     /* 0..4, or -1: the default (-cl-nv-opt-level) */
    bool verbose;      /* -cl-nv-verbose: the JIT's info log (registers, spills) */
    int target;        /* compute capability as major*10+minor for CU_JIT_TARGET; 0: none */
} cvcu_jit_options;

/* Texture objects over pitched linear device memory (2D images that the texture units sample,
 * core/image.c). One per sampler state: addressing, filtering and coordinates are the
 * texture's. */
typedef enum { CVCU_TEX_U8, CVCU_TEX_U16, CVCU_TEX_HALF, CVCU_TEX_FLOAT } cvcu_tex_format;
typedef enum { CVCU_TEX_WRAP, CVCU_TEX_CLAMP, CVCU_TEX_MIRROR, CVCU_TEX_BORDER } cvcu_tex_address;
typedef struct cvcu_texture_desc {
    cl_ulong address; /* the first pixel */
    size_t width, height, row_pitch;
    cvcu_tex_format format; /* 8- and 16-bit integers read as normalized floats */
    unsigned channels;      /* 1, 2 or 4 */
    cvcu_tex_address address_mode;
    bool normalized_coords, linear;
    float border[4]; /* CVCU_TEX_BORDER's colour */
} cvcu_texture_desc;
/* A texture object on dev (bound); CL_INVALID_OPERATION where the driver has none or the memory
 * does not meet the texture units' alignment and size limits (the caller samples in software). */
cl_int cvcu_texture_create(cvcu_device *dev, const cvcu_texture_desc *d, uint64_t *handle);
/* Destroys it on the reaper thread once nothing that may use it is queued (as the frees). */
void cvcu_texture_destroy(cvcu_device *dev, uint64_t handle);

/* Loads a module (PTX text, 0-terminated, or a cubin/fatbin image) into the current context.
 * *log receives the JIT's error and info logs (malloc'ed, possibly empty; NULL when out of
 * memory). CL_BUILD_PROGRAM_FAILURE / CL_INVALID_BINARY when the driver refuses the image. */
cl_int cvcu_module_load(const void *image, const cvcu_jit_options *opts, cvcu_module **out,
                        char **log);
/* The same, but only while no gate is closed (a load waits for every stream of the device, so
 * it would wait for whoever opens the gate: cuda/cu_gates.c): while one is, nothing is loaded,
 * *out stays NULL, *log too, and *later turns true. */
cl_int cvcu_module_load_unblocked(const void *image, const cvcu_jit_options *opts,
                                  cvcu_module **out, char **log, bool *later);
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

/* --- launches: cuLaunchKernel, cuLaunchKernelEx (clusters), cuLaunchCooperativeKernel -------- */

typedef struct cvcu_launch {
    cvcu_function *func;
    unsigned grid[3], block[3];
    unsigned smem;       /* dynamic shared memory bytes */
    unsigned cluster[3]; /* 0 0 0: no cluster attribute */
    bool cooperative;
} cvcu_launch;

/* One launch on the stream. params: one pointer per kernel parameter. */
cl_int cvcu_launch_kernel(const cvcu_launch *l, cvcu_stream *s, void **params);
/* The block size with the best occupancy for this much dynamic shared memory (the occupancy
 * calculator, for a default work-group size). */
cl_int cvcu_occupancy_block_size(cvcu_function *f, size_t smem, int limit, int *block);
/* How many blocks of this many threads and this much dynamic shared memory one multiprocessor
 * holds at once (the occupancy calculator). */
cl_int cvcu_occupancy_blocks_per_sm(cvcu_function *f, int threads, size_t smem, int *blocks);

/* --- graphs: command buffers (core/command_buffer*.c) as CUDA graphs ------------------------- */

/* A graph is built node by node (each node after the nodes it depends on), instantiated once
 * and launched as often as wanted; kernel nodes of the instance are updated in place. Every add
 * returns one node that completes when the operation has: an operation of several CUDA nodes
 * joins them. deps: n nodes of the same graph, no repeats. Bind the device's context first. */
typedef struct cvcu_graph_deps {
    cvcu_graph_node *const *nodes;
    size_t n;
} cvcu_graph_deps;

cl_int cvcu_graph_create(cvcu_device *dev, cvcu_graph **out);
/* Destroys the graph and its instance (NULL: nothing), later, on the thread of the frees (once
 * no gate is closed, as cuMemFree); launches in flight finish first. Any thread, any context
 * current; on a lost or reset device only the host side is freed. */
void cvcu_graph_destroy(cvcu_graph *g);
/* A node that does nothing: a barrier, an empty NDRange. */
cl_int cvcu_graph_add_empty(cvcu_graph *g, cvcu_graph_deps deps, cvcu_graph_node **out);
/* One launch (a chunk of an NDRange: cvcu_launch as for cvcu_launch_kernel). */
cl_int cvcu_graph_add_kernel(cvcu_graph *g, const cvcu_launch *l, void **params,
                             cvcu_graph_deps deps, cvcu_graph_node **out);
cl_int cvcu_graph_add_copy(cvcu_graph *g, cl_ulong dst, cl_ulong src, size_t n,
                           cvcu_graph_deps deps, cvcu_graph_node **out);
/* Device rectangles (both sides' host NULL). */
cl_int cvcu_graph_add_copy_rect(cvcu_graph *g, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                                const size_t region[3], cvcu_graph_deps deps,
                                cvcu_graph_node **out);
/* As cvcu_fill. */
cl_int cvcu_graph_add_fill(cvcu_graph *g, cl_ulong dst, const void *pattern, size_t pattern_size,
                           size_t n, cvcu_graph_deps deps, cvcu_graph_node **out);
/* The GPU waits until the slot meets the condition (a memory-operation node): the launch that
 * reaches it is a gate, as cvcu_stream_wait_value's (watched under the host value `watch`). */
cl_int cvcu_graph_add_wait_value(cvcu_graph *g, const cvcu_slot *slot, cl_ulong value,
                                 cvcu_wait_condition cond, const void *watch, cvcu_graph_deps deps,
                                 cvcu_graph_node **out);
/* The GPU writes value to address after the node's dependencies, behind a memory fence. */
cl_int cvcu_graph_add_write_value(cvcu_graph *g, cl_ulong address, cl_ulong value,
                                  cvcu_graph_deps deps, cvcu_graph_node **out);
/* Instantiates the graph (replacing an earlier instance). */
cl_int cvcu_graph_instantiate(cvcu_graph *g);
/* A kernel node's launch for later launches of the instance (not those in flight). */
cl_int cvcu_graph_update_kernel(cvcu_graph *g, cvcu_graph_node *node, const cvcu_launch *l,
                                void **params);
/* Launches the instance on the stream, after the stream's earlier work. queue: who launches,
 * for the warning about a wait node that stays closed. */
cl_int cvcu_graph_launch(cvcu_graph *g, cvcu_stream *s, const void *queue);

#endif
