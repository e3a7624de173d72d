/* A command buffer's CUDA graph: one node (or a few, joined) per recorded command, after the
 * nodes of the commands it waits for; kernel commands become their NDRange's launches, prepared
 * as clEnqueueNDRangeKernel prepares them (core/kernel_launch.h: launch information, split grids,
 * __local slices). */
#include "core/command_buffer_graph.h"
#include "core/host_value_slot.h"
#include "core/kernel_launch.h"

#include <stdlib.h>
#include <string.h>

/* What a build makes for one command, kept apart until the whole graph is instantiated. */
typedef struct cv_cb_built {
    cvcu_graph_node *node;
    cvcu_graph_node **launches;
    unsigned num_launches;
    unsigned cluster[3];
    bool cooperative;
} cv_cb_built;

/* A kernel command's launches being added to a graph or updated in an instance. */
typedef struct cv_cb_emit {
    cvcu_graph *g;
    cvcu_graph_deps deps;
    cvcu_graph_node **launches;
    unsigned n;
} cv_cb_emit;

static cl_int cv_cb_emit_add(const cvcu_launch *l, void **params, void *arg) {
    cv_cb_emit *e = arg;
    cl_int err = cvcu_graph_add_kernel(e->g, l, params, e->deps, &e->launches[e->n]);
    e->n += err == CL_SUCCESS;
    return err;
}

static cl_int cv_cb_emit_update(const cvcu_launch *l, void **params, void *arg) {
    cv_cb_emit *e = arg;
    return cvcu_graph_update_kernel(e->g, e->launches[e->n++], l, params);
}

/* The NDRange of a kernel command as its state and range give it now. */
static cl_int cv_cb_ndrange(cl_command_buffer_khr cb, const cv_cb_kernel *kc, cv_ndrange *r) {
    const cv_cb_range *rg = &kc->range;
    return cv_ndrange_prepare(kc->state, cb->device, rg->dim, rg->offset,
                              rg->has_global ? rg->global : NULL, rg->has_local ? rg->local : NULL,
                              true, r);
}

