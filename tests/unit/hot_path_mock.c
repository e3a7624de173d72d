/* The CUDA calls culvert makes on the latency paths of cv-bench (issue 3), counted on the fake
 * driver of tests/fake_cuda for the calling thread only (the tracker's calls are its own), in its
 * instant mode (no call depends on when a stream thread runs): every call
 * beyond the raw CUDA sequence is host time on the path, and every extra stream operation is GPU
 * front-end work before the dependent command. The expected numbers are the raw sequences of
 * bench/bench_raw.c plus what OpenCL asks for (cuCtxGetCurrent: culvert binds its context on
 * every enqueue, since an application may switch contexts behind its back). A change that adds a
 * CUDA call to one of these paths fails here; it prints every path's calls for the report.
 *
 * Also: clSetUserEventStatus opens the gate, the very slot the dependent command's
 * cuStreamWaitValue64 reads, with no CUDA call; a cross-queue wait is one cuStreamWaitEvent on
 * the CUDA event of the other queue's command. */
#include "fake_cuda.h"
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static fakecuda_state *fake;
static void (*calls_begin)(void);
static void (*calls_end)(void);
static unsigned long (*calls)(const char *name);

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q, q2, qp;
static cl_kernel k;
static const size_t g32 = 32;

/* The CUDA calls of one path, per repetition: what a path may call, and how often; at_most for
 * what the tracker thread may have done first (a wait finds the event complete already), ANY
 * for what depends on its timing. */
#define ANY (~0ul)
typedef struct expect {
    const char *name;
    unsigned long per_rep;
    bool at_most;
} expect;

static cl_int enqueue(cl_command_queue queue, cl_uint n, const cl_event *wait, cl_event *ev) {
    fake->num_launches = 0; /* the fake keeps at most FAKECUDA_MAX_LAUNCHES records */
    return clEnqueueNDRangeKernel(queue, k, 1, NULL, &g32, &g32, n, wait, ev);
}

static const char *const names[] = {
    "cuCtxGetCurrent",     "cuCtxSetCurrent",      "cuLaunchKernel",
    "cuLaunchKernelEx",    "cuEventRecord",        "cuEventQuery",
    "cuEventSynchronize",  "cuEventCreate",        "cuStreamWaitEvent",
    "cuStreamWaitValue64", "cuStreamWriteValue64", "cuStreamQuery",
    "cuStreamSynchronize", "cuMemHostAlloc",       "cuMemHostGetDevicePointer",
    "cuGraphLaunch",       "cuMemAlloc",
};

/* Checks the calls counted since calls_begin against want (reps repetitions): every named call
 * as often as expected, no other call at all. Prints the calls per repetition. */
static void check_calls(const char *path, int reps, const expect *want, size_t n) {
    calls_end();
    unsigned long listed = 0;
    printf("%-44s", path);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        unsigned long got = calls(names[i]);
        if (got)
            printf(" %s %.2f", names[i], (double)got / reps);
    }
    printf("\n");
    for (size_t i = 0; i < n; i++) {
        unsigned long got = calls(want[i].name);
        listed += got;
        unsigned long n = want[i].per_rep * (unsigned long)reps;
        bool ok = want[i].per_rep == ANY || got == n || (want[i].at_most && got <= n);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "%s: %lu %s in %d repetitions, expected %s%lu each\n", path, got,
                    want[i].name, reps, want[i].at_most ? "at most " : "", want[i].per_rep);
    }
    CHECK(calls(NULL) == listed);
    if (calls(NULL) != listed)
        fprintf(stderr, "%s: %lu CUDA calls beyond the expected ones\n", path,
                calls(NULL) - listed);
}

#define CHECK_CALLS(path, reps, ...)                                                               \
    do {                                                                                           \
        static const expect want_[] = {__VA_ARGS__};                                               \
        check_calls(path, reps, want_, sizeof want_ / sizeof *want_);                              \
    } while (0)

/* Each hot_* function is one repetition of one path: scripts/hot-path-ir.sh counts the
 * instructions of each under callgrind (--toggle-collect). noinline keeps them apart. */
#define HOT __attribute__((noinline))

enum { REPS = 64 };
/* Event-less commands are recorded in batches of 32 (their holds' carrier). */
_Static_assert(REPS % 32 == 0, "whole batches");

