/* A tool server: preloaded (LD_PRELOAD) into clang, llc, llvm-link or llvm-nm by culvert
 * (cvc_server.c), it makes the tool load once and fork a copy of itself for every run.
 *
 * Why: starting one of LLVM's tools costs more CPU than a small program's whole compilation —
 * the dynamic linker maps and relocates libLLVM and libclang-cpp (over 200 MB) and runs their
 * static constructors: ~28 ms of CPU for clang, ~20 ms for llc, where compiling a one-line kernel
 * costs clang ~10 ms and llc ~5 ms (src/compiler/README.md). A fork of a process that has done
 * all that costs about a millisecond, and the copy runs the tool's own main() from a fresh
 * state: the same program, the same output as a new process.
 *
 * How: the tool's entry point __libc_start_main is interposed. With CULVERT_TOOL_SERVER_FD in
 * its environment the tool's main() is swapped for the server loop, which the C library calls
 * after every library's constructors and the tool's own have run. The server leaves its parent
 * (so it is never the application's child: the application's wait() calls never see it, nor its
 * runs) and serves the control socket (cvc_server_proto.h): for each run it forks, the copy
 * takes the run's descriptors as stdin/stdout/stderr, enters its directory and calls the tool's
 * main() with the run's arguments; the run's wait status goes back on the run's socket, from
 * the copy itself where every output is a file (before its teardown, which unmaps the tool's
 * libraries), else from the server once it reaped the copy. It ends when the
 * control socket's other end is closed (the application ended or let it go); runs still going
 * finish on their own. Without the variable the tool runs as it always does. */
#include "compiler/cvc_server_proto.h"
#include "compiler/server/codegen.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*tool_main_fn)(int, char **, char **);
typedef int (*libc_start_fn)(tool_main_fn, int, char **, void (*)(void), void (*)(void),
                             void (*)(void), void *);

static tool_main_fn tool_main;

/* A run in progress: its process and the socket its status goes to. */
typedef struct run {
    pid_t pid;
    int conn;
    int cancelled; /* the client let it go: killed, waiting to be reaped */
} run;

static run *runs;
static size_t num_runs, cap_runs;

static void reply(int fd, int kind, int value) {
    cvc_server_reply r = {CVC_SERVER_MAGIC, kind, value};
    (void)!send(fd, &r, sizeof r, MSG_NOSIGNAL);
}

/* The copy that runs the tool: the run's descriptors become 0, 1 and 2, nothing of the server
 * stays open but the run's socket, and the tool's main() runs in the run's directory. */
static void run_tool(int ctl, int sfd, const sigset_t *mask, const int *fds, const char *cwd,
                     uint32_t flags, int argc, char **argv) {
    int conn = fds[0], in = fds[1], out = fds[2];
    sigprocmask(SIG_SETMASK, mask, NULL);
    close(ctl);
    close(sfd);
    for (size_t i = 0; i < num_runs; i++)
        close(runs[i].conn);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(127);
    if (in > 2)
        close(in);
    if (out > 2)
        close(out);
    if (chdir(cwd) != 0) {
        dprintf(2, "culvert: the tool server cannot enter %s: %s\n", cwd, strerror(errno));
        _exit(127);
    }
    if (flags & CVC_SERVER_CODEGEN) {
        close(conn);
        _exit(cvc_codegen_serve(0));
    }
    if (!(flags & CVC_SERVER_QUICK_EXIT))
        close(conn);
    int status = tool_main(argc, argv, environ);
    if (flags & CVC_SERVER_QUICK_EXIT) {
        /* The run's end is told before the process's teardown, which unmaps the tool's
         * libraries (milliseconds, more under a sandbox): its output closed, its status sent.
         * The server's own reply after the reap comes second and is not read. */
        fflush(NULL);
        close(0);
        close(1);
        close(2);
        reply(conn, CVC_SERVER_EXITED, (status & 0xff) << 8);
        _exit(status);
    }
    exit(status);
}

/* One run's packet: fork the copy that runs it, or say why not. */
static void start_run(int ctl, int sfd, const sigset_t *mask, char *buf, size_t len, int *fds,
                      int nfds) {
    int conn = nfds > 0 ? fds[0] : -1;
    bool ok = nfds == 3 && len >= sizeof(cvc_server_request);
    cvc_server_request h = {0, 0, 0};
    if (ok) {
        memcpy(&h, buf, sizeof h);
        ok = h.magic == CVC_SERVER_MAGIC && h.argc > 0 && h.argc < len;
    }
    /* The directory, then argc arguments, each 0-terminated inside the packet. */
    char **argv = ok ? calloc(h.argc + 1, sizeof *argv) : NULL;
    char *cwd = buf + sizeof h, *p = cwd, *end = buf + len;
    ok = argv != NULL;
    for (uint32_t i = 0; ok && i <= h.argc; i++) {
        char *z = memchr(p, 0, (size_t)(end - p));
        ok = z != NULL;
        if (ok && i > 0)
            argv[i - 1] = p;
        p = ok ? z + 1 : p;
    }
    if (ok && num_runs == cap_runs) {
        size_t cap = cap_runs ? 2 * cap_runs : 16;
        run *r = realloc(runs, cap * sizeof *r);
        ok = r != NULL;
        if (ok) {
            runs = r;
            cap_runs = cap;
        }
    }
    pid_t pid = ok ? fork() : -1;
    if (pid == 0)
        run_tool(ctl, sfd, mask, fds, cwd, h.flags, (int)h.argc, argv);
    for (int i = 1; i < nfds; i++)
        close(fds[i]);
    free(argv);
    if (pid > 0) {
        runs[num_runs++] = (run){pid, conn, 0};
    } else if (conn >= 0) {
        reply(conn, CVC_SERVER_FAILED, ok ? errno : EINVAL);
        close(conn);
    }
}

