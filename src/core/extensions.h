/* Extension strings, platform and device, from one table. */
#ifndef CV_CORE_EXTENSIONS_H
#define CV_CORE_EXTENSIONS_H

#include "core/backend.h"
#include "core/device.h"

typedef struct cv_extension {
    const char *name;
    cl_version version;
    bool platform_only; /* listed on the platform, not on devices (cl_khr_icd) */
    /* Whether a device has it; NULL: every device. */
    bool (*supported)(const cvcu_device_props *props);
} cv_extension;

const cv_extension *cv_extensions(size_t *count);
bool cv_extension_supported(const cv_extension *e, const cvcu_device_props *props);
/* Space-separated names; caller frees. devices == NULL: the platform (extensions every device
 * has, plus the platform-only ones). */
char *cv_extension_string(const cvcu_device_props *const *devices, size_t n, bool platform);
/* cl_name_version array; *count receives the number of entries; caller frees. */
cl_name_version *cv_extension_versions(const cvcu_device_props *const *devices, size_t n,
                                       bool platform, size_t *count);

#endif
