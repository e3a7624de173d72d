/* Kernel timing (core/backend.h, docs/kernel-abi.md "Kernel timing"): the slots that the timed
 * twins of kernels write, and %globaltimer mapped onto the host clock.
 *
 * The mapping: a probe kernel (below) and the host play ping-pong through mapped pinned memory.
 * The host reads its clock, writes a ping, waits for the pong that carries the %globaltimer the
 * kernel read when it saw the ping, and reads its clock again; of several rounds the one within
 * the narrowest window anchors the mapping (cuda/cu_clock.h). The probe runs on a stream of the
 * greatest priority; a probe that does not answer in time (a GPU full of long kernels) is given
 * up: the ping moves past every value it waits for, and it ends whenever it runs. The probe's
 * module is loaded only while no gate is closed (cu_gates.c: a module load waits for every stream
 * of the device, so it would wait for the thread that opens the gate).
 *
 * The slots: two 64-bit words of device memory each, which the blocks raise with red.max (keys:
 * the command's generation above a time's low 40 bits), in chunks of 1024 that are never freed.
 * The generation makes the newest command's keys win, so nothing clears a slot between commands,
 * not even after a command that failed half way. Once a command completed, the host copies its
 * chunk's words into a pinned mirror (one copy serves every command of the chunk seen complete
 * before it began) and restores the times' high bits from the host clock.
 *
 * All of it lives in the device's context, so the device's recovery (cuda/cu_device.h) destroys
 * it: the clock records the device's generation, and the next preparation after a recovery
 * drops the probe, the anchors and the chunks (never freeing what the recovery freed) and starts
 * afresh. A chunk's host structure outlives the drop while commands still hold its slots: their
 * reads find no times, and the last one given back frees it. */
#include "cuda/cu_clock.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "util/clock.h"
#include "util/log.h"

#include <pthread.h>
#include <stdlib.h>

#define CVCU_KT_MAX    64         /* devices */
#define CVCU_KT_CHUNK  1024       /* slots per chunk */
#define CVCU_KT_STRIDE (1u << 20) /* ping values per probe */
/* Keys: a 24-bit generation above a time's low 40 bits (18 minutes of ns). */
#define CVCU_KT_TIME_BITS   40
#define CVCU_KT_TIME_MASK   ((1ull << CVCU_KT_TIME_BITS) - 1)
#define CVCU_KT_GENERATIONS ((1u << 24) - 1)
/* Rounds of ping-pong: at the first calibration, and at each renewal. */
#define CVCU_KT_FIRST_ROUNDS 32
#define CVCU_KT_ROUNDS       8
/* How long the probe may take to answer its first ping: at the first calibration (it may wait
 * for a busy GPU) and at a renewal (on the thread that converts a timestamp); later pings (a
 * running probe answers in microseconds: a late answer only makes its round wide). The first
 * round, which waits for the probe to start, is no sample unless it is the only one. */
#define CVCU_KT_FIRST_WAIT_NS 20000000ull
#define CVCU_KT_RENEW_WAIT_NS 500000ull
#define CVCU_KT_PONG_WAIT_NS  20000000ull
/* %globaltimer changes the probe counts to find its step. */
#define CVCU_KT_STEPS 16

/* The page of the ping-pong, in 64-bit words: the host writes the ping; the probe writes the
 * pong (the %globaltimer it read, then the ping it answers) and %globaltimer's step. */
enum { CVCU_KT_PING = 0, CVCU_KT_PONG_TIME = 8, CVCU_KT_PONG_SEQ = 9, CVCU_KT_STEP = 10 };

/* The probe: measures the step of %globaltimer (steps > 0), then for ping = base + 1 .. base +
 * count answers each with the %globaltimer read when it arrived; a ping past the one awaited
 * (the host gave up, or a later probe's) ends it. */
