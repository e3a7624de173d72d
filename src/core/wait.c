#include "core/wait.h"
#include "core/backend.h"
#include "util/clock.h"
#include "util/futex.h"
#include "util/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sched.h>
#include <time.h>

/* The first spin: short commands end within it at the driver's speed, long ones cost no CPU
 * after it. Measured on the H100 (gVisor): a sleeping wait woke 40-100 us after the GPU was done,
 * so with 30 us clFinish after a 256 MiB device copy (~180 us) ran at 0.81x of
 * cuStreamSynchronize, with 300 us at 0.99x. 300 us is 0.3 % of a core on a 100 ms wait. */
#define CV_WAIT_SPIN_NS 300000
/* A wait predicted to be long spins this long first (a prediction can be wrong). */
#define CV_WAIT_SHORT_SPIN_NS 20000
/* How often a spin that watches a flag asks the driver as well: a command that fails never
 * writes its flag, and the error shows only in a query. */
#define CV_WAIT_QUERY_NS 20000
/* The polling thread asks the driver this often for a sleeping wait that has a flag. */
#define CV_WAIT_FAIL_QUERY_NS 1000000
/* The polling thread's period: a sixteenth of the youngest sleeping wait's age (a wait is late
 * by at most ~6 % of its length), between these. Each pass costs a timed sleep and a wake-up
 * (7-16 us of CPU: 3.5 % of a core at 200 us on the H100 under gVisor, 8 % on a loaded test
 * machine), so long waits are looked at once a millisecond. */
#define CV_WAIT_POLL_MIN_NS 20000
#define CV_WAIT_POLL_MAX_NS 1000000
/* How long before a predicted end a sleeping wait wakes to spin (plus 1/128 of the prediction),
 * and how long past it it spins (a first spin, or 1/64 of the prediction where longer). */
#define CV_WAIT_MARGIN_NS 100000
/* Where no polling thread could start, a sleeping wait looks for itself as often as the thread
 * would; without one by choice (CULVERT_WAIT_POLL_US=0, a testing aid) only once released, or
 * once past its predicted end (a prediction too short: no release is to come). */
#define CV_WAIT_ALONE_NS          200000
#define CV_WAIT_ALONE_RELEASED_NS 100000
/* The timer slack of the polling thread and of a wait that sleeps until a predicted end: the
 * default 50 us would make every timed sleep that much late. */
#define CV_WAIT_SLACK_NS 1000

/* --- knobs ------------------------------------------------------------------------------------ */

static struct {
    uint64_t spin_ns, poll_max_ns, margin_ns;
    bool poller, history;
} cv_wait_cfg;
static pthread_once_t cv_wait_cfg_once = PTHREAD_ONCE_INIT;

static uint64_t cv_wait_env_us(const char *name, uint64_t def_ns) {
    const char *v = getenv(name);
    char *end = NULL;
    unsigned long long us = v && *v ? strtoull(v, &end, 10) : 0;
    if (v && *v && *end == '\0')
        return (uint64_t)us * 1000u;
    if (v && *v)
        cvu_log(CVU_LOG_ERROR, "%s=%s is not a number of microseconds", name, v);
    return def_ns;
}

static void cv_wait_cfg_read(void) {
    cv_wait_cfg.spin_ns = cv_wait_env_us("CULVERT_WAIT_SPIN_US", CV_WAIT_SPIN_NS);
    cv_wait_cfg.poll_max_ns = cv_wait_env_us("CULVERT_WAIT_POLL_US", CV_WAIT_POLL_MAX_NS);
    cv_wait_cfg.margin_ns = cv_wait_env_us("CULVERT_WAIT_MARGIN_US", CV_WAIT_MARGIN_NS);
    cv_wait_cfg.poller = cv_wait_cfg.poll_max_ns != 0;
    if (cv_wait_cfg.poll_max_ns < CV_WAIT_POLL_MIN_NS)
        cv_wait_cfg.poll_max_ns = CV_WAIT_POLL_MIN_NS;
    const char *h = getenv("CULVERT_WAIT_HISTORY");
    cv_wait_cfg.history = !(h && h[0] == '0');
}