/* Reaps the runs that ended and sends their status. */
static void reap(void) {
    int ws;
    pid_t pid;
    while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        for (size_t i = 0; i < num_runs; i++)
            if (runs[i].pid == pid) {
                reply(runs[i].conn, CVC_SERVER_EXITED, ws);
                close(runs[i].conn);
                runs[i] = runs[--num_runs];
                break;
            }
    }
}

/* Receives one packet of the control socket; false when the other end is gone. */
static bool receive(int ctl, int sfd, const sigset_t *mask) {
    static char buf[CVC_SERVER_MAX_PACKET];
    union {
        char space[CMSG_SPACE(3 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec iov = {buf, sizeof buf - 1};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.space,
                         .msg_controllen = sizeof control.space};
    ssize_t n = recvmsg(ctl, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN;
    if (n == 0)
        return false;
    int fds[3], nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < k; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                if (nfds < 3)
                    fds[nfds++] = fd;
                else
                    close(fd);
            }
        }
    if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
        n = 0; /* refused below: the run's socket is told */
    buf[n] = 0;
    start_run(ctl, sfd, mask, buf, (size_t)n, fds, nfds);
    return true;
}

static int serve(int argc, char **argv, char **envp) {
    (void)argc;
    (void)argv;
    (void)envp;
    int ctl = atoi(getenv(CVC_SERVER_ENV_FD));
    const char *preload = getenv(CVC_SERVER_ENV_PRELOAD);
    /* The runs see the application's environment as it was. */
    if (preload && *preload)
        setenv("LD_PRELOAD", preload, 1);
    else
        unsetenv("LD_PRELOAD");
    if (getenv(CVC_SERVER_ENV_BIND_NOW))
        unsetenv("LD_BIND_NOW");
    unsetenv(CVC_SERVER_ENV_FD);
    unsetenv(CVC_SERVER_ENV_PRELOAD);
    unsetenv(CVC_SERVER_ENV_BIND_NOW);
    /* The application may ignore SIGCHLD (inherited through exec): the server needs the status
     * of its runs. */
    signal(SIGCHLD, SIG_DFL);
    sigset_t mask, chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &mask);
    int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0)
        _exit(1);
    /* Leave the parent: it reaps this process, the server goes on as an orphan. */
    pid_t pid = fork();
    if (pid != 0)
        _exit(pid > 0 ? 0 : 1);
    reply(ctl, CVC_SERVER_READY, (int)getpid());
    struct pollfd *pf = NULL;
    size_t cap = 0;
    for (;;) {
        if (cap < num_runs + 2) {
            cap = 2 * (num_runs + 2);
            struct pollfd *p = realloc(pf, cap * sizeof *p);
            if (!p)
                _exit(1);
            pf = p;
        }
        pf[0] = (struct pollfd){.fd = ctl, .events = POLLIN};
        pf[1] = (struct pollfd){.fd = sfd, .events = POLLIN};
        for (size_t i = 0; i < num_runs; i++)
            pf[2 + i] =
                (struct pollfd){.fd = runs[i].cancelled ? -1 : runs[i].conn, .events = POLLIN};
        size_t polled = num_runs;
        if (poll(pf, 2 + polled, -1) < 0) {
            if (errno == EINTR)
                continue;
            _exit(1);
        }
        /* The client closed a run's socket: it wants the run stopped. */
        for (size_t i = 0; i < polled; i++)
            if (pf[2 + i].revents && !runs[i].cancelled) {
                kill(runs[i].pid, SIGKILL);
                runs[i].cancelled = 1;
            }
        if (pf[1].revents) {
            struct signalfd_siginfo si[16];
            while (read(sfd, si, sizeof si) > 0)
                ;
            reap();
        }
        if (pf[0].revents && !receive(ctl, sfd, &mask))
            _exit(0);
    }
}

/* The C library's entry point, called by the tool's _start. */
__attribute__((visibility("default"))) int
__libc_start_main(tool_main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
                  void (*rtld_fini)(void), void *stack_end) {
    libc_start_fn real = (libc_start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
    if (!real)
        _exit(127);
    const char *fd = getenv(CVC_SERVER_ENV_FD);
    if (fd && *fd) {
        tool_main = main;
        main = serve;
    }
    return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}