static cl_event evs[REPS];

/* Kernel timing is ready once culvert's clock probe answered. A first try that a loaded machine
 * held back past its limit is repeated by a profiling queue made a period later (cuda/cu_ktime.c);
 * until then the profiling row would count CUDA events: launches on qp, made anew, until one is
 * the timed twin (for a few periods at most). */
static void kernel_timing_ready(void) {
    static const cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (double waited = 0;; usleep(100000)) {
        cl_int err = CL_SUCCESS;
        if (qp)
            clReleaseCommandQueue(qp);
        qp = clCreateCommandQueueWithProperties(ctx, dev, prof, &err);
        REQUIRE(qp != NULL);
        cl_event e = NULL;
        CHECK_ERR(CL_SUCCESS, enqueue(qp, 0, NULL, &e));
        CHECK_ERR(CL_SUCCESS, clFinish(qp));
        clReleaseEvent(e);
        bool timed =
            fake->num_launches == 1 && strcmp(fake->launches[0].func, "hp_empty__cv_timed") == 0;
        clock_gettime(CLOCK_MONOTONIC, &t);
        waited = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9;
        if (timed || waited > cv_test_limit_s(5.0))
            break;
    }
}

HOT static void hot_enqueue_noevent(int i) {
    (void)i;
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, NULL));
}
HOT static void hot_enqueue_event(int i) {
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, &evs[i]));
}
HOT static void hot_enqueue_profiling(int i) {
    CHECK_ERR(CL_SUCCESS, enqueue(qp, 0, NULL, &evs[i]));
}

/* A burst of REPS, then clFinish and the events' release, twice: the second, through fn, is
 * counted (the first makes the events and CUDA events that the second finds again). */
static void burst(cl_command_queue queue, void (*fn)(int), bool events) {
    for (int round = 0; round < 2; round++) {
        if (round == 1)
            calls_begin();
        for (int i = 0; i < REPS; i++) {
            if (round == 1)
                fn(i);
            else
                CHECK_ERR(CL_SUCCESS, enqueue(queue, 0, NULL, events ? &evs[i] : NULL));
        }
        calls_end();
        CHECK_ERR(CL_SUCCESS, clFinish(queue));
        for (int i = 0; events && i < REPS; i++)
            clReleaseEvent(evs[i]);
    }
}

/* Bursts as cv-bench's enqueue rows. Raw: a launch (and a cuEventRecord, or two around the
 * launch for profiling). The events released after clFinish give their CUDA events back at once
 * (no cuEventCreate); the batches of event-less commands only once the tracker let go of them
 * (a new one where none is back yet). On a profiling queue the kernel's timed twin records START
 * and END itself (docs/kernel-abi.md): one cuEventRecord, the completion's, fewer than raw. */
static void enqueue_rows(void) {
    burst(q, hot_enqueue_noevent, false);
    CHECK_CALLS("enqueue, no event", REPS, {"cuCtxGetCurrent", 1, false},
                {"cuLaunchKernel", 1, false}, {"cuEventRecord", ANY, false},
                {"cuEventCreate", ANY, false});
    /* one record per batch; its event is new where the tracker has not let go of the last
     * burst's batches yet */
    CHECK(calls("cuEventRecord") == REPS / 32 && calls("cuEventCreate") <= REPS / 32);

    burst(q, hot_enqueue_event, true);
    CHECK_CALLS("enqueue, returning an event", REPS, {"cuCtxGetCurrent", 1, false},
                {"cuLaunchKernel", 1, false}, {"cuEventRecord", 1, false});

    unsigned long timing_records = fake->timing_records;
    burst(qp, hot_enqueue_profiling, true);
    CHECK_CALLS("enqueue, profiling queue", REPS, {"cuCtxGetCurrent", 1, false},
                {"cuLaunchKernel", 1, false}, {"cuEventRecord", 1, false});
    CHECK(fake->num_launches == 1 && strcmp(fake->launches[0].func, "hp_empty__cv_timed") == 0);
    /* The completion's event is no timing event either: COMPLETE is the kernel's END (a timing
     * record costs the GPU microseconds per command). The clock's anchors may record a few. */
    CHECK(fake->timing_records - timing_records < REPS / 8);
}

