/* The kernels the fake runs: culvert's clock probe and the timed twins of kernels
 * (docs/kernel-abi.md, "Kernel timing"), against a fake %globaltimer: CLOCK_MONOTONIC_RAW shifted
 * to 1970's epoch as NVIDIA's drivers count it, in steps of 32 ns; and the check of a recovered
 * context (cuda/cu_recover.c). Every other kernel is only recorded (fake_module.c). A program's
 * kernel, timed or not, takes launch_us of its stream's time. */
#include "fake_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_TIMER_OFFSET 1700000000000000000ull
#define FAKE_TIMER_STEP   32u

uint64_t fake_globaltimer(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    return (ns + FAKE_TIMER_OFFSET) / FAKE_TIMER_STEP * FAKE_TIMER_STEP;
}

typedef struct probe_run {
    volatile uint64_t *page;
    uint64_t base;
    unsigned count, steps;
} probe_run;

/* The probe (cuda/cu_ktime.c) on the stream's thread: the step, then one pong per ping. */
static void probe(void *arg) {
    probe_run *r = arg;
    volatile uint64_t *page = r->page;
    page[10] = r->steps ? FAKE_TIMER_STEP : 0;
    for (unsigned i = 1; i <= r->count; i++) {
        uint64_t want = r->base + i, v;
        while ((v = __atomic_load_n(&page[0], __ATOMIC_ACQUIRE)) < want)
            sched_yield();
        uint64_t t = fake_globaltimer();
        if (v > want)
            break;
        page[8] = t;
        __atomic_store_n(&page[9], want, __ATOMIC_RELEASE);
    }
    free(r);
}

typedef struct timed_run {
    uint64_t words, generation;
} timed_run;

/* A timed twin, as all its blocks would leave its slot: START and END are the moments its stream
 * time begins and ends (the same moment without launch_us), as keys (the generation above the
 * time's low 40 bits; START's complemented) raised with max. */
static void timed_key(const timed_run *r, int end) {
    uint64_t *w = P(r->words), t = fake_globaltimer(), mask = (1ull << 40) - 1;
    uint64_t key = (r->generation << 40) | ((end ? t : ~t) & mask);
    if (key > w[end])
        w[end] = key;
}

static void timed_start(void *arg) {
    timed_key(arg, 0);
}

static void timed_end(void *arg) {
    timed_key(arg, 1);
    free(arg);
}

CUresult fake_kernel_run(CUstream s, const char *name, unsigned n, const char *last,
                         void **params) {
    if (strcmp(name, "__cv_clock_probe") == 0) {
        probe_run *r = malloc(sizeof *r);
        if (!r)
            return CUDA_ERROR_OUT_OF_MEMORY;
        uint64_t page = *(uint64_t *)params[0];
        fake_check_range(page, 88);
        *r = (probe_run){P(page), *(uint64_t *)params[1], *(unsigned *)params[2],
                         *(unsigned *)params[3]};
        return fake_enqueue(s, (fake_op){.kind = OP_HOST, .fn = probe, .arg = r});
    }
    if (strcmp(name, "__cv_context_check") == 0) { /* out[0] = value (cuda/cu_recover.c) */
        CUdeviceptr out = *(CUdeviceptr *)params[0];
        fake_check_range(out, 4);
        return fake_enqueue(s, (fake_op){.kind = OP_SET,
                                         .dst = P(out),
                                         .value = *(unsigned *)params[1],
                                         .esz = 4,
                                         .w = 1,
                                         .h = 1,
                                         .pitch = 4});
    }
    if (n && strcmp(last, "__cv_timing") == 0) {
        const uint64_t *p = params[n - 1];
        timed_run *r = malloc(sizeof *r);
        if (!r)
            return CUDA_ERROR_OUT_OF_MEMORY;
        *r = (timed_run){p[0], p[1]};
        fake_check_range(r->words, 16);
        if (r->words % 8 || !r->generation || r->generation >= 1u << 24) {
            fprintf(stderr, "fake: a timing parameter the twins cannot use\n");
            abort();
        }
        CUresult e = fake_enqueue(s, (fake_op){.kind = OP_RUN, .fn = timed_start, .arg = r});
        if (!e)
            e = fake_kernel_time(s);
        if (!e)
            e = fake_enqueue(s, (fake_op){.kind = OP_RUN, .fn = timed_end, .arg = r});
        return e;
    }
    return fake_kernel_time(s);
}
