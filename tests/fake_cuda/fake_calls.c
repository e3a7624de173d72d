/* The fake's state (fake_cuda.h) and its accessor, the call counting of the thread between
 * calls_begin and calls_end, and the answer of the functions the fake does not implement. */
#include "fake_internal.h"

#include <stdio.h>
#include <string.h>

static void calls_begin(void);
static void calls_end(void);
static unsigned long calls(const char *name);

fakecuda_state fake_state = {
    .query_answer = FAKECUDA_TRUTH,
    .calls_begin = calls_begin,
    .calls_end = calls_end,
    .calls = calls,
    .jit_max_registers = -1,
    .jit_opt_level = -1,
    .jit_target = -1,
    .jit_verbose = -1,
};

#pragma GCC visibility push(default)
fakecuda_state *fakecuda_get_state(void);
fakecuda_state *fakecuda_get_state(void) {
    return &fake_state;
}
#pragma GCC visibility pop

/* Only a counting thread writes the table; a test counts on one thread. */
#define MAX_NAMES 128
static struct {
    char name[48];
    unsigned long n;
} counts[MAX_NAMES];
static unsigned num_counts;
static __thread bool counting;

/* __func__ of a versioned entry point (cuMemAlloc_v2) counts as culvert names it (cuMemAlloc). */
static size_t unversioned_length(const char *name) {
    size_t n = strlen(name);
    const char *v = strrchr(name, '_');
    if (v && v[1] == 'v' && v[2] >= '0' && v[2] <= '9' &&
        strspn(v + 2, "0123456789") == strlen(v + 2))
        n = (size_t)(v - name);
    return n;
}

__thread const char *fake_call_name;

void fake_count(const char *name) {
    fake_call_name = name;
    if (!counting)
        return;
    size_t len = unversioned_length(name);
    unsigned i = 0;
    while (i < num_counts && (strlen(counts[i].name) != len || strncmp(counts[i].name, name, len)))
        i++;
    if (i == num_counts && num_counts < MAX_NAMES && len < sizeof counts[i].name)
        snprintf(counts[num_counts++].name, sizeof counts[i].name, "%.*s", (int)len, name);
    if (i < num_counts)
        counts[i].n++;
}

static void calls_begin(void) {
    for (unsigned i = 0; i < num_counts; i++)
        counts[i].n = 0;
    counting = true;
}

static void calls_end(void) {
    counting = false;
}

bool fake_counting(void) {
    return counting;
}

static unsigned long calls(const char *name) {
    unsigned long n = 0;
    for (unsigned i = 0; i < num_counts; i++)
        if (!name || strcmp(counts[i].name, name) == 0)
            n += counts[i].n;
    return n;
}

void fake_note_wait_value(CUstream s, CUdeviceptr addr, uint64_t value) {
    if (!counting) /* the test's thread: culvert's tracker makes none of these */
        return;
    fake_state.wait_value_addr = addr;
    fake_state.wait_value = value;
    fake_state.wait_value_stream = s;
}

void fake_note_wait_event(CUstream s, CUevent e) {
    if (!counting)
        return;
    fake_state.wait_event_stream = s;
    fake_state.wait_event = e;
}

/* One log line per function, so a test's output shows what culvert asked for in vain. */
CUresult fake_unsupported(const char *name) {
    static pthread_mutex_t logged_lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *logged[MAX_NAMES];
    static unsigned num_logged;
    fake_count(name);
    pthread_mutex_lock(&logged_lock);
    unsigned i = 0;
    while (i < num_logged && strcmp(logged[i], name) != 0)
        i++;
    if (i == num_logged && num_logged < MAX_NAMES) {
        logged[num_logged++] = name;
        fprintf(stderr, "fake libcuda: %s is not implemented: CUDA_ERROR_NOT_SUPPORTED\n", name);
    }
    pthread_mutex_unlock(&logged_lock);
    return CUDA_ERROR_NOT_SUPPORTED;
}
