#include "core/mem_transfer.h"
#include "core/command.h"
#include "cuda/cu_memory.h"

static cvcu_host_copy cv_host_copy(const cv_command *cmd, bool blocking) {
    return (cvcu_host_copy){cmd->queue->device->cu, cmd->stream, blocking};
}

/* Locates m on the command's device and keeps it alive until the command is done. */
static cl_int cv_use(cv_command *cmd, cl_mem m, bool will_write, cl_ulong *address) {
    cl_int err = cv_mem_locate(m, cmd, will_write, address);
    if (err == CL_SUCCESS)
        err = cv_command_keep(cmd, &m->obj);
    return err;
}

cl_int cv_enqueue_read(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                       void *ptr, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_READ_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_use(&cmd, m, false, &a);
        cvcu_host_copy c = cv_host_copy(&cmd, blocking);
        if (err == CL_SUCCESS)
            err = cvcu_copy_to_host(&c, ptr, a + offset, size);
        err = cv_command_end(&cmd, err, blocking, w->event);
    }
    return err;
}

cl_int cv_enqueue_write(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                        const void *ptr, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_WRITE_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_use(&cmd, m, true, &a);
        cvcu_host_copy c = cv_host_copy(&cmd, blocking);
        if (err == CL_SUCCESS)
            err = cvcu_copy_to_device(&c, a + offset, ptr, size);
        err = cv_command_end(&cmd, err, blocking, w->event);
    }
    return err;
}

cl_int cv_enqueue_copy(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                       size_t dst_offset, size_t size, const cv_waits *w) {
    cv_command cmd;
    cl_ulong s = 0, d = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_COPY_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_use(&cmd, src, false, &s);
        if (err == CL_SUCCESS)
            err = cv_use(&cmd, dst, true, &d);
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
    if (err == CL_SUCCESS) {
        if (src)
            err = cv_use(&cmd, src, false, &s);
        if (err == CL_SUCCESS && dst)
            err = cv_use(&cmd, dst, true, &d);
        cv_rect_side(&ss, src ? src_rect : host_rect, s, src ? NULL : host);
        cv_rect_side(&sd, dst ? dst_rect : host_rect, d, dst ? NULL : host);
        cvcu_host_copy c = cv_host_copy(&cmd, blocking);
        if (err == CL_SUCCESS)
            err = cvcu_copy_rect(&c, &sd, &ss, region);
        err = cv_command_end(&cmd, err, blocking, w->event);
    }
    return err;
}

cl_int cv_enqueue_fill(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size,
                       size_t offset, size_t size, const cv_waits *w) {
    cv_command cmd;
    cl_ulong a = 0;
    cl_int err = cv_command_begin(&cmd, q, CL_COMMAND_FILL_BUFFER, w->n, w->list, w->event);
    if (err == CL_SUCCESS) {
        err = cv_use(&cmd, m, true, &a);
        if (err == CL_SUCCESS)
            err = cvcu_fill(cmd.stream, a + offset, pattern, pattern_size, size);
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}

void *cv_enqueue_map(cl_command_queue q, cl_mem m, bool blocking, cl_map_flags flags, size_t offset,
                     size_t size, const cv_waits *w, cl_int *err) {
    cv_command cmd;
    cl_ulong a = 0;
    void *ptr = NULL;
    /* Host values are coherent host memory: their map is the memory itself, no copy. */
    bool copy = !(flags & CL_MAP_WRITE_INVALIDATE_REGION) && m->kind != CV_MEM_HOST_VALUE;
    *err = cv_command_begin(&cmd, q, CL_COMMAND_MAP_BUFFER, w->n, w->list, w->event);
    if (*err == CL_SUCCESS) {
        *err = cv_use(&cmd, m, false, &a);
        if (*err == CL_SUCCESS)
            *err = cv_mem_map_begin(m, offset, size, flags, &ptr);
        bool mapped = *err == CL_SUCCESS;
        cvcu_host_copy c = cv_host_copy(&cmd, blocking);
        if (*err == CL_SUCCESS && copy)
            *err = cvcu_copy_to_host(&c, ptr, a + offset, size);
        *err = cv_command_end(&cmd, *err, blocking, w->event);
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
            err = cv_use(&cmd, m, write, &a);
        /* The region goes back now: the application may not touch it after the unmap. */
        cvcu_host_copy c = cv_host_copy(&cmd, false);
        if (err == CL_SUCCESS && write && m->kind != CV_MEM_HOST_VALUE)
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
            if (!(flags & CL_MIGRATE_MEM_OBJECT_HOST))
                err = cv_use(&cmd, mems[i], false, &a);
            else
                err = cv_command_keep(&cmd, &mems[i]->obj);
        }
        err = cv_command_end(&cmd, err, false, w->event);
    }
    return err;
}
