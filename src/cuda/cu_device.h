/* The backend's view of a device: the CUDA device and its primary context. */
#ifndef CV_CUDA_DEVICE_H
#define CV_CUDA_DEVICE_H

#include "core/device.h"

/* Why the driver could not be used (for logs). */
const char *cvcu_load_error(void);
/* Number of CUDA devices; 0 when the driver is missing or has none. */
int cvcu_device_count(void);
/* Retains the device's primary context (shared with CUDA libraries in the same process) and
 * reads its properties. */
cl_int cvcu_device_open(int ordinal, struct cvcu_device **out, cv_device_props *props);
/* Makes the device's context current on the calling thread (cheap when it already is). */
cl_int cvcu_device_bind(struct cvcu_device *dev);
/* Interop: the CUcontext and CUdevice behind a device. */
void *cvcu_device_context(struct cvcu_device *dev);
int cvcu_device_ordinal(struct cvcu_device *dev);
/* Free device memory now. */
cl_ulong cvcu_device_free_memory(struct cvcu_device *dev);

#endif
