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
 * A gate is known closed until an event recorded right behind it completes. The events come
 * from a small pool, per CUDA context. */
#include "cuda/cu_gates.h"
#include "cuda/cu_driver.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

typedef struct cvcu_gate {
    CUevent passed; /* recorded behind the gate */
    CUcontext ctx;
    struct cvcu_gate *next;
} cvcu_gate;

static pthread_mutex_t cvcu_gates_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cvcu_gates_quiet_over = PTHREAD_COND_INITIALIZER;
static cvcu_gate *cvcu_gates_closed_list; /* enqueued, not yet seen passed */
static cvcu_gate *cvcu_gates_spare;       /* passed: their events are reused */
static bool cvcu_gates_quiet;             /* a device-wide call runs */

/* A spare gate of the current context (its event reused) or a new one; under the lock. */
static cvcu_gate *cvcu_gate_get(CUcontext ctx) {
    for (cvcu_gate **p = &cvcu_gates_spare; *p; p = &(*p)->next)
        if ((*p)->ctx == ctx) {
            cvcu_gate *g = *p;
            *p = g->next;
            return g;
        }
    cvcu_gate *g = calloc(1, sizeof *g);
    if (g && cvcu.cuEventCreate(&g->passed, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
        free(g);
        g = NULL;
    }
    if (g)
        g->ctx = ctx;
    return g;
}

cl_int cvcu_gate_enqueue(CUstream s, CUdeviceptr address, cuuint64_t value, unsigned flags) {
    CUcontext ctx = NULL;
    cvcu.cuCtxGetCurrent(&ctx);
    pthread_mutex_lock(&cvcu_gates_lock);
    while (cvcu_gates_quiet)
        pthread_cond_wait(&cvcu_gates_quiet_over, &cvcu_gates_lock);
    cl_int err = CVCU_CALL(cvcu.cuStreamWaitValue64(s, address, value, flags), CL_OUT_OF_RESOURCES);
    cvcu_gate *g = err == CL_SUCCESS ? cvcu_gate_get(ctx) : NULL;
    if (g && cvcu.cuEventRecord(g->passed, s) == CUDA_SUCCESS) {
        g->next = cvcu_gates_closed_list;
        cvcu_gates_closed_list = g;
    } else if (g) {
        g->next = cvcu_gates_spare;
        cvcu_gates_spare = g;
    }
    /* Without its event the gate cannot be watched: the frees then cannot know it is closed.
     * That risk (a deadlock only if a free coincides) beats failing the command. */
    pthread_mutex_unlock(&cvcu_gates_lock);
    return err;
}

/* Drops the gates whose event completed (or failed: the stream is dead, nothing waits); under
 * the lock. */
static void cvcu_gates_prune(void) {
    CUcontext cur = NULL, caller = NULL;
    cvcu.cuCtxGetCurrent(&cur);
    caller = cur;
    for (cvcu_gate **p = &cvcu_gates_closed_list; *p;) {
        cvcu_gate *g = *p;
        if (g->ctx && g->ctx != cur && cvcu.cuCtxSetCurrent(g->ctx) == CUDA_SUCCESS)
            cur = g->ctx;
        if (cvcu.cuEventQuery(g->passed) != CUDA_ERROR_NOT_READY) {
            *p = g->next;
            g->next = cvcu_gates_spare;
            cvcu_gates_spare = g;
        } else {
            p = &g->next;
        }
    }
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
