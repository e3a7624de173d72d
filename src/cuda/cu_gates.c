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
 * is also dropped once its stream is idle (a query, where the frees ask and for watched gates,
 * below), when its slot goes back to the pool, or when culvert stops using its stream.
 *
 * The list of closed gates is also the deadlock aid of cl_culvert_host_value: a wait that
 * nothing ever signals blocks its queue for good, and with it clFinish, so the application just
 * hangs. When logging is on, the gates of host-value waits (those enqueued with a watch) are
 * watched by a background thread, which exists only while there are some: it logs a warning once
 * one has stayed closed for CULVERT_HOST_VALUE_WARN_MS (default 5000 ms), naming the queue, the
 * host value, the condition and the value the slot holds, and logs the end of the wait once the
 * gate is dropped. */
#include "cuda/cu_gates.h"
#include "cuda/cu_driver.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define CVCU_WATCH_DEFAULT_MS 5000

typedef struct cvcu_gate {
    _Atomic uint64_t *host; /* the slot's host view */
    uint64_t value;
    cvcu_wait_condition cond;
    CUstream stream;
    cvcu_wait_watch watch; /* watched gates: who waits */
    uint64_t since_ns;     /* watched gates: when enqueued; 0: not watched */
    bool warned;
    struct cvcu_gate *next;
} cvcu_gate;

static pthread_mutex_t cvcu_gates_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cvcu_gates_quiet_over = PTHREAD_COND_INITIALIZER;
static cvcu_gate *cvcu_gates_closed_list; /* enqueued, not yet seen open; one per condition */
static bool cvcu_gates_quiet;             /* a device-wide call runs */
static unsigned cvcu_gates_watched;       /* watched gates in the list */
static bool cvcu_watch_running;           /* the watching thread runs */

static pthread_once_t cvcu_watch_once = PTHREAD_ONCE_INIT;
static uint64_t cvcu_watch_warn_ns; /* 0: off */

static void cvcu_watch_init(void) {
    unsigned long long ms = CVCU_WATCH_DEFAULT_MS;
    const char *v = getenv("CULVERT_HOST_VALUE_WARN_MS");
    if (v && *v) {
        char *end = NULL;
        unsigned long long n = strtoull(v, &end, 10);
        if (*end == '\0')
            ms = n;
        else
            cvu_log(CVU_LOG_ERROR, "CULVERT_HOST_VALUE_WARN_MS=%s is not a number of milliseconds",
                    v);
    }
    cvcu_watch_warn_ns = (uint64_t)ms * 1000000u;
}

