/* Device and pinned memory, copies and fills.
 *
 * Pageable host memory (plain malloc) cannot be DMA'd: CUDA copies it through its own staging
 * buffer, one step at a time. culvert does better with a pipeline of pinned staging chunks per
 * device (CVCU_CHUNKS x CVCU_CHUNK, allocated once on first use, reused): for a write, chunk i is
 * DMA'd to the device while the host fills chunk i+1; for a read, the device fills the next chunks
 * while the host empties the current one. The host thread takes part, so the pipeline runs in the
 * calling thread: a non-blocking command done this way simply completes early, which the spec
 * allows. It is used only when that cannot wait on the application: the command is blocking, or
 * its stream has nothing left before it (so no user event can gate it).
 *
 * Otherwise (non-blocking, the stream still busy), a pageable copy takes a pinned bounce buffer
 * of its own: a write copies the data into it now (the application may reuse its memory at once)
 * and the DMA runs in stream order; a read DMAs into it and a host function on the stream copies
 * the bytes out, so the command's event completes only once the application's memory holds them.
 * Bounce buffers come back through a free list (host functions may not call CUDA). Small copies
 * (< CVCU_SMALL) of a blocking command go straight to CUDA, which has the lowest latency. */
#include "cuda/cu_memory.h"
#include "util/host_copy.h"
#include "util/log.h"
#include "util/thread.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CVCU_CHUNK        ((size_t)8 << 20)
#define CVCU_CHUNKS       4
#define CVCU_SMALL        ((size_t)64 << 10)
#define CVCU_POOLS        64 /* staging pools in the process (two per device are plenty) */
#define CVCU_KEEP_BOUNCES 8  /* small bounce buffers kept for reuse */

#define CVCU_STREAM(s) ((CUstream)(s))
#define CVCU_DPTR(a)   ((CUdeviceptr)(a))

/* --- releases off the caller's thread ---------------------------------------------------
 *
 * cuMemFree, cuMemFreeHost, cuMemHostUnregister and cuModuleUnload (of a module that ran
 * kernels) wait for the device: measured on the H100,
 * each blocked until a stream held up by an earlier host function moved on, also for memory no
 * pending work used. A stream of culvert can be held up by a user event that the application
 * sets after releasing a buffer: freeing in clReleaseMemObject would deadlock it. So the
 * releases go to one reaper thread, in order, which also waits until no gate is closed (while
 * such a call waits, every other driver call of the process waits behind it: cu_gates.c); an
 * allocation that finds the device full waits for the reaper's pending frees and tries once
 * more, unless a gate is closed. A release of a lost device, or of one reset since it was
 * queued, is dropped (the reset frees everything of the context; a later allocation may have
 * the same address); a reset waits for the release in progress and runs none meanwhile. */

typedef enum {
    CVCU_REAP_DEVICE,
    CVCU_REAP_HOST,
    CVCU_REAP_UNREGISTER,
    CVCU_REAP_MODULE,
    CVCU_REAP_CALL /* a function of another file (a graph's destruction) */
} cvcu_reap_kind;

typedef struct cvcu_reap {
    cvcu_reap_kind kind;
    bool fence; /* host memory copies of other commands may DMA: ordered after them first */
    CUcontext ctx;
    struct cvcu_device *dev; /* ctx's device (NULL: none of culvert's) */
    unsigned generation;     /* dev's when queued */
    CUdeviceptr address;
    void *ptr;
    void (*fn)(void *ptr, bool live); /* CVCU_REAP_CALL */
    struct cvcu_reap *next;
} cvcu_reap;

static pthread_once_t cvcu_reaper_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t cvcu_reap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cvcu_reap_more = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cvcu_reap_done = PTHREAD_COND_INITIALIZER;
static cvcu_reap *cvcu_reap_head, **cvcu_reap_tail = &cvcu_reap_head;
static unsigned long cvcu_reap_queued, cvcu_reap_finished;
static bool cvcu_reaper_running, cvcu_reaper_busy;
static _Atomic bool cvcu_reaper_stop;
/* Held around each release's driver call, and by a reset (cvcu_reap_pause). */
static pthread_mutex_t cvcu_reap_call_lock = PTHREAD_MUTEX_INITIALIZER;

void cvcu_reap_pause(void) {
    pthread_mutex_lock(&cvcu_reap_call_lock);
}

void cvcu_reap_resume(void) {
    pthread_mutex_unlock(&cvcu_reap_call_lock);
}

/* --- registrations on their way out ---------------------------------------------------------
 *
 * A USE_HOST_PTR buffer's registration outlives the application's last reference to the buffer:
 * commands in flight may still hold the buffer (a batch of event-less commands is recorded only
 * every 32 commands), and the reaper removes the registration later still. Meanwhile CUDA calls
 * the range pinned, and the application may already use the memory for another buffer (free and
 * malloc give the same address back; the CTS frees the memory of a USE_HOST_PTR buffer, then
 * releases the buffer, then allocates the same size again for a COPY_HOST_PTR buffer). A copy
 * handed that pointer would be a DMA through the registration the reaper is about to remove
 * (on the H100, under several processes, the reaper runs behind), and nothing orders the two:
 * the DMA may run through unmapped memory (a fault, Xid 31, which poisons the context) or
 * through pages the application no longer has. So from cvcu_host_retire (the application's
 * last release) until the reaper is done, copies treat the range (whole pages, as CUDA
 * registers them) as pageable and never hand it to CUDA: they stage or bounce it. */

typedef struct cvcu_dying {
    uintptr_t lo, hi; /* page-aligned */
    const void *ptr;  /* what was registered */
    struct cvcu_dying *next;
} cvcu_dying;

static pthread_mutex_t cvcu_dying_lock = PTHREAD_MUTEX_INITIALIZER;
static cvcu_dying *cvcu_dying_list;
static _Atomic unsigned cvcu_dying_count;

#define CVCU_PAGE ((uintptr_t)4096)

/* Does [p, p+n) touch a registration on its way out? One load while there is none. */
static bool cvcu_host_dying(const void *p, size_t n) {
    if (!atomic_load_explicit(&cvcu_dying_count, memory_order_acquire))
        return false;
    uintptr_t lo = (uintptr_t)p, hi = lo + (n ? n : 1);
    bool dying = false;
    pthread_mutex_lock(&cvcu_dying_lock);
    for (cvcu_dying *d = cvcu_dying_list; d && !dying; d = d->next)
        dying = lo < d->hi && d->lo < hi;
    pthread_mutex_unlock(&cvcu_dying_lock);
    return dying;
}

