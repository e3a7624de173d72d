/* cv-bench: the CPU rows (CPU time of the process while one thread, or eight, wait on 100 ms
 * kernels), and the threads that wait for the rows that measure how soon a blocked thread
 * returns. Every backend shares cv-bench's process, and each driver keeps threads of its own, so
 * the CPU rows are measured in a child: cv-bench runs itself again (/proc/self/exe) with
 * --cpu-probe raw or
 * --cpu-probe-icd LIB, and the child opens that one backend alone (an OpenCL platform through its
 * ICD library only). The child prints the figure on stdout and the CPU time of each of its
 * threads on stderr. */
#include "bench.h"

#include <CL/cl_icd.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

double bench_cpu_us(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* utime + stime of each thread of the process, in clock ticks (/proc/self/task/TID/stat). */
typedef struct thread_cpu {
    int tid;
    char comm[32];
    unsigned long long ticks;
} thread_cpu;

enum { MAX_THREADS = 512 };

static int thread_snapshot(thread_cpu *t) {
    DIR *dir = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; dir && n < MAX_THREADS && (e = readdir(dir));) {
        char path[64], line[512];
        snprintf(path, sizeof(path), "/proc/self/task/%.16s/stat", e->d_name);
        FILE *f = e->d_name[0] == '.' ? NULL : fopen(path, "r");
        if (!f)
            continue;
        char *open = fgets(line, sizeof(line), f) ? strchr(line, '(') : NULL;
        char *close = open ? strrchr(open, ')') : NULL; /* comm may hold ')' */
        unsigned long long ut = 0, st = 0;
        fclose(f);
        /* After "(comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt
         * cmajflt utime stime. */
        if (!close || sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
                             &ut, &st) != 2)
            continue;
        t[n].tid = atoi(e->d_name);
        snprintf(t[n].comm, sizeof(t[n].comm), "%.*s", (int)(close - open - 1), open + 1);
        t[n++].ticks = ut + st;
    }
    if (dir)
        closedir(dir);
    return n;
}

/* The process's CPU time over the wait, then the threads that used CPU, on one stderr line. */
static void thread_report(double cpu_us, double wall_us, const thread_cpu *before, int nb,
                          const thread_cpu *after, int na) {
    double ms_per_tick = 1000.0 / (double)sysconf(_SC_CLK_TCK);
    int idle = 0;
    fprintf(stderr,
            "cv-bench: %.1f ms CPU in %.1f ms of wait; by thread (ticks of %.0f ms):", cpu_us / 1e3,
            wall_us / 1e3, ms_per_tick);
    for (int i = 0; i < na; i++) {
        unsigned long long was = 0;
        for (int j = 0; j < nb; j++)
            if (before[j].tid == after[i].tid)
                was = before[j].ticks;
        if (after[i].ticks == was) {
            idle++;
            continue;
        }
        fprintf(stderr, " %s[%d%s] %.0f ms,", after[i].comm, after[i].tid,
                after[i].tid == getpid() ? ", main" : "",
                (double)(after[i].ticks - was) * ms_per_tick);
    }
    fprintf(stderr, " %d thread(s) idle\n", idle);
}

struct bench_waiter {
    int (*fn)(void *arg);
    void *arg;
    int failed;
    double end;
    pthread_t thread;
};

static void *bench_waiter_main(void *arg) {
    bench_waiter *w = arg;
    w->failed = w->fn(w->arg);
    w->end = bench_now_us();
    return NULL;
}

bench_waiter *bench_waiter_start(int (*fn)(void *arg), void *arg) {
    bench_waiter *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->fn = fn;
    w->arg = arg;
    if (pthread_create(&w->thread, NULL, bench_waiter_main, w)) {
        free(w);
        w = NULL;
    }
    return w;
}

double bench_waiter_join(bench_waiter *w) {
    if (!w)
        return NAN;
    pthread_join(w->thread, NULL);
    double end = w->failed ? NAN : w->end;
    free(w);
    return end;
}

/* One lane's wait, on a thread of its own. */
typedef struct lane_wait {
    const bench_spinner *s;
    int lane;
} lane_wait;

static int lane_wait_main(void *arg) {
    lane_wait *l = arg;
    return l->s->wait(l->s->ctx, l->lane);
}

double bench_cpu_during_wait(const bench_spinner *s) {
    static thread_cpu before[MAX_THREADS], after[MAX_THREADS];
    int lanes = s->lanes < 1 ? 1 : s->lanes > BENCH_LANES ? BENCH_LANES : s->lanes;
    for (int i = 0; i < lanes; i++) /* warm-up: 1 ms */
        if (s->start(s->ctx, i, 1000000) || s->wait(s->ctx, i))
            return NAN;
    for (int i = 0; i < lanes; i++)
        if (s->start(s->ctx, i, 100000000))
            return NAN;
    int nb = thread_snapshot(before);
    double c0 = bench_cpu_us(), t0 = bench_now_us();
    bool failed = false;
    if (lanes == 1) {
        failed = s->wait(s->ctx, 0) != 0;
    } else {
        lane_wait l[BENCH_LANES];
        bench_waiter *w[BENCH_LANES];
        for (int i = 0; i < lanes; i++) {
            l[i] = (lane_wait){s, i};
            w[i] = bench_waiter_start(lane_wait_main, &l[i]);
        }
        for (int i = 0; i < lanes; i++)
            failed |= isnan(bench_waiter_join(w[i]));
    }
    double c1 = bench_cpu_us(), t1 = bench_now_us();
    if (failed)
        return NAN;
    thread_report(c1 - c0, t1 - t0, before, nb, after, thread_snapshot(after));
    return 100.0 * (c1 - c0) / (t1 - t0);
}