/* --- the history: how long waits behind a kernel lasted ------------------------------------- */

/* Direct-mapped by key; a collision or a race between two updates only makes a prediction wrong,
 * which costs a spin (too early) or a wake by the polling thread (too late). */
#define CV_WAIT_HISTORY 256

static struct { _Atomic uint64_t key, ns; } cv_wait_history[CV_WAIT_HISTORY];

static unsigned cv_wait_history_slot(uint64_t key) {
    return (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 56) % CV_WAIT_HISTORY;
}

/* The predicted duration of a wait behind key, where it is longer than the first spin. */
static uint64_t cv_wait_predict(uint64_t key) {
    if (!key || !cv_wait_cfg.history)
        return 0;
    unsigned i = cv_wait_history_slot(key);
    uint64_t ns = atomic_load_explicit(&cv_wait_history[i].ns, memory_order_relaxed);
    bool ours = atomic_load_explicit(&cv_wait_history[i].key, memory_order_relaxed) == key;
    return ours && ns > cv_wait_cfg.spin_ns ? ns : 0;
}

bool cv_wait_wants_origin(uint64_t key) {
    pthread_once(&cv_wait_cfg_once, cv_wait_cfg_read);
    if (!key || !cv_wait_cfg.history)
        return false;
    unsigned i = cv_wait_history_slot(key);
    uint64_t ns = atomic_load_explicit(&cv_wait_history[i].ns, memory_order_relaxed);
    bool ours = atomic_load_explicit(&cv_wait_history[i].key, memory_order_relaxed) == key;
    return !ours || ns > cv_wait_cfg.spin_ns;
}

/* The polling thread's period for a wait of this age, and how long before a predicted end of
 * this length a wait wakes. */
static uint64_t cv_wait_period(uint64_t age) {
    uint64_t p = age / 16;
    return p < CV_WAIT_POLL_MIN_NS       ? CV_WAIT_POLL_MIN_NS
           : p > cv_wait_cfg.poll_max_ns ? cv_wait_cfg.poll_max_ns
                                         : p;
}

/* How late a timed sleep wakes on this host, learned from the waits that slept until a
 * predicted end (a bare host wakes within tens of microseconds; under gVisor, as on the H100
 * test machine, 100-250 us late): a late wake-up raises it at once by a quarter of the
 * difference, an early one lowers it by a sixteenth, so that it tracks the bad wake-ups more
 * than the good ones. Races between waits only blur it. */
static _Atomic uint64_t cv_wait_oversleep_ns;

static void cv_wait_oversleep_seen(uint64_t late) {
    uint64_t was = atomic_load_explicit(&cv_wait_oversleep_ns, memory_order_relaxed);
    uint64_t now = late > was ? was + (late - was) / 4 : was - (was - late) / 16;
    atomic_store_explicit(&cv_wait_oversleep_ns, now, memory_order_relaxed);
}

/* A predicted wait wakes this long before the end: the margin, 1/128 of the prediction, and
 * twice the timed sleeps' usual lateness, at most 1/8 of the prediction (a loaded host's
 * oversleep must not make long waits spin for long). */
static uint64_t cv_wait_margin(uint64_t predicted) {
    uint64_t oversleep = 2 * atomic_load_explicit(&cv_wait_oversleep_ns, memory_order_relaxed);
    return cv_wait_cfg.margin_ns + predicted / 128 +
           (oversleep < predicted / 8 ? oversleep : predicted / 8);
}

/* The work ended ns after its kernel's enqueue, seen by a wait that lasted age. exact: a spin saw
 * the end (the work pending a look before); otherwise the end came up to a polling period or a
 * margin before (a wake-up came late), so ns is taken that much shorter and only ever lowers a
 * prediction: a late prediction would otherwise teach itself. But where the spin after a
 * predicted end gave up with the work pending (short), the prediction was too short and the end
 * came later than it: ns, taken half a period shorter, replaces it (else a too short prediction
 * would stay, each wait then ended by the polling thread, late). A duration close to the last one
 * smooths it; a far one replaces it. */
