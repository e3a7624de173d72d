/* Background threads that nothing joins (the reaper, the copy helpers, the gates' watch). */
#ifndef CVU_THREAD_H
#define CVU_THREAD_H

#include <stdbool.h>

/* Starts fn(arg) on a detached thread; false when no thread could be started. */
bool cvu_thread_start(void *(*fn)(void *), void *arg);

#endif
