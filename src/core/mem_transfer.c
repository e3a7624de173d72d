#include "core/mem_transfer.h"
#include "core/image.h"
#include "core/transfer.h"
#include "core/usm.h"
#include "core/command.h"
#include "core/platform.h"
#include "core/backend.h"

/* How long a blocking transfer's wait spins before it sleeps (core/wait.h): a fixed part, plus
 * the time the transfer's own bytes take at a rate below every copy path's (8 GB/s), capped.
 * Measured on an H100 under gVisor, a sleeping wait woke 40-100 us after the GPU was done: 2 % of
 * a 256 MiB pinned transfer, most of a small one. CUDA's own cuMemcpy spins for the whole copy;
 * this spins for about as long as the copy should take, then sleeps (work queued before the
 * transfer, e.g. a long kernel, is not worth a core). */
#define CV_WAIT_SPIN_NS     30000
#define CV_WAIT_SPIN_PER_MB 125000 /* ns per MiB: 8 GiB/s */
#define CV_WAIT_SPIN_MAX_NS 40000000

/* Settles a blocking copy that waits inside the backend (core/backend.h: cvcu_host_copy): the
 * command (still holding its queue's lock) waits for its stream's work so far. */
static cl_int cv_settle(void *arg) {
    cv_command *cmd = arg;
    return cv_queue_wait_stream(cmd->queue, cv_command_stream_index(cmd), true);
}

/* done: set when the backend finished the copy within the call. */
cvcu_host_copy cv_transfer_host_copy(cv_command *cmd, bool blocking, bool *done) {
    return (cvcu_host_copy){cmd->queue->device->cu,      cmd->stream, blocking,
                            blocking ? cv_settle : NULL, cmd,         done};
}

/* A blocking command that hands out no event and has nothing of its wait list pending is
 * "lean": the call waits for it anyway, so what it uses needs no hold beyond the call and there
 * is no event for the tracker. It waits for its stream itself (cv_end). */
bool cv_transfer_lean(const cv_command *cmd, bool blocking) {
    return blocking && !cmd->event;
}

cl_int cv_transfer_use(cv_command *cmd, cl_mem m, bool will_write, bool lean, cl_ulong *address) {
    cl_int err = cv_mem_locate(m, cmd, will_write, address);
    if (err == CL_SUCCESS && !lean)
        err = cv_command_keep(cmd, &m->obj);
    return err;
}

/* cv_command_end, for lean commands through a wait of their own for the stream (core/wait.h):
 * it spins for about as long as `bytes` should take, then sleeps. Nothing to wait for where the
 * backend finished the copy within the call (done). "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * if the read and write operations are blocking and the execution status of any of the events
 * in event_wait_list is a negative integer value" - the command's own failure is reported the
 * same way (as cv_event_wait does). */
