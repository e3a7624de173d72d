/* Gates (cuStreamWaitValue64 on a host-memory slot, which only the host opens) and the driver
 * calls that must not run while one is closed. */
#ifndef CV_CUDA_GATES_H
#define CV_CUDA_GATES_H

#include "util/cl_headers.h"
#include "core/backend.h"

#include <cuda.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Enqueues the gate on the stream and remembers it while its condition is not met. Waits for a
 * release that is already running (cvcu_gates_quiet_begin) to finish first. */
cl_int cvcu_gate_enqueue(CUstream s, const cvcu_slot *slot, uint64_t value,
                         cvcu_wait_condition cond);
/* No GPU work waits on the slot any more (it goes back to the pool): its gates are forgotten. */
void cvcu_gates_forget_slot(const cvcu_slot *slot);
/* culvert stops using the stream (its queue is gone, so every tracked command on it finished):
 * its gates are forgotten. */
void cvcu_gates_forget_stream(CUstream s);

/* Around a driver call that waits for the whole device (cuMemFree, cuMemFreeHost,
 * cuMemHostUnregister, cuModuleUnload): begin waits, polling, until every gate is open, then keeps
 * new gates out until end. Returns false (nothing to end) when stop turns true while waiting. */
bool cvcu_gates_quiet_begin(const _Atomic bool *stop);
void cvcu_gates_quiet_end(void);

/* True while some gate is closed. */
bool cvcu_gates_closed(void);

#endif
