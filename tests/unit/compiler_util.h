/* Helpers shared by the compiler's unit tests (tests/unit/compiler_*.c), which call the
 * compiler (src/compiler) directly. */
#ifndef CV_TEST_COMPILER_UTIL_H
#define CV_TEST_COMPILER_UTIL_H

/* cv_test_util defines these on the command line; culvert's header defines them again. */
#undef CL_USE_DEPRECATED_OPENCL_1_0_APIS
#undef CL_USE_DEPRECATED_OPENCL_1_1_APIS
#undef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "compiler/compiler.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cvt_failures;

#define CVT_CHECK(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            cvt_failures++;                                                                        \
        }                                                                                          \
    } while (0)

static const cvc_target cvt_sm90 = {.cc_major = 9, .cc_minor = 0};

__attribute__((unused)) static char *cvt_read(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* A fresh directory for one test; removed (flat) by cvt_rmdir. */
static void cvt_tempdir(char *out, size_t size) {
    snprintf(out, size, "%s/cv-compiler-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(out)) {
        perror("mkdtemp");
        exit(1);
    }
}

static void cvt_rmdir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || !strcmp(e->d_name, "..")))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

__attribute__((unused)) static int cvt_count_files(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    /* Cache entries (*.cvc); the compiler also keeps a small llc probe file there. */
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        n += len > 4 && !strcmp(e->d_name + len - 4, ".cvc");
    }
    if (d)
        closedir(d);
    return n;
}

/* Writes text to path; false when it cannot. */
__attribute__((unused)) static bool cvt_write(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0;
    if (f)
        ok = fclose(f) == 0 && ok;
    return ok;
}

/* Runs ptxas -arch=sm_90 at optimization level opt (0..3) on PTX text; 0 when it assembles.
 * -O0 checks that the PTX is valid in a fraction of the time (large kernels take ptxas -O3
 * tens of seconds). */
__attribute__((unused)) static int cvt_ptxas_at(const char *ptx, const char *what, int opt) {
    char dir[256], path[512], cmd[2048];
    cvt_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/k.ptx", dir);
    cvt_write(path, ptx);
    snprintf(cmd, sizeof cmd, "'%s' -O%d -arch=sm_90 '%s' -o '%s/k.cubin'", CV_PTXAS, opt, path,
             dir);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "ptxas failed on %s\n", what);
    cvt_rmdir(dir);
    return rc;
}

/* ptxas -O3, as the driver compiles PTX. */
__attribute__((unused)) static int cvt_ptxas(const char *ptx, const char *what) {
    return cvt_ptxas_at(ptx, what, 3);
}

/* Skip (77) when no clang/libclc is there, or no ptxas. */
__attribute__((unused)) static void cvt_require_compiler(void) {
    if (!cvc_available()) {
        fprintf(stderr, "SKIP: no OpenCL C compiler (clang, llc, libclc) found\n");
        exit(77);
    }
    if (access(CV_PTXAS, X_OK) != 0) {
        fprintf(stderr, "SKIP: ptxas not found (%s)\n", CV_PTXAS);
        exit(77);
    }
}

/* Each test uses a private cache directory. */
__attribute__((unused)) static void cvt_private_cache(char *dir, size_t size) {
    cvt_tempdir(dir, size);
    setenv("CULVERT_CACHE_DIR", dir, 1);
    unsetenv("CULVERT_CACHE");
}

#endif
