/* Devices: their properties, their primary contexts, the cl_contexts that use them, and the
 * recovery from a fault (cuda/cu_device.h). */
#include "cuda/cu_device.h"
#include "util/log.h"
#include "cuda/cu_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every device opened, for finding a context's device (faults and the reaper's releases name a
 * context). Devices live as long as the process. */
#define CVCU_MAX_DEVICES 64
static pthread_mutex_t cvcu_devices_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cvcu_device *cvcu_devices[CVCU_MAX_DEVICES];
static _Atomic unsigned cvcu_num_devices;
static void (*cvcu_fault_handler)(void);

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
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, texture_align),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, texture_pitch_align),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, texture2d_linear_max[0]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, texture2d_linear_max[1]),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, texture2d_linear_max[2]),
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
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, managed_memory),
    CVCU_ATTR(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, concurrent_managed),
#undef CVCU_ATTR
};

static int cvcu_attr(CUdevice dev, CUdevice_attribute a) {
    int v = 0;
    if (cvcu.cuDeviceGetAttribute(&v, a, dev) != CUDA_SUCCESS)
        v = 0;
    return v;
}

/* The local memory claimed per work-group (CL_DEVICE_LOCAL_MEM_SIZE): CULVERT_LOCAL_MEM_SIZE, in
 * bytes (a K suffix: KiB) between CUDA's per-block default and the opt-in maximum, or "max";
 * by default the default (48 KiB), which NVIDIA's OpenCL claims too. Programs that size their
 * tiles by the claim (pyopencl's scans) were tuned with 48 KiB; the opt-in's 227 KiB on an H100
 * gives them tiles that leave one work-group per multiprocessor and build slower
 * (docs/known-issues.md, "Local memory"). Launches may still use up to the maximum. */
static cl_ulong cvcu_local_mem_size(cl_ulong standard, cl_ulong optin) {
    const char *v = getenv("CULVERT_LOCAL_MEM_SIZE");
    cl_ulong size = standard;
    if (v && strcmp(v, "max") == 0) {
        size = optin;
    } else if (v && *v) {
        /* Digits, then nothing or K: no sign, no blanks ("-5" is no size); past the maximum
         * (strtoull's ULLONG_MAX included), the maximum. */
        char *end = NULL;
        unsigned long long n = *v >= '0' && *v <= '9' ? strtoull(v, &end, 10) : 0;
        bool kib = end && (*end == 'K' || *end == 'k') && end[1] == 0;
        if (!end || (*end && !kib))
            n = 0;
        else if (kib)
            n = n > optin / 1024 ? optin : n * 1024;
        if (n)
            size = n < standard ? standard : n > optin ? optin : (cl_ulong)n;
        else
            cvu_log(CVU_LOG_ERROR, "CULVERT_LOCAL_MEM_SIZE=%s: not a size; %llu bytes", v,
                    (unsigned long long)standard);
    }
    return size;
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
    p->local_mem_max =
        (cl_ulong)cvcu_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    if (p->local_mem_max < p->local_mem_static)
        p->local_mem_max = p->local_mem_static;
    p->local_mem = cvcu_local_mem_size(p->local_mem_static, p->local_mem_max);
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
    /* Managed memory needs the driver's allocator and unified addressing (one address). */
    p->managed_memory = p->managed_memory && p->unified_addressing && cvcu.cuMemAllocManaged;
    p->concurrent_managed = p->concurrent_managed && p->managed_memory;
    if (cvcu.cuDeviceGetUuid) {
        CUuuid uuid;
        if (cvcu.cuDeviceGetUuid(&uuid, dev) == CUDA_SUCCESS)
            memcpy(p->uuid, uuid.bytes, sizeof p->uuid);
    }
}

/* The device and generation the calling thread last bound: a thread that bound a context before
 * a recovery binds again even where its current handle equals the device's (the primary
 * context's handle survives its reset; a new context may reuse a destroyed one's address). */
static _Thread_local struct {
    const struct cvcu_device *dev;
    unsigned generation;
} cvcu_bound;

