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
 * The slots: 32 bytes of device memory (the blocks' three counters) and 16 bytes of mapped pinned
 * memory (START and END, written by the launch's last block), in chunks that are never freed. A
 * slot whose command did not run to its end may hold counts: it is not used again. */
#include "core/backend.h"
#include "cuda/cu_clock.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"
#include "util/clock.h"

#include <pthread.h>
#include <stdlib.h>

#define CVCU_KT_MAX    64         /* devices */
#define CVCU_KT_CHUNK  1024       /* slots per chunk */
#define CVCU_KT_WORDS  32         /* device bytes per slot */
#define CVCU_KT_RECORD 16         /* host bytes per slot */
#define CVCU_KT_STRIDE (1u << 20) /* ping values per probe */
/* Rounds of ping-pong: at the first calibration, and at each renewal. */
#define CVCU_KT_FIRST_ROUNDS 32
#define CVCU_KT_ROUNDS       8
/* How long the probe may take to answer its first ping: at the first calibration (it may wait
 * for a busy GPU) and at a renewal (on the thread that converts a timestamp); later pings (a
 * running probe answers in microseconds: a late answer only makes its round wide). The first
 * round, which waits for the probe to start, is no sample unless it is the only one. */
#define CVCU_KT_FIRST_WAIT_NS 100000000ull
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
    struct cvcu_kclock *clock;
    volatile uint64_t *record; /* START, END as the kernel wrote them */
    CUdeviceptr record_dev;
    CUdeviceptr words;
    struct cvcu_ktime *next;
};

typedef struct cvcu_kclock {
    _Atomic(struct cvcu_device *) dev;
    pthread_mutex_t lock; /* the probe and the anchors */
    _Atomic bool ready;   /* calibrated: slots may be handed out */
    bool loaded;          /* the probe's module, function, stream and page */
    uint64_t tried;       /* host time of the last failed calibration */
    CUmodule module;
    CUfunction probe;
    CUstream stream;
    _Atomic uint64_t *page;
    CUdeviceptr page_dev;
    uint64_t next_base;
    uint64_t origin; /* the first %globaltimer read: where the drift hook scales from */
    uint64_t step;   /* %globaltimer's step in ns, 0 while unknown */
    cvcu_anchors anchors;
    pthread_mutex_t pool_lock;
    CUstream zero; /* zeroes new chunks (never waits behind a probe) */
    struct cvcu_ktime *free;
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
        atomic_store(&c->dev, dev);
    }
    pthread_mutex_unlock(&cvcu_kt_table_lock);
    return c;
}

/* The probe's module (only while no gate is closed), its stream of the greatest priority and
 * the ping-pong page. c->lock held, the device bound. */
static cl_int cvcu_kt_load(cvcu_kclock *c) {
    static const _Atomic bool now_or_never = true;
    if (!cvcu_gates_quiet_begin(&now_or_never))
        return CL_OUT_OF_RESOURCES;
    cl_int err = CVCU_CALL(cvcu.cuModuleLoadDataEx(&c->module, cvcu_probe_ptx, 0, NULL, NULL),
                           CL_OUT_OF_RESOURCES);
    cvcu_gates_quiet_end();
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
        err = CVCU_CALL(cvcu.cuStreamCreate(&c->zero, CU_STREAM_NON_BLOCKING), CL_OUT_OF_RESOURCES);
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
    cvcu_anchor fresh = {cvcu_kt_device(c, best_g), best_t0 + best_window / 2,
                         best_window ? best_window : 1};
    cvcu_anchors_offer(&c->anchors, fresh);
    return true;
}

