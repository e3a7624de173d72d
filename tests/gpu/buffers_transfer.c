/* Buffer transfers on the GPU, every byte verified: read/write of pageable memory (small,
 * chunk-sized, odd sizes and offsets, 256 MiB), blocking and not, behind busy streams; pinned
 * memory (mapped ALLOC_HOST_PTR pointers); device copies (sub-buffers too); the rect commands
 * against a CPU reference; fills with every pattern size at many offsets. */
#include "test_util.h"

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

static cl_context ctx;
static cl_command_queue q;

static void fill_host(unsigned char *p, size_t n, unsigned seed) {
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

static size_t first_diff(const unsigned char *a, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return n;
}

#define CHECK_SAME(a, b, n, what)                                                                  \
    do {                                                                                           \
        size_t d_ = first_diff((a), (b), (n));                                                     \
        if (d_ != (n))                                                                             \
            fprintf(stderr, "%s: first difference at byte %zu of %zu\n", (what), d_, (size_t)(n)); \
        CHECK(d_ == (n));                                                                          \
    } while (0)

/* Write then read back [offset, offset + n) of a buffer, from host memory at host + shift. */
static void round_trip(size_t n, size_t offset, size_t shift, bool blocking, unsigned seed) {
    cl_int err = 0;
    size_t total = offset + n + 64;
    unsigned char *src = malloc(n + shift), *dst = malloc(n + shift);
    REQUIRE(src && dst);
    fill_host(src + shift, n, seed);
    memset(dst, 0xee, n + shift);
    cl_mem m = clCreateBuffer(ctx, 0, total, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_event we = NULL, re = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, blocking, offset, n, src + shift, 0, NULL,
                                               blocking ? NULL : &we));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, blocking, offset, n, dst + shift, 0, NULL,
                                              blocking ? NULL : &re));
    if (!blocking) {
        CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &re));
        cl_command_type t = 0;
        CHECK_ERR(CL_SUCCESS, clGetEventInfo(we, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
        CHECK(t == CL_COMMAND_WRITE_BUFFER);
        cl_int st = 1;
        CHECK_ERR(CL_SUCCESS,
                  clGetEventInfo(re, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
        CHECK(st == CL_COMPLETE);
        clReleaseEvent(we);
        clReleaseEvent(re);
    }
    char what[96];
    snprintf(what, sizeof what, "round trip n=%zu offset=%zu shift=%zu %s", n, offset, shift,
             blocking ? "blocking" : "non-blocking");
    CHECK_SAME(dst + shift, src + shift, n, what);
    clReleaseMemObject(m);
    free(src);
    free(dst);
}

static void test_pageable(void) {
    const size_t sizes[] = {1,
                            4,
                            100,
                            4096,
                            65535,
                            65536,
                            (1 << 20) + 13,
                            (size_t)8 << 20,
                            ((size_t)8 << 20) + 1,
                            ((size_t)33 << 20) + 12345};
    unsigned seed = 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int blocking = 0; blocking < 2; blocking++) {
            round_trip(sizes[i], 0, 0, blocking, seed++);
            round_trip(sizes[i], 7, 3, blocking, seed++);
        }
    }
}

static void test_large(void) {
    size_t n = (size_t)256 << 20;
    cl_int err = 0;
    unsigned char *src = malloc(n), *dst = malloc(n);
    REQUIRE(src && dst);
    fill_host(src, n, 77);
    memset(dst, 0, n);
    cl_mem a = clCreateBuffer(ctx, 0, n, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n, src, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, a, b, 0, 0, n, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, 0, n, dst, 0, NULL, NULL));
    CHECK_SAME(dst, src, n, "256 MiB write, copy, read");
    /* Non-blocking read behind busy work on the stream (a big fill first): must not wait in
     * the call for that work, and must deliver once the event completes. */
    unsigned char pat = 0x3c;
    memset(dst, 0, n);
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, b, &pat, 1, 0, n, 0, NULL, NULL));
    for (int rep = 0; rep < 4; rep++)
        CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, a, b, 0, 0, n, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, b, &pat, 1, 0, n, 0, NULL, NULL));
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_FALSE, 0, n, dst, 0, NULL, &e));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    clReleaseEvent(e);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += dst[i] != 0x3c;
    CHECK(bad == 0);
    /* Non-blocking write behind busy work, then the host buffer is reused at once: the write
     * must have taken its bytes at the call. */
    for (int rep = 0; rep < 4; rep++)
        CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, b, a, 0, 0, n, 0, NULL, NULL));
    fill_host(src, n, 78);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, a, CL_FALSE, 0, n, src, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, a, CL_TRUE, 0, n, dst, 0, NULL, NULL));
    CHECK_SAME(dst, src, n, "256 MiB non-blocking write behind busy stream");
    /* small non-blocking ones behind busy work */
    int small_src = 1234, small_dst = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, a, b, 0, 0, n, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, b, CL_FALSE, 64, 4, &small_src, 0, NULL, NULL));
    small_src = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_FALSE, 64, 4, &small_dst, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(small_dst == 1234);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(src);
    free(dst);
}