cl_int cvcu_device_open(int ordinal, cvcu_device **out, const cvcu_device_props **props_out) {
    cvcu_device *d = calloc(1, sizeof *d);
    cvcu_device_props *props = d ? &d->props : NULL;
    cl_int err = d ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    CUcontext ctx = NULL;
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuDeviceGet(&d->dev, ordinal), CL_DEVICE_NOT_AVAILABLE);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuDevicePrimaryCtxRetain(&ctx, d->dev), CL_DEVICE_NOT_AVAILABLE);
    if (d) {
        atomic_init(&d->ctx, ctx);
        d->primary = ctx;
    }
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
    pthread_mutex_lock(&cvcu_devices_lock);
    if (err == CL_SUCCESS && cvcu_num_devices == CVCU_MAX_DEVICES)
        err = CL_DEVICE_NOT_AVAILABLE;
    if (err == CL_SUCCESS) {
        pthread_mutex_init(&d->fault_lock, NULL);
        pthread_mutex_init(&d->use_lock, NULL);
        cvcu_devices[cvcu_num_devices++] = d;
    }
    pthread_mutex_unlock(&cvcu_devices_lock);
    if (err != CL_SUCCESS) {
        if (ctx)
            cvcu.cuDevicePrimaryCtxRelease(d->dev);
        cvcu_bound.dev = NULL;
        free(d);
        d = NULL;
        props = NULL;
    }
    *out = d;
    *props_out = props;
    return err;
}

CUresult cvcu_device_set_current(struct cvcu_device *dev) {
    unsigned generation = atomic_load_explicit(&dev->generation, memory_order_acquire);
    CUcontext cur = NULL, ctx = atomic_load_explicit(&dev->ctx, memory_order_acquire);
    CUresult r = CUDA_SUCCESS;
    /* An application may switch contexts behind culvert's back (CUDA interop): ask, then set. */
    if (cvcu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != ctx || cvcu_bound.dev != dev ||
        cvcu_bound.generation != generation) {
        r = cvcu.cuCtxSetCurrent(ctx);
        if (r == CUDA_SUCCESS) {
            cvcu_bound.dev = dev;
            cvcu_bound.generation = generation;
        }
    }
    return r;
}

cl_int cvcu_device_bind(struct cvcu_device *dev) {
    cl_int err = cvcu_error(cvcu_device_set_current(dev), CL_OUT_OF_RESOURCES, "cuCtxSetCurrent");
    /* Lost: bound all the same (releases still reach their handles), but nothing new starts. */
    if (err == CL_SUCCESS && atomic_load_explicit(&dev->fault, memory_order_relaxed))
        err = CL_OUT_OF_RESOURCES;
    return err;
}

cl_int cvcu_device_printf_buffer(struct cvcu_device *dev) {
    unsigned want = cvcu_device_generation(dev) + 1;
    cl_int err = CL_SUCCESS;
    if (atomic_load_explicit(&dev->printf_sized, memory_order_acquire) != want) {
        err = CVCU_CALL(cvcu.cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, CVCU_PRINTF_BUFFER_BYTES),
                        CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            atomic_store_explicit(&dev->printf_sized, want, memory_order_release);
    }
    return err;
}

void *cvcu_device_context(struct cvcu_device *dev) {
    return atomic_load_explicit(&dev->ctx, memory_order_acquire);
}

struct cvcu_device *cvcu_device_of_context(CUcontext ctx) {
    unsigned n = atomic_load(&cvcu_num_devices);
    for (unsigned i = 0; ctx && i < n; i++)
        if (atomic_load_explicit(&cvcu_devices[i]->ctx, memory_order_acquire) == ctx)
            return cvcu_devices[i];
    return NULL;
}

/* --- faults and recovery ----------------------------------------------------------------- */

void cvcu_set_fault_handler(void (*handler)(void)) {
    cvcu_fault_handler = handler;
}

