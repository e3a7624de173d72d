/* What the fake driver's files share: its one lock, device-wide calls, call counting, the current
 * context, the state the tests read, memory ranges and stream operations. Everything declared here
 * stays inside libcuda.so.1 (hidden); the cu* functions and fakecuda_get_state are its exports. */
#ifndef CV_TEST_FAKE_INTERNAL_H
#define CV_TEST_FAKE_INTERNAL_H

#include "fake_cuda.h"

#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* ---- the lock: L guards memory ranges, streams, events and the recorded state; C is signalled
 * whenever a stream, an event or a device-wide call makes progress */
extern pthread_mutex_t fake_L;
extern pthread_cond_t fake_C;
/* Takes L; while a device-wide call (fake_device_wide_wait) runs, other threads' calls wait
 * (the streams' threads and the caller itself go on), as the real driver holds them up. */
void fake_lock(void);
#define LOCK   fake_lock()
#define UNLOCK pthread_mutex_unlock(&fake_L)
/* Under L: waits until no stream holds work that waits for something (a value or an event
 * wait, a host function), holding up every other thread's calls meanwhile (the real driver's
 * frees and module loads: a stream gated on a value the caller's process must write deadlocks
 * them). Copies and fills still queued are not waited for: the H100's driver does not order a
 * release after them (bench/unregister_probe), fake_check_unused catches it. */
void fake_device_wide_wait(void);

/* ---- call counting (fake_calls.c); every cu* function starts with FAKE_CALL */
void fake_count(const char *name);
/* The cu* function the calling thread is in (named by its FAKE_CALL). */
extern __thread const char *fake_call_name;
/* Counts a call of a function the fake does not implement, logs it once per name, and answers
 * CUDA_ERROR_NOT_SUPPORTED (the generated stubs, fake_stubs.c). */
CUresult fake_unsupported(const char *name);
/* Records a value or event wait of a counting thread in the state. */
void fake_note_wait_value(CUstream s, CUdeviceptr addr, uint64_t value);
void fake_note_wait_event(CUstream s, CUevent e);
#define FAKE_CALL fake_count(__func__)
extern fakecuda_state fake_state;

/* ---- contexts: the device's primary context and those cuCtxCreate makes, current per thread.
 * The fake keeps one set of streams, events, modules and allocations: those of the context that
 * owns them (fake_owner: the primary context, or from a cuCtxCreate on the context it made, until
 * its cuCtxDestroy). A new owner's arrival destroys the old owner's set (culvert creates a context
 * only once the primary one is lost): a handle of it used later aborts the test. */
typedef struct fake_context {
    _Atomic int sticky; /* the error of a fault (a CUresult), until a reset; 0 while healthy */
    bool created;       /* by cuCtxCreate */
    bool destroyed;     /* by cuCtxDestroy (kept, so that a stale use is caught) */
} fake_context;
extern fake_context fake_primary;
extern fake_context *_Atomic fake_owner;
#define FAKE_CTX ((CUcontext)&fake_primary)
/* CUDA_SUCCESS when the calling thread's current context is the owner, healthy;
 * CUDA_ERROR_INVALID_CONTEXT without a context, CUDA_ERROR_CONTEXT_IS_DESTROYED for a destroyed
 * one; the sticky error of a faulted one. A healthy context other than the owner aborts (the fake
 * models the resources of one context at a time). */
CUresult fake_need_ctx(void);

/* ---- faults: a fault (a launch of FAKECUDA_FAULT_KERNEL reaching the head of its stream)
 * poisons the owner as a GPU exception does: the streams drop their work, and every call on the
 * context answers the sticky error (fake_sticky) until cuDevicePrimaryCtxReset (for the primary
 * context; with FAKECUDA_RESET_KEEPS_FAULT=1 the reset destroys everything but leaves the error,
 * as a driver may: then only a context made by cuCtxCreate works) or cuCtxDestroy. Both destroy
 * every stream, event, module and allocation of the context; generation counts these ends: a
 * handle made before one aborts the test when used. */
#define fake_sticky (atomic_load(&fake_owner)->sticky)
extern _Atomic unsigned fake_generation;
/* Under L: poisons the owner with r (the first fault wins). */
void fake_fault(CUresult r);
/* Not under L: r, from a call that tears an object of the poisoned context down (cuStreamDestroy,
 * cuEventDestroy, cuMemFree, cuMemFreeHost, cuMemHostUnregister), answered only after
 * FAKECUDA_LOST_TEARDOWN_US microseconds where r is the sticky error (default 0: at once). A
 * model of a driver that tears a faulted context's objects down slowly: culvert's teardown of a
 * lost context, on whatever thread drops its last hold, takes that long per call. */
CUresult fake_lost_teardown(CUresult r);
/* Under L: every stream drops the work queued behind the operation at its head. */
void fake_drop_queued(void);
/* Under L, for a reset or a destroy: every stream dies (fake_stream.c), every allocation goes
 * (fake_memory.c: pinned pages become inaccessible, as unmapped memory would). */
void fake_reset_streams(void);
void fake_reset_memory(void);
/* A device attribute (0 for those the fake does not list). */
int fake_attribute(CUdevice_attribute a);

#define P(x) ((void *)(uintptr_t)(x))