/* Non-blocking commands behind a user event must return at once (the application sets the
 * event only after they returned) and deliver once it is set. */
static void test_gated(void) {
    cl_int err = 0;
    cl_event ue = clCreateUserEvent(ctx, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "user events not available (%d): gated transfers not tested\n", err);
        return;
    }
    size_t n = (size_t)32 << 20;
    unsigned char *src = malloc(n), *dst = malloc(n);
    fill_host(src, n, 31);
    memset(dst, 0, n);
    cl_mem m = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    int small = 77, small_back = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_FALSE, 0, n, src, 1, &ue, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_FALSE, 8, 4, &small, 0, NULL, NULL));
    small = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_FALSE, 0, n, dst, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_FALSE, 8, 4, &small_back, 0, NULL, NULL));
    size_t o[3] = {0, 0, 0}, reg[3] = {16, 4, 1};
    unsigned char rect[64] = {0};
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBufferRect(q, m, CL_FALSE, o, o, reg, 32, 0, 0, 0, rect, 0, NULL, NULL));
    unsigned char *p =
        clEnqueueMapBuffer(q, m, CL_FALSE, CL_MAP_READ, 0, 4096, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    /* nothing may have run yet */
    CHECK(dst[0] == 0 && dst[n - 1] == 0);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(ue, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    memcpy(src + 8, &(int){77}, 4);
    CHECK_SAME(dst, src, n, "gated read");
    CHECK(small_back == 77);
    CHECK(p && memcmp(p, src, 4096) == 0);
    CHECK(memcmp(rect, src, 16) == 0 && memcmp(rect + 48, src + 96, 16) == 0);
    if (p)
        clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL);
    clFinish(q);
    clReleaseEvent(ue);
    clReleaseMemObject(m);
    free(src);
    free(dst);
}

/* Non-blocking reads into pageable memory behind a held stream go through pinned bounce buffers,
 * which return to a pool after their host function: one that carried a rect read (unpacked row
 * by row into its destination) must carry the next linear read into the new destination, and
 * leave the rect's alone. */
static void test_bounce_reuse(void) {
    cl_int err = 0;
    unsigned char src[256];
    fill_host(src, sizeof src, 41);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    CHECK_ERR(CL_SUCCESS, err);
    unsigned char rect[64], line[64];
    size_t o[3] = {0, 0, 0}, reg[3] = {16, 4, 1};
    for (int round = 0; round < 3; round++) {
        memset(rect, 0, sizeof rect);
        memset(line, 0, sizeof line);
        cl_event ue = clCreateUserEvent(ctx, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBufferRect(q, m, CL_FALSE, o, o, reg, 32, 0, 0, 0, rect,
                                                      1, &ue, NULL));
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(ue, CL_COMPLETE));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK(memcmp(rect, src, 16) == 0 && memcmp(rect + 48, src + 96, 16) == 0);
        clReleaseEvent(ue);
        memset(rect, 0, sizeof rect);
        ue = clCreateUserEvent(ctx, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadBuffer(q, m, CL_FALSE, 64, sizeof line, line, 1, &ue, NULL));
        CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(ue, CL_COMPLETE));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK_SAME(line, src + 64, sizeof line, "linear read after a rect read");
        static const unsigned char zeros[64];
        CHECK_SAME(rect, zeros, sizeof rect, "the rect read's destination afterwards");
        clReleaseEvent(ue);
    }
    clReleaseMemObject(m);
}

/* Buffers released while the GPU waits for a user event the application sets afterwards: the
 * release must not wait for the device (cuMemFree and cuMemHostUnregister do), or this hangs.
 * Commands of other buffers use the released USE_HOST_PTR buffer's host memory meanwhile. */
