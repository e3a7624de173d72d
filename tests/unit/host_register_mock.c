/* A USE_HOST_PTR buffer's registration on its way out (issue 17), on the fake driver of
 * tests/fake_cuda: the reaper removes it later, CUDA calls the range pinned meanwhile, and the
 * application may already use the memory for another buffer, as the CTS does (a COPY_HOST_PTR
 * buffer from the pointer of the USE_HOST_PTR buffer it just released). No copy may be a DMA
 * through that registration (it would race the reaper's cuMemHostUnregister); once the reaper
 * is done, the memory registers again and copies DMA it directly. A closed gate (a marker waiting
 * for a user event) holds the reaper, so the registration stays on its way out for as long as the
 * test needs. Then the two orders that the driver leaves to culvert: a buffer released by the
 * application while a command in flight still holds it (its memory is the application's at
 * once), and a copy queued from the memory before the release (the registration goes only after
 * it ran: the fake aborts a release of memory that a queued copy still uses). */
#include "fake_cuda.h"
#include "test_util.h"

#include <stdint.h>
#include <string.h>

#define SIZE ((size_t)1 << 20)

static fakecuda_state *fake;
static cl_context ctx;
static cl_command_queue q;

/* Did the last copy the fake queued as a DMA of pinned memory go through [p, p + SIZE)? */
static int dma_from(const void *p) {
    const char *at = fake->last_dma_host, *lo = p;
    return at && at >= lo && at < lo + SIZE;
}

static cl_mem buffer(cl_mem_flags flags, void *host) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, flags, SIZE, host, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    return m;
}

static void fill(unsigned char *p, unsigned char seed) {
    for (size_t i = 0; i < SIZE; i++)
        p[i] = (unsigned char)(seed + i * 7);
}

/* m's contents are the pattern of seed. */
static int holds(cl_mem m, unsigned char seed) {
    unsigned char *back = malloc(SIZE), *want = malloc(SIZE);
    REQUIRE(back && want);
    fill(want, seed);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, SIZE, back, 0, NULL, NULL));
    int same = memcmp(back, want, SIZE) == 0;
    free(back);
    free(want);
    return same;
}

/* The application's last release of a USE_HOST_PTR buffer that an event-less copy still holds
 * (its batch waits behind a closed gate): copies of the memory are no DMA through the
 * registration from then on, though the buffer lives until the copy is done. */
static void released_while_held(cl_command_queue held, cl_mem other) {
    cl_int err = CL_SUCCESS;
    unsigned char *p = aligned_alloc(4096, SIZE);
    REQUIRE(p);
    fill(p, 5);
    cl_mem used = buffer(CL_MEM_USE_HOST_PTR, p), sink = buffer(CL_MEM_READ_WRITE, NULL);
    cl_event gate = clCreateUserEvent(ctx, &err), marker = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(held, 1, &gate, &marker));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(held, used, sink, 0, 0, SIZE, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(used));
    fake->last_dma_host = NULL;
    fill(p, 6);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, other, CL_TRUE, 0, SIZE, p, 0, NULL, NULL));
    CHECK(!dma_from(p));
    cl_mem copied = buffer(CL_MEM_COPY_HOST_PTR, p);
    CHECK(!dma_from(p));
    CHECK(holds(copied, 6));
    CHECK(holds(other, 6));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(held));
    CHECK(holds(sink, 5));
    clReleaseMemObject(copied);
    clReleaseMemObject(sink);
    clReleaseEvent(marker);
    clReleaseEvent(gate);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    free(p);
}

/* A copy DMA'd from a USE_HOST_PTR buffer's memory into another buffer, still queued (the GPU is
 * busy: each queued copy of the fake waits 100 ms), then the buffer's release: its registration
 * goes only after the copy ran. */
