/* cl_culvert_host_value: a cl_mem (kind CV_MEM_HOST_VALUE) over one 64-bit slot of mapped pinned
 * host memory (cuda/cu_slots.h) that host threads, stream memory operations and kernels share. */
#ifndef CV_CORE_HOST_VALUE_H
#define CV_CORE_HOST_VALUE_H

#include "core/mem.h"
#include "core/queue.h"
#include "cuda/cu_slots.h"

struct cv_host_value {
    cvcu_slot slot; /* back to the pool only when the cl_mem is destroyed */
};

/* Whether a device can wait on and write host values: 64-bit stream memory operations on
 * mapped host memory. The same test lists the extension (core/extensions.c). */
bool cv_host_value_device_supported(const cv_device_props *props);
/* Whether any device of the context can. */
bool cv_host_value_context_supported(cl_context ctx);

static inline bool cv_is_host_value(const void *h) {
    return cv_is_mem(h) && ((cl_mem)h)->kind == CV_MEM_HOST_VALUE && ((cl_mem)h)->host_value;
}

/* Call only when cv_host_value_context_supported(ctx). */
cl_mem cv_host_value_create(cl_context ctx, cl_ulong initial, cl_int *err);

/* The host's side: one atomic access each, nothing else (the signal path is benchmarked). */
static inline void cv_host_value_store(cl_mem hv, cl_ulong v) {
    atomic_store_explicit(hv->host_value->slot.host, v, memory_order_release);
}

static inline cl_ulong cv_host_value_load(cl_mem hv) {
    return atomic_load_explicit(hv->host_value->slot.host, memory_order_acquire);
}

/* cl_host_value_condition -> the backend's condition, for this device. False for a condition
 * that is unknown or that the device cannot wait on. */
bool cv_host_value_condition(const cv_device_props *props, cl_host_value_condition c,
                             cvcu_wait_condition *out);

/* The queue's later commands wait until the host value meets the condition. Arguments are
 * validated by the caller. */
cl_int cv_host_value_enqueue_wait(cl_command_queue q, cl_mem hv, cl_ulong value,
                                  cvcu_wait_condition cond, cl_uint num_wait,
                                  const cl_event *wait_list, cl_event *event);
/* The GPU stores value once the queue's earlier commands are done. */
cl_int cv_host_value_enqueue_write(cl_command_queue q, cl_mem hv, cl_ulong value, cl_uint num_wait,
                                   const cl_event *wait_list, cl_event *event);

/* The deadlock aid (core/host_value_watch.c). When logging is on (CULVERT_LOG) and
 * CULVERT_HOST_VALUE_WARN_MS (default 5000) is not 0, every wait is watched by a background
 * thread that logs a warning once the wait has stayed unmet that long: clFinish on its queue is
 * then blocked by it. With logging off this costs one load and a branch per wait. */
void cv_host_value_watch(cl_command_queue q, cl_mem hv, cl_ulong value, cvcu_wait_condition cond);
/* Waits enqueued on q that the watcher has not yet seen met (0 when the watcher is off). For a
 * wait path that wants to say why it blocks. */
size_t cv_host_value_pending_waits(cl_command_queue q);

#endif
