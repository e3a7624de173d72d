/* clang and llc started ahead of the next source build (cvc_spare.c): a build finds them for the
 * same options and gives the same PTX as a build that starts its own; another option set starts
 * its own; compile errors from a stage started ahead read as any other; a stage whose processes
 * died is not used; clUnloadPlatformCompiler's stop leaves nothing waiting; no temporary
 * directory is left behind. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

#include <signal.h>
#include <sys/wait.h>

static const char *kernel = "__kernel void k(__global float *p) {\n"
                            "    p[get_global_id(0)] = sin(p[0]) * SCALE;\n"
                            "}\n";
static const char *broken = "__kernel void k(__global float *p) {\n"
                            "    p[0] = not_declared;\n"
                            "}\n";

/* Builds `source` with `options`, the source made new by a comment (never a cache hit: the
 * options must stay the same, they are the stage's command line); the PTX or NULL. */
static char *build(const char *source, const char *options, cl_int expect, char **log) {
    static int round;
    char *text = malloc(strlen(source) + 64);
    sprintf(text, "/* round %d */\n%s", round++, source);
    cvc_output out = {0};
    cl_int err = cvc_build(text, strlen(text), options, &cvt_sm90, &out);
    CVT_CHECK(err == expect, "build with '%s': %d, expected %d; log: %s", options, err, expect,
              out.log ? out.log : "");
    free(text);
    char *ptx = err == CL_SUCCESS && out.data ? strdup((char *)out.data) : NULL;
    if (log)
        *log = out.log ? strdup(out.log) : NULL;
    cvc_output_free(&out);
    return ptx;
}

/* The PTX from the first .version line on (the //cv: lines name the same things). */
static const char *body(const char *ptx) {
    const char *v = ptx ? strstr(ptx, ".version") : NULL;
    return v ? v : "";
}

/* Our temporary directories (culvert-cc-*) in TMPDIR. */
static int tmp_dirs(const char *tmp) {
    DIR *d = opendir(tmp);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL)
        n += !strncmp(e->d_name, "culvert-cc-", 11);
    if (d)
        closedir(d);
    return n;
}

/* Kills every child process of pid's (0: ours); how many, -1 when /proc cannot tell. */
static int kill_children_of(pid_t pid) {
    char path[128];
    pid = pid ? pid : getpid();
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int child, n = 0;
    while (fscanf(f, "%d", &child) == 1) {
        kill(child, SIGKILL);
        waitpid(child, NULL, WNOHANG);
        n++;
    }
    fclose(f);
    return n;
}

/* Kills the stages waiting: processes of ours, or runs of the tool servers (cvc_server.c). */
static bool kill_stages(void) {
    const cvc_tools *t = cvc_get_tools();
    int n = 0;
    pid_t servers[] = {cvc_server_pid(t->clang), cvc_server_pid(t->llc), 0};
    for (size_t i = 0; i < sizeof servers / sizeof *servers; i++) {
        int k = servers[i] || i == 2 ? kill_children_of(servers[i]) : 0;
        if (k < 0)
            return false;
        n += k;
    }
    usleep(100000); /* the servers see their runs end */
    return n > 0;
}

