/* The profiling clocks' shared settings and anchor rules (cu_clock.c: CUDA events; cu_ktime.c:
 * %globaltimer). Both map a device clock onto the host clock (cvu_host_time_ns) through anchors,
 * a device time and the host time the device passed it, each known within a window: the host
 * time is read on both sides of the device's, and of several tries the narrowest pair is kept. */
#ifndef CV_CUDA_CLOCK_H
#define CV_CUDA_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* CULVERT_PROFILING_ANCHOR_MS: how often an anchor is renewed (default 1000 ms). */
uint64_t cvcu_clock_period_ns(void);
/* CULVERT_PROFILING_DRIFT_PPM: every device interval is scaled by this (1.0 without it), as a
 * device clock running fast by that many parts per million would be. */
double cvcu_clock_drift_scale(void);

/* One anchor: device time (the clock's own unit), host ns, and the window (host ns) the device
 * time was read within; window 0: no anchor. */
typedef struct cvcu_anchor {
    double dev;
    uint64_t host;
    uint64_t window;
} cvcu_anchor;

/* The anchors of one clock and the rate between device and host time they show. */
typedef struct cvcu_anchors {
    cvcu_anchor now, before; /* the latest and the one it replaced */
    double rate;             /* host ns per device unit; 0 until anchored */
    double unit_ns;          /* host ns per device unit, nominally */
    uint64_t narrowest;      /* the narrowest window seen: what this device and host can do */
    uint64_t renewed;        /* host time of the last try to renew */
} cvcu_anchors;

/* Is it time to renew (a period since the last try)? */
bool cvcu_anchors_due(const cvcu_anchors *a, uint64_t now);
/* Offers a new anchor: taken unless its window is wide against the narrowest seen (a loaded
 * host: the anchor in hand is better), and then the rate follows the two latest anchors where
 * they are far enough apart to measure it. Returns whether it was taken. */
bool cvcu_anchors_offer(cvcu_anchors *a, cvcu_anchor fresh);
/* Host ns of a device time (extrapolated from the latest anchor at the rate). */
uint64_t cvcu_anchors_host(const cvcu_anchors *a, double dev);

#endif
