/* What the fake driver's files share: its one lock, device-wide calls, call counting, the current
 * context, the state the tests read, memory ranges and stream operations. Everything declared here
 * stays inside libcuda.so.1 (hidden); the cu* functions and fakecuda_get_state are its exports. */
#ifndef CV_TEST_FAKE_INTERNAL_H
#define CV_TEST_FAKE_INTERNAL_H

#include "fake_cuda.h"

#include <cuda.h>
#include <pthread.h>
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
/* Under L: waits until every stream has drained, holding up every other thread's calls
 * meanwhile (the real driver's frees and module loads). */
void fake_device_wide_wait(void);

/* ---- call counting (fake_calls.c); every cu* function starts with FAKE_CALL */
void fake_count(const char *name);
/* Counts a call of a function the fake does not implement, logs it once per name, and answers
 * CUDA_ERROR_NOT_SUPPORTED (the generated stubs, fake_stubs.c). */
CUresult fake_unsupported(const char *name);
/* Records a value or event wait of a counting thread in the state. */
void fake_note_wait_value(CUstream s, CUdeviceptr addr, uint64_t value);
void fake_note_wait_event(CUstream s, CUevent e);
#define FAKE_CALL fake_count(__func__)
extern fakecuda_state fake_state;

/* ---- context: one device, one primary context */
extern int fake_ctx_storage;
#define FAKE_CTX ((CUcontext)&fake_ctx_storage)
/* CUDA_SUCCESS when the calling thread's current context is the fake's and no fault poisoned it;
 * CUDA_ERROR_INVALID_CONTEXT without it; the sticky error after a fault. */
CUresult fake_need_ctx(void);

/* ---- faults: a fault (a launch of FAKECUDA_FAULT_KERNEL reaching the head of its stream)
 * poisons the context as a GPU exception does: the streams drop their work,
 * and every call on the context answers the sticky error (fake_sticky) until
 * cuDevicePrimaryCtxReset, which destroys every stream, event, module and allocation of the
 * context. generation counts the resets: a handle made before one aborts the test when used. */
extern _Atomic int fake_sticky;
extern _Atomic unsigned fake_generation;
/* Under L: poisons the context with r (the first fault wins). */
void fake_fault(CUresult r);
/* Under L: every stream drops the work queued behind the operation at its head. */
void fake_drop_queued(void);
/* Under L, for the reset: every stream dies (fake_stream.c), every allocation goes
 * (fake_memory.c: pinned pages become inaccessible, as unmapped memory would). */
void fake_reset_streams(void);
void fake_reset_memory(void);
/* A device attribute (0 for those the fake does not list). */
int fake_attribute(CUdevice_attribute a);

#define P(x) ((void *)(uintptr_t)(x))

/* ---- memory (fake_memory.c) */
/* Aborts unless [p, p+n) lies within one allocation (device, pinned or registered). */
void fake_check_range(CUdeviceptr p, size_t n);

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
    OP_HOST,
    OP_FAULT, /* a kernel that faults once its stream reaches it */
    OP_LAUNCH /* a kernel node's launch, recorded (and faulting as OP_FAULT) when the stream
               * reaches it */
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
    fakecuda_launch *launch; /* OP_LAUNCH: owned by the op, freed once recorded */
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

/* ---- launches (fake_module.c): the driver's checks, the record, and adding it to the state
 * (under L; false when the state is full) */
CUresult fake_launch_check(CUfunction f, const unsigned grid[3], const unsigned block[3],
                           unsigned smem, void **params, const unsigned cluster[3]);
void fake_launch_fill(fakecuda_launch *l, CUfunction f, const unsigned grid[3],
                      const unsigned block[3], unsigned smem, void **params,
                      const unsigned cluster[3], bool coop, bool ex);
bool fake_launch_record(const fakecuda_launch *l);
/* Does FAKECUDA_FAULT_KERNEL name this function (its launches fault)? */
bool fake_launch_faults(const char *name);
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

#pragma GCC visibility pop

#endif