int main(void) {
    cvt_require_compiler();
    char cache[256], tmp[256];
    cvt_private_cache(cache, sizeof cache);
    /* A private TMPDIR: the stages' directories are counted there. */
    cvt_tempdir(tmp, sizeof tmp);
    setenv("TMPDIR", tmp, 1);

    /* The first build starts its own stage and one for the next build with its options. */
    unsigned long used = cvc_spares_used();
    char *first = build(kernel, "-DSCALE=2.0f", CL_SUCCESS, NULL);
    CVT_CHECK(cvc_spares_used() == used, "the first build had no stage waiting");
    CVT_CHECK(tmp_dirs(tmp) == 1, "one stage waits in its directory: %d", tmp_dirs(tmp));

    /* The next build with the same options takes it: the same PTX. */
    char *second = build(kernel, "-DSCALE=2.0f", CL_SUCCESS, NULL);
    CVT_CHECK(cvc_spares_used() == used + 1, "the second build took the waiting stage");
    CVT_CHECK(first && second && !strcmp(body(first), body(second)),
              "same PTX from a stage started ahead");

    /* A process forked from the application holds copies of the stage's descriptors: the
     * stage must still see the end of its input (a hang here fails by the alarm). */
    pid_t forked = fork();
    if (forked == 0) {
        sleep(30);
        _exit(0);
    }
    alarm(120);
    char *while_forked = build(kernel, "-DSCALE=2.0f", CL_SUCCESS, NULL);
    alarm(0);
    CVT_CHECK(cvc_spares_used() == used + 2, "the build beside a fork took the waiting stage");
    CVT_CHECK(while_forked && !strcmp(body(first), body(while_forked)), "same PTX beside a fork");
    free(while_forked);
    if (forked > 0) {
        kill(forked, SIGKILL);
        waitpid(forked, NULL, 0);
    }

    /* A define is part of the command line: another -D value is another option set, so the
     * stage of "-DSCALE=2.0f" is not taken. */
    char *other = build(kernel, "-DSCALE=3.0f", CL_SUCCESS, NULL);
    CVT_CHECK(cvc_spares_used() == used + 2, "other options start their own stage");
    CVT_CHECK(other && strstr(other, "0f40400000"), "SCALE=3.0f is in the PTX");
    CVT_CHECK(tmp_dirs(tmp) == 2, "a stage waits for each option set: %d", tmp_dirs(tmp));

    /* A compile error through a stage started ahead: the failure and clang's diagnostic. */
    char *log = NULL;
    build(broken, "-DSCALE=2.0f", CL_BUILD_PROGRAM_FAILURE, &log);
    CVT_CHECK(cvc_spares_used() == used + 3, "the failing build took the waiting stage");
    CVT_CHECK(log && strstr(log, "not_declared") && strstr(log, "error"),
              "clang's diagnostic in the log: %s", log ? log : "(none)");
    free(log);

    /* Stages whose processes died are not used: the build starts its own. */
    if (kill_stages()) {
        char *after = build(kernel, "-DSCALE=2.0f", CL_SUCCESS, NULL);
        CVT_CHECK(cvc_spares_used() == used + 3, "a dead stage is not taken");
        CVT_CHECK(after && !strcmp(body(first), body(after)), "same PTX after the kill");
        free(after);
    } else {
        fprintf(stderr, "note: /proc/self/task/*/children unavailable: dead stages not tested\n");
    }

    /* The working directory is part of a stage: a relative -I path after chdir() finds the new
     * directory's header, not the one of the directory the stage was started in. */
    char dirs[2][700], cwd[4096];
    const char *scale[2] = {"#define SCALE 5.0f\n", "#define SCALE 7.0f\n"};
    CVT_CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    for (int d = 0; d < 2; d++) {
        char path[1500];
        snprintf(dirs[d], sizeof dirs[d], "%s/w%d", tmp, d);
        mkdir(dirs[d], 0700);
        snprintf(path, sizeof path, "%s/scale.h", dirs[d]);
        FILE *f = fopen(path, "w");
        CVT_CHECK(f && fputs(scale[d], f) >= 0, "write %s", path);
        if (f)
            fclose(f);
    }
    static const char *included = "#include \"scale.h\"\n"
                                  "__kernel void k(__global float *p) { p[0] = SCALE; }\n";
    char *in_dir[2];
    for (int d = 0; d < 2; d++) {
        CVT_CHECK(chdir(dirs[d]) == 0, "chdir %s", dirs[d]);
        in_dir[d] = build(included, "-I .", CL_SUCCESS, NULL);
    }
    CVT_CHECK(chdir(cwd) == 0, "chdir back");
    CVT_CHECK(in_dir[0] && strstr(in_dir[0], "1084227584"),
              "5.0f (0x40a00000) from the first directory");
    CVT_CHECK(in_dir[1] && strstr(in_dir[1], "1088421888"),
              "7.0f (0x40e00000) from the second directory: %s",
              in_dir[1] ? body(in_dir[1]) : "(failed)");
    free(in_dir[0]);
    free(in_dir[1]);
    for (int d = 0; d < 2; d++)
        cvt_rmdir(dirs[d]);

    /* A waiting stage whose directory was removed (a cleaner of old files in /tmp) is not
     * taken: the build starts its own. */
    unsigned long before = cvc_spares_used();
    DIR *d = opendir(tmp);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, "culvert-cc-", 11)) {
            char stage[1500];
            snprintf(stage, sizeof stage, "%s/%s", tmp, e->d_name);
            cvt_rmdir(stage);
        }
    if (d)
        closedir(d);
    char *cleaned = build(kernel, "-DSCALE=2.0f", CL_SUCCESS, NULL);
    CVT_CHECK(cvc_spares_used() == before, "a stage without its directory is not taken");
    CVT_CHECK(cleaned && !strcmp(body(first), body(cleaned)), "same PTX after the cleaner");
    free(cleaned);

    /* Stopped (clUnloadPlatformCompiler): nothing waits, no directory is left. */
    cvc_spares_stop();
    CVT_CHECK(tmp_dirs(tmp) == 0, "no directory left after the stop: %d", tmp_dirs(tmp));
    char *again = build(kernel, "-DSCALE=2.0f", CL_SUCCESS, NULL);
    CVT_CHECK(again && !strcmp(body(first), body(again)), "builds go on after the stop");
    cvc_spares_stop();
    CVT_CHECK(tmp_dirs(tmp) == 0, "no directory left: %d", tmp_dirs(tmp));

    free(first);
    free(second);
    free(other);
    free(again);
    cvt_rmdir(tmp);
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
