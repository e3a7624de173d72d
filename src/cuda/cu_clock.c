/* Device timestamps on the host clock, through anchor events per device context; the anchor rules
 * both profiling clocks share (cuda/cu_clock.h). */
#include "cuda/cu_clock.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "util/clock.h"
#include "util/log.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#define CVCU_CLOCK_MAX 64
/* Events recorded per renewal, one after the other: the one read within the narrowest window
 * becomes the anchor. */
#define CVCU_CLOCK_TRIES 3
/* More tries, up to this many, while the best window is wider than twice the narrowest seen (or
 * than this, before any). */
#define CVCU_CLOCK_TRIES_MAX 16
#define CVCU_CLOCK_GOOD_NS   30000
/* A window this much wider than the narrowest seen is not taken (plus a slack for hosts whose
 * narrowest was a lucky one). */
#define CVCU_ANCHOR_WIDER 4
#define CVCU_ANCHOR_SLACK 10000
/* The rate is measured between anchors this many windows apart, and believed within 1000 ppm of
 * nominal (plus twice the simulated drift). */
#define CVCU_RATE_SPAN  100.0
#define CVCU_RATE_LIMIT 1e-3

static pthread_once_t cvcu_clock_once = PTHREAD_ONCE_INIT;
static uint64_t cvcu_period_ns = 1000000000ull;
static double cvcu_drift_scale = 1.0;

static void cvcu_clock_read_env(void) {
    const char *period = getenv("CULVERT_PROFILING_ANCHOR_MS");
    const char *drift = getenv("CULVERT_PROFILING_DRIFT_PPM");
    if (period && atof(period) > 0)
        cvcu_period_ns = (uint64_t)(atof(period) * 1e6);
    if (drift)
        cvcu_drift_scale = 1.0 + atof(drift) * 1e-6;
}

uint64_t cvcu_clock_period_ns(void) {
    pthread_once(&cvcu_clock_once, cvcu_clock_read_env);
    return cvcu_period_ns;
}

double cvcu_clock_drift_scale(void) {
    pthread_once(&cvcu_clock_once, cvcu_clock_read_env);
    return cvcu_drift_scale;
}

bool cvcu_anchors_due(const cvcu_anchors *a, uint64_t now) {
    return a->now.window == 0 || now - a->renewed > cvcu_clock_period_ns();
}

bool cvcu_anchors_offer(cvcu_anchors *a, cvcu_anchor fresh) {
    bool first = a->now.window == 0;
    if (first || fresh.window < a->narrowest)
        a->narrowest = fresh.window;
    if (!first && fresh.window > CVCU_ANCHOR_WIDER * a->narrowest + CVCU_ANCHOR_SLACK)
        return false;
    a->before = a->now;
    a->now = fresh;
    if (first) {
        a->rate = a->unit_ns;
        return true;
    }
    double span = (double)(fresh.host - a->before.host), dev = fresh.dev - a->before.dev;
    double limit = CVCU_RATE_LIMIT + 2 * fabs(cvcu_clock_drift_scale() - 1.0);
    if (dev > 0 && span > CVCU_RATE_SPAN * (double)(fresh.window + a->before.window)) {
        double rate = span / dev;
        if (fabs(rate / a->unit_ns - 1.0) <= limit)
            a->rate = rate;
    }
    return true;
}

uint64_t cvcu_anchors_host(const cvcu_anchors *a, double dev) {
    int64_t off = llround((dev - a->now.dev) * a->rate);
    return off < 0 && (uint64_t)-off > a->now.host ? 0 : a->now.host + (uint64_t)off;
}

typedef struct cvcu_clock {
    struct cvcu_device *dev;
    unsigned generation; /* dev's when idle and the events were made */
    CUstream idle;       /* never gets other work: an event recorded on it runs at once */
    CUevent anchor;      /* passed at anchors.now (device time: ns since the first anchor) */
    CUevent before;      /* passed at anchors.before (NULL until there is one) */
    CUevent tries[CVCU_CLOCK_TRIES];
    cvcu_anchors anchors;
} cvcu_clock;

static pthread_mutex_t cvcu_clock_lock = PTHREAD_MUTEX_INITIALIZER;
static cvcu_clock cvcu_clocks[CVCU_CLOCK_MAX];

/* Device ns from a to b, as cuEventElapsedTime measures them (with the drift hook). */
static cl_int cvcu_event_elapsed_ns(CUevent a, CUevent b, double *ns) {
    float ms = 0;
    cl_int err = CVCU_CALL(cvcu.cuEventElapsedTime(&ms, a, b), CL_PROFILING_INFO_NOT_AVAILABLE);
    *ns = (double)ms * 1e6 * cvcu_clock_drift_scale();
    return err;
}

