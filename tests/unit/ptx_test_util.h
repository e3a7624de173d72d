/* What the PTX tests (tests/unit/ptx_*.c) share: test PTX files, ptxas, counting. */
#ifndef CV_PTX_TEST_UTIL_H
#define CV_PTX_TEST_UTIL_H

#include "test_util.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

static inline char *read_file(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CV_TEST_PTX_DIR, name);
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0; /* REQUIRE evaluates twice */
    REQUIRE(buf && got == (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Runs ptxas on text; true when it assembles. */
static inline bool assembles(const char *text, const char *tag) {
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "/tmp/cv_ptx_test_%d_%s.ptx", (int)getpid(), tag);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 '%s' -o /dev/null", CV_PTXAS, path);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "ptxas failed on %s (kept for reading)\n", path);
    else
        unlink(path);
    return rc == 0;
}

static inline size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

#endif
