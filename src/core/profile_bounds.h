/* START and END of a profiled command on the host clock, brought between the bounds no device
 * timestamp can pass: the command's SUBMIT and the moment the host first saw it complete. */
#ifndef CV_CORE_PROFILE_BOUNDS_H
#define CV_CORE_PROFILE_BOUNDS_H

#include <stdint.h>

/* The device clock's mapping onto the host clock is off by its anchor's error, the same for START
 * and END: a START before lo (or past hi) moves, and END with it, so END - START stays what the
 * device measured; then END is kept within [START, hi]. hi below lo counts as lo. */
void cv_profile_bounds(uint64_t lo, uint64_t hi, uint64_t *start, uint64_t *end);

#endif