/* Without memory for the entry the range goes unprotected (as every range did before). */
static void cvcu_dying_add(const void *ptr, size_t n) {
    cvcu_dying *d = malloc(sizeof *d);
    if (!d)
        return;
    d->ptr = ptr;
    d->lo = (uintptr_t)ptr & ~(CVCU_PAGE - 1);
    d->hi = ((uintptr_t)ptr + n + CVCU_PAGE - 1) & ~(CVCU_PAGE - 1);
    pthread_mutex_lock(&cvcu_dying_lock);
    d->next = cvcu_dying_list;
    cvcu_dying_list = d;
    atomic_fetch_add(&cvcu_dying_count, 1);
    pthread_mutex_unlock(&cvcu_dying_lock);
}

/* The oldest entry of ptr goes (the list is newest first): registrations of one address follow
 * each other (CUDA refuses a second), so the unregister that is done is the oldest one's; a newer
 * entry may be a larger registration of the same address, retired meanwhile. */
static void cvcu_dying_remove(const void *ptr) {
    pthread_mutex_lock(&cvcu_dying_lock);
    cvcu_dying **oldest = NULL;
    for (cvcu_dying **d = &cvcu_dying_list; *d; d = &(*d)->next)
        if ((*d)->ptr == ptr)
            oldest = d;
    if (oldest) {
        cvcu_dying *gone = *oldest;
        *oldest = gone->next;
        free(gone);
        atomic_fetch_sub(&cvcu_dying_count, 1);
    }
    pthread_mutex_unlock(&cvcu_dying_lock);
}

/* --- copies being issued, and the fence of a host memory release ---------------------------
 *
 * cuMemHostUnregister and cuMemFreeHost do not order themselves after the DMAs that other
 * threads queued on the range (measured on the H100, driver 580, bench/unregister_probe: a copy
 * queued behind a kernel faulted, Xid 31, when another thread unregistered its source). A copy
 * that hands CUDA an application pointer directly may DMA through any registration or pinned
 * allocation it lies in, also one culvert is releasing: a USE_HOST_PTR registration while the
 * buffer goes (another command's copy from the same memory), an ALLOC_HOST_PTR shadow while a
 * copy of another buffer reads the mapped region. So such a release first waits until every copy
 * that had decided on a direct DMA before the range went on its way out is queued (the issue
 * epoch below: copies never wait for it), then for the device to finish what is queued
 * (cuCtxSynchronize, in the reaper, while no gate is closed); copies decided afterwards see the
 * range on its way out (registrations) or cannot name it (the application released the memory).
 *
 * The epoch: a copy counts itself in issuing[phase & 1] from its decision until its CUDA call
 * returned; a fence moves the phase on and waits until the old parity's count is zero. */

static _Atomic unsigned long cvcu_issue_phase;
static _Atomic long cvcu_issuing[2];
static pthread_mutex_t cvcu_fence_lock = PTHREAD_MUTEX_INITIALIZER;

/* Enters an issue; returns the phase to leave with. */
static unsigned long cvcu_issue_begin(void) {
    for (;;) {
        unsigned long p = atomic_load(&cvcu_issue_phase);
        atomic_fetch_add(&cvcu_issuing[p & 1], 1);
        if (atomic_load(&cvcu_issue_phase) == p)
            return p;
        atomic_fetch_sub(&cvcu_issuing[p & 1], 1);
    }
}

static void cvcu_issue_end(unsigned long phase) {
    atomic_fetch_sub(&cvcu_issuing[phase & 1], 1);
}

/* Returns once every copy that entered an issue before this call has left it. */
static void cvcu_issue_fence(void) {
    pthread_mutex_lock(&cvcu_fence_lock);
    unsigned long p = atomic_fetch_add(&cvcu_issue_phase, 1);
    while (atomic_load(&cvcu_issuing[p & 1]) != 0) {
        struct timespec pause = {0, 20000};
        nanosleep(&pause, NULL);
    }
    pthread_mutex_unlock(&cvcu_fence_lock);
}

/* The release still means something: its device is neither lost nor reset since. */
static bool cvcu_reap_valid(const cvcu_reap *r) {
    return !r->dev || (!cvcu_device_lost(r->dev) && cvcu_device_current(r->dev, r->generation));
}

static void cvcu_reap_call(const cvcu_reap *r) {
    CUcontext cur = NULL;
    /* A device's context through the device: the reaper's thread may still have the handle of
     * an earlier generation current. */
    if (r->dev)
        cvcu_device_set_current(r->dev);
    else if (r->ctx && (cvcu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != r->ctx))
        cvcu.cuCtxSetCurrent(r->ctx);
    /* Every DMA queued so far is done with the memory. A fault found here loses the device,
     * whose reset frees the memory instead. */
    if (r->fence && r->ctx &&
        CVCU_CALL(cvcu.cuCtxSynchronize(), CL_OUT_OF_RESOURCES) != CL_SUCCESS && r->dev &&
        cvcu_device_lost(r->dev))
        return;
    switch (r->kind) {
    case CVCU_REAP_DEVICE:
        CVCU_CALL(cvcu.cuMemFree(r->address), CL_OUT_OF_RESOURCES);
        break;
    case CVCU_REAP_HOST:
        CVCU_CALL(cvcu.cuMemFreeHost(r->ptr), CL_OUT_OF_RESOURCES);
        break;
    case CVCU_REAP_UNREGISTER:
        CVCU_CALL(cvcu.cuMemHostUnregister(r->ptr), CL_OUT_OF_RESOURCES);
        break;
    case CVCU_REAP_MODULE:
        CVCU_CALL(cvcu.cuModuleUnload((CUmodule)r->ptr), CL_OUT_OF_RESOURCES);
        break;
    case CVCU_REAP_CALL:
        r->fn(r->ptr, true);
        break;
    }
}

static void cvcu_reap_now(const cvcu_reap *r) {
    if (r->fence)
        cvcu_issue_fence();
    /* Not while a gate is closed (cu_gates.c says why); at exit, left to the process's end. */
    if (!cvcu_gates_quiet_begin(&cvcu_reaper_stop))
        return;
    pthread_mutex_lock(&cvcu_reap_call_lock);
    if (cvcu_reap_valid(r))
        cvcu_reap_call(r);
    else if (r->kind == CVCU_REAP_CALL)
        r->fn(r->ptr, false); /* its host memory only */
    pthread_mutex_unlock(&cvcu_reap_call_lock);
    /* Unregistered (or gone with its context): copies may hand the range to CUDA again. */
    if (r->kind == CVCU_REAP_UNREGISTER)
        cvcu_dying_remove(r->ptr);
    cvcu_gates_quiet_end();
}

