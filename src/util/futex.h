/* Sleeping and waking threads on a 32-bit word (Linux futexes, private to the process), and the
 * calling thread's timer slack. The host waits sleep on these (core/wait.c): a futex wake reaches
 * exactly the thread that waits, where a condition variable would also need a mutex. */
#ifndef CVU_FUTEX_H
#define CVU_FUTEX_H

#include <stdatomic.h>
#include <stdint.h>

/* Sleeps while *word holds `expected`, at most timeout_ns (0: no limit). Returns at once when the
 * word differs; may return early (a signal, a spurious wake): the caller looks again. */
void cvu_futex_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t timeout_ns);
/* Wakes the threads sleeping on word (all of them). */
void cvu_futex_wake(_Atomic uint32_t *word);

/* The calling thread's timer slack (how late the kernel may end its timed sleeps to batch
 * wake-ups; 50 us by default), in nanoseconds; set returns the previous value. */
unsigned long cvu_timer_slack_set(unsigned long ns);

#endif