static void test_release_while_gated(void) {
    cl_int err = 0;
    cl_event ue = clCreateUserEvent(ctx, &err);
    if (err != CL_SUCCESS)
        return;
    size_t n = (size_t)16 << 20;
    unsigned char *host = aligned_alloc(4096, n), *back = malloc(n), *back2 = malloc(n);
    fill_host(host, n, 57);
    cl_mem shared = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, n, host, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem m = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem m2 = clCreateBuffer(ctx, 0, 4096, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem plain = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    /* gated: nothing runs before the releases */
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_FALSE, 0, n, host, 1, &ue, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteBuffer(q, m2, CL_FALSE, 0, 4096, host + 4096, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(plain));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(shared));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(ue, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CHECK_SAME(back, host, n, "write from released USE_HOST_PTR memory");
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m2, CL_TRUE, 0, 4096, back2, 0, NULL, NULL));
    CHECK_SAME(back2, host + 4096, 4096, "small write from released USE_HOST_PTR memory");
    /* and the other way: reads into it, gated, then the release */
    cl_event ue2 = clCreateUserEvent(ctx, &err);
    CHECK_ERR(CL_SUCCESS, err);
    shared = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, n, host, &err);
    CHECK_ERR(CL_SUCCESS, err);
    fill_host(back, n, 58);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_FALSE, 0, n, host, 1, &ue2, NULL));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(shared));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(ue2, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK_SAME(host, back, n, "read into released USE_HOST_PTR memory");
    /* the context still works */
    int x = 5, y = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m2, CL_TRUE, 0, 4, &x, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m2, CL_TRUE, 0, 4, &y, 0, NULL, NULL));
    CHECK(y == 5);
    clReleaseEvent(ue);
    clReleaseEvent(ue2);
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    free(host);
    free(back);
    free(back2);
}

/* Several threads, each with its own queue, moving pageable data at the same time: the
 * staging pools are shared per device, so some transfers take the other paths. */
typedef struct worker {
    cl_device_id dev;
    unsigned seed;
    int failures;
} worker;

static void *worker_main(void *arg) {
    worker *wk = arg;
    cl_int err = 0;
    size_t n = ((size_t)40 << 20) + 4097;
    cl_command_queue wq = clCreateCommandQueueWithProperties(ctx, wk->dev, NULL, &err);
    cl_mem m = clCreateBuffer(ctx, 0, n, NULL, &err);
    unsigned char *src = malloc(n), *dst = malloc(n);
    if (!wq || !m || !src || !dst) {
        wk->failures++;
        return NULL;
    }
    for (int round = 0; round < 3; round++) {
        fill_host(src, n, wk->seed * 10 + (unsigned)round);
        memset(dst, 0, n);
        bool blocking = round != 1;
        if (clEnqueueWriteBuffer(wq, m, blocking, 0, n, src, 0, NULL, NULL) != CL_SUCCESS ||
            clEnqueueReadBuffer(wq, m, blocking, 0, n, dst, 0, NULL, NULL) != CL_SUCCESS ||
            clFinish(wq) != CL_SUCCESS || memcmp(src, dst, n) != 0)
            wk->failures++;
    }
    clReleaseMemObject(m);
    clReleaseCommandQueue(wq);
    free(src);
    free(dst);
    return NULL;
}

static void test_threads(cl_device_id dev) {
    enum { T = 4 };
    pthread_t t[T];
    worker w[T];
    for (int i = 0; i < T; i++) {
        w[i] = (worker){dev, (unsigned)i + 100, 0};
        CHECK(pthread_create(&t[i], NULL, worker_main, &w[i]) == 0);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(t[i], NULL);
        if (w[i].failures)
            fprintf(stderr, "thread %d: %d failed rounds\n", i, w[i].failures);
        CHECK(w[i].failures == 0);
    }
}

