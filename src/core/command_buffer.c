/* cl_command_buffer_khr: the object, its recording, finalize and enqueue. The graph itself is
 * core/command_buffer_graph.c; mutable dispatches core/command_buffer_mutable.c. */
#include "core/command_buffer.h"
#include "core/command_buffer_graph.h"
#include "core/command.h"
#include "core/host_value.h"
#include "core/kernel_launch.h"

#include <stdlib.h>
#include <string.h>

/* --- what a device offers ------------------------------------------------------------------- */

bool cv_command_buffer_supported(cl_device_id dev) {
    return dev->props->graphs;
}

bool cv_command_buffer_host_values(cl_device_id dev) {
    return cv_host_value_device_supported(dev) && dev->props->graph_mem_ops;
}

cl_device_command_buffer_capabilities_khr cv_command_buffer_capabilities(cl_device_id dev) {
    /* printf: CUDA prints a kernel node's output at a synchronization, as a launch's. Simultaneous
     * use: CUDA orders the launches of one instance (each after the one before), and an update
     * reaches only later launches, so two submissions never race. */
    return cv_command_buffer_supported(dev) ? CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                                                  CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR
                                            : 0;
}

cl_command_queue_properties cv_command_buffer_queue_properties(cl_device_id dev) {
    return cv_command_buffer_supported(dev)
               ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
               : 0;
}

cl_mutable_dispatch_fields_khr cv_mutable_dispatch_capabilities(cl_device_id dev) {
    return cv_command_buffer_supported(dev)
               ? CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                     CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
                     CL_MUTABLE_DISPATCH_EXEC_INFO_KHR
               : 0;
}

/* --- the object ----------------------------------------------------------------------------- */

/* The objects a command holds (each recording holds them; cv_cb_command_free drops them). */
static void cv_cb_command_objects(cl_mutable_command_khr c, cv_object *objs[2]) {
    objs[0] = objs[1] = NULL;
    switch (c->kind) {
    case CV_CB_KERNEL:
        objs[0] = &c->u.kernel.kernel->obj;
        break;
    case CV_CB_COPY:
        objs[0] = &c->u.copy.src->obj;
        objs[1] = &c->u.copy.dst->obj;
        break;
    case CV_CB_COPY_RECT:
        objs[0] = &c->u.rect.src->obj;
        objs[1] = &c->u.rect.dst->obj;
        break;
    case CV_CB_FILL:
        objs[0] = &c->u.fill.mem->obj;
        break;
    case CV_CB_WAIT_VALUE:
    case CV_CB_WRITE_VALUE:
        objs[0] = &c->u.value.hv->obj;
        break;
    case CV_CB_BARRIER:
    case CV_CB_SVM_COPY:
    case CV_CB_SVM_FILL:
        break;
    }
}

/* held: the command was added, and holds its objects. */
static void cv_cb_command_free(cl_mutable_command_khr c, bool held) {
    cv_object *objs[2];
    cv_cb_command_objects(c, objs);
    for (int i = 0; held && i < 2; i++)
        if (objs[i])
            cv_unhold(objs[i]);
    if (c->kind == CV_CB_KERNEL && c->u.kernel.state)
        cv_unhold(&c->u.kernel.state->obj);
    c->obj.tag = CV_TAG_DEAD;
    free(c->deps);
    free(c->props);
    free(c->launches);
    free(c);
}

static void cv_command_buffer_destroy(cv_object *obj) {
    cl_command_buffer_khr cb = (cl_command_buffer_khr)obj;
    /* The last launch has completed (each launch held the command buffer until then). */
    cv_cb_graph_drop(cb);
    for (cl_uint i = 0; i < atomic_load(&cb->num_commands); i++)
        cv_cb_command_free(cb->commands[i], true);
    free(cb->commands);
    free(cb->props);
    pthread_mutex_destroy(&cb->lock);
    cv_unhold(&cb->queue->obj);
    free(cb);
}

cl_command_buffer_khr cv_command_buffer_create(cl_command_queue q, const cv_cb_config *cfg,
                                               cl_int *err) {
    cl_command_buffer_khr cb = calloc(1, sizeof *cb);
    *err = cb ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (cb && cfg->num_props) {
        cb->props = malloc(cfg->num_props * sizeof *cb->props);
        if (cb->props)
            memcpy(cb->props, cfg->props, cfg->num_props * sizeof *cb->props);
        else
            *err = CL_OUT_OF_HOST_MEMORY;
    }
    if (*err != CL_SUCCESS) {
        free(cb);
        return NULL;
    }
    cv_object_init(&cb->obj, CV_TAG_COMMAND_BUFFER, cv_command_buffer_destroy);
    cb->context = q->context;
    cb->queue = q;
    cv_hold(&q->obj);
    cb->device = q->device;
    cb->num_props = cfg->num_props;
    cb->flags = cfg->flags;
    cb->no_additional_groups = cfg->no_additional_groups;
    pthread_mutex_init(&cb->lock, NULL);
    atomic_init(&cb->num_commands, 0);
    return cb;
}

