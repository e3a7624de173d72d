/* A GPU fault in the middle of buffer traffic. Worker threads, each with its own queue, create
 * buffers of every host flag the CTS buffer tests use (USE_HOST_PTR, COPY_HOST_PTR,
 * ALLOC_HOST_PTR, ALLOC_HOST_PTR | COPY_HOST_PTR, none) in several sizes (staged, registered and
 * small ones), write them (blocking and not), copy, read back, map and unmap them, release them
 * and free their host memory, which malloc gives back for the next round (as in the CTS), while
 * the main thread launches a kernel that faults. Checked: every round whose calls all succeeded
 * read back what it wrote; once the device is lost the workers' calls answer errors (never a
 * crash, a hang, or, under AddressSanitizer, a double free or a use after free in culvert's lost
 * paths); the context is told once, everything is released, and a new context of the device
 * works. Under the fake driver (fake.device_loss_traffic): FAKECUDA_FAULT_KERNEL=fault, and each
 * queued copy waits on its stream (FAKECUDA_COPY_DELAY_US) as on a GPU busy with other
 * processes, so copies are in flight when the fault comes; the fake aborts on a release of memory
 * that a queued copy still uses and on any use of the context's pinned pages after its reset.
 * fake.device_loss_traffic_copy makes one of the workers' copies fault instead (a copy engine's
 * MMU fault, FAKECUDA_FAULT_COPY, as the H100's Xid 31): the kernel then finds the device lost.
 * The fault poisons the CUDA context of the process: this test runs alone. */
#include "queue_kernels.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define WORKERS 4

static const cl_mem_flags flag_set[] = {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                        CL_MEM_ALLOC_HOST_PTR,
                                        CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 0};
#define NUM_FLAGS (sizeof flag_set / sizeof flag_set[0])
static const size_t sizes[] = {4096, 65536, 3u << 17, 1u << 20};
#define NUM_SIZES (sizeof sizes / sizeof sizes[0])

typedef struct worker {
    pthread_t thread;
    unsigned id;
    atomic_uint rounds; /* rounds finished */
    atomic_uint failed; /* rounds in which a call failed */
    unsigned wrong;     /* rounds whose calls all succeeded with the wrong bytes read back */
    cl_int queue_error; /* the queue's creation */
} worker;

static atomic_int stop_workers;
static atomic_int lost_told;

static void CL_CALLBACK notify(const char *info, const void *p, size_t cb, void *data) {
    (void)p;
    (void)cb;
    (void)data;
    if (strstr(info, "context is lost"))
        atomic_fetch_add(&lost_told, 1);
}

static void pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed * 31 + i * 7);
}

/* The first failure among a round's calls. */
static void note(cl_int *first, cl_int err) {
    if (*first == CL_SUCCESS && err != CL_SUCCESS)
        *first = err;
}

/* One round on q: a buffer of `flags` made from `host` (or written from it), a non-blocking
 * write of a second buffer from `src`, a device copy, reads and a map. Returns the first error;
 * *right tells whether the bytes read back are the ones written (only meaningful without error). */
static cl_int round_trip(cl_command_queue q, cl_mem_flags flags, size_t size, unsigned seed,
                         bool *right) {
    cl_int err = CL_SUCCESS, first = CL_SUCCESS;
    unsigned char *host = malloc(size), *src = malloc(size), *back = malloc(size);
    unsigned char *want = malloc(size);
    if (!host || !src || !back || !want) {
        free(host), free(src), free(back), free(want);
        return CL_OUT_OF_HOST_MEMORY;
    }
    pattern(host, size, seed);
    pattern(src, size, seed + 1);
    bool from_host = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    cl_mem a = clCreateBuffer(qt_context, flags, size, from_host ? host : NULL, &err);
    note(&first, err);
    cl_mem b = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, size, NULL, &err);
    note(&first, err);
    if (a && !from_host)
        note(&first, clEnqueueWriteBuffer(q, a, CL_TRUE, 0, size, host, 0, NULL, NULL));
    cl_event written = NULL;
    if (b)
        note(&first, clEnqueueWriteBuffer(q, b, CL_FALSE, 0, size, src, 0, NULL, &written));
    if (written) {
        note(&first, clWaitForEvents(1, &written));
        clReleaseEvent(written);
    }
    /* a's bytes into the second half of b, then both read back. */
    if (a && b)
        note(&first, clEnqueueCopyBuffer(q, a, b, 0, size / 2, size / 2, 0, NULL, NULL));
    if (b)
        note(&first, clEnqueueReadBuffer(q, b, CL_TRUE, 0, size, back, 0, NULL, NULL));
    memcpy(want, src, size / 2);
    memcpy(want + size / 2, host, size / 2);
    bool same = first == CL_SUCCESS && memcmp(back, want, size) == 0;
    if (a) {
        unsigned char *m = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size, 0,
                                              NULL, NULL, &err);
        note(&first, err);
        if (m) {
            same = same && first == CL_SUCCESS && memcmp(m, host, size) == 0;
            m[0] ^= 1;
            note(&first, clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
        }
    }
    note(&first, clFinish(q));
    /* As the CTS does: the buffer's memory goes first, then the buffer. */
    free(host);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    free(src);
    free(back);
    free(want);
    *right = same;
    return first;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(qt_context, qt_device, NULL, &err);
    w->queue_error = err;
    for (unsigned r = 0; q && !atomic_load(&stop_workers); r++) {
        bool right = false;
        cl_mem_flags flags = flag_set[(r + w->id) % NUM_FLAGS];
        size_t size = sizes[(r / NUM_FLAGS + w->id) % NUM_SIZES];
        cl_int first = round_trip(q, flags, size, w->id * 1000 + r, &right);
        if (first != CL_SUCCESS)
            atomic_fetch_add(&w->failed, 1);
        else if (!right)
            w->wrong++;
        atomic_fetch_add(&w->rounds, 1);
    }
    if (q)
        clReleaseCommandQueue(q);
    return NULL;
}