static void cv_wait_learn(uint64_t key, uint64_t ns, uint64_t age, bool exact,
                          bool short_predicted) {
    if (!key || !cv_wait_cfg.history)
        return;
    if (!exact) {
        uint64_t p = cv_wait_period(age), m = cv_wait_margin(ns), early = p > m ? p : m;
        /* A short prediction: the end came within the polling period before ns; its middle
         * errs towards a longer prediction, which costs a spin, not a polling period. */
        early = short_predicted ? early / 2 : early;
        ns = ns > early ? ns - early : 0;
    }
    unsigned i = cv_wait_history_slot(key);
    uint64_t was = atomic_load_explicit(&cv_wait_history[i].ns, memory_order_relaxed);
    if (atomic_load_explicit(&cv_wait_history[i].key, memory_order_relaxed) == key &&
        ns >= was / 2 && ns <= was * 2)
        ns = exact ? (was + ns) / 2 : ns < was || short_predicted ? ns : was;
    atomic_store_explicit(&cv_wait_history[i].ns, ns, memory_order_relaxed);
    atomic_store_explicit(&cv_wait_history[i].key, key, memory_order_relaxed);
}

/* --- looking --------------------------------------------------------------------------------- */

static bool cv_wait_flag_met(const cv_wait *w) {
    return w->flag && cvcu_wait_condition_met(atomic_load_explicit(w->flag, memory_order_acquire),
                                              w->token, CVCU_WAIT_GEQ);
}

/* The driver's answer: CL_COMPLETE, CL_SUBMITTED or an error. The device is bound. On a lost
 * device nothing completes any more (core/backend.h): the wait ends with the error. */
static cl_int cv_wait_query(const cv_wait *w) {
    if (cvcu_device_lost(w->dev))
        return CL_OUT_OF_RESOURCES;
    return w->event ? cvcu_event_query(w->event) : cvcu_stream_query(w->stream);
}

/* Spins until the work is done or `until`: the flag every turn, the driver every turn without a
 * flag, every CV_WAIT_QUERY_NS with one. Looks at least once. w->exact: it ended the wait after
 * seeing the work pending. */
static cl_int cv_wait_spin(cv_wait *w, uint64_t until) {
    cl_int r = CL_SUBMITTED;
    uint64_t asked = cvu_wait_time_ns();
    w->exact = false;
    for (uint64_t t = asked; r == CL_SUBMITTED; t = cvu_wait_time_ns(), w->exact = true) {
        /* The GPU wrote the token: everything before it on the stream is done, with no driver
         * call. */
        if (cv_wait_flag_met(w))
            r = CL_COMPLETE;
        else if (!w->flag || t - asked >= CV_WAIT_QUERY_NS) {
            r = cv_wait_query(w);
            asked = t;
        }
        if (r == CL_SUBMITTED)
            r = atomic_load_explicit(&w->outcome, memory_order_acquire);
        if (t >= until)
            break;
    }
    return r;
}

/* --- sleeping waits and the polling thread ---------------------------------------------------- */

static pthread_mutex_t cv_wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_wait_unpinned = PTHREAD_COND_INITIALIZER;
static cv_wait *cv_wait_sleepers;
_Atomic unsigned cv_wait_listening;
_Atomic uint64_t cv_wait_releases[2];
/* The polling thread: runs (started once, on the first sleeping wait), idle (asleep on its word
 * without a deadline: no wait sleeps), stop (process exit). */
static pthread_t cv_poller_thread;
static bool cv_poller_started, cv_poller_running, cv_poller_idle, cv_poller_stop, cv_poller_exited;
static _Atomic uint32_t cv_poller_word;
static pthread_cond_t cv_poller_exit_cond = PTHREAD_COND_INITIALIZER;

