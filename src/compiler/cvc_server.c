/* The tool servers (server/tool_server.c): clang, llc, llvm-link, llvm-nm and llvm-spirv loaded
 * once per process and forked for each run, instead of a new process per run.
 *
 * Why: a new process of one of LLVM's tools spends more CPU loading libLLVM and libclang-cpp
 * than compiling a small program (src/compiler/README.md has the numbers); when many programs
 * are built, by one process or by many at once, that start-up is most of the work. A server is
 * the tool itself with tool-server.so preloaded: its runs are copies of an already loaded tool
 * running the tool's own main(), so their output is the tool's. Each process of the application
 * starts its own servers on first use (the application's environment, its user, its files); a
 * server is not the application's child (it leaves its parent), so the application's wait()
 * calls never meet it or its runs, and it ends when the application closes its control socket:
 * at exit, at clUnloadPlatformCompiler, or in a forked child of the application (which starts
 * its own). A server that cannot start (the library missing, a static or setuid tool,
 * CULVERT_TOOL_SERVER=0) leaves the tool to run as a new process each time; one that died is
 * started again for the next run. */
#include "compiler/cvc_internal.h"
#include "compiler/cvc_server_proto.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef CVC_TOOL_SERVER_BUILT
#define CVC_TOOL_SERVER_BUILT ""
#endif
#ifndef CVC_TOOL_SERVER_INSTALLED
#define CVC_TOOL_SERVER_INSTALLED ""
#endif

/* clang, llc, llvm-link, llvm-nm and llvm-spirv (SPIR-V input). */
#define CVC_SERVERS 5
/* Starts of one tool's server per process: one that keeps dying is given up. */
#define CVC_SERVER_STARTS 8
/* How long a new server may take to load (a loaded machine), in milliseconds. */
#define CVC_SERVER_START_MS 60000

typedef enum { CVC_SERVER_NONE, CVC_SERVER_STARTING, CVC_SERVER_UP } cvc_server_state;

typedef struct cvc_server {
    char tool[4096];
    cvc_server_state state;
    int ctl;     /* our end of the control socket */
    pid_t child; /* the process spawned, until reaped (the server itself leaves it) */
    pid_t pid;   /* the server, once up */
    unsigned starts;
    bool lazy; /* started without LD_BIND_NOW: a tool whose libraries cannot all be bound */
} cvc_server;

static pthread_mutex_t cvc_servers_lock = PTHREAD_MUTEX_INITIALIZER;
static cvc_server cvc_servers[CVC_SERVERS];
static pthread_once_t cvc_servers_once = PTHREAD_ONCE_INIT;
static char cvc_server_lib[PATH_MAX]; /* tool-server.so, "" when servers are off */

/* A forked child of the application starts its own servers: the parent's control sockets are
 * closed in it (its runs would otherwise keep them), and the lock is taken across fork() so the
 * table is whole in the child. */
static void cvc_servers_prefork(void) {
    pthread_mutex_lock(&cvc_servers_lock);
}
static void cvc_servers_postfork_parent(void) {
    pthread_mutex_unlock(&cvc_servers_lock);
}
static void cvc_servers_postfork_child(void) {
    for (size_t i = 0; i < CVC_SERVERS; i++) {
        if (cvc_servers[i].state != CVC_SERVER_NONE)
            close(cvc_servers[i].ctl);
        cvc_servers[i].state = CVC_SERVER_NONE;
        cvc_servers[i].child = 0;
    }
    /* The child's one thread is the one that forked, which holds the lock (the prefork
     * handler took it): it lets go as the parent does (initializing a held mutex again is
     * undefined). */
    pthread_mutex_unlock(&cvc_servers_lock);
}

static bool cvc_usable_lib(const char *path) {
    struct stat st;
    /* LD_PRELOAD splits its list at spaces and colons. */
    return path && *path && !strpbrk(path, ": ") && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* tool-server.so: $CULVERT_TOOL_SERVER (0/off: no servers), beside the library or program
 * culvert's compiler is in (<dir>/culvert/tool-server.so: libculvert.so's install layout and
 * build tree), the configure-time build tree, the install location. */
