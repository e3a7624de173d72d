/* The deadlock aid of cl_culvert_host_value. A wait that nothing ever signals blocks its queue
 * for good, and with it clFinish: the application just hangs. When logging is on, a background
 * thread watches every wait and logs a warning once one has stayed unmet for
 * CULVERT_HOST_VALUE_WARN_MS (default 5000 ms), naming the queue, the host value, the condition
 * and the value the slot holds. The thread exists only while waits are watched. */
#include "core/host_value.h"
#include "util/log.h"
#include "core/platform.h"
#include "core/backend.h"
#include "util/clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define CV_WATCH_DEFAULT_MS 5000

typedef struct cv_watched {
    cl_command_queue queue; /* held */
    cl_mem hv;              /* held */
    cl_ulong value;
    cvcu_wait_condition cond;
    cl_ulong since_ns;
    bool warned;
    struct cv_watched *next;
} cv_watched;

static pthread_once_t cv_watch_once = PTHREAD_ONCE_INIT;
static cl_ulong cv_watch_warn_ns; /* 0: off */
static pthread_mutex_t cv_watch_lock = PTHREAD_MUTEX_INITIALIZER;
static cv_watched *cv_watch_list;
static bool cv_watch_running;

static void cv_watch_init(void) {
    unsigned long long ms = CV_WATCH_DEFAULT_MS;
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
    cv_watch_warn_ns = (cl_ulong)ms * 1000000u;
}

static const char *cv_watch_condition_name(cvcu_wait_condition c) {
    static const char *const names[] = {"GEQ", "EQ", "AND", "NOR"};
    return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

/* The wait is over when the slot meets the condition (the GPU will pass it), or when the queue
 * has nothing left to do (it passed a condition that held only for a moment). */
static bool cv_watch_over(const cv_watched *w) {
    bool over = cvcu_wait_condition_met(cv_host_value_load(w->hv), w->value, w->cond);
    if (!over && cvcu_device_bind(w->queue->device->cu) == CL_SUCCESS)
        over = cvcu_stream_query(w->queue->stream) != CL_SUBMITTED;
    return over;
}

static void cv_watch_report(cv_watched *w, cl_ulong now, bool over) {
    double s = (double)(now - w->since_ns) / 1e9;
    if (over && w->warned)
        cvu_log(CVU_LOG_ERROR, "host value %p: the wait on queue %p is over after %.1f s",
                (void *)w->hv, (void *)w->queue, s);
    else if (!over && !w->warned && now - w->since_ns >= cv_watch_warn_ns) {
        w->warned = true;
        cvu_log(CVU_LOG_ERROR,
                "warning: queue %p has waited %.1f s for host value %p (%s %llu; it holds %llu): "
                "clFinish and waits for this queue's later commands block until clSignalHostValue "
                "or clEnqueueWriteHostValue meets the condition",
                (void *)w->queue, s, (void *)w->hv, cv_watch_condition_name(w->cond),
                (unsigned long long)w->value, (unsigned long long)cv_host_value_load(w->hv));
    }
}

static void cv_watch_drop(cv_watched *w) {
    while (w) {
        cv_watched *next = w->next;
        /* May destroy them: done outside the lock (a queue's destruction waits for its stream). */
        cv_unhold(&w->hv->obj);
        cv_unhold(&w->queue->obj);
        free(w);
        w = next;
    }
}

static void *cv_watch_thread(void *arg) {
    (void)arg;
    cl_ulong period_ns = cv_watch_warn_ns / 4;
    if (period_ns > 250000000u)
        period_ns = 250000000u;
    if (period_ns < 1000000u)
        period_ns = 1000000u;
    bool running = true;
    while (running) {
        cv_watched *done = NULL;
        pthread_mutex_lock(&cv_watch_lock);
        cl_ulong now = cvu_host_time_ns();
        for (cv_watched **p = &cv_watch_list; *p;) {
            cv_watched *w = *p;
            bool over = cv_watch_over(w);
            cv_watch_report(w, now, over);
            if (over) {
                *p = w->next;
                w->next = done;
                done = w;
            } else {
                p = &w->next;
            }
        }
        running = cv_watch_list != NULL;
        cv_watch_running = running;
        pthread_mutex_unlock(&cv_watch_lock);
        cv_watch_drop(done);
        if (running)
            nanosleep(&(struct timespec){.tv_sec = (time_t)(period_ns / 1000000000u),
                                         .tv_nsec = (long)(period_ns % 1000000000u)},
                      NULL);
    }
    return NULL;
}

void cv_host_value_watch(cl_command_queue q, cl_mem hv, cl_ulong value, cvcu_wait_condition cond) {
    if (cvu_log_threshold < CVU_LOG_ERROR)
        return;
    pthread_once(&cv_watch_once, cv_watch_init);
    cv_watched *w = cv_watch_warn_ns ? calloc(1, sizeof *w) : NULL;
    if (!w)
        return;
    w->queue = q;
    w->hv = hv;
    w->value = value;
    w->cond = cond;
    w->since_ns = cvu_host_time_ns();
    cv_hold(&q->obj);
    cv_hold(&hv->obj);
    bool watched = true;
    pthread_mutex_lock(&cv_watch_lock);
    w->next = cv_watch_list;
    cv_watch_list = w;
    if (!cv_watch_running) {
        /* The list was empty: the thread ended (or never ran). */
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        watched = pthread_create(&t, &attr, cv_watch_thread, NULL) == 0;
        pthread_attr_destroy(&attr);
        cv_watch_running = watched;
        if (!watched)
            cv_watch_list = NULL;
    }
    pthread_mutex_unlock(&cv_watch_lock);
    if (!watched) {
        cvu_log(CVU_LOG_ERROR, "host value waits are not watched: cannot start a thread");
        w->next = NULL;
        cv_watch_drop(w);
    }
}
