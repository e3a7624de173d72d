/* Host reference for half precision (IEEE binary16): exact decoding, and rounding with each of
 * OpenCL's rounding modes from a long double (exact for every float, double and 64-bit
 * integer, so there is one rounding only). */
#ifndef CV_HALF_REF_H
#define CV_HALF_REF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

enum { HR_RTE, HR_RTZ, HR_RTP, HR_RTN };

static inline double half_value(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31)
        return m ? copysign(NAN, s) : s * INFINITY; /* a NaN keeps its sign (copysign) */
    if (e == 0)
        return s * ldexp(m, -24);
    return s * ldexp(m + 1024, e - 25);
}

static inline bool half_is_nan(uint16_t h) {
    return (h & 0x7c00) == 0x7c00 && (h & 1023);
}

/* An integer-valued long double rounded by mode (ties to even for HR_RTE). */
static inline long double round_by(long double v, int mode) {
    long double fl = floorl(v), d = v - fl;
    switch (mode) {
    case HR_RTZ:
        return truncl(v);
    case HR_RTP:
        return ceill(v);
    case HR_RTN:
        return fl;
    default:
        return d > 0.5L || (d == 0.5L && fmodl(fl, 2.0L) != 0) ? fl + 1 : fl;
    }
}

/* x rounded to half by mode: the bits. */
static inline uint16_t half_from(long double x, int mode) {
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    if (isnan(x))
        return 0x7e00;
    if (isinf(x))
        return sign | 0x7c00;
    long double a = fabsl(x);
    if (a == 0)
        return sign;
    int e;
    frexpl(a, &e);      /* a in [2^(e-1), 2^e) */
    int q = e - 1 - 10; /* the exponent of a's ulp; subnormals have 2^-24 */
    if (q < -24)
        q = -24;
    /* Directed modes round the magnitude: toward zero for RTZ, and for RTP/RTN by the sign. */
    int m = mode == HR_RTP   ? (sign ? HR_RTZ : HR_RTP)
            : mode == HR_RTN ? (sign ? HR_RTP : HR_RTZ)
                             : mode;
    long double v = ldexpl(round_by(ldexpl(a, -q), m), q);
    if (v >= 65536.0L) /* past the largest finite half (65504) */
        return sign | (m == HR_RTZ ? 0x7bff : 0x7c00);
    if (v < 0x1p-14L)
        return sign | (uint16_t)ldexpl(v, 24);
    frexpl(v, &e);
    return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(ldexpl(v, 11 - e) - 1024);
}

#endif
