/* Finding clang, llc, llvm-link and libclc, and running them as child processes.
 * LLVM never enters the application's process (see README.md): an application that loads its own
 * LLVM (Mesa, numba, a JIT) cannot clash with ours. */
#include "compiler/cvc_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef CVC_DEFAULT_CLANG
#define CVC_DEFAULT_CLANG ""
#endif
#ifndef CVC_DEFAULT_LIBCLC_DIR
#define CVC_DEFAULT_LIBCLC_DIR "/usr/lib/clc"
#endif
#ifndef CVC_DEFAULT_LIBDEVICE
#define CVC_DEFAULT_LIBDEVICE ""
#endif
#ifndef CVC_LLVM_MAJOR
#define CVC_LLVM_MAJOR 16
#endif
#define CVC_STR2(x) #x
#define CVC_STR(x)  CVC_STR2(x)

/* ---- buffers ---- */

static bool cvc_buf_reserve(cvc_buf *b, size_t extra) {
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void cvc_buf_add(cvc_buf *b, const void *p, size_t n) {
    if (!cvc_buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

void cvc_buf_str(cvc_buf *b, const char *s) {
    cvc_buf_add(b, s, strlen(s));
}

void cvc_buf_printf(cvc_buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        cvc_buf_add(b, small, (size_t)n);
        return;
    }
    if (!cvc_buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void cvc_buf_truncate(cvc_buf *b, size_t len) {
    if (len < b->len) {
        b->len = len;
        b->data[len] = 0;
    }
}

char *cvc_buf_take(cvc_buf *b) {
    char *s = b->failed ? NULL : b->data;
    if (b->failed)
        free(b->data);
    else if (!s)
        s = calloc(1, 1);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
    return s;
}

/* ---- files and the temporary directory ---- */

bool cvc_write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    return ok;
}

unsigned char *cvc_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        data = malloc((size_t)st.st_size + 1);
        if (data && fread(data, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
            data[st.st_size] = 0;
            *len = (size_t)st.st_size;
        } else {
            free(data);
            data = NULL;
        }
    }
    fclose(f);
    return data;
}

bool cvc_tmp_create(cvc_tmp *t) {
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    int n = snprintf(t->dir, sizeof t->dir, "%s/culvert-cc-XXXXXX", base);
    return n > 0 && (size_t)n < sizeof t->dir && mkdtemp(t->dir) != NULL;
}

void cvc_tmp_path(const cvc_tmp *t, const char *name, char *out) {
    /* The directory name is short (TMPDIR + 18); the buffers are as large as the directory's. */
    size_t n = strnlen(t->dir, sizeof t->dir), m = strlen(name);
    if (n + 1 + m >= sizeof t->dir)
        m = n + 1 < sizeof t->dir ? sizeof t->dir - n - 2 : 0;
    memcpy(out, t->dir, n);
    out[n] = '/';
    memcpy(out + n + 1, name, m);
    out[n + 1 + m] = 0;
}

/* The directory is flat except for the headers' folders (clCompileProgram): removed
 * recursively, never following links. */
static void cvc_remove_tree(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4096];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
                cvc_remove_tree(path);
            else
                unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

void cvc_tmp_remove(cvc_tmp *t) {
    if (t->dir[0])
        cvc_remove_tree(t->dir);
    t->dir[0] = 0;
}

/* ---- child processes ---- */

/* A child: a run of the tool's server when there is one, else (unless it must be a service)
 * a process of its own. */
static bool cvc_child_begin(char *const argv[], bool input, unsigned service, cvc_child *c,
                            cvc_buf *log) {
    c->pid = 0;
    c->remote = false;
    c->conn = -1;
    c->name = argv[0];
    c->input = c->output = -1;
    int out[2], in[2] = {-1, -1};
    if (pipe2(out, O_CLOEXEC) != 0) {
        if (log)
            cvc_buf_printf(log, "culvert: cannot create a pipe: %s\n", strerror(errno));
        return false;
    }
    /* stdin is a socket, not a pipe: writing to a child that died is then EPIPE from
     * send(MSG_NOSIGNAL), never a SIGPIPE that would kill the application. */
    if (!input || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
        in[0] = in[1] = -1;
    }
    int err = 0;
    c->remote = cvc_server_run(argv, service, in[0], out[1], &c->conn);
    if (!c->remote && service)
        err = ENOSYS;
    else if (!c->remote) {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        if (in[0] >= 0)
            posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        else
            posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_adddup2(&fa, out[1], 2);
        pid_t pid;
        err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        c->pid = err == 0 ? pid : 0;
    }
    close(out[1]);
    if (in[0] >= 0)
        close(in[0]);
    if (err != 0) {
        if (log)
            cvc_buf_printf(log, "culvert: cannot run %s: %s\n", argv[0], strerror(err));
        close(out[0]);
        if (in[1] >= 0)
            close(in[1]);
        return false;
    }
    c->input = in[1];
    c->output = out[0];
    return true;
}

bool cvc_child_start(char *const argv[], bool input, cvc_child *c, cvc_buf *log) {
    return cvc_child_begin(argv, input, 0, c, log);
}

bool cvc_child_start_service(char *const argv[], unsigned flags, cvc_child *c) {
    return cvc_child_begin(argv, true, flags, c, NULL);
}

static void cvc_child_send(cvc_child *c, const void *input, size_t len) {
    const char *p = input;
    while (p && len > 0 && c->input >= 0) {
        ssize_t n = send(c->input, p, len, MSG_NOSIGNAL);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
        } else if (n < 0 && errno != EINTR) {
            break; /* the child is gone: its exit status tells */
        }
    }
    /* shutdown, not only close: a process forked from the application holds a copy of this
     * descriptor, and the child would wait for its EOF forever. */
    if (c->input >= 0) {
        shutdown(c->input, SHUT_WR);
        close(c->input);
    }
    c->input = -1;
}

static atomic_ulong cvc_lost;

unsigned long cvc_children_lost(void) {
    return atomic_load(&cvc_lost);
}

/* The wait status of a run of a tool server; false when the server stopped before telling. */
static bool cvc_remote_status(cvc_child *c, int *ws, cvc_buf *log) {
    int err = cvc_server_status(c->conn, ws);
    close(c->conn);
    c->conn = -1;
    c->remote = false;
    if (err > 0 && log)
        cvc_buf_printf(log, "culvert: cannot run %s: %s\n", c->name, strerror(err));
    if (err > 0)
        *ws = -1;
    if (err < 0)
        atomic_fetch_add(&cvc_lost, 1);
    return err >= 0;
}

/* Gives the child its input (NULL: none), then collects its output to the end. */
static void cvc_child_talk(cvc_child *c, const void *input, size_t len, cvc_buf *log) {
    cvc_child_send(c, input, len);
    char chunk[4096];
    for (;;) {
        ssize_t n = read(c->output, chunk, sizeof chunk);
        if (n > 0) {
            if (log)
                cvc_buf_add(log, chunk, (size_t)n);
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(c->output);
    c->output = -1;
}

int cvc_child_finish(cvc_child *c, const void *input, size_t len, cvc_buf *log) {
    if (!c->pid && !c->remote)
        return -1;
    cvc_child_talk(c, input, len, log);
    int ws = 0, status = -1;
    /* Without a status the callers judge by the output files the tools write only when they
     * succeed: the application ignores SIGCHLD (the child was reaped without one), or the
     * tool's server stopped (its run went on to its end: the output's end said so). */
    bool unknown = false;
    if (c->remote) {
        unknown = !cvc_remote_status(c, &ws, log);
    } else {
        while (waitpid(c->pid, &ws, 0) < 0) {
            if (errno == ECHILD) {
                unknown = true;
                break;
            }
            if (errno != EINTR) {
                ws = -1;
                break;
            }
        }
    }
    if (unknown)
        status = 0;
    else if (ws != -1 && WIFEXITED(ws))
        status = WEXITSTATUS(ws);
    else if (ws != -1 && log)
        cvc_buf_printf(log, "culvert: %s terminated abnormally\n", c->name);
    c->pid = 0;
    return status;
}

void cvc_child_cancel(cvc_child *c) {
    if (c->remote) {
        /* The server stops a run whose socket is closed; the end of its output is its end. */
        close(c->conn);
        c->conn = -1;
        c->remote = false;
        cvc_child_talk(c, NULL, 0, NULL);
        return;
    }
    if (c->pid)
        kill(c->pid, SIGKILL);
    cvc_child_finish(c, NULL, 0, NULL);
}

bool cvc_child_waiting(const cvc_child *c) {
    int ws;
    if (c->remote)
        return cvc_server_running(c->conn);
    /* With SIGCHLD ignored a dead child is reaped at once and waitpid says ECHILD: dead too. */
    return c->pid > 0 && waitpid(c->pid, &ws, WNOHANG) == 0;
}

int cvc_run(char *const argv[], cvc_buf *log) {
    cvc_child c;
    if (!cvc_child_start(argv, false, &c, log))
        return -1;
    return cvc_child_finish(&c, NULL, 0, log);
}

/* ---- discovery ---- */

static bool cvc_is_exec(const char *path) {
    struct stat st;
    return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static bool cvc_is_file(const char *path) {
    struct stat st;
    return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool cvc_set(char *dst, const char *a, const char *b) {
    char path[4096];
    int n = b ? snprintf(path, sizeof path, "%s/%s", a, b) : snprintf(path, sizeof path, "%s", a);
    if (n <= 0 || (size_t)n >= sizeof path || !cvc_is_exec(path))
        return false;
    memcpy(dst, path, (size_t)n + 1);
    return true;
}

static bool cvc_path_lookup(char *dst, const char *name) {
    const char *path = getenv("PATH");
    if (!path)
        return false;
    while (*path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char dir[4096];
        if (n > 0 && n < sizeof dir) {
            memcpy(dir, path, n);
            dir[n] = 0;
            if (cvc_set(dst, dir, name))
                return true;
        }
        path += n;
        if (*path == ':')
            path++;
    }
    return false;
}

static bool cvc_find_clang(char *dst) {
    const char *env = getenv("CULVERT_CLANG");
    if (env && *env)
        return cvc_set(dst, env, NULL);
    env = getenv("CULVERT_LLVM_BIN");
    if (env && *env &&
        (cvc_set(dst, env, "clang") || cvc_set(dst, env, "clang-" CVC_STR(CVC_LLVM_MAJOR))))
        return true;
    return cvc_path_lookup(dst, "clang-" CVC_STR(CVC_LLVM_MAJOR)) ||
           cvc_set(dst, CVC_DEFAULT_CLANG, NULL) || cvc_path_lookup(dst, "clang");
}

/* llc and llvm-link: $CULVERT_LLVM_BIN, then beside clang (the real file's directory first:
 * /usr/bin/clang-16 -> /usr/lib/llvm-16/bin), then PATH. */
static bool cvc_find_llvm_tool(char *dst, const char *clang, const char *name) {
    const char *env = getenv("CULVERT_LLVM_BIN");
    if (env && *env)
        return cvc_set(dst, env, name);
    char real[PATH_MAX];
    if (realpath(clang, real)) {
        char *slash = strrchr(real, '/');
        if (slash) {
            *slash = 0;
            if (cvc_set(dst, real, name))
                return true;
        }
    }
    char dir[4096];
    size_t len = strnlen(clang, sizeof dir - 1);
    memcpy(dir, clang, len);
    dir[len] = 0;
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        if (cvc_set(dst, dir, name))
            return true;
    }
    char versioned[64];
    snprintf(versioned, sizeof versioned, "%s-%d", name, CVC_LLVM_MAJOR);
    return cvc_path_lookup(dst, versioned) || cvc_path_lookup(dst, name);
}

static bool cvc_find_libclc(char *dst) {
    static const char *const files[] = {"nvptx64--nvidiacl.bc", "nvptx64--.bc"};
    const char *dirs[] = {getenv("CULVERT_LIBCLC_DIR"), getenv("LIBCLC_DIR"),
                          CVC_DEFAULT_LIBCLC_DIR, "/usr/lib/clc", "/usr/share/clc"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        if (cvc_is_file(dirs[i]) && strstr(dirs[i], ".bc")) { /* the file itself */
            snprintf(dst, 4096, "%s", dirs[i]);
            return true;
        }
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dirs[i], files[f]);
            if (cvc_is_file(path)) {
                memcpy(dst, path, strlen(path) + 1);
                return true;
            }
        }
        /* An environment variable that names a directory without libclc is a mistake: say
         * so rather than quietly using another copy. */
        if (i < 2)
            return false;
    }
    return false;
}

/* CUDA's libdevice: CULVERT_LIBDEVICE (a file; 0 or off: do not use it), $CUDA_PATH, the
 * configure-time default, the usual toolkit places. Optional: without it libclc's math is used. */
static void cvc_find_libdevice(char *dst) {
    const char *env = getenv("CULVERT_LIBDEVICE");
    dst[0] = 0;
    if (cvc_libdevice_bc_size == 0)
        return;
    if (env && (!strcmp(env, "0") || !strcmp(env, "off") || !*env))
        return;
    char cuda_path[4096] = "";
    const char *cp = getenv("CUDA_PATH");
    if (cp && *cp)
        snprintf(cuda_path, sizeof cuda_path, "%s/nvvm/libdevice/libdevice.10.bc", cp);
    const char *candidates[] = {env, cuda_path, CVC_DEFAULT_LIBDEVICE,
                                "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
                                "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (cvc_is_file(candidates[i])) {
            snprintf(dst, 4096, "%s", candidates[i]);
            return;
        }
}

/* Tool identity for the cache key: path, size and modification time (no process to start). */
static void cvc_ident_add(cvc_buf *b, const char *path) {
    struct stat st;
    char real[PATH_MAX];
    const char *p = realpath(path, real) ? real : path;
    if (stat(p, &st) == 0)
        cvc_buf_printf(b, "%s:%lld:%lld;", p, (long long)st.st_size, (long long)st.st_mtime);
}

/* `llc -march=nvptx64 -mcpu=help` lists the sm_XY processors and ptxNN features it knows. */
static void cvc_probe_llc(cvc_tools *t) {
    char *argv[] = {t->llc, "-march=nvptx64", "-mcpu=help", NULL};
    cvc_buf out = {0};
    cvc_run(argv, &out);
    for (const char *p = out.data; p && *p; p++) {
        if ((p == out.data || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '+') &&
            (!strncmp(p, "sm_", 3) || !strncmp(p, "ptx", 3))) {
            char *end;
            long v = strtol(p + 3, &end, 10);
            /* sm_90a and friends are architecture-specific variants: not for portable PTX. */
            if (end == p + 3 || (*end != ' ' && *end != '\n' && *end != '\t'))
                continue;
            if (p[0] == 's' && v > t->sm_max)
                t->sm_max = (int)v;
            if (p[0] == 'p' && v > t->ptx_max)
                t->ptx_max = (int)v;
        }
    }
    free(out.data);
}

static cvc_tools cvc_the_tools;
static pthread_once_t cvc_tools_once = PTHREAD_ONCE_INIT;

static void cvc_tools_find(void) {
    cvc_tools *t = &cvc_the_tools;
    const char *missing = NULL;
    if (cvc_builtins_bc_size == 0)
        missing = "builtins library (culvert was built without llvm-link)";
    else if (!cvc_find_clang(t->clang))
        missing = "clang (set CULVERT_CLANG or CULVERT_LLVM_BIN)";
    else if (!cvc_find_llvm_tool(t->llc, t->clang, "llc"))
        missing = "llc (set CULVERT_LLVM_BIN)";
    else if (!cvc_find_llvm_tool(t->llvm_link, t->clang, "llvm-link"))
        missing = "llvm-link (set CULVERT_LLVM_BIN)";
    else if (!cvc_find_libclc(t->libclc))
        missing = "libclc's nvptx64--nvidiacl.bc (set CULVERT_LIBCLC_DIR)";
    if (!missing && !cvc_find_llvm_tool(t->llvm_nm, t->clang, "llvm-nm"))
        t->llvm_nm[0] = 0;
    if (missing) {
        snprintf(t->why, sizeof t->why, "culvert: OpenCL C compiler not available: no %s\n",
                 missing);
        return;
    }
    cvc_buf id = {0};
    cvc_buf_str(&id, "culvert-cc-" CVC_STR(CVC_LLVM_MAJOR) ";");
    cvc_ident_add(&id, t->clang);
    cvc_ident_add(&id, t->llc);
    cvc_ident_add(&id, t->llvm_link);
    cvc_ident_add(&id, t->libclc);
    cvc_find_libdevice(t->libdevice);
    if (t->libdevice[0])
        cvc_ident_add(&id, t->libdevice);
    snprintf(t->ident, sizeof t->ident, "%s", id.data ? id.data : "");
    free(id.data);
    t->found = true;
}

const cvc_tools *cvc_get_tools(void) {
    pthread_once(&cvc_tools_once, cvc_tools_find);
    return &cvc_the_tools;
}

void cvc_tools_cache_path(const cvc_tools *t, const char *what, const char *extra, const char *ext,
                          char *out, size_t size) {
    char dir[4096];
    out[0] = 0;
    if (!cvc_cache_dir(dir, sizeof dir))
        return;
    cvc_hasher h;
    cvc_hash_init(&h);
    cvc_hash_str(&h, t->ident);
    if (extra)
        cvc_hash_str(&h, extra);
    cvc_hash k = cvc_hash_final(&h);
    snprintf(out, size, "%s/%s-%016llx%016llx.%s", dir, what, (unsigned long long)k.hi,
             (unsigned long long)k.lo, ext);
}

static pthread_once_t cvc_probe_once = PTHREAD_ONCE_INIT;
static void cvc_probe(void) {
    cvc_tools *t = &cvc_the_tools;
    if (!t->found)
        return;
    char path[4200];
    /* The probe's answer is kept in the cache directory, so a new process's first build starts
     * one process fewer. */
    cvc_tools_cache_path(t, "llc", NULL, "probe", path, sizeof path);
    size_t len = 0;
    char *text = path[0] ? (char *)cvc_read_file(path, &len) : NULL;
    int sm = 0, ptx = 0;
    if (text && sscanf(text, "sm %d ptx %d", &sm, &ptx) == 2 && sm > 0 && ptx > 0) {
        t->sm_max = sm;
        t->ptx_max = ptx;
    } else {
        cvc_probe_llc(t);
        if (path[0] && t->sm_max && t->ptx_max) {
            char line[64];
            int n = snprintf(line, sizeof line, "sm %d ptx %d\n", t->sm_max, t->ptx_max);
            cvc_cache_write(path, line, (size_t)n);
        }
    }
    free(text);
}

/* The llc probe costs a process start: done on the first real compilation only. */
const cvc_tools *cvc_get_probed_tools(void) {
    cvc_get_tools();
    pthread_once(&cvc_probe_once, cvc_probe);
    return &cvc_the_tools;
}

bool cvc_available(void) {
    return cvc_get_tools()->found;
}

/* llvm-spirv, for SPIR-V input: CULVERT_LLVM_SPIRV (a file), then llvm-spirv-<LLVM major> down
 * to 15 (Debian packages the translator of LLVM 15; LLVM 16 reads its bitcode) and llvm-spirv in
 * CULVERT_LLVM_BIN, on PATH and in /usr/lib/llvm-N/bin. */
static char cvc_spirv_path[4096];
static pthread_once_t cvc_spirv_once = PTHREAD_ONCE_INIT;

static void cvc_spirv_find(void) {
    const char *env = getenv("CULVERT_LLVM_SPIRV"), *bin = getenv("CULVERT_LLVM_BIN");
    char *dst = cvc_spirv_path;
    if (env && *env) {
        if (!cvc_set(dst, env, NULL))
            dst[0] = 0;
        return;
    }
    for (int v = CVC_LLVM_MAJOR; v >= 15; v--) {
        char name[32], dir[64];
        snprintf(name, sizeof name, "llvm-spirv-%d", v);
        snprintf(dir, sizeof dir, "/usr/lib/llvm-%d/bin", v);
        if ((bin && *bin && (cvc_set(dst, bin, name) || cvc_set(dst, bin, "llvm-spirv"))) ||
            cvc_path_lookup(dst, name) || cvc_set(dst, dir, "llvm-spirv"))
            return;
    }
    if (!cvc_path_lookup(dst, "llvm-spirv"))
        dst[0] = 0;
}

const char *cvc_llvm_spirv(void) {
    pthread_once(&cvc_spirv_once, cvc_spirv_find);
    return cvc_spirv_path[0] ? cvc_spirv_path : NULL;
}

/* The translator's LLVM version (`llvm-spirv --version`: "... LLVM version 15.0.6"), 0 if it
 * says none: asked only by cvc_il_max_minor (a process to start), not where availability is. */
static int cvc_spirv_major;
static pthread_once_t cvc_spirv_version_once = PTHREAD_ONCE_INIT;

static void cvc_spirv_version(void) {
    if (!cvc_llvm_spirv())
        return;
    char *argv[] = {cvc_spirv_path, "--version", NULL};
    cvc_buf out = {0};
    cvc_run(argv, &out);
    const char *v = out.data ? strstr(out.data, "LLVM version ") : NULL;
    cvc_spirv_major = v ? atoi(v + strlen("LLVM version ")) : 0;
    free(out.data);
}

bool cvc_il_available(void) {
    return cvc_available() && cvc_llvm_spirv() != NULL;
}

/* SPIR-V 1.4's instructions (OpPtrDiff, OpCopyLogical, OpDecorateString, ...) are read from the
 * translator of LLVM 16 on; LLVM 15's aborts on them. */
int cvc_il_max_minor(void) {
    if (!cvc_il_available())
        return -1;
    pthread_once(&cvc_spirv_version_once, cvc_spirv_version);
    return cvc_spirv_major >= 16 ? 4 : 3;
}
