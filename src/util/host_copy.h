/* Host-to-host copies of large blocks, split over a few helper threads: one core copies
 * pageable memory into pinned staging memory at about the speed PCIe takes it away, so the
 * staging pipeline (cuda/cu_memory.c) needs more than one to outrun it. */
#ifndef CVU_HOST_COPY_H
#define CVU_HOST_COPY_H

#include <stddef.h>

/* memcpy, in parallel when n is large and the helpers are free (otherwise in the caller).
 * CULVERT_COPY_THREADS=n sets the number of threads taking part (1: no helpers). */
void cvu_host_memcpy(void *dst, const void *src, size_t n);

#endif