static void cvc_servers_init(void) {
    pthread_atfork(cvc_servers_prefork, cvc_servers_postfork_parent, cvc_servers_postfork_child);
    const char *env = getenv("CULVERT_TOOL_SERVER");
    if (env && (!strcmp(env, "0") || !strcmp(env, "off")))
        return;
    if (env && *env) {
        if (cvc_usable_lib(env))
            snprintf(cvc_server_lib, sizeof cvc_server_lib, "%s", env);
        return;
    }
    char beside[PATH_MAX + 64] = "";
    Dl_info info;
    if (dladdr((void *)cvc_servers_init, &info) && info.dli_fname) {
        char real[PATH_MAX];
        if (realpath(info.dli_fname, real)) {
            char *slash = strrchr(real, '/');
            if (slash)
                *slash = 0;
            snprintf(beside, sizeof beside, "%s/culvert/tool-server.so", real);
        }
    }
    const char *candidates[] = {beside, CVC_TOOL_SERVER_BUILT, CVC_TOOL_SERVER_INSTALLED};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (cvc_usable_lib(candidates[i]) && realpath(candidates[i], cvc_server_lib))
            return;
    cvc_server_lib[0] = 0;
}

/* The environment of a new server: the application's, the server's variables added. */
static char **cvc_server_env(int fd, bool lazy, char *owned[3]) {
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 6, sizeof *env);
    if (!env)
        return NULL;
    const char *preload = getenv("LD_PRELOAD");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) &&
            strncmp(environ[i], "CULVERT_TOOL_SERVER_", 20))
            env[k++] = environ[i];
    bool ok = asprintf(&owned[0], "LD_PRELOAD=%s%s%s", cvc_server_lib, preload ? ":" : "",
                       preload ? preload : "") > 0 &&
              asprintf(&owned[1], CVC_SERVER_ENV_FD "=%d", fd) > 0 &&
              asprintf(&owned[2], CVC_SERVER_ENV_PRELOAD "=%s", preload ? preload : "") > 0;
    if (!ok) {
        free(env);
        return NULL;
    }
    env[k++] = owned[0];
    env[k++] = owned[1];
    env[k++] = owned[2];
    /* Every symbol bound once, in the server: its runs never call the dynamic linker (lazy
     * binding would do it again in each, and copy the pages it writes). */
    if (!lazy && !getenv("LD_BIND_NOW")) {
        env[k++] = "LD_BIND_NOW=1";
        env[k++] = CVC_SERVER_ENV_BIND_NOW "=1";
    }
    return env;
}

/* Spawns the tool as a server (not waiting for it). Under the lock. */
static void cvc_server_spawn(cvc_server *s) {
    int sv[2];
    s->starts++;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        return;
    /* The server's end as descriptor 3 (4 when it is 3 already: a dup2 onto itself would keep
     * its close-on-exec flag). */
    int fd = sv[1] == 3 ? 4 : 3;
    char *owned[3] = {NULL, NULL, NULL};
    char **env = cvc_server_env(fd, s->lazy, owned);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_adddup2(&fa, sv[1], fd);
    /* Without the server library in effect the tool prints its version and exits. */
    char *argv[] = {s->tool, "--version", NULL};
    pid_t pid;
    int err = env ? posix_spawn(&pid, s->tool, &fa, NULL, argv, env) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    for (int i = 0; i < 3; i++)
        free(owned[i]);
    close(sv[1]);
    if (err != 0) {
        close(sv[0]);
        return;
    }
    s->ctl = sv[0];
    s->child = pid;
    s->state = CVC_SERVER_STARTING;
}

static void cvc_server_close(cvc_server *s) {
    if (s->state != CVC_SERVER_NONE)
        close(s->ctl);
    s->state = CVC_SERVER_NONE;
    if (s->child > 0)
        waitpid(s->child, NULL, WNOHANG);
    s->child = 0;
}

