#include "core/host_value.h"
#include "core/backend.h"
#include "core/command.h"

#include <stdlib.h>

struct cv_host_value {
    cvcu_slot *slot; /* back to the pool only when the cl_mem is destroyed */
};

bool cv_host_value_device_supported(cl_device_id device) {
    return device->props->stream_mem_ops64 && device->props->can_map_host;
}

/* The first device of the context that can use host values, or NULL. */
static cl_device_id cv_host_value_device(cl_context ctx) {
    cl_device_id found = NULL;
    for (cl_uint i = 0; i < ctx->num_devices && !found; i++)
        if (cv_host_value_device_supported(ctx->devices[i]))
            found = ctx->devices[i];
    return found;
}

bool cv_host_value_context_supported(cl_context ctx) {
    return cv_host_value_device(ctx) != NULL;
}

static void cv_host_value_destroy(cv_object *obj) {
    cl_mem m = (cl_mem)obj;
    cl_context ctx = m->context;
    /* The last hold is gone: no command waits on or writes the slot any more (cv_command_keep
     * holds the host value until its command has finished). */
    cvcu_slot_free(m->host_value->slot);
    free(m->host_value);
    free(m);
    cv_unhold(&ctx->obj);
}

cl_mem cv_host_value_create(cl_context ctx, cl_ulong initial, cl_int *err) {
    cl_mem m = calloc(1, sizeof *m);
    struct cv_host_value *hv = calloc(1, sizeof *hv);
    cl_device_id dev = cv_host_value_device(ctx);
    *err = m && hv ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    /* The slot pages are portable (every context of the process maps them) and, with unified
     * addressing, have one device address for every device. */
    if (*err == CL_SUCCESS)
        *err = cvcu_device_bind(dev->cu);
    if (*err == CL_SUCCESS)
        *err = cvcu_slot_alloc(&hv->slot);
    if (*err == CL_SUCCESS) {
        atomic_store_explicit(hv->slot->host, initial, memory_order_release);
        cv_object_init(&m->obj, CV_TAG_MEM, cv_host_value_destroy);
        m->context = ctx;
        cv_hold(&ctx->obj);
        m->kind = CV_MEM_HOST_VALUE;
        /* Read-write for host and kernels, allocated by culvert in host memory. */
        m->flags = CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR;
        m->size = sizeof(cl_ulong);
        m->host_ptr = (void *)hv->slot->host;
        m->device_address = hv->slot->device;
        m->host_value = hv;
    } else {
        free(hv);
        free(m);
        m = NULL;
    }
    return m;
}

static const struct {
    cl_host_value_condition cl;
    cvcu_wait_condition cu;
    bool needs_nor;
} cv_host_value_conditions[] = {
    {CL_HOST_VALUE_GEQ_CULVERT, CVCU_WAIT_GEQ, false},
    {CL_HOST_VALUE_EQ_CULVERT, CVCU_WAIT_EQ, false},
    {CL_HOST_VALUE_AND_CULVERT, CVCU_WAIT_AND, false},
    {CL_HOST_VALUE_NOR_CULVERT, CVCU_WAIT_NOR, true},
};

/* cl_host_value_condition -> the backend's condition, for this device. False for a condition
 * that is unknown or that the device cannot wait on. */
static bool cv_host_value_condition(cl_device_id device, cl_host_value_condition c,
                                    cvcu_wait_condition *out) {
    bool ok = false;
    for (size_t i = 0; i < sizeof cv_host_value_conditions / sizeof cv_host_value_conditions[0];
         i++) {
        if (cv_host_value_conditions[i].cl == c) {
            ok = !cv_host_value_conditions[i].needs_nor || device->props->stream_wait_nor;
            *out = cv_host_value_conditions[i].cu;
        }
    }
    return ok;
}

/* Both commands: begin, keep the host value alive until the stream has passed the command, put
 * the operation on the stream, end. */
static cl_int cv_host_value_enqueue(cl_command_queue q, cl_mem hv, cl_command_type type,
                                    cl_ulong value, cvcu_wait_condition cond, cl_uint num_wait,
                                    const cl_event *wait_list, cl_event *event) {
    cv_command cmd;
    cl_int err = cv_command_begin(&cmd, q, type, num_wait, wait_list, event);
    if (err == CL_SUCCESS) {
        err = cv_command_keep(&cmd, &hv->obj);
        if (err == CL_SUCCESS && type == CL_COMMAND_WAIT_HOST_VALUE_CULVERT) {
            cv_command_mark(&cmd, CV_WAIT_GATED);
            err = cvcu_stream_wait_value(cmd.stream, hv->host_value->slot, value, cond,
                                         &(cvcu_wait_watch){q, hv});
        } else if (err == CL_SUCCESS)
            err = cvcu_stream_write_value(cmd.stream, hv->device_address, value);
        err = cv_command_end(&cmd, err, false, event);
    }
    return err;
}

bool cv_host_value_condition_supported(cl_device_id device, cl_host_value_condition c) {
    cvcu_wait_condition cond;
    return cv_host_value_condition(device, c, &cond);
}

cl_int cv_host_value_enqueue_wait(cl_command_queue q, cl_mem hv, cl_ulong value,
                                  cl_host_value_condition condition, cl_uint num_wait,
                                  const cl_event *wait_list, cl_event *event) {
    cvcu_wait_condition cond = CVCU_WAIT_GEQ;
    cl_int err =
        cv_host_value_condition(q->device, condition, &cond) ? CL_SUCCESS : CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        err = cv_host_value_enqueue(q, hv, CL_COMMAND_WAIT_HOST_VALUE_CULVERT, value, cond,
                                    num_wait, wait_list, event);
    return err;
}

cl_int cv_host_value_enqueue_write(cl_command_queue q, cl_mem hv, cl_ulong value, cl_uint num_wait,
                                   const cl_event *wait_list, cl_event *event) {
    return cv_host_value_enqueue(q, hv, CL_COMMAND_WRITE_HOST_VALUE_CULVERT, value, CVCU_WAIT_GEQ,
                                 num_wait, wait_list, event);
}