static const char cvcu_probe_ptx[] = ".version 6.0\n"
                                     ".target sm_50\n"
                                     ".address_size 64\n"
                                     ".visible .entry __cv_clock_probe(\n"
                                     "\t.param .u64 page,\n"
                                     "\t.param .u64 base,\n"
                                     "\t.param .u32 count,\n"
                                     "\t.param .u32 steps\n"
                                     ")\n"
                                     "{\n"
                                     "\t.reg .pred %p;\n"
                                     "\t.reg .b32 %i, %n, %s;\n"
                                     "\t.reg .b64 %page, %base, %want, %v, %t, %t0, %step, %d;\n"
                                     "\tld.param.u64 %page, [page];\n"
                                     "\tld.param.u64 %base, [base];\n"
                                     "\tld.param.u32 %n, [count];\n"
                                     "\tld.param.u32 %s, [steps];\n"
                                     "\tmov.u64 %step, 0;\n"
                                     "\tsetp.eq.u32 %p, %s, 0;\n"
                                     "\t@%p bra PINGS;\n"
                                     "\tmov.u64 %step, -1;\n"
                                     "\tmov.u64 %t0, %globaltimer;\n"
                                     "STEP:\n"
                                     "\tmov.u64 %t, %globaltimer;\n"
                                     "\tsetp.eq.u64 %p, %t, %t0;\n"
                                     "\t@%p bra STEP;\n"
                                     "\tsub.u64 %d, %t, %t0;\n"
                                     "\tmin.u64 %step, %step, %d;\n"
                                     "\tmov.u64 %t0, %t;\n"
                                     "\tsub.u32 %s, %s, 1;\n"
                                     "\tsetp.ne.u32 %p, %s, 0;\n"
                                     "\t@%p bra STEP;\n"
                                     "PINGS:\n"
                                     "\tst.volatile.global.u64 [%page+80], %step;\n"
                                     "\tmov.u32 %i, 1;\n"
                                     "NEXT:\n"
                                     "\tcvt.u64.u32 %want, %i;\n"
                                     "\tadd.u64 %want, %want, %base;\n"
                                     "WAIT:\n"
                                     "\tld.volatile.global.u64 %v, [%page];\n"
                                     "\tsetp.lt.u64 %p, %v, %want;\n"
                                     "\t@%p bra WAIT;\n"
                                     "\tmov.u64 %t, %globaltimer;\n"
                                     "\tsetp.gt.u64 %p, %v, %want;\n"
                                     "\t@%p bra DONE;\n"
                                     "\tst.volatile.global.u64 [%page+64], %t;\n"
                                     "\tmembar.sys;\n"
                                     "\tst.volatile.global.u64 [%page+72], %want;\n"
                                     "\tadd.u32 %i, %i, 1;\n"
                                     "\tsetp.le.u32 %p, %i, %n;\n"
                                     "\t@%p bra NEXT;\n"
                                     "DONE:\n"
                                     "\tret;\n"
                                     "}\n";

struct cvcu_ktime {
    struct cvcu_kchunk *chunk;
    unsigned index;      /* in its chunk */
    uint32_t generation; /* of its command: 1..CVCU_KT_GENERATIONS */
    struct cvcu_ktime *next;
};

typedef struct cvcu_kchunk {
    struct cvcu_kclock *clock;
    unsigned generation; /* the device's when the words and the mirror were allocated */
    bool retired;        /* dropped after a reset: its slots go nowhere when given back */
    unsigned out;        /* slots handed out and not given back */
    struct cvcu_kchunk *next;
    CUdeviceptr words; /* two 64-bit words per slot: START's key, END's key */
    uint64_t *mirror;  /* pinned: the words as the last copy found them */
    uint64_t fetched;  /* host time the last copy began; 0: none yet */
    struct cvcu_ktime slots[CVCU_KT_CHUNK];
} cvcu_kchunk;

typedef struct cvcu_kclock {
    _Atomic(struct cvcu_device *) dev;
    pthread_mutex_t lock;        /* the probe, the anchors, the chunks' mirrors */
    _Atomic unsigned generation; /* the device's that all below belongs to (set under both locks) */
    _Atomic bool ready;          /* calibrated: slots may be handed out */
    bool loaded;                 /* the probe's module, function, stream and page */
    uint64_t tried;              /* host time of the last failed calibration */
    CUmodule module;
    CUfunction probe;
    CUstream stream;
    _Atomic uint64_t *page;
    CUdeviceptr page_dev;
    uint64_t next_base;
    uint64_t origin;                /* the first %globaltimer read: device times count from it */
    uint64_t anchor_g, anchor_host; /* the latest anchor as read (no drift hook) */
    uint64_t step;                  /* %globaltimer's step in ns, 0 while unknown */
    cvcu_anchors anchors;
    pthread_mutex_t pool_lock;
    CUstream copies; /* zeroes new chunks, copies words to mirrors (never behind a probe) */
    struct cvcu_ktime *free;
    cvcu_kchunk *chunks;
} cvcu_kclock;

