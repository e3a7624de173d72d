/* unsupported entry points of the fake driver */
#define STUB(n)                                                                                    \
    int n(void) {                                                                                  \
        return 801; /* CUDA_ERROR_NOT_SUPPORTED */                                                 \
    }
STUB(cuModuleLoadDataEx)
STUB(cuModuleUnload) STUB(cuModuleGetFunction) STUB(cuModuleGetGlobal_v2) STUB(cuLinkCreate_v2)
    STUB(cuLinkAddData_v2) STUB(cuLinkComplete) STUB(cuLinkDestroy) STUB(cuFuncGetAttribute)
        STUB(cuFuncSetAttribute) STUB(cuFuncSetCacheConfig) STUB(cuLaunchKernel)
            STUB(cuLaunchKernelEx) STUB(cuLaunchCooperativeKernel)
                STUB(cuOccupancyMaxPotentialBlockSize)
                    STUB(cuOccupancyMaxActiveBlocksPerMultiprocessor)
                        STUB(cuOccupancyMaxActiveClusters) STUB(cuMemcpy2DAsync_v2)
                            STUB(cuStreamWaitValue32_v2) STUB(cuStreamWriteValue32_v2)
