#include "core/profile_bounds.h"

void cv_profile_bounds(uint64_t lo, uint64_t hi, uint64_t *start, uint64_t *end) {
    uint64_t s = *start, e = *end < *start ? *start : *end;
    hi = hi < lo ? lo : hi;
    if (s < lo) {
        e += lo - s;
        s = lo;
    } else if (s > hi) {
        e -= s - hi; /* e >= s > hi: no wrap */
        s = hi;
    }
    *start = s;
    *end = e < s ? s : e > hi ? hi : e;
}
