#include "util/clock.h"

#include <time.h>

static uint64_t cvu_clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t cvu_host_time_ns(void) {
    return cvu_clock_ns(CLOCK_MONOTONIC_RAW);
}

uint64_t cvu_wait_time_ns(void) {
    return cvu_clock_ns(CLOCK_MONOTONIC);
}
