/* cl_khr_command_buffer_mutable_dispatch: updates of kernel commands and their queries. An update
 * works on copies (each command's kernel state cloned once per call), so that a config that fails
 * leaves every command as it was ("none of the updates to mutable-command objects are
 * preserved"); then the instance's kernel nodes take the new launches in place, or the graph is
 * built anew where a launch's shape changed (core/command_buffer_graph.c). */
#include "core/command_buffer_graph.h"
#include "core/usm.h"
#include "core/kernel_launch.h"

#include <stdlib.h>
#include <string.h>

/* One command's pending update. */
typedef struct cv_cb_staged {
    cl_mutable_command_khr cmd;
    cl_kernel state; /* a clone of the command's, with the updates so far */
    cv_cb_range range;
} cv_cb_staged;

typedef struct cv_cb_update {
    cv_cb_staged *staged;
    cl_uint n;
} cv_cb_update;

/* The pending update of cmd, made on its first config. */
static cl_int cv_cb_staged_for(cv_cb_update *u, cl_mutable_command_khr cmd, cv_cb_staged **out) {
    cl_int err = CL_SUCCESS;
    cv_cb_staged *s = NULL;
    for (cl_uint i = 0; i < u->n && !s; i++)
        if (u->staged[i].cmd == cmd)
            s = &u->staged[i];
    if (!s) {
        s = &u->staged[u->n];
        s->cmd = cmd;
        s->range = cmd->u.kernel.range;
        s->state = cv_kernel_snapshot(cmd->u.kernel.state, &err);
        u->n += err == CL_SUCCESS;
    }
    *out = err == CL_SUCCESS ? s : NULL;
    return err;
}

/* The fields a config changes, against what the command lets change. */
static cl_int cv_cb_check_fields(const cl_mutable_dispatch_config_khr *cfg,
                                 const cv_cb_kernel *kc) {
    cl_mutable_dispatch_fields_khr f = kc->updatable;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_OPERATION if work_dim is not zero and different from the work_dim set on
     * command recording." */
    if (cfg->work_dim != 0 && cfg->work_dim != kc->range.dim)
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR property was not set on
     * command recording and global_work_offset is not NULL." (and the same for the global and
     * local sizes, the arguments and the exec info) */
    else if ((cfg->global_work_offset && !(f & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR)) ||
             (cfg->global_work_size && !(f & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR)) ||
             (cfg->local_work_size && !(f & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR)) ||
             ((cfg->num_args || cfg->num_svm_args) && !(f & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR)) ||
             (cfg->num_exec_infos && !(f & CL_MUTABLE_DISPATCH_EXEC_INFO_KHR)))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE if arg_list is NULL and num_args > 0, or arg_list is not NULL and
     * num_args is 0." (and the same for arg_svm_list and exec_info_list) */
    else if ((!cfg->arg_list != !cfg->num_args) || (!cfg->arg_svm_list != !cfg->num_svm_args) ||
             (!cfg->exec_info_list != !cfg->num_exec_infos))
        err = CL_INVALID_VALUE;
    /* SVM arguments: "the errors defined by clSetKernelArgSVMPointer": "CL_INVALID_OPERATION if
     * no devices in the context associated with kernel support SVM." */
    else if (cfg->num_svm_args &&
             !(cv_usm_context_svm_caps(kc->kernel->context) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        err = CL_INVALID_OPERATION;
    return err;
}

/* Applies one config to its command's pending update. */
static cl_int cv_cb_stage(cl_command_buffer_khr cb, cv_cb_update *u,
                          const cl_mutable_dispatch_config_khr *cfg) {
    cl_mutable_command_khr cmd = cfg->command;
    cv_cb_staged *s = NULL;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable command object returned
     * from clCommandNDRangeKernelKHR, or created from command_buffer." */
    if (!cv_is_mutable_command(cmd) || cmd->cb != cb || cmd->kind != CV_CB_KERNEL)
        err = CL_INVALID_MUTABLE_COMMAND_KHR;
    else
        err = cv_cb_check_fields(cfg, &cmd->u.kernel);
    if (err == CL_SUCCESS)
        err = cv_cb_staged_for(u, cmd, &s);
    /* "the errors defined by ... clSetKernelExecInfo, clSetKernelArg ... are returned" */
    for (cl_uint i = 0; err == CL_SUCCESS && i < cfg->num_args; i++)
        err = cv_kernel_set_arg(s->state, cfg->arg_list[i].arg_index, cfg->arg_list[i].arg_size,
                                cfg->arg_list[i].arg_value);
    for (cl_uint i = 0; err == CL_SUCCESS && i < cfg->num_svm_args; i++)
        err = cv_kernel_set_arg_pointer(s->state, cfg->arg_svm_list[i].arg_index,
                                        cfg->arg_svm_list[i].arg_value);
    for (cl_uint i = 0; err == CL_SUCCESS && i < cfg->num_exec_infos; i++)
        err = cv_kernel_exec_info(s->state, cfg->exec_info_list[i].param_name,
                                  cfg->exec_info_list[i].param_value_size,
                                  cfg->exec_info_list[i].param_value);
    if (err == CL_SUCCESS) {
        cv_cb_range *r = &s->range;
        const size_t *global = cfg->global_work_size ? cfg->global_work_size
                               : r->has_global       ? r->global
                                                     : NULL;
        const size_t *local = cfg->local_work_size ? cfg->local_work_size
                              : r->has_local       ? r->local
                                                   : NULL;
        const size_t *offset = cfg->global_work_offset ? cfg->global_work_offset : r->offset;
        cv_cb_range next;
        cv_cb_range_set(&next, r->dim, offset, global, local);
        /* "CL_INVALID_OPERATION if the values of local_work_size and/or global_work_size result
         * in a change to work-group uniformity." (where work-group sizes were given) */
        if (r->has_local && next.has_local && cv_cb_range_uniform(r) != cv_cb_range_uniform(&next))
            err = CL_INVALID_OPERATION;
        else
            *r = next;
    }
    return err;
}

/* The updated NDRanges answer the errors of clEnqueueNDRangeKernel. */
static cl_int cv_cb_check_ranges(cl_command_buffer_khr cb, const cv_cb_update *u) {
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < u->n && err == CL_SUCCESS; i++) {
        const cv_cb_range *r = &u->staged[i].range;
        cv_ndrange nd;
        err = cv_ndrange_prepare(u->staged[i].state, cb->device, r->dim, r->offset,
                                 r->has_global ? r->global : NULL, r->has_local ? r->local : NULL,
                                 true, &nd);
    }
    return err;
}