/* The function a CVCU_CALL text names: "cvcu.cuStreamSynchronize(s)" -> "cuStreamSynchronize". */
static void cvcu_call_name(const char *what, char *out, size_t n) {
    const char *start = strstr(what, "cu");
    if (strncmp(what, "cvcu.", 5) == 0)
        start = what + 5;
    size_t len = strcspn(start ? start : what, "(");
    snprintf(out, n, "%.*s", (int)len, start ? start : what);
}

void cvcu_device_note_fault(CUresult r, const char *what) {
    CUcontext cur = NULL;
    cvcu.cuCtxGetCurrent(&cur);
    struct cvcu_device *d = cvcu_device_of_context(cur);
    int healthy = 0;
    if (!d || !atomic_compare_exchange_strong(&d->fault, &healthy, (int)r))
        return;
    const char *name = "?";
    char call[64];
    cvcu.cuGetErrorName(r, &name);
    cvcu_call_name(what, call, sizeof call);
    pthread_mutex_lock(&d->fault_lock);
    snprintf(d->fault_what, sizeof d->fault_what, "%s (%d), first answered by %s", name, (int)r,
             call);
    pthread_mutex_unlock(&d->fault_lock);
    cvu_log(CVU_LOG_ERROR, "device %d is lost: %s", d->props.ordinal, d->fault_what);
    if (cvcu_fault_handler)
        cvcu_fault_handler();
}

bool cvcu_device_lost(const struct cvcu_device *dev) {
    return atomic_load_explicit(&dev->fault, memory_order_relaxed) != 0;
}

bool cvcu_device_fault(struct cvcu_device *dev, char *what, size_t n) {
    bool lost = cvcu_device_lost(dev);
    if (lost && n) {
        pthread_mutex_lock(&dev->fault_lock);
        snprintf(what, n, "%s", dev->fault_what[0] ? dev->fault_what : "a sticky CUDA error");
        pthread_mutex_unlock(&dev->fault_lock);
    }
    return lost;
}

/* A fault seen by a call that returns it without culvert's error path: the legacy stream's query
 * answers the context's sticky error (a fault nobody has asked about yet). */
static void cvcu_device_probe(void) {
    CUresult r = cvcu.cuStreamQuery(NULL);
    if (cvcu_sticky(r))
        cvcu_device_note_fault(r, "cuStreamQuery");
}

cl_int cvcu_device_attach(struct cvcu_device *dev) {
    pthread_mutex_lock(&dev->use_lock);
    cl_int err = cvcu_device_bind(dev);
    /* The first cl_context of a healthy-looking device asks whether a fault nobody noticed
     * poisoned it (work of released objects may have faulted after their last wait). */
    if (err == CL_SUCCESS && dev->users == 0)
        cvcu_device_probe();
    if (cvcu_device_lost(dev) && dev->unrecoverable) {
        err = CL_DEVICE_NOT_AVAILABLE;
        cvu_log(CVU_LOG_ERROR,
                "device %d stays lost: the driver keeps its fault for this process (no CUDA "
                "context works since); clCreateContext answers CL_DEVICE_NOT_AVAILABLE",
                dev->props.ordinal);
    } else if (cvcu_device_lost(dev) && dev->users == 0)
        err = cvcu_device_recover(dev);
    else if (cvcu_device_lost(dev)) {
        err = CL_DEVICE_NOT_AVAILABLE;
        char what[sizeof dev->fault_what];
        cvcu_device_fault(dev, what, sizeof what);
        cvu_log(CVU_LOG_ERROR,
                "device %d is lost (%s) and %u cl_context(s) still use it: no recovery until "
                "they are gone (CL_DEVICE_NOT_AVAILABLE)",
                dev->props.ordinal, what, dev->users);
    }
    if (err == CL_SUCCESS)
        dev->users++;
    pthread_mutex_unlock(&dev->use_lock);
    return err;
}

void cvcu_device_detach(struct cvcu_device *dev) {
    pthread_mutex_lock(&dev->use_lock);
    if (dev->users)
        dev->users--;
    pthread_mutex_unlock(&dev->use_lock);
}
