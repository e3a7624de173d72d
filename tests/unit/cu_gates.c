/* The gates' bookkeeping (src/cuda/cu_gates.c, compiled into this test) on the symbol table
 * culvert loads (src/cuda/cu_driver.c), from the fake driver of tests/fake_cuda: the conditions
 * of cuStreamWaitValue64 evaluated on the host (all four, GEQ's wrap-around), a gate closed while
 * its slot does not meet its condition, dropped once seen met or once its stream is idle,
 * forgotten with its slot or its stream, new gates held back while a device-wide call runs, and
 * the warning about watched gates that stay closed. The fake's streams run the waits; what their
 * queries answer is the test's (query_answer). */
#include "fake_cuda.h"
#include "test_util.h"

#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"
#include "util/log.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What cu_gates.c links against besides the symbol table: the error conversion. */
cl_int cvcu_error(CUresult r, cl_int fallback, const char *what) {
    (void)what;
    return r == CUDA_SUCCESS ? CL_SUCCESS : fallback;
}

static fakecuda_state *fake;
static CUcontext ctx;
static CUstream stream_a, stream_b;
/* Four slots in mapped pinned memory, as culvert's are; never freed (a free waits for every
 * stream, and some of the streams' waits are never met). */
static _Atomic uint64_t *words;
static CUdeviceptr words_device;

static cvcu_slot slot(int i) {
    return (cvcu_slot){&words[i], words_device + 8 * (cl_ulong)i};
}

/* A gate on one of the test's streams; watch NULL: not watched. */
static cl_int gate_enqueue(CUstream s, const cvcu_slot *slot, uint64_t value,
                           cvcu_wait_condition cond, const cvcu_wait_watch *watch) {
    return cvcu_stream_wait_value((cvcu_stream *)s, slot, value, cond, watch);
}

static void set(int i, uint64_t v) {
    atomic_store(&words[i], v);
}

static void test_conditions(void) {
    /* GEQ is cyclic: (int64_t)(slot - value) >= 0 */
    CHECK(cvcu_wait_condition_met(5, 5, CVCU_WAIT_GEQ));
    CHECK(cvcu_wait_condition_met(6, 5, CVCU_WAIT_GEQ));
    CHECK(!cvcu_wait_condition_met(4, 5, CVCU_WAIT_GEQ));
    CHECK(cvcu_wait_condition_met(0, UINT64_MAX, CVCU_WAIT_GEQ)); /* wrapped past the value */
    CHECK(cvcu_wait_condition_met(3, UINT64_MAX - 2, CVCU_WAIT_GEQ));
    CHECK(!cvcu_wait_condition_met(UINT64_MAX, 0, CVCU_WAIT_GEQ));        /* just before it */
    CHECK(!cvcu_wait_condition_met(0, (uint64_t)1 << 63, CVCU_WAIT_GEQ)); /* half a cycle on */
    CHECK(cvcu_wait_condition_met((uint64_t)1 << 63, 1, CVCU_WAIT_GEQ));
    /* EQ */
    CHECK(cvcu_wait_condition_met(7, 7, CVCU_WAIT_EQ));
    CHECK(!cvcu_wait_condition_met(8, 7, CVCU_WAIT_EQ));
    CHECK(!cvcu_wait_condition_met(6, 7, CVCU_WAIT_EQ));
    /* AND: (slot & value) != 0 */
    CHECK(cvcu_wait_condition_met(0x30, 0x10, CVCU_WAIT_AND));
    CHECK(!cvcu_wait_condition_met(0x01, 0x10, CVCU_WAIT_AND));
    CHECK(!cvcu_wait_condition_met(0xff, 0, CVCU_WAIT_AND));
    /* NOR: ~(slot | value) != 0, i.e. some bit is clear in both */
    CHECK(cvcu_wait_condition_met(0, 0, CVCU_WAIT_NOR));
    CHECK(cvcu_wait_condition_met(0xf0, 0x0f, CVCU_WAIT_NOR));
    CHECK(!cvcu_wait_condition_met(UINT64_MAX, 0, CVCU_WAIT_NOR));
    CHECK(!cvcu_wait_condition_met(0xffffffff00000000u, 0xffffffff, CVCU_WAIT_NOR));
}

