/* Every other driver function culvert looks up (src/cuda/cu_symbols.def), so that loading
 * succeeds: weak stubs answering CUDA_ERROR_NOT_SUPPORTED. The asm labels give them the
 * versioned names cuda.h maps to; fake_cuda.c's real definitions win over them. */
#include <cuda.h>

#define FAKE_STR2(x)    #x
#define FAKE_STR(x)     FAKE_STR2(x)
#define FAKE_CAT2(a, b) a##b
#define FAKE_CAT(a, b)  FAKE_CAT2(a, b)
#define FAKE_STUB       FAKE_CAT(fake_stub_, __LINE__)

#define CU_SYM(name)                                                                               \
    __attribute__((weak)) int FAKE_STUB(void) __asm__(FAKE_STR(name));                             \
    int FAKE_STUB(void) {                                                                          \
        return CUDA_ERROR_NOT_SUPPORTED;                                                           \
    }
#define CU_SYM_OPTIONAL(name) CU_SYM(name)
#include "cuda/cu_symbols.def"
