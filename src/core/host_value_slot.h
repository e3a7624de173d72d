/* The backend side of a host value, for core files that put host-value operations on the GPU
 * themselves (command buffers). Core-private: it holds backend types. */
#ifndef CV_CORE_HOST_VALUE_SLOT_H
#define CV_CORE_HOST_VALUE_SLOT_H

#include "core/backend.h"
#include "core/host_value.h"

/* The slot behind a host value (valid while the host value lives). */
cvcu_slot *cv_host_value_slot(cl_mem hv);
/* cl_host_value_condition -> the backend's condition, for this device. False for a condition
 * that is unknown or that the device cannot wait on. */
bool cv_host_value_condition(cl_device_id device, cl_host_value_condition c,
                             cvcu_wait_condition *out);

#endif