static const char *cvcu_condition_name(cvcu_wait_condition c) {
    static const char *const names[] = {"GEQ", "EQ", "AND", "NOR"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

/* A watched gate that stayed closed this long: warned about once. */
static void cvcu_watch_warn(cvcu_gate *g, uint64_t now) {
    if (g->warned || now - g->since_ns < cvcu_watch_warn_ns)
        return;
    g->warned = true;
    cvu_log(CVU_LOG_ERROR,
            "warning: queue %p has waited %.1f s for host value %p (%s %llu; it holds %llu): "
            "clFinish and waits for this queue's later commands block until clSignalHostValue "
            "or clEnqueueWriteHostValue meets the condition",
            g->watch.queue, (double)(now - g->since_ns) / 1e9, g->watch.host_value,
            cvcu_condition_name(g->cond), (unsigned long long)g->value,
            (unsigned long long)atomic_load_explicit(g->host, memory_order_acquire));
}

/* A gate leaves the list: the end of a wait that was warned about is logged too. */
static void cvcu_gate_drop(cvcu_gate *g) {
    if (g->warned)
        cvu_log(CVU_LOG_ERROR, "host value %p: the wait on queue %p is over after %.1f s",
                g->watch.host_value, g->watch.queue,
                (double)(cvu_host_time_ns() - g->since_ns) / 1e9);
    cvcu_gates_watched -= g->since_ns != 0;
    free(g);
}

static bool cvcu_gate_met(const cvcu_gate *g) {
    return cvcu_wait_condition_met(atomic_load_explicit(g->host, memory_order_acquire), g->value,
                                   g->cond);
}

static bool cvcu_gate_same(const cvcu_gate *a, const cvcu_gate *b) {
    return a->host == b->host && a->value == b->value && a->cond == b->cond &&
           a->stream == b->stream;
}

/* Keeps the gates for which keep() is true; under the lock. */
static void cvcu_gates_filter(bool (*keep)(cvcu_gate *g, void *arg), void *arg) {
    for (cvcu_gate **p = &cvcu_gates_closed_list; *p;) {
        cvcu_gate *g = *p;
        if (keep(g, arg)) {
            p = &g->next;
        } else {
            *p = g->next;
            cvcu_gate_drop(g);
        }
    }
}

/* A gate that looks closed is open after all once its stream is idle (or dead: a failed stream
 * waits for nothing). The query runs in the stream's context; *cur is the context current now. */
static bool cvcu_gate_keep_closed(cvcu_gate *g, void *arg) {
    CUcontext *cur = arg, ctx = NULL;
    if (cvcu_gate_met(g))
        return false;
    if (cvcu.cuStreamGetCtx(g->stream, &ctx) == CUDA_SUCCESS && ctx != *cur &&
        cvcu.cuCtxSetCurrent(ctx) == CUDA_SUCCESS)
        *cur = ctx;
    return cvcu.cuStreamQuery(g->stream) == CUDA_ERROR_NOT_READY;
}

/* The watching thread's pass: watched gates seen open are dropped, the others warned about once
 * they have stayed closed long enough; unwatched gates are left to the enqueues and the frees. */
typedef struct cvcu_watch_pass {
    CUcontext cur;
    uint64_t now;
} cvcu_watch_pass;

static bool cvcu_gate_keep_watching(cvcu_gate *g, void *arg) {
    cvcu_watch_pass *pass = arg;
    bool keep = g->since_ns == 0 || cvcu_gate_keep_closed(g, &pass->cur);
    if (keep && g->since_ns != 0)
        cvcu_watch_warn(g, pass->now);
    return keep;
}

static void *cvcu_watch_main(void *arg) {
    (void)arg;
    uint64_t period_ns = cvcu_watch_warn_ns / 4;
    if (period_ns > 250000000u)
        period_ns = 250000000u;
    if (period_ns < 1000000u)
        period_ns = 1000000u;
    pthread_mutex_lock(&cvcu_gates_lock);
    while (cvcu_gates_watched > 0) {
        cvcu_watch_pass pass = {NULL, cvu_host_time_ns()};
        cvcu_gates_filter(cvcu_gate_keep_watching, &pass);
        pthread_mutex_unlock(&cvcu_gates_lock);
        nanosleep(&(struct timespec){.tv_sec = (time_t)(period_ns / 1000000000u),
                                     .tv_nsec = (long)(period_ns % 1000000000u)},
                  NULL);
        pthread_mutex_lock(&cvcu_gates_lock);
    }
    cvcu_watch_running = false;
    pthread_mutex_unlock(&cvcu_gates_lock);
    return NULL;
}

/* A new watched gate, under the lock: the thread starts when the first one comes. */
static void cvcu_watch_add(cvcu_gate *g) {
    cvcu_gates_watched++;
    if (cvcu_watch_running)
        return;
    cvcu_watch_running = cvu_thread_start(cvcu_watch_main, NULL);
    if (!cvcu_watch_running) {
        cvu_log(CVU_LOG_ERROR, "host value waits are not watched: cannot start a thread");
        cvcu_gates_watched--;
        g->since_ns = 0;
    }
}

/* Enqueue: drops the gates seen open and notes whether the new one is listed already. */
typedef struct cvcu_gate_new {
    cvcu_gate gate;
    bool listed;
} cvcu_gate_new;

static bool cvcu_gate_keep_unmet(cvcu_gate *g, void *arg) {
    cvcu_gate_new *fresh = arg;
    bool keep = !cvcu_gate_met(g);
    fresh->listed |= keep && cvcu_gate_same(g, &fresh->gate);
    return keep;
}

/* A gate of the call, ready to be listed; watched (since_ns set) only with logging on: otherwise
 * this costs one load and a branch. */
static cvcu_gate_new cvcu_gate_prepare(CUstream s, const cvcu_gate_spec *spec, const void *queue) {
    cvcu_gate_new fresh = {
        {.host = spec->slot->host, .value = spec->value, .cond = spec->cond, .stream = s}, false};
    if (spec->watch && cvu_log_threshold >= CVU_LOG_ERROR) {
        pthread_once(&cvcu_watch_once, cvcu_watch_init);
        if (cvcu_watch_warn_ns) {
            fresh.gate.watch = (cvcu_wait_watch){queue, spec->watch};
            fresh.gate.since_ns = cvu_host_time_ns();
        }
    }
    return fresh;
}

/* Lists a gate the call closed, unless it is met already or listed (gates waiting for the same
 * condition on one stream are one entry: the list stays as short as the conditions not yet
 * met); under the lock. */
static void cvcu_gate_list(cvcu_gate_new *fresh) {
    cvcu_gates_filter(cvcu_gate_keep_unmet, fresh);
    cvcu_gate *g = !fresh->listed && !cvcu_gate_met(&fresh->gate) ? malloc(sizeof *g) : NULL;
    /* Without memory the gate cannot be watched: the frees then cannot know it is closed. That
     * risk (a deadlock only if a free coincides) beats failing the command. */
    if (g) {
        *g = fresh->gate;
        g->next = cvcu_gates_closed_list;
        cvcu_gates_closed_list = g;
        if (g->since_ns)
            cvcu_watch_add(g);
    }
}

cl_int cvcu_gates_issue(CUstream s, const cvcu_gate_spec *gates, size_t n, const void *queue,
                        CUresult (*call)(void *arg), void *arg, const char *what) {
    pthread_mutex_lock(&cvcu_gates_lock);
    while (cvcu_gates_quiet)
        pthread_cond_wait(&cvcu_gates_quiet_over, &cvcu_gates_lock);
    cl_int err = cvcu_error(call(arg), CL_OUT_OF_RESOURCES, what);
    for (size_t i = 0; err == CL_SUCCESS && i < n; i++) {
        cvcu_gate_new fresh = cvcu_gate_prepare(s, &gates[i], queue);
        cvcu_gate_list(&fresh);
    }
    pthread_mutex_unlock(&cvcu_gates_lock);
    return err;
}

typedef struct cvcu_wait_call {
    CUstream stream;
    CUdeviceptr address;
    cuuint64_t value;
    unsigned cond;
} cvcu_wait_call;

static CUresult cvcu_wait_value_call(void *arg) {
    const cvcu_wait_call *w = arg;
    return cvcu.cuStreamWaitValue64(w->stream, w->address, w->value, w->cond);
}

cl_int cvcu_stream_wait_value(cvcu_stream *s, const cvcu_slot *slot, cl_ulong value,
                              cvcu_wait_condition cond, const cvcu_wait_watch *watch) {
    cvcu_gate_spec spec = {slot, value, cond, watch ? watch->host_value : NULL};
    cvcu_wait_call w = {(CUstream)s, (CUdeviceptr)slot->device, value, (unsigned)cond};
    return cvcu_gates_issue((CUstream)s, &spec, 1, watch ? watch->queue : NULL,
                            cvcu_wait_value_call, &w, "cuStreamWaitValue64");
}

/* What is forgotten: the gates of slots in [host, host + bytes), or of a stream. */
typedef struct cvcu_gate_key {
    const char *host;
    size_t bytes;
    CUstream stream;
} cvcu_gate_key;

static bool cvcu_gate_keep_other(cvcu_gate *g, void *arg) {
    const cvcu_gate_key *key = arg;
    const char *at = (const char *)g->host;
    return !(key->host && at >= key->host && at < key->host + key->bytes) &&
           !(key->stream && g->stream == key->stream);
}

static void cvcu_gates_forget(cvcu_gate_key key) {
    pthread_mutex_lock(&cvcu_gates_lock);
    cvcu_gates_filter(cvcu_gate_keep_other, &key);
    pthread_mutex_unlock(&cvcu_gates_lock);
}

void cvcu_gates_forget_slot(const cvcu_slot *slot) {
    cvcu_gates_forget((cvcu_gate_key){(const char *)slot->host, sizeof *slot->host, NULL});
}

void cvcu_gates_forget_range(const void *host, size_t bytes) {
    cvcu_gates_forget((cvcu_gate_key){host, bytes, NULL});
}

void cvcu_gates_forget_stream(CUstream s) {
    if (s)
        cvcu_gates_forget((cvcu_gate_key){NULL, 0, s});
}

/* Drops the gates now open (the frees ask); under the lock. */
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