bool cpu_probe_icd(cl_platform_id platform, char *path, size_t size) {
    /* The first member of a platform is its ICD dispatch table, which lies in the driver. */
    const struct _cl_icd_dispatch *d = *(const struct _cl_icd_dispatch *const *)platform;
    Dl_info info, self;
    /* A function of the loader's own (a layer's or a wrapper's table) says nothing. */
    if (!d || !d->clGetPlatformInfo || !dladdr((void *)d->clGetPlatformInfo, &info) ||
        !info.dli_fname || !dladdr((void *)clGetPlatformIDs, &self) ||
        !strcmp(info.dli_fname, self.dli_fname ? self.dli_fname : ""))
        return false;
    snprintf(path, size, "%s", info.dli_fname);
    return true;
}

/* The child running now (the hang guard kills it). */
static pid_t probe_pid = -1;
static int probe_fd = -1;

bool cpu_probe_kill(void) {
    bool running = probe_pid > 0;
    if (running) {
        kill(probe_pid, SIGKILL);
        waitpid(probe_pid, NULL, 0);
    }
    if (probe_fd >= 0)
        close(probe_fd);
    probe_pid = -1;
    probe_fd = -1;
    return running;
}

/* The environment without the loader's variables; with icd, both name that library alone:
 * ocl-icd loads just the library OCL_ICD_VENDORS names when it is neither a folder nor an .icd
 * file (it reads no OCL_ICD_FILENAMES); the Khronos loader loads OCL_ICD_FILENAMES and finds no
 * folder at OCL_ICD_VENDORS. */
static char **probe_env(const char *icd) {
    static const char *const vars[] = {"OCL_ICD_VENDORS=", "OCL_ICD_FILENAMES="};
    static char ours[2][PATH_MAX + 32];
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 3, sizeof(char *));
    for (size_t i = 0; i < n; i++)
        if (!icd || (strncmp(environ[i], vars[0], strlen(vars[0])) &&
                     strncmp(environ[i], vars[1], strlen(vars[1]))))
            env[k++] = environ[i];
    for (int v = 0; icd && v < 2; v++) {
        snprintf(ours[v], sizeof(ours[v]), "%s%s", vars[v], icd);
        env[k++] = ours[v];
    }
    return env;
}

double cpu_probe_run(const char *icd, bool raw_blocking, int f, bool *spawned) {
    int fds[2];
    *spawned = false;
    if (pipe2(fds, O_CLOEXEC))
        return NAN;
    char figure[16];
    snprintf(figure, sizeof figure, "%d", f);
    char *argv[] = {"cv-bench",
                    icd ? "--cpu-probe-icd" : "--cpu-probe",
                    icd            ? (char *)icd
                    : raw_blocking ? "raw-blocking"
                                   : "raw",
                    "--probe-figure",
                    figure,
                    NULL};
    char **env = probe_env(icd);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    /* posix_spawn: fork + exec without copying the address space (CUDA is initialised here). */
    int e = posix_spawn(&probe_pid, "/proc/self/exe", &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    free(env);
    if (e) {
        probe_pid = -1;
        close(fds[0]);
        fprintf(stderr, "cv-bench: cannot run /proc/self/exe (%s): CPU row measured in-process\n",
                strerror(e));
        return NAN;
    }
    *spawned = true;
    probe_fd = fds[0];
    char buf[128];
    size_t got = 0;
    while (got < sizeof(buf) - 1) {
        ssize_t k = read(probe_fd, buf + got, sizeof(buf) - 1 - got);
        if (k > 0)
            got += (size_t)k;
        else if (k == 0 || errno != EINTR)
            break;
    }
    buf[got] = '\0';
    int status = 0;
    waitpid(probe_pid, &status, 0);
    probe_pid = -1;
    cpu_probe_kill(); /* closes the pipe */
    char *end = buf;
    double v = strtod(buf, &end);
    if (end == buf || !WIFEXITED(status) || WEXITSTATUS(status))
        fprintf(stderr, "cv-bench: CPU probe %s: %s, status 0x%x\n", icd ? icd : "raw",
                end == buf ? "no figure" : "figure kept", status);
    return end == buf ? NAN : v;
}

int cpu_probe_main(const char *icd, bool raw_blocking, int f) {
    char err[256] = "no platform";
    prctl(PR_SET_NAME, "cv-bench"); /* not "exe", from /proc/self/exe */
    double v = NAN;
    bool opened = false;
    if (!icd) {
        raw_backend *r = raw_open(raw_blocking, err, sizeof(err));
        if ((opened = r != NULL))
            v = raw_figure(r, f);
    } else {
        cl_platform_id plats[8];
        cl_uint n = 0;
        if (clGetPlatformIDs(8, plats, &n) != CL_SUCCESS)
            n = 0;
        for (cl_uint p = 0; p < n && p < 8 && !opened; p++) {
            /* Only the platform of that library (the loader may know others). */
            char lib[4096];
            if (!cpu_probe_icd(plats[p], lib, sizeof lib) || strcmp(lib, icd) != 0)
                continue;
            if (f == F_BUILD_FIRST) { /* before clb_open, which builds the bench kernels */
                opened = true;
                v = clb_first_build_ms(plats[p]);
                continue;
            }
            cl_backend *b = clb_open(plats[p], err, sizeof(err));
            if ((opened = b != NULL))
                v = clb_figure(b, f);
        }
    }
    if (!opened) {
        fprintf(stderr, "cv-bench: CPU probe %s: %s\n", icd ? icd : "raw", err);
        return 1;
    }
    printf("%.6g\n", v);
    return 0;
}