cl_int cv_transfer_end(cv_command *cmd, cl_int status, bool blocking, bool lean, bool done,
                       cl_command_type type, size_t bytes, cl_event *event_ret) {
    if (!lean)
        return cv_command_end(cmd, status, blocking, event_ret);
    cl_command_queue q = cmd->queue;
    unsigned i = cv_command_stream_index(cmd);
    cv_wait w;
    cl_event scratch = NULL;
    uint64_t upto = 0;
    /* Also after a failure: part of the command may be in flight on memory nobody holds, or on
     * the application's memory, which it may free once the call returns. Without a flag or an
     * event recorded now, the wait asks the stream (cv_queue_wait_prepare_locked). */
    if (!done) {
        upto = cv_queue_wait_prepare_locked(q, i, &w, &scratch);
        w.key ^= cv_wait_transfer_key(type, bytes);
        cl_ulong budget = CV_WAIT_SPIN_NS + (cl_ulong)(bytes >> 20) * CV_WAIT_SPIN_PER_MB;
        w.spin_ns = budget < CV_WAIT_SPIN_MAX_NS ? budget : CV_WAIT_SPIN_MAX_NS;
    }
    cl_int err = cv_command_end(cmd, status, false, NULL);
    if (!done) {
        cl_int waited = cv_queue_wait_done(q, i, scratch, upto, cv_wait_run(&w));
        if (err == CL_SUCCESS && waited < 0)
            err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    return err;
}

/* A host pointer into an SVM or USM allocation of the queue's context is a device address to
 * the copy: USM device memory is no host memory (a staged copy would touch it on the host), and
 * the others copy faster as what they are. */
static bool cv_usm_side(cl_command_queue q, const void *ptr) {
    return cv_usm_find(q->context, ptr).type != CV_USM_NONE;
}

cl_int cv_enqueue_read(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                       void *ptr, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_READ_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        bool lean = cv_transfer_lean(&cmd, blocking), done = false;
        err = cv_transfer_use(&cmd, m, false, lean, &a);
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, blocking, &done);
        if (err == CL_SUCCESS && cv_usm_side(q, ptr))
            err = cvcu_copy_device(cmd.stream, (cl_ulong)(uintptr_t)ptr, a + offset, size);
        else if (err == CL_SUCCESS)
            err = cvcu_copy_to_host(&c, ptr, a + offset, size);
        err = cv_transfer_end(&cmd, err, blocking, lean, done, CL_COMMAND_READ_BUFFER, size,
                              w->event);
    }
    return err;
}

cl_int cv_enqueue_write(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                        const void *ptr, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_WRITE_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        bool lean = cv_transfer_lean(&cmd, blocking), done = false;
        err = cv_transfer_use(&cmd, m, true, lean, &a);
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, blocking, &done);
        if (err == CL_SUCCESS && cv_usm_side(q, ptr))
            err = cvcu_copy_device(cmd.stream, a + offset, (cl_ulong)(uintptr_t)ptr, size);
        else if (err == CL_SUCCESS)
            err = cvcu_copy_to_device(&c, a + offset, ptr, size);
        err = cv_transfer_end(&cmd, err, blocking, lean, done, CL_COMMAND_WRITE_BUFFER, size,
                              w->event);
    }
    return err;
}

cl_int cv_enqueue_copy(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                       size_t dst_offset, size_t size, const cv_waits *w) {
    cv_command cmd;
    cl_ulong s = 0, d = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_COPY_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_transfer_use(&cmd, src, false, false, &s);
        if (err == CL_SUCCESS)
            err = cv_transfer_use(&cmd, dst, true, false, &d);
        if (err == CL_SUCCESS)
            err = cvcu_copy_device(cmd.stream, d + dst_offset, s + src_offset, size);
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

static void cv_rect_side(cvcu_rect_side *side, const cv_rect *r, cl_ulong device, void *host) {
    side->device = device;
    side->host = host;
    for (int i = 0; i < 3; i++)
        side->origin[i] = r->origin[i];
    side->row_pitch = r->row_pitch;
    side->slice_pitch = r->slice_pitch;
}

cl_int cv_enqueue_rect(cl_command_queue q, cl_command_type type, bool blocking, cl_mem dst,
                       const cv_rect *dst_rect, cl_mem src, const cv_rect *src_rect, void *host,
                       const cv_rect *host_rect, const size_t region[3], const cv_waits *w) {
    cv_command cmd;
    cl_ulong s = 0, d = 0;
    cvcu_rect_side sd, ss;
    cl_int err = cv_command_begin(&cmd, q, type, w->n, w->list, w->event);
    bool lean = false, done = false;
    if (err == CL_SUCCESS) {
        lean = cv_transfer_lean(&cmd, blocking);
        if (src)
            err = cv_transfer_use(&cmd, src, false, lean, &s);
        if (err == CL_SUCCESS && dst)
            err = cv_transfer_use(&cmd, dst, true, lean, &d);
        /* Host memory of an SVM or USM allocation: its device address. */
        if (host && cv_usm_side(q, host)) {
            *(src ? &d : &s) = (cl_ulong)(uintptr_t)host;
            host = NULL;
        }
        cv_rect_side(&ss, src ? src_rect : host_rect, s, src ? NULL : host);
        cv_rect_side(&sd, dst ? dst_rect : host_rect, d, dst ? NULL : host);
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, blocking, &done);
        if (err == CL_SUCCESS)
            err = cvcu_copy_rect(&c, &sd, &ss, region);
        err = cv_transfer_end(&cmd, err, blocking, lean, done, type,
                              region[0] * region[1] * region[2], w->event);
    }
    return err;
}

