/* What the host value GPU tests share: the extension's functions, a context on the first culvert
 * GPU, and waits with a time limit (a broken gate must fail a test, not hang it). */
#ifndef CV_TEST_HOST_VALUE_COMMON_H
#define CV_TEST_HOST_VALUE_COMMON_H

#include "test_util.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

typedef struct hv_test {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    clCreateHostValue_fn create;
    clSignalHostValue_fn signal;
    clLoadHostValue_fn load;
    clResetHostValue_fn reset;
    clEnqueueWaitHostValue_fn enqueue_wait;
    clEnqueueWriteHostValue_fn enqueue_write;
} hv_test;

static inline void hv_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static inline double hv_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline cl_int hv_status(cl_event e) {
    cl_int s = CL_QUEUED;
    if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) != CL_SUCCESS)
        s = -9999;
    return s;
}

/* e's status once final (CL_COMPLETE or an error), else its status after timeout_ms. */
static inline cl_int hv_settles(cl_event e, int timeout_ms) {
    double end = hv_now_s() + cv_test_limit_s(timeout_ms / 1000.0);
    cl_int s = hv_status(e);
    while (s > CL_COMPLETE && hv_now_s() < end) {
        hv_sleep_ms(1);
        s = hv_status(e);
    }
    return s;
}

/* True once e completed; false after timeout_ms (or on an error status). */
static inline bool hv_completes(cl_event e, int timeout_ms) {
    return hv_settles(e, timeout_ms) == CL_COMPLETE;
}

/* True once the host value holds `want`; false after timeout_ms. */
static inline bool hv_reaches(const hv_test *t, cl_mem hv, cl_ulong want, int timeout_ms) {
    double end = hv_now_s() + cv_test_limit_s(timeout_ms / 1000.0);
    cl_ulong v = ~want;
    while (t->load(hv, &v) == CL_SUCCESS && v != want && hv_now_s() < end)
        ;
    return v == want;
}

static inline bool hv_device_has_extension(cl_device_id d) {
    char ext[8192] = "";
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    return strstr(ext, CL_CULVERT_HOST_VALUE_EXTENSION_NAME) != NULL;
}

/* A context on the first culvert GPU and the extension's functions. Exits 77 (skipped) without a
 * GPU, and also when the device lacks the extension, after checking that creation then answers
 * CL_INVALID_OPERATION. */
static inline void hv_test_setup(hv_test *t) {
    memset(t, 0, sizeof *t);
    t->device = cv_test_gpu_device_or_skip(&t->platform);
    cl_int err = CL_SUCCESS;
    t->context = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS && t->context);
    t->create = (clCreateHostValue_fn)cv_test_ext_fn(t->platform, "clCreateHostValue");
    t->signal = (clSignalHostValue_fn)cv_test_ext_fn(t->platform, "clSignalHostValue");
    t->load = (clLoadHostValue_fn)cv_test_ext_fn(t->platform, "clLoadHostValue");
    t->reset = (clResetHostValue_fn)cv_test_ext_fn(t->platform, "clResetHostValue");
    t->enqueue_wait =
        (clEnqueueWaitHostValue_fn)cv_test_ext_fn(t->platform, "clEnqueueWaitHostValue");
    t->enqueue_write =
        (clEnqueueWriteHostValue_fn)cv_test_ext_fn(t->platform, "clEnqueueWriteHostValue");
    if (!hv_device_has_extension(t->device)) {
        cl_mem hv = t->create(t->context, 0, &err);
        CHECK(hv == NULL && err == CL_INVALID_OPERATION);
        fprintf(stderr, "device without %s: skipped\n", CL_CULVERT_HOST_VALUE_EXTENSION_NAME);
        exit(cv_test_failures ? 1 : CV_TEST_SKIP);
    }
}

static inline cl_mem hv_new(const hv_test *t, cl_ulong initial) {
    cl_int err = CL_SUCCESS;
    cl_mem hv = t->create(t->context, initial, &err);
    REQUIRE(err == CL_SUCCESS && hv != NULL);
    return hv;
}

static inline cl_command_queue hv_queue(const hv_test *t, cl_command_queue_properties props) {
    cl_int err = CL_SUCCESS;
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_command_queue q =
        clCreateCommandQueueWithProperties(t->context, t->device, props ? list : NULL, &err);
    REQUIRE(err == CL_SUCCESS && q != NULL);
    return q;
}

static inline cl_event hv_marker(cl_command_queue q) {
    cl_event e = NULL;
    REQUIRE(clEnqueueMarkerWithWaitList(q, 0, NULL, &e) == CL_SUCCESS && e);
    return e;
}

#endif
