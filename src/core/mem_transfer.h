/* The buffer commands, arguments already validated by src/api: each runs begin, the copies on
 * the command's stream, end (core/command.h). Host pointers may be pageable or pinned: the
 * copies pick their path (cuda/cu_memory.c).
 *
 * For benchmarks (bench/): these are what clEnqueueRead/WriteBuffer run, so measuring those
 * measures them. Pageable memory (malloc) of >= 64 KiB in a blocking call takes the staging
 * pipeline; memory from a map of an ALLOC_HOST_PTR buffer, or any cuMemHostAlloc'ed or
 * registered memory, is recognised as pinned and DMA'd directly. */
#ifndef CV_CORE_MEM_TRANSFER_H
#define CV_CORE_MEM_TRANSFER_H

#include "core/mem.h"

/* Wait lists, for every command here. */
typedef struct cv_waits {
    cl_uint n;
    const cl_event *list;
    cl_event *event;
} cv_waits;

/* A rectangle of a buffer or of host memory (pitches already defaulted). */
typedef struct cv_rect {
    size_t origin[3];
    size_t row_pitch, slice_pitch;
} cv_rect;

cl_int cv_enqueue_read(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                       void *ptr, const cv_waits *w);
cl_int cv_enqueue_write(cl_command_queue q, cl_mem m, bool blocking, size_t offset, size_t size,
                        const void *ptr, const cv_waits *w);
cl_int cv_enqueue_copy(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                       size_t dst_offset, size_t size, const cv_waits *w);
/* host == NULL: a buffer-to-buffer copy (src -> dst). Otherwise to_host tells the direction
 * between m (described by buf) and host memory (described by host_rect). */
cl_int cv_enqueue_rect(cl_command_queue q, cl_command_type type, bool blocking, cl_mem dst,
                       const cv_rect *dst_rect, cl_mem src, const cv_rect *src_rect, void *host,
                       const cv_rect *host_rect, const size_t region[3], const cv_waits *w);
cl_int cv_enqueue_fill(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size,
                       size_t offset, size_t size, const cv_waits *w);
void *cv_enqueue_map(cl_command_queue q, cl_mem m, bool blocking, cl_map_flags flags, size_t offset,
                     size_t size, const cv_waits *w, cl_int *err);
/* The same, for a command of another type (images: CL_COMMAND_MAP_IMAGE). */
void *cv_enqueue_map_as(cl_command_queue q, cl_command_type type, cl_mem m, bool blocking,
                        cl_map_flags flags, size_t offset, size_t size, const cv_waits *w,
                        cl_int *err);
cl_int cv_enqueue_unmap(cl_command_queue q, cl_mem m, void *ptr, const cv_waits *w);
cl_int cv_enqueue_migrate(cl_command_queue q, cl_uint n, const cl_mem *mems,
                          cl_mem_migration_flags flags, const cv_waits *w);

#endif
