/* Device timestamps on the host clock, through an anchor event per device context. */
#include "core/platform.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_stream.h"

#include <pthread.h>
#include <stdlib.h>

#define CVCU_CLOCK_MAX     64
#define CVCU_CLOCK_SAMPLES 3

typedef struct cvcu_clock {
    struct cvcu_device *dev;
    CUstream idle; /* never gets other work: an event recorded on it runs at once */
    CUevent anchor;
    cl_ulong anchor_ns;  /* host time at which the GPU passed the anchor */
    cl_ulong renewed_ns; /* host time of the renewal, for its period */
} cvcu_clock;

static pthread_mutex_t cvcu_clock_lock = PTHREAD_MUTEX_INITIALIZER;
static cvcu_clock cvcu_clocks[CVCU_CLOCK_MAX];
static pthread_once_t cvcu_clock_once = PTHREAD_ONCE_INIT;
static cl_ulong cvcu_clock_period_ns = 1000000000ull;
static double cvcu_clock_scale = 1.0;

static void cvcu_clock_read_env(void) {
    const char *period = getenv("CULVERT_PROFILING_ANCHOR_MS");
    const char *drift = getenv("CULVERT_PROFILING_DRIFT_PPM");
    if (period && atof(period) > 0)
        cvcu_clock_period_ns = (cl_ulong)(atof(period) * 1e6);
    if (drift)
        cvcu_clock_scale = 1.0 + atof(drift) * 1e-6;
}

/* The host time of the anchor is the middle of [before its record, after it completed]. Each try
 * re-records the anchor, so the last try counts: try again (a few times) while the window is wider
 * than a few microseconds, as when the thread was preempted. */
static cl_int cvcu_clock_renew(cvcu_clock *c) {
    cl_int err = CL_SUCCESS;
    cl_ulong t0 = 0, t1 = ~0ull;
    for (int i = 0; i < CVCU_CLOCK_SAMPLES && err == CL_SUCCESS && t1 - t0 > 4000; i++) {
        t0 = cv_host_time_ns();
        err = CVCU_CALL(cvcu.cuEventRecord(c->anchor, c->idle), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = CVCU_CALL(cvcu.cuEventSynchronize(c->anchor), CL_OUT_OF_RESOURCES);
        t1 = cv_host_time_ns();
    }
    c->anchor_ns = t0 + (t1 - t0) / 2;
    c->renewed_ns = t1;
    return err;
}

static cl_int cvcu_clock_get(struct cvcu_device *dev, cvcu_clock **out) {
    cl_int err = CL_SUCCESS;
    cvcu_clock *c = NULL;
    for (int i = 0; i < CVCU_CLOCK_MAX && !c; i++)
        if (cvcu_clocks[i].dev == dev || cvcu_clocks[i].dev == NULL)
            c = &cvcu_clocks[i];
    if (!c)
        err = CL_OUT_OF_RESOURCES;
    else if (c->dev == NULL) {
        err = CVCU_CALL(cvcu.cuStreamCreate(&c->idle, CU_STREAM_NON_BLOCKING), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = CVCU_CALL(cvcu.cuEventCreate(&c->anchor, CU_EVENT_DEFAULT), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = cvcu_clock_renew(c);
        if (err == CL_SUCCESS)
            c->dev = dev;
    } else if (cv_host_time_ns() - c->renewed_ns > cvcu_clock_period_ns)
        err = cvcu_clock_renew(c);
    *out = c;
    return err;
}

cl_int cvcu_clock_host_ns(struct cvcu_device *dev, cvcu_event *ev, cl_ulong *ns) {
    float ms = 0;
    cvcu_clock *c = NULL;
    pthread_once(&cvcu_clock_once, cvcu_clock_read_env);
    pthread_mutex_lock(&cvcu_clock_lock);
    cl_int err = cvcu_device_bind(dev);
    if (err == CL_SUCCESS)
        err = cvcu_clock_get(dev, &c);
    if (err == CL_SUCCESS)
        err = cvcu_event_elapsed_ms((cvcu_event *)c->anchor, ev, &ms);
    if (err == CL_SUCCESS)
        *ns = (cl_ulong)((double)c->anchor_ns + (double)ms * 1e6 * cvcu_clock_scale);
    pthread_mutex_unlock(&cvcu_clock_lock);
    return err;
}

cl_int cvcu_clock_interval_ns(cvcu_event *start, cvcu_event *end, cl_ulong *ns) {
    float ms = 0;
    pthread_once(&cvcu_clock_once, cvcu_clock_read_env);
    cl_int err = cvcu_event_elapsed_ms(start, end, &ms);
    *ns = err == CL_SUCCESS && ms > 0 ? (cl_ulong)((double)ms * 1e6 * cvcu_clock_scale) : 0;
    return err;
}