static cl_int cv_cb_build_kernel(cl_command_buffer_khr cb, cvcu_graph *g, cl_mutable_command_khr c,
                                 cvcu_graph_deps deps, cv_cb_built *b) {
    const cvcu_device_props *props = cb->device->props;
    cv_ndrange r;
    cl_int err = cv_cb_ndrange(cb, &c->u.kernel, &r);
    uint64_t n = err == CL_SUCCESS ? cv_ndrange_count(&r, props) : 0;
    if (err == CL_SUCCESS && n > UINT32_MAX)
        err = CL_OUT_OF_RESOURCES;
    if (err == CL_SUCCESS && n) {
        b->launches = malloc(n * sizeof *b->launches);
        err = b->launches ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    cv_cb_emit e = {g, deps, b->launches, 0};
    if (err == CL_SUCCESS)
        err = cv_ndrange_launches(c->u.kernel.state, &r, props, NULL, cv_cb_emit_add, &e);
    b->num_launches = e.n;
    memcpy(b->cluster, r.launch.cluster, sizeof b->cluster);
    b->cooperative = r.launch.cooperative;
    /* One launch completes the command itself; several (or none) meet in an empty node. */
    if (err == CL_SUCCESS && e.n == 1)
        b->node = b->launches[0];
    else if (err == CL_SUCCESS)
        err = cvcu_graph_add_empty(g, e.n ? (cvcu_graph_deps){b->launches, e.n} : deps, &b->node);
    return err;
}

static cl_int cv_cb_build_command(cl_command_buffer_khr cb, cvcu_graph *g, cl_mutable_command_khr c,
                                  cvcu_graph_deps deps, cv_cb_built *b) {
    cl_ulong s = 0, d = 0;
    cl_int err = CL_SUCCESS;
    cvcu_wait_condition cond = CVCU_WAIT_GEQ;
    switch (c->kind) {
    case CV_CB_BARRIER:
        err = cvcu_graph_add_empty(g, deps, &b->node);
        break;
    case CV_CB_KERNEL:
        err = cv_cb_build_kernel(cb, g, c, deps, b);
        break;
    case CV_CB_COPY:
        err = cv_mem_address_on(c->u.copy.src, cb->device, &s);
        if (err == CL_SUCCESS)
            err = cv_mem_address_on(c->u.copy.dst, cb->device, &d);
        if (err == CL_SUCCESS)
            err = cvcu_graph_add_copy(g, d + c->u.copy.dst_offset, s + c->u.copy.src_offset,
                                      c->u.copy.size, deps, &b->node);
        break;
    case CV_CB_COPY_RECT: {
        err = cv_mem_address_on(c->u.rect.src, cb->device, &s);
        if (err == CL_SUCCESS)
            err = cv_mem_address_on(c->u.rect.dst, cb->device, &d);
        const cv_rect *rs = &c->u.rect.s, *rd = &c->u.rect.d;
        cvcu_rect_side ss = {
            s, NULL, {rs->origin[0], rs->origin[1], rs->origin[2]}, rs->row_pitch, rs->slice_pitch};
        cvcu_rect_side sd = {
            d, NULL, {rd->origin[0], rd->origin[1], rd->origin[2]}, rd->row_pitch, rd->slice_pitch};
        if (err == CL_SUCCESS)
            err = cvcu_graph_add_copy_rect(g, &sd, &ss, c->u.rect.region, deps, &b->node);
        break;
    }
    case CV_CB_FILL:
        err = cv_mem_address_on(c->u.fill.mem, cb->device, &d);
        if (err == CL_SUCCESS)
            err = cvcu_graph_add_fill(g, d + c->u.fill.offset, c->u.fill.pattern,
                                      c->u.fill.pattern_size, c->u.fill.size, deps, &b->node);
        break;
    case CV_CB_WAIT_VALUE:
        err = cv_host_value_condition(cb->device, c->u.value.cond, &cond) ? CL_SUCCESS
                                                                          : CL_INVALID_VALUE;
        if (err == CL_SUCCESS)
            err = cvcu_graph_add_wait_value(g, cv_host_value_slot(c->u.value.hv), c->u.value.value,
                                            cond, c->u.value.hv, deps, &b->node);
        break;
    case CV_CB_WRITE_VALUE:
        err = cvcu_graph_add_write_value(g, c->u.value.hv->device_address, c->u.value.value, deps,
                                         &b->node);
        break;
    case CV_CB_SVM_COPY:
        err = cvcu_graph_add_copy(g, c->u.svm.dst, c->u.svm.src, c->u.svm.size, deps, &b->node);
        break;
    case CV_CB_SVM_FILL:
        err = cvcu_graph_add_fill(g, c->u.svm.dst, c->u.svm.pattern, c->u.svm.pattern_size,
                                  c->u.svm.size, deps, &b->node);
        break;
    }
    return err;
}

/* The graph's nodes for every command, after their dependencies' (recorded earlier). */
static cl_int cv_cb_build_nodes(cl_command_buffer_khr cb, cvcu_graph *g, cv_cb_built *built,
                                cl_uint n) {
    cl_int err = CL_SUCCESS;
    cvcu_graph_node **deps = NULL;
    cl_uint max_deps = 0;
    for (cl_uint i = 0; i < n; i++)
        max_deps = cb->commands[i]->num_deps > max_deps ? cb->commands[i]->num_deps : max_deps;
    if (max_deps) {
        deps = malloc(max_deps * sizeof *deps);
        err = deps ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++) {
        cl_mutable_command_khr c = cb->commands[i];
        for (cl_uint j = 0; j < c->num_deps; j++)
            deps[j] = built[c->deps[j]].node;
        err = cv_cb_build_command(cb, g, c, (cvcu_graph_deps){deps, c->num_deps}, &built[i]);
    }
    free(deps);
    return err;
}

/* A key of no kernel (theirs are their functions' addresses, below 2^48) and of no transfer
 * (theirs have their type in the top bits: cv_wait_transfer_key), new for every graph and every
 * update of one: a replay's wait is never predicted from a kernel's, nor from a replay of other
 * work. */
static void cv_cb_renew_wait_key(cl_command_buffer_khr cb) {
    static _Atomic uint64_t serial;
    cb->wait_key =
        ((uint64_t)CL_COMMAND_COMMAND_BUFFER_KHR << 48) | (atomic_fetch_add(&serial, 1) + 1);
}

cl_int cv_cb_graph_build(cl_command_buffer_khr cb) {
    cl_uint n = atomic_load(&cb->num_commands);
    cvcu_graph *g = NULL;
    cv_cb_built *built = NULL;
    if (n == 0)
        return CL_SUCCESS; /* nothing to launch */
    built = calloc(n, sizeof *built);
    cl_int err = built ? cvcu_device_bind(cb->device->cu) : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = cvcu_graph_create(cb->device->cu, &g);
    if (err == CL_SUCCESS)
        err = cv_cb_build_nodes(cb, g, built, n);
    if (err == CL_SUCCESS)
        err = cvcu_graph_instantiate(g);
    for (cl_uint i = 0; built && i < n; i++) {
        cl_mutable_command_khr c = cb->commands[i];
        if (err != CL_SUCCESS) {
            free(built[i].launches);
            continue;
        }
        free(c->launches);
        c->node = built[i].node;
        c->launches = built[i].launches;
        c->num_launches = built[i].num_launches;
        memcpy(c->launch_cluster, built[i].cluster, sizeof c->launch_cluster);
        c->launch_cooperative = built[i].cooperative;
    }
    free(built);
    if (err == CL_SUCCESS) {
        cv_cb_graph_drop(cb);
        cb->graph = g;
        cb->gated = false;
        for (cl_uint i = 0; i < n; i++)
            cb->gated |= cb->commands[i]->kind == CV_CB_WAIT_VALUE;
        cv_cb_renew_wait_key(cb);
    } else {
        cvcu_graph_destroy(g);
    }
    return err;
}

void cv_cb_graph_drop(cl_command_buffer_khr cb) {
    /* Also on a lost device: the backend frees what is left of the graph. */
    if (cb->graph)
        cvcu_graph_destroy(cb->graph);
    cb->graph = NULL;
}

/* In multi-device contexts the memory commands' buffers are brought to this device first, as a
 * command on the queue would (their addresses there were recorded). */
static cl_int cv_cb_locate(cl_command_buffer_khr cb, cv_command *cmd) {
    cl_int err = CL_SUCCESS;
    cl_ulong a;
    cl_uint n = atomic_load(&cb->num_commands);
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++) {
        cl_mutable_command_khr c = cb->commands[i];
        if (c->kind == CV_CB_COPY) {
            err = cv_mem_locate(c->u.copy.src, cmd, false, &a);
            if (err == CL_SUCCESS)
                err = cv_mem_locate(c->u.copy.dst, cmd, true, &a);
        } else if (c->kind == CV_CB_COPY_RECT) {
            err = cv_mem_locate(c->u.rect.src, cmd, false, &a);
            if (err == CL_SUCCESS)
                err = cv_mem_locate(c->u.rect.dst, cmd, true, &a);
        } else if (c->kind == CV_CB_FILL) {
            err = cv_mem_locate(c->u.fill.mem, cmd, true, &a);
        }
    }
    return err;
}

