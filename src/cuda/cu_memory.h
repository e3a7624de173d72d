/* Device memory, pinned host memory and every copy or fill of the buffer work. The copies take
 * the stream the command runs on; the caller has bound the device's context (cv_command_begin
 * does). Host pointers may be pageable (plain malloc) or pinned (cuMemHostAlloc, registered):
 * pinned ones are recognised and copied directly; pageable ones go through the staging paths
 * described in cu_memory.c. */
#ifndef CV_CUDA_MEMORY_H
#define CV_CUDA_MEMORY_H

#include "util/cl_headers.h"
#include "cuda/cu_stream.h"

#include <stdbool.h>
#include <stddef.h>

struct cvcu_device;

/* Device memory of the bound context. CL_MEM_OBJECT_ALLOCATION_FAILURE when it does not fit. */
cl_int cvcu_mem_alloc(size_t size, cl_ulong *address);
/* Binds dev first: frees are also called from destructors on any thread. */
void cvcu_mem_free(struct cvcu_device *dev, cl_ulong address);

/* Pinned, portable host memory (usable from every context of the process). */
cl_int cvcu_host_alloc(size_t size, void **ptr);
void cvcu_host_free(void *ptr);
/* Pins the application's memory (CL_MEM_USE_HOST_PTR) so copies to and from it run at pinned
 * speed. Fails, harmlessly, where CUDA refuses (already registered, not ordinary memory). */
cl_int cvcu_host_register(void *ptr, size_t size);
void cvcu_host_unregister(void *ptr);
/* cuModuleUnload, by the same thread as the frees (it waits for the device too). */
void cvcu_module_unload_later(void *module);
/* Are all n bytes at ptr page-locked memory CUDA knows (so an async copy is a pure DMA)? */
bool cvcu_host_is_pinned(const void *ptr, size_t n);

/* How a host-side copy may behave. blocking: the caller waits for the command anyway, so the
 * copy may wait for the stream. When not blocking, the copy never waits for work before it on
 * the stream (that work may be gated on a user event the caller sets later). */
typedef struct cvcu_host_copy {
    struct cvcu_device *dev; /* whose staging buffers to use */
    cvcu_stream *stream;
    bool blocking;
} cvcu_host_copy;

cl_int cvcu_copy_to_device(const cvcu_host_copy *c, cl_ulong dst, const void *src, size_t n);
cl_int cvcu_copy_to_host(const cvcu_host_copy *c, void *dst, cl_ulong src, size_t n);
/* Device to device (also between devices of one process: unified addressing). */
cl_int cvcu_copy_device(cvcu_stream *s, cl_ulong dst, cl_ulong src, size_t n);

/* One side of a rectangular copy: a device address or a host pointer, with its pitches. */
typedef struct cvcu_rect_side {
    cl_ulong device; /* used when host is NULL */
    void *host;
    size_t origin[3]; /* bytes, rows, slices */
    size_t row_pitch, slice_pitch;
} cvcu_rect_side;

/* region: bytes, rows, slices. Pitches are validated by the caller (slice_pitch a multiple of
 * row_pitch). */
cl_int cvcu_copy_rect(const cvcu_host_copy *c, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                      const size_t region[3]);

/* Fills n bytes at dst (n a multiple of pattern_size; dst aligned to the pattern size up to 4)
 * with a pattern of 1, 2, 4, ..., 128 bytes. The pattern is read before the call returns. */
cl_int cvcu_fill(cvcu_stream *s, cl_ulong dst, const void *pattern, size_t pattern_size, size_t n);

#endif