/* Each condition: closed while unmet, open once met (and stays dropped). */
static void test_closed_until_met(void) {
    static const struct {
        cvcu_wait_condition cond;
        uint64_t value, unmet, met;
    } cases[] = {
        {CVCU_WAIT_GEQ, 1, 0, 1},
        {CVCU_WAIT_GEQ, 0, UINT64_MAX, 0}, /* wrap-around */
        {CVCU_WAIT_EQ, 7, 6, 7},
        {CVCU_WAIT_AND, 0x10, 0x01, 0x30},
        {CVCU_WAIT_NOR, 0x0f, UINT64_MAX, 0xf0},
    };
    fake->query_answer = CUDA_ERROR_NOT_READY;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cvcu_slot s = slot(0);
        set(0, cases[i].unmet);
        CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s, cases[i].value, cases[i].cond, NULL));
        CHECK(cvcu_gates_closed());
        CHECK(cvcu_gates_closed()); /* asking changes nothing */
        set(0, cases[i].met);
        CHECK(!cvcu_gates_closed());
        /* Seen met, it is dropped: unmet again before the GPU read it is the application's
         * hang, not a gate the frees wait for. */
        set(0, cases[i].unmet);
        CHECK(!cvcu_gates_closed());
    }
}

/* A gate met when it is enqueued is never closed; a refused wait is not remembered. */
static void test_met_or_refused(void) {
    cvcu_slot s = slot(1);
    set(1, 1);
    fake->calls_begin();
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s, 1, CVCU_WAIT_GEQ, NULL));
    CHECK(fake->calls("cuStreamWaitValue64") == 1); /* the wait still goes to the stream */
    fake->calls_end();
    set(1, 0);
    CHECK(cvcu_gates_closed() == false);
    cvcu_slot misaligned = {&words[1], s.device + 4}; /* a wait the driver refuses */
    CHECK_ERR(CL_OUT_OF_RESOURCES, gate_enqueue(stream_a, &misaligned, 1, CVCU_WAIT_GEQ, NULL));
    CHECK(!cvcu_gates_closed());
}

/* Several gates: closed while any is; forgotten with their slot or stream; a gate that looks
 * closed is open once its stream is idle (the GPU passed it, the value changed since). */
static void test_many(void) {
    cvcu_slot s0 = slot(0), s1 = slot(1), s2 = slot(2);
    set(0, 0);
    set(1, 0);
    set(2, 0);
    fake->query_answer = CUDA_ERROR_NOT_READY;
    for (int i = 0; i < 64; i++) /* one user event gating 64 commands: one entry */
        CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s0, 1, CVCU_WAIT_GEQ, NULL));
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_b, &s1, 1, CVCU_WAIT_GEQ, NULL));
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_b, &s2, 5, CVCU_WAIT_EQ, NULL));
    fake->calls_begin();
    CHECK(cvcu_gates_closed());
    CHECK(fake->calls("cuStreamQuery") == 3); /* one entry per condition and stream */
    fake->calls_end();
    set(0, 1);
    CHECK(cvcu_gates_closed());
    cvcu_gates_forget_slot(&s1);
    CHECK(cvcu_gates_closed()); /* s2's gate is still closed */
    cvcu_gates_forget_stream(stream_b);
    CHECK(!cvcu_gates_closed());

    set(0, 0);
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s0, 1, CVCU_WAIT_GEQ, NULL));
    CHECK(cvcu_gates_closed());
    fake->query_answer = CUDA_SUCCESS; /* idle: the GPU passed it */
    CHECK(!cvcu_gates_closed());
    fake->query_answer = CUDA_ERROR_NOT_READY;
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s0, 1, CVCU_WAIT_GEQ, NULL));
    fake->query_answer = CUDA_ERROR_ILLEGAL_ADDRESS; /* a failed stream waits for nothing */
    CHECK(!cvcu_gates_closed());
    fake->query_answer = CUDA_ERROR_NOT_READY;
    /* The caller's context survives the queries in the streams' contexts. */
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s0, 1, CVCU_WAIT_GEQ, NULL));
    CUcontext current = ctx;
    REQUIRE(cvcu.cuCtxSetCurrent(NULL) == CUDA_SUCCESS);
    CHECK(cvcu_gates_closed());
    REQUIRE(cvcu.cuCtxGetCurrent(&current) == CUDA_SUCCESS);
    CHECK(current == NULL);
    REQUIRE(cvcu.cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    cvcu_gates_forget_slot(&s0);
    CHECK(!cvcu_gates_closed());
}

static _Atomic bool stop_waiting;
static _Atomic int enqueued_in_quiet;

static void *enqueue_thread(void *arg) {
    (void)arg;
    cvcu_slot s = slot(3);
    gate_enqueue(stream_a, &s, 1, CVCU_WAIT_GEQ, NULL);
    atomic_store(&enqueued_in_quiet, 1);
    return NULL;
}

