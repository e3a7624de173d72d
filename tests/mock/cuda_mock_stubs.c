/* Every driver function culvert looks up, as a weak default that succeeds and does nothing;
 * cuda_mock.c defines the ones whose answers matter. The list is culvert's own symbol table, so
 * the mock follows it. */
#include <cuda.h>

#pragma GCC diagnostic ignored "-Wattribute-alias"
#pragma GCC diagnostic ignored "-Wmissing-attributes"

CUresult cvmock_success(void);
CUresult cvmock_success(void) {
    return CUDA_SUCCESS;
}

#define CU_SYM(name)          __typeof__(name) name __attribute__((weak, alias("cvmock_success")));
#define CU_SYM_OPTIONAL(name) CU_SYM(name)
#include "cuda/cu_symbols.def"