static void test_pinned(void) {
    size_t n = (size_t)64 << 20;
    cl_int err = 0;
    cl_mem host_side = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, n, NULL, &err);
    cl_mem dev_side = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    unsigned char *p = clEnqueueMapBuffer(q, host_side, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n,
                                          0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    unsigned char *ref = malloc(n);
    REQUIRE(p && ref);
    fill_host(ref, n, 5);
    memcpy(p, ref, n);
    /* the mapped (pinned) pointer as the source and destination of transfers */
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, dev_side, CL_FALSE, 0, n, p, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    memset(p, 0, n);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, dev_side, CL_TRUE, 0, n, p, 0, NULL, NULL));
    CHECK_SAME(p, ref, n, "pinned round trip");
    /* part of the mapped region, at an odd place */
    memset(p + 1001, 0, 5000);
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(q, dev_side, CL_TRUE, 1001, 5000, p + 1001, 0, NULL, NULL));
    CHECK_SAME(p, ref, n, "pinned partial read");
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, host_side, p, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    /* the unmap wrote the mapped bytes back to the ALLOC_HOST_PTR buffer */
    unsigned char *back = malloc(n);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, host_side, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CHECK_SAME(back, ref, n, "ALLOC_HOST_PTR after unmap");
    free(back);
    free(ref);
    clReleaseMemObject(host_side);
    clReleaseMemObject(dev_side);
}

static void test_copies(void) {
    cl_int err = 0;
    size_t n = 1 << 20;
    unsigned char *src = malloc(n), *dst = malloc(n), *ref = malloc(n);
    fill_host(src, n, 9);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n, src, &err);
    cl_mem b = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    unsigned char z = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, b, &z, 1, 0, n, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, a, b, 3, 1001, 70000, 0, NULL, NULL));
    memset(ref, 0, n);
    memcpy(ref + 1001, src + 3, 70000);
    /* within one buffer, non-overlapping */
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, b, b, 1001, 500000, 70000, 0, NULL, NULL));
    memcpy(ref + 500000, ref + 1001, 70000);
    /* sub-buffers of one parent */
    cl_buffer_region r1 = {4096, 8192}, r2 = {65536, 8192};
    cl_mem s1 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    cl_mem s2 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, s1, s2, 10, 20, 8000, 0, NULL, NULL));
    memcpy(ref + 65536 + 20, ref + 4096 + 10, 8000);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, 0, n, dst, 0, NULL, NULL));
    CHECK_SAME(dst, ref, n, "copies");
    /* reading through a sub-buffer */
    memset(dst, 0, 8192);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, s2, CL_TRUE, 0, 8192, dst, 0, NULL, NULL));
    CHECK_SAME(dst, ref + 65536, 8192, "sub-buffer read");
    clReleaseMemObject(s1);
    clReleaseMemObject(s2);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(src);
    free(dst);
    free(ref);
}

static void test_rects(void) {
    cl_int err = 0;
    size_t n = 1 << 20;
    unsigned char *host = malloc(n), *ref = malloc(n), *dev = malloc(n), *back = malloc(n);
    fill_host(host, n, 11);
    fill_host(ref, n, 12);
    memcpy(dev, ref, n);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n, ref, &err);
    CHECK_ERR(CL_SUCCESS, err);
    struct {
        size_t borg[3], horg[3], region[3], brp, bsp, hrp, hsp;
    } cases[] = {
        {{0, 0, 0}, {0, 0, 0}, {64, 1, 1}, 0, 0, 0, 0},
        {{5, 3, 2}, {1, 2, 3}, {37, 11, 5}, 100, 1200, 64, 1024},
        {{90, 1, 0}, {0, 0, 0}, {20, 7, 1}, 100, 0, 0, 0}, /* origin[0] + region[0] > pitch */
        {{0, 0, 1}, {3, 0, 0}, {1000, 30, 4}, 1024, 40960, 1003, 31 * 1003},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t brp = cases[c].brp ? cases[c].brp : cases[c].region[0];
        size_t bsp = cases[c].bsp ? cases[c].bsp : brp * cases[c].region[1];
        size_t hrp = cases[c].hrp ? cases[c].hrp : cases[c].region[0];
        size_t hsp = cases[c].hsp ? cases[c].hsp : hrp * cases[c].region[1];
        for (int blocking = 0; blocking < 2; blocking++) {
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueWriteBufferRect(q, m, blocking, cases[c].borg, cases[c].horg,
                                               cases[c].region, cases[c].brp, cases[c].bsp,
                                               cases[c].hrp, cases[c].hsp, host, 0, NULL, NULL));
            cv_test_rect_copy(dev, cases[c].borg, brp, bsp, host, cases[c].horg, hrp, hsp,
                              cases[c].region);
            memcpy(back, ref, n);
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueReadBufferRect(q, m, blocking, cases[c].borg, cases[c].horg,
                                              cases[c].region, cases[c].brp, cases[c].bsp,
                                              cases[c].hrp, cases[c].hsp, back, 0, NULL, NULL));
            CHECK_ERR(CL_SUCCESS, clFinish(q));
            unsigned char *expect = malloc(n);
            memcpy(expect, ref, n);
            cv_test_rect_copy(expect, cases[c].horg, hrp, hsp, dev, cases[c].borg, brp, bsp,
                              cases[c].region);
            char what[64];
            snprintf(what, sizeof what, "rect case %zu %s", c, blocking ? "blocking" : "async");
            CHECK_SAME(back, expect, n, what);
            free(expect);
        }
    }
    /* copy rect within the buffer and to another buffer */
    cl_mem m2 = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n, ref, &err);
    unsigned char *dev2 = malloc(n);
    memcpy(dev2, ref, n);
    size_t so[3] = {7, 2, 1}, d_o[3] = {1, 5, 3}, reg[3] = {50, 9, 3};
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBufferRect(q, m, m2, so, d_o, reg, 64, 64 * 16, 80, 80 * 20,
                                                  0, NULL, NULL));
    cv_test_rect_copy(dev2, d_o, 80, 80 * 20, dev, so, 64, 64 * 16, reg);
    size_t so2[3] = {0, 0, 0}, d_o2[3] = {0, 0, 300}, reg2[3] = {100, 10, 2};
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBufferRect(q, m, m, so2, d_o2, reg2, 128, 1280, 128, 1280, 0,
                                                  NULL, NULL));
    cv_test_rect_copy(dev, d_o2, 128, 1280, dev, so2, 128, 1280, reg2);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m2, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CHECK_SAME(back, dev2, n, "copy rect");
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, back, 0, NULL, NULL));
    CHECK_SAME(back, dev, n, "copy rect within one buffer");
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    free(host);
    free(ref);
    free(dev);
    free(dev2);
    free(back);
}