static void *cvcu_reaper_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&cvcu_reap_lock);
    for (;;) {
        while (!cvcu_reap_head && !cvcu_reaper_stop)
            pthread_cond_wait(&cvcu_reap_more, &cvcu_reap_lock);
        if (cvcu_reaper_stop)
            break;
        cvcu_reap *r = cvcu_reap_head;
        cvcu_reap_head = r->next;
        if (!cvcu_reap_head)
            cvcu_reap_tail = &cvcu_reap_head;
        cvcu_reaper_busy = true;
        pthread_mutex_unlock(&cvcu_reap_lock);
        cvcu_reap_now(r);
        free(r);
        pthread_mutex_lock(&cvcu_reap_lock);
        cvcu_reaper_busy = false;
        cvcu_reap_finished++;
        pthread_cond_broadcast(&cvcu_reap_done);
    }
    pthread_mutex_unlock(&cvcu_reap_lock);
    return NULL;
}

/* Process exit: the reaper stops before libcuda's own exit handlers (registered earlier, at
 * cuInit) run; what it has not freed goes with the process. A release in progress gets 200 ms
 * to finish; the thread is not joined: it may be waiting for a device that waits for the
 * application. */
static void cvcu_reaper_shutdown(void) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 200000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&cvcu_reap_lock);
    cvcu_reaper_stop = true;
    pthread_cond_broadcast(&cvcu_reap_more);
    while (cvcu_reaper_busy)
        if (pthread_cond_timedwait(&cvcu_reap_done, &cvcu_reap_lock, &until) != 0)
            break;
    pthread_mutex_unlock(&cvcu_reap_lock);
}

static void cvcu_reaper_start(void) {
    cvcu_reaper_running = cvu_thread_start(cvcu_reaper_main, NULL);
    if (cvcu_reaper_running)
        atexit(cvcu_reaper_shutdown);
}

/* Hands the release to the reaper (or does it now where no thread could be started). */
static void cvcu_reap_queue(cvcu_reap local) {
    pthread_once(&cvcu_reaper_once, cvcu_reaper_start);
    cvcu_reap *r = calloc(1, sizeof *r);
    bool queued = false;
    if (r) {
        *r = local;
        pthread_mutex_lock(&cvcu_reap_lock);
        queued = cvcu_reaper_running && !cvcu_reaper_stop;
        if (queued) {
            *cvcu_reap_tail = r;
            cvcu_reap_tail = &r->next;
            cvcu_reap_queued++;
            pthread_cond_signal(&cvcu_reap_more);
        }
        pthread_mutex_unlock(&cvcu_reap_lock);
    }
    if (!queued) {
        free(r);
        cvcu_reap_now(&local);
    }
}

/* A release in the current context, of its device's current generation. */
static void cvcu_reap_later(cvcu_reap_kind kind, bool fence, CUdeviceptr address, void *ptr) {
    cvcu_reap local = {.kind = kind, .fence = fence, .address = address, .ptr = ptr};
    cvcu.cuCtxGetCurrent(&local.ctx);
    local.dev = cvcu_device_of_context(local.ctx);
    local.generation = cvcu_device_generation(local.dev);
    cvcu_reap_queue(local);
}

void cvcu_reap_call_later(void (*fn)(void *ptr, bool live), void *ptr, struct cvcu_device *dev,
                          unsigned generation) {
    cvcu_reap_queue((cvcu_reap){.kind = CVCU_REAP_CALL,
                                .ctx = cvcu_device_context(dev),
                                .dev = dev,
                                .generation = generation,
                                .ptr = ptr,
                                .fn = fn});
}

/* Waits until the releases queued so far are done; false if there were none. */
static bool cvcu_reap_wait(void) {
    /* The frees wait for the gates, which wait for the application: not this thread. */
    if (cvcu_gates_closed())
        return false;
    pthread_mutex_lock(&cvcu_reap_lock);
    unsigned long target = cvcu_reap_queued;
    bool any = cvcu_reap_finished < target && cvcu_reaper_running;
    while (cvcu_reap_finished < target && cvcu_reaper_running && !cvcu_reaper_stop)
        pthread_cond_wait(&cvcu_reap_done, &cvcu_reap_lock);
    pthread_mutex_unlock(&cvcu_reap_lock);
    return any;
}

cl_int cvcu_mem_alloc(size_t size, cl_ulong *address) {
    CUdeviceptr p = 0;
    CUresult r = cvcu.cuMemAlloc(&p, size);
    /* Full: perhaps of memory the reaper is about to free. */
    if (r == CUDA_ERROR_OUT_OF_MEMORY && cvcu_reap_wait())
        r = cvcu.cuMemAlloc(&p, size);
    cl_int err = CL_SUCCESS;
    /* Running out is an expected answer (CL_MEM_OBJECT_ALLOCATION_FAILURE), not a log-worthy
     * failure of culvert. */
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    else
        err = cvcu_error(r, CL_MEM_OBJECT_ALLOCATION_FAILURE, "cuMemAlloc");
    *address = err == CL_SUCCESS ? (cl_ulong)p : 0;
    return err;
}

cl_int cvcu_managed_alloc(size_t size, cl_ulong *address) {
    CUdeviceptr p = 0;
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    if (cvcu.cuMemAllocManaged) {
        r = cvcu.cuMemAllocManaged(&p, size, CU_MEM_ATTACH_GLOBAL);
        if (r == CUDA_ERROR_OUT_OF_MEMORY && cvcu_reap_wait())
            r = cvcu.cuMemAllocManaged(&p, size, CU_MEM_ATTACH_GLOBAL);
    }
    cl_int err = r == CUDA_ERROR_OUT_OF_MEMORY
                     ? CL_MEM_OBJECT_ALLOCATION_FAILURE
                     : cvcu_error(r, CL_MEM_OBJECT_ALLOCATION_FAILURE, "cuMemAllocManaged");
    *address = err == CL_SUCCESS ? (cl_ulong)p : 0;
    return err;
}

cl_int cvcu_mem_prefetch(cvcu_stream *s, struct cvcu_device *dev, cl_ulong address, size_t n) {
    cl_int err = CL_SUCCESS;
    if (n > 0 && cvcu.cuMemPrefetchAsync) {
        CUmemLocation where = {.type =
                                   dev ? CU_MEM_LOCATION_TYPE_DEVICE : CU_MEM_LOCATION_TYPE_HOST,
                               .id = dev ? dev->dev : 0};
        err = CVCU_CALL(cvcu.cuMemPrefetchAsync(CVCU_DPTR(address), n, where, 0, CVCU_STREAM(s)),
                        CL_OUT_OF_RESOURCES);
    }
    return err;
}

void cvcu_mem_free_settle(void) {
    (void)cvcu_reap_wait();
}

void cvcu_mem_free(struct cvcu_device *dev, cl_ulong address) {
    if (address && cvcu_device_bind(dev) == CL_SUCCESS)
        cvcu_reap_later(CVCU_REAP_DEVICE, false, CVCU_DPTR(address), NULL);
}

