/* Maps on the GPU, for every kind of buffer (plain, ALLOC_HOST_PTR, USE_HOST_PTR aligned and
 * not, COPY_HOST_PTR, sub-buffers): read and write maps, blocking and not, write-invalidate,
 * map counts, the USE_HOST_PTR pointer promise, several live maps; and migration. */
#include "test_util.h"

#include <stdint.h>
#include <string.h>

static cl_context ctx;
static cl_command_queue q;

enum { N = 3 * 1024 * 1024 + 256 };

/* Page-aligned memory (aligned_alloc wants a size that is a multiple of the alignment). */
static unsigned char *page_alloc(size_t n) {
    return aligned_alloc(4096, (n + 4095) / 4096 * 4096);
}

static unsigned char val(size_t i, unsigned seed) {
    return (unsigned char)((i * 31 + seed * 7) ^ (i >> 9));
}

static void test_kind(cl_mem_flags flags, size_t shift, const char *name) {
    cl_int err = 0;
    unsigned char *store = NULL, *host = NULL;
    if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) {
        store = page_alloc(N + 4096);
        host = store + shift;
        for (size_t i = 0; i < N; i++)
            host[i] = val(i, 1);
    }
    cl_mem m = clCreateBuffer(ctx, flags, N, host, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (!host) {
        unsigned char *init = malloc(N);
        for (size_t i = 0; i < N; i++)
            init[i] = val(i, 1);
        CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_TRUE, 0, N, init, 0, NULL, NULL));
        free(init);
    }
    /* blocking read map of a middle region */
    size_t off = 12345, len = 1 << 20;
    unsigned char *p =
        clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, off, len, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p != NULL);
    if (flags & CL_MEM_USE_HOST_PTR)
        CHECK(p == host + off);
    size_t bad = 0;
    for (size_t i = 0; i < len; i++)
        bad += p[i] != val(off + i, 1);
    if (bad)
        fprintf(stderr, "%s: read map: %zu wrong bytes\n", name, bad);
    CHECK(bad == 0);
    cl_uint count = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 1);
    /* a second live map (write), non-blocking, of another region */
    cl_event me = NULL;
    size_t off2 = 2 << 20, len2 = 4096;
    unsigned char *w =
        clEnqueueMapBuffer(q, m, CL_FALSE, CL_MAP_WRITE, off2, len2, 0, NULL, &me, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(w != NULL);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &me));
    clReleaseEvent(me);
    CHECK(w[0] == val(off2, 1) && w[len2 - 1] == val(off2 + len2 - 1, 1));
    for (size_t i = 0; i < len2; i++)
        w[i] = val(off2 + i, 2);
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 2);
    /* unmap in the other order; a pointer not mapped is refused */
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(q, m, w + 1, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, m, w, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
    CHECK(count == 0);
    /* write-invalidate map of the start: every byte written by the host */
    unsigned char *inv = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 256,
                                            0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(inv != NULL);
    for (size_t i = 0; i < 256; i++)
        inv[i] = val(i, 3);
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, m, inv, 0, NULL, NULL));
    /* everything as expected on the device */
    unsigned char *back = malloc(N);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, N, back, 0, NULL, NULL));
    bad = 0;
    for (size_t i = 0; i < N; i++) {
        unsigned char e = i < 256                          ? val(i, 3)
                          : (i >= off2 && i < off2 + len2) ? val(i, 2)
                                                           : val(i, 1);
        bad += back[i] != e;
    }
    if (bad)
        fprintf(stderr, "%s: after unmaps: %zu wrong bytes\n", name, bad);
    CHECK(bad == 0);
    /* USE_HOST_PTR: device-side changes reach host_ptr through a map (and then stay there) */
    if (flags & CL_MEM_USE_HOST_PTR) {
        unsigned char pat = 0x77;
        CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, m, &pat, 1, 100, 50, 0, NULL, NULL));
        void *hp = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, N, 0, NULL, NULL, &err);
        CHECK(hp == host);
        CHECK(host[99] == val(99, 3) && host[100] == 0x77 && host[149] == 0x77 &&
              host[150] == val(150, 3));
        CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, m, hp, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK(host[100] == 0x77);
    }
    /* a sub-buffer's map points into the parent's mapping space */
    cl_buffer_region r = {1 << 20, 1 << 20};
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(CL_SUCCESS, err);
    unsigned char *sp =
        clEnqueueMapBuffer(q, s, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 8, 64, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(sp != NULL);
    if (flags & CL_MEM_USE_HOST_PTR)
        CHECK(sp == host + (1 << 20) + 8);
    CHECK(sp[0] == back[(1 << 20) + 8]);
    sp[0] = (unsigned char)~sp[0];
    unsigned char expect = sp[0];
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, s, sp, 0, NULL, NULL));
    unsigned char got = 0;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(q, m, CL_TRUE, (1 << 20) + 8, 1, &got, 0, NULL, NULL));
    CHECK(got == expect);
    clReleaseMemObject(s);
    free(back);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    free(store);
}

static void test_migrate(void) {
    cl_int err = 0;
    unsigned data[64], back[64];
    for (int i = 0; i < 64; i++)
        data[i] = (unsigned)i * 3u;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cl_mem b = clCreateBuffer(ctx, 0, 4096, NULL, &err);
    cl_mem both[2] = {a, b};
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueMigrateMemObjects(q, 2, both, 0, 0, NULL, &e));
    cl_command_type t = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CHECK(t == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    CHECK_ERR(CL_SUCCESS,
              clEnqueueMigrateMemObjects(q, 1, &a, CL_MIGRATE_MEM_OBJECT_HOST, 1, &e, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueMigrateMemObjects(
                              q, 1, &b, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
    clReleaseEvent(e);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CHECK(memcmp(back, data, sizeof data) == 0);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

int main(void) {
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err = 0;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    test_kind(0, 0, "plain");
    test_kind(CL_MEM_ALLOC_HOST_PTR, 0, "ALLOC_HOST_PTR");
    test_kind(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 0, "ALLOC|COPY_HOST_PTR");
    test_kind(CL_MEM_COPY_HOST_PTR, 0, "COPY_HOST_PTR");
    test_kind(CL_MEM_USE_HOST_PTR, 0, "USE_HOST_PTR page-aligned");
    test_kind(CL_MEM_USE_HOST_PTR, 8, "USE_HOST_PTR unaligned");
    /* two USE_HOST_PTR buffers on the same memory: the second cannot be registered again and
     * must work staged */
    {
        unsigned char *mem = page_alloc(N);
        memset(mem, 0x42, N);
        cl_mem a = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N, mem, &err);
        CHECK_ERR(CL_SUCCESS, err);
        cl_mem b = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N, mem, &err);
        CHECK_ERR(CL_SUCCESS, err);
        unsigned char x = 0;
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, N - 1, 1, &x, 0, NULL, NULL));
        CHECK(x == 0x42);
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        free(mem);
    }
    test_migrate();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("buffers_map");
}