/* A replay of a command buffer (cv-bench's replay row). Raw: one cuGraphLaunch. culvert binds its
 * context and holds the command buffer in the stream's batch (one record per 32 commands). */
static cl_command_buffer_khr replay_cb;
static clEnqueueCommandBufferKHR_fn replay_fn;

HOT static void hot_replay(void) {
    CHECK_ERR(CL_SUCCESS, replay_fn(0, NULL, replay_cb, 0, NULL, NULL));
}

static void replay_row(cl_platform_id platform) {
#define CB_FN(type, name) ((type)clGetExtensionFunctionAddressForPlatform(platform, name))
    clCreateCommandBufferKHR_fn create =
        CB_FN(clCreateCommandBufferKHR_fn, "clCreateCommandBufferKHR");
    clCommandNDRangeKernelKHR_fn ndrange =
        CB_FN(clCommandNDRangeKernelKHR_fn, "clCommandNDRangeKernelKHR");
    clFinalizeCommandBufferKHR_fn finalize =
        CB_FN(clFinalizeCommandBufferKHR_fn, "clFinalizeCommandBufferKHR");
    clReleaseCommandBufferKHR_fn release =
        CB_FN(clReleaseCommandBufferKHR_fn, "clReleaseCommandBufferKHR");
    replay_fn = CB_FN(clEnqueueCommandBufferKHR_fn, "clEnqueueCommandBufferKHR");
#undef CB_FN
    REQUIRE(create && ndrange && finalize && release && replay_fn);
    cl_int err;
    replay_cb = create(1, &q, NULL, &err);
    REQUIRE(replay_cb != NULL);
    for (int i = 0; i < 4; i++)
        CHECK_ERR(CL_SUCCESS,
                  ndrange(replay_cb, NULL, NULL, k, 1, NULL, &g32, &g32, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, finalize(replay_cb));
    for (int round = 0; round < 2; round++) {
        if (round == 1)
            calls_begin();
        for (int i = 0; i < REPS; i++)
            hot_replay();
        calls_end();
        CHECK_ERR(CL_SUCCESS, clFinish(q));
    }
    CHECK_CALLS("replay of a command buffer", REPS, {"cuCtxGetCurrent", 1, false},
                {"cuGraphLaunch", 1, false}, {"cuEventRecord", ANY, false},
                {"cuEventCreate", ANY, false});
    CHECK(calls("cuEventRecord") == REPS / 32 && calls("cuEventCreate") <= REPS / 32);
    /* cv-bench's pattern: a burst's first replay right after clFinish (whose batch went back to
     * the queue's spares) makes no more calls than the others. */
    for (int burst = 0; burst < 4; burst++) {
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        calls_begin();
        hot_replay();
        calls_end();
        CHECK(calls(NULL) == 2 && calls("cuCtxGetCurrent") == 1 && calls("cuGraphLaunch") == 1);
    }
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    release(replay_cb);
}

HOT static void hot_roundtrip_finish(void) {
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
}

/* The release is not part of cv-bench's timed round trip (nor of this function). */
HOT static cl_event hot_roundtrip_event(void) {
    cl_event ev = NULL;
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, &ev));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    return ev;
}

/* Round trips. Raw: launch + cuStreamSynchronize, or launch + record + cuEventSynchronize.
 * culvert's waits have the GPU write a flag behind the work (cuStreamWriteValue64; the instant
 * fake writes it at once) and spin on it, querying only every 20 us (none here), instead of the
 * driver's spinning synchronize, for its CPU use on long waits. The waited event's CUDA event
 * serves the next command: no cuEventCreate. A wait that finds the event complete already (the
 * tracker thread settled it) writes no flag. */