cl_int cvcu_host_alloc(size_t size, void **ptr) {
    *ptr = NULL;
    CUresult r = cvcu.cuMemHostAlloc(ptr, size, CU_MEMHOSTALLOC_PORTABLE);
    if (r != CUDA_SUCCESS)
        *ptr = NULL;
    return r == CUDA_ERROR_OUT_OF_MEMORY ? CL_OUT_OF_HOST_MEMORY
                                         : cvcu_error(r, CL_OUT_OF_HOST_MEMORY, "cuMemHostAlloc");
}

void cvcu_host_free(void *ptr) {
    if (ptr)
        cvcu_reap_later(CVCU_REAP_HOST, true, 0, ptr);
}

/* Pinned memory only culvert's own copies used, each ordered before this call (bounce buffers
 * back from their host function, staging memory never used): no fence. */
static void cvcu_host_free_unused(void *ptr) {
    if (ptr)
        cvcu_reap_later(CVCU_REAP_HOST, false, 0, ptr);
}

cl_int cvcu_host_register(void *ptr, size_t size) {
    /* Small ones are not worth pinning (registration costs more than their copies gain). */
    if (size < CVCU_SMALL)
        return CL_INVALID_HOST_PTR;
    /* No error log: refusal is expected (memory registered twice, file mappings) and handled
     * by staging. */
    CUresult r = cvcu.cuMemHostRegister(ptr, size, CU_MEMHOSTREGISTER_PORTABLE);
    /* Still registered for a buffer released a moment ago: free once the reaper is done (unless
     * a gate holds it up). */
    if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED && cvcu_host_dying(ptr, size) &&
        cvcu_reap_wait())
        r = cvcu.cuMemHostRegister(ptr, size, CU_MEMHOSTREGISTER_PORTABLE);
    if (r != CUDA_SUCCESS)
        cvu_log(CVU_LOG_INFO, "cuMemHostRegister(%p, %zu) refused (%d): staged copies", ptr, size,
                (int)r);
    return r == CUDA_SUCCESS ? CL_SUCCESS : CL_INVALID_HOST_PTR;
}

void cvcu_host_retire(void *ptr, size_t size) {
    if (ptr)
        cvcu_dying_add(ptr, size);
}

void cvcu_host_unregister(void *ptr) {
    if (ptr)
        cvcu_reap_later(CVCU_REAP_UNREGISTER, true, 0, ptr);
}

void cvcu_module_unload_later(void *module) {
    if (module)
        cvcu_reap_later(CVCU_REAP_MODULE, false, 0, module);
}

