/* Code generation without an llc process per module: code generators (server/codegen.c),
 * long-lived runs of the llc server, each compiling one module at a time, kept in a pool.
 *
 * Why: llc's code generation of a small module takes under a millisecond; an llc run forked
 * from the loaded server still costs ~10 ms of CPU (its pages faulted in again, its set-up), a
 * third of a cold build's CPU. A generator is forked once and then compiles module after module.
 * Its PTX is llc's (the same LLVM, llc's steps: server/codegen.c). When it cannot answer with
 * PTX — no tool server, LLVM rejected the module or had a message, the generator died — the
 * caller runs llc, which gives the build its exact output and log. A generator is retired after
 * CVC_CODEGEN_USES modules (whatever LLVM keeps from one module to the next stays bounded);
 * one that never answered (an llc without LLVM's C API) turns generators off for the process. */
#include "compiler/cvc_internal.h"
#include "compiler/cvc_io.h"
#include "compiler/cvc_server_proto.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Generators at once: builds from this many threads at a time; more run llc. */
#define CVC_CODEGENS     8
#define CVC_CODEGEN_USES 1000

typedef struct cvc_generator {
    bool present, busy;
    pid_t owner; /* a forked child of the application never uses its parent's */
    unsigned uses;
    char llc[4096];
    cvc_child child;
} cvc_generator;

static pthread_mutex_t cvc_codegen_lock = PTHREAD_MUTEX_INITIALIZER;
static cvc_generator cvc_generators[CVC_CODEGENS];
static atomic_bool cvc_codegen_off, cvc_codegen_ok;
static pthread_once_t cvc_codegen_once = PTHREAD_ONCE_INIT;

static void cvc_codegen_prefork(void) {
    pthread_mutex_lock(&cvc_codegen_lock);
}
static void cvc_codegen_postfork_parent(void) {
    pthread_mutex_unlock(&cvc_codegen_lock);
}
/* The parent's generators are not the child's: their sockets are closed (so the parent's
 * letting them go ends them), and the child starts its own. */
static void cvc_codegen_postfork_child(void) {
    for (size_t i = 0; i < CVC_CODEGENS; i++) {
        cvc_generator *g = &cvc_generators[i];
        if (g->present) {
            close(g->child.input);
            close(g->child.output);
            close(g->child.conn);
        }
        g->present = false;
        g->busy = false;
    }
    /* The child's one thread is the one that forked, which holds the lock (the prefork
     * handler took it): it lets go as the parent does (initializing a held mutex again is
     * undefined). */
    pthread_mutex_unlock(&cvc_codegen_lock);
}
static void cvc_codegen_init(void) {
    pthread_atfork(cvc_codegen_prefork, cvc_codegen_postfork_parent, cvc_codegen_postfork_child);
}

/* An idle generator of llc's server, or a new one; NULL when none can be had. */
static cvc_generator *cvc_generator_take(const char *llc) {
    cvc_generator *g = NULL, *spot = NULL;
    pthread_mutex_lock(&cvc_codegen_lock);
    for (size_t i = 0; i < CVC_CODEGENS && !g; i++) {
        cvc_generator *c = &cvc_generators[i];
        if (c->present && c->owner != getpid())
            c->present = false; /* copied by fork() */
        if (c->present && !c->busy && !strcmp(c->llc, llc))
            g = c;
        else if (!c->present && !spot)
            spot = c;
    }
    if (!g && spot && strlen(llc) < sizeof spot->llc) {
        char *argv[] = {(char *)llc, "--culvert-codegen", NULL};
        if (cvc_child_start_service(argv, CVC_SERVER_CODEGEN, &spot->child)) {
            g = spot;
            g->present = true;
            g->owner = getpid();
            g->uses = 0;
            snprintf(g->llc, sizeof g->llc, "%s", llc);
        }
    }
    if (g)
        g->busy = true;
    pthread_mutex_unlock(&cvc_codegen_lock);
    return g;
}

/* Status of a generator of an llc without LLVM's C API (server/codegen.h). */
#define CVC_CODEGEN_NO_API 3

/* Back to the pool, or (used enough) let go, or (broken) waited for: one that ended because
 * its llc has no LLVM C API turns generators off. */
static void cvc_generator_give(cvc_generator *g, bool broken) {
    bool retire = broken || ++g->uses >= CVC_CODEGEN_USES;
    if (broken) {
        /* Its input ended: a generator still there ends too, and says how. */
        if (cvc_child_finish(&g->child, NULL, 0, NULL) == CVC_CODEGEN_NO_API)
            atomic_store(&cvc_codegen_off, true);
    } else if (retire) {
        cvc_child_cancel(&g->child); /* its socket closed: the server ends it */
    }
    pthread_mutex_lock(&cvc_codegen_lock);
    g->busy = false;
    if (retire)
        g->present = false;
    pthread_mutex_unlock(&cvc_codegen_lock);
}

static bool cvc_send_all(int fd, const void *p, size_t n) {
    return cvc_io_full(fd, (void *)p, n, true);
}

static bool cvc_recv_all(int fd, void *p, size_t n) {
    return cvc_io_full(fd, p, n, false);
}

char *cvc_codegen(const char *llc, const char *ir, size_t ir_len, int sm, int ptx, int opt,
                  size_t *len) {
    pthread_once(&cvc_codegen_once, cvc_codegen_init);
    if (atomic_load(&cvc_codegen_off) || ir_len > CVC_CODEGEN_MAX_IR)
        return NULL;
    cvc_generator *g = cvc_generator_take(llc);
    if (!g)
        return NULL;
    char cpu[32], features[32] = "";
    snprintf(cpu, sizeof cpu, "sm_%d", sm);
    if (ptx)
        snprintf(features, sizeof features, "+ptx%d", ptx);
    cvc_codegen_request h = {CVC_SERVER_MAGIC, (uint32_t)opt, (uint32_t)strlen(cpu),
                             (uint32_t)strlen(features), ir_len};
    int fd = g->child.input;
    cvc_codegen_reply r = {0, 0, 0};
    bool talked = cvc_send_all(fd, &h, sizeof h) && cvc_send_all(fd, cpu, h.cpu_len) &&
                  cvc_send_all(fd, features, h.features_len) && cvc_send_all(fd, ir, ir_len) &&
                  cvc_recv_all(fd, &r, sizeof r) && r.magic == CVC_SERVER_MAGIC &&
                  r.len <= CVC_CODEGEN_MAX_IR;
    char *out = talked ? malloc(r.len + 1) : NULL;
    talked = out && cvc_recv_all(fd, out, r.len);
    cvc_generator_give(g, !talked);
    if (!talked || r.status != 0) {
        free(out);
        return NULL;
    }
    atomic_store(&cvc_codegen_ok, true);
    out[r.len] = 0;
    *len = r.len;
    return out;
}

bool cvc_codegen_works(void) {
    return atomic_load(&cvc_codegen_ok) && !atomic_load(&cvc_codegen_off);
}

void cvc_codegen_stop(void) {
    pthread_once(&cvc_codegen_once, cvc_codegen_init);
    for (size_t i = 0; i < CVC_CODEGENS; i++) {
        cvc_generator *g = &cvc_generators[i];
        pthread_mutex_lock(&cvc_codegen_lock);
        bool idle = g->present && !g->busy && g->owner == getpid();
        if (idle)
            g->busy = true;
        pthread_mutex_unlock(&cvc_codegen_lock);
        if (idle) {
            g->uses = CVC_CODEGEN_USES; /* retired as it is given back */
            cvc_generator_give(g, true);
        }
    }
}
