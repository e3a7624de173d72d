/* What cu_memory.c offers the rest of src/cuda; its part of the backend interface (memory,
 * copies, fills) is declared in core/backend.h. */
#ifndef CV_CUDA_MEMORY_H
#define CV_CUDA_MEMORY_H

#include "core/backend.h"

#include <cuda.h>

/* The cuMemcpy3D parameters of a rectangle copy (origins folded into the addresses). */
void cvcu_rect_params(CUDA_MEMCPY3D *m, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                      const size_t region[3]);
/* Byte offset of row (y, z) of one side (its origin included). */
size_t cvcu_rect_row_offset(const cvcu_rect_side *r, size_t y, size_t z);
/* The shortest power-of-two period of a fill pattern: a 16-byte zero pattern is a byte memset. */
size_t cvcu_pattern_period(const unsigned char *p, size_t size);
/* Fills of 8..128-byte patterns write `head` repetitions word by word (2D memsets), then double
 * them by device copies: how many repetitions the head has. */
size_t cvcu_fill_head(size_t reps, size_t size);

/* fn(ptr, live) on the reaper thread, in dev's context, once no gate is closed: releases whose
 * driver calls may wait for the device (a graph's destruction) keep out of the gates' way as the
 * frees do. live is false where dev was lost or reset since `generation` (its handles are gone
 * with the context: only host memory is left to free). */
void cvcu_reap_call_later(void (*fn)(void *ptr, bool live), void *ptr, struct cvcu_device *dev,
                          unsigned generation);

/* cuModuleUnload, by the same thread as the frees (it waits for the device too). */
void cvcu_module_unload_later(void *module);

#endif