/* The memory type and allocation of the byte at p (0, 0 for memory CUDA does not know). */
static void cvcu_pointer_info(const void *p, unsigned int *type, unsigned long long *id) {
    CUpointer_attribute attrs[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                    CU_POINTER_ATTRIBUTE_BUFFER_ID};
    void *data[2] = {type, id};
    *type = 0;
    *id = 0;
    /* Unknown (pageable) memory is not an error for cuPointerGetAttributes: it answers zeros. */
    if (cvcu.cuPointerGetAttributes(2, attrs, data, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS)
        *type = 0;
}

/* Are all n bytes at ptr page-locked memory CUDA knows (so an async copy is a pure DMA), and not
 * on their way out (cvcu_host_dying)? */
static bool cvcu_host_is_pinned(const void *ptr, size_t n) {
    unsigned int t0 = 0, t1 = 0;
    unsigned long long id0 = 0, id1 = 0;
    if (n == 0 || cvcu_host_dying(ptr, n))
        return false;
    cvcu_pointer_info(ptr, &t0, &id0);
    if (t0 != CU_MEMORYTYPE_HOST)
        return false;
    if (n == 1)
        return true;
    /* Both ends in one pinned allocation: a range over two of them, with pageable memory in
     * between, must not be DMA'd as a whole. */
    cvcu_pointer_info((const char *)ptr + (n - 1), &t1, &id1);
    return t1 == CU_MEMORYTYPE_HOST && id1 == id0;
}

/* --- the staging pipeline ------------------------------------------------------------------ */

typedef struct cvcu_staging {
    pthread_mutex_t lock; /* held for a whole transfer */
    struct cvcu_device *dev;
    unsigned generation; /* dev's when base and done were made */
    char *base;          /* CVCU_CHUNKS chunks of CVCU_CHUNK bytes */
    CUevent done[CVCU_CHUNKS];
    bool pending[CVCU_CHUNKS]; /* done[i] recorded after the last DMA touching chunk i */
} cvcu_staging;

static pthread_mutex_t cvcu_pools_lock = PTHREAD_MUTEX_INITIALIZER;
static cvcu_staging cvcu_pools[CVCU_POOLS];
static size_t cvcu_num_pools;

static char *cvcu_chunk(cvcu_staging *p, unsigned c) {
    return p->base + (size_t)c * CVCU_CHUNK;
}

/* Sets up a pool's memory and events on first use, and again after a reset of its device, which
 * destroyed them (the device's context is bound). */
static cl_int cvcu_staging_init(cvcu_staging *p) {
    cl_int err = CL_SUCCESS;
    if (p->base && cvcu_device_current(p->dev, p->generation))
        return err;
    p->base = NULL;
    for (unsigned c = 0; c < CVCU_CHUNKS; c++) {
        p->done[c] = NULL;
        p->pending[c] = false;
    }
    p->generation = cvcu_device_generation(p->dev);
    void *base = NULL;
    err = cvcu_host_alloc((size_t)CVCU_CHUNKS * CVCU_CHUNK, &base);
    for (unsigned c = 0; c < CVCU_CHUNKS && err == CL_SUCCESS; c++)
        err = CVCU_CALL(cvcu.cuEventCreate(&p->done[c], CU_EVENT_DISABLE_TIMING),
                        CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS) {
        p->base = base;
    } else {
        for (unsigned c = 0; c < CVCU_CHUNKS; c++) {
            if (p->done[c])
                cvcu.cuEventDestroy(p->done[c]);
            p->done[c] = NULL;
        }
        cvcu_host_free_unused(base);
    }
    return err;
}

/* Are all the chunk events of the pool's last users complete (nothing to wait for)? */
static bool cvcu_staging_idle(cvcu_staging *p) {
    bool idle = true;
    for (unsigned c = 0; c < CVCU_CHUNKS && idle; c++)
        idle = !p->pending[c] || cvcu.cuEventQuery(p->done[c]) == CUDA_SUCCESS;
    return idle;
}

/* A free staging pool of dev, locked, or NULL when all of them are in use (or none can be made):
 * the caller then takes another path rather than wait for another thread's transfer. */
static cvcu_staging *cvcu_staging_acquire(struct cvcu_device *dev, bool blocking) {
    cvcu_staging *got = NULL;
    unsigned mine = 0;
    pthread_mutex_lock(&cvcu_pools_lock);
    for (size_t i = 0; i < cvcu_num_pools && !got; i++) {
        if (cvcu_pools[i].dev != dev)
            continue;
        mine++;
        if (pthread_mutex_trylock(&cvcu_pools[i].lock) == 0)
            got = &cvcu_pools[i];
    }
    /* Two pools per device: a second thread transferring at the same time gets its own. */
    if (!got && mine < 2 && cvcu_num_pools < CVCU_POOLS) {
        got = &cvcu_pools[cvcu_num_pools++];
        pthread_mutex_init(&got->lock, NULL);
        got->dev = dev;
        pthread_mutex_lock(&got->lock);
    }
    pthread_mutex_unlock(&cvcu_pools_lock);
    if (got && (cvcu_staging_init(got) != CL_SUCCESS || (!blocking && !cvcu_staging_idle(got)))) {
        pthread_mutex_unlock(&got->lock);
        got = NULL;
    }
    return got;
}

/* One transfer through a staging pool: the chunks whose events it recorded on its stream, and
 * whether the copy's settle (core/backend.h) ran. */
typedef struct cvcu_pipe {
    cvcu_staging *p;
    CUstream s;
    const cvcu_host_copy *copy;
    unsigned mine; /* bit c: done[c] was recorded by this transfer */
    bool settled;
} cvcu_pipe;

/* Waits until chunk c is free. The first wait for a chunk of this transfer may also wait for
 * whatever was queued before it (a long kernel): a blocking copy settles there, sleeping the
 * core's way instead of spinning in cuEventSynchronize, and every chunk it recorded so far is
 * done after that. */
static cl_int cvcu_chunk_wait(cvcu_pipe *t, unsigned c) {
    cvcu_staging *p = t->p;
    cl_int err = CL_SUCCESS;
    if (p->pending[c] && (t->mine & (1u << c)) && t->copy->settle && !t->settled) {
        t->settled = true;
        err = t->copy->settle(t->copy->settle_arg);
        for (unsigned i = 0; i < CVCU_CHUNKS && err == CL_SUCCESS; i++)
            if (t->mine & (1u << i))
                p->pending[i] = false;
    }
    if (err == CL_SUCCESS && p->pending[c])
        err = CVCU_CALL(cvcu.cuEventSynchronize(p->done[c]), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        p->pending[c] = false;
    return err;
}

static cl_int cvcu_chunk_done(cvcu_pipe *t, unsigned c) {
    cl_int err = CVCU_CALL(cvcu.cuEventRecord(t->p->done[c], t->s), CL_OUT_OF_RESOURCES);
    t->p->pending[c] = err == CL_SUCCESS;
    t->mine |= 1u << c;
    return err;
}

static size_t cvcu_min(size_t a, size_t b) {
    return a < b ? a : b;
}

/* Host fills chunk i+1 while chunk i is DMA'd. */
static cl_int cvcu_staged_to_device(cvcu_pipe *t, cl_ulong dst, const char *src, size_t n) {
    cl_int err = CL_SUCCESS;
    for (size_t off = 0, i = 0; off < n && err == CL_SUCCESS; off += CVCU_CHUNK, i++) {
        size_t len = cvcu_min(CVCU_CHUNK, n - off);
        unsigned c = (unsigned)(i % CVCU_CHUNKS);
        err = cvcu_chunk_wait(t, c);
        if (err == CL_SUCCESS) {
            cvu_host_memcpy(cvcu_chunk(t->p, c), src + off, len);
            err = CVCU_CALL(
                cvcu.cuMemcpyHtoDAsync(CVCU_DPTR(dst + off), cvcu_chunk(t->p, c), len, t->s),
                CL_OUT_OF_RESOURCES);
        }
        if (err == CL_SUCCESS)
            err = cvcu_chunk_done(t, c);
    }
    return err;
}

static cl_int cvcu_staged_issue_read(cvcu_pipe *t, cl_ulong src, size_t n, size_t i) {
    size_t off = i * CVCU_CHUNK;
    unsigned c = (unsigned)(i % CVCU_CHUNKS);
    cl_int err = cvcu_chunk_wait(t, c);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemcpyDtoHAsync(cvcu_chunk(t->p, c), CVCU_DPTR(src + off),
                                               cvcu_min(CVCU_CHUNK, n - off), t->s),
                        CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = cvcu_chunk_done(t, c);
    return err;
}

/* The device fills the chunks ahead while the host empties the current one. Every chunk is
 * waited for: the copy is finished when this returns. */
static cl_int cvcu_staged_to_host(cvcu_pipe *t, char *dst, cl_ulong src, size_t n) {
    cl_int err = CL_SUCCESS;
    size_t chunks = (n + CVCU_CHUNK - 1) / CVCU_CHUNK;
    for (size_t i = 0; i < chunks && i < CVCU_CHUNKS && err == CL_SUCCESS; i++)
        err = cvcu_staged_issue_read(t, src, n, i);
    for (size_t i = 0; i < chunks && err == CL_SUCCESS; i++) {
        unsigned c = (unsigned)(i % CVCU_CHUNKS);
        size_t off = i * CVCU_CHUNK;
        err = cvcu_chunk_wait(t, c);
        if (err == CL_SUCCESS)
            cvu_host_memcpy(dst + off, cvcu_chunk(t->p, c), cvcu_min(CVCU_CHUNK, n - off));
        if (err == CL_SUCCESS && i + CVCU_CHUNKS < chunks)
            err = cvcu_staged_issue_read(t, src, n, i + CVCU_CHUNKS);
    }
    if (err == CL_SUCCESS && t->copy->done)
        *t->copy->done = true;
    return err;
}

/* --- bounce buffers for asynchronous pageable copies --------------------------------------- */

typedef struct cvcu_bounce {
    void *pinned; /* allocated in dev's context, of this generation */
    struct cvcu_device *dev;
    unsigned generation;
    size_t capacity;
    void *copy_to; /* reads: where the host function copies the bytes */
    size_t n;
    /* rect reads: the host function unpacks the packed rows into `unpack` */
    bool rect;
    cvcu_rect_side unpack, packed;
    size_t region[3];
    struct cvcu_bounce *next;
} cvcu_bounce;

static cl_int cvcu_copy_rows(const cvcu_host_copy *c, const cvcu_rect_side *dst,
                             const cvcu_rect_side *src, const size_t region[3]);

static pthread_mutex_t cvcu_bounce_lock = PTHREAD_MUTEX_INITIALIZER;
static cvcu_bounce *cvcu_bounces_free; /* back from host functions, ready for reuse */

static void CUDA_CB cvcu_bounce_finish(void *arg) {
    cvcu_bounce *b = arg;
    /* Host to host only: no CUDA call is allowed here. */
    if (b->rect)
        cvcu_copy_rows(NULL, &b->unpack, &b->packed, b->region);
    else if (b->copy_to)
        cvu_host_memcpy(b->copy_to, b->pinned, b->n);
    pthread_mutex_lock(&cvcu_bounce_lock);
    b->next = cvcu_bounces_free;
    cvcu_bounces_free = b;
    pthread_mutex_unlock(&cvcu_bounce_lock);
}

/* A bounce buffer of dev of at least n bytes: a free one that fits, else a new one. Frees the
 * large ones of dev that came back and keeps a few small ones (called from API threads, dev
 * bound: CUDA calls are fine). Those of other devices stay; those a reset freed are forgotten.
 * Each device has its own: pinned memory goes with the reset of the context it was allocated
 * in, which may come while another device's copies still run. */
static cl_int cvcu_bounce_get(struct cvcu_device *dev, size_t n, cvcu_bounce **out) {
    cvcu_bounce *got = NULL, *drop = NULL, *keep = NULL;
    unsigned kept = 0;
    pthread_mutex_lock(&cvcu_bounce_lock);
    for (cvcu_bounce *b = cvcu_bounces_free, *next; b; b = next) {
        next = b->next;
        if (!cvcu_device_current(b->dev, b->generation)) {
            free(b);
        } else if (b->dev != dev) {
            b->next = keep;
            keep = b;
        } else if (!got && b->capacity >= n) {
            got = b;
        } else if (b->capacity == CVCU_SMALL && kept < CVCU_KEEP_BOUNCES) {
            b->next = keep;
            keep = b;
            kept++;
        } else {
            b->next = drop;
            drop = b;
        }
    }
    cvcu_bounces_free = keep;
    pthread_mutex_unlock(&cvcu_bounce_lock);
    for (cvcu_bounce *b = drop, *next; b; b = next) {
        next = b->next;
        cvcu_host_free_unused(b->pinned);
        free(b);
    }
    cl_int err = CL_SUCCESS;
    if (!got) {
        got = calloc(1, sizeof *got);
        err = got ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        if (got) {
            got->dev = dev;
            got->generation = cvcu_device_generation(dev);
            got->capacity = n > CVCU_SMALL ? n : CVCU_SMALL;
            err = cvcu_host_alloc(got->capacity, &got->pinned);
        }
        if (err != CL_SUCCESS) {
            free(got);
            got = NULL;
        }
    }
    /* What the last use left (a rect read's rows to unpack, a read's destination) is not this
     * use's: the host function would copy there. */
    if (got) {
        got->copy_to = NULL;
        got->rect = false;
    }
    *out = got;
    return err;
}

/* Puts the bounce buffer back once the stream passes this point. */
static cl_int cvcu_bounce_release_after(cvcu_bounce *b, CUstream s) {
    cl_int err = CVCU_CALL(cvcu.cuLaunchHostFunc(s, cvcu_bounce_finish, b), CL_OUT_OF_RESOURCES);
    if (err != CL_SUCCESS) {
        /* Not in the stream: wait for the copy, then finish by hand. */
        cvcu.cuStreamSynchronize(s);
        b->copy_to = NULL;
        cvcu_bounce_finish(b);
    }
    return err;
}

static cl_int cvcu_bounced_to_device(const cvcu_host_copy *c, cl_ulong dst, const void *src,
                                     size_t n) {
    CUstream s = CVCU_STREAM(c->stream);
    cvcu_bounce *b = NULL;
    cl_int err = cvcu_bounce_get(c->dev, n, &b);
    if (err == CL_SUCCESS) {
        cvu_host_memcpy(b->pinned, src, n);
        err =
            CVCU_CALL(cvcu.cuMemcpyHtoDAsync(CVCU_DPTR(dst), b->pinned, n, s), CL_OUT_OF_RESOURCES);
        cl_int rel = cvcu_bounce_release_after(b, s);
        if (err == CL_SUCCESS)
            err = rel;
    }
    return err;
}

static cl_int cvcu_bounced_to_host(const cvcu_host_copy *c, void *dst, cl_ulong src, size_t n) {
    CUstream s = CVCU_STREAM(c->stream);
    cvcu_bounce *b = NULL;
    cl_int err = cvcu_bounce_get(c->dev, n, &b);
    if (err == CL_SUCCESS) {
        b->n = n;
        err =
            CVCU_CALL(cvcu.cuMemcpyDtoHAsync(b->pinned, CVCU_DPTR(src), n, s), CL_OUT_OF_RESOURCES);
        b->copy_to = err == CL_SUCCESS ? dst : NULL;
        cl_int rel = cvcu_bounce_release_after(b, s);
        if (err == CL_SUCCESS)
            err = rel;
    }
    return err;
}

/* --- host <-> device ------------------------------------------------------------------------ */

typedef enum cvcu_path {
    CVCU_DIRECT, /* one CUDA async copy: pinned memory, or a small blocking one */
    CVCU_STAGED, /* the pipeline, in this thread */
    CVCU_BOUNCED /* a pinned bounce buffer, fully asynchronous */
} cvcu_path;

static cvcu_path cvcu_choose(const cvcu_host_copy *c, bool to_host, const void *host, size_t n,
                             cvcu_staging **pool) {
    *pool = NULL;
    /* A range on its way out is never handed to CUDA, which still calls it pinned. */
    bool dying = cvcu_host_dying(host, n);
    /* A small blocking write takes the same one call for pinned and pageable memory (CUDA
     * stages pageable data at once): no need to look up which kind it is. */
    if (c->blocking && !to_host && n < CVCU_SMALL && !dying)
        return CVCU_DIRECT;
    if (!dying && cvcu_host_is_pinned(host, n))
        return CVCU_DIRECT;
    /* With nothing left on the stream, waiting for it cannot wait on the application. */
    bool may_wait = c->blocking || cvcu_stream_query(c->stream) == CL_COMPLETE;
    /* A small blocking read DMAs into a staging chunk and copies out: on the H100 that is
     * 0.3-0.5 us faster than CUDA's own pageable path (which does the same plus more). */
    if (n < CVCU_SMALL && !(c->blocking && to_host) && !dying)
        return may_wait ? CVCU_DIRECT : CVCU_BOUNCED;
    if (may_wait)
        *pool = cvcu_staging_acquire(c->dev, c->blocking);
    if (*pool)
        return CVCU_STAGED;
    /* Every pool busy with another thread's transfer: CUDA's own staging for blocking ones. */
    return c->blocking && !dying ? CVCU_DIRECT : CVCU_BOUNCED;
}

/* Host memory <-> device memory by the path cvcu_choose picks. */
static cl_int cvcu_copy_host(const cvcu_host_copy *c, bool to_host, void *host, cl_ulong device,
                             size_t n) {
    cvcu_staging *pool = NULL;
    CUstream s = CVCU_STREAM(c->stream);
    cl_int err = CL_SUCCESS;
    if (n == 0)
        return err;
    /* From the decision until the copy is queued: a release of the memory waits (the fence). */
    unsigned long issue = cvcu_issue_begin();
    cvcu_path path = cvcu_choose(c, to_host, host, n, &pool);
    if (path != CVCU_DIRECT)
        cvcu_issue_end(issue);
    switch (path) {
    case CVCU_DIRECT:
        err = to_host ? CVCU_CALL(cvcu.cuMemcpyDtoHAsync(host, CVCU_DPTR(device), n, s),
                                  CL_OUT_OF_RESOURCES)
                      : CVCU_CALL(cvcu.cuMemcpyHtoDAsync(CVCU_DPTR(device), host, n, s),
                                  CL_OUT_OF_RESOURCES);
        cvcu_issue_end(issue);
        break;
    case CVCU_STAGED: {
        cvcu_pipe t = {pool, s, c, 0, false};
        err = to_host ? cvcu_staged_to_host(&t, host, device, n)
                      : cvcu_staged_to_device(&t, device, host, n);
        pthread_mutex_unlock(&pool->lock);
        break;
    }
    case CVCU_BOUNCED:
        err = to_host ? cvcu_bounced_to_host(c, host, device, n)
                      : cvcu_bounced_to_device(c, device, host, n);
        break;
    }
    return err;
}

cl_int cvcu_copy_to_device(const cvcu_host_copy *c, cl_ulong dst, const void *src, size_t n) {
    return cvcu_copy_host(c, false, (void *)(uintptr_t)src, dst, n);
}

cl_int cvcu_copy_to_host(const cvcu_host_copy *c, void *dst, cl_ulong src, size_t n) {
    return cvcu_copy_host(c, true, dst, src, n);
}

cl_int cvcu_copy_device(cvcu_stream *s, cl_ulong dst, cl_ulong src, size_t n) {
    cl_int err = CL_SUCCESS;
    if (n > 0)
        /* cuMemcpyAsync: unified addressing tells device memory, mapped host memory (host
         * values) and other devices' memory (migration) apart. */
        err = CVCU_CALL(cvcu.cuMemcpyAsync(CVCU_DPTR(dst), CVCU_DPTR(src), n, CVCU_STREAM(s)),
                        CL_OUT_OF_RESOURCES);
    return err;
}

typedef struct cvcu_host_move {
    void *dst;
    const void *src;
    size_t n;
} cvcu_host_move;

static void CUDA_CB cvcu_host_move_run(void *arg) {
    cvcu_host_move *m = arg;
    /* Host to host only: no CUDA call is allowed here. */
    memmove(m->dst, m->src, m->n);
    free(m);
}

cl_int cvcu_copy_host_to_host(const cvcu_host_copy *c, void *dst, const void *src, size_t n) {
    cl_int err = CL_SUCCESS;
    if (n == 0)
        return err;
    if (c->blocking) {
        /* The stream's work before the copy first: its results may be what is copied. */
        err = c->settle ? c->settle(c->settle_arg)
                        : CVCU_CALL(cvcu.cuStreamSynchronize(CVCU_STREAM(c->stream)),
                                    CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            cvu_host_memcpy(dst, src, n);
        if (err == CL_SUCCESS && c->done)
            *c->done = true;
    } else {
        cvcu_host_move *m = malloc(sizeof *m);
        err = m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        if (m) {
            *m = (cvcu_host_move){dst, src, n};
            err = CVCU_CALL(cvcu.cuLaunchHostFunc(CVCU_STREAM(c->stream), cvcu_host_move_run, m),
                            CL_OUT_OF_RESOURCES);
            if (err != CL_SUCCESS)
                free(m);
        }
    }
    return err;
}

/* --- rectangles ----------------------------------------------------------------------------- */

/* Address of (x, y, z) of one side: origins are folded into the base so CUDA sees X = Y = Z = 0
 * (OpenCL allows origin[0] + region[0] > row_pitch; cuMemcpy3D does not). */
static size_t cvcu_rect_offset(const cvcu_rect_side *r, size_t y, size_t z) {
    return (r->origin[2] + z) * r->slice_pitch + (r->origin[1] + y) * r->row_pitch + r->origin[0];
}

static void cvcu_rect_fill(CUDA_MEMCPY3D *m, const cvcu_rect_side *r, bool dst) {
    size_t off = cvcu_rect_offset(r, 0, 0);
    CUmemorytype type = r->host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    size_t height = r->slice_pitch / r->row_pitch;
    if (dst) {
        m->dstMemoryType = type;
        m->dstHost = r->host ? (char *)r->host + off : NULL;
        m->dstDevice = r->host ? 0 : CVCU_DPTR(r->device + off);
        m->dstPitch = r->row_pitch;
        m->dstHeight = height;
    } else {
        m->srcMemoryType = type;
        m->srcHost = r->host ? (const char *)r->host + off : NULL;
        m->srcDevice = r->host ? 0 : CVCU_DPTR(r->device + off);
        m->srcPitch = r->row_pitch;
        m->srcHeight = height;
    }
}

/* Row by row, for what cuMemcpy3D refuses (pitches beyond CUDA's limit). */
static cl_int cvcu_copy_rows(const cvcu_host_copy *c, const cvcu_rect_side *dst,
                             const cvcu_rect_side *src, const size_t region[3]) {
    cl_int err = CL_SUCCESS;
    for (size_t z = 0; z < region[2] && err == CL_SUCCESS; z++) {
        for (size_t y = 0; y < region[1] && err == CL_SUCCESS; y++) {
            size_t d = cvcu_rect_offset(dst, y, z), s = cvcu_rect_offset(src, y, z);
            if (dst->host && src->host)
                memmove((char *)dst->host + d, (const char *)src->host + s, region[0]);
            else if (dst->host)
                err = cvcu_copy_to_host(c, (char *)dst->host + d, src->device + s, region[0]);
            else if (src->host)
                err =
                    cvcu_copy_to_device(c, dst->device + d, (const char *)src->host + s, region[0]);
            else
                err = cvcu_copy_device(c->stream, dst->device + d, src->device + s, region[0]);
        }
    }
    return err;
}

void cvcu_rect_params(CUDA_MEMCPY3D *m, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                      const size_t region[3]) {
    memset(m, 0, sizeof *m);
    cvcu_rect_fill(m, dst, true);
    cvcu_rect_fill(m, src, false);
    m->WidthInBytes = region[0];
    m->Height = region[1];
    m->Depth = region[2];
}

size_t cvcu_rect_row_offset(const cvcu_rect_side *r, size_t y, size_t z) {
    return cvcu_rect_offset(r, y, z);
}

/* One cuMemcpy3DAsync; row by row where CUDA refuses the pitches. */
static cl_int cvcu_rect_direct(const cvcu_host_copy *c, const cvcu_rect_side *dst,
                               const cvcu_rect_side *src, const size_t region[3]) {
    /* CUDA steps through slices by pitch x height: a slice pitch of no whole number of rows
     * (images' host sides may have one) goes row by row. */
    if (region[2] > 1 && (dst->slice_pitch % dst->row_pitch || src->slice_pitch % src->row_pitch))
        return cvcu_copy_rows(c, dst, src, region);
    CUDA_MEMCPY3D m;
    cvcu_rect_params(&m, dst, src, region);
    CUresult r = cvcu.cuMemcpy3DAsync(&m, CVCU_STREAM(c->stream));
    return r == CUDA_SUCCESS ? CL_SUCCESS : cvcu_copy_rows(c, dst, src, region);
}

/* A non-blocking rect with pageable host memory, through a pinned bounce buffer holding the
 * rows packed: a write packs them now; a read unpacks them in a host function on the stream.
 * Neither waits for the stream (cuMemcpy3DAsync on pageable memory may). */
static cl_int cvcu_rect_bounced(const cvcu_host_copy *c, const cvcu_rect_side *dst,
                                const cvcu_rect_side *src, const size_t region[3]) {
    cvcu_bounce *b = NULL;
    cl_int err = cvcu_bounce_get(c->dev, region[0] * region[1] * region[2], &b);
    if (err != CL_SUCCESS)
        return err;
    cvcu_rect_side packed = {0, b->pinned, {0, 0, 0}, region[0], region[0] * region[1]};
    if (src->host) {
        cvcu_copy_rows(NULL, &packed, src, region);
        err = cvcu_rect_direct(c, dst, &packed, region);
    } else {
        err = cvcu_rect_direct(c, &packed, src, region);
        b->rect = err == CL_SUCCESS;
        b->unpack = *dst;
        b->packed = packed;
        memcpy(b->region, region, sizeof b->region);
    }
    cl_int rel = cvcu_bounce_release_after(b, CVCU_STREAM(c->stream));
    return err == CL_SUCCESS ? rel : err;
}

/* Does the side's region lie in one run of bytes (whole rows, whole slices)? */
static bool cvcu_rect_contiguous(const cvcu_rect_side *r, const size_t region[3]) {
    return (region[1] == 1 || r->row_pitch == region[0]) &&
           (region[2] == 1 || r->slice_pitch == region[0] * region[1]);
}

cl_int cvcu_copy_rect(const cvcu_host_copy *c, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                      const size_t region[3]) {
    /* One run of bytes on both sides (an image's full rows at its own pitch, a buffer rectangle
     * of whole rows): the linear copies, whose pageable paths are the staged pipeline's. */
    if (cvcu_rect_contiguous(dst, region) && cvcu_rect_contiguous(src, region)) {
        size_t n = region[0] * region[1] * region[2], d = cvcu_rect_offset(dst, 0, 0),
               s = cvcu_rect_offset(src, 0, 0);
        if (dst->host && src->host)
            return cvcu_copy_host_to_host(c, (char *)dst->host + d, (const char *)src->host + s, n);
        if (dst->host)
            return cvcu_copy_to_host(c, (char *)dst->host + d, src->device + s, n);
        if (src->host)
            return cvcu_copy_to_device(c, dst->device + d, (const char *)src->host + s, n);
        return cvcu_copy_device(c->stream, dst->device + d, src->device + s, n);
    }
    const cvcu_rect_side *host = dst->host ? dst : src->host ? src : NULL;
    /* The bytes of the host side the copy touches: a range on its way out is bounced, never
     * handed to CUDA; a non-blocking one is DMA'd only where all of it is pinned. */
    const char *first = host ? (const char *)host->host + cvcu_rect_offset(host, 0, 0) : NULL;
    size_t len = host ? cvcu_rect_offset(host, region[1] - 1, region[2] - 1) + region[0] -
                            cvcu_rect_offset(host, 0, 0)
                      : 0;
    unsigned long issue = cvcu_issue_begin();
    bool bounce =
        host && (cvcu_host_dying(first, len) || (!c->blocking && !cvcu_host_is_pinned(first, len)));
    cl_int err = CL_SUCCESS;
    if (bounce) {
        cvcu_issue_end(issue);
        err = cvcu_rect_bounced(c, dst, src, region);
    } else {
        err = cvcu_rect_direct(c, dst, src, region);
        cvcu_issue_end(issue);
    }
    return err;
}

/* --- fills ---------------------------------------------------------------------------------- */

size_t cvcu_fill_head(size_t reps, size_t size) {
    return cvcu_min(reps, (CVCU_SMALL / size) ? CVCU_SMALL / size : 1);
}

size_t cvcu_pattern_period(const unsigned char *p, size_t size) {
    while (size > 1 && memcmp(p, p + size / 2, size / 2) == 0)
        size /= 2;
    return size;
}

cl_int cvcu_fill(cvcu_stream *stream, cl_ulong dst, const void *pattern, size_t pattern_size,
                 size_t n) {
    CUstream s = CVCU_STREAM(stream);
    const unsigned char *p = pattern;
    size_t size = cvcu_pattern_period(p, pattern_size);
    cl_int err = CL_SUCCESS;
    uint16_t v16;
    uint32_t v32;
    if (n == 0)
        return err;
    switch (size) {
    case 1:
        err = CVCU_CALL(cvcu.cuMemsetD8Async(CVCU_DPTR(dst), p[0], n, s), CL_OUT_OF_RESOURCES);
        break;
    case 2:
        memcpy(&v16, p, 2);
        err = CVCU_CALL(cvcu.cuMemsetD16Async(CVCU_DPTR(dst), v16, n / 2, s), CL_OUT_OF_RESOURCES);
        break;
    case 4:
        memcpy(&v32, p, 4);
        err = CVCU_CALL(cvcu.cuMemsetD32Async(CVCU_DPTR(dst), v32, n / 4, s), CL_OUT_OF_RESOURCES);
        break;
    default: {
        /* 8 to 128 bytes: each 32-bit word of the pattern is a 2D memset with the pattern as
         * pitch, over a head of up to 64 KiB; the head is then doubled by device copies. The
         * values travel by value, so the pattern may be reused as soon as this returns. */
        size_t reps = n / size;
        size_t head = cvcu_fill_head(reps, size);
        for (size_t w = 0; w < size / 4 && err == CL_SUCCESS; w++) {
            memcpy(&v32, p + 4 * w, 4);
            err = CVCU_CALL(cvcu.cuMemsetD2D32Async(CVCU_DPTR(dst + 4 * w), size, v32, 1, head, s),
                            CL_OUT_OF_RESOURCES);
        }
        for (size_t done = head * size; done < n && err == CL_SUCCESS;) {
            size_t len = cvcu_min(done, n - done);
            err = cvcu_copy_device(stream, dst + done, dst, len);
            done += len;
        }
        break;
    }
    }
    return err;
}
