/* The tool servers (src/compiler/cvc_server.c, server/tool_server.c): builds through them give
 * the PTX of builds that start every tool as a process; one server serves many builds; a server
 * killed between builds or in the middle of one costs no build (it is started again), a run
 * killed fails only its step; builds from several threads and from several processes at once
 * all succeed; a forked child starts its own servers and does not keep its parent's alive; the
 * servers and their runs are never the application's children; a tool with the server library
 * preloaded but not asked to serve runs as itself; an unusable library means no servers. The
 * code generators (cvc_codegen.c) give llc's PTX, reject what LLVM rejects and serve on, and
 * builds go on through llc when they are killed. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static const char *simple = "__kernel void k%d(__global int *p) {\n"
                            "    p[get_global_id(0)] = %d * (int)get_local_id(0);\n"
                            "}\n";
/* Several hundred milliseconds of clang and llc: time to kill a server in the middle. */
static const char *slow = "__kernel void slow(__global float *p) {\n"
                          "    float x = p[get_global_id(0)];\n"
                          "#pragma unroll\n"
                          "    for (int i = 0; i < 600; i++)\n"
                          "        x = sin(x) * 1.0001f + (float)i;\n"
                          "    p[get_global_id(0)] = x;\n"
                          "}\n";

enum { SIMPLE = 4, THREADS = 6, PER_THREAD = 4, PROCESSES = 3, PER_PROCESS = 4 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The simple kernel number i, made distinct by salt (never a cache hit across salts). */
static char *simple_source(int i, const char *salt) {
    char *s = malloc(strlen(simple) + strlen(salt) + 64);
    sprintf(s, "/* %s */\n", salt);
    sprintf(s + strlen(s), simple, i, i + 3);
    return s;
}

/* Builds text: the PTX from its .version line on (the rest names the same things), or NULL;
 * the log into *log when asked. */
static char *build(const char *text, cl_int *err_out, char **log) {
    cvc_output out = {0};
    cl_int err = cvc_build(text, strlen(text), "", &cvt_sm90, &out);
    if (err_out)
        *err_out = err;
    const char *v = err == CL_SUCCESS && out.data ? strstr((char *)out.data, ".version") : NULL;
    char *ptx = v ? strdup(v) : NULL;
    if (log)
        *log = strdup(out.log ? out.log : "");
    else if (err != CL_SUCCESS)
        fprintf(stderr, "build failed (%d): %s\n", err, out.log ? out.log : "");
    cvc_output_free(&out);
    return ptx;
}

/* kill() of one process only: never 0 or -1 (a process group, every process). */
static void signal_one(pid_t pid, int sig) {
    if (pid > 0)
        kill(pid, sig);
}

static bool alive(pid_t pid) {
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* Waits (up to 10 s) for a process that is not ours to end. */
static bool ends(pid_t pid) {
    for (int i = 0; i < 1000 && alive(pid); i++)
        usleep(10000);
    return !alive(pid);
}

/* The processes a server runs (from /proc); -1 when /proc cannot tell. */
static int runs_of(pid_t server, pid_t *pids, int max) {
    char path[128];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)server, (int)server);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, pid;
    while (n < max && fscanf(f, "%d", &pid) == 1)
        pids[n++] = pid;
    fclose(f);
    return n;
}

/* The reference: every kernel built with the tools started as processes (CULVERT_TOOL_SERVER=0
 * is read once per process: a child that has not built yet), in a cache of its own. */
