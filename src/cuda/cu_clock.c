/* Device timestamps on the host clock, through an anchor event per device context. */
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "util/clock.h"

#include <pthread.h>
#include <stdlib.h>

#define CVCU_CLOCK_MAX     64
#define CVCU_CLOCK_SAMPLES 3

typedef struct cvcu_clock {
    struct cvcu_device *dev;
    unsigned generation;  /* dev's when idle and the anchors were made */
    CUstream idle;        /* never gets other work: an event recorded on it runs at once */
    CUevent anchor, prev; /* the anchor and the one before it (NULL at first) */
    cl_ulong anchor_ns;   /* host time at which the GPU passed the anchor */
    cl_ulong prev_ns;
    cl_ulong renewed_ns; /* host time of the renewal, for its period */
    cl_ulong best_ns;    /* the narrowest window seen: what this device and host can do */
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
 * than a few microseconds, as when the thread was preempted. A renewal whose window stays much
 * wider than the narrowest one seen is dropped (the anchors in hand are better; the next
 * conversion tries again), unless the anchor is four periods old. */
static cl_int cvcu_clock_renew(cvcu_clock *c) {
    cl_int err = CL_SUCCESS;
    bool first = c->anchor_ns == 0;
    /* The anchor becomes the previous one, kept for events converted late. */
    CUevent spare = c->prev;
    if (!first && !spare)
        err = CVCU_CALL(cvcu.cuEventCreate(&spare, CU_EVENT_DEFAULT), CL_OUT_OF_RESOURCES);
    if (first)
        spare = c->anchor;
    cl_ulong t0 = 0, t1 = ~0ull;
    for (int i = 0; i < CVCU_CLOCK_SAMPLES && err == CL_SUCCESS && t1 - t0 > 4000; i++) {
        t0 = cvu_host_time_ns();
        err = CVCU_CALL(cvcu.cuEventRecord(spare, c->idle), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = CVCU_CALL(cvcu.cuEventSynchronize(spare), CL_OUT_OF_RESOURCES);
        t1 = cvu_host_time_ns();
    }
    if (err == CL_SUCCESS && (first || t1 - t0 < c->best_ns))
        c->best_ns = t1 - t0;
    /* A wide window is still taken once the anchor has aged four periods. */
    if (err == CL_SUCCESS && (first || t1 - t0 <= 4 * c->best_ns + 20000 ||
                              t1 - c->renewed_ns > 4 * cvcu_clock_period_ns)) {
        if (!first) {
            c->prev = c->anchor;
            c->prev_ns = c->anchor_ns;
        }
        c->anchor = spare;
        c->anchor_ns = t0 + (t1 - t0) / 2;
        c->renewed_ns = t1;
    } else if (!first) {
        c->prev = spare; /* unused: recorded again at the next renewal */
        c->prev_ns = 0;
    }
    return err;
}

/* Milliseconds from start to end, as cuEventElapsedTime. */
static cl_int cvcu_event_elapsed_ms(cvcu_event *start, cvcu_event *end, float *ms) {
    return CVCU_CALL(cvcu.cuEventElapsedTime(ms, (CUevent)start, (CUevent)end),
                     CL_PROFILING_INFO_NOT_AVAILABLE);
}

static float cvcu_abs(float x) {
    return x < 0 ? -x : x;
}

static cl_int cvcu_clock_get(struct cvcu_device *dev, cvcu_clock **out) {
    cl_int err = CL_SUCCESS;
    cvcu_clock *c = NULL;
    for (int i = 0; i < CVCU_CLOCK_MAX && !c; i++)
        if (cvcu_clocks[i].dev == dev || cvcu_clocks[i].dev == NULL)
            c = &cvcu_clocks[i];
    /* A reset of the device destroyed the stream and events: made anew, never destroyed. */
    if (c && c->dev == dev && !cvcu_device_current(dev, c->generation))
        *c = (cvcu_clock){0};
    if (!c)
        err = CL_OUT_OF_RESOURCES;
    else if (c->dev == NULL) {
        c->generation = cvcu_device_generation(dev);
        err = CVCU_CALL(cvcu.cuStreamCreate(&c->idle, CU_STREAM_NON_BLOCKING), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = CVCU_CALL(cvcu.cuEventCreate(&c->anchor, CU_EVENT_DEFAULT), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = cvcu_clock_renew(c);
        if (err == CL_SUCCESS)
            c->dev = dev;
    } else if (cvu_host_time_ns() - c->renewed_ns > cvcu_clock_period_ns)
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
    cl_ulong base = c ? c->anchor_ns : 0;
    /* Of the two anchors, the nearer one loses the least to float precision and drift. */
    float prev_ms = 0;
    if (err == CL_SUCCESS && c->prev && c->prev_ns &&
        cvcu_event_elapsed_ms((cvcu_event *)c->prev, ev, &prev_ms) == CL_SUCCESS &&
        cvcu_abs(prev_ms) < cvcu_abs(ms)) {
        ms = prev_ms;
        base = c->prev_ns;
    }
    if (err == CL_SUCCESS)
        *ns = (cl_ulong)((double)base + (double)ms * 1e6 * cvcu_clock_scale);
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
