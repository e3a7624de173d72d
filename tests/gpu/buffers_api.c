/* Buffer objects on the GPU: every flag combination, sizes, host pointers, properties, queries,
 * sub-buffers (rules, inheritance, alignment), destructor callbacks (order, after the memory is
 * gone), allocation failure with culvert still working, and the validation of every command. */
#include "test_util.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static const cl_mem_flags all_flags[] = {
    CL_MEM_READ_WRITE,      CL_MEM_WRITE_ONLY,     CL_MEM_READ_ONLY,
    CL_MEM_USE_HOST_PTR,    CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR,
    CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS,
};
#define NFLAGS (sizeof all_flags / sizeof all_flags[0])

static int popcount(cl_mem_flags f) {
    return __builtin_popcountll((unsigned long long)f);
}

/* What the spec's flag table allows. */
static bool flags_valid(cl_mem_flags f) {
    cl_mem_flags access = f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
    cl_mem_flags host =
        f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    bool use = f & CL_MEM_USE_HOST_PTR;
    return popcount(access) <= 1 && popcount(host) <= 1 &&
           !(use && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

static void test_flag_combinations(void) {
    enum { N = 4096 };
    static unsigned char host[N];
    for (size_t i = 0; i < N; i++)
        host[i] = (unsigned char)(i * 7 + 3);
    int created = 0;
    for (unsigned mask = 0; mask < (1u << NFLAGS); mask++) {
        cl_mem_flags f = 0;
        for (unsigned b = 0; b < NFLAGS; b++)
            if (mask & (1u << b))
                f |= all_flags[b];
        bool needs_ptr = f & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        cl_int err = 0;
        cl_mem m = clCreateBuffer(ctx, f, N, needs_ptr ? host : NULL, &err);
        if (!flags_valid(f)) {
            if (err != CL_INVALID_VALUE)
                fprintf(stderr, "flags 0x%llx: expected CL_INVALID_VALUE, got %d\n",
                        (unsigned long long)f, err);
            CHECK_ERR(CL_INVALID_VALUE, err);
            CHECK(m == NULL);
            continue;
        }
        if (err != CL_SUCCESS)
            fprintf(stderr, "flags 0x%llx: expected success, got %d\n", (unsigned long long)f, err);
        CHECK_ERR(CL_SUCCESS, err);
        if (!m)
            continue;
        created++;
        cl_mem_flags got = 0;
        CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got, &got, NULL));
        CHECK(got == f);
        void *hp = (void *)1;
        CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
        CHECK(hp == ((f & CL_MEM_USE_HOST_PTR) ? (void *)host : NULL));
        /* initial contents of COPY/USE_HOST_PTR buffers, read back where the host may read */
        if (needs_ptr && !(f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) {
            static unsigned char back[N];
            memset(back, 0, N);
            CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 0, N, back, 0, NULL, NULL));
            CHECK(memcmp(back, host, N) == 0);
        }
        CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
    }
    CHECK(created > 50);
    /* bits outside the table, and the flags meant for images or SVM */
    cl_int err = 0;
    CHECK(clCreateBuffer(ctx, (cl_mem_flags)1 << 40, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clCreateBuffer(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clCreateBuffer(ctx, CL_MEM_KERNEL_READ_AND_WRITE, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
}

static void test_sizes_and_host_ptr(void) {
    cl_int err = 0;
    char host[16];
    cl_ulong max_alloc = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                                          &max_alloc, NULL));
    CHECK(clCreateBuffer(ctx, 0, 0, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_BUFFER_SIZE, err);
    CHECK(clCreateBuffer(ctx, 0, (size_t)max_alloc + 1, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_BUFFER_SIZE, err);
    CHECK(clCreateBuffer(ctx, 0, SIZE_MAX, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_BUFFER_SIZE, err);
    /* "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
     * are set ... or if host_ptr is not NULL but [they] are not set" */
    CHECK(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_HOST_PTR, err);
    CHECK(clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 16, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_HOST_PTR, err);
    CHECK(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, host, &err) == NULL);
    CHECK_ERR(CL_INVALID_HOST_PTR, err);
    CHECK(clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 16, host, &err) == NULL);
    CHECK_ERR(CL_INVALID_HOST_PTR, err);

    /* The largest allocation really is the device's free memory: most of it must work. */
    size_t big = (size_t)(max_alloc / 10 * 9) / 4096 * 4096;
    cl_mem m = clCreateBuffer(ctx, 0, big, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (m) {
        cl_uint v = 0x5a5a5a5a, got = 0;
        CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, m, &v, 4, big - 4096, 4096, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, big - 4, 4, &got, 0, NULL, NULL));
        CHECK(got == v);
        /* A second one of the same size cannot fit: allocation failure, nothing broken. */
        cl_mem m2 = clCreateBuffer(ctx, 0, big, NULL, &err);
        CHECK(m2 == NULL);
        CHECK(err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES);
        if (m2)
            clReleaseMemObject(m2);
        CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
        /* the fill's hold on it ends with the queue's work */
        CHECK_ERR(CL_SUCCESS, clFinish(q));
    }
    /* ... and culvert goes on working */
    m = clCreateBuffer(ctx, 0, 1 << 20, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    int x = 42, y = 0;
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_TRUE, 100, 4, &x, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 100, 4, &y, 0, NULL, NULL));
    CHECK(y == 42);
    clReleaseMemObject(m);
}