/* Waits for a starting server's first packet. Under the lock. */
static void cvc_server_wait_ready(cvc_server *s) {
    struct pollfd pf = {s->ctl, POLLIN, 0};
    cvc_server_reply r;
    int n;
    while ((n = poll(&pf, 1, CVC_SERVER_START_MS)) < 0 && errno == EINTR)
        ;
    bool ready = n == 1 && recv(s->ctl, &r, sizeof r, 0) == (ssize_t)sizeof r &&
                 r.magic == CVC_SERVER_MAGIC && r.kind == CVC_SERVER_READY;
    /* The process spawned leaves the server running and exits: reaped here (unless the
     * application ignores SIGCHLD, which reaps it). One that did not get that far is stopped. */
    if (s->child > 0) {
        if (!ready)
            kill(s->child, SIGKILL);
        while (waitpid(s->child, NULL, 0) < 0 && errno == EINTR)
            ;
        s->child = 0;
    }
    if (ready) {
        s->state = CVC_SERVER_UP;
        s->pid = r.value;
    } else {
        cvc_server_close(s);
        /* Once more without LD_BIND_NOW (a symbol of its libraries nothing defines); after
         * that it cannot serve: the tool runs as a process. */
        if (s->lazy)
            s->starts = CVC_SERVER_STARTS;
        s->lazy = true;
    }
}

/* The entry for tool (a free one taken), or NULL when all are taken. Under the lock. */
static cvc_server *cvc_server_entry(const char *tool) {
    cvc_server *free_slot = NULL;
    for (size_t i = 0; i < CVC_SERVERS; i++) {
        if (cvc_servers[i].tool[0] && !strcmp(cvc_servers[i].tool, tool))
            return &cvc_servers[i];
        if (!cvc_servers[i].tool[0] && !free_slot)
            free_slot = &cvc_servers[i];
    }
    if (free_slot && strlen(tool) < sizeof free_slot->tool)
        snprintf(free_slot->tool, sizeof free_slot->tool, "%s", tool);
    else
        free_slot = NULL;
    return free_slot;
}

/* The server of tool, started if need be (and when it may be). Under the lock. */
static cvc_server *cvc_server_get(const char *tool, bool wait) {
    cvc_server *s = cvc_server_entry(tool);
    if (!s)
        return NULL;
    /* A start that failed with LD_BIND_NOW is tried again without it at once. */
    for (int attempt = 0; attempt < 2; attempt++) {
        if (s->state == CVC_SERVER_NONE && s->starts < CVC_SERVER_STARTS)
            cvc_server_spawn(s);
        if (wait && s->state == CVC_SERVER_STARTING)
            cvc_server_wait_ready(s);
        if (!wait || s->state != CVC_SERVER_NONE)
            break;
    }
    return s;
}

void cvc_servers_prepare(const char *const tools[], size_t n) {
    pthread_once(&cvc_servers_once, cvc_servers_init);
    if (!cvc_server_lib[0])
        return;
    pthread_mutex_lock(&cvc_servers_lock);
    for (size_t i = 0; i < n; i++)
        cvc_server_get(tools[i], false);
    pthread_mutex_unlock(&cvc_servers_lock);
}

/* One run's packet: the working directory and the arguments. NULL when too large. */
static char *cvc_server_packet(char *const argv[], unsigned flags, size_t *len) {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    cvc_server_request h = {CVC_SERVER_MAGIC, 0, flags};
    size_t n = sizeof h + strlen(cwd) + 1;
    for (char *const *a = argv; *a; a++, h.argc++) {
        n += strlen(*a) + 1;
        /* Every output a file: nothing left in buffers the libraries' destructors flush. */
        if (!strcmp(*a, "-o") && a[1] && strcmp(a[1], "-"))
            h.flags |= CVC_SERVER_QUICK_EXIT;
    }
    if (n > CVC_SERVER_MAX_PACKET - 1)
        return NULL;
    char *p = malloc(n), *w = p;
    if (!p)
        return NULL;
    memcpy(w, &h, sizeof h);
    w += sizeof h;
    w = stpcpy(w, cwd) + 1;
    for (char *const *a = argv; *a; a++)
        w = stpcpy(w, *a) + 1;
    *len = n;
    return p;
}

