#include "core/tracker.h"
#include "util/log.h"
#include "util/thread.h"
#include "core/backend.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#define CV_TRACKER_MIN_SLEEP_NS 5000
#define CV_TRACKER_MAX_SLEEP_NS 500000
#define CV_TRACKER_MAX_STREAMS  64
/* Commands nobody waits on through a callback only have holds to drop: a pass every
 * millisecond is soon enough for that, and enqueues need not wake the thread (a futex wake per
 * command, and passes that compete with the application's own waits for the driver, cost more
 * than the command itself on a round trip). */
#define CV_TRACKER_LAZY_NS 1000000

typedef struct cv_note {
    cl_event event;
    struct cv_note *next;
} cv_note;

static pthread_once_t cv_tracker_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t cv_tracker_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_tracker_cond;
static pthread_t cv_tracker_thread;
static bool cv_tracker_running, cv_tracker_stop, cv_tracker_exited;
/* deep: asleep without a deadline (a track wakes it); hurry: a callback wants a pass soon. */
static bool cv_tracker_deep, cv_tracker_hurry;
static cl_event cv_pending_head, cv_pending_tail; /* outstanding commands, oldest first */
static bool cv_tracker_faults;  /* a device was lost: the contexts on it are to be told */
static bool cv_tracker_passing; /* a pass has the outstanding commands or notes (for the logs) */
static _Thread_local bool cv_tracker_self; /* set on the tracker's thread */
static cv_note *cv_notes_head, **cv_notes_tail = &cv_notes_head;

static void cv_tracker_fire_notes(cv_note *n) {
    while (n) {
        cv_note *next = n->next;
        cv_event_fire_callbacks(n->event);
        cv_unhold(&n->event->obj);
        free(n);
        n = next;
    }
}

static bool cv_tracker_has_callbacks(cl_event e) {
    pthread_mutex_lock(&e->lock);
    bool has = e->callbacks != NULL;
    pthread_mutex_unlock(&e->lock);
    return has;
}

/* What a pass knows of one stream: its newest command in the list completed (so did every
 * older one: a stream runs in order), or the commands are queried oldest first until one is
 * still running (the later ones are not queried). */
typedef enum { CV_STREAM_DONE, CV_STREAM_OPEN, CV_STREAM_BLOCKED } cv_stream_state;

typedef struct cv_stream_seen {
    cvcu_stream *stream;
    cl_event newest;
    cv_stream_state state;
} cv_stream_seen;

static cv_stream_seen *cv_tracker_find(cv_stream_seen *seen, int n, const cvcu_stream *s) {
    for (int i = 0; i < n; i++)
        if (seen[i].stream == s)
            return &seen[i];
    return NULL;
}

/* One query per stream for the common case, every tracked command complete. */
static int cv_tracker_streams(cl_event list, cv_stream_seen *seen) {
    int n = 0;
    for (cl_event e = list; e; e = e->tracker_next) {
        cv_stream_seen *s = cv_tracker_find(seen, n, e->stream);
        if (!s && n < CV_TRACKER_MAX_STREAMS)
            s = &seen[n++];
        if (s) {
            s->stream = e->stream;
            s->newest = e;
        }
    }
    for (int i = 0; i < n; i++)
        seen[i].state =
            cv_event_status(seen[i].newest) == CL_COMPLETE ? CV_STREAM_DONE : CV_STREAM_OPEN;
    return n;
}

/* One pass over the outstanding commands (oldest first, a stream's commands in stream order).
 * Returns the ones left. */
static cl_event cv_tracker_poll(cl_event list, cl_event *tail_out, bool *progress, bool *urgent) {
    cv_stream_seen seen[CV_TRACKER_MAX_STREAMS];
    int num_seen = cv_tracker_streams(list, seen);
    cl_event head = NULL, tail = NULL;
    while (list) {
        cl_event e = list;
        list = e->tracker_next;
        e->tracker_next = NULL;
        cv_stream_seen *s = cv_tracker_find(seen, num_seen, e->stream);
        cl_int status = !s || s->state == CV_STREAM_OPEN ? cv_event_status(e)
                        : s->state == CV_STREAM_DONE     ? cv_event_status_after(e, CL_COMPLETE)
                                                         : CL_SUBMITTED;
        if (status <= CL_COMPLETE) {
            cv_event_complete(e);
            cv_unhold(&e->obj);
            *progress = true;
            continue;
        }
        if (s)
            s->state = CV_STREAM_BLOCKED;
        *urgent = *urgent || cv_tracker_has_callbacks(e);
        if (tail)
            tail->tracker_next = e;
        else
            head = e;
        tail = e;
    }
    *tail_out = tail;
    return head;
}