/* quiet_begin waits for the gates, gives up when told to stop, and holds new gates back. */
static void test_quiet(void) {
    cvcu_slot s = slot(3);
    set(3, 0);
    fake->query_answer = CUDA_ERROR_NOT_READY;
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &s, 1, CVCU_WAIT_GEQ, NULL));
    atomic_store(&stop_waiting, true);
    CHECK(!cvcu_gates_quiet_begin(&stop_waiting)); /* closed, and told to stop */
    atomic_store(&stop_waiting, false);
    set(3, 1);
    REQUIRE(cvcu_gates_quiet_begin(&stop_waiting));
    set(3, 0);
    pthread_t t;
    REQUIRE(pthread_create(&t, NULL, enqueue_thread, NULL) == 0);
    usleep(50000);
    CHECK(atomic_load(&enqueued_in_quiet) == 0); /* held back */
    cvcu_gates_quiet_end();
    pthread_join(t, NULL);
    CHECK(atomic_load(&enqueued_in_quiet) == 1);
    CHECK(cvcu_gates_closed());
    set(3, 1);
    CHECK(!cvcu_gates_closed());
}

#define WARN_MS 100

/* Reads what culvert logged so far (stderr is the file fd). */
static void read_log(int fd, char *log, size_t size) {
    fflush(stderr);
    ssize_t n = pread(fd, log, size - 1, 0);
    log[n > 0 ? n : 0] = '\0';
}

/* Waits (up to 5 s) until the log holds text. */
static bool log_shows(int fd, char *log, size_t size, const char *text) {
    for (int i = 0; i < 500; i++) {
        read_log(fd, log, size);
        if (strstr(log, text))
            return true;
        usleep(10000);
    }
    return false;
}

/* With the log on, a watched gate closed for CULVERT_HOST_VALUE_WARN_MS is warned about (its
 * queue, value and condition named), and its end is logged once it opens; a watched gate met in
 * time, and a gate without a watch, are not. */
static void test_watch(void) {
    char warn_ms[16];
    snprintf(warn_ms, sizeof warn_ms, "%d", WARN_MS);
    setenv("CULVERT_HOST_VALUE_WARN_MS", warn_ms, 1);
    char path[] = "/tmp/cu_gates_watch_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    unlink(path);
    fflush(stderr);
    int saved_stderr = dup(2);
    REQUIRE(saved_stderr >= 0 && dup2(fd, 2) == 2);
    cvu_log_threshold = CVU_LOG_ERROR;

    static int queue, host_value; /* stand-ins: only their addresses are printed */
    const cvcu_wait_watch watch = {&queue, &host_value};
    cvcu_slot stuck = slot(0), quick = slot(1), unwatched = slot(2);
    set(0, 0);
    set(1, 0);
    set(2, 0);
    fake->query_answer = CUDA_ERROR_NOT_READY;
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &stuck, 1234567, CVCU_WAIT_GEQ, &watch));
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_a, &quick, 7654321, CVCU_WAIT_EQ, &watch));
    CHECK_ERR(CL_SUCCESS, gate_enqueue(stream_b, &unwatched, 5555555, CVCU_WAIT_GEQ, NULL));
    set(1, 7654321);
    char log[8192];
    bool warned = log_shows(fd, log, sizeof log, "warning");
    usleep(3 * WARN_MS * 1000); /* time for a wrong warning about the others */
    read_log(fd, log, sizeof log);
    set(0, 1234567);
    bool over = log_shows(fd, log, sizeof log, "is over after");
    dup2(saved_stderr, 2);
    close(saved_stderr);
    fprintf(stderr, "the gates' log:\n%s", log);
    char queue_text[32];
    snprintf(queue_text, sizeof queue_text, "queue %p", (void *)&queue);
    CHECK(warned);
    CHECK(strstr(log, "GEQ 1234567; it holds 0") != NULL);
    CHECK(strstr(log, queue_text) != NULL);
    CHECK(strstr(log, "7654321") == NULL);
    CHECK(strstr(log, "5555555") == NULL);
    CHECK(over);
    cvu_log_threshold = CVU_LOG_OFF;
    CHECK(cvcu_gates_closed()); /* the unwatched gate is still closed */
    cvcu_gates_forget_slot(&unwatched);
    CHECK(!cvcu_gates_closed());
    close(fd);
}

int main(void) {
    REQUIRE(cvcu_load());
    fake = fakecuda_find();
    if (!fake) {
        fprintf(stderr, "the fake libcuda.so.1 is not the one found (LD_LIBRARY_PATH)\n");
        return 1;
    }
    void *pinned = NULL;
    REQUIRE(cvcu.cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS);
    REQUIRE(cvcu.cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    REQUIRE(cvcu.cuMemHostAlloc(&pinned, 4 * sizeof *words, CU_MEMHOSTALLOC_DEVICEMAP) ==
            CUDA_SUCCESS);
    REQUIRE(cvcu.cuMemHostGetDevicePointer(&words_device, pinned, 0) == CUDA_SUCCESS);
    words = pinned;
    REQUIRE(cvcu.cuStreamCreate(&stream_a, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    REQUIRE(cvcu.cuStreamCreate(&stream_b, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
    test_conditions();
    test_closed_until_met();
    test_met_or_refused();
    test_many();
    test_quiet();
    test_watch();
    return cv_test_report("cu_gates");
}