/* Did any worker have a failed round (a copy's fault, FAKECUDA_FAULT_COPY, came first)? */
static bool any_failed(worker *w) {
    bool any = false;
    for (unsigned i = 0; i < WORKERS; i++)
        any = any || atomic_load(&w[i].failed) > 0;
    return any;
}

/* Until every worker finished `rounds` rounds, or the device was lost (false when the limit
 * passed first). */
static bool wait_rounds(worker *w, unsigned rounds, double seconds) {
    double end = qt_now() + cv_test_limit_s(seconds);
    for (unsigned i = 0; i < WORKERS; i++)
        while (atomic_load(&w[i].rounds) < rounds && !any_failed(w) && qt_now() < end)
            usleep(1000);
    bool all = true;
    for (unsigned i = 0; i < WORKERS; i++)
        all = all && atomic_load(&w[i].rounds) >= rounds;
    return all || any_failed(w);
}

/* Until every worker had a failed round (the loss reached it). */
static bool wait_failed(worker *w, double seconds) {
    double end = qt_now() + cv_test_limit_s(seconds);
    for (unsigned i = 0; i < WORKERS; i++)
        while (atomic_load(&w[i].failed) == 0 && qt_now() < end)
            usleep(1000);
    bool all = true;
    for (unsigned i = 0; i < WORKERS; i++)
        all = all && atomic_load(&w[i].failed) > 0;
    return all;
}

static void new_context(void(CL_CALLBACK *fn)(const char *, const void *, size_t, void *)) {
    cl_int err = CL_SUCCESS;
    qt_context = clCreateContext(NULL, 1, &qt_device, fn, NULL, &err);
    cv_test_skip_if_unrecoverable(qt_device, err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(qt_context);
}

int main(void) {
    qt_device = cv_test_gpu_device_or_skip(&qt_platform);
    new_context(notify);
    cl_command_queue q = qt_queue(0);
    cl_kernel fault = qt_kernel("fault");
    cl_ulong bad = 16; /* an unmapped device address */
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(fault, 0, sizeof bad, &bad));
    worker w[WORKERS];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < WORKERS; i++) {
        w[i].id = i;
        REQUIRE(pthread_create(&w[i].thread, NULL, worker_main, &w[i]) == 0);
    }
    /* Traffic first, then the fault in the middle of it. */
    CHECK(wait_rounds(w, 2 * NUM_FLAGS, 60.0));
    size_t one = 1;
    cl_event f = NULL;
    /* The fault may come before the enqueue is done with the driver (or a copy's came first):
     * then the enqueue fails. */
    cl_int launched = clEnqueueNDRangeKernel(q, fault, 1, NULL, &one, &one, 0, NULL, &f);
    CHECK(launched == CL_SUCCESS || launched == CL_OUT_OF_RESOURCES);
    if (f)
        CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &f));
    /* Every worker runs into the loss and goes on failing, without harm. */
    CHECK(wait_failed(w, 30.0));
    unsigned seen[WORKERS];
    for (unsigned i = 0; i < WORKERS; i++)
        seen[i] = atomic_load(&w[i].rounds);
    for (unsigned i = 0; i < WORKERS; i++) {
        double end = qt_now() + cv_test_limit_s(30.0);
        while (atomic_load(&w[i].rounds) < seen[i] + 3 && qt_now() < end)
            usleep(1000);
    }
    atomic_store(&stop_workers, 1);
    unsigned rounds = 0, failed = 0, wrong = 0;
    for (unsigned i = 0; i < WORKERS; i++) {
        pthread_join(w[i].thread, NULL);
        CHECK_ERR(CL_SUCCESS, w[i].queue_error);
        rounds += atomic_load(&w[i].rounds);
        failed += atomic_load(&w[i].failed);
        wrong += w[i].wrong;
    }
    printf("%u rounds, %u with an error (the loss), %u wrong\n", rounds, failed, wrong);
    CHECK(wrong == 0);
    double end = qt_now() + cv_test_limit_s(5.0);
    while (atomic_load(&lost_told) == 0 && qt_now() < end)
        usleep(1000);
    CHECK(atomic_load(&lost_told) == 1);
    if (f)
        clReleaseEvent(f);
    clReleaseKernel(fault);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);

    /* The device recovers: a new context moves bytes of every kind of buffer again. */
    new_context(NULL);
    q = qt_queue(0);
    for (unsigned i = 0; i < NUM_FLAGS * NUM_SIZES; i++) {
        bool right = false;
        CHECK_ERR(CL_SUCCESS,
                  round_trip(q, flag_set[i % NUM_FLAGS], sizes[i / NUM_FLAGS], 7000 + i, &right));
        CHECK(right);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    return cv_test_report("device_loss_traffic");
}