cl_command_buffer_state_khr cv_command_buffer_state(cl_command_buffer_khr cb) {
    pthread_mutex_lock(&cb->lock);
    cl_command_buffer_state_khr s = !cb->finalized       ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
                                    : cb->unset_commands ? CL_COMMAND_BUFFER_STATE_FINALIZED_KHR
                                                         : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
    pthread_mutex_unlock(&cb->lock);
    return s;
}

cl_int cv_command_buffer_info(cl_command_buffer_khr cb, cl_command_buffer_info_khr param,
                              const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
        err = cv_info_uint(out, 1);
        break;
    case CL_COMMAND_BUFFER_QUEUES_KHR:
        err = cv_info_bytes(out, &cb->queue, sizeof cb->queue);
        break;
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
        err = cv_info_uint(out, cv_refcount(&cb->obj));
        break;
    case CL_COMMAND_BUFFER_STATE_KHR:
        err = cv_info_uint(out, cv_command_buffer_state(cb));
        break;
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
        /* "If the properties argument ... was NULL, the implementation may return either a
         * param_value_size_ret of 0": nothing was given, nothing is returned. */
        err = cv_info_bytes(out, cb->props, cb->num_props * sizeof *cb->props);
        break;
    case CL_COMMAND_BUFFER_CONTEXT_KHR:
        err = cv_info_ptr(out, cb->context);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

bool cv_command_buffer_sync_points_valid(cl_command_buffer_khr cb, cl_uint n,
                                         const cl_sync_point_khr *list) {
    cl_uint recorded = atomic_load(&cb->num_commands);
    bool valid = true;
    for (cl_uint i = 0; i < n && valid; i++)
        valid = list[i] >= 1 && list[i] <= recorded;
    return valid;
}

/* --- recording ------------------------------------------------------------------------------ */

void cv_cb_range_set(cv_cb_range *r, cl_uint dim, const size_t *offset, const size_t *global,
                     const size_t *local) {
    r->dim = dim;
    r->has_global = global != NULL;
    r->has_local = local != NULL;
    for (cl_uint d = 0; d < 3; d++) {
        r->offset[d] = offset && d < dim ? offset[d] : 0;
        r->global[d] = global && d < dim ? global[d] : 0;
        r->local[d] = local && d < dim ? local[d] : 0;
    }
}

bool cv_cb_range_uniform(const cv_cb_range *r) {
    bool uniform = true;
    for (cl_uint d = 0; r->has_local && r->has_global && d < r->dim; d++)
        uniform &= r->local[d] != 0 && r->global[d] % r->local[d] == 0;
    return uniform;
}

/* Adds index to the dependency list unless it is there. */
static void cv_cb_dep_add(cl_uint *deps, cl_uint *n, cl_uint index) {
    for (cl_uint i = 0; i < *n; i++)
        if (deps[i] == index)
            return;
    deps[(*n)++] = index;
}

/* The commands a new command waits for, under cb->lock: its sync points; on an in-order queue
 * the command before it; the last barrier; a barrier without sync points, everything since the
 * barrier before it (what came earlier, that barrier waited for). */
static cl_int cv_cb_deps(cl_command_buffer_khr cb, cl_mutable_command_khr c,
                         const cv_cb_record *rec) {
    cl_uint index = c->index, since = cb->last_barrier;
    bool all = c->kind == CV_CB_BARRIER && rec->num_sync == 0;
    size_t max = (size_t)rec->num_sync + 2 + (all ? index - since : 0);
    c->deps = malloc(max * sizeof *c->deps);
    if (!c->deps)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < rec->num_sync; i++)
        cv_cb_dep_add(c->deps, &c->num_deps, rec->sync[i] - 1);
    if (index > 0 && !cv_queue_ooo(cb->queue))
        cv_cb_dep_add(c->deps, &c->num_deps, index - 1);
    if (since)
        cv_cb_dep_add(c->deps, &c->num_deps, since - 1);
    for (cl_uint i = since; all && i < index; i++)
        cv_cb_dep_add(c->deps, &c->num_deps, i);
    return CL_SUCCESS;
}