static pthread_mutex_t cvcu_kt_table_lock = PTHREAD_MUTEX_INITIALIZER;
static cvcu_kclock cvcu_kclocks[CVCU_KT_MAX];

static cvcu_kclock *cvcu_kt_find(struct cvcu_device *dev, bool create) {
    for (int i = 0; i < CVCU_KT_MAX; i++)
        if (atomic_load(&cvcu_kclocks[i].dev) == dev)
            return &cvcu_kclocks[i];
    cvcu_kclock *c = NULL;
    pthread_mutex_lock(&cvcu_kt_table_lock);
    for (int i = 0; create && i < CVCU_KT_MAX && !c; i++) {
        struct cvcu_device *d = atomic_load(&cvcu_kclocks[i].dev);
        if (d == dev || d == NULL)
            c = &cvcu_kclocks[i];
    }
    if (c && atomic_load(&c->dev) == NULL) {
        pthread_mutex_init(&c->lock, NULL);
        pthread_mutex_init(&c->pool_lock, NULL);
        c->anchors.unit_ns = 1.0;
        c->next_base = CVCU_KT_STRIDE;
        c->generation = cvcu_device_generation(dev);
        atomic_store(&c->dev, dev);
    }
    pthread_mutex_unlock(&cvcu_kt_table_lock);
    return c;
}

/* The probe's module (only while no gate is closed), its stream of the greatest priority and
 * the ping-pong page. c->lock held, the device bound. */
