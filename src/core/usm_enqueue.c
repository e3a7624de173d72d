/* Commands on SVM and USM pointers (core/usm.h): copies, fills, maps, migrations and frees. */
#include "core/usm.h"
#include "core/transfer.h"

#include <stdlib.h>
#include <string.h>

cl_int cv_enqueue_usm_copy(cl_command_queue q, cl_command_type type, bool blocking, void *dst,
                           const void *src, size_t size, const cv_waits *w) {
    cv_command cmd;
    /* Any allocation of the context is device memory to the copy (one address everywhere);
     * other pointers are host memory, which the backend copies pinned or staged. */
    bool dev_dst = cv_usm_find(q->context, dst).type != CV_USM_NONE;
    bool dev_src = cv_usm_find(q->context, src).type != CV_USM_NONE;
    cl_ulong d = (cl_ulong)(uintptr_t)dst, s = (cl_ulong)(uintptr_t)src;
    cl_int err = cv_command_begin(&cmd, q, type, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        bool lean = cv_transfer_lean(&cmd, blocking), done = false;
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, blocking, &done);
        if (dev_dst && dev_src)
            err = cvcu_copy_device(cmd.stream, d, s, size);
        else if (dev_dst)
            err = cvcu_copy_to_device(&c, d, src, size);
        else if (dev_src)
            err = cvcu_copy_to_host(&c, dst, s, size);
        else
            err = cvcu_copy_host_to_host(&c, dst, src, size);
        err = cv_transfer_end(&cmd, err, blocking, lean, done, type, size, w->event);
    }
    return err;
}

cl_int cv_enqueue_usm_fill(cl_command_queue q, cl_command_type type, void *dst, const void *pattern,
                           size_t pattern_size, size_t size, const cv_waits *w) {
    cv_command cmd;
    cl_int err = cv_command_begin(&cmd, q, type, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cvcu_fill(cmd.stream, (cl_ulong)(uintptr_t)dst, pattern, pattern_size, size);
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

cl_int cv_enqueue_usm_mark(cl_command_queue q, cl_command_type type, bool blocking,
                           const cv_waits *w) {
    cv_command cmd;
    cl_int err = cv_command_begin(&cmd, q, type, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        bool lean = cv_transfer_lean(&cmd, blocking);
        err = cv_transfer_end(&cmd, CL_SUCCESS, blocking, lean, false, type, 0, w->event);
    }
    return err;
}

cl_int cv_enqueue_usm_migrate(cl_command_queue q, cl_command_type type, cl_uint n,
                              const void **ptrs, const size_t *sizes, cl_mem_migration_flags flags,
                              const cv_waits *w) {
    cv_command cmd;
    cvcu_device *to = (flags & CL_MIGRATE_MEM_OBJECT_HOST) ? NULL : q->device->cu;
    cl_int err = cv_command_begin(&cmd, q, type, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++) {
            cv_usm_alloc a = cv_usm_find(q->context, ptrs[i]);
            /* "If sizes is NULL ... or sizes[i] is zero", from svm_pointers[i] to the end of its
             * allocation; never past it (a USM migration's range is not checked). */
            size_t from = (uintptr_t)ptrs[i] - (uintptr_t)a.ptr, left = a.size - from;
            size_t bytes = sizes && sizes[i] && sizes[i] < left ? sizes[i] : left;
            /* Only managed memory moves; host and device allocations stay where they are. */
            if (a.type == CV_USM_SVM || a.type == CV_USM_SHARED)
                err = cvcu_mem_prefetch(cmd.stream, to, (cl_ulong)(uintptr_t)ptrs[i], bytes);
        }
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

/* clEnqueueSVMFree's work, held by its command: the command's completion drops the hold, and
 * the object's destruction is the free. */
typedef struct cv_svm_freer {
    cv_object obj;
    cl_command_queue queue; /* held */
    cv_svm_free_fn fn;
    void *user_data;
    cl_uint n;
    void *ptrs[];
} cv_svm_freer;

static void cv_svm_freer_run(cv_object *obj) {
    cv_svm_freer *f = (cv_svm_freer *)obj;
    if (f->fn)
        f->fn(f->queue, f->n, f->ptrs, f->user_data);
    else
        for (cl_uint i = 0; i < f->n; i++)
            if (f->ptrs[i])
                cv_usm_free(f->queue->context, f->ptrs[i], false);
    cv_unhold(&f->queue->obj);
    free(f);
}

cl_int cv_enqueue_svm_free(cl_command_queue q, cl_uint n, void **ptrs, cv_svm_free_fn fn,
                           void *user_data, const cv_waits *w) {
    cv_command cmd;
    cv_svm_freer *f = malloc(sizeof *f + n * sizeof *f->ptrs);
    cl_int err = f ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (f) {
        cv_object_init(&f->obj, CV_TAG_SVM_FREE, cv_svm_freer_run);
        f->queue = q;
        cv_hold(&q->obj);
        f->fn = fn;
        f->user_data = user_data;
        f->n = n;
        if (n)
            memcpy(f->ptrs, ptrs, n * sizeof *ptrs);
    }
    if (err == CL_SUCCESS)
        err = cv_command_begin(&cmd, q, CL_COMMAND_SVM_FREE, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_command_keep(&cmd, &f->obj);
        err = cv_command_end(&cmd, err, false, w->event);
    }
    /* The command holds the free now; without a command nothing is freed (the call failed). */
    if (f && err != CL_SUCCESS) {
        f->fn = NULL;
        f->n = 0;
    }
    if (f)
        cv_release(&f->obj);
    return err;
}
