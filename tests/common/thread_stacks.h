/* Where a hung program is stuck: every thread of the process (the implementation's included)
 * prints its state from /proc and its own stack to stderr. Library functions that are not
 * exported show as offsets (addr2line -e libculvert.so names them). Used by the conformance
 * runner when a case times out and by GPU tests with a watchdog; header-only, Linux. */
#ifndef CV_TEST_THREAD_STACKS_H
#define CV_TEST_THREAD_STACKS_H

#include <dirent.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int cv_stacks_signal;

/* The handler: the receiving thread prints its own stack. */
static void cv_stacks_print_own(int sig) {
    (void)sig;
    char head[64];
    int n = snprintf(head, sizeof head, "  stack of thread %ld:\n", (long)syscall(SYS_gettid));
    void *frames[48];
    if (write(2, head, (size_t)n) > 0)
        backtrace_symbols_fd(frames, backtrace(frames, 48), 2);
}

/* Call once, early: sig (e.g. SIGUSR2) becomes "print your stack"; the unwinder is loaded now,
 * not inside a handler. */
static inline void cv_stacks_install(int sig) {
    void *warm[2];
    backtrace(warm, 2);
    cv_stacks_signal = sig;
    signal(sig, cv_stacks_print_own);
}

/* The calling thread's stack, then each other thread's name, kernel wait channel, system call
 * and stack (100 ms apart, so the outputs do not mix). */
static inline void cv_stacks_dump_all(void) {
    cv_stacks_print_own(0);
    long self = (long)syscall(SYS_gettid);
    DIR *tasks = opendir("/proc/self/task");
    for (struct dirent *d; tasks && (d = readdir(tasks)) != NULL;) {
        long tid = atol(d->d_name);
        if (tid <= 0 || tid == self)
            continue;
        fprintf(stderr, "  thread %ld:", tid);
        static const char *const files[] = {"comm", "wchan", "syscall"};
        for (int i = 0; i < 3; i++) {
            char path[96], buf[256];
            snprintf(path, sizeof path, "/proc/self/task/%ld/%s", tid, files[i]);
            FILE *f = fopen(path, "r");
            if (f && fgets(buf, sizeof buf, f))
                fprintf(stderr, " %s=%.*s", files[i], (int)strcspn(buf, "\n"), buf);
            if (f)
                fclose(f);
        }
        fprintf(stderr, "\n");
        syscall(SYS_tgkill, (long)getpid(), tid, cv_stacks_signal);
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
    }
    if (tasks)
        closedir(tasks);
}

#endif