static void released_while_copied(cl_mem other) {
    unsigned char *p = aligned_alloc(4096, SIZE);
    REQUIRE(p);
    fill(p, 7);
    cl_mem used = buffer(CL_MEM_USE_HOST_PTR, p);
    fake->last_dma_host = NULL;
    fake->copy_delay_us = 100000;
    cl_event written = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, other, CL_FALSE, 0, SIZE, p, 0, NULL, &written));
    CHECK(dma_from(p));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(used));
    /* Registers once the reaper removed the old registration (it waits for the reaper). */
    cl_mem again = buffer(CL_MEM_USE_HOST_PTR, p);
    fake->copy_delay_us = 0;
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &written));
    CHECK(holds(other, 7));
    CHECK(holds(again, 7));
    clReleaseEvent(written);
    clReleaseMemObject(again);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    free(p);
}

int main(void) {
    fake = fakecuda_find();
    if (!fake) {
        fprintf(stderr, "not the fake driver (LD_LIBRARY_PATH): skipped\n");
        return CV_TEST_SKIP;
    }
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err = CL_SUCCESS;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS && ctx);
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_command_queue held = clCreateCommandQueue(ctx, dev, 0, &err);
    REQUIRE(q && held);
    unsigned char *p = aligned_alloc(4096, SIZE);
    REQUIRE(p);

    /* Registered: a copy from the memory is a DMA of it. */
    fill(p, 1);
    cl_mem used = buffer(CL_MEM_USE_HOST_PTR, p);
    cl_mem other = buffer(CL_MEM_READ_WRITE, NULL);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, other, CL_TRUE, 0, SIZE, p, 0, NULL, NULL));
    CHECK(dma_from(p));
    CHECK(holds(other, 1));

    /* The reaper waits while the gate is closed: the release leaves the registration on its way
     * out. */
    cl_event gate = clCreateUserEvent(ctx, &err);
    cl_event marker = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(held, 1, &gate, &marker));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(used));
    fake->last_dma_host = NULL;

    /* The application uses the memory again: every copy from or into it is staged or bounced. */
    fill(p, 2);
    cl_mem copied = buffer(CL_MEM_COPY_HOST_PTR, p);
    CHECK(!dma_from(p));
    CHECK(holds(copied, 2));
    fill(p, 3);
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, other, CL_FALSE, 0, SIZE, p, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(!dma_from(p));
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, other, CL_TRUE, 0, 4096, p, 0, NULL, NULL));
    CHECK(!dma_from(p));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, copied, CL_TRUE, 0, SIZE, p, 0, NULL, NULL));
    CHECK(!dma_from(p));
    CHECK(holds(other, 3));
    size_t origin[3] = {0, 0, 0}, region[3] = {256, 16, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBufferRect(q, other, CL_TRUE, origin, origin, region, 256,
                                                   0, 256, 0, p, 0, NULL, NULL));
    CHECK(!dma_from(p));
    /* A new USE_HOST_PTR buffer cannot register the memory yet: it works, staged. */
    cl_mem again = buffer(CL_MEM_USE_HOST_PTR, p);
    CHECK(!dma_from(p));
    CHECK(holds(again, 2));
    clReleaseMemObject(again);

    /* The gate opens, the reaper unregisters: the memory registers again (the creation waits for
     * the reaper where it still runs), and copies DMA it directly. */
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(held));
    fill(p, 4);
    cl_mem reused = buffer(CL_MEM_USE_HOST_PTR, p);
    fake->last_dma_host = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, other, CL_TRUE, 0, SIZE, p, 0, NULL, NULL));
    CHECK(dma_from(p));
    CHECK(holds(other, 4));

    released_while_held(held, other);
    released_while_copied(other);

    clReleaseMemObject(reused);
    clReleaseMemObject(copied);
    clReleaseMemObject(other);
    clReleaseEvent(marker);
    clReleaseEvent(gate);
    clReleaseCommandQueue(held);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(p);
    return cv_test_report("host_register_mock");
}
