/* The compilation cache: a second build is served from the cache (proved by planting an entry
 * the compiler could not have produced), CULVERT_CACHE=0 disables it, a corrupt entry is
 * rebuilt and replaced, an unusable cache directory never fails a build, a different source,
 * option or target never hits another's entry, and threads building one source at once build it
 * once. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>

static const char *src = "__kernel void k(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n";

static cl_int build(const char *options, const cvc_target *t, cvc_output *out) {
    memset(out, 0, sizeof *out);
    return cvc_build(src, strlen(src), options, t, out);
}

/* The one entry in dir: its path and key. */
static bool only_entry(const char *dir, char *path, size_t size, cvc_hash *key) {
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    while (d && (e = readdir(d)) != NULL) {
        if (strlen(e->d_name) != 36 || strcmp(e->d_name + 32, ".cvc"))
            continue;
        snprintf(path, size, "%s/%s", dir, e->d_name);
        char hi[17] = {0}, lo[17] = {0};
        memcpy(hi, e->d_name, 16);
        memcpy(lo, e->d_name + 16, 16);
        key->hi = strtoull(hi, NULL, 16);
        key->lo = strtoull(lo, NULL, 16);
        found = true;
    }
    if (d)
        closedir(d);
    return found;
}

/* A build on a thread of its own. */
typedef struct flight_builder {
    cvc_output out;
    cl_int err;
    atomic_bool done;
} flight_builder;

static void *flight_build(void *arg) {
    flight_builder *fb = arg;
    fb->err = build("", &cvt_sm90, &fb->out);
    atomic_store(&fb->done, true);
    return NULL;
}