/* Under the lock: the wait is over (r final) or released (r CL_SUBMITTED, kicked). */
static void cv_wait_wake_locked(cv_wait *w, cl_int r) {
    if (r != CL_SUBMITTED)
        atomic_store_explicit(&w->outcome, r, memory_order_release);
    else
        atomic_store_explicit(&w->kicked, true, memory_order_release);
    atomic_fetch_add_explicit(&w->word, 1, memory_order_release);
    cvu_futex_wake(&w->word);
}

static void cv_wait_kick_locked(unsigned what) {
    for (cv_wait *w = cv_wait_sleepers; w; w = w->next)
        if (w->opened_by & what)
            cv_wait_wake_locked(w, CL_SUBMITTED);
}

void cv_wait_wake(unsigned what) {
    pthread_mutex_lock(&cv_wait_lock);
    /* A completion may let a wait for another stream's event go on; a release of a gate may also
     * let waits behind other streams' work go on (their streams may be gated). */
    cv_wait_kick_locked(what & CV_WAIT_GATED ? CV_WAIT_GATED | CV_WAIT_CROSS : CV_WAIT_CROSS);
    pthread_mutex_unlock(&cv_wait_lock);
}

void cv_wait_fault(void) {
    pthread_mutex_lock(&cv_wait_lock);
    for (cv_wait *w = cv_wait_sleepers; w; w = w->next)
        if (cvcu_device_lost(w->dev))
            cv_wait_wake_locked(w, CL_SUBMITTED);
    pthread_mutex_unlock(&cv_wait_lock);
}

/* Process exit: the thread stops between two passes and is joined (it asks the driver, which
 * is torn down after this), or left if it does not come back within a second. */
static void cv_poller_shutdown(void) {
    pthread_mutex_lock(&cv_wait_lock);
    cv_poller_stop = true;
    atomic_fetch_add(&cv_poller_word, 1);
    cvu_futex_wake(&cv_poller_word);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    while (cv_poller_running && !cv_poller_exited &&
           pthread_cond_timedwait(&cv_poller_exit_cond, &cv_wait_lock, &until) != ETIMEDOUT)
        ;
    bool join = cv_poller_running && cv_poller_exited;
    pthread_mutex_unlock(&cv_wait_lock);
    if (join)
        pthread_join(cv_poller_thread, NULL);
}

#define CV_POLLER_BATCH 32

/* One pass, under the lock: waits whose flag is there are woken; those without a flag, and now and
 * then those with one, are picked (pinned) for a query, which runs unlocked. Returns the youngest
 * wait's age (since it began, spin included). */
static uint64_t cv_poller_look(uint64_t now, cv_wait **ask, int *n) {
    uint64_t youngest = UINT64_MAX;
    for (cv_wait *w = cv_wait_sleepers; w; w = w->next) {
        if (atomic_load_explicit(&w->outcome, memory_order_relaxed) != CL_SUBMITTED)
            continue;
        if (cv_wait_flag_met(w)) {
            cv_wait_wake_locked(w, CL_COMPLETE);
            continue;
        }
        if ((!w->flag || now - w->asked_ns >= CV_WAIT_FAIL_QUERY_NS) && *n < CV_POLLER_BATCH) {
            w->pins++;
            w->asked_ns = now;
            ask[(*n)++] = w;
        }
        if (now - w->since_ns < youngest)
            youngest = now - w->since_ns;
    }
    return youngest;
}

