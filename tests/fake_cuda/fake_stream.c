/* Streams: host threads that execute, in order, copies, fills, host functions, event records,
 * event waits and 64-bit value waits/writes (events: fake_event.c). The one lock of the fake, and
 * the device-wide calls that wait until no stream is held up by a wait or a host function while
 * holding up every other thread's calls. */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t fake_L = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t fake_C = PTHREAD_COND_INITIALIZER;
static __thread bool is_stream_thread;
/* A device-wide call in progress: other threads' calls wait, the streams' threads and the
 * caller itself go on. */
static bool wide_busy;
static pthread_t wide_owner;

void fake_lock(void) {
    pthread_mutex_lock(&fake_L);
    while (wide_busy && !is_stream_thread && !pthread_equal(wide_owner, pthread_self()))
        pthread_cond_wait(&fake_C, &fake_L);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

struct CUstream_st {
    fake_op *head, *tail;
    int destroyed;
    int reset;           /* destroyed by a reset: kept (leaked) so that a stale use is caught */
    unsigned generation; /* fake_generation when created */
    pthread_t thread;
    struct CUstream_st *next; /* all live streams, for cuCtxSynchronize and device-wide calls */
};
static CUstream streams, legacy;

static int value_met(uint64_t v, uint64_t want, unsigned flags) {
    switch (flags & 3) {
    case CU_STREAM_WAIT_VALUE_GEQ:
        return (int64_t)(v - want) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ:
        return v == want;
    case CU_STREAM_WAIT_VALUE_AND:
        return (v & want) != 0;
    default: /* NOR */
        return ~(v | want) != 0;
    }
}

static void copy3d(const CUDA_MEMCPY3D *m) {
    char *d = m->dstMemoryType == CU_MEMORYTYPE_HOST ? (char *)m->dstHost : P(m->dstDevice);
    const char *s =
        m->srcMemoryType == CU_MEMORYTYPE_HOST ? (const char *)m->srcHost : P(m->srcDevice);
    for (size_t z = 0; z < m->Depth; z++)
        for (size_t y = 0; y < m->Height; y++)
            memmove(d + ((m->dstZ + z) * m->dstHeight + m->dstY + y) * m->dstPitch + m->dstXInBytes,
                    s + ((m->srcZ + z) * m->srcHeight + m->srcY + y) * m->srcPitch + m->srcXInBytes,
                    m->WidthInBytes);
}

void fake_copy_now(const fake_op *o) {
    if (o->kind == OP_COPY)
        memmove(o->dst, o->src, o->n);
    else
        copy3d(&o->m3);
}

static void fill(const fake_op *o) {
    for (size_t r = 0; r < o->h; r++)
        for (size_t i = 0; i < o->w; i++) {
            char *d = (char *)o->dst + r * o->pitch + i * o->esz;
            if (o->esz == 1)
                *(uint8_t *)d = (uint8_t)o->value;
            else if (o->esz == 2)
                *(uint16_t *)d = (uint16_t)o->value;
            else
                *(uint32_t *)d = (uint32_t)o->value;
        }
}

/* The host writes a value without telling the fake: a value wait polls (and passes at once in
 * instant mode). A reset ends it: the memory it watches may be gone with the context. */
static void wait_value(const fake_op *o) { /* under L */
    while (!fake_state.instant && !fake_sticky && o->generation == fake_generation &&
           !value_met(__atomic_load_n(o->addr, __ATOMIC_ACQUIRE), o->value, o->flags)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&fake_C, &fake_L, &ts);
    }
}

/* FAKECUDA_FAULT_COPY=n: the n-th copy the streams run faults (a copy engine's MMU fault:
 * CUDA_ERROR_LAUNCH_FAILED on the H100); 0: none. FAKECUDA_COPY_DELAY_US, FAKECUDA_LAUNCH_US:
 * copy_delay_us's and launch_us's start values. */
static unsigned long fault_copy, copies_run;
static pthread_once_t knobs_once = PTHREAD_ONCE_INIT;

