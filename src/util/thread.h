/* Background threads that nothing joins (the reaper, the copy helpers, the gates' watch), and
 * condition variables whose timed waits count on CLOCK_MONOTONIC. */
#ifndef CVU_THREAD_H
#define CVU_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/* Starts fn(arg) on a detached thread; false when no thread could be started. */
bool cvu_thread_start(void *(*fn)(void *), void *arg);
/* Initializes c for pthread_cond_timedwait deadlines on CLOCK_MONOTONIC (no jumps with the wall
 * clock). */
void cvu_cond_init_monotonic(pthread_cond_t *c);

#endif
