/* 64-bit slots in mapped pinned host memory that the host and the GPU both see: the one mechanism
 * behind GPU-gated user events and cl_culvert_host_value. Slots are carved from shared pinned
 * pages (cuMemHostAlloc DEVICEMAP|PORTABLE), so thousands of them do not cost a page each. */
#ifndef CV_CUDA_SLOTS_H
#define CV_CUDA_SLOTS_H

#include "util/cl_headers.h"
#include "cuda/cu_stream.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct cvcu_slot {
    _Atomic uint64_t *host; /* the host's view */
    cl_ulong device;        /* the device's address of the same 8 bytes */
} cvcu_slot;

/* The slot starts at 0. Bind the device's context first (the pages are portable: any context
 * of the process can use them). */
cl_int cvcu_slot_alloc(cvcu_slot *out);
/* Back to the pool. The caller guarantees no GPU work still waits on or writes the slot. */
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

/* The stream waits, on the GPU, until the slot's 64-bit value meets the condition. */
cl_int cvcu_stream_wait_value(cvcu_stream *s, const cvcu_slot *slot, cl_ulong value,
                              cvcu_wait_condition cond);
/* The GPU writes `value` to `address` once the stream's earlier work is done. */
cl_int cvcu_stream_write_value(cvcu_stream *s, cl_ulong address, cl_ulong value);

#endif
