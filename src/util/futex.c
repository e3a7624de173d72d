#include "util/futex.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void cvu_futex_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t timeout_ns) {
    struct timespec ts = {(time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u)};
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, timeout_ns ? &ts : NULL,
            NULL, 0);
}

void cvu_futex_wake(_Atomic uint32_t *word) {
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

unsigned long cvu_timer_slack_set(unsigned long ns) {
    int was = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    if (was >= 0 && (unsigned long)was != ns)
        prctl(PR_SET_TIMERSLACK, ns, 0, 0, 0);
    return was >= 0 ? (unsigned long)was : ns;
}