static void test_properties_and_info(void) {
    cl_int err = 0;
    cl_mem_properties bad[] = {0x7fff, 1, 0};
    CHECK(clCreateBufferWithProperties(ctx, bad, 0, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_PROPERTY, err);
    cl_mem_properties empty[] = {0};
    cl_mem m = clCreateBufferWithProperties(ctx, empty, CL_MEM_READ_ONLY, 1000, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    size_t sz = 99;
    cl_mem_properties got[4] = {7, 7, 7, 7};
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &sz));
    CHECK(sz == sizeof(cl_mem_properties) && got[0] == 0);
    cl_mem m2 = clCreateBufferWithProperties(ctx, NULL, 0, 1000, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m2, CL_MEM_PROPERTIES, 0, NULL, &sz));
    CHECK(sz == 0);

    cl_mem_object_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_OBJECT_BUFFER);
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size == 1000);
    cl_context c = NULL;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL));
    CHECK(c == ctx);
    cl_uint refs = 0, maps = 9;
    CHECK_ERR(CL_SUCCESS, clRetainMemObject(m));
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
    CHECK(maps == 0);
    cl_mem assoc = (cl_mem)1;
    CHECK_ERR(CL_SUCCESS,
              clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == NULL);
    size_t off = 9;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof off, &off, NULL));
    CHECK(off == 0);
    cl_bool b = CL_TRUE;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof b, &b, NULL));
    CHECK(b == CL_FALSE);
    b = CL_TRUE;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_IS_HOST_VALUE_CULVERT, sizeof b, &b, NULL));
    CHECK(b == CL_FALSE);
    cl_ulong addr = 0;
    CHECK_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(m, CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT,
                                                   sizeof addr, &addr, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(m, 0x7fff, sizeof addr, &addr, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &addr, NULL));
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
}

static void test_sub_buffers(void) {
    cl_int err = 0;
    cl_uint align_bits = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                          &align_bits, NULL));
    size_t align = align_bits / 8;
    CHECK(align >= 4);
    cl_mem p =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 16 * align, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_buffer_region r = {align, 4 * align};
    cl_mem s = clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem_flags f = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(s, CL_MEM_FLAGS, sizeof f, &f, NULL));
    CHECK(f == (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY)); /* inherited */
    cl_mem assoc = NULL;
    CHECK_ERR(CL_SUCCESS,
              clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == p);
    size_t off = 0, size = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, NULL));
    CHECK(off == align);
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size == 4 * align);
    /* access flags that contradict the parent's */
    CHECK(clCreateSubBuffer(p, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clCreateSubBuffer(p, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clCreateSubBuffer(p, CL_MEM_HOST_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
          NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clCreateSubBuffer(p, CL_MEM_ALLOC_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
          NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_mem same = clCreateSubBuffer(p, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK(same != NULL && same != s);
    if (same)
        clReleaseMemObject(same);
    /* create type, info, size 0, bounds, alignment, nesting */
    CHECK(clCreateSubBuffer(p, 0, 0x7777, &r, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_buffer_region zero = {0, 0};
    CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &zero, &err) == NULL);
    CHECK_ERR(CL_INVALID_BUFFER_SIZE, err);
    cl_buffer_region out = {15 * align, align + 1};
    CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &out, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_buffer_region wrap = {align, SIZE_MAX - align + 2};
    CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &wrap, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_buffer_region mis = {align / 2, 16};
    CHECK(clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err) == NULL);
    CHECK_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET, err);
    cl_buffer_region inner = {0, 16};
    CHECK(clCreateSubBuffer(s, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &err) == NULL);
    CHECK_ERR(CL_INVALID_MEM_OBJECT, err);

    /* The sub-buffer holds its parent: releasing the parent first is fine. */
    cl_mem rw = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * align, NULL, &err);
    cl_buffer_region r2 = {2 * align, align};
    cl_mem s2 = clCreateSubBuffer(rw, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(s2, CL_MEM_FLAGS, sizeof f, &f, NULL));
    CHECK(f == CL_MEM_READ_ONLY);
    unsigned char pat = 0xab, back[16];
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, rw, &pat, 1, 0, 8 * align, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(rw));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, s2, CL_TRUE, 0, 16, back, 0, NULL, NULL));
    CHECK(back[0] == 0xab && back[15] == 0xab);
    clReleaseMemObject(s2);
    clReleaseMemObject(s);
    clReleaseMemObject(p);
}