static void round_trips(void) {
    hot_roundtrip_finish(); /* the first may find no spare batch event */
    calls_begin();
    for (int i = 0; i < REPS; i++)
        hot_roundtrip_finish();
    CHECK_CALLS("enqueue + clFinish", REPS, {"cuCtxGetCurrent", 2, false},
                {"cuLaunchKernel", 1, false}, {"cuStreamWriteValue64", 1, false},
                {"cuStreamQuery", 0, false});

    clReleaseEvent(hot_roundtrip_event()); /* the first may find no CUDA event to take over */
    calls_begin();
    for (int i = 0; i < REPS; i++)
        clReleaseEvent(hot_roundtrip_event()); /* counted too: the release makes no CUDA call */
    CHECK_CALLS("enqueue + clWaitForEvents", REPS, {"cuCtxGetCurrent", 2, true},
                {"cuLaunchKernel", 1, false}, {"cuEventRecord", 1, false},
                {"cuStreamWriteValue64", 1, true}, {"cuEventQuery", 0, false});
}

/* A wait on a command with another command behind it on its stream: a flag written now would
 * wait for that one too, so the wait queries the command's CUDA event (one here). */
HOT static cl_event hot_wait_behind(void) {
    cl_event ev = NULL;
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, &ev));
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    return ev;
}

static void wait_behind_row(void) {
    calls_begin();
    for (int i = 0; i < REPS; i++)
        clReleaseEvent(hot_wait_behind());
    CHECK_CALLS("enqueue x2 + clWaitForEvents(first)", REPS, {"cuCtxGetCurrent", 3, true},
                {"cuLaunchKernel", 2, false}, {"cuEventRecord", ANY, false},
                {"cuEventCreate", ANY, false}, {"cuEventQuery", 1, true},
                {"cuStreamWriteValue64", 0, false});
    CHECK(calls("cuEventRecord") <= REPS + REPS / 32 + 1);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
}

HOT static cl_event hot_user_create(void) {
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(ctx, &err);
    REQUIRE(u != NULL);
    return u;
}
HOT static cl_event hot_user_enqueue(cl_event u) {
    cl_event ev = NULL;
    CHECK_ERR(CL_SUCCESS, enqueue(q, 1, &u, &ev));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    return ev;
}
HOT static void hot_user_set(cl_event u) {
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
}
HOT static void hot_user_wait(cl_event ev) {
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
}

/* User event → dependent kernel, as cv-bench's row. Raw: cuStreamWaitValue64 + launch; a host
 * store; a wait. clSetUserEventStatus is that store into the slot the kernel's stream waits on,
 * with no CUDA call. */
static void user_event_row(void) {
    void *stream = NULL;
    clGetCommandQueueInfo(q, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof stream, &stream, NULL);
    for (int i = 0; i < REPS + 1; i++) {
        bool counted = i > 0; /* the first makes the slots' pinned page */
        calls_begin();
        cl_event u = hot_user_create();
        calls_end();
        CHECK(!counted || calls(NULL) == calls("cuCtxGetCurrent"));

        calls_begin();
        fake->wait_value_addr = 0;
        cl_event ev = hot_user_enqueue(u);
        if (counted)
            CHECK_CALLS("user event: enqueue (waits on it) + flush", 1,
                        {"cuCtxGetCurrent", 1, false}, {"cuStreamWaitValue64", 1, false},
                        {"cuLaunchKernel", 1, false}, {"cuEventRecord", 1, false});
        /* the gate: the slot, still closed, waited for on the kernel's stream */
        const _Atomic uint64_t *slot = (const _Atomic uint64_t *)(uintptr_t)fake->wait_value_addr;
        REQUIRE(slot != NULL);
        CHECK(fake->wait_value == 1 && *slot == 0 && fake->wait_value_stream == stream);

        calls_begin();
        hot_user_set(u);
        if (counted)
            CHECK_CALLS("user event: clSetUserEventStatus", 1, {"cuCtxGetCurrent", 0, false});
        CHECK(*slot >= 1); /* the gate is open */

        calls_begin();
        hot_user_wait(ev);
        if (counted)
            CHECK_CALLS("user event: clWaitForEvents(dependent)", 1, {"cuCtxGetCurrent", 1, true},
                        {"cuStreamWriteValue64", 1, true}, {"cuEventQuery", 0, false});
        clReleaseEvent(ev);
        clReleaseEvent(u);
    }
}

HOT static void hot_cross_enqueue(cl_event *a, cl_event *b) {
    CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, a));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    CHECK_ERR(CL_SUCCESS, enqueue(q2, 1, a, b));
}
HOT static void hot_cross_wait(cl_event b) {
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &b));
}