/* The pending updates become the commands' own; the instance follows. */
static cl_int cv_cb_commit(cl_command_buffer_khr cb, cv_cb_update *u) {
    cl_int err = CL_SUCCESS;
    bool rebuild = false;
    for (cl_uint i = 0; i < u->n; i++) {
        cv_cb_kernel *kc = &u->staged[i].cmd->u.kernel;
        cb->unset_commands -= kc->state->unset != 0;
        cb->unset_commands += u->staged[i].state->unset != 0;
        cv_unhold(&kc->state->obj);
        kc->state = u->staged[i].state;
        kc->range = u->staged[i].range;
        kc->uniform = cv_cb_range_uniform(&kc->range);
        u->staged[i].state = NULL;
    }
    for (cl_uint i = 0; i < u->n && !rebuild; i++)
        /* A node the driver will not update is one more reason for a new graph. */
        if (cv_cb_graph_update_kernel(cb, u->staged[i].cmd, &rebuild) != CL_SUCCESS)
            rebuild = true;
    if (rebuild)
        err = cv_cb_graph_build(cb);
    return err;
}

cl_int cv_command_buffer_update(cl_command_buffer_khr cb, cl_uint n,
                                const cl_mutable_dispatch_config_khr *const *configs) {
    cv_cb_update u = {calloc(n ? n : 1, sizeof *u.staged), 0};
    pthread_mutex_lock(&cb->lock);
    cl_int err = u.staged ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    /* "CL_INVALID_OPERATION if command_buffer has not been finalized." */
    if (err == CL_SUCCESS && !cb->finalized)
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_OPERATION if command_buffer was not created with the
     * CL_COMMAND_BUFFER_MUTABLE_KHR flag." */
    else if (err == CL_SUCCESS && !(cb->flags & CL_COMMAND_BUFFER_MUTABLE_KHR))
        err = CL_INVALID_OPERATION;
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++)
        err = cv_cb_stage(cb, &u, configs[i]);
    if (err == CL_SUCCESS)
        err = cv_cb_check_ranges(cb, &u);
    if (err == CL_SUCCESS)
        err = cv_cb_commit(cb, &u);
    pthread_mutex_unlock(&cb->lock);
    for (cl_uint i = 0; i < u.n; i++)
        if (u.staged[i].state)
            cv_unhold(&u.staged[i].state->obj);
    free(u.staged);
    return err;
}

/* A kernel command's size_t[work_dim] query; nothing (size 0) for other commands. */
static cl_int cv_cb_sizes(const cv_info *out, cl_mutable_command_khr cmd, const size_t *v) {
    return cv_info_bytes(out, v,
                         cmd->kind == CV_CB_KERNEL ? cmd->u.kernel.range.dim * sizeof *v : 0);
}

cl_int cv_mutable_command_info(cl_mutable_command_khr cmd, cl_mutable_command_info_khr param,
                               const cv_info *out) {
    cl_command_buffer_khr cb = cmd->cb;
    bool kernel = cmd->kind == CV_CB_KERNEL;
    const cv_cb_range *r = &cmd->u.kernel.range;
    cl_int err;
    pthread_mutex_lock(&cb->lock);
    switch (param) {
    case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
        err = cv_info_ptr(out, cb->queue);
        break;
    case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
        err = cv_info_ptr(out, cb);
        break;
    case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
        err = cv_info_uint(out, cmd->type);
        break;
    case CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR:
        /* "If the properties argument specified on creation of command was NULL, the
         * implementation must return param_value_size_ret equal to 0" */
        err = cv_info_bytes(out, cmd->props, cmd->num_props * sizeof *cmd->props);
        break;
    /* "If command was not recorded from a clCommandNDRangeKernelKHR command, the
     * implementation must return param_value_size_ret equal to 0" */
    case CL_MUTABLE_DISPATCH_KERNEL_KHR:
        err = kernel ? cv_info_ptr(out, cmd->u.kernel.kernel) : cv_info_bytes(out, NULL, 0);
        break;
    case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
        err = kernel ? cv_info_uint(out, r->dim) : cv_info_bytes(out, NULL, 0);
        break;
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
        err = cv_cb_sizes(out, cmd, r->offset);
        break;
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
        err = cv_cb_sizes(out, cmd, r->global);
        break;
    case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR:
        err = cv_cb_sizes(out, cmd, r->local);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    pthread_mutex_unlock(&cb->lock);
    return err;
}
