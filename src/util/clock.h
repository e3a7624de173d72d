/* The host clock of every culvert timestamp. */
#ifndef CVU_CLOCK_H
#define CVU_CLOCK_H

#include <stdint.h>

/* Nanoseconds of CLOCK_MONOTONIC_RAW: profiling timestamps and the host timer. */
uint64_t cvu_host_time_ns(void);

/* Nanoseconds of CLOCK_MONOTONIC: the host waits' own durations and deadlines, read on every
 * enqueue of a kernel whose waits are long. gVisor (the GPU test machine's sandbox) serves
 * this clock from its vDSO and CLOCK_MONOTONIC_RAW by a system call. */
uint64_t cvu_wait_time_ns(void);

#endif