bool cvcu_ktime_prepare(struct cvcu_device *dev) {
    cvcu_kclock *c = cvcu_kt_find(dev, true);
    if (!c)
        return false;
    if (atomic_load(&c->ready))
        return true;
    pthread_mutex_lock(&c->lock);
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

/* A chunk of slots: device words zeroed, records in mapped pinned memory. c->pool_lock held, the
 * device bound. */
static cl_int cvcu_kt_grow(cvcu_kclock *c) {
    struct cvcu_ktime *slots = calloc(CVCU_KT_CHUNK, sizeof *slots);
    CUdeviceptr words = 0, records_dev = 0;
    void *records = NULL;
    cl_int err = slots ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err =
            CVCU_CALL(cvcu.cuMemAlloc(&words, CVCU_KT_CHUNK * CVCU_KT_WORDS), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemsetD32Async(words, 0, CVCU_KT_CHUNK * CVCU_KT_WORDS / 4, c->zero),
                        CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuStreamSynchronize(c->zero), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemHostAlloc(&records, CVCU_KT_CHUNK * CVCU_KT_RECORD,
                                            CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
                        CL_OUT_OF_HOST_MEMORY);
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemHostGetDevicePointer(&records_dev, records, 0),
                        CL_OUT_OF_RESOURCES);
    if (err != CL_SUCCESS) {
        /* Freeing here could wait for the device (cu_gates.c): what was had stays unused. */
        free(slots);
        return err;
    }
    for (unsigned i = 0; i < CVCU_KT_CHUNK; i++) {
        struct cvcu_ktime *t = &slots[i];
        t->clock = c;
        t->record = (volatile uint64_t *)((char *)records + (size_t)i * CVCU_KT_RECORD);
        t->record_dev = records_dev + (CUdeviceptr)i * CVCU_KT_RECORD;
        t->words = words + (CUdeviceptr)i * CVCU_KT_WORDS;
        t->next = i + 1 < CVCU_KT_CHUNK ? &slots[i + 1] : c->free;
    }
    c->free = slots;
    return CL_SUCCESS;
}

cvcu_ktime *cvcu_ktime_get(struct cvcu_device *dev) {
    cvcu_kclock *c = cvcu_kt_find(dev, false);
    struct cvcu_ktime *t = NULL;
    if (!c || !atomic_load(&c->ready))
        return NULL;
    pthread_mutex_lock(&c->pool_lock);
    if (!c->free)
        cvcu_kt_grow(c);
    t = c->free;
    if (t)
        c->free = t->next;
    pthread_mutex_unlock(&c->pool_lock);
    if (t) {
        t->next = NULL;
        t->record[0] = 0;
        t->record[1] = 0;
    }
    return t;
}

void cvcu_ktime_param(const cvcu_ktime *t, bool last, uint64_t param[2]) {
    param[0] = t->words;
    param[1] = t->record_dev | (last ? 1u : 0u);
}

bool cvcu_ktime_read(cvcu_ktime *t, cl_ulong *start, cl_ulong *end) {
    cvcu_kclock *c = t->clock;
    uint64_t s = t->record[0], e = t->record[1];
    if (!e || s > e)
        return false;
    pthread_mutex_lock(&c->lock);
    uint64_t now = cvu_host_time_ns();
    if (cvcu_anchors_due(&c->anchors, now)) {
        c->anchors.renewed = now;
        if (cvcu_device_bind(atomic_load(&c->dev)) == CL_SUCCESS)
            cvcu_kt_calibrate(c, CVCU_KT_ROUNDS, CVCU_KT_RENEW_WAIT_NS);
    }
    *start = cvcu_anchors_host(&c->anchors, cvcu_kt_device(c, s));
    *end = cvcu_anchors_host(&c->anchors, cvcu_kt_device(c, e));
    pthread_mutex_unlock(&c->lock);
    return true;
}

void cvcu_ktime_put(cvcu_ktime *t, bool clean) {
    cvcu_kclock *c = t ? t->clock : NULL;
    if (!c || !clean)
        return;
    pthread_mutex_lock(&c->pool_lock);
    t->next = c->free;
    c->free = t;
    pthread_mutex_unlock(&c->pool_lock);
}