/* Kernel on queue A → dependent kernel on queue B, as cv-bench's row. Raw: launch, record,
 * cuStreamWaitEvent, launch (and a wait). B waits on A's own CUDA event: no record, flag op or
 * host wait more. */
static void cross_queue_row(void) {
    void *s2 = NULL;
    clGetCommandQueueInfo(q2, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof s2, &s2, NULL);
    for (int i = 0; i < REPS + 1; i++) {
        bool counted = i > 0; /* the first may find no CUDA events to take over */
        cl_event a = NULL, b = NULL;
        fake->query_answer = CUDA_ERROR_NOT_READY; /* A still runs when B is enqueued */
        calls_begin();
        hot_cross_enqueue(&a, &b);
        if (counted)
            CHECK_CALLS("queue A -> queue B: two enqueues + flush", 1,
                        {"cuCtxGetCurrent", 2, false}, {"cuLaunchKernel", 2, false},
                        {"cuEventRecord", 2, false}, {"cuStreamWaitEvent", 1, false});
        calls_end();
        void *cu_a = NULL;
        clGetEventInfo(a, CL_EVENT_CUDA_EVENT_CULVERT, sizeof cu_a, &cu_a, NULL);
        CHECK(fake->wait_event == cu_a && fake->wait_event_stream == s2);
        fake->query_answer = FAKECUDA_TRUTH;
        calls_begin();
        hot_cross_wait(b);
        if (counted)
            CHECK_CALLS("queue A -> queue B: clWaitForEvents(B)", 1, {"cuCtxGetCurrent", 1, true},
                        {"cuStreamWriteValue64", 1, true}, {"cuEventQuery", 0, false});
        clReleaseEvent(a);
        clReleaseEvent(b);
    }
}

/* A program of one PTX text (len bytes), built, and its kernel `name` in *out. */
static cl_program build_ptx(const char *ptx, size_t len, const char *name, cl_kernel *out) {
    const unsigned char *bins[1] = {(const unsigned char *)ptx};
    cl_int err;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(p, 1, &dev, NULL, NULL, NULL) == CL_SUCCESS);
    *out = clCreateKernel(p, name, &err);
    REQUIRE(*out != NULL);
    return p;
}

/* Creating an image is one allocation, its pixels' (CL_MEM_COPY_HOST_PTR adds their upload);
 * the descriptor kernels read is made at its first binding to a kernel argument (one allocation,
 * one copy), never again: the CTS's image tests create images by the thousand, most of them only
 * for transfers. */
static void image_rows(void) {
    static const char ptx[] =
        ".version 7.8\n.target sm_90, texmode_independent\n"
        ".address_size 64\n"
        "//cv:arg hp_image 0 global write_only none image2d_t out\n"
        ".entry hp_image(.param .u64 .ptr .global .align 1 p0)\n{\n\tret;\n}\n"
        "//cv:uniform-work-groups hp_image\n";
    cl_int err;
    cl_kernel ki;
    cl_program p = build_ptx(ptx, sizeof ptx, "hp_image", &ki);
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 8};
    cl_mem img[REPS];
    calls_begin();
    for (int i = 0; i < REPS; i++)
        img[i] = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &f, &d, NULL, &err);
    CHECK_CALLS("clCreateImage (2D, no host pointer)", REPS, {"cuMemAlloc", 1, false},
                {"cuCtxGetCurrent", ANY, false}, {"cuCtxSetCurrent", ANY, false});
    /* "CL_OUT_OF_RESOURCES if there is a failure to allocate resources required by the OpenCL
     * implementation on the device" (clSetKernelArg): device memory that ran out at the first
     * binding; the next binding makes the descriptor. */
    calls_begin();             /* the knob fails this thread's allocations only */
    fake->fail_mem_allocs = 2; /* the first try and the one after the reaper's frees */
    CHECK_ERR(CL_OUT_OF_RESOURCES, clSetKernelArg(ki, 0, sizeof img[0], &img[0]));
    calls_end();
    CHECK(calls("cuMemAlloc") >= 1);
    fake->fail_mem_allocs = 0;
    calls_begin();
    for (int i = 0; i < REPS; i++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(ki, 0, sizeof img[i], &img[i]));
    calls_end();
    CHECK(calls("cuMemAlloc") == REPS &&
          calls("cuMemcpyHtoD") + calls("cuMemcpyHtoDAsync") == REPS);
    calls_begin();
    for (int i = 0; i < REPS; i++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(ki, 0, sizeof img[i], &img[i]));
    CHECK_CALLS("clSetKernelArg of an image bound before", REPS, {"cuMemAlloc", 0, false});
    for (int i = 0; i < REPS; i++)
        clReleaseMemObject(img[i]);
    clReleaseKernel(ki);
    clReleaseProgram(p);
}