/* ---- memory (fake_memory.c) */
/* Aborts unless [p, p+n) lies within one allocation (device, pinned or registered). */
void fake_check_range(CUdeviceptr p, size_t n);
/* Under L: the id of the allocation p lies in (0: none). host: p is a host address (pinned or
 * registered memory); else a device address (device memory, or mapped pinned memory). */
unsigned long long fake_range_id(const void *p, bool host);
/* Under L: aborts when an operation still queued on a stream (not yet run, or held up at the
 * head) uses allocation `id`, which `call`(p) is taking away: a GPU would run it through memory
 * that cuMemFree, cuMemFreeHost or cuMemHostUnregister removes (a copy engine's MMU fault, Xid
 * 31, on the H100: the driver does not order these calls after queued DMAs). */
void fake_check_unused(unsigned long long id, const char *call, const void *p);

/* ---- streams (fake_stream.c): a queue of operations each, run by the stream's own thread */
struct CUevent_st {
    unsigned generation; /* fake_generation when created */
    unsigned flags;
    unsigned long recorded, done; /* sequence numbers */
    double t;
    int destroyed;
};

typedef enum fake_op_kind {
    OP_RECORD,
    OP_WAIT_EVENT,
    OP_WAIT_VALUE,
    OP_WRITE_VALUE,
    OP_COPY,
    OP_COPY3D,
    OP_SET,
    OP_HOST,   /* fn(arg) on the stream's thread, the lock released */
    OP_RUN,    /* fn(arg) under the lock (a kernel the fake runs: fake_timer.c) */
    OP_FAULT,  /* a kernel that faults once its stream reaches it */
    OP_KERNEL, /* a kernel's stream time: n microseconds, the lock released */
    OP_LAUNCH  /* a graph's kernel node: its launch recorded when the stream reaches it */
} fake_op_kind;

typedef struct fake_op {
    fake_op_kind kind;
    CUevent ev;
    unsigned long seq;
    volatile uint64_t *addr;
    uint64_t value;
    unsigned flags;
    void *dst;
    const void *src;
    size_t n, esz, pitch, w, h;
    CUDA_MEMCPY3D m3;
    CUhostFn fn;
    void *arg;
    bool host_side[2];          /* OP_COPY: dst, src are host memory */
    unsigned long long uses[2]; /* the allocations it uses (fake_range_id), 0: none */
    const char *call;           /* the cu* function that queued it */
    unsigned generation;        /* fake_generation when queued: a reset since ends it */
    fakecuda_launch *launch;    /* OP_LAUNCH: owned by the op, freed once recorded */
    struct fake_op *next;
} fake_op;

/* Queues o on s (NULL: the legacy stream), or, in instant mode, runs it at once; the sticky error
 * after a fault. */
CUresult fake_enqueue(CUstream s, fake_op o);
/* Queues n operations on s one after the other, with nothing of other threads between them (a
 * graph launch). */
CUresult fake_enqueue_all(CUstream s, const fake_op *ops, size_t n);
/* A 64-bit value operation's address: 8-byte aligned (the driver refuses others), inside memory
 * the device sees. */
CUresult fake_value_address(CUdeviceptr a);

/* ---- launches (fake_module.c): the driver's checks (the context's error, a function of an
 * earlier generation aborts), the record, and adding it to the state (under L; past
 * FAKECUDA_MAX_LAUNCHES the records start again, so the last is the latest) */
CUresult fake_launch_check(CUfunction f, const unsigned grid[3], const unsigned block[3],
                           unsigned smem, void **params, const unsigned cluster[3]);
void fake_launch_fill(fakecuda_launch *l, CUfunction f, const unsigned grid[3],
                      const unsigned block[3], unsigned smem, void **params,
                      const unsigned cluster[3], bool coop, bool ex);
void fake_launch_record(const fakecuda_launch *l);
/* Does FAKECUDA_FAULT_KERNEL name this function, or the kernel it is the timed twin of (its
 * launches fault)? */
bool fake_launch_faults(const char *name);
/* Whether the calling thread counts its calls (between calls_begin and calls_end). */
bool fake_counting(void);
/* A program kernel's stream time per launch, in microseconds (launch_us; 0: none). */
unsigned fake_launch_us(void);
/* Under L: s itself, or the legacy stream for NULL. Aborts for a stream of an earlier
 * generation (made before a reset). */
CUstream fake_stream(CUstream s);
/* Aborts for an event made before a reset. */
void fake_check_event(CUevent e);
/* Under L: waits until s has run everything queued on it; fake_drain_all: every stream. */
void fake_drain(CUstream s);
void fake_drain_all(void);
/* Under L: runs a copy (OP_COPY or OP_COPY3D) in the calling thread. */
void fake_copy_now(const fake_op *o);
/* What a stream or event query answers: the test's query_answer, or the truth. */
CUresult fake_query_answer(bool done);

/* ---- kernels the fake runs (fake_timer.c): culvert's clock probe and timed twins */
/* The fake %globaltimer: ns since 1970 as NVIDIA's drivers count, in steps of 32 ns. */
uint64_t fake_globaltimer(void);
/* Queues on s what a launch of the kernel `name` (n parameters, the last named `last`) does,
 * for the kernels the fake runs; nothing for the others. */
CUresult fake_kernel_run(CUstream s, const char *name, unsigned n, const char *last, void **params);
/* Queues on s a launch's stream time (launch_us; nothing while it is 0). */
CUresult fake_kernel_time(CUstream s);

#pragma GCC visibility pop

#endif
