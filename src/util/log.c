#include "util/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Atomic int cvu_log_threshold;

static const struct {
    const char *name;
    cvu_log_level level;
} cvu_log_names[] = {
    {"0", CVU_LOG_OFF},  {"off", CVU_LOG_OFF},   {"1", CVU_LOG_ERROR}, {"error", CVU_LOG_ERROR},
    {"2", CVU_LOG_INFO}, {"info", CVU_LOG_INFO}, {"3", CVU_LOG_CALLS}, {"calls", CVU_LOG_CALLS},
};

/* Runs when the library is loaded, before any entry point can be called. */
__attribute__((constructor)) void cvu_log_init(void) {
    const char *v = getenv("CULVERT_LOG");
    if (!v || !*v)
        return;
    cvu_log_threshold = CVU_LOG_INFO; /* any other value: a useful default */
    for (size_t i = 0; i < sizeof cvu_log_names / sizeof cvu_log_names[0]; i++)
        if (strcmp(v, cvu_log_names[i].name) == 0)
            cvu_log_threshold = cvu_log_names[i].level;
}

void cvu_log_write(cvu_log_level level, const char *fmt, ...) {
    static const char *const prefix[] = {"", "error", "info", "call"};
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* One fprintf per line: stdio locks the stream, so threads never interleave characters. */
    fprintf(stderr, "culvert %s: %s\n", prefix[level], line);
}