static int order[8];
static _Atomic int order_n;

/* Holds may be dropped by a background tracker shortly after clFinish: wait up to 2 s. */
static void wait_for_callbacks(int n) {
    for (int i = 0; i < (int)(cv_test_limit_s(2.0) * 1000) && order_n < n; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}
static void CL_CALLBACK record_cb(cl_mem m, void *user_data) {
    (void)m;
    if (order_n < 8)
        order[order_n++] = (int)(intptr_t)user_data;
}

static void test_destructors(void) {
    cl_int err = 0;
    order_n = 0;
    cl_mem m = clCreateBuffer(ctx, 0, 4096, NULL, &err);
    CHECK_ERR(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(m, NULL, NULL));
    for (int i = 1; i <= 3; i++)
        CHECK_ERR(CL_SUCCESS, clSetMemObjectDestructorCallback(m, record_cb, (void *)(intptr_t)i));
    cl_buffer_region r = {0, 256};
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK_ERR(CL_SUCCESS, clSetMemObjectDestructorCallback(s, record_cb, (void *)(intptr_t)9));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CHECK(order_n == 0); /* the sub-buffer still holds it */
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(s));
    /* "called in the reverse order in which they were registered"; the sub-buffer goes first */
    CHECK(order_n == 4);
    CHECK(order[0] == 9 && order[1] == 3 && order[2] == 2 && order[3] == 1);

    /* Released while a command using it is in flight: the command completes, then the
     * callback runs. */
    order_n = 0;
    size_t n = (size_t)64 << 20;
    unsigned char *host = malloc(n);
    memset(host, 0x11, n);
    m = clCreateBuffer(ctx, 0, n, NULL, &err);
    cl_mem dst = clCreateBuffer(ctx, 0, n, NULL, &err);
    CHECK_ERR(CL_SUCCESS, clSetMemObjectDestructorCallback(m, record_cb, (void *)(intptr_t)5));
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_FALSE, 0, n, host, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, m, dst, 0, 0, n, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    wait_for_callbacks(1);
    CHECK(order_n == 1 && order[0] == 5);
    memset(host, 0, n);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, dst, CL_TRUE, 0, n, host, 0, NULL, NULL));
    CHECK(host[0] == 0x11 && host[n / 2] == 0x11 && host[n - 1] == 0x11);
    clReleaseMemObject(dst);
    free(host);
}

