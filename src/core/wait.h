/* Host waits: how a thread that blocks on the GPU (clFinish, clWaitForEvents, blocking reads,
 * writes and maps) waits, quickly and without burning a core.
 *
 * A wait watches a flag the GPU writes behind the work (a token in a slot of mapped pinned
 * memory, core/queue.h) and asks the driver now and then, for failures (a command that fails
 * never lets its flag be written) or where there is no flag. It spins first (the short commands
 * end within the spin at the driver's speed); then it sleeps on a futex, and is woken
 *   - by one polling thread for the process (it exists while waits sleep), which reads the flags
 *     of every sleeping wait and asks the driver for the others, every 20 us..1 ms (a sixteenth
 *     of the youngest wait's age): one thread's wake-ups however many threads wait;
 *   - at once, by culvert itself, when what may hold the work up is released through culvert:
 *     clSetUserEventStatus, clSignalHostValue and clResetHostValue wake the waits whose stream
 *     has a gate (a user event's or a host value's) not known passed, and a completion culvert
 *     observes wakes those whose stream waits for another stream's event; a woken wait spins
 *     again for what is left of the GPU's work;
 *   - at once when the device is lost (a fault: nothing of its work completes any more), to end
 *     with the error;
 *   - shortly before the work's predicted end: work that ended with a kernel long after that
 *     kernel's enqueue before is expected to end as long after its enqueue again (a history by
 *     kernel, learned only by waits that saw the work pending), so a wait spins only briefly,
 *     sleeps until shortly before then and spins across the end.
 * Knobs for measuring the trade-offs (read once): CULVERT_WAIT_SPIN_US (the first spin, 300),
 * CULVERT_WAIT_POLL_US (the polling thread's longest period, 1000; 0: no polling thread, a testing
 * aid: a wait that no release can end spins until done, the others sleep until released or
 * until their predicted end (then they look every 100 us), so that a lost wake-up hangs a wait),
 * CULVERT_WAIT_MARGIN_US (how long before a predicted end a wait wakes, 100, plus 1/128 of the
 * prediction), CULVERT_WAIT_HISTORY=0 (no predictions). */
#ifndef CV_CORE_WAIT_H
#define CV_CORE_WAIT_H

#include "util/cl_headers.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct cvcu_device;
struct cvcu_event;
struct cvcu_stream;

/* What besides the GPU may hold the work of a wait up (cv_wait.opened_by). */
enum {
    CV_WAIT_GATED = 1, /* a gate: user event or host value wait (cuStreamWaitValue64) */
    CV_WAIT_CROSS = 2, /* a wait for an event of another stream (cuStreamWaitEvent) */
};

typedef struct cv_wait {
    /* What the caller fills in. */
    const _Atomic uint64_t *flag; /* the GPU writes token or more here once the work is done;
                                   * NULL: no flag, the driver is asked */
    uint64_t token;
    struct cvcu_event *event;   /* asked (failures, completion without a flag); NULL: stream */
    struct cvcu_stream *stream; /* asked where event is NULL */
    struct cvcu_device *dev;    /* bound by the caller; the polling thread binds it */
    uint64_t key;               /* the kernel the work ends with, for the history; 0: none */
    uint64_t origin_ns;         /* when that kernel was enqueued (cvu_wait_time_ns; 0: unknown): the
                                 * history's durations count from there */
    unsigned opened_by;         /* CV_WAIT_GATED | CV_WAIT_CROSS */
    uint64_t releases[2];       /* cv_wait_releases before those were enqueued */
    uint64_t spin_ns;           /* the first spin, where longer than the default (transfers: then no
                                 * prediction) */
    /* The engine's, while the wait sleeps (under its lock unless atomic). */
    _Atomic uint32_t word;  /* the futex word: changes whenever the wait is woken */
    _Atomic cl_int outcome; /* what the polling thread's query answered, CL_SUBMITTED until */
    _Atomic bool kicked;    /* released through culvert: spin again */
    unsigned pins;          /* the polling thread asks the driver for it, unlocked */
    uint64_t since_ns, asked_ns;
    bool exact;           /* the spin that ended the wait saw the work pending just before */
    bool short_predicted; /* the spin after a predicted end ended with the work still pending */
    uint64_t woke_ns;     /* when a sleep until a predicted end woke (0: none), for the log */
    struct cv_wait *prev, *next;
} cv_wait;

/* Waits until the work is done: CL_COMPLETE, or the error a query answered. The caller has bound
 * w->dev. */
cl_int cv_wait_run(cv_wait *w);

/* Sleeping waits that a release may end (opened_by not 0), and the releases so far by kind
 * ([0]: CV_WAIT_GATED, [1]: CV_WAIT_CROSS): a wait that goes to sleep after a release that came
 * since its gates were enqueued spins again, as if woken, so no wake-up is lost to a release
 * that came before the wait listened. */
extern _Atomic unsigned cv_wait_listening;
extern _Atomic uint64_t cv_wait_releases[2];
void cv_wait_wake(unsigned what);

/* A device was lost (the backend's fault handler: any thread, possibly under the backend's
 * locks; this takes only the waits' own lock): its sleeping waits spin again, and end with the
 * error at their next look, whether or not a release or the polling thread would come. */
void cv_wait_fault(void);

/* Something that may hold waits up was released through culvert: what is CV_WAIT_GATED (a user
 * event's status was set, a host value stored) or CV_WAIT_CROSS (culvert saw a command
 * complete). Costs an atomic add and a load while no such wait sleeps; call after the store
 * that releases. */
static inline void cv_wait_release(unsigned what) {
    atomic_fetch_add(&cv_wait_releases[what == CV_WAIT_GATED ? 0 : 1], 1);
    if (atomic_load(&cv_wait_listening))
        cv_wait_wake(what);
}

/* Is this kernel's enqueue time worth reading (cv_wait.origin_ns)? Not where the history knows
 * its waits end within the first spin. */
bool cv_wait_wants_origin(uint64_t key);

/* A key for the history of a transfer's duration: its kind and size. */
static inline uint64_t cv_wait_transfer_key(cl_command_type type, size_t bytes) {
    return ((uint64_t)type << 48) ^ (uint64_t)bytes ^ 1;
}

#endif
