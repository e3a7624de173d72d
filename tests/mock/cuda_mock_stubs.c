/* Every driver function culvert looks up, as a weak default that counts its call (cuda_mock.c,
 * cvmock_count) and succeeds doing nothing; cuda_mock.c defines the ones whose answers matter.
 * The list is culvert's own symbol table, so the mock follows it. */
#include <cuda.h>

#pragma GCC diagnostic ignored "-Wattribute-alias"
#pragma GCC diagnostic ignored "-Wmissing-attributes"

void cvmock_count(const char *name);

/* One stub per name (an alias of one shared function could not tell them apart). */
#define CU_SYM(name)                                                                               \
    static CUresult cvmock_stub_##name(void) {                                                     \
        cvmock_count(#name);                                                                       \
        return CUDA_SUCCESS;                                                                       \
    }                                                                                              \
    __typeof__(name) name __attribute__((weak, alias("cvmock_stub_" #name)));
#define CU_SYM_OPTIONAL(name) CU_SYM(name)
#include "cuda/cu_symbols.def"