static void test_command_validation(void) {
    cl_int err = 0;
    char host[256];
    cl_mem m = clCreateBuffer(ctx, 0, 1024, NULL, &err);
    cl_mem wo = clCreateBuffer(ctx, CL_MEM_HOST_WRITE_ONLY, 1024, NULL, &err);
    cl_mem ro = clCreateBuffer(ctx, CL_MEM_HOST_READ_ONLY, 1024, NULL, &err);
    cl_mem na = clCreateBuffer(ctx, CL_MEM_HOST_NO_ACCESS, 1024, NULL, &err);
    /* ranges, overflow-safe */
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(q, m, CL_TRUE, 1000, 25, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBuffer(q, m, CL_TRUE, 8, SIZE_MAX - 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueWriteBuffer(q, m, CL_TRUE, SIZE_MAX, 2, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 1000, 24, host, 0, NULL, NULL));
    /* host access */
    CHECK_ERR(CL_INVALID_OPERATION, clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_OPERATION, clEnqueueReadBuffer(q, na, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_OPERATION,
              clEnqueueWriteBuffer(q, ro, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_OPERATION,
              clEnqueueWriteBuffer(q, na, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, wo, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, ro, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    size_t o[3] = {0, 0, 0}, reg[3] = {4, 1, 1};
    CHECK_ERR(CL_INVALID_OPERATION,
              clEnqueueReadBufferRect(q, na, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_OPERATION,
              clEnqueueWriteBufferRect(q, ro, CL_TRUE, o, o, reg, 0, 0, 0, 0, host, 0, NULL, NULL));
    /* maps */
    CHECK(clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_OPERATION, err);
    CHECK(clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_OPERATION, err);
    CHECK(clEnqueueMapBuffer(q, na, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL,
                             &err) == NULL);
    CHECK_ERR(CL_INVALID_OPERATION, err);
    CHECK(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0,
                             NULL, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clEnqueueMapBuffer(q, m, CL_TRUE, (cl_map_flags)1 << 20, 0, 4, 0, NULL, NULL, &err) ==
          NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 1020, 8, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(q, m, host, 0, NULL, NULL));
    /* copies: ranges and overlap, also between sub-buffers of one parent */
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(q, m, ro, 0, 1000, 25, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(q, m, ro, SIZE_MAX, 0, 2, 0, NULL, NULL));
    CHECK_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(q, m, m, 0, 100, 101, 0, NULL, NULL));
    CHECK_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(q, m, m, 100, 0, 101, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, m, m, 0, 100, 100, 0, NULL, NULL));
    cl_buffer_region r1 = {0, 512}, r2 = {256, 512};
    cl_mem s1 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    cl_mem s2 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    CHECK_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(q, s1, s2, 256, 0, 16, 0, NULL, NULL));
    CHECK_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(q, s1, m, 0, 0, 16, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, s1, s2, 0, 0, 256, 0, NULL, NULL));
    /* rect copies within one buffer: interleaved rows do not overlap, crossing rows do */
    size_t so[3] = {0, 0, 0}, dof[3] = {8, 0, 0}, rr[3] = {8, 4, 1};
    CHECK_ERR(CL_SUCCESS,
              clEnqueueCopyBufferRect(q, m, m, so, dof, rr, 16, 64, 16, 64, 0, NULL, NULL));
    size_t dof2[3] = {4, 1, 0};
    CHECK_ERR(CL_MEM_COPY_OVERLAP,
              clEnqueueCopyBufferRect(q, m, m, so, dof2, rr, 16, 64, 16, 64, 0, NULL, NULL));
    /* rect pitches and bounds */
    size_t big[3] = {8, 8, 1}, zero[3] = {8, 0, 1};
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, zero, 0, 0, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 4, 0, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 0, 0, 4, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 8, 60, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 8, 68, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 147, 0, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 127, 0, 0, 0, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(q, m, CL_TRUE, NULL, o, big, 0, 0, 0, 0,
                                                        host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, big, 0, 0, 0, 0, NULL, 0, NULL, NULL));
    /* fills */
    unsigned char pat[256] = {0};
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, pat, 3, 0, 12, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, pat, 256, 0, 256, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, pat, 0, 0, 256, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, NULL, 4, 0, 256, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, pat, 8, 4, 256, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, pat, 8, 0, 252, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(q, m, pat, 4, 1024, 4, 0, NULL, NULL));
    /* migrate */
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(q, 0, &m, 0, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(q, 1, &m, 1 << 7, 0, NULL, NULL));
    cl_mem bad[2] = {m, (cl_mem)ctx};
    CHECK_ERR(CL_INVALID_MEM_OBJECT, clEnqueueMigrateMemObjects(q, 2, bad, 0, 0, NULL, NULL));
    /* wait lists */
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST,
              clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, host, 1, NULL, NULL));
    /* objects of another context */
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_mem om = clCreateBuffer(other, 0, 1024, NULL, &err);
    CHECK_ERR(CL_INVALID_CONTEXT, clEnqueueReadBuffer(q, om, CL_TRUE, 0, 4, host, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_CONTEXT, clEnqueueCopyBuffer(q, m, om, 0, 0, 4, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_CONTEXT, clEnqueueFillBuffer(q, om, pat, 4, 0, 4, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_CONTEXT, clEnqueueMigrateMemObjects(q, 1, &om, 0, 0, NULL, NULL));
    CHECK(clEnqueueMapBuffer(q, om, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_CONTEXT, err);
    clReleaseMemObject(om);
    clReleaseContext(other);
    /* released objects are refused, never used */
    cl_mem gone = clCreateBuffer(ctx, 0, 64, NULL, &err);
    clReleaseMemObject(gone);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    clReleaseMemObject(s1);
    clReleaseMemObject(s2);
    clReleaseMemObject(m);
    clReleaseMemObject(wo);
    clReleaseMemObject(ro);
    clReleaseMemObject(na);
}

int main(void) {
    dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err = 0;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    test_flag_combinations();
    test_sizes_and_host_ptr();
    test_properties_and_info();
    test_sub_buffers();
    test_destructors();
    test_command_validation();
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("buffers_api");
}
