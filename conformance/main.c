/* cv-conformance: runs the sections against one OpenCL platform chosen by name.
 *   cv-conformance [--platform NAME-substring] [--section S[,S...]] [--case SUBSTRING] [--list]
 * The platform defaults to $CV_CONFORMANCE_PLATFORM, else the first platform.
 * Every section runs in a child process (the parent never calls OpenCL, so forking is safe); each
 * case gets a fresh context and queue and an alarm. A case that hangs or crashes kills only its
 * child: the parent records it as failed and starts a new child at the next case.
 * Exit: 0 all passed, 1 a failure, 77 the platform or its device is missing. */
#include "ct.h"
#include "thread_stacks.h"

#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

static const ct_section *const sections[] = {
    &ct_platform_section,   &ct_device_section,
    &ct_context_section,    &ct_queue_section,
    &ct_buffer_section,     &ct_program_section,
    &ct_kernel_section,     &ct_enqueue_section,
    &ct_event_section,      &ct_profiling_section,
    &ct_extensions_section, &ct_host_value_section,
    &ct_atomics_section,    &ct_subgroup_ext_section,
    &ct_work_group_section, &ct_generic_address_space_section,
    &ct_builtins_section,   &ct_svm_section,
    &ct_image_section,
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* Real gaps of other implementations, keyed by platform name: a failure of one of these cases
 * there counts as skipped ("known gap"), with the reason; docs/known-issues.md explains each. */
typedef struct known_gap {
    const char *platform; /* substring of the platform name */
    const char *section;
    const char *name;
    const char *reason;
} known_gap;

static const known_gap known_gaps[] = {
#include "known_gaps.inc"
    {NULL, NULL, NULL, NULL},
};

static const known_gap *find_gap(const char *platform, const char *section, const char *name) {
    for (size_t i = 0; i < sizeof(known_gaps) / sizeof(known_gaps[0]); i++) {
        const known_gap *g = &known_gaps[i];
        if (g->platform && strstr(platform, g->platform) && !strcmp(section, g->section) &&
            !strcmp(name, g->name))
            return g;
    }
    return NULL;
}

typedef struct options {
    const char *platform;
    const char *sections;
    const char *case_filter;
    bool list;
    unsigned timeout_s;
} options;

static bool section_selected(const options *o, const char *name) {
    if (!o->sections)
        return true;
    size_t n = strlen(name);
    for (const char *s = o->sections; *s;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len == n && !strncmp(s, name, n))
            return true;
        s += len + (end ? 1 : 0);
    }
    return false;
}

static bool case_selected(const options *o, const char *name) {
    return !o->case_filter || strstr(name, o->case_filter);
}

/* Child side: find the platform and its first device. Returns 0, or 77 when absent. */
static int open_platform(const options *o, ct_env *e, char *name, size_t name_size) {
    cl_uint n = 0;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) {
        fprintf(stderr, "cv-conformance: no OpenCL platform\n");
        return 77;
    }
    cl_platform_id *ids = calloc(n, sizeof(*ids));
    clGetPlatformIDs(n, ids, NULL);
    int rc = 77;
    for (cl_uint i = 0; i < n && rc; i++) {
        char pname[256] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(pname), pname, NULL);
        if (o->platform && *o->platform && !strstr(pname, o->platform))
            continue;
        e->platform = ids[i];
        snprintf(name, name_size, "%s", pname);
        rc = 0;
    }
    free(ids);
    if (rc) {
        fprintf(stderr, "cv-conformance: no platform named like \"%s\"\n", o->platform);
        return 77;
    }
    cl_uint nd = 0;
    if (clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, 1, &e->device, &nd) != CL_SUCCESS ||
        nd == 0) {
        fprintf(stderr, "cv-conformance: platform \"%s\" has no device\n", name);
        return 77;
    }
    e->platform_name = name;
    return 0;
}