static void reference(const char *dir, const char *salt) {
    char cache[256];
    cvt_tempdir(cache, sizeof cache);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("CULVERT_TOOL_SERVER", "0", 1);
        setenv("CULVERT_CACHE_DIR", cache, 1);
        int bad = 0;
        for (int i = 0; i <= SIMPLE; i++) {
            char *src = i < SIMPLE ? simple_source(i, salt) : strdup(slow);
            char *ptx = build(src, NULL, NULL), path[512];
            snprintf(path, sizeof path, "%s/ref%d.ptx", dir, i);
            FILE *f = fopen(path, "w");
            bad += !ptx || !f || fputs(ptx, f) < 0;
            if (f)
                fclose(f);
            free(ptx);
            free(src);
        }
        bad += cvc_server_pid(cvc_get_tools()->clang) != 0;
        _exit(bad);
    }
    int ws = -1;
    waitpid(pid, &ws, 0);
    CVT_CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "reference builds without servers: %d", ws);
    cvt_rmdir(cache);
}

static char *ref_ptx(const char *dir, int i) {
    char path[512];
    snprintf(path, sizeof path, "%s/ref%d.ptx", dir, i);
    return cvt_read(path);
}

static void *thread_builds(void *arg) {
    long bad = 0;
    for (int r = 0; r < PER_THREAD; r++) {
        char salt[64];
        snprintf(salt, sizeof salt, "thread %d round %d", (int)(size_t)arg, r);
        char *src = simple_source((int)(size_t)arg, salt), entry[32];
        char *ptx = build(src, NULL, NULL);
        snprintf(entry, sizeof entry, ".entry k%d(", (int)(size_t)arg);
        bad += !ptx || !strstr(ptx, entry);
        free(ptx);
        free(src);
    }
    return (void *)bad;
}

/* The slow kernel after slow_text (a comment: another source for each use). */
static const char *slow_text = "";
static char *slow_source(void) {
    char *s = malloc(strlen(slow_text) + strlen(slow) + 1);
    return strcat(strcpy(s, slow_text), slow);
}

/* A run started through a server, finished on another thread (its input given there). */
typedef struct stopped_run {
    cvc_child child;
    const char *text;
    int status;
} stopped_run;

static void *finish_stopped_run(void *arg) {
    stopped_run *r = arg;
    r->status = cvc_child_finish(&r->child, r->text, strlen(r->text), NULL);
    return NULL;
}

static void *slow_build(void *arg) {
    char **result = arg;
    double t0 = now();
    cl_int err;
    char *text = slow_source();
    *result = build(text, &err, NULL);
    free(text);
    fprintf(stderr, "note: the slow build took %.0f ms (%d)\n", (now() - t0) * 1e3, err);
    return NULL;
}

/* A code generator straight: its PTX for a module is llc's; a module LLVM rejects gets no PTX
 * (llc then runs, for its words) and leaves the generator serving. */
static void check_codegen(const char *llc) {
    static const char *ir = "target triple = \"nvptx64-nvidia-cuda\"\n"
                            "define void @f(ptr addrspace(1) %p, i32 %v) {\n"
                            "  store i32 %v, ptr addrspace(1) %p\n"
                            "  ret void\n"
                            "}\n";
    char dir[256], path[512], out_path[512];
    cvt_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/f.ll", dir);
    snprintf(out_path, sizeof out_path, "%s/f.ptx", dir);
    FILE *f = fopen(path, "w");
    fputs(ir, f);
    fclose(f);
    for (int opt = 0; opt <= 3; opt += 3) {
        char o[8];
        snprintf(o, sizeof o, "-O%d", opt);
        char *argv[] = {(char *)llc, o, "-mcpu=sm_90", "-mattr=+ptx78", "-o", out_path, path, NULL};
        CVT_CHECK(cvc_run(argv, NULL) == 0, "llc %s", o);
        char *want = cvt_read(out_path);
        size_t len = 0;
        char *got = cvc_codegen(llc, ir, strlen(ir), 90, 78, opt, &len);
        CVT_CHECK(want && got && len == strlen(want) && !strcmp(want, got),
                  "llc %s and a code generator: the same PTX\n%s\n---\n%s", o,
                  want ? want : "(none)", got ? got : "(none)");
        free(want);
        free(got);
    }
    size_t len = 0;
    static const char *bad = "define void @g() {\n  ret i32 0\n}\n";
    char *none = cvc_codegen(llc, bad, strlen(bad), 90, 78, 3, &len);
    CVT_CHECK(none == NULL, "a module LLVM rejects gets no PTX");
    free(none);
    char *again = cvc_codegen(llc, ir, strlen(ir), 90, 78, 3, &len);
    CVT_CHECK(again && strstr(again, ".visible .func f("), "the generator serves on: %s",
              again ? again : "(none)");
    free(again);
    unlink(path);
    unlink(out_path);
    rmdir(dir);
}