int main(void) {
    cvt_require_compiler();
    char dir[256];
    cvt_private_cache(dir, sizeof dir);
    cvc_output first, again;

    /* A miss writes one entry; the next build gives the same PTX. */
    CVT_CHECK(build("", &cvt_sm90, &first) == CL_SUCCESS, "first build: %s", first.log);
    CVT_CHECK(cvt_count_files(dir) == 1, "one entry after a build: %d", cvt_count_files(dir));
    CVT_CHECK(build("", &cvt_sm90, &again) == CL_SUCCESS, "second build");
    CVT_CHECK(again.size == first.size && first.data && again.data &&
                  !memcmp(again.data, first.data, first.size),
              "same PTX");
    cvc_output_free(&again);

    /* The entry is really used: plant a valid entry under the same key. */
    char path[4096];
    cvc_hash key;
    CVT_CHECK(only_entry(dir, path, sizeof path, &key), "entry name");
    cvc_output planted = {(unsigned char *)"// planted\n", 11, "planted log"};
    cvc_cache_store(key, &planted, NULL);
    CVT_CHECK(build("", &cvt_sm90, &again) == CL_SUCCESS, "build from planted entry");
    CVT_CHECK(again.data && !strcmp((char *)again.data, "// planted\n") &&
                  !strcmp(again.log, "planted log"),
              "cache hit returns the entry: %s", again.data ? (char *)again.data : "(null)");
    cvc_output_free(&again);

    /* Builds of one source at once: one thread builds, the others wait for it and take its
     * result from the cache (planted here while the test holds the key), or, where it left
     * none there, build it themselves. */
    for (int plant = 1; plant >= 0; plant--) {
        unlink(path);
        CVT_CHECK(cvc_flight_begin(key), "claim the key");
        pthread_t t;
        flight_builder fb = {0};
        CVT_CHECK(pthread_create(&t, NULL, flight_build, &fb) == 0, "builder thread");
        usleep(300 * 1000);
        CVT_CHECK(!atomic_load(&fb.done), "a build of a key in flight waits for it");
        if (plant)
            cvc_cache_store(key, &planted, NULL);
        cvc_flight_end(key);
        pthread_join(t, NULL);
        const char *got = fb.out.data ? (const char *)fb.out.data : "(null)";
        CVT_CHECK(fb.err == CL_SUCCESS, "waiting build: %d", fb.err);
        if (plant)
            CVT_CHECK(!strcmp(got, "// planted\n"), "the waiter takes the result cached: %s", got);
        else
            CVT_CHECK(fb.out.size == first.size && !memcmp(got, first.data, first.size),
                      "with nothing cached the waiter builds: %.40s", got);
        cvc_output_free(&fb.out);
    }

    /* A corrupt entry (one byte flipped, or cut short) is a miss and is replaced. */
    for (int mode = 0; mode < 2; mode++) {
        char *content = cvt_read(path);
        size_t len = content ? strlen(content) : 0; /* header has no 0 in the first bytes */
        FILE *f = fopen(path, "r+b");
        CVT_CHECK(f != NULL, "open entry");
        if (f) {
            fseek(f, 0, SEEK_END);
            long size = ftell(f);
            if (mode == 0) {
                fseek(f, size / 2, SEEK_SET);
                int c = fgetc(f);
                fseek(f, size / 2, SEEK_SET);
                fputc(c ^ 0x55, f);
            } else {
                CVT_CHECK(ftruncate(fileno(f), size - 5) == 0, "truncate");
            }
            fclose(f);
        }
        (void)len;
        free(content);
        CVT_CHECK(build("", &cvt_sm90, &again) == CL_SUCCESS, "build over corrupt entry");
        CVT_CHECK(again.size == first.size && !memcmp(again.data, first.data, first.size),
                  "rebuilt PTX (mode %d)", mode);
        cvc_output_free(&again);
        cvc_output check = {0};
        CVT_CHECK(cvc_cache_load(key, &check), "entry valid again (mode %d)", mode);
        cvc_output_free(&check);
    }

    /* Other options or another target: other entries. */
    CVT_CHECK(build("-cl-mad-enable", &cvt_sm90, &again) == CL_SUCCESS, "options");
    cvc_output_free(&again);
    cvc_target sm80 = {.cc_major = 8, .cc_minor = 0};
    CVT_CHECK(build("", &sm80, &again) == CL_SUCCESS, "sm_80");
    CVT_CHECK(again.data && strstr((char *)again.data, ".target sm_80"), "sm_80 PTX");
    cvc_output_free(&again);
    CVT_CHECK(cvt_count_files(dir) == 3, "three entries: %d", cvt_count_files(dir));

    /* A header from an -I directory is part of the entry: editing it is a miss. */
    {
        char hdir[256], hpath[300], opts[320];
        cvt_tempdir(hdir, sizeof hdir);
        snprintf(hpath, sizeof hpath, "%s/cv_value.h", hdir);
        snprintf(opts, sizeof opts, "-I %s", hdir);
        const char *inc = "#include \"cv_value.h\"\n"
                          "__kernel void k(__global int *p) { p[0] = VALUE; }\n";
        for (int round = 0; round < 3; round++) {
            int value = round == 0 ? 11111 : 22222;
            if (round < 2) {
                FILE *hf = fopen(hpath, "w");
                fprintf(hf, "#define VALUE %d\n", value);
                fclose(hf);
            }
            cvc_output o = {0};
            cl_int e = cvc_build(inc, strlen(inc), opts, &cvt_sm90, &o);
            char want[16];
            snprintf(want, sizeof want, "%d", value);
            CVT_CHECK(e == CL_SUCCESS && o.data && strstr((char *)o.data, want),
                      "round %d: PTX with %s", round, want);
            cvc_output_free(&o);
        }
        cvt_rmdir(hdir);
    }

    /* CULVERT_CACHE=0: nothing read or written. */
    char off[256];
    cvt_private_cache(off, sizeof off);
    setenv("CULVERT_CACHE", "0", 1);
    CVT_CHECK(build("", &cvt_sm90, &again) == CL_SUCCESS, "uncached build");
    CVT_CHECK(cvt_count_files(off) == 0, "disabled cache wrote %d files", cvt_count_files(off));
    DIR *offdir = opendir(off);
    struct dirent *oe;
    int any = 0;
    while (offdir && (oe = readdir(offdir)) != NULL)
        any += oe->d_name[0] != '.';
    if (offdir)
        closedir(offdir);
    CVT_CHECK(any == 0, "disabled cache: the directory stays empty (%d)", any);
    cvc_output_free(&again);
    unsetenv("CULVERT_CACHE");

    /* An unusable location (a file, not a directory) never fails a build. */
    char file[300];
    snprintf(file, sizeof file, "%s/not-a-dir", off);
    FILE *f = fopen(file, "w");
    fclose(f);
    setenv("CULVERT_CACHE_DIR", file, 1);
    CVT_CHECK(build("", &cvt_sm90, &again) == CL_SUCCESS, "build with a broken cache dir");
    cvc_output_free(&again);
    unlink(file);

    cvc_output_free(&first);
    cvt_rmdir(off);
    cvt_rmdir(dir);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
