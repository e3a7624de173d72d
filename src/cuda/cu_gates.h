/* The gates' side that only src/cuda uses: the driver calls that must not run while a gate is
 * closed (cu_memory.c's frees), and the ends of a slot's or a stream's use. A gate is a
 * cuStreamWaitValue64 on a host flag (cvcu_stream_wait_value, core/backend.h) that only the host
 * opens. The host flags are one mechanism in three files: cu_slots.c (the slots and the GPU's
 * writes), cu_gates.c (the waits, their bookkeeping and the warning about waits that stay
 * closed), this header. */
#ifndef CV_CUDA_GATES_H
#define CV_CUDA_GATES_H

#include "core/backend.h"

#include <cuda.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* No GPU work waits on the slot any more (it goes back to the pool): its gates are forgotten. */
void cvcu_gates_forget_slot(const cvcu_slot *slot);
/* The slots in [host, host + bytes) are gone (a reset freed their page): their gates too. */
void cvcu_gates_forget_range(const void *host, size_t bytes);
/* culvert stops using the stream (its queue is gone, so every tracked command on it finished):
 * its gates are forgotten. */
void cvcu_gates_forget_stream(CUstream s);

/* Around a driver call that waits for the whole device (cuMemFree, cuMemFreeHost,
 * cuMemHostUnregister, cuModuleUnload): begin waits, polling, until every gate is open, then keeps
 * new gates out until end. Returns false (nothing to end) when stop turns true while waiting. */
bool cvcu_gates_quiet_begin(const _Atomic bool *stop);
void cvcu_gates_quiet_end(void);

/* A gate a driver call closes: the stream waits until the slot meets the condition. watch: the
 * host value waited for (for the warning about a wait that stays closed), or NULL. */
typedef struct cvcu_gate_spec {
    const cvcu_slot *slot;
    cl_ulong value;
    cvcu_wait_condition cond;
    const void *watch;
} cvcu_gate_spec;

/* Makes the driver call (call(arg); `what` names it in the log) that puts n gates on stream s
 * (a cuStreamWaitValue64, a graph launch with wait nodes): waits while a device-wide call runs,
 * then lists the gates not met yet. queue: who waits, for the warning. */
cl_int cvcu_gates_issue(CUstream s, const cvcu_gate_spec *gates, size_t n, const void *queue,
                        CUresult (*call)(void *arg), void *arg, const char *what);

/* True while some gate is closed. */
bool cvcu_gates_closed(void);

#endif
