/* Profiling timestamps brought between SUBMIT and the moment the host saw the command complete
 * (src/core/profile_bounds.c): an error of the device clock's mapping moves START and END alike,
 * so END - START stays what the device measured. On the H100 an isolated 4096 x 4096 image-write
 * kernel, timed by CUDA events mapped ~10 us early, read 33.8 us where its launches take 43 us:
 * START was raised to SUBMIT and END was not. */
#include "test_util.h"

#include "core/profile_bounds.h"

static void check(uint64_t lo, uint64_t hi, uint64_t s, uint64_t e, uint64_t want_s,
                  uint64_t want_e) {
    cv_profile_bounds(lo, hi, &s, &e);
    CHECK(s == want_s && e == want_e);
    if (s != want_s || e != want_e)
        fprintf(stderr, "bounds [%llu, %llu]: got %llu..%llu, want %llu..%llu\n",
                (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)s,
                (unsigned long long)e, (unsigned long long)want_s, (unsigned long long)want_e);
}

int main(void) {
    /* within the bounds: as measured */
    check(1000, 9000, 2000, 5000, 2000, 5000);
    /* mapped 10 us early, the command started 2 us after SUBMIT: START raised to SUBMIT, END
     * moved as much (its duration kept) */
    check(100000, 200000, 92000, 135000, 100000, 143000);
    /* ... but never past the moment the host saw it complete */
    check(100000, 140000, 92000, 135000, 100000, 140000);
    /* mapped late, START past that moment: both lowered, to the bound */
    check(1000, 9000, 9500, 9800, 9000, 9000);
    check(1000, 9000, 8000, 9600, 8000, 9000);
    /* END before START (separately mapped events): START */
    check(1000, 9000, 5000, 4000, 5000, 5000);
    /* the host's bound below SUBMIT counts as SUBMIT */
    check(5000, 4000, 3000, 3500, 5000, 5000);
    /* at the clock's ends: no wrap */
    check(0, UINT64_MAX, 0, UINT64_MAX, 0, UINT64_MAX);
    check(10, 20, 0, 5, 10, 15);
    return cv_test_report("profile_bounds");
}
