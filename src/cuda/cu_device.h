/* What src/cuda knows of a device beyond core/backend.h: the CUDA context culvert uses on it, the
 * cl_contexts that use it, and the fault that poisoned it.
 *
 * culvert uses the device's primary context (shared with the CUDA runtime). A fault (a sticky CUDA
 * error: a kernel's illegal access, a copy into unmapped memory) leaves that context unusable:
 * every call on it answers the same error. The device is then lost: culvert starts nothing more
 * on it (cvcu_device_bind fails), and once no cl_context uses it any more the next cl_context
 * recovers it (cu_recover.c): it resets the primary context (cuDevicePrimaryCtxReset) and checks
 * that the context works; where it does not, culvert creates a context of its own on the device
 * (cuCtxCreate) and uses that one instead. Either way everything of the lost context is gone, so
 * what src/cuda keeps per device beyond one cl_context (slot pages, staging pools, bounce
 * buffers, the profiling clock, kernel timing's probe and slot chunks, the reaper's pending
 * releases) records the generation it was made in: state of an earlier generation is dropped,
 * never used or freed. Threads bind the context again when the generation moved on
 * (cvcu_device_set_current), whatever handle they still have current. */
#ifndef CV_CUDA_DEVICE_H
#define CV_CUDA_DEVICE_H

#include "core/backend.h"

#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct cvcu_slot_pool; /* cu_slots.c */

struct cvcu_device {
    CUdevice dev;
    _Atomic(CUcontext) ctx; /* the context culvert uses: the primary one, or own_ctx */
    CUcontext primary;      /* the primary context's handle (retained); under use_lock */
    bool own_ctx;           /* ctx is culvert's own (cuCtxCreate); under use_lock */
    cvcu_device_props props;
    _Atomic unsigned generation;   /* recoveries so far (each drops the context's state) */
    _Atomic int fault;             /* the sticky CUresult; 0 while the device is healthy */
    pthread_mutex_t fault_lock;    /* guards fault_what */
    char fault_what[160];          /* the error's name and the call that reported it */
    pthread_mutex_t use_lock;      /* guards users; held by a recovery */
    unsigned users;                /* cl_contexts using the device */
    struct cvcu_slot_pool *slots;  /* under cu_slots.c's lock */
    _Atomic unsigned printf_sized; /* 1 + the generation whose context has its printf buffer */
    bool unrecoverable; /* every try failed with a sticky error, a new context's too: the driver
                           keeps the fault for the process; under use_lock */
};

/* The device whose context (the one culvert uses now) is ctx, or NULL. */
struct cvcu_device *cvcu_device_of_context(CUcontext ctx);
/* Makes dev's context current on the calling thread where it is not, or where this thread bound
 * it before the device's last recovery (the same handle may name a context made since). */
CUresult cvcu_device_set_current(struct cvcu_device *dev);
/* Is r an error that poisons the context (sticky until a reset)? */
bool cvcu_sticky(CUresult r);
/* The call `what` answered the sticky error r on the calling thread's context: its device is
 * lost (the first report counts). */
void cvcu_device_note_fault(CUresult r, const char *what);
/* Whether state made in `generation` of dev (NULL: state of no device) is still valid: dev was
 * not reset since. */
static inline bool cvcu_device_current(struct cvcu_device *dev, unsigned generation) {
    return !dev || atomic_load_explicit(&dev->generation, memory_order_acquire) == generation;
}
static inline unsigned cvcu_device_generation(struct cvcu_device *dev) {
    return dev ? atomic_load_explicit(&dev->generation, memory_order_acquire) : 0;
}

/* Recovers a lost device (cu_recover.c): a new generation; the primary context reset and
 * checked, else a context of culvert's own created and checked. CL_SUCCESS with the device
 * healthy and bound, or CL_DEVICE_NOT_AVAILABLE with it still lost. Called with use_lock held,
 * no cl_context using the device. */
cl_int cvcu_device_recover(struct cvcu_device *d);

/* The recovery's helpers, called before the reset: the slot pages of dev go with it (their
 * gates too, cu_slots.c); the reaper runs no release during it (cu_memory.c). */
void cvcu_slots_forget_device(struct cvcu_device *dev);
void cvcu_reap_pause(void);
void cvcu_reap_resume(void);

#endif
