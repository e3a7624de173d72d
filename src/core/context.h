/* cl_context: a set of devices of the culvert platform, each on its CUDA primary context. */
#ifndef CV_CORE_CONTEXT_H
#define CV_CORE_CONTEXT_H

#include "core/device.h"
#include "core/info.h"

#include <pthread.h>

typedef void(CL_CALLBACK *cv_context_notify_fn)(const char *errinfo, const void *private_info,
                                                size_t cb, void *user_data);
typedef void(CL_CALLBACK *cv_context_destructor_fn)(cl_context context, void *user_data);

typedef struct cv_context_destructor {
    cv_context_destructor_fn fn;
    void *user_data;
    struct cv_context_destructor *next;
} cv_context_destructor;

struct _cl_context {
    cv_object obj;
    cl_uint num_devices;
    cl_device_id *devices;
    cl_context_properties *properties; /* as given, 0-terminated; NULL if none were */
    size_t num_properties;             /* entries including the terminator; 0 if none */
    cv_context_notify_fn notify;
    void *notify_data;
    pthread_mutex_t lock;
    cv_context_destructor *destructors; /* newest first: called in reverse order of adding */
};

static inline bool cv_is_context(const void *h) {
    return cv_object_valid(h, CV_TAG_CONTEXT);
}

cl_context cv_context_create(const cl_context_properties *props, size_t num_props,
                             cl_uint num_devices, const cl_device_id *devices,
                             cv_context_notify_fn notify, void *user_data, cl_int *err);
cl_int cv_context_info(cl_context ctx, cl_context_info param, const cv_info *out);
bool cv_context_has_device(cl_context ctx, cl_device_id dev);
/* Reports an asynchronous error through the application's notify callback. */
void cv_context_notify(cl_context ctx, const char *errinfo);

#endif
