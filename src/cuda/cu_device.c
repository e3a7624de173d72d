#include "core/backend.h"
#include "util/log.h"
#include "cuda/cu_driver.h"

#include <stdlib.h>
#include <string.h>

struct cvcu_device {
    CUdevice dev;
    CUcontext ctx;
    cvcu_device_props props;
};

int cvcu_device_count(void) {
    int n = 0;
    if (!cvcu_load() || cvcu.cuDeviceGetCount(&n) != CUDA_SUCCESS)
        return 0;
    return n;
}

/* Device attributes copied into cvcu_device_props as cl_uint fields. */
static const struct {
    CUdevice_attribute attr;
    size_t offset;
} cvcu_uint_attrs[] = {
#define CVCU_ATTR(a, f)                                                                            \
    { a, offsetof(cvcu_device_props, f) }
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, compute_units),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, max_threads_per_block),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, max_block_dim[0]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, max_block_dim[1]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, max_block_dim[2]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, max_grid_dim[0]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, max_grid_dim[1]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, max_grid_dim[2]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_WARP_SIZE, warp_size),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, regs_per_block),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, async_engines),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, pci_domain),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, pci_bus),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, pci_device),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, mem_bus_width),
#undef CVCU_ATTR
};

/* Device attributes copied as bool fields. */
static const struct {
    CUdevice_attribute attr;
    size_t offset;
} cvcu_bool_attrs[] = {
#define CVCU_ATTR(a, f)                                                                            \
    { a, offsetof(cvcu_device_props, f) }
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, gpu_overlap),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT, exec_timeout),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_INTEGRATED, integrated),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_ECC_ENABLED, ecc),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, can_map_host),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, unified_addressing),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, stream_mem_ops64),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, cooperative_launch),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, cluster_launch),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, stream_wait_nor),
#undef CVCU_ATTR
};

static int cvcu_attr(CUdevice dev, CUdevice_attribute a) {
    int v = 0;
    if (cvcu.cuDeviceGetAttribute(&v, a, dev) != CUDA_SUCCESS)
        v = 0;
    return v;
}

static void cvcu_read_props(CUdevice dev, cvcu_device_props *p) {
    for (size_t i = 0; i < sizeof cvcu_uint_attrs / sizeof cvcu_uint_attrs[0]; i++)
        *(cl_uint *)((char *)p + cvcu_uint_attrs[i].offset) =
            (cl_uint)cvcu_attr(dev, cvcu_uint_attrs[i].attr);
    for (size_t i = 0; i < sizeof cvcu_bool_attrs / sizeof cvcu_bool_attrs[0]; i++)
        *(bool *)((char *)p + cvcu_bool_attrs[i].offset) =
            cvcu_attr(dev, cvcu_bool_attrs[i].attr) != 0;
    p->cc_major = cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p->cc_minor = cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p->clock_mhz = (cl_uint)(cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
    p->l2_size = (cl_ulong)cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    p->const_mem = (cl_ulong)cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    p->local_mem_static = (cl_ulong)cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    p->local_mem = (cl_ulong)cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    if (p->local_mem < p->local_mem_static)
        p->local_mem = p->local_mem_static;
    p->reserved_local_mem =
        (cl_ulong)cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    cvcu.cuDriverGetVersion(&p->driver_version);
    cvcu.cuDeviceGetName(p->name, (int)sizeof p->name, dev);
    size_t total = 0;
    cvcu.cuDeviceTotalMem(&total, dev);
    p->global_mem = total;
    p->graphs = cvcu.cuGraphCreate && cvcu.cuGraphDestroy && cvcu.cuGraphAddEmptyNode &&
                cvcu.cuGraphAddKernelNode && cvcu.cuGraphAddMemcpyNode &&
                cvcu.cuGraphAddMemsetNode && cvcu.cuGraphInstantiateWithFlags &&
                cvcu.cuGraphExecKernelNodeSetParams && cvcu.cuGraphExecDestroy &&
                cvcu.cuGraphLaunch;
    p->graph_mem_ops =
        p->graphs && cvcu.cuGraphAddBatchMemOpNode && p->stream_mem_ops64 && p->can_map_host;
    if (cvcu.cuDeviceGetUuid) {
        CUuuid uuid;
        if (cvcu.cuDeviceGetUuid(&uuid, dev) == CUDA_SUCCESS)
            memcpy(p->uuid, uuid.bytes, sizeof p->uuid);
    }
}

cl_int cvcu_device_open(int ordinal, cvcu_device **out, const cvcu_device_props **props_out) {
    cvcu_device *d = calloc(1, sizeof *d);
    cvcu_device_props *props = d ? &d->props : NULL;
    cl_int err = d ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuDeviceGet(&d->dev, ordinal), CL_DEVICE_NOT_AVAILABLE);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuDevicePrimaryCtxRetain(&d->ctx, d->dev), CL_DEVICE_NOT_AVAILABLE);
    if (err == CL_SUCCESS) {
        props->ordinal = ordinal;
        cvcu_read_props(d->dev, props);
        err = cvcu_device_bind(d);
    }
    if (err == CL_SUCCESS) {
        size_t free_bytes = 0, total = 0;
        err = CVCU_CALL(cvcu.cuMemGetInfo(&free_bytes, &total), CL_DEVICE_NOT_AVAILABLE);
        props->max_alloc = free_bytes;
        int lo = 0, hi = 0;
        cvcu.cuCtxGetStreamPriorityRange(&lo, &hi);
        props->stream_priority_low = lo;
        props->stream_priority_high = hi;
    }
    if (err != CL_SUCCESS) {
        if (d && d->ctx)
            cvcu.cuDevicePrimaryCtxRelease(d->dev);
        free(d);
        d = NULL;
        props = NULL;
    }
    *out = d;
    *props_out = props;
    return err;
}

cl_int cvcu_device_bind(struct cvcu_device *dev) {
    CUcontext cur = NULL;
    cl_int err = CL_SUCCESS;
    /* An application may switch contexts behind culvert's back (CUDA interop): ask, then set. */
    if (cvcu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != dev->ctx)
        err = CVCU_CALL(cvcu.cuCtxSetCurrent(dev->ctx), CL_OUT_OF_RESOURCES);
    return err;
}

void *cvcu_device_context(struct cvcu_device *dev) {
    return dev->ctx;
}