/* Records try events on the idle stream, reading the host time before the record and after
 * its completion; the try read within the narrowest window is offered as the new anchor (its
 * device time measured from the anchor in hand). The anchor's error is up to half its window, so
 * while the best window is wide (a loaded host or GPU: a thread descheduled between the reads)
 * more tries follow, into the slots other than the best. */
static cl_int cvcu_clock_renew(cvcu_clock *c) {
    cl_int err = CL_SUCCESS;
    uint64_t t0[CVCU_CLOCK_TRIES], t1[CVCU_CLOCK_TRIES];
    uint64_t good = c->anchors.narrowest ? 2 * c->anchors.narrowest : CVCU_CLOCK_GOOD_NS;
    good = good > CVCU_CLOCK_GOOD_NS ? good : CVCU_CLOCK_GOOD_NS;
    int best = -1;
    for (int n = 0; n < CVCU_CLOCK_TRIES_MAX && err == CL_SUCCESS; n++) {
        if (n >= CVCU_CLOCK_TRIES && t1[best] - t0[best] <= good)
            break;
        int i = n < CVCU_CLOCK_TRIES ? n : (best + 1) % CVCU_CLOCK_TRIES;
        t0[i] = cvu_host_time_ns();
        err = CVCU_CALL(cvcu.cuEventRecord(c->tries[i], c->idle), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = CVCU_CALL(cvcu.cuEventSynchronize(c->tries[i]), CL_OUT_OF_RESOURCES);
        t1[i] = cvu_host_time_ns();
        if (err == CL_SUCCESS && (best < 0 || t1[i] - t0[i] < t1[best] - t0[best]))
            best = i;
    }
    if (best >= 0)
        cvu_log(CVU_LOG_INFO, "culvert: CUDA event clock anchor read within %.1f us",
                (t1[best] - t0[best]) / 1e3);
    c->anchors.renewed = cvu_host_time_ns();
    double dev = 0;
    if (err == CL_SUCCESS && c->anchors.now.window) {
        err = cvcu_event_elapsed_ns(c->anchor, c->tries[best], &dev);
        dev += c->anchors.now.dev;
    }
    if (err == CL_SUCCESS) {
        uint64_t window = t1[best] - t0[best];
        cvcu_anchor fresh = {dev, t0[best] + window / 2, window ? window : 1};
        if (cvcu_anchors_offer(&c->anchors, fresh)) {
            /* The try becomes the anchor; the event of the anchor before goes back to the tries. */
            CUevent spare = c->before;
            c->before = c->anchor;
            c->anchor = c->tries[best];
            c->tries[best] = spare;
        }
    }
    if (err == CL_SUCCESS && !c->tries[best])
        err = CVCU_CALL(cvcu.cuEventCreate(&c->tries[best], CU_EVENT_DEFAULT), CL_OUT_OF_RESOURCES);
    return err;
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
        c->anchors.unit_ns = 1.0;
        err = CVCU_CALL(cvcu.cuStreamCreate(&c->idle, CU_STREAM_NON_BLOCKING), CL_OUT_OF_RESOURCES);
        for (int i = 0; i < CVCU_CLOCK_TRIES && err == CL_SUCCESS; i++)
            err =
                CVCU_CALL(cvcu.cuEventCreate(&c->tries[i], CU_EVENT_DEFAULT), CL_OUT_OF_RESOURCES);
        if (err == CL_SUCCESS)
            err = cvcu_clock_renew(c);
        if (err == CL_SUCCESS)
            c->dev = dev;
    } else if (cvcu_anchors_due(&c->anchors, cvu_host_time_ns()))
        err = cvcu_clock_renew(c);
    *out = c;
    return err;
}

cl_int cvcu_clock_host_ns(struct cvcu_device *dev, cvcu_event *ev, cl_ulong *ns) {
    cvcu_clock *c = NULL;
    double dev_ns = 0, before_ns = 0;
    pthread_mutex_lock(&cvcu_clock_lock);
    cl_int err = cvcu_device_bind(dev);
    if (err == CL_SUCCESS)
        err = cvcu_clock_get(dev, &c);
    if (err == CL_SUCCESS)
        err = cvcu_event_elapsed_ns(c->anchor, (CUevent)ev, &dev_ns);
    /* Of the two anchors, the nearer one loses the least to float milliseconds. */
    if (err == CL_SUCCESS && c->before && c->anchors.before.window &&
        cvcu_event_elapsed_ns(c->before, (CUevent)ev, &before_ns) == CL_SUCCESS &&
        fabs(before_ns) < fabs(dev_ns))
        dev_ns = c->anchors.before.dev + before_ns;
    else if (err == CL_SUCCESS)
        dev_ns += c->anchors.now.dev;
    if (err == CL_SUCCESS)
        *ns = cvcu_anchors_host(&c->anchors, dev_ns);
    pthread_mutex_unlock(&cvcu_clock_lock);
    return err;
}
