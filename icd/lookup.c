/* clGetExtensionFunctionAddress*: extension functions by name, from icd/entry_points.def. */
#include "api/entry_points.h"
#include "util/log.h"
#include "core/platform.h"

#include <string.h>

static const struct {
    const char *name;
    void *fn;
} cv_named_functions[] = {
#define CV_EP(kind, ret, name, params) CV_EP_##kind(name)
#define CV_EP_D(name)
#define CV_EP_DX(name)
#define CV_EP_DN(name) {#name, (void *)name},
#define CV_EP_N(name)  {#name, (void *)name},
#define CV_EP_NX(name) {#name, (void *)name},
#include "entry_points.def"
};

static void *cv_lookup(const char *name) {
    void *fn = NULL;
    for (size_t i = 0; name && !fn && i < sizeof cv_named_functions / sizeof cv_named_functions[0];
         i++)
        if (strcmp(cv_named_functions[i].name, name) == 0)
            fn = cv_named_functions[i].fn;
    if (!fn)
        cvu_log(CVU_LOG_CALLS, "no extension function named %s", name ? name : "(null)");
    return fn;
}

void *CL_API_CALL clGetExtensionFunctionAddress(const char *function_name) {
    return cv_lookup(function_name);
}

void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                           const char *function_name) {
    /* A platform that is not culvert's has none of culvert's functions. */
    return platform == NULL || cv_is_platform(platform) ? cv_lookup(function_name) : NULL;
}