static void cv_tracker_sleep(unsigned long ns) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)ns;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&cv_tracker_cond, &cv_tracker_lock, &ts);
}

/* Passes come every few microseconds (backing off to 0.5 ms) while a command left has a
 * callback, every CV_TRACKER_LAZY_NS otherwise. With nothing left the thread sleeps one more
 * lazy period, in which new commands join without a wake, and then without a deadline. */
static void *cv_tracker_main(void *arg) {
    (void)arg;
    cv_tracker_self = true;
    unsigned long sleep_ns = CV_TRACKER_MIN_SLEEP_NS;
    bool idle = false;
    pthread_mutex_lock(&cv_tracker_lock);
    while (!cv_tracker_stop) {
        if (cv_tracker_faults) {
            cv_tracker_faults = false;
            pthread_mutex_unlock(&cv_tracker_lock);
            cv_contexts_report_faults();
            pthread_mutex_lock(&cv_tracker_lock);
            continue;
        }
        if (!cv_pending_head && !cv_notes_head) {
            if (idle) {
                cv_tracker_deep = true;
                pthread_cond_wait(&cv_tracker_cond, &cv_tracker_lock);
                cv_tracker_deep = false;
                idle = false;
            } else {
                idle = true;
                cv_tracker_sleep(CV_TRACKER_LAZY_NS);
            }
            sleep_ns = CV_TRACKER_MIN_SLEEP_NS;
            continue;
        }
        idle = false;
        cv_tracker_hurry = false;
        cv_note *notes = cv_notes_head;
        cv_notes_head = NULL;
        cv_notes_tail = &cv_notes_head;
        cl_event list = cv_pending_head;
        cv_pending_head = cv_pending_tail = NULL;
        cv_tracker_passing = list || notes;
        pthread_mutex_unlock(&cv_tracker_lock);

        bool progress = notes != NULL, urgent = false;
        cv_tracker_fire_notes(notes);
        cl_event tail = NULL;
        cl_event left = cv_tracker_poll(list, &tail, &progress, &urgent);

        pthread_mutex_lock(&cv_tracker_lock);
        cv_tracker_passing = false;
        /* What is left goes before what arrived meanwhile: the list stays oldest first. */
        if (left) {
            tail->tracker_next = cv_pending_head;
            if (!cv_pending_head)
                cv_pending_tail = tail;
            cv_pending_head = left;
        }
        if (urgent || cv_tracker_hurry)
            sleep_ns = progress ? CV_TRACKER_MIN_SLEEP_NS
                                : (sleep_ns * 2 > CV_TRACKER_MAX_SLEEP_NS ? CV_TRACKER_MAX_SLEEP_NS
                                                                          : sleep_ns * 2);
        else
            sleep_ns = CV_TRACKER_LAZY_NS;
        if (cv_pending_head && !cv_notes_head && !cv_tracker_hurry && !cv_tracker_faults &&
            !cv_tracker_stop)
            cv_tracker_sleep(sleep_ns);
    }
    cv_tracker_exited = true;
    pthread_cond_broadcast(&cv_tracker_cond);
    pthread_mutex_unlock(&cv_tracker_lock);
    return NULL;
}

/* Process exit: the thread stops between two passes and is joined, so no CUDA call of it can
 * run after this. Commands still in flight are left as they are (their objects leak with the
 * process); nothing waits for the GPU. The gates of user events never set are opened, so that the
 * driver's own teardown finds no stream blocked forever. */
static void cv_tracker_shutdown(void) {
    cvu_log(CVU_LOG_INFO, "process exit: stopping the tracker");
    pthread_mutex_lock(&cv_tracker_lock);
    cv_tracker_stop = true;
    bool self = cv_tracker_running && pthread_equal(pthread_self(), cv_tracker_thread);
    pthread_cond_broadcast(&cv_tracker_cond);
    /* A pass ends within microseconds; a thread that does not come back within a second is stuck
     * (in a callback, or in a driver that is being torn down): exit goes on without it. */
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += 1;
    while (cv_tracker_running && !self && !cv_tracker_exited &&
           pthread_cond_timedwait(&cv_tracker_cond, &cv_tracker_lock, &until) != ETIMEDOUT)
        ;
    bool join = cv_tracker_running && !self && cv_tracker_exited;
    pthread_mutex_unlock(&cv_tracker_lock);
    if (join)
        pthread_join(cv_tracker_thread, NULL);
    cvu_log(CVU_LOG_INFO, "process exit: tracker %s", join ? "stopped" : "left running");
    /* A stream gated forever on a user event would hold up the driver's teardown. */
    cv_user_events_open_gates();
}

