/* Allocations that kernels take as plain pointers: shared virtual memory (clSVMAlloc) and unified
 * shared memory (cl_intel_unified_shared_memory). Each context keeps a table of its allocations,
 * sorted by address, so a pointer anywhere inside one is recognised (SVM and USM pointers may
 * point into the middle of an allocation).
 *
 * Where the bytes live (one address on the host and every device: unified addressing):
 * - SVM buffers, coarse- and fine-grained, and USM shared allocations: managed memory
 *   (cvcu_managed_alloc), whose pages move to whoever touches them. Fine-grained buffers need the
 *   host and the device to touch it at once (props->concurrent_managed).
 * - USM host allocations: pinned, mapped host memory (cvcu_host_alloc); the device reads it over
 *   the bus.
 * - USM device allocations: device memory of one device (cvcu_mem_alloc).
 * A buffer made with CL_MEM_USE_HOST_PTR on such an allocation uses its bytes (mem.h: usm). */
#ifndef CV_CORE_USM_H
#define CV_CORE_USM_H

#include "core/context.h"
#include "core/mem_transfer.h"

typedef enum cv_usm_type {
    CV_USM_NONE = 0, /* not an allocation of the context */
    CV_USM_HOST,
    CV_USM_DEVICE,
    CV_USM_SHARED,
    CV_USM_SVM,
} cv_usm_type;

typedef struct cv_usm_alloc {
    void *ptr; /* what the application got */
    size_t size;
    cl_ulong base; /* what was allocated: ptr, or below it where the alignment asked more */
    cv_usm_type type;
    cl_bitfield flags;   /* SVM: the cl_svm_mem_flags; USM: CL_MEM_ALLOC_FLAGS_INTEL */
    cl_device_id device; /* USM device and shared allocations: the device named; else NULL */
} cv_usm_alloc;

/* The largest alignment an allocation may ask for (larger ones: CL_INVALID_VALUE). */
#define CV_USM_MAX_ALIGNMENT ((size_t)1 << 16)

/* SVM capabilities of a device (CL_DEVICE_SVM_CAPABILITIES): coarse-grained buffers on managed
 * memory; fine-grained buffers and SVM atomics where the host and the device may touch it at once
 * (concurrent managed access: on the H100 the host's and a kernel's atomic adds on one counter at
 * the same time lose none, tests/gpu/svm.c, and the CTS's atomic SVM tests pass); no fine-grained
 * system SVM (malloc'ed memory is no GPU's to touch). */
cl_device_svm_capabilities cv_usm_svm_caps(cl_device_id dev);
/* What every device of the context can do (an allocation serves them all). */
cl_device_svm_capabilities cv_usm_context_svm_caps(cl_context ctx);

/* A new allocation (size, alignment and flags validated by the API; dev: USM device and shared
 * allocations, else NULL). *err: CL_OUT_OF_RESOURCES / CL_MEM_OBJECT_ALLOCATION_FAILURE /
 * CL_OUT_OF_HOST_MEMORY when it cannot be had. */
void *cv_usm_alloc_new(cl_context ctx, cv_usm_type type, cl_device_id dev, cl_bitfield flags,
                       size_t size, size_t alignment, cl_int *err);
/* USM capabilities of a device for host, device and (single-device) shared allocations
 * (CL_DEVICE_*_MEM_CAPABILITIES_INTEL); 0 for other types. */
cl_bitfield cv_usm_caps(cl_device_id dev, cv_usm_type type);

/* Frees the allocation that starts at ptr; false where none does (nothing happens). The memory
 * goes once the GPU work before this call is done with it (the backend's frees wait); blocking:
 * returns only then (at once while a gate is closed: that work waits for the application). */
bool cv_usm_free(cl_context ctx, void *ptr, bool blocking);
/* The allocation of ctx that holds ptr, or type CV_USM_NONE. */
cv_usm_alloc cv_usm_find(cl_context ctx, const void *ptr);
/* Whether [ptr, ptr + size) lies inside one allocation of ctx (size 0: ptr inside one). */
bool cv_usm_range(cl_context ctx, const void *ptr, size_t size, cv_usm_alloc *out);
/* Frees what the application left allocated: the context is going. */
void cv_usm_context_destroy(cl_context ctx);

/* --- commands on pointers (clEnqueueSVM*, clEnqueueMem*INTEL) ---------------------------------
 * Arguments validated by the API. Pointers of no allocation of the queue's context are host
 * memory (pageable or pinned). */

cl_int cv_enqueue_usm_copy(cl_command_queue q, cl_command_type type, bool blocking, void *dst,
                           const void *src, size_t size, const cv_waits *w);
cl_int cv_enqueue_usm_fill(cl_command_queue q, cl_command_type type, void *dst, const void *pattern,
                           size_t pattern_size, size_t size, const cv_waits *w);
/* A command that moves no bytes: SVM map and unmap (the memory is the host's as it is), USM
 * advice. Completes after its wait list, as any command. */
cl_int cv_enqueue_usm_mark(cl_command_queue q, cl_command_type type, bool blocking,
                           const cv_waits *w);
/* Moves the pages of n ranges (sizes[i] bytes from ptrs[i]) of managed allocations to the queue's
 * device, or to the host with CL_MIGRATE_MEM_OBJECT_HOST; ranges of other allocations stay. */
cl_int cv_enqueue_usm_migrate(cl_command_queue q, cl_command_type type, cl_uint n,
                              const void **ptrs, const size_t *sizes, cl_mem_migration_flags flags,
                              const cv_waits *w);

typedef void(CL_CALLBACK *cv_svm_free_fn)(cl_command_queue queue, cl_uint num_svm_pointers,
                                          void **svm_pointers, void *user_data);
/* clEnqueueSVMFree: once the command's turn comes (its wait list and the queue's earlier
 * commands done), fn(q, n, ptrs, user_data) runs, or, without fn, each pointer is freed. */
cl_int cv_enqueue_svm_free(cl_command_queue q, cl_uint n, void **ptrs, cv_svm_free_fn fn,
                           void *user_data, const cv_waits *w);

#endif
