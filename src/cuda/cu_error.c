/* CUresult -> cl_int in one table; the sticky errors in another. */
#include "util/log.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"

static const struct {
    CUresult cu;
    cl_int cl;
} cvcu_error_table[] = {
    {CUDA_SUCCESS, CL_SUCCESS},
    {CUDA_ERROR_OUT_OF_MEMORY, CL_MEM_OBJECT_ALLOCATION_FAILURE},
    {CUDA_ERROR_NOT_INITIALIZED, CL_DEVICE_NOT_AVAILABLE},
    {CUDA_ERROR_DEINITIALIZED, CL_DEVICE_NOT_AVAILABLE},
    {CUDA_ERROR_NO_DEVICE, CL_DEVICE_NOT_FOUND},
    {CUDA_ERROR_INVALID_DEVICE, CL_INVALID_DEVICE},
    {CUDA_ERROR_DEVICE_UNAVAILABLE, CL_DEVICE_NOT_AVAILABLE},
    {CUDA_ERROR_INVALID_IMAGE, CL_INVALID_BINARY},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, CL_INVALID_BINARY},
    {CUDA_ERROR_INVALID_PTX, CL_BUILD_PROGRAM_FAILURE},
    {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, CL_BUILD_PROGRAM_FAILURE},
    {CUDA_ERROR_JIT_COMPILER_NOT_FOUND, CL_COMPILER_NOT_AVAILABLE},
    {CUDA_ERROR_JIT_COMPILATION_DISABLED, CL_COMPILER_NOT_AVAILABLE},
    {CUDA_ERROR_NOT_FOUND, CL_INVALID_KERNEL_NAME},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CL_OUT_OF_RESOURCES},
    {CUDA_ERROR_INVALID_VALUE, CL_INVALID_VALUE},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, CL_INVALID_HOST_PTR},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, CL_INVALID_HOST_PTR},
    {CUDA_ERROR_NOT_SUPPORTED, CL_INVALID_OPERATION},
    {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, CL_INVALID_WORK_GROUP_SIZE},
};

/* The errors CUDA documents as leaving the context unusable ("any further CUDA work will return
 * the same error"): a fault of the GPU's work. cuda/cu_device.h says what culvert does then. */
static const CUresult cvcu_sticky_errors[] = {
    CUDA_ERROR_ILLEGAL_ADDRESS,       CUDA_ERROR_LAUNCH_TIMEOUT,      CUDA_ERROR_ASSERT,
    CUDA_ERROR_HARDWARE_STACK_ERROR,  CUDA_ERROR_ILLEGAL_INSTRUCTION, CUDA_ERROR_MISALIGNED_ADDRESS,
    CUDA_ERROR_INVALID_ADDRESS_SPACE, CUDA_ERROR_INVALID_PC,          CUDA_ERROR_LAUNCH_FAILED,
    CUDA_ERROR_ECC_UNCORRECTABLE,     CUDA_ERROR_CONTAINED,           CUDA_ERROR_TENSOR_MEMORY_LEAK,
};

bool cvcu_sticky(CUresult r) {
    for (size_t i = 0; i < sizeof cvcu_sticky_errors / sizeof cvcu_sticky_errors[0]; i++)
        if (cvcu_sticky_errors[i] == r)
            return true;
    return false;
}

cl_int cvcu_error(CUresult r, cl_int fallback, const char *what) {
    if (r == CUDA_SUCCESS)
        return CL_SUCCESS;
    /* A lost device's calls fail with "a failure to allocate resources required by the OpenCL
     * implementation on the device", whatever they were. */
    bool sticky = cvcu_sticky(r);
    cl_int cl = sticky ? CL_OUT_OF_RESOURCES : fallback;
    for (size_t i = 0; !sticky && i < sizeof cvcu_error_table / sizeof cvcu_error_table[0]; i++) {
        if (cvcu_error_table[i].cu == r) {
            cl = cvcu_error_table[i].cl;
            break;
        }
    }
    const char *name = "?";
    if (cvcu.cuGetErrorName)
        cvcu.cuGetErrorName(r, &name);
    cvu_log(CVU_LOG_ERROR, "%s failed: %s (%d) -> %d", what, name, (int)r, (int)cl);
    if (sticky)
        cvcu_device_note_fault(r, what);
    return cl;
}