static void knobs_init(void) {
    const char *f = getenv("FAKECUDA_FAULT_COPY"), *d = getenv("FAKECUDA_COPY_DELAY_US"),
               *l = getenv("FAKECUDA_LAUNCH_US");
    fault_copy = f ? strtoul(f, NULL, 10) : 0;
    if (d)
        fake_state.copy_delay_us = (unsigned)strtoul(d, NULL, 10);
    if (l)
        fake_state.launch_us = (unsigned)strtoul(l, NULL, 10);
}

/* A queued copy: waits copy_delay_us first (a busy GPU), still queued meanwhile; false when it
 * is not to run (the context faulted, or this copy is the one FAKECUDA_FAULT_COPY names). */
static bool copy_may_run(void) { /* under L, on the stream's thread */
    unsigned delay = fake_state.copy_delay_us;
    if (delay) {
        UNLOCK;
        usleep(delay);
        LOCK;
    }
    if (!fake_sticky && fault_copy && ++copies_run == fault_copy)
        fake_fault(CUDA_ERROR_LAUNCH_FAILED);
    return !fake_sticky;
}

static void execute(fake_op *o) { /* under L, on the stream's thread (or at once: instant) */
    /* A poisoned context runs nothing more (a wait in progress gives up). */
    if (fake_sticky)
        return;
    switch (o->kind) {
    case OP_RECORD:
        o->ev->t = now_ms();
        if (o->seq > o->ev->done)
            o->ev->done = o->seq;
        break;
    case OP_WAIT_EVENT:
        while (o->ev->done < o->seq && !fake_sticky && o->generation == fake_generation)
            pthread_cond_wait(&fake_C, &fake_L);
        break;
    case OP_WAIT_VALUE:
        wait_value(o);
        break;
    case OP_WRITE_VALUE:
        if (is_stream_thread && fake_state.write_value_delay_us) {
            UNLOCK;
            usleep(fake_state.write_value_delay_us);
            LOCK;
        }
        __atomic_store_n(o->addr, o->value, __ATOMIC_RELEASE);
        break;
    case OP_COPY:
    case OP_COPY3D:
        if (is_stream_thread && !copy_may_run())
            break;
        fake_copy_now(o);
        break;
    case OP_SET:
        fill(o);
        break;
    case OP_HOST:
        UNLOCK;
        o->fn(o->arg);
        LOCK;
        break;
    case OP_RUN:
        o->fn(o->arg);
        break;
    case OP_FAULT:
        fake_fault(CUDA_ERROR_ILLEGAL_ADDRESS);
        break;
    case OP_LAUNCH:
        fake_launch_record(o->launch);
        break;
    case OP_KERNEL: {
        UNLOCK;
        usleep((useconds_t)o->n);
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        fake_state.last_kernel_end_ns =
            (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
        LOCK;
        break;
    }
    }
}

/* An operation leaves its stream (run or dropped). */
static void free_op(fake_op *o) {
    free(o->launch);
    free(o);
}

static void *worker(void *arg) {
    CUstream s = arg;
    is_stream_thread = true;
    LOCK;
    for (;;) {
        while (!s->head && !s->destroyed)
            pthread_cond_wait(&fake_C, &fake_L);
        if (!s->head)
            break;
        fake_op *o = s->head;
        /* The op stays at the head while it runs: the stream is busy. One queued before a reset
         * (a destroyed stream's, or the head the reset kept) does not run on the gone context. */
        if (o->generation == fake_generation)
            execute(o);
        s->head = o->next;
        if (!s->head)
            s->tail = NULL;
        free_op(o);
        pthread_cond_broadcast(&fake_C);
    }
    /* A destroyed stream stays listed until its work is done: a context-wide wait waits for it. */
    bool keep = s->reset;
    if (!keep)
        for (CUstream *p = &streams; *p; p = &(*p)->next)
            if (*p == s) {
                *p = s->next;
                break;
            }
    UNLOCK;
    if (!keep)
        free(s);
    return NULL;
}

static CUstream new_stream(void) { /* under L */
    pthread_once(&knobs_once, knobs_init);
    CUstream n = calloc(1, sizeof *n);
    n->generation = fake_generation;
    n->next = streams;
    streams = n;
    pthread_create(&n->thread, NULL, worker, n);
    pthread_detach(n->thread);
    return n;
}

CUstream fake_stream(CUstream s) {
    if (s && s->generation != fake_generation) {
        fprintf(stderr, "fake: stream %p used after the context was reset\n", (void *)s);
        abort();
    }
    if (s)
        return s;
    if (!legacy)
        legacy = new_stream();
    return legacy;
}

void fake_check_event(CUevent e) {
    if (e->destroyed || e->generation != fake_generation) {
        fprintf(stderr, "fake: event %p used after %s\n", (void *)e,
                e->destroyed ? "cuEventDestroy" : "the context was reset");
        abort();
    }
}

/* The first byte of one side of a 3D copy. */
static const char *side3d(const char *base, size_t x, size_t y, size_t z, size_t pitch,
                          size_t height) {
    return base + (z * height + y) * pitch + x;
}

/* Where an operation reads or writes: up to two places, each in host memory or not (the memory
 * a device address names: device memory, or mapped pinned memory); how many. */
static int op_sides(const fake_op *o, const char *at[2], bool host[2]) {
    const CUDA_MEMCPY3D *m = &o->m3;
    switch (o->kind) {
    case OP_COPY:
        at[0] = o->dst, at[1] = o->src;
        host[0] = o->host_side[0], host[1] = o->host_side[1];
        return 2;
    case OP_COPY3D:
        host[0] = m->dstMemoryType == CU_MEMORYTYPE_HOST;
        host[1] = m->srcMemoryType == CU_MEMORYTYPE_HOST;
        at[0] = side3d(host[0] ? (const char *)m->dstHost : P(m->dstDevice), m->dstXInBytes,
                       m->dstY, m->dstZ, m->dstPitch, m->dstHeight);
        at[1] = side3d(host[1] ? (const char *)m->srcHost : P(m->srcDevice), m->srcXInBytes,
                       m->srcY, m->srcZ, m->srcPitch, m->srcHeight);
        return 2;
    case OP_SET:
        at[0] = o->dst, host[0] = false;
        return 1;
    case OP_WAIT_VALUE:
    case OP_WRITE_VALUE:
        at[0] = (const char *)o->addr, host[0] = false;
        return 1;
    default:
        return 0;
    }
}

/* By fake_op_kind. */
static const char *const op_names[] = {[OP_RECORD] = "event record",
                                       [OP_WAIT_EVENT] = "event wait",
                                       [OP_WAIT_VALUE] = "value wait",
                                       [OP_WRITE_VALUE] = "value write",
                                       [OP_COPY] = "copy",
                                       [OP_COPY3D] = "3D copy",
                                       [OP_SET] = "fill",
                                       [OP_HOST] = "host function",
                                       [OP_RUN] = "kernel run",
                                       [OP_FAULT] = "fault",
                                       [OP_KERNEL] = "kernel time",
                                       [OP_LAUNCH] = "graph's kernel launch"};

void fake_check_unused(unsigned long long id, const char *call, const void *p) {
    for (CUstream s = streams; s; s = s->next) {
        for (const fake_op *o = s->head; o; o = o->next) {
            for (int i = 0; i < 2; i++) {
                if (o->uses[i] == id) {
                    fprintf(stderr,
                            "fake: %s(%p) while a %s queued on stream %p by %s still uses the "
                            "memory: on a GPU the DMA would fault (or reach memory reused)\n",
                            call, p, op_names[o->kind], (void *)s, o->call ? o->call : "?");
                    abort();
                }
            }
        }
    }
}

/* Under L: frees the operations queued behind s's head (the head may be running: its thread
 * finishes, or, poisoned, skips it). */
static void drop_queued(CUstream s) {
    fake_op *o = s->head ? s->head->next : NULL;
    while (o) {
        fake_op *next = o->next;
        free_op(o);
        o = next;
    }
    if (s->head) {
        s->head->next = NULL;
        s->tail = s->head;
    }
}

void fake_drop_queued(void) {
    for (CUstream s = streams; s; s = s->next)
        drop_queued(s);
}

void fake_reset_streams(void) {
    for (CUstream s = streams, next; s; s = next) {
        next = s->next;
        drop_queued(s);
        s->destroyed = 1;
        s->reset = 1;
    }
    streams = NULL;
    legacy = NULL;
}

void fake_drain(CUstream s) {
    while (s->head)
        pthread_cond_wait(&fake_C, &fake_L);
}

/* Every stream idle. The list is walked again after each wait: meanwhile a stream may have been
 * destroyed, and its thread frees it once it is idle. */
void fake_drain_all(void) {
    for (;;) {
        CUstream busy = NULL;
        for (CUstream s = streams; s && !busy; s = s->next)
            if (s->head)
                busy = s;
        if (!busy)
            return;
        pthread_cond_wait(&fake_C, &fake_L);
    }
}

/* Does s hold work that waits for something (an event, a value, a host function)? */
static bool held_up(CUstream s) {
    for (const fake_op *o = s->head; o; o = o->next)
        if (o->kind == OP_WAIT_EVENT || o->kind == OP_WAIT_VALUE || o->kind == OP_HOST)
            return true;
    return false;
}

void fake_device_wide_wait(void) {
    wide_busy = true;
    wide_owner = pthread_self();
    for (;;) {
        bool any = false;
        for (CUstream s = streams; s && !any; s = s->next)
            any = held_up(s);
        if (!any)
            break;
        pthread_cond_wait(&fake_C, &fake_L);
    }
    wide_busy = false;
    pthread_cond_broadcast(&fake_C);
}

/* Instant mode runs an operation in the caller's thread when nothing is queued before it and
 * it cannot block; host functions and kernels' stream time always run on the stream's thread. */
static bool runs_at_once(CUstream s, const fake_op *o) { /* under L */
    if (!fake_state.instant || s->head || o->kind == OP_HOST || o->kind == OP_KERNEL)
        return false;
    return o->kind != OP_WAIT_EVENT || o->ev->done >= o->seq;
}

/* Under L: puts n (its sequence number set) on s, or runs it at once. */
static void enqueue_locked(CUstream s, fake_op *n) {
    n->generation = fake_generation;
    if (n->kind == OP_RECORD) /* the sequence number this record completes */
        n->seq = ++n->ev->recorded;
    else if (n->kind == OP_WAIT_EVENT) /* waits for the event's latest record */
        n->seq = n->ev->recorded;
    if (runs_at_once(s, n)) {
        execute(n);
        free_op(n);
    } else {
        if (s->tail)
            s->tail->next = n;
        else
            s->head = n;
        s->tail = n;
    }
}

CUresult fake_enqueue_all(CUstream s, const fake_op *ops, size_t count) {
    fake_op **copies = calloc(count ? count : 1, sizeof *copies);
    bool ok = copies != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        copies[i] = malloc(sizeof *copies[i]);
        ok = copies[i] != NULL;
        if (ok) {
            *copies[i] = ops[i];
            copies[i]->next = NULL;
        }
    }
    CUresult r = ok ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    if (ok) {
        LOCK;
        s = fake_stream(s);
        for (size_t i = 0; i < count; i++) {
            /* The allocations it uses, as they are now (addresses may be reused once they go). */
            const char *at[2];
            bool host[2];
            int sides = op_sides(copies[i], at, host);
            for (int j = 0; j < sides; j++)
                copies[i]->uses[j] = fake_range_id(at[j], host[j]);
            copies[i]->call = fake_call_name;
            if (ops[i].kind == OP_RECORD || ops[i].kind == OP_WAIT_EVENT)
                fake_check_event(ops[i].ev);
        }
        r = (CUresult)fake_sticky; /* a poisoned context queues nothing */
        for (size_t i = 0; i < count && r == CUDA_SUCCESS; i++)
            enqueue_locked(s, copies[i]);
        pthread_cond_broadcast(&fake_C);
        UNLOCK;
    }
    /* Not queued: what the operations own stays the caller's. */
    for (size_t i = 0; r != CUDA_SUCCESS && copies && i < count; i++)
        free(copies[i]);
    free(copies);
    return r;
}

