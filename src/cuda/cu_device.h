/* What src/cuda knows of a device beyond core/backend.h: its primary context, the cl_contexts
 * that use it, and the fault that poisoned it.
 *
 * A fault (a sticky CUDA error: a kernel's illegal access, a copy into unmapped memory) leaves
 * the primary context unusable for the rest of the process: every call on it answers the same
 * error. The device is then lost: culvert starts nothing more on it (cvcu_device_bind fails),
 * and once no cl_context uses it any more the next cl_context resets the primary context
 * (cuDevicePrimaryCtxReset) and starts afresh. The reset destroys everything of the context, so
 * what src/cuda keeps per device beyond one cl_context (slot pages, staging pools, bounce
 * buffers, the profiling clock, the reaper's pending releases) records the generation it was
 * made in: state of an earlier generation is dropped, never used or freed. */
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
    _Atomic(CUcontext) ctx; /* the primary context (retained again after a reset) */
    cvcu_device_props props;
    _Atomic unsigned generation;  /* resets of the primary context so far */
    _Atomic int fault;            /* the sticky CUresult; 0 while the device is healthy */
    pthread_mutex_t fault_lock;   /* guards fault_what */
    char fault_what[160];         /* the error's name and the call that reported it */
    pthread_mutex_t use_lock;     /* guards users; held by a recovery */
    unsigned users;               /* cl_contexts using the device */
    struct cvcu_slot_pool *slots; /* under cu_slots.c's lock */
};

/* The device whose primary context is ctx, or NULL. */
struct cvcu_device *cvcu_device_of_context(CUcontext ctx);
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

/* The recovery's helpers, called before the reset: the slot pages of dev go with it (their
 * gates too, cu_slots.c); the reaper runs no release during it (cu_memory.c). */
void cvcu_slots_forget_device(struct cvcu_device *dev);
void cvcu_reap_pause(void);
void cvcu_reap_resume(void);

#endif
