/* What cu_memory.c offers the rest of src/cuda; its part of the backend interface (memory,
 * copies, fills) is declared in core/backend.h. */
#ifndef CV_CUDA_MEMORY_H
#define CV_CUDA_MEMORY_H

/* cuModuleUnload, by the same thread as the frees (it waits for the device too). */
void cvcu_module_unload_later(void *module);

#endif