CUresult fake_enqueue(CUstream s, fake_op o) {
    return fake_enqueue_all(s, &o, 1);
}

unsigned fake_launch_us(void) {
    pthread_once(&knobs_once, knobs_init);
    return fake_state.launch_us;
}

CUresult fake_kernel_time(CUstream s) {
    unsigned us = fake_launch_us();
    return us ? fake_enqueue(s, (fake_op){.kind = OP_KERNEL, .n = us}) : CUDA_SUCCESS;
}

CUresult fake_query_answer(bool done) {
    int forced = fake_state.query_answer;
    if (fake_sticky)
        return (CUresult)fake_sticky;
    if (forced != FAKECUDA_TRUTH)
        return (CUresult)forced;
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult fake_value_address(CUdeviceptr a) {
    if (a % 8)
        return CUDA_ERROR_INVALID_VALUE;
    fake_check_range(a, 8);
    return CUDA_SUCCESS;
}

#pragma GCC visibility push(default)

static CUresult create_stream(CUstream *s) {
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    LOCK;
    *s = new_stream();
    UNLOCK;
    return CUDA_SUCCESS;
}
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned f, int prio) {
    FAKE_CALL;
    (void)f;
    (void)prio;
    return create_stream(s);
}
CUresult cuStreamCreate(CUstream *s, unsigned f) {
    FAKE_CALL;
    (void)f;
    return create_stream(s);
}
CUresult cuStreamDestroy(CUstream s) { /* its thread finishes the queued work, then frees it */
    FAKE_CALL;
    LOCK;
    fake_stream(s);
    s->destroyed = 1;
    pthread_cond_broadcast(&fake_C);
    CUresult r = (CUresult)fake_sticky;
    UNLOCK;
    return fake_lost_teardown(r);
}
CUresult cuStreamQuery(CUstream s) {
    FAKE_CALL;
    LOCK;
    bool idle = !fake_stream(s)->head;
    UNLOCK;
    return fake_query_answer(idle);
}
CUresult cuStreamSynchronize(CUstream s) {
    FAKE_CALL;
    LOCK;
    fake_drain(fake_stream(s));
    UNLOCK;
    return (CUresult)fake_sticky;
}
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) {
    FAKE_CALL;
    (void)f;
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    fake_note_wait_event(s, e);
    return fake_enqueue(s, (fake_op){.kind = OP_WAIT_EVENT, .ev = e});
}
CUresult cuStreamGetCtx(CUstream s, CUcontext *c) {
    FAKE_CALL;
    if ((uintptr_t)s < 4096)
        return CUDA_ERROR_INVALID_HANDLE;
    *c = (CUcontext)fake_owner;
    return CUDA_SUCCESS;
}
CUresult cuStreamGetPriority(CUstream s, int *p) {
    FAKE_CALL;
    (void)s;
    *p = 0;
    return CUDA_SUCCESS;
}
CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *arg) {
    FAKE_CALL;
    return fake_enqueue(s, (fake_op){.kind = OP_HOST, .fn = fn, .arg = arg});
}
CUresult cuStreamWaitValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    FAKE_CALL;
    CUresult r = fake_value_address(a);
    if (r)
        return r;
    fake_note_wait_value(s, a, v);
    return fake_enqueue(s, (fake_op){.kind = OP_WAIT_VALUE, .addr = P(a), .value = v, .flags = f});
}
CUresult cuStreamWriteValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
    FAKE_CALL;
    (void)f;
    CUresult r = fake_value_address(a);
    return r ? r : fake_enqueue(s, (fake_op){.kind = OP_WRITE_VALUE, .addr = P(a), .value = v});
}

#pragma GCC visibility pop