static void *cv_poller_main(void *arg) {
    (void)arg;
    cvu_timer_slack_set(CV_WAIT_SLACK_NS);
    pthread_mutex_lock(&cv_wait_lock);
    while (!cv_poller_stop) {
        uint32_t word = atomic_load(&cv_poller_word);
        if (!cv_wait_sleepers) {
            cv_poller_idle = true;
            pthread_mutex_unlock(&cv_wait_lock);
            cvu_futex_wait(&cv_poller_word, word, 0);
            pthread_mutex_lock(&cv_wait_lock);
            cv_poller_idle = false;
            continue;
        }
        cv_wait *ask[CV_POLLER_BATCH];
        cl_int answer[CV_POLLER_BATCH];
        int n = 0;
        uint64_t youngest = cv_poller_look(cvu_wait_time_ns(), ask, &n);
        pthread_mutex_unlock(&cv_wait_lock);
        /* A device that cannot be bound is lost: its waits end with the error. */
        for (int i = 0; i < n; i++) {
            cl_int bound = cvcu_device_bind(ask[i]->dev);
            answer[i] = bound == CL_SUCCESS ? cv_wait_query(ask[i]) : bound;
        }
        pthread_mutex_lock(&cv_wait_lock);
        /* A wait woken with CL_COMPLETE releases the waits for its stream's work on other
         * streams itself (cv_wait_run). */
        for (int i = 0; i < n; i++) {
            if (answer[i] != CL_SUBMITTED &&
                atomic_load_explicit(&ask[i]->outcome, memory_order_relaxed) == CL_SUBMITTED)
                cv_wait_wake_locked(ask[i], answer[i]);
            ask[i]->pins--;
        }
        if (n)
            pthread_cond_broadcast(&cv_wait_unpinned);
        uint64_t period = cv_wait_period(youngest == UINT64_MAX ? 0 : youngest);
        pthread_mutex_unlock(&cv_wait_lock);
        cvu_futex_wait(&cv_poller_word, word, period);
        pthread_mutex_lock(&cv_wait_lock);
    }
    cv_poller_exited = true;
    pthread_cond_broadcast(&cv_poller_exit_cond);
    pthread_mutex_unlock(&cv_wait_lock);
    return NULL;
}

/* Under the lock: the polling thread is started with the first sleeping wait (a device is open,
 * so the driver is up: the exit handler runs before the driver's own). */
static void cv_poller_need_locked(void) {
    if (!cv_wait_cfg.poller || cv_poller_stop)
        return;
    if (!cv_poller_started) {
        cv_poller_started = true;
        cv_poller_running = pthread_create(&cv_poller_thread, NULL, cv_poller_main, NULL) == 0;
        if (cv_poller_running) {
            pthread_setname_np(cv_poller_thread, "culvert-wait");
            atexit(cv_poller_shutdown);
        } else {
            cvu_log(CVU_LOG_ERROR, "culvert: cannot start the waits' polling thread: sleeping "
                                   "waits look for themselves");
        }
    } else if (cv_poller_idle) {
        atomic_fetch_add(&cv_poller_word, 1);
        cvu_futex_wake(&cv_poller_word);
    }
}

static void cv_wait_enter(cv_wait *w, uint64_t now) {
    w->asked_ns = now;
    pthread_mutex_lock(&cv_wait_lock);
    w->prev = NULL;
    w->next = cv_wait_sleepers;
    if (cv_wait_sleepers)
        cv_wait_sleepers->prev = w;
    cv_wait_sleepers = w;
    if (w->opened_by)
        atomic_fetch_add(&cv_wait_listening, 1);
    /* A release since what the wait listens for was enqueued, which found it not listening yet,
     * counts as a wake-up: either the releaser sees it listening, or it sees the release. */
    bool missed =
        (w->opened_by && atomic_load(&cv_wait_releases[0]) != w->releases[0]) ||
        ((w->opened_by & CV_WAIT_CROSS) && atomic_load(&cv_wait_releases[1]) != w->releases[1]);
    if (missed)
        atomic_store(&w->kicked, true);
    cv_poller_need_locked();
    pthread_mutex_unlock(&cv_wait_lock);
}

static void cv_wait_leave(cv_wait *w) {
    pthread_mutex_lock(&cv_wait_lock);
    while (w->pins)
        pthread_cond_wait(&cv_wait_unpinned, &cv_wait_lock);
    if (w->prev)
        w->prev->next = w->next;
    else
        cv_wait_sleepers = w->next;
    if (w->next)
        w->next->prev = w->prev;
    if (w->opened_by)
        atomic_fetch_sub(&cv_wait_listening, 1);
    pthread_mutex_unlock(&cv_wait_lock);
}