cl_int cv_enqueue_fill(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size,
                       size_t offset, size_t size, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_FILL_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_transfer_use(&cmd, m, true, false, &a);
        if (err == CL_SUCCESS)
            err = cvcu_fill(cmd.stream, a + offset, pattern, pattern_size, size);
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

void *cv_enqueue_map(cl_command_queue q, cl_mem m, bool blocking, cl_map_flags flags, size_t offset,
                     size_t size, const cv_waits *w, cl_int *err) {
    return cv_enqueue_map_as(q, CL_COMMAND_MAP_BUFFER, m, blocking, flags, offset, size, w, err);
}

void *cv_enqueue_map_as(cl_command_queue q, cl_command_type type, cl_mem m, bool blocking,
                        cl_map_flags flags, size_t offset, size_t size, const cv_waits *w,
                        cl_int *err) {
    cv_command cmd;
    cl_ulong a = 0;
    void *ptr = NULL;
    /* Host values and buffers on SVM/USM allocations: the map is the memory itself. */
    bool copy = !(flags & CL_MAP_WRITE_INVALIDATE_REGION) && !cv_mem_coherent(m);
    *err = cv_command_begin(&cmd, q, type, w->n, w->list, w->event);
    if (*err == CL_SUCCESS) {
        bool lean = cv_transfer_lean(&cmd, blocking), done = false;
        *err = cv_transfer_use(&cmd, m, false, lean, &a);
        if (*err == CL_SUCCESS)
            *err = cv_mem_map_begin(m, offset, size, flags, &ptr);
        bool mapped = *err == CL_SUCCESS;
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, blocking, &done);
        if (*err == CL_SUCCESS && copy)
            *err = cvcu_copy_to_host(&c, ptr, a + offset, size);
        *err = cv_transfer_end(&cmd, *err, blocking, lean, done, type, copy ? size : 0, w->event);
        /* A map that failed leaves no mapping behind. */
        if (*err != CL_SUCCESS && mapped)
            cv_mem_map_cancel(m, ptr);
        if (*err != CL_SUCCESS)
            ptr = NULL;
    }
    return ptr;
}

cl_int cv_enqueue_unmap(cl_command_queue q, cl_mem m, void *ptr, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    size_t offset = 0, size = 0;
    bool write = false;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_UNMAP_MEM_OBJECT, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_mem_map_end(m, ptr, &offset, &size, &write);
        if (err == CL_SUCCESS)
            err = cv_transfer_use(&cmd, m, write, false, &a);
        /* The region goes back now: the application may not touch it after the unmap. */
        cvcu_host_copy c = cv_transfer_host_copy(&cmd, false, NULL);
        if (err == CL_SUCCESS && write && !cv_mem_coherent(m))
            err = cvcu_copy_to_device(&c, a + offset, ptr, size);
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

cl_int cv_enqueue_migrate(cl_command_queue q, cl_uint n, const cl_mem *mems,
                          cl_mem_migration_flags flags, const cv_waits *w) {
    cv_command cmd;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_MIGRATE_MEM_OBJECTS, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        /* To the queue's device: allocated there and made current (a no-op for single-device
         * contexts). To the host: the contents stay where they are; reads and maps fetch them. */
        for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++) {
            cl_ulong a = 0;
            /* An image moves its pixels. */
            if (!(flags & CL_MIGRATE_MEM_OBJECT_HOST))
                err = cv_transfer_use(&cmd, cv_mem_storage(mems[i]), false, false, &a);
            else
                err = cv_command_keep(&cmd, &mems[i]->obj);
        }
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}