/* A new command of the kind, not yet in the command buffer; cb->lock held. */
static cl_int cv_cb_command_new(cl_command_buffer_khr cb, const cv_cb_record *rec, cv_cb_kind kind,
                                cl_command_type type, cl_mutable_command_khr *out) {
    cl_mutable_command_khr c = NULL;
    /* "CL_INVALID_OPERATION if command_buffer has been finalized." */
    cl_int err = cb->finalized ? CL_INVALID_OPERATION : CL_SUCCESS;
    cl_uint n = atomic_load(&cb->num_commands);
    if (err == CL_SUCCESS && n == cb->cap_commands) {
        cl_uint cap = cb->cap_commands ? cb->cap_commands * 2 : 16;
        cl_mutable_command_khr *grown = realloc(cb->commands, cap * sizeof *grown);
        err = grown ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        if (grown) {
            cb->commands = grown;
            cb->cap_commands = cap;
        }
    }
    if (err == CL_SUCCESS) {
        c = calloc(1, sizeof *c);
        err = c ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS) {
        cv_object_init(&c->obj, CV_TAG_MUTABLE_COMMAND, NULL);
        c->cb = cb;
        c->kind = kind;
        c->type = type;
        c->index = n;
        err = cv_cb_deps(cb, c, rec);
    }
    if (err == CL_SUCCESS && rec->props && rec->num_props) {
        c->props = malloc(rec->num_props * sizeof *c->props);
        err = c->props ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        if (c->props) {
            memcpy(c->props, rec->props, rec->num_props * sizeof *c->props);
            c->num_props = rec->num_props;
        }
    }
    if (err != CL_SUCCESS && c) {
        free(c->deps);
        free(c->props);
        free(c);
        c = NULL;
    }
    *out = c;
    return err;
}

/* Takes the command in (it holds its objects from now on) and answers its sync point and
 * handle; cb->lock held. */
static void cv_cb_command_add(cl_command_buffer_khr cb, cl_mutable_command_khr c,
                              const cv_cb_record *rec) {
    cv_object *objs[2];
    cv_cb_command_objects(c, objs);
    for (int i = 0; i < 2; i++)
        if (objs[i])
            cv_hold(objs[i]);
    cb->commands[c->index] = c;
    if (c->kind == CV_CB_BARRIER)
        cb->last_barrier = c->index + 1;
    atomic_store(&cb->num_commands, c->index + 1);
    if (rec->sync_out)
        *rec->sync_out = c->index + 1;
    if (rec->handle_out)
        *rec->handle_out = c;
}

/* The body of every recording: new command, its own part (fill), add. */
typedef cl_int (*cv_cb_fill_fn)(cl_command_buffer_khr cb, cl_mutable_command_khr c,
                                const void *arg);

static cl_int cv_cb_record_one(cl_command_buffer_khr cb, const cv_cb_record *rec, cv_cb_kind kind,
                               cl_command_type type, cv_cb_fill_fn fill, const void *arg) {
    cl_mutable_command_khr c = NULL;
    pthread_mutex_lock(&cb->lock);
    cl_int err = cv_cb_command_new(cb, rec, kind, type, &c);
    if (err == CL_SUCCESS && fill)
        err = fill(cb, c, arg);
    if (err == CL_SUCCESS)
        cv_cb_command_add(cb, c, rec);
    else if (c)
        cv_cb_command_free(c, false);
    pthread_mutex_unlock(&cb->lock);
    return err;
}

cl_int cv_cb_record_barrier(cl_command_buffer_khr cb, const cv_cb_record *rec) {
    return cv_cb_record_one(cb, rec, CV_CB_BARRIER, CL_COMMAND_BARRIER, NULL, NULL);
}

typedef struct cv_cb_copy_args {
    cl_mem src, dst;
    size_t src_offset, dst_offset, size;
} cv_cb_copy_args;

static cl_int cv_cb_fill_copy(cl_command_buffer_khr cb, cl_mutable_command_khr c, const void *arg) {
    const cv_cb_copy_args *a = arg;
    (void)cb;
    c->u.copy.src = a->src;
    c->u.copy.dst = a->dst;
    c->u.copy.src_offset = a->src_offset;
    c->u.copy.dst_offset = a->dst_offset;
    c->u.copy.size = a->size;
    return CL_SUCCESS;
}

cl_int cv_cb_record_copy(cl_command_buffer_khr cb, const cv_cb_record *rec, cl_mem src, cl_mem dst,
                         size_t src_offset, size_t dst_offset, size_t size) {
    cv_cb_copy_args a = {src, dst, src_offset, dst_offset, size};
    return cv_cb_record_one(cb, rec, CV_CB_COPY, CL_COMMAND_COPY_BUFFER, cv_cb_fill_copy, &a);
}

