/* Shared by the queue and event GPU tests: a context and queues on culvert's first GPU, user
 * event helpers, and a host clock. Header only: each tests/gpu file is one program. */
#ifndef CV_QUEUE_TEST_H
#define CV_QUEUE_TEST_H

#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static cl_platform_id qt_platform;
static cl_device_id qt_device;
static cl_context qt_context;

static inline void qt_setup(void) {
    cl_int err = CL_SUCCESS;
    qt_device = cv_test_gpu_device_or_skip(&qt_platform);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)qt_platform, 0};
    qt_context = clCreateContext(props, 1, &qt_device, NULL, NULL, &err);
    cv_test_skip_if_unrecoverable(qt_device, err);
    REQUIRE(err == CL_SUCCESS && qt_context);
}

static inline cl_command_queue qt_queue(cl_command_queue_properties props) {
    cl_int err = CL_SUCCESS;
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(qt_context, qt_device, list, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(q != NULL);
    return q;
}

static inline cl_event qt_user_event(void) {
    cl_int err = CL_SUCCESS;
    cl_event e = clCreateUserEvent(qt_context, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(e != NULL);
    return e;
}

static inline cl_int qt_status(cl_event e) {
    cl_int s = 99;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    return s;
}

static inline double qt_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Polls the event's status (only clGetEventInfo) until it is final or `seconds` passed. */
static inline cl_int qt_poll_final(cl_event e, double seconds) {
    double end = qt_now() + cv_test_limit_s(seconds);
    cl_int s = qt_status(e);
    while (s > CL_COMPLETE && qt_now() < end) {
        usleep(200);
        s = qt_status(e);
    }
    return s;
}

/* Destructor callbacks (clSetContextDestructorCallback, clSetMemObjectDestructorCallback) that
 * set the atomic_int they are given. */
static inline void CL_CALLBACK qt_context_gone(cl_context c, void *flag) {
    (void)c;
    atomic_store((atomic_int *)flag, 1);
}

static inline void CL_CALLBACK qt_mem_gone(cl_mem m, void *flag) {
    (void)m;
    atomic_store((atomic_int *)flag, 1);
}

/* Waits (polling) until *flag is set or `seconds` passed; the flag. */
static inline int qt_wait_flag(atomic_int *flag, double seconds) {
    double end = qt_now() + cv_test_limit_s(seconds);
    while (!atomic_load(flag) && qt_now() < end)
        usleep(1000);
    return atomic_load(flag);
}

/* After the device's recovery-th recovery from a fault (0: none yet), a new context (qt_context)
 * works on its primary CUDA context, reset, or on one of culvert's own where the reset left the
 * primary context unusable (the fake's FAKECUDA_RESET_KEEPS_FAULT=1; a GPU's driver may do the
 * same). *primary: the CUDA context of the process's first context (set at recovery 0). Which one
 * is printed; under the fake it is checked. */
static inline void qt_check_recovered(unsigned recovery, void **primary) {
    void *cuctx = NULL;
    CHECK_ERR(CL_SUCCESS, clGetContextInfo(qt_context, CL_CONTEXT_CUDA_CONTEXT_CULVERT,
                                           sizeof cuctx, &cuctx, NULL));
    CHECK(cuctx != NULL);
    if (recovery == 0) {
        if (!*primary)
            *primary = cuctx;
        return;
    }
    bool is_primary = cuctx == *primary;
    printf("recovery %u: the device works again on %s (CUcontext %p; the primary context: %p)\n",
           recovery,
           is_primary
               ? "its primary context, reset"
               : "a context of culvert's own: the primary context's reset did not recover it",
           cuctx, *primary);
    if (cv_test_fake_cuda()) {
        const char *keeps = getenv("FAKECUDA_RESET_KEEPS_FAULT");
        CHECK(is_primary == !(keeps && strcmp(keeps, "1") == 0));
    }
}

/* A marker that waits for the given events, with its event. */
static inline cl_event qt_marker(cl_command_queue q, cl_uint n, const cl_event *wait) {
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(q, n, wait, &e));
    REQUIRE(e != NULL);
    return e;
}

/* Sets a user event's status from another thread after a delay. */
typedef struct qt_setter {
    cl_event event;
    cl_int status;
    unsigned delay_us;
    cl_int result;
    pthread_t thread;
} qt_setter;

static inline void *qt_setter_main(void *arg) {
    qt_setter *s = arg;
    usleep(s->delay_us);
    s->result = clSetUserEventStatus(s->event, s->status);
    return NULL;
}

static inline void qt_set_later(qt_setter *s, cl_event e, cl_int status, unsigned delay_us) {
    s->event = e;
    s->status = status;
    s->delay_us = delay_us;
    s->result = 1;
    int rc = pthread_create(&s->thread, NULL, qt_setter_main, s); /* REQUIRE evaluates twice */
    REQUIRE(rc == 0);
}

static inline void qt_join(qt_setter *s) {
    pthread_join(s->thread, NULL);
    CHECK_ERR(CL_SUCCESS, s->result);
}

#endif