cl_int cv_cb_graph_launch(cl_command_buffer_khr cb, cv_command *cmd) {
    cl_int err = CL_SUCCESS;
    if (cb->context->num_devices > 1)
        err = cv_cb_locate(cb, cmd);
    if (err == CL_SUCCESS && cb->graph) {
        if (cb->gated)
            cv_command_mark(cmd, CV_WAIT_GATED);
        cmd->wait_key = cb->wait_key;
        err = cvcu_graph_launch(cb->graph, cmd->stream, cmd->queue);
    }
    return err;
}

cl_int cv_cb_graph_update_kernel(cl_command_buffer_khr cb, cl_mutable_command_khr c,
                                 bool *rebuild) {
    const cvcu_device_props *props = cb->device->props;
    cv_ndrange r;
    cl_int err = cv_cb_ndrange(cb, &c->u.kernel, &r);
    if (err != CL_SUCCESS)
        return err;
    /* The instance keeps its nodes and their attributes: another number of launches, other
     * clusters or a cooperative change need a new graph. */
    bool fits = cb->graph && cv_ndrange_count(&r, props) == c->num_launches &&
                memcmp(r.launch.cluster, c->launch_cluster, sizeof c->launch_cluster) == 0 &&
                r.launch.cooperative == c->launch_cooperative;
    if (!fits) {
        *rebuild = true;
        return CL_SUCCESS;
    }
    cv_cb_emit e = {cb->graph, {NULL, 0}, c->launches, 0};
    err = cvcu_device_bind(cb->device->cu);
    if (err == CL_SUCCESS)
        err = cv_ndrange_launches(c->u.kernel.state, &r, props, NULL, cv_cb_emit_update, &e);
    if (err == CL_SUCCESS)
        cv_cb_renew_wait_key(cb);
    return err;
}
