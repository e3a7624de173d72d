/* Concurrent builds from several threads (clBuildProgram is thread-safe): distinct programs and
 * the same program at once, racing on one cache entry; every build succeeds with the right PTX. */
#include "compiler_util.h"

#include <pthread.h>

enum { THREADS = 6, ROUNDS = 3 };

static void *worker(void *arg) {
    int id = (int)(size_t)arg;
    char src[256], name[32];
    long bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        /* Even threads share one program; odd ones build their own. */
        int variant = id % 2 ? id : 0;
        snprintf(name, sizeof name, "kernel_%d", variant);
        snprintf(src, sizeof src,
                 "__kernel void %s(__global int *p) { p[get_global_id(0)] = %d; }\n", name,
                 variant);
        cvc_output out = {0};
        cl_int err = cvc_build(src, strlen(src), "", &cvt_sm90, &out);
        char entry[64];
        snprintf(entry, sizeof entry, ".entry %s(", name);
        if (err != CL_SUCCESS || !out.data || !strstr((char *)out.data, entry)) {
            fprintf(stderr, "thread %d round %d: %d %s\n", id, r, err, out.log ? out.log : "");
            bad++;
        }
        cvc_output_free(&out);
    }
    return (void *)bad;
}

int main(void) {
    cvt_require_compiler();
    char cache[256];
    cvt_private_cache(cache, sizeof cache);
    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (size_t i = 0; i < THREADS; i++) {
        void *bad;
        pthread_join(t[i], &bad);
        CVT_CHECK(bad == NULL, "thread %zu failed %ld builds", i, (long)(size_t)bad);
    }
    /* One entry per distinct program (0, 1, 3, 5), no temporary files left behind. */
    CVT_CHECK(cvt_count_files(cache) == 4, "entries: %d", cvt_count_files(cache));
    DIR *d = opendir(cache);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        CVT_CHECK(!strstr(e->d_name, ".tmp"), "leftover %s", e->d_name);
    if (d)
        closedir(d);
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