static void send_line(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send_line(int fd, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (len > (int)sizeof(buf) - 1)
        len = (int)sizeof(buf) - 1;
    if (write(fd, buf, (size_t)len) < 0)
        _exit(3);
}

static bool make_fixture(ct_env *e) {
    cl_int err = CL_SUCCESS;
    e->ctx = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
    if (!e->ctx) {
        ct_fail(__FILE__, __LINE__, "fixture: clCreateContext returned %s", ct_err_name(err));
        return false;
    }
    e->q = clCreateCommandQueueWithProperties(e->ctx, e->device, NULL, &err);
    if (!e->q) {
        ct_fail(__FILE__, __LINE__, "fixture: clCreateCommandQueueWithProperties returned %s",
                ct_err_name(err));
        return false;
    }
    return true;
}

static void drop_fixture(ct_env *e) {
    if (e->q) {
        clFinish(e->q);
        clReleaseCommandQueue(e->q);
    }
    if (e->ctx)
        clReleaseContext(e->ctx);
    e->q = NULL;
    e->ctx = NULL;
}

/* A case ran past its time: where it was stuck goes to stderr (the implementation's hidden
 * functions show as library offsets, for addr2line), then the alarm ends the child as before. */
/* A case ran past its time: where every thread was stuck goes to stderr, then the alarm ends
 * the child as before. */
static void on_timeout(int sig) {
    static const char head[] = "timed out; the case's thread first:\n";
    if (write(2, head, sizeof head - 1) > 0)
        cv_stacks_dump_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Child: runs the selected cases of one section from index first on, reporting on fd. */
static int run_section_child(const options *o, const ct_section *s, size_t first, int fd) {
    ct_env e = {0};
    char name[256];
    int rc = open_platform(o, &e, name, sizeof(name));
    if (rc)
        return rc;
    cv_stacks_install(SIGUSR2);
    signal(SIGALRM, on_timeout);
    ct_report_fd = fd;
    for (size_t i = first; i < s->count; i++) {
        if (!case_selected(o, s->cases[i].name))
            continue;
        send_line(fd, "B %zu\n", i);
        ct_checks = 0;
        ct_failures = 0;
        ct_skip_reason = NULL;
        alarm(o->timeout_s);
        if (make_fixture(&e))
            s->cases[i].fn(&e);
        drop_fixture(&e);
        alarm(0);
        char status = ct_failures ? 'F' : ct_skip_reason ? 'S' : 'P';
        send_line(fd, "R %zu %c %d %s\n", i, status, ct_checks,
                  ct_skip_reason && !ct_failures ? ct_skip_reason : "");
    }
    return 0;
}

typedef struct counts {
    int passed, failed, skipped, checks;
} counts;

/* Parent: runs one section, restarting a child after a case that hung or crashed. */
static int run_section(const options *o, const ct_section *s, const char *platform, counts *total) {
    counts c = {0};
    size_t next = 0;
    int probe_rc = 0;
    printf("== %s\n", s->name);
    fflush(stdout);
    while (next < s->count) {
        int fds[2];
        if (pipe(fds)) {
            perror("pipe");
            return 1;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            _exit(run_section_child(o, s, next, fds[1]));
        }
        close(fds[1]);
        FILE *in = fdopen(fds[0], "r");
        char line[8192];
        long running = -1;
        size_t last_done = next;
        bool any = false;
        while (fgets(line, sizeof(line), in)) {
            size_t idx = 0;
            char st = 0;
            int checks = 0;
            if (line[0] == 'M') {
                for (char *c = line; *c; c++)
                    if (*c == '\x01')
                        *c = '\n';
                fputs(line + 2, stdout);
                continue;
            }
            if (sscanf(line, "B %zu", &idx) == 1 && line[0] == 'B') {
                running = (long)idx;
                continue;
            }
            if (sscanf(line, "R %zu %c %d", &idx, &st, &checks) != 3)
                continue;
            any = true;
            running = -1;
            last_done = idx + 1;
            char *reason = line;
            for (int field = 0; field < 4 && reason; field++) {
                reason = strchr(reason, ' ');
                if (reason)
                    reason++;
            }
            if (reason)
                reason[strcspn(reason, "\n")] = 0;
            const char *cname = s->cases[idx].name;
            c.checks += checks;
            const known_gap *gap = find_gap(platform, s->name, cname);
            if (st == 'P') {
                c.passed++;
                printf("  PASS %s (%d checks)%s\n", cname, checks,
                       gap ? "  [listed as a known gap: it passes now]" : "");
            } else if (st == 'S') {
                c.skipped++;
                printf("  SKIP %s: %s\n", cname, reason && *reason ? reason : "");
            } else if (gap) {
                c.skipped++;
                printf("  SKIP %s: known gap of this platform: %s\n", cname, gap->reason);
            } else {
                c.failed++;
                printf("  FAIL %s (%d checks)\n", cname, checks);
            }
            fflush(stdout);
        }
        fclose(in);
        int status = 0;
        waitpid(pid, &status, 0);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (!any && running < 0 && code == 77) {
            probe_rc = 77;
            break;
        }
        if (running >= 0) {
            const char *cname = s->cases[running].name;
            const char *why = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? "timed out"
                              : WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
                                                    : "exited";
            const known_gap *gap = find_gap(platform, s->name, cname);
            if (gap) {
                c.skipped++;
                printf("  SKIP %s: %s; known gap of this platform: %s\n", cname, why, gap->reason);
            } else {
                c.failed++;
                printf("  FAIL %s: %s\n", cname, why);
            }
            next = (size_t)running + 1;
            continue;
        }
        if (code != 0) {
            c.failed++;
            printf("  FAIL (section child exited with status %d)\n", code);
        }
        (void)last_done;
        break;
    }
    printf("-- %s: %d passed, %d failed, %d skipped (%d checks)\n", s->name, c.passed, c.failed,
           c.skipped, c.checks);
    total->passed += c.passed;
    total->failed += c.failed;
    total->skipped += c.skipped;
    total->checks += c.checks;
    return probe_rc;
}

static int probe(const options *o, char *name, size_t size) {
    int fds[2];
    if (pipe(fds))
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        ct_env e = {0};
        char pname[256];
        int rc = open_platform(o, &e, pname, sizeof(pname));
        if (rc == 0) {
            char *dev = ct_dev_str(e.device, CL_DEVICE_NAME);
            char *ver = ct_plat_str(e.platform, CL_PLATFORM_VERSION);
            send_line(fds[1], "%s\n%s\n%s\n", pname, dev, ver);
            free(dev);
            free(ver);
        }
        _exit(rc);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    char dev[256] = "", ver[256] = "";
    if (!fgets(name, (int)size, in))
        name[0] = 0;
    if (!fgets(dev, sizeof(dev), in))
        dev[0] = 0;
    if (!fgets(ver, sizeof(ver), in))
        ver[0] = 0;
    fclose(in);
    name[strcspn(name, "\n")] = 0;
    int status = 0;
    waitpid(pid, &status, 0);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (rc == 0)
        printf("platform: %s\nplatform version: %sdevice: %s", name, ver, dev);
    return rc;
}

static void usage(void) {
    fprintf(stderr, "usage: cv-conformance [--platform NAME-substring] [--section S[,S...]] "
                    "[--case SUBSTRING] [--timeout SECONDS] [--list]\n");
}

int main(int argc, char **argv) {
    options o = {getenv("CV_CONFORMANCE_PLATFORM"), NULL, NULL, false, 30};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--list")) {
            o.list = true;
        } else if (!strcmp(a, "--platform") && v) {
            o.platform = v;
            i++;
        } else if (!strcmp(a, "--section") && v) {
            o.sections = v;
            i++;
        } else if (!strcmp(a, "--case") && v) {
            o.case_filter = v;
            i++;
        } else if (!strcmp(a, "--timeout") && v) {
            o.timeout_s = (unsigned)atoi(v);
            i++;
        } else {
            usage();
            return 2;
        }
    }
    if (o.list) {
        for (size_t s = 0; s < NSECTIONS; s++) {
            if (!section_selected(&o, sections[s]->name))
                continue;
            printf("%s\n", sections[s]->name);
            for (size_t c = 0; c < sections[s]->count; c++)
                if (case_selected(&o, sections[s]->cases[c].name))
                    printf("  %s\n", sections[s]->cases[c].name);
        }
        return 0;
    }
    /* CV_CONFORMANCE_INPROCESS=1: run in this process, no fork (for debuggers); a crash or a
     * hang then ends the run. */
    if (getenv("CV_CONFORMANCE_INPROCESS")) {
        for (size_t s = 0; s < NSECTIONS; s++)
            if (section_selected(&o, sections[s]->name))
                run_section_child(&o, sections[s], 0, STDOUT_FILENO);
        return 0;
    }
    char platform[256];
    int rc = probe(&o, platform, sizeof(platform));
    if (rc) {
        printf("0 passed, 0 failed, 0 skipped (platform or device not found)\n");
        return rc == 77 ? 77 : 1;
    }
    counts total = {0};
    for (size_t s = 0; s < NSECTIONS; s++) {
        if (section_selected(&o, sections[s]->name))
            run_section(&o, sections[s], platform, &total);
    }
    printf("%d checks\n", total.checks);
    printf("%d passed, %d failed, %d skipped\n", total.passed, total.failed, total.skipped);
    return total.failed ? 1 : 0;
}
