/* The host clock of every culvert timestamp. */
#ifndef CVU_CLOCK_H
#define CVU_CLOCK_H

#include <stdint.h>

/* Nanoseconds of CLOCK_MONOTONIC_RAW. */
uint64_t cvu_host_time_ns(void);

#endif
