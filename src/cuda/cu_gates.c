/* Why this exists: measured on the H100 (driver 580), cuMemFree, cuMemFreeHost,
 * cuMemHostUnregister and cuModuleUnload (of a module that ran kernels) wait until every stream
 * of the device has drained, and while they wait they hold a lock of the driver that every
 * other driver call of the process needs (cuModuleLoadData waits the same way: a build while a
 * gate is closed returns once it opens). A stream
 * held by a gate (a user event's or a host value's cuStreamWaitValue64) drains only when the
 * application opens it, and the application's thread is then stuck in its next driver call
 * (a copy, a launch): a deadlock, whichever thread did the free. So the frees (the reaper in
 * cu_memory.c) wait until no gate is closed, and a gate is not enqueued while a free runs.
 *
 * A gate is closed while the host sees its condition unmet in the slot's host memory: no driver
 * call on the enqueue path and nothing recorded behind the gate on the GPU. Once seen met, a
 * gate is dropped: the GPU passes it without the application. A condition met and then unmet
 * again before the GPU read it (possible only for host values with EQ, AND or NOR, or a GEQ that
 * goes back; never for user events, whose flag is set once) holds the stream until the
 * application meets it again: the application's hang anyway. The other way round, met and unmet
 * again before the host looked, the GPU may have passed a gate that looks closed: such a gate
 * is also dropped once its stream is idle (a query, only where the frees ask), when its slot
 * goes back to the pool, or when culvert stops using its stream. */
#include "cuda/cu_gates.h"
#include "cuda/cu_driver.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

typedef struct cvcu_gate {
    _Atomic uint64_t *host; /* the slot's host view */
    uint64_t value;
    cvcu_wait_condition cond;
    CUstream stream;
    struct cvcu_gate *next;
} cvcu_gate;

static pthread_mutex_t cvcu_gates_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cvcu_gates_quiet_over = PTHREAD_COND_INITIALIZER;
static cvcu_gate *cvcu_gates_closed_list; /* enqueued, not yet seen open; one per condition */
static bool cvcu_gates_quiet;             /* a device-wide call runs */

static bool cvcu_gate_met(const cvcu_gate *g) {
    return cvcu_wait_condition_met(atomic_load_explicit(g->host, memory_order_acquire), g->value,
                                   g->cond);
}

static bool cvcu_gate_same(const cvcu_gate *a, const cvcu_gate *b) {
    return a->host == b->host && a->value == b->value && a->cond == b->cond &&
           a->stream == b->stream;
}

/* Keeps the gates for which keep() is true; under the lock. */
static void cvcu_gates_filter(bool (*keep)(const cvcu_gate *g, void *arg), void *arg) {
    for (cvcu_gate **p = &cvcu_gates_closed_list; *p;) {
        cvcu_gate *g = *p;
        if (keep(g, arg)) {
            p = &g->next;
        } else {
            *p = g->next;
            free(g);
        }
    }
}

/* Enqueue: drops the gates seen open and notes whether the new one is listed already. */
typedef struct cvcu_gate_new {
    cvcu_gate gate;
    bool listed;
} cvcu_gate_new;

static bool cvcu_gate_keep_unmet(const cvcu_gate *g, void *arg) {
    cvcu_gate_new *fresh = arg;
    bool keep = !cvcu_gate_met(g);
    fresh->listed |= keep && cvcu_gate_same(g, &fresh->gate);
    return keep;
}

cl_int cvcu_gate_enqueue(CUstream s, const cvcu_slot *slot, uint64_t value,
                         cvcu_wait_condition cond) {
    cvcu_gate_new fresh = {{slot->host, value, cond, s, NULL}, false};
    pthread_mutex_lock(&cvcu_gates_lock);
    while (cvcu_gates_quiet)
        pthread_cond_wait(&cvcu_gates_quiet_over, &cvcu_gates_lock);
    cl_int err =
        CVCU_CALL(cvcu.cuStreamWaitValue64(s, (CUdeviceptr)slot->device, value, (unsigned)cond),
                  CL_OUT_OF_RESOURCES);
    /* Gates waiting for the same condition on one stream are one entry: the list stays as short
     * as the conditions not yet met. */
    if (err == CL_SUCCESS)
        cvcu_gates_filter(cvcu_gate_keep_unmet, &fresh);
    cvcu_gate *g = err == CL_SUCCESS && !fresh.listed && !cvcu_gate_met(&fresh.gate)
                       ? malloc(sizeof *g)
                       : NULL;
    /* Without memory the gate cannot be watched: the frees then cannot know it is closed. That
     * risk (a deadlock only if a free coincides) beats failing the command. */
    if (g) {
        *g = fresh.gate;
        g->next = cvcu_gates_closed_list;
        cvcu_gates_closed_list = g;
    }
    pthread_mutex_unlock(&cvcu_gates_lock);
    return err;
}