static cl_int cvcu_kt_load(cvcu_kclock *c) {
    static const cvcu_jit_options defaults = {0, -1, false, 0};
    cvcu_module *module = NULL;
    char *log = NULL;
    bool later = false;
    cl_int err = cvcu_module_load_unblocked(cvcu_probe_ptx, &defaults, &module, &log, &later);
    free(log);
    if (later)
        return CL_OUT_OF_RESOURCES;
    c->module = (CUmodule)module;
    int least = 0, greatest = 0;
    void *page = NULL;
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuModuleGetFunction(&c->probe, c->module, "__cv_clock_probe"),
                        CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuCtxGetStreamPriorityRange(&least, &greatest), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err =
            CVCU_CALL(cvcu.cuStreamCreateWithPriority(&c->stream, CU_STREAM_NON_BLOCKING, greatest),
                      CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err =
            CVCU_CALL(cvcu.cuStreamCreate(&c->copies, CU_STREAM_NON_BLOCKING), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(
            cvcu.cuMemHostAlloc(&page, 128, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
            CL_OUT_OF_HOST_MEMORY);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemHostGetDevicePointer(&c->page_dev, page, 0), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS) {
        c->page = page;
        for (int i = 0; i < 16; i++)
            atomic_store(&c->page[i], 0);
        c->loaded = true;
    }
    /* What was made stays: a later try starts again from the module. */
    return err;
}

/* A %globaltimer reading as the anchors' device time: ns since the first reading (%globaltimer
 * counts from 1970 on some drivers: a double would lose its nanoseconds), with the drift hook. */
static double cvcu_kt_device(const cvcu_kclock *c, uint64_t g) {
    return (double)(int64_t)(g - c->origin) * cvcu_clock_drift_scale();
}

/* One probe, `rounds` rounds of ping-pong; offers the narrowest round as an anchor. False when
 * the probe did not answer in time (it is given up). c->lock held, the device bound. */
static bool cvcu_kt_calibrate(cvcu_kclock *c, unsigned rounds, uint64_t first_wait) {
    uint64_t base = c->next_base;
    c->next_base += CVCU_KT_STRIDE;
    unsigned steps = c->step ? 0 : CVCU_KT_STEPS;
    void *params[] = {&c->page_dev, &base, &rounds, &steps};
    if (CVCU_CALL(cvcu.cuLaunchKernel(c->probe, 1, 1, 1, 1, 1, 1, 0, c->stream, params, NULL),
                  CL_OUT_OF_RESOURCES) != CL_SUCCESS)
        return false;
    uint64_t best_t0 = 0, best_window = UINT64_MAX, best_g = 0;
    bool answered = true;
    for (unsigned i = 1; i <= rounds && answered; i++) {
        uint64_t want = base + i;
        uint64_t t0 = cvu_host_time_ns(), t1 = t0;
        uint64_t wait = i == 1 ? first_wait : CVCU_KT_PONG_WAIT_NS;
        atomic_store_explicit(&c->page[CVCU_KT_PING], want, memory_order_release);
        while (atomic_load_explicit(&c->page[CVCU_KT_PONG_SEQ], memory_order_acquire) != want &&
               (t1 = cvu_host_time_ns()) - t0 < wait)
            ;
        t1 = cvu_host_time_ns();
        answered = atomic_load_explicit(&c->page[CVCU_KT_PONG_SEQ], memory_order_acquire) == want;
        if (answered && (t1 - t0 < best_window || i == 2)) {
            best_window = t1 - t0;
            best_t0 = t0;
            best_g = atomic_load_explicit(&c->page[CVCU_KT_PONG_TIME], memory_order_relaxed);
        }
    }
    /* Past every ping this probe waits for: it ends, now or whenever it runs. */
    atomic_store_explicit(&c->page[CVCU_KT_PING], base + CVCU_KT_STRIDE - 1, memory_order_release);
    if (best_window == UINT64_MAX)
        return false;
    if (!c->step) {
        uint64_t step = atomic_load_explicit(&c->page[CVCU_KT_STEP], memory_order_relaxed);
        c->step = step && step != UINT64_MAX ? step : 0;
    }
    if (!c->origin)
        c->origin = best_g;
    cvu_log(CVU_LOG_INFO, "culvert: %%globaltimer clock anchor read within %.1f us",
            best_window / 1e3);
    cvcu_anchor fresh = {cvcu_kt_device(c, best_g), best_t0 + best_window / 2,
                         best_window ? best_window : 1};
    if (cvcu_anchors_offer(&c->anchors, fresh)) {
        c->anchor_g = best_g;
        c->anchor_host = fresh.host;
    }
    return true;
}

/* After a reset of the device: the probe, its streams and page, the anchors and the chunks went
 * with the context; forgets them (nothing is freed through the driver) so that the next try
 * starts afresh. Chunks with slots out stay until the last comes back. c->lock held. */
static void cvcu_kt_follow_reset(cvcu_kclock *c, struct cvcu_device *dev) {
    if (cvcu_device_current(dev, c->generation))
        return;
    pthread_mutex_lock(&c->pool_lock);
    for (cvcu_kchunk *k = c->chunks, *next; k; k = next) {
        next = k->next;
        k->retired = true;
        k->next = NULL;
        if (!k->out)
            free(k);
    }
    c->chunks = NULL;
    c->free = NULL;
    atomic_store(&c->ready, false);
    c->loaded = false;
    c->tried = 0;
    c->module = NULL;
    c->probe = NULL;
    c->stream = c->copies = NULL;
    c->page = NULL;
    c->page_dev = 0;
    c->origin = c->anchor_g = c->anchor_host = c->step = 0;
    c->anchors = (cvcu_anchors){.unit_ns = 1.0};
    c->generation = cvcu_device_generation(dev);
    pthread_mutex_unlock(&c->pool_lock);
}

/* Ready, and of the device's generation. */
static bool cvcu_kt_ready(const cvcu_kclock *c, struct cvcu_device *dev) {
    return atomic_load(&c->ready) && cvcu_device_current(dev, c->generation);
}

bool cvcu_ktime_prepare(struct cvcu_device *dev) {
    cvcu_kclock *c = cvcu_kt_find(dev, true);
    if (!c)
        return false;
    if (cvcu_kt_ready(c, dev))
        return true;
    pthread_mutex_lock(&c->lock);
    cvcu_kt_follow_reset(c, dev);
    uint64_t now = cvu_host_time_ns();
    /* A failed try is not repeated within a period (a busy GPU, a closed gate). */
    bool try = !atomic_load(&c->ready) && (!c->tried || now - c->tried > cvcu_clock_period_ns());
    if (try && cvcu_device_bind(dev) == CL_SUCCESS &&
        (c->loaded || cvcu_kt_load(c) == CL_SUCCESS) &&
        cvcu_kt_calibrate(c, CVCU_KT_FIRST_ROUNDS, CVCU_KT_FIRST_WAIT_NS)) {
        c->anchors.renewed = cvu_host_time_ns();
        atomic_store(&c->ready, true);
    } else if (try) {
        c->tried = now;
    }
    bool ready = atomic_load(&c->ready);
    pthread_mutex_unlock(&c->lock);
    return ready;
}

cl_ulong cvcu_ktime_step(struct cvcu_device *dev) {
    cvcu_kclock *c = cvcu_ktime_prepare(dev) ? cvcu_kt_find(dev, false) : NULL;
    return c ? c->step : 0;
}

/* A chunk of slots, its words zeroed (generation 0: older than every command). c->pool_lock
 * held, the device bound. */
static cl_int cvcu_kt_grow(cvcu_kclock *c) {
    cvcu_kchunk *k = calloc(1, sizeof *k);
    void *mirror = NULL;
    size_t bytes = CVCU_KT_CHUNK * 2 * sizeof(uint64_t);
    cl_int err = k ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemAlloc(&k->words, bytes), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemsetD32Async(k->words, 0, bytes / 4, c->copies),
                        CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuStreamSynchronize(c->copies), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemHostAlloc(&mirror, bytes, CU_MEMHOSTALLOC_PORTABLE),
                        CL_OUT_OF_HOST_MEMORY);
    if (err != CL_SUCCESS) {
        /* Freeing here could wait for the device (cu_gates.c): what was had stays unused. */
        free(k);
        return err;
    }
    k->clock = c;
    k->generation = c->generation;
    k->mirror = mirror;
    k->next = c->chunks;
    c->chunks = k;
    for (unsigned i = 0; i < CVCU_KT_CHUNK; i++) {
        k->slots[i].chunk = k;
        k->slots[i].index = i;
        k->slots[i].next = i + 1 < CVCU_KT_CHUNK ? &k->slots[i + 1] : c->free;
    }
    c->free = &k->slots[0];
    return CL_SUCCESS;
}

cvcu_ktime *cvcu_ktime_get(struct cvcu_device *dev) {
    cvcu_kclock *c = cvcu_kt_find(dev, false);
    struct cvcu_ktime *t = NULL;
    if (!c || !atomic_load(&c->ready))
        return NULL;
    pthread_mutex_lock(&c->pool_lock);
    /* Not of a reset device's old context (the next preparation drops it). */
    bool current = cvcu_kt_ready(c, dev);
    if (current && !c->free)
        cvcu_kt_grow(c);
    t = current ? c->free : NULL;
    if (t) {
        c->free = t->next;
        t->next = NULL;
        t->chunk->out++;
        /* Past the last generation the words are zeroed again (once in 16 million uses). */
        if (t->generation == CVCU_KT_GENERATIONS &&
            (CVCU_CALL(cvcu.cuMemsetD32Async(t->chunk->words + t->index * 16, 0, 4, c->copies),
                       CL_OUT_OF_RESOURCES) != CL_SUCCESS ||
             CVCU_CALL(cvcu.cuStreamSynchronize(c->copies), CL_OUT_OF_RESOURCES) != CL_SUCCESS)) {
            t->chunk->out--;
            t = NULL; /* left out of the pool: its words are not known clean */
        } else {
            t->generation = t->generation % CVCU_KT_GENERATIONS + 1;
        }
    }
    pthread_mutex_unlock(&c->pool_lock);
    return t;
}

void cvcu_ktime_param(const cvcu_ktime *t, uint64_t param[2]) {
    param[0] = t->chunk->words + t->index * 16;
    param[1] = t->generation;
}

/* The chunk's words as they are once every command seen complete at `seen` ran: the mirror,
 * copied again unless that copy began after `seen`. c->lock held. */
static bool cvcu_kt_fetch(cvcu_kclock *c, cvcu_kchunk *k, uint64_t seen) {
    if (k->fetched && k->fetched >= seen)
        return true;
    uint64_t began = cvu_host_time_ns();
    bool ok = cvcu_device_bind(atomic_load(&c->dev)) == CL_SUCCESS &&
              CVCU_CALL(cvcu.cuMemcpyDtoHAsync(k->mirror, k->words,
                                               CVCU_KT_CHUNK * 2 * sizeof(uint64_t), c->copies),
                        CL_OUT_OF_RESOURCES) == CL_SUCCESS &&
              CVCU_CALL(cvcu.cuStreamSynchronize(c->copies), CL_OUT_OF_RESOURCES) == CL_SUCCESS;
    if (ok)
        k->fetched = began;
    return ok;
}

/* The full %globaltimer of a key's low 40 bits: the one nearest the device's time at host time
 * `when` (by the latest anchor: the error is microseconds, the range 18 minutes). c->lock held. */
static uint64_t cvcu_kt_full(const cvcu_kclock *c, uint64_t low, uint64_t when) {
    uint64_t near = c->anchor_g + (when - c->anchor_host);
    uint64_t d = (low - near) & CVCU_KT_TIME_MASK;
    return d & (1ull << (CVCU_KT_TIME_BITS - 1)) ? near + d - (1ull << CVCU_KT_TIME_BITS)
                                                 : near + d;
}

bool cvcu_ktime_read(cvcu_ktime *t, cl_ulong seen, cl_ulong *start, cl_ulong *end) {
    cvcu_kchunk *k = t->chunk;
    cvcu_kclock *c = k->clock;
    bool ok = false;
    pthread_mutex_lock(&c->lock);
    uint64_t now = cvu_host_time_ns();
    /* A reset freed the words and the mirror (and the clock's anchors are another context's). */
    bool current = !k->retired && cvcu_device_current(atomic_load(&c->dev), k->generation);
    if (current && cvcu_anchors_due(&c->anchors, now)) {
        c->anchors.renewed = now;
        if (cvcu_device_bind(atomic_load(&c->dev)) == CL_SUCCESS)
            cvcu_kt_calibrate(c, CVCU_KT_ROUNDS, CVCU_KT_RENEW_WAIT_NS);
    }
    if (current && cvcu_kt_fetch(c, k, seen ? seen : now)) {
        uint64_t first = k->mirror[2 * t->index], last = k->mirror[2 * t->index + 1];
        ok = last >> CVCU_KT_TIME_BITS == t->generation;
        /* END, then START as far before it as their low bits say (a command of the first 4096
         * blocks' generation always has both) */
        uint64_t e = ok ? cvcu_kt_full(c, last & CVCU_KT_TIME_MASK, seen ? seen : now) : 0;
        uint64_t s = e;
        if (ok && first >> CVCU_KT_TIME_BITS == t->generation)
            s = e -
                (((last & CVCU_KT_TIME_MASK) - (~first & CVCU_KT_TIME_MASK)) & CVCU_KT_TIME_MASK);
        if (ok) {
            *start = cvcu_anchors_host(&c->anchors, cvcu_kt_device(c, s));
            *end = cvcu_anchors_host(&c->anchors, cvcu_kt_device(c, e));
        }
    }
    pthread_mutex_unlock(&c->lock);
    return ok;
}

void cvcu_ktime_put(cvcu_ktime *t) {
    cvcu_kchunk *k = t ? t->chunk : NULL;
    cvcu_kclock *c = k ? k->clock : NULL;
    if (!c)
        return;
    pthread_mutex_lock(&c->pool_lock);
    k->out--;
    if (!k->retired) {
        t->next = c->free;
        c->free = t;
    } else if (!k->out) {
        free(k);
    }
    pthread_mutex_unlock(&c->pool_lock);
}
