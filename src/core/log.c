#include "core/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cv_log_threshold;

static const struct {
    const char *name;
    cv_log_level level;
} cv_log_names[] = {
    {"0", CV_LOG_OFF},  {"off", CV_LOG_OFF},   {"1", CV_LOG_ERROR}, {"error", CV_LOG_ERROR},
    {"2", CV_LOG_INFO}, {"info", CV_LOG_INFO}, {"3", CV_LOG_CALLS}, {"calls", CV_LOG_CALLS},
};

/* Runs when the library is loaded, before any entry point can be called. */
__attribute__((constructor)) void cv_log_init(void) {
    const char *v = getenv("CULVERT_LOG");
    if (!v || !*v)
        return;
    cv_log_threshold = CV_LOG_INFO; /* any other value: a useful default */
    for (size_t i = 0; i < sizeof cv_log_names / sizeof cv_log_names[0]; i++)
        if (strcmp(v, cv_log_names[i].name) == 0)
            cv_log_threshold = cv_log_names[i].level;
}

void cv_log_write(cv_log_level level, const char *fmt, ...) {
    static const char *const prefix[] = {"", "error", "info", "call"};
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* One fprintf per line: stdio locks the stream, so threads never interleave characters. */
    fprintf(stderr, "culvert %s: %s\n", prefix[level], line);
}