/* Run again with an unusable server library: a build works, with no server. */
static int without_servers(void) {
    char *text = simple_source(1, "no server library"), *out = build(text, NULL, NULL);
    return !out || cvc_server_pid(cvc_get_tools()->clang) != 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--without-servers"))
        return without_servers();
    cvt_require_compiler();
    char cache[256], tmp[256];
    cvt_private_cache(cache, sizeof cache);
    cvt_tempdir(tmp, sizeof tmp);
    char salt[64];
    snprintf(salt, sizeof salt, "salt %d %ld", (int)getpid(), (long)time(NULL));
    reference(tmp, salt);
    const char *clang = cvc_get_tools()->clang, *llc = cvc_get_tools()->llc;

    /* Through the servers: the same PTX; one clang server and one llc server for all. */
    for (int i = 0; i < SIMPLE; i++) {
        char *src = simple_source(i, salt), *ptx = build(src, NULL, NULL), *ref = ref_ptx(tmp, i);
        CVT_CHECK(ptx && ref && !strcmp(ptx, ref), "kernel %d: the PTX of a build without servers",
                  i);
        free(src);
        free(ptx);
        free(ref);
    }
    pid_t clang_server = cvc_server_pid(clang), llc_server = cvc_server_pid(llc);
    CVT_CHECK(clang_server > 0 && alive(clang_server), "a clang server is up");
    CVT_CHECK(llc_server > 0 && alive(llc_server), "an llc server is up");
    for (int i = 0; i < 12; i++) {
        char more[160];
        snprintf(more, sizeof more, "%s more %d", salt, i);
        char *src = simple_source(i, more), *ptx = build(src, NULL, NULL);
        CVT_CHECK(ptx != NULL, "build %d", i);
        free(src);
        free(ptx);
    }
    CVT_CHECK(cvc_server_pid(clang) == clang_server, "the same clang server for every build");

    /* Neither the servers nor their runs are our children: wait() never meets them. */
    errno = 0;
    CVT_CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
              "no child process of ours (errno %d)", errno);

    /* A server killed between builds (a stage of it waits for the next build): the next build
     * succeeds on a new server. */
    signal_one(clang_server, SIGKILL);
    CVT_CHECK(ends(clang_server), "the killed server ended");
    char *src = simple_source(0, "after the kill"), *ptx = build(src, NULL, NULL);
    CVT_CHECK(ptx && strstr(ptx, ".entry k0("), "a build after the server was killed");
    free(src);
    free(ptx);
    pid_t second = cvc_server_pid(clang);
    CVT_CHECK(second > 0 && second != clang_server, "a new clang server (%d)", (int)second);

    /* Killed in the middle of a build: the runs go on without it (a run whose outputs are files
     * tells its status itself; another is judged by its output), and the build succeeds with
     * the PTX of the reference. */
    char *slow_ref = ref_ptx(tmp, SIMPLE), *slow_ptx = NULL;
    pthread_t t;
    pthread_create(&t, NULL, slow_build, &slow_ptx);
    usleep(150000);
    signal_one(cvc_server_pid(clang), SIGKILL);
    signal_one(cvc_server_pid(llc), SIGKILL);
    pthread_join(t, NULL);
    CVT_CHECK(slow_ptx && slow_ref && !strcmp(slow_ptx, slow_ref),
              "the build during which its servers were killed");
    free(slow_ptx);

    /* A run whose outputs are files tells its end itself, before its process's teardown: it
     * ends while its server is stopped (whose reply would come only once it goes on). The run
     * waits for its input until the server is stopped. */
    char bc[512];
    snprintf(bc, sizeof bc, "%s/stopped.bc", tmp);
    char *run_argv[] = {(char *)clang, "-x",
                        "cl",          "-cl-std=CL1.2",
                        "-target",     "nvptx64-nvidia-nvcl",
                        "-c",          "-emit-llvm",
                        "-o",          bc,
                        "-",           NULL};
    stopped_run sr = {.text = "kernel void stopped(global int *p) { p[0] = 7; }"};
    CVT_CHECK(cvc_child_start(run_argv, true, &sr.child, NULL) && sr.child.remote,
              "a run through the clang server");
    pid_t stopped_clang = cvc_server_pid(clang);
    usleep(300000); /* the server has forked the run */
    signal_one(stopped_clang, SIGSTOP);
    pthread_create(&t, NULL, finish_stopped_run, &sr);
    struct timespec limit;
    clock_gettime(CLOCK_REALTIME, &limit);
    limit.tv_sec += 60;
    bool ended = pthread_timedjoin_np(t, NULL, &limit) == 0;
    CVT_CHECK(ended, "a run ends while its server is stopped");
    signal_one(stopped_clang, SIGCONT);
    if (!ended)
        pthread_join(t, NULL);
    CVT_CHECK(sr.status == 0 && access(bc, R_OK) == 0, "the run succeeded: %d", sr.status);

    /* Killed with a run asked for but not started (the server stopped, then killed): the run
     * never happens, and the build is done again on a new server. */
    src = simple_source(1, "before the stop");
    free(build(src, NULL, NULL)); /* the servers up again */
    free(src);
    cvc_spares_stop(); /* no stage waits: the build asks for its runs now */
    pid_t stopped = cvc_server_pid(clang);
    CVT_CHECK(alive(stopped), "a clang server");
    signal_one(stopped, SIGSTOP);
    char *never_ptx = NULL;
    slow_text = "/* a run never started */\n";
    unsigned long lost = cvc_children_lost();
    pthread_create(&t, NULL, slow_build, &never_ptx);
    usleep(200000);
    signal_one(stopped, SIGKILL);
    pthread_join(t, NULL);
    CVT_CHECK(never_ptx && slow_ref && !strcmp(never_ptx, slow_ref),
              "the build whose run never started");
    CVT_CHECK(cvc_children_lost() > lost, "that run was lost");
    CVT_CHECK(cvc_server_pid(clang) != stopped && cvc_server_pid(clang) > 0, "a new server");
    free(never_ptx);
    src = simple_source(1, "after the second kill");
    ptx = build(src, NULL, NULL);
    CVT_CHECK(ptx && strstr(ptx, ".entry k1("), "a build after the servers were killed mid-build");
    free(src);
    free(ptx);

    /* A run killed (clang crashing): the build's log says so, or the build is done again; the
     * next one works. */
    pid_t runs[16];
    if (runs_of(cvc_server_pid(clang), runs, 16) >= 0) {
        char *log = NULL, *slow_again = NULL;
        slow_text = "/* again */\n";
        pthread_create(&t, NULL, slow_build, &slow_again);
        usleep(150000);
        int n = runs_of(cvc_server_pid(clang), runs, 16);
        for (int i = 0; i < n; i++)
            signal_one(runs[i], SIGKILL);
        pthread_join(t, NULL);
        if (!slow_again) {
            cl_int err;
            free(build(slow_source(), &err, &log));
            CVT_CHECK(err == CL_SUCCESS, "the slow build again: %s", log);
        }
        free(log);
        free(slow_again);
        src = simple_source(2, "after a run was killed");
        ptx = build(src, NULL, NULL);
        CVT_CHECK(ptx != NULL, "a build after a run was killed");
        free(src);
        free(ptx);
    }
    free(slow_ref);

    /* Code generators (cvc_codegen.c) did llc's work; killed, the next build runs llc and
     * gets the same PTX. */
    CVT_CHECK(cvc_codegen_works(), "code generators work");
    pid_t generators[16];
    int n_gen = runs_of(cvc_server_pid(llc), generators, 16);
    for (int i = 0; i < n_gen; i++)
        signal_one(generators[i], SIGKILL);
    usleep(100000);
    src = simple_source(0, salt);
    free(build(src, NULL, NULL)); /* cached */
    free(src);
    src = simple_source(0, "after the generators were killed");
    ptx = build(src, NULL, NULL);
    CVT_CHECK(ptx && strstr(ptx, ".entry k0("), "a build after its code generators were killed");
    free(src);
    free(ptx);
    check_codegen(llc);

    /* Builds from several threads at once. */
    pthread_t threads[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, thread_builds, (void *)i);
    for (size_t i = 0; i < THREADS; i++) {
        void *bad;
        pthread_join(threads[i], &bad);
        CVT_CHECK(bad == NULL, "thread %zu: %ld builds failed", i, (long)(size_t)bad);
    }

    /* Several processes forked from this one, building at once: each its own servers. */
    pid_t parent_server = cvc_server_pid(clang), kids[PROCESSES];
    for (int p = 0; p < PROCESSES; p++) {
        kids[p] = fork();
        if (kids[p] == 0) {
            int bad = 0;
            for (int i = 0; i < PER_PROCESS; i++) {
                char s[160];
                snprintf(s, sizeof s, "%s process %d build %d", salt, p, i);
                char *text = simple_source(i, s), *out = build(text, NULL, NULL);
                bad += !out;
                free(text);
                free(out);
            }
            pid_t mine = cvc_server_pid(clang);
            bad += !(mine > 0 && mine != parent_server);
            _exit(bad);
        }
    }
    for (int p = 0; p < PROCESSES; p++) {
        int ws = -1;
        waitpid(kids[p], &ws, 0);
        CVT_CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "process %d: %d", p, ws);
    }
    src = simple_source(3, "after the processes");
    ptx = build(src, NULL, NULL);
    CVT_CHECK(ptx != NULL && cvc_server_pid(clang) == parent_server,
              "our server serves on after the forks");
    free(src);
    free(ptx);

    /* Letting the servers go ends them, even while a forked child (which got copies of
     * everything) lives on. */
    pid_t sleeper = fork();
    if (sleeper == 0) {
        sleep(30);
        _exit(0);
    }
    cvc_unload();
    cvc_servers_stop();
    CVT_CHECK(ends(parent_server), "the clang server ends when let go");
    signal_one(sleeper, SIGKILL);
    waitpid(sleeper, NULL, 0);
    src = simple_source(0, "after the servers were let go");
    ptx = build(src, NULL, NULL);
    CVT_CHECK(ptx != NULL && cvc_server_pid(clang) > 0, "a build starts them again");
    free(src);
    free(ptx);

    /* The library preloaded into a tool that is not asked to serve: the tool as itself. */
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "LD_PRELOAD='%s' '%s' --version >/dev/null", CV_TOOL_SERVER, llc);
    CVT_CHECK(system(cmd) == 0, "llc --version with the library preloaded");

    /* An unusable library (read once per process: this program run again): no servers, the
     * builds work. */
    pid_t plain = fork();
    if (plain == 0) {
        setenv("CULVERT_TOOL_SERVER", "/nonexistent/tool-server.so", 1);
        execl("/proc/self/exe", "compiler_server", "--without-servers", (char *)NULL);
        _exit(127);
    }
    int ws = -1;
    waitpid(plain, &ws, 0);
    CVT_CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "builds without a usable library: %d", ws);

    cvc_unload();
    cvc_servers_stop();
    cvt_rmdir(tmp);
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
