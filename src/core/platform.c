#include "core/platform.h"
#include "core/extensions.h"
#include "core/tracker.h"
#include "core/wait.h"
#include "util/log.h"
#include "core/backend.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct _cl_platform_id cv_the_platform;
static bool cv_platform_shown;
static pthread_once_t cv_platform_once = PTHREAD_ONCE_INIT;
static void *cv_dispatch_data;

void *cv_platform_dispatch_data(void) {
    return cv_dispatch_data;
}

static void cv_device_destroy_never(cv_object *obj) {
    (void)obj; /* root devices live as long as the process */
}

/* A fault that loses a device: the contexts on it are told from the tracker's thread, and the
 * host waits asleep on it wake to end with the error. */
static void cv_platform_fault(void) {
    cv_tracker_fault();
    cv_wait_fault();
}

static void cv_platform_discover(void) {
    cl_platform_id p = &cv_the_platform;
    cv_object_init(&p->obj, CV_TAG_PLATFORM, NULL);
    cvcu_set_fault_handler(cv_platform_fault);
    int n = cvcu_device_count();
    p->devices = n > 0 ? calloc((size_t)n, sizeof *p->devices) : NULL;
    const cvcu_device_props **props = n > 0 ? calloc((size_t)n, sizeof *props) : NULL;
    for (int i = 0; i < n && p->devices && props; i++) {
        cl_device_id d = calloc(1, sizeof *d);
        if (!d)
            break;
        cv_object_init(&d->obj, CV_TAG_DEVICE, cv_device_destroy_never);
        d->platform = p;
        if (cvcu_device_open(i, &d->cu, &d->props) != CL_SUCCESS) {
            cvu_log(CVU_LOG_INFO, "CUDA device %d cannot be used; skipped", i);
            free(d);
            continue;
        }
        props[p->num_devices] = d->props;
        p->devices[p->num_devices++] = d;
        cvu_log(CVU_LOG_INFO, "device %d: %s, compute capability %d.%d", i, d->props->name,
                d->props->cc_major, d->props->cc_minor);
    }
    for (cl_uint i = 0; i < p->num_devices; i++)
        p->devices[i]->extensions = cv_extension_string(&props[i], 1, false);
    p->extensions = cv_extension_string(props, p->num_devices, true);
    free(props);
    const char *empty = getenv("CULVERT_EMPTY_PLATFORM");
    cv_platform_shown = p->num_devices > 0 || (empty && strcmp(empty, "1") == 0);
    if (p->num_devices == 0)
        cvu_log(CVU_LOG_INFO, "no usable CUDA device (%s); %s", cvcu_load_error(),
                cv_platform_shown ? "showing an empty platform" : "showing no platform");
}

cl_platform_id cv_platform_get(void) {
    pthread_once(&cv_platform_once, cv_platform_discover);
    return cv_platform_shown ? &cv_the_platform : NULL;
}

bool cv_is_platform(const void *h) {
    return h != NULL && h == cv_platform_get();
}

#ifdef CL_ICD2_TAG_KHR
/* cl_khr_icd 2.0: the loader hands the platform its dispatch data once. */
cl_int CL_API_CALL clIcdSetPlatformDispatchDataKHR(cl_platform_id platform, void *data) {
    cl_int err = cv_is_platform(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
    if (err == CL_SUCCESS) {
        cv_dispatch_data = data;
        platform->obj.dispatch_data = data;
        for (cl_uint i = 0; i < platform->num_devices; i++)
            platform->devices[i]->obj.dispatch_data = data;
    }
    return err;
}
#endif