static void test_fills(void) {
    cl_int err = 0;
    size_t n = ((size_t)3 << 20) + 4096;
    unsigned char *ref = malloc(n), *back = malloc(n);
    cl_mem m = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    unsigned char pattern[128];
    int cases = 0;
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        for (int kind = 0; kind < 3; kind++) {
            /* distinct bytes; a periodic pattern (all zero but the last byte of each quarter);
             * all equal */
            for (size_t i = 0; i < ps; i++)
                pattern[i] = kind == 0   ? (unsigned char)(i * 13 + ps + 1)
                             : kind == 1 ? (unsigned char)(i % 4 == 3 ? 0x80 : 0)
                                         : 0x5e;
            const size_t offs[] = {0, ps, 3 * ps, 1024 * ps};
            const size_t lens[] = {ps, 5 * ps, 65536 - (65536 % ps), n - 1024 * ps - 8 * ps};
            for (size_t oi = 0; oi < 4; oi++) {
                size_t off = offs[oi], len = lens[oi];
                if (off + len > n)
                    continue;
                unsigned char zero = 0xa5;
                CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, m, &zero, 1, 0, n, 0, NULL, NULL));
                memset(ref, 0xa5, n);
                CHECK_ERR(CL_SUCCESS,
                          clEnqueueFillBuffer(q, m, pattern, ps, off, len, 0, NULL, NULL));
                memset(pattern, 0xff, ps); /* may be reused at once */
                for (size_t i = 0; i < len; i++)
                    ref[off + i] = kind == 0   ? (unsigned char)((i % ps) * 13 + ps + 1)
                                   : kind == 1 ? (unsigned char)((i % ps) % 4 == 3 ? 0x80 : 0)
                                               : 0x5e;
                CHECK_ERR(CL_SUCCESS,
                          clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, back, 0, NULL, NULL));
                char what[80];
                snprintf(what, sizeof what, "fill pattern %zu kind %d offset %zu size %zu", ps,
                         kind, off, len);
                CHECK_SAME(back, ref, n, what);
                cases++;
                for (size_t i = 0; i < ps; i++)
                    pattern[i] = kind == 0   ? (unsigned char)(i * 13 + ps + 1)
                                 : kind == 1 ? (unsigned char)(i % 4 == 3 ? 0x80 : 0)
                                             : 0x5e;
            }
        }
    }
    CHECK(cases >= 80);
    clReleaseMemObject(m);
    free(ref);
    free(back);
}

int main(void) {
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err = 0;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    test_pageable();
    test_large();
    test_gated();
    test_bounce_reuse();
    test_release_while_gated();
    test_pinned();
    test_copies();
    test_rects();
    test_fills();
    test_threads(dev);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("buffers_transfer");
}