typedef struct cvcu_gate_key {
    const _Atomic uint64_t *host;
    CUstream stream;
} cvcu_gate_key;

static bool cvcu_gate_keep_other(const cvcu_gate *g, void *arg) {
    const cvcu_gate_key *key = arg;
    return !(key->host && g->host == key->host) && !(key->stream && g->stream == key->stream);
}

static void cvcu_gates_forget(cvcu_gate_key key) {
    pthread_mutex_lock(&cvcu_gates_lock);
    cvcu_gates_filter(cvcu_gate_keep_other, &key);
    pthread_mutex_unlock(&cvcu_gates_lock);
}

void cvcu_gates_forget_slot(const cvcu_slot *slot) {
    cvcu_gates_forget((cvcu_gate_key){slot->host, NULL});
}

void cvcu_gates_forget_stream(CUstream s) {
    if (s)
        cvcu_gates_forget((cvcu_gate_key){NULL, s});
}

/* The frees ask: a gate that looks closed is open after all once its stream is idle (or dead:
 * a failed stream waits for nothing). The query runs in the stream's context; *cur is the
 * context current now. */
static bool cvcu_gate_keep_closed(const cvcu_gate *g, void *arg) {
    CUcontext *cur = arg, ctx = NULL;
    if (cvcu_gate_met(g))
        return false;
    if (cvcu.cuStreamGetCtx(g->stream, &ctx) == CUDA_SUCCESS && ctx != *cur &&
        cvcu.cuCtxSetCurrent(ctx) == CUDA_SUCCESS)
        *cur = ctx;
    return cvcu.cuStreamQuery(g->stream) == CUDA_ERROR_NOT_READY;
}

/* Drops the gates now open; under the lock. */
static void cvcu_gates_prune(void) {
    CUcontext cur = NULL, caller = NULL;
    if (!cvcu_gates_closed_list)
        return;
    cvcu.cuCtxGetCurrent(&cur);
    caller = cur;
    cvcu_gates_filter(cvcu_gate_keep_closed, &cur);
    /* An application thread (an allocation that asks whether gates are closed) keeps its own. */
    if (cur != caller)
        cvcu.cuCtxSetCurrent(caller);
}

bool cvcu_gates_closed(void) {
    pthread_mutex_lock(&cvcu_gates_lock);
    cvcu_gates_prune();
    bool closed = cvcu_gates_closed_list != NULL;
    pthread_mutex_unlock(&cvcu_gates_lock);
    return closed;
}

bool cvcu_gates_quiet_begin(const _Atomic bool *stop) {
    long ns = 50000;
    for (;;) {
        pthread_mutex_lock(&cvcu_gates_lock);
        cvcu_gates_prune();
        if (!cvcu_gates_closed_list) {
            cvcu_gates_quiet = true;
            pthread_mutex_unlock(&cvcu_gates_lock);
            return true;
        }
        pthread_mutex_unlock(&cvcu_gates_lock);
        if (stop && atomic_load(stop))
            return false;
        /* A gate may stay closed for long: back off to 5 ms between looks. */
        nanosleep(&(struct timespec){0, ns}, NULL);
        ns = ns < 5000000 ? ns * 2 : ns;
    }
}

void cvcu_gates_quiet_end(void) {
    pthread_mutex_lock(&cvcu_gates_lock);
    cvcu_gates_quiet = false;
    pthread_cond_broadcast(&cvcu_gates_quiet_over);
    pthread_mutex_unlock(&cvcu_gates_lock);
}
