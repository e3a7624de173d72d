#include "util/thread.h"

#include <pthread.h>
#include <time.h>

bool cvu_thread_start(void *(*fn)(void *), void *arg) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    bool started = pthread_create(&t, &attr, fn, arg) == 0;
    pthread_attr_destroy(&attr);
    return started;
}

void cvu_cond_init_monotonic(pthread_cond_t *c) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(c, &attr);
    pthread_condattr_destroy(&attr);
}