/* Sleeps until the polling thread or a release wakes the wait, or until wake_at (0: none), and
 * then spins: until late_until after wake_at, for a first spin's length after a release. */
static cl_int cv_wait_sleep(cv_wait *w, uint64_t wake_at, uint64_t late_until) {
    uint64_t now = cvu_wait_time_ns();
    bool predicted = wake_at != 0;
    cv_wait_enter(w, now);
    /* Without a polling thread the wait asks the driver itself, now and then; after a release
     * often. */
    bool alone = !cv_poller_running, released = false;
    uint64_t asked = now;
    unsigned long slack = 0;
    bool slack_set = false;
    cl_int r = CL_SUBMITTED;
    for (;;) {
        uint32_t seen = atomic_load_explicit(&w->word, memory_order_acquire);
        r = atomic_load_explicit(&w->outcome, memory_order_acquire);
        if (r == CL_SUBMITTED && cv_wait_flag_met(w))
            r = CL_COMPLETE;
        w->exact = false;
        now = cvu_wait_time_ns();
        /* Past a predicted end (wake_at cleared) with the work pending: no release is to come. */
        bool overdue = predicted && !wake_at;
        uint64_t look = !alone                ? 0
                        : released || overdue ? CV_WAIT_ALONE_RELEASED_NS
                        : cv_wait_cfg.poller  ? CV_WAIT_ALONE_NS
                                              : 0;
        if (r == CL_SUBMITTED && look && now - asked >= look) {
            r = cv_wait_query(w);
            asked = now;
        }
        if (r != CL_SUBMITTED)
            break;
        bool kicked = atomic_exchange_explicit(&w->kicked, false, memory_order_acq_rel);
        if (!kicked && wake_at && now >= wake_at) {
            cv_wait_oversleep_seen(now - wake_at);
            w->woke_ns = now;
        }
        if (kicked || (wake_at && now >= wake_at)) {
            r = cv_wait_spin(w, kicked ? now + cv_wait_cfg.spin_ns : late_until);
            released |= kicked;
            if (!kicked) {
                w->short_predicted = r == CL_SUBMITTED;
                wake_at = 0;
            }
            if (r != CL_SUBMITTED)
                break;
            continue;
        }
        uint64_t timeout = wake_at ? wake_at - now : 0;
        if (look && (!timeout || look < timeout))
            timeout = look;
        if (timeout && !slack_set) {
            slack = cvu_timer_slack_set(CV_WAIT_SLACK_NS);
            slack_set = true;
        }
        cvu_futex_wait(&w->word, seen, timeout);
    }
    cv_wait_leave(w);
    if (slack_set)
        cvu_timer_slack_set(slack);
    return r;
}

/* With no polling thread by choice (a testing aid), a wait that no release can end spins until
 * done, yielding the CPU between looks (the fake driver's streams are threads): only a lost
 * wake-up can then keep a wait asleep, and it keeps it asleep for good. */
static cl_int cv_wait_spin_yielding(cv_wait *w) {
    cl_int r = CL_SUBMITTED;
    for (uint64_t asked = 0; r == CL_SUBMITTED; sched_yield()) {
        uint64_t t = cvu_wait_time_ns();
        if (cv_wait_flag_met(w))
            r = CL_COMPLETE;
        else if (!w->flag || t - asked >= CV_WAIT_QUERY_NS) {
            r = cv_wait_query(w);
            asked = t;
        }
    }
    return r;
}