static void cv_tracker_start(void) {
    cvu_cond_init_monotonic(&cv_tracker_cond);
    /* Registered after cuInit (a command exists, so CUDA is up): runs before libcuda's own
     * exit handlers, which were registered earlier. */
    atexit(cv_tracker_shutdown);
    cv_tracker_running = pthread_create(&cv_tracker_thread, NULL, cv_tracker_main, NULL) == 0;
    if (!cv_tracker_running)
        cvu_log(CVU_LOG_ERROR, "culvert: cannot start the tracker thread: events advance only "
                               "when waited on");
}

void cv_tracker_track(cl_event e) {
    pthread_once(&cv_tracker_once, cv_tracker_start);
    cv_hold(&e->obj);
    pthread_mutex_lock(&cv_tracker_lock);
    bool add = cv_tracker_running && !cv_tracker_stop;
    if (add) {
        e->tracker_next = NULL;
        if (cv_pending_tail)
            cv_pending_tail->tracker_next = e;
        else
            cv_pending_head = e;
        cv_pending_tail = e;
        /* Asleep without a deadline: wake it; otherwise its next pass finds e. */
        if (cv_tracker_deep)
            pthread_cond_signal(&cv_tracker_cond);
    }
    pthread_mutex_unlock(&cv_tracker_lock);
    if (!add)
        cv_unhold(&e->obj);
}

/* How many commands before e a release looks at (a batch or two of event-less commands, or
 * events released out of order): the walk is under the tracker's lock. */
#define CV_TRACKER_TAKE_MAX 16

cl_event cv_tracker_take_done(cl_event e) {
    pthread_mutex_lock(&cv_tracker_lock);
    cl_event h = cv_pending_head;
    int n = 0;
    /* Event locks are taken under the tracker's (never the other way round). */
    while (h && h != e && n++ < CV_TRACKER_TAKE_MAX && cv_event_done_unreferenced(h))
        h = h->tracker_next;
    cl_event taken = NULL;
    if (h == e) {
        taken = cv_pending_head;
        cv_pending_head = e->tracker_next;
        if (!cv_pending_head)
            cv_pending_tail = NULL;
        e->tracker_next = NULL;
    }
    pthread_mutex_unlock(&cv_tracker_lock);
    return taken;
}

void cv_tracker_finish_taken(cl_event list) {
    while (list) {
        cl_event e = list;
        list = e->tracker_next;
        e->tracker_next = NULL;
        cv_event_complete(e);
        cv_unhold(&e->obj);
    }
}

/* Sets one of the thread's requests (a flag its next pass serves) and wakes it. */
static void cv_tracker_request(bool *flag) {
    pthread_once(&cv_tracker_once, cv_tracker_start);
    pthread_mutex_lock(&cv_tracker_lock);
    *flag = true;
    pthread_cond_signal(&cv_tracker_cond);
    pthread_mutex_unlock(&cv_tracker_lock);
}

void cv_tracker_hurry_up(void) {
    cv_tracker_request(&cv_tracker_hurry);
}

void cv_tracker_fault(void) {
    cv_tracker_request(&cv_tracker_faults);
}

void cv_tracker_notify(cl_event e) {
    pthread_once(&cv_tracker_once, cv_tracker_start);
    cv_note *n = malloc(sizeof *n);
    if (!n)
        return;
    cv_hold(&e->obj);
    n->event = e;
    n->next = NULL;
    pthread_mutex_lock(&cv_tracker_lock);
    bool add = cv_tracker_running && !cv_tracker_stop;
    if (add) {
        *cv_notes_tail = n;
        cv_notes_tail = &n->next;
        pthread_cond_signal(&cv_tracker_cond);
    }
    pthread_mutex_unlock(&cv_tracker_lock);
    if (!add) {
        cv_unhold(&e->obj);
        free(n);
    }
}

bool cv_tracker_on_thread(void) {
    return cv_tracker_self;
}

unsigned cv_tracker_holds(cl_context ctx, bool *passing) {
    unsigned n = 0;
    pthread_mutex_lock(&cv_tracker_lock);
    for (cl_event e = cv_pending_head; e; e = e->tracker_next)
        n += e->context == ctx;
    for (cv_note *note = cv_notes_head; note; note = note->next)
        n += note->event->context == ctx;
    *passing = cv_tracker_passing;
    pthread_mutex_unlock(&cv_tracker_lock);
    return n;
}