typedef struct cv_cb_rect_args {
    cl_mem src, dst;
    const cv_rect *s, *d;
    const size_t *region;
} cv_cb_rect_args;

static cl_int cv_cb_fill_rect(cl_command_buffer_khr cb, cl_mutable_command_khr c, const void *arg) {
    const cv_cb_rect_args *a = arg;
    (void)cb;
    c->u.rect.src = a->src;
    c->u.rect.dst = a->dst;
    c->u.rect.s = *a->s;
    c->u.rect.d = *a->d;
    memcpy(c->u.rect.region, a->region, sizeof c->u.rect.region);
    return CL_SUCCESS;
}

cl_int cv_cb_record_copy_rect(cl_command_buffer_khr cb, const cv_cb_record *rec,
                              cl_command_type type, cl_mem src, cl_mem dst, const cv_rect *s,
                              const cv_rect *d, const size_t region[3]) {
    cv_cb_rect_args a = {src, dst, s, d, region};
    return cv_cb_record_one(cb, rec, CV_CB_COPY_RECT, type, cv_cb_fill_rect, &a);
}

typedef struct cv_cb_fill_args {
    cl_mem m;
    const void *pattern;
    size_t pattern_size, offset, size;
} cv_cb_fill_args;

static cl_int cv_cb_fill_fill(cl_command_buffer_khr cb, cl_mutable_command_khr c, const void *arg) {
    const cv_cb_fill_args *a = arg;
    (void)cb;
    c->u.fill.mem = a->m;
    /* The pattern is read now: "The memory associated with pattern can be reused or freed after
     * the function returns." */
    memcpy(c->u.fill.pattern, a->pattern, a->pattern_size);
    c->u.fill.pattern_size = a->pattern_size;
    c->u.fill.offset = a->offset;
    c->u.fill.size = a->size;
    return CL_SUCCESS;
}

cl_int cv_cb_record_fill(cl_command_buffer_khr cb, const cv_cb_record *rec, cl_mem m,
                         const void *pattern, size_t pattern_size, size_t offset, size_t size) {
    cv_cb_fill_args a = {m, pattern, pattern_size, offset, size};
    return cv_cb_record_one(cb, rec, CV_CB_FILL, CL_COMMAND_FILL_BUFFER, cv_cb_fill_fill, &a);
}

typedef struct cv_cb_svm_args {
    void *dst;
    const void *src, *pattern;
    size_t pattern_size, size;
} cv_cb_svm_args;

static cl_int cv_cb_fill_svm(cl_command_buffer_khr cb, cl_mutable_command_khr c, const void *arg) {
    const cv_cb_svm_args *a = arg;
    (void)cb;
    c->u.svm.dst = (cl_ulong)(uintptr_t)a->dst;
    c->u.svm.src = (cl_ulong)(uintptr_t)a->src;
    c->u.svm.size = a->size;
    /* The pattern is read now, as a buffer fill's. */
    if (a->pattern)
        memcpy(c->u.svm.pattern, a->pattern, a->pattern_size);
    c->u.svm.pattern_size = a->pattern_size;
    return CL_SUCCESS;
}

cl_int cv_cb_record_svm_copy(cl_command_buffer_khr cb, const cv_cb_record *rec, void *dst,
                             const void *src, size_t size) {
    cv_cb_svm_args a = {dst, src, NULL, 0, size};
    return cv_cb_record_one(cb, rec, CV_CB_SVM_COPY, CL_COMMAND_SVM_MEMCPY, cv_cb_fill_svm, &a);
}

cl_int cv_cb_record_svm_fill(cl_command_buffer_khr cb, const cv_cb_record *rec, void *dst,
                             const void *pattern, size_t pattern_size, size_t size) {
    cv_cb_svm_args a = {dst, NULL, pattern, pattern_size, size};
    return cv_cb_record_one(cb, rec, CV_CB_SVM_FILL, CL_COMMAND_SVM_MEMFILL, cv_cb_fill_svm, &a);
}

typedef struct cv_cb_value_args {
    cl_mem hv;
    cl_ulong value;
    cl_host_value_condition cond;
} cv_cb_value_args;

static cl_int cv_cb_fill_value(cl_command_buffer_khr cb, cl_mutable_command_khr c,
                               const void *arg) {
    const cv_cb_value_args *a = arg;
    (void)cb;
    c->u.value.hv = a->hv;
    c->u.value.value = a->value;
    c->u.value.cond = a->cond;
    return CL_SUCCESS;
}

