/* cl_culvert_host_value: a cl_mem (kind CV_MEM_HOST_VALUE) over one 64-bit slot of mapped pinned
 * host memory (a slot of the backend: core/backend.h) that host threads, stream memory operations
 * and kernels share. */
#ifndef CV_CORE_HOST_VALUE_H
#define CV_CORE_HOST_VALUE_H

#include "core/mem.h"
#include "core/queue.h"

/* Whether a device can wait on and write host values: 64-bit stream memory operations on
 * mapped host memory. The same test lists the extension (core/extensions.c). */
bool cv_host_value_device_supported(cl_device_id device);
/* Whether any device of the context can. */
bool cv_host_value_context_supported(cl_context ctx);

static inline bool cv_is_host_value(const void *h) {
    return cv_is_mem(h) && ((cl_mem)h)->kind == CV_MEM_HOST_VALUE && ((cl_mem)h)->host_value;
}

/* Call only when cv_host_value_context_supported(ctx). */
cl_mem cv_host_value_create(cl_context ctx, cl_ulong initial, cl_int *err);

/* The host's side: one atomic access each to the slot (host_ptr), and for a store the look for
 * sleeping host waits that it may release (one load while there are none; the signal path is
 * benchmarked). */
static inline void cv_host_value_store(cl_mem hv, cl_ulong v) {
    atomic_store_explicit((_Atomic cl_ulong *)hv->host_ptr, v, memory_order_release);
    cv_wait_release(CV_WAIT_GATED);
}

static inline cl_ulong cv_host_value_load(cl_mem hv) {
    return atomic_load_explicit((_Atomic cl_ulong *)hv->host_ptr, memory_order_acquire);
}

/* Whether the device can wait for this condition: false for a condition that is unknown or
 * that the device cannot wait on. */
bool cv_host_value_condition_supported(cl_device_id device, cl_host_value_condition c);

/* The queue's later commands wait until the host value meets the condition. Arguments are
 * validated by the caller (the condition with cv_host_value_condition_supported). */
cl_int cv_host_value_enqueue_wait(cl_command_queue q, cl_mem hv, cl_ulong value,
                                  cl_host_value_condition cond, cl_uint num_wait,
                                  const cl_event *wait_list, cl_event *event);
/* The GPU stores value once the queue's earlier commands are done. */
cl_int cv_host_value_enqueue_write(cl_command_queue q, cl_mem hv, cl_ulong value, cl_uint num_wait,
                                   const cl_event *wait_list, cl_event *event);

#endif
