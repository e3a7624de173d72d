/* cl_device_id: one per CUDA device, described by properties the backend reads once. */
#ifndef CV_CORE_DEVICE_H
#define CV_CORE_DEVICE_H

#include "core/info.h"
#include "core/object.h"

struct cvcu_device; /* the backend's side of a device (src/cuda) */

typedef struct cv_device_props {
    char name[256];
    int ordinal;
    int cc_major, cc_minor;
    int driver_version; /* CUDA driver version, e.g. 13000 */
    cl_uint compute_units;
    cl_uint clock_mhz;
    cl_uint max_threads_per_block;
    cl_uint max_block_dim[3];
    cl_uint max_grid_dim[3];
    cl_uint warp_size;
    cl_uint regs_per_block;
    cl_uint async_engines;
    cl_uint pci_domain, pci_bus, pci_device;
    cl_uint mem_bus_width;
    cl_ulong global_mem; /* total */
    cl_ulong max_alloc;  /* free memory when culvert started: one allocation may take it all */
    cl_ulong l2_size;
    cl_ulong const_mem;
    cl_ulong local_mem;          /* per work-group, with the opt-in (227 KiB on an H100) */
    cl_ulong local_mem_static;   /* without the opt-in (48 KiB) */
    cl_ulong reserved_local_mem; /* the driver's own share of each block's shared memory */
    int stream_priority_low, stream_priority_high;
    unsigned char uuid[16];
    bool gpu_overlap, exec_timeout, integrated, ecc, can_map_host, unified_addressing;
    bool stream_mem_ops64, cooperative_launch, cluster_launch;
    bool stream_wait_nor; /* cuStreamWaitValue's NOR condition */
} cv_device_props;

struct _cl_device_id {
    cv_object obj;
    cl_platform_id platform;
    cv_device_props props;
    struct cvcu_device *cu;
    char *extensions; /* space-separated, built once from the extension table */
    char *c_features; /* unused yet: see device_info.c */
};

static inline bool cv_is_device(const void *h) {
    return cv_object_valid(h, CV_TAG_DEVICE);
}

cl_int cv_device_info(cl_device_id device, cl_device_info param, const cv_info *out);

#endif