/* 0, or the errno of the failed send. */
static int cvc_server_send(int ctl, const char *packet, size_t len, const int fds[3]) {
    union {
        char space[CMSG_SPACE(3 * sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)packet, len};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.space,
                         .msg_controllen = sizeof control.space};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(3 * sizeof(int));
    memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
    ssize_t n;
    while ((n = sendmsg(ctl, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    return n == (ssize_t)len ? 0 : n < 0 ? errno : EMSGSIZE;
}

bool cvc_server_run(char *const argv[], unsigned flags, int in, int out, int *conn) {
    pthread_once(&cvc_servers_once, cvc_servers_init);
    if (!cvc_server_lib[0])
        return false;
    size_t len = 0;
    char *packet = cvc_server_packet(argv, flags, &len);
    int sv[2] = {-1, -1};
    if (!packet || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        free(packet);
        return false;
    }
    int null_in = in < 0 ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
    int fds[3] = {sv[1], in < 0 ? null_in : in, out};
    bool sent = false;
    pthread_mutex_lock(&cvc_servers_lock);
    /* A server that died since its last run fails the send: started again, once. */
    for (int attempt = 0; attempt < 2 && !sent && fds[1] >= 0; attempt++) {
        cvc_server *s = cvc_server_get(argv[0], true);
        if (!s || s->state != CVC_SERVER_UP)
            break;
        int err = cvc_server_send(s->ctl, packet, len, fds);
        sent = err == 0;
        if (err == EPIPE || err == ECONNRESET || err == ENOTCONN)
            cvc_server_close(s); /* it died: started again */
        else if (err == EBADF || err == ENOTSOCK) {
            /* The application closed the descriptor (and may use its number): not ours. */
            s->state = CVC_SERVER_NONE;
        } else if (err)
            break;
    }
    pthread_mutex_unlock(&cvc_servers_lock);
    free(packet);
    if (null_in >= 0)
        close(null_in);
    close(sv[1]);
    if (!sent) {
        close(sv[0]);
        return false;
    }
    *conn = sv[0];
    return true;
}

int cvc_server_status(int conn, int *ws) {
    cvc_server_reply r;
    ssize_t n;
    while ((n = recv(conn, &r, sizeof r, 0)) < 0 && errno == EINTR)
        ;
    if (n != (ssize_t)sizeof r || r.magic != CVC_SERVER_MAGIC)
        return -1;
    *ws = r.value;
    return r.kind == CVC_SERVER_EXITED ? 0 : r.value ? r.value : EINVAL;
}

bool cvc_server_running(int conn) {
    struct pollfd pf = {conn, POLLIN, 0};
    return poll(&pf, 1, 0) == 0;
}

void cvc_servers_stop(void) {
    pthread_mutex_lock(&cvc_servers_lock);
    for (size_t i = 0; i < CVC_SERVERS; i++) {
        cvc_server_close(&cvc_servers[i]);
        cvc_servers[i].starts = 0;
        cvc_servers[i].lazy = false;
    }
    pthread_mutex_unlock(&cvc_servers_lock);
}

int cvc_server_pid(const char *tool) {
    pid_t pid = 0;
    pthread_mutex_lock(&cvc_servers_lock);
    for (size_t i = 0; i < CVC_SERVERS; i++)
        if (cvc_servers[i].state == CVC_SERVER_UP && !strcmp(cvc_servers[i].tool, tool))
            pid = cvc_servers[i].pid;
    pthread_mutex_unlock(&cvc_servers_lock);
    return pid;
}

const char *cvc_engine(void) {
    const cvc_tools *t = cvc_get_tools();
    if (!t->found || !cvc_server_pid(t->clang))
        return "a process per tool";
    return cvc_codegen_works() ? "tool servers, code generators" : "tool servers";
}
