/* clang and llc started ahead of the next source build.
 *
 * A cold build pays for two process starts (loading LLVM's shared libraries: ~22 ms for clang,
 * ~15 ms for llc on the H100 machine) before any work. clang -cc1 reads its source from stdin
 * before it opens the libraries it links (-mlink-builtin-bitcode), and llc reads its IR from
 * stdin: both can be started before the build that will use them, with every path in a directory
 * of their own. So each source build leaves one such stage waiting for the next build with the
 * same command line (the signature): an application that builds several programs with the same
 * options finds clang and llc already loaded. A waiting stage blocks in read() and costs no CPU;
 * it is stopped by clUnloadPlatformCompiler and at process exit. */
#include "compiler/cvc_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stages waiting at once: one per signature, the oldest stopped first (an application rarely
 * alternates between more option sets than this). */
#define CVC_SPARES 4

typedef struct cvc_spare {
    bool used;
    pid_t owner; /* the process that started it: a forked child never takes its parent's */
    cvc_hash sig;
    unsigned long age;
    cvc_stage stage;
} cvc_spare;

static pthread_mutex_t cvc_spares_lock = PTHREAD_MUTEX_INITIALIZER;
static cvc_spare cvc_spares[CVC_SPARES];
static unsigned long cvc_spares_clock;
static atomic_ulong cvc_spares_taken;
static pthread_once_t cvc_spares_exit_once = PTHREAD_ONCE_INIT;

/* A stage that holds nothing: stopping it does nothing. */
static const cvc_stage cvc_no_stage;

void cvc_stage_stop(cvc_stage *s) {
    cvc_child_cancel(&s->clang); /* nothing when not running */
    cvc_child_cancel(&s->llc);
    cvc_tmp_remove(&s->dir);
}

static bool cvc_same(cvc_hash a, cvc_hash b) {
    return a.hi == b.hi && a.lo == b.lo;
}

bool cvc_spare_take(cvc_hash sig, cvc_stage *s) {
    bool found = false;
    cvc_stage dead = cvc_no_stage;
    pthread_mutex_lock(&cvc_spares_lock);
    for (size_t i = 0; i < CVC_SPARES && !found; i++) {
        cvc_spare *p = &cvc_spares[i];
        if (!p->used || p->owner != getpid() || !cvc_same(p->sig, sig))
            continue;
        p->used = false;
        /* Its directory may be gone too (a cleaner of old files in /tmp, days later). */
        /* (No llc where code generators do the work, cvc_codegen.c.) */
        if (cvc_child_waiting(&p->stage.clang) &&
            (!cvc_child_started(&p->stage.llc) || cvc_child_waiting(&p->stage.llc)) &&
            access(p->stage.dir.dir, W_OK | X_OK) == 0) {
            *s = p->stage;
            found = true;
        } else {
            dead = p->stage;
        }
    }
    pthread_mutex_unlock(&cvc_spares_lock);
    cvc_stage_stop(&dead);
    if (found)
        atomic_fetch_add(&cvc_spares_taken, 1);
    return found;
}

bool cvc_spare_waiting(cvc_hash sig) {
    bool waiting = false;
    pthread_mutex_lock(&cvc_spares_lock);
    for (size_t i = 0; i < CVC_SPARES; i++)
        waiting |= cvc_spares[i].used && cvc_spares[i].owner == getpid() &&
                   cvc_same(cvc_spares[i].sig, sig);
    pthread_mutex_unlock(&cvc_spares_lock);
    return waiting;
}

static void cvc_spares_at_exit(void) {
    atexit(cvc_spares_stop);
}

void cvc_spare_keep(cvc_hash sig, cvc_stage *s) {
    pthread_once(&cvc_spares_exit_once, cvc_spares_at_exit);
    cvc_stage out = *s; /* what is stopped: s itself when one for sig already waits */
    pthread_mutex_lock(&cvc_spares_lock);
    bool duplicate = false;
    size_t slot = 0;
    for (size_t i = 0; i < CVC_SPARES; i++) {
        cvc_spare *p = &cvc_spares[i];
        if (p->used && p->owner != getpid())
            p->used = false; /* the parent's, copied by fork(): not ours to stop */
        duplicate |= p->used && cvc_same(p->sig, sig);
        /* A free slot, else the oldest. */
        cvc_spare *best = &cvc_spares[slot];
        if (best->used && (!p->used || p->age < best->age))
            slot = i;
    }
    if (!duplicate) {
        cvc_spare *p = &cvc_spares[slot];
        out = p->used ? p->stage : cvc_no_stage;
        *p = (cvc_spare){true, getpid(), sig, ++cvc_spares_clock, *s};
    }
    pthread_mutex_unlock(&cvc_spares_lock);
    cvc_stage_stop(&out);
}

void cvc_spares_stop(void) {
    for (;;) {
        cvc_stage s;
        bool found = false;
        pthread_mutex_lock(&cvc_spares_lock);
        for (size_t i = 0; i < CVC_SPARES && !found; i++)
            if (cvc_spares[i].used) {
                cvc_spares[i].used = false;
                found = cvc_spares[i].owner == getpid();
                s = cvc_spares[i].stage;
            }
        pthread_mutex_unlock(&cvc_spares_lock);
        if (!found)
            break;
        cvc_stage_stop(&s);
    }
}

unsigned long cvc_spares_used(void) {
    return atomic_load(&cvc_spares_taken);
}

void cvc_unload(void) {
    cvc_spares_stop();
    cvc_codegen_stop();
    cvc_servers_stop();
}