cl_int cv_wait_run(cv_wait *w) {
    pthread_once(&cv_wait_cfg_once, cv_wait_cfg_read);
    atomic_init(&w->word, 0);
    atomic_init(&w->outcome, CL_SUBMITTED);
    atomic_init(&w->kicked, false);
    w->pins = 0;
    w->short_predicted = false;
    w->woke_ns = 0;
    uint64_t t0 = cvu_wait_time_ns();
    w->since_ns = t0;
    /* The history counts from the kernel's enqueue, not from the wait's start: a wait that
     * begins late (the application did other work first, or waited before) predicts the same
     * end, and teaches the same length. */
    uint64_t origin = w->origin_ns && w->origin_ns <= t0 ? w->origin_ns : t0;
    /* A gated wait lasts as long as the application keeps the gate closed: its release wakes
     * it, no history predicts it. A long transfer spins as long as its bytes should take
     * (bandwidth): a sleep that woke late would cost it. */
    uint64_t spin = w->spin_ns > cv_wait_cfg.spin_ns ? w->spin_ns : cv_wait_cfg.spin_ns;
    uint64_t predicted = w->opened_by || spin > cv_wait_cfg.spin_ns ? 0 : cv_wait_predict(w->key);
    uint64_t margin = cv_wait_margin(predicted);
    /* An end predicted within the first spin (or past): the ordinary spin sees it. */
    if (predicted && origin + predicted <= t0 + cv_wait_cfg.spin_ns + margin)
        predicted = 0;
    cl_int r = cv_wait_spin(w, t0 + (predicted ? CV_WAIT_SHORT_SPIN_NS : spin));
    /* Only a wait that saw the work pending knows when it ended (within its looks): one that
     * found it done teaches nothing. */
    bool seen_pending = r == CL_SUBMITTED || w->exact;
    if (r == CL_SUBMITTED && !cv_wait_cfg.poller && !w->opened_by && !predicted)
        r = cv_wait_spin_yielding(w);
    if (r == CL_SUBMITTED) {
        uint64_t late = predicted / 64 > cv_wait_cfg.spin_ns ? predicted / 64 : cv_wait_cfg.spin_ns;
        r = predicted ? cv_wait_sleep(w, origin + predicted - margin, origin + predicted + late)
                      : cv_wait_sleep(w, 0, 0);
    }
    uint64_t end = cvu_wait_time_ns();
    /* The trade-offs of one wait, for measuring them on a machine (CULVERT_LOG=calls). */
    cvu_log(CVU_LOG_CALLS,
            "culvert: wait %.1f us from its start, %.1f from the kernel's enqueue (key %llx%s): "
            "predicted %.1f us, woke at %.1f us, margin %.1f us, oversleep %.1f us; ended by %s%s",
            (end - t0) / 1e3, (end - origin) / 1e3, (unsigned long long)w->key,
            w->opened_by ? ", gated" : "", predicted / 1e3,
            w->woke_ns ? (w->woke_ns - origin) / 1e3 : 0.0, margin / 1e3,
            atomic_load_explicit(&cv_wait_oversleep_ns, memory_order_relaxed) / 1e3,
            !seen_pending ? "the first look"
            : w->exact    ? "a spin"
                          : "a look after a sleep",
            w->short_predicted ? " (the prediction was short)" : "");
    if (r == CL_COMPLETE) {
        /* A wait teaches when it saw the kernel's end: it began within a spin of the enqueue,
         * or waited longer than a spin itself. A short wait that began late (a blocking read
         * right after clFinish, behind the same kernel) saw only its own work pending. Where the
         * enqueue's time is unknown (the history said short then, so none was taken) a short
         * wait may have begun late: it teaches nothing, else it would put "short" back after
         * each long wait, and the next enqueue would again take no time to predict from. */
        bool origin_known = w->origin_ns && w->origin_ns <= t0;
        bool teaches = seen_pending && ((origin_known && t0 - origin <= cv_wait_cfg.spin_ns) ||
                                        end - t0 > cv_wait_cfg.spin_ns);
        if (!w->opened_by && teaches)
            cv_wait_learn(w->key, end - origin, end - t0, w->exact, w->short_predicted);
        /* Waits for this stream's work on other streams may go on now. */
        cv_wait_release(CV_WAIT_CROSS);
    }
    return r;
}