/* An ALLOC_HOST_PTR buffer or image is one device allocation; its pinned shadow comes with the
 * first map (docs/buffers.md), which the next maps reuse. */
static void alloc_host_ptr_rows(void) {
    enum { SIZE = 1 << 20, MAPS = 4 };
    cl_int err;
    calls_begin();
    cl_mem b = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, SIZE, NULL, &err);
    CHECK_CALLS("clCreateBuffer (ALLOC_HOST_PTR)", 1, {"cuMemAlloc", 1, false},
                {"cuCtxGetCurrent", ANY, false}, {"cuCtxSetCurrent", ANY, false});
    REQUIRE(b != NULL);
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 64, .image_height = 64};
    calls_begin();
    cl_mem img = clCreateImage(ctx, CL_MEM_ALLOC_HOST_PTR, &f, &d, NULL, &err);
    CHECK_CALLS("clCreateImage (2D, ALLOC_HOST_PTR)", 1, {"cuMemAlloc", 1, false},
                {"cuCtxGetCurrent", ANY, false}, {"cuCtxSetCurrent", ANY, false});
    REQUIRE(img != NULL);
    void *first = NULL;
    for (int i = 0; i < MAPS; i++) {
        calls_begin();
        void *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, SIZE, 0,
                                     NULL, NULL, &err);
        calls_end();
        CHECK_ERR(CL_SUCCESS, err);
        /* the first map pins the shadow, the later ones find it */
        CHECK(calls("cuMemHostAlloc") == (i == 0 ? 1u : 0u));
        CHECK(i == 0 || p == first);
        first = i == 0 ? p : first;
        CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
    }
    clReleaseMemObject(img);
    clReleaseMemObject(b);
}

int main(void) {
    /* Images are claimed unless CULVERT_IMAGES=0 (src/core/image.h): on here, whatever the
     * environment says. */
    setenv("CULVERT_IMAGES", "1", 1);
    fake = fakecuda_find();
    if (!fake) {
        fprintf(stderr, "the fake libcuda.so.1 is not the one found (LD_LIBRARY_PATH)\n");
        return 1;
    }
    fake->instant = true;
    calls_begin = fake->calls_begin;
    calls_end = fake->calls_end;
    calls = fake->calls;
    cl_platform_id platform;
    dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    q2 = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(q && q2);
    /* bench_empty as culvert's compiler emits it: the module declares the launch information,
     * so the launch carries its parameter */
    static const char ptx[] = ".version 7.8\n.target sm_90, texmode_independent\n"
                              ".address_size 64\n"
                              ".shared .align 8 .b8 __cv_launch_info[64];\n"
                              ".entry hp_empty()\n{\n\tret;\n}\n"
                              "//cv:uniform-work-groups hp_empty\n";
    cl_program p = build_ptx(ptx, sizeof ptx, "hp_empty", &k);
    /* first launches: spare events, the occupancy answer and the batch come into being */
    for (int i = 0; i < 2; i++) {
        cl_event e = NULL;
        CHECK_ERR(CL_SUCCESS, enqueue(q, 0, NULL, &e));
        CHECK_ERR(CL_SUCCESS, enqueue(q2, 1, &e, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q2));
        CHECK_ERR(CL_SUCCESS, clFinish(q)); /* e is known complete at its release */
        clReleaseEvent(e);
    }
    kernel_timing_ready();
    printf("CUDA calls per repetition, calling thread only:\n");
    enqueue_rows();
    round_trips();
    wait_behind_row();
    user_event_row();
    cross_queue_row();
    replay_row(platform);
    image_rows();
    alloc_host_ptr_rows();
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(qp);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("hot_path_mock");
}
