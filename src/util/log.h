/* CULVERT_LOG=error|info|calls (or 1..3) turns on a log to stderr. Off by default. */
#ifndef CVU_LOG_H
#define CVU_LOG_H

#include <stdatomic.h>

typedef enum cvu_log_level {
    CVU_LOG_OFF = 0,
    CVU_LOG_ERROR = 1, /* API errors and CUDA failures */
    CVU_LOG_INFO = 2,  /* set-up facts: devices found, why none; build timings */
    CVU_LOG_CALLS = 3, /* every API call that fails its validation, and more */
} cvu_log_level;

/* Set once at load (CULVERT_LOG); atomic so that a test may change it while culvert's threads
 * log. */
extern _Atomic int cvu_log_threshold;
void cvu_log_init(void);
void cvu_log_write(cvu_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Cheap when logging is off: one load (relaxed: the level is a hint, not a fence) and a branch. */
#define cvu_log(level, ...)                                                                        \
    do {                                                                                           \
        if ((int)(level) <= atomic_load_explicit(&cvu_log_threshold, memory_order_relaxed))        \
            cvu_log_write((level), __VA_ARGS__);                                                   \
    } while (0)

#endif