cl_int cv_cb_record_host_value(cl_command_buffer_khr cb, const cv_cb_record *rec,
                               cl_command_type type, cl_mem hv, cl_ulong value,
                               cl_host_value_condition cond) {
    cv_cb_value_args a = {hv, value, cond};
    cv_cb_kind kind =
        type == CL_COMMAND_WAIT_HOST_VALUE_CULVERT ? CV_CB_WAIT_VALUE : CV_CB_WRITE_VALUE;
    return cv_cb_record_one(cb, rec, kind, type, cv_cb_fill_value, &a);
}

typedef struct cv_cb_kernel_args {
    cl_kernel k;
    cl_uint dim;
    const size_t *offset, *global, *local;
    cl_mutable_dispatch_fields_khr updatable;
    bool no_additional_groups;
} cv_cb_kernel_args;

static cl_int cv_cb_fill_kernel(cl_command_buffer_khr cb, cl_mutable_command_khr c,
                                const void *arg) {
    const cv_cb_kernel_args *a = arg;
    cv_cb_kernel *kc = &c->u.kernel;
    cl_int err = CL_SUCCESS;
    /* "Any changes to kernel after calling clCommandNDRangeKernelKHR, such as with
     * clSetKernelArg or clSetKernelExecInfo, have no effect on the recorded command": a copy
     * of the kernel as it is now. */
    kc->state = cv_kernel_snapshot(a->k, &err);
    kc->kernel = a->k;
    kc->updatable = a->updatable;
    kc->no_additional_groups = a->no_additional_groups;
    cv_cb_range_set(&kc->range, a->dim, a->offset, a->global, a->local);
    /* "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified and the
     * CL_MUTABLE_DISPATCH_ARGUMENTS_KHR flag was not set" (of a mutable command buffer). */
    bool deferred = (cb->flags & CL_COMMAND_BUFFER_MUTABLE_KHR) &&
                    (a->updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
    cv_ndrange r;
    if (err == CL_SUCCESS)
        err = cv_ndrange_prepare(kc->state, cb->device, a->dim, a->offset, a->global, a->local,
                                 deferred, &r);
    if (err == CL_SUCCESS) {
        kc->uniform = cv_cb_range_uniform(&kc->range);
        cb->prints |= r.prints;
        cb->unset_commands += kc->state->unset != 0;
    }
    return err;
}

cl_int cv_cb_record_kernel(cl_command_buffer_khr cb, const cv_cb_record *rec, cl_kernel k,
                           cl_uint dim, const size_t *offset, const size_t *global,
                           const size_t *local, cl_mutable_dispatch_fields_khr updatable,
                           bool no_additional_groups) {
    cv_cb_kernel_args a = {k, dim, offset, global, local, updatable, no_additional_groups};
    return cv_cb_record_one(cb, rec, CV_CB_KERNEL, CL_COMMAND_NDRANGE_KERNEL, cv_cb_fill_kernel,
                            &a);
}

/* --- finalize and enqueue ------------------------------------------------------------------- */

cl_int cv_command_buffer_finalize(cl_command_buffer_khr cb) {
    pthread_mutex_lock(&cb->lock);
    /* "CL_INVALID_OPERATION if command_buffer is not in the Recording state." */
    cl_int err = cb->finalized ? CL_INVALID_OPERATION : CL_SUCCESS;
    if (err == CL_SUCCESS)
        err = cv_cb_graph_build(cb);
    if (err == CL_SUCCESS)
        cb->finalized = true;
    pthread_mutex_unlock(&cb->lock);
    return err;
}

cl_int cv_command_buffer_enqueue(cl_command_buffer_khr cb, cl_command_queue q, cl_uint num_wait,
                                 const cl_event *wait_list, cl_event *event) {
    cv_command cmd;
    pthread_mutex_lock(&cb->lock);
    /* "CL_INVALID_OPERATION if command_buffer is not in the Executable state." */
    cl_int err = cb->finalized && !cb->unset_commands ? CL_SUCCESS : CL_INVALID_OPERATION;
    if (err == CL_SUCCESS)
        err = cv_command_begin(&cmd, q, CL_COMMAND_COMMAND_BUFFER_KHR, num_wait, wait_list, event);
    if (err == CL_SUCCESS) {
        /* The command buffer, and through it what its commands use, outlives the launch. */
        err = cv_command_keep(&cmd, &cb->obj);
        if (err == CL_SUCCESS)
            err = cv_cb_graph_launch(cb, &cmd);
        if (err == CL_SUCCESS && cb->prints && !atomic_load(&q->prints))
            atomic_store(&q->prints, true);
        err = cv_command_end(&cmd, err, false, event);
    }
    pthread_mutex_unlock(&cb->lock);
    return err;
}
