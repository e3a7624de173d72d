/* CULVERT_LOG=error|info|calls (or 1..3) turns on a log to stderr. Off by default. */
#ifndef CV_CORE_LOG_H
#define CV_CORE_LOG_H

typedef enum cv_log_level {
    CV_LOG_OFF = 0,
    CV_LOG_ERROR = 1, /* API errors and CUDA failures */
    CV_LOG_INFO = 2,  /* set-up facts: devices found, why none, compiler paths */
    CV_LOG_CALLS = 3, /* every API call that fails its validation, and more */
} cv_log_level;

extern int cv_log_threshold;
void cv_log_init(void);
void cv_log_write(cv_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Cheap when logging is off: one load and a branch. */
#define cv_log(level, ...)                                                                         \
    do {                                                                                           \
        if ((int)(level) <= cv_log_threshold)                                                      \
            cv_log_write((level), __VA_ARGS__);                                                    \
    } while (0)

/* API entry points log the error they return, with the function's name. */
#define CV_API_ERROR(err)                                                                          \
    do {                                                                                           \
        if ((err) != CL_SUCCESS)                                                                   \
            cv_log(CV_LOG_ERROR, "%s returns %d", __func__, (int)(err));                           \
    } while (0)

#endif
