/* Section 5.2 of the OpenCL 3.0 API: buffer objects, sub-buffers, reads, writes, copies, rect
 * transfers, fills, maps and migration. */
#include "ct.h"

enum { NB = 4096 };

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 31u + seed);
}

static void create_flags(ct_env *e) {
    static const cl_mem_flags ok[] = {CL_MEM_READ_WRITE,
                                      CL_MEM_READ_ONLY,
                                      CL_MEM_WRITE_ONLY,
                                      CL_MEM_ALLOC_HOST_PTR,
                                      CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
                                      CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
                                      CL_MEM_HOST_NO_ACCESS,
                                      CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_READ_ONLY,
                                      0};
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        cl_int err = 1;
        cl_mem m = clCreateBuffer(e->ctx, ok[i], NB, NULL, &err);
        CT_ERR(CL_SUCCESS, err);
        if (!m)
            continue;
        cl_mem_flags got = 0;
        CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof(got), &got, NULL));
        /* Without an access flag, CL_MEM_READ_WRITE is "the default": reporting it added is
         * fine. */
        const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
        CT_CHECK(got == ok[i] || (!(ok[i] & access) && got == (ok[i] | CL_MEM_READ_WRITE)));
        clReleaseMemObject(m);
    }
    unsigned char host[NB];
    fill_pattern(host, NB, 1);
    cl_int err = 1;
    cl_mem m = clCreateBuffer(e->ctx, CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, NB, host, &err);
    CT_ERR(CL_SUCCESS, err);
    unsigned char out[NB];
    if (m) {
        memset(host, 0, NB); /* the copy was taken at creation */
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, NB, out, 0, NULL, NULL));
        fill_pattern(host, NB, 1);
        CT_CHECK(!memcmp(out, host, NB));
        clReleaseMemObject(m);
    }
}

static void create_errors(ct_env *e) {
    static const cl_mem_flags bad[] = {
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY,
        (cl_mem_flags)1 << 40,
    };
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        /* "CL_INVALID_VALUE if values specified in flags are not valid as defined in the Memory
         * Flags table." */
        CT_CHECK(clCreateBuffer(e->ctx, bad[i], NB, NULL, &err) == NULL);
        CT_ERR(CL_INVALID_VALUE, err);
    }
    char host[16];
    /* USE_HOST_PTR is mutually exclusive with ALLOC_HOST_PTR and COPY_HOST_PTR. */
    CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 16, host, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, host, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_BUFFER_SIZE if size is 0". */
    CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, 0, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_BUFFER_SIZE, err);
    /* "... or if size is greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE value ... for all devices
     * in context." */
    cl_ulong max = ct_dev_ulong(e->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    if (max < SIZE_MAX) {
        CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, (size_t)max + 1, NULL, &err) == NULL);
        CT_ERR(CL_INVALID_BUFFER_SIZE, err);
    }
    /* "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
     * CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
     * CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags." */
    CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_HOST_PTR, err);
    CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_COPY_HOST_PTR, 16, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_HOST_PTR, err);
    CT_CHECK(clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, 16, host, &err) == NULL);
    CT_ERR(CL_INVALID_HOST_PTR, err);
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_CHECK(clCreateBuffer(NULL, CL_MEM_READ_WRITE, 16, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
}

static void with_properties(ct_env *e) {
    cl_int err = 1;
    cl_mem m = clCreateBufferWithProperties(e->ctx, NULL, CL_MEM_READ_WRITE, 64, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    size_t size = 99;
    if (m) {
        /* CL_MEM_PROPERTIES: "If properties was NULL ... param_value_size_ret equal to 0". */
        CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size));
        CT_CHECK(size == 0);
        clReleaseMemObject(m);
    }
    cl_mem_properties empty[] = {0};
    m = clCreateBufferWithProperties(e->ctx, empty, CL_MEM_READ_WRITE, 64, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (m)
        clReleaseMemObject(m);
    /* "CL_INVALID_PROPERTY if a property name in properties is not a supported property name,
     * if the value specified for a supported property name is not valid, or if the same
     * property name is specified more than once." */
    cl_mem_properties bad[] = {0x7fff, 0, 0};
    CT_CHECK(clCreateBufferWithProperties(e->ctx, bad, CL_MEM_READ_WRITE, 64, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_PROPERTY, err);
}

static void info(ct_env *e) {
    unsigned char host[256];
    cl_mem m = ct_buffer(e, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, sizeof(host), host);
    CT_REQUIRE(m != NULL);
    cl_mem_object_type type = 0;
    size_t size = 0, offset = 99;
    void *ptr = NULL;
    cl_uint refs = 0;
    cl_context c = NULL;
    cl_mem assoc = (cl_mem)1;
    cl_bool svm = CL_TRUE;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_MEM_OBJECT_BUFFER);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(size), &size, NULL));
    CT_CHECK(size == sizeof(host));
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof(ptr), &ptr, NULL));
    CT_CHECK(ptr == host);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(c), &c, NULL));
    CT_CHECK(c == e->ctx);
    CT_ERR(CL_SUCCESS,
           clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
    CT_CHECK(assoc == NULL);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof(offset), &offset, NULL));
    CT_CHECK(offset == 0);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(svm), &svm, NULL));
    CT_CHECK(svm == CL_FALSE);
    cl_uint maps = 99;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(maps), &maps, NULL));
    CT_ERR(CL_SUCCESS, clRetainMemObject(m));
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 2);
    CT_ERR(CL_SUCCESS, clReleaseMemObject(m));
    /* "CL_INVALID_VALUE if param_name is not valid, or if size in bytes specified by
     * param_value_size is < size of return type ... and param_value is not NULL." */
    CT_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(m, 0x7fff, sizeof(size), &size, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &size, NULL));
    /* "CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object." */
    CT_ERR(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof(size), &size, NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT, clRetainMemObject(NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(NULL));
    /* Without USE_HOST_PTR, CL_MEM_HOST_PTR is NULL. */
    cl_mem m2 = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL);
    ptr = (void *)1;
    if (m2) {
        CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m2, CL_MEM_HOST_PTR, sizeof(ptr), &ptr, NULL));
        CT_CHECK(ptr == NULL);
        clReleaseMemObject(m2);
    }
    clReleaseMemObject(m);
}

static volatile int destructor_calls;
static void CL_CALLBACK destructor(cl_mem m, void *user) {
    (void)m;
    __atomic_add_fetch((volatile int *)user, 1, __ATOMIC_RELEASE);
}

static void destructor_callback(ct_env *e) {
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL);
    CT_REQUIRE(m != NULL);
    /* "CL_INVALID_VALUE if pfn_notify is NULL." */
    CT_ERR(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(m, NULL, NULL));
    destructor_calls = 0;
    CT_ERR(CL_SUCCESS, clSetMemObjectDestructorCallback(m, destructor, (void *)&destructor_calls));
    CT_ERR(CL_SUCCESS, clSetMemObjectDestructorCallback(m, destructor, (void *)&destructor_calls));
    CT_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CT_CHECK(ct_wait_flag(&destructor_calls, 2000) >= 1);
    for (int i = 0; i < 200 && destructor_calls < 2; i++)
        ct_sleep_ms(10);
    CT_CHECK(destructor_calls == 2);
    /* "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object." */
    CT_ERR(CL_INVALID_MEM_OBJECT, clSetMemObjectDestructorCallback(NULL, destructor, NULL));
}

static void read_write(ct_env *e) {
    unsigned char in[NB], out[NB];
    fill_pattern(in, NB, 3);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, NB, NULL);
    CT_REQUIRE(m != NULL);
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_TRUE, 0, NB, in, 0, NULL, NULL));
    memset(out, 0, NB);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, NB, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(in, out, NB));
    /* Offsets, and a non-blocking write followed by an in-order read. */
    unsigned char part[100];
    fill_pattern(part, 100, 9);
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_FALSE, 1000, 100, part, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, NB, out, 1, &ev, NULL));
    memcpy(in + 1000, part, 100);
    CT_CHECK(!memcmp(in, out, NB));
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_WRITE_BUFFER);
    clReleaseEvent(ev);
    /* A last byte. */
    unsigned char one = 0;
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, NB - 1, 1, &one, 0, NULL, NULL));
    CT_CHECK(one == in[NB - 1]);
    clReleaseMemObject(m);
}

static void read_write_errors(ct_env *e) {
    unsigned char buf[NB];
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, NB, NULL);
    CT_REQUIRE(m != NULL);
    /* "CL_INVALID_VALUE if the region being read or written specified by (offset, size) is out
     * of bounds or if ptr is a NULL value." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(e->q, m, CL_TRUE, 1, NB, buf, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(e->q, m, CL_TRUE, NB, 1, buf, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueWriteBuffer(e->q, m, CL_TRUE, 0, 4, NULL, 0, NULL, NULL));
    /* Overflow: offset + size wraps around. */
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueReadBuffer(e->q, m, CL_TRUE, SIZE_MAX - 1, 4, buf, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueWriteBuffer(e->q, m, CL_TRUE, 8, SIZE_MAX - 4, buf, 0, NULL, NULL));
    /* "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0,
     * or event_wait_list is not NULL and num_events_in_wait_list is 0". */
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, buf, 1, NULL, NULL));
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 0, NULL, &ev));
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, buf, 0, &ev, NULL));
    clReleaseEvent(ev);
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." */
    CT_ERR(CL_INVALID_COMMAND_QUEUE,
           clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    /* "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the
     * same". */
    cl_context other = ct_other_context(e);
    if (other) {
        cl_int err = CL_SUCCESS;
        cl_mem m2 = clCreateBuffer(other, CL_MEM_READ_WRITE, NB, NULL, &err);
        CT_ERR(CL_INVALID_CONTEXT,
               clEnqueueReadBuffer(e->q, m2, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
        CT_ERR(CL_INVALID_CONTEXT,
               clEnqueueWriteBuffer(e->q, m2, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
        CT_ERR(CL_INVALID_CONTEXT, clEnqueueCopyBuffer(e->q, m, m2, 0, 0, 4, 0, NULL, NULL));
        clReleaseMemObject(m2);
        clReleaseContext(other);
    }
    clReleaseMemObject(m);
}

/* NULL memory objects where the spec demands CL_INVALID_MEM_OBJECT (apart, so that an
 * implementation that crashes on them still runs the cases above). */
static void null_mem_objects(ct_env *e) {
    unsigned char buf[16] = {0};
    cl_uint pattern = 0;
    cl_mem a = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL);
    CT_REQUIRE(a != NULL);
    /* "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object." */
    CT_ERR(CL_INVALID_MEM_OBJECT,
           clEnqueueReadBuffer(e->q, NULL, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT,
           clEnqueueWriteBuffer(e->q, NULL, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    /* "CL_INVALID_MEM_OBJECT if src_buffer and dst_buffer are not valid buffer objects." */
    CT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(e->q, NULL, a, 0, 0, 4, 0, NULL, NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(e->q, a, NULL, 0, 0, 4, 0, NULL, NULL));
    /* "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object." */
    CT_ERR(CL_INVALID_MEM_OBJECT,
           clEnqueueFillBuffer(e->q, NULL, &pattern, 4, 0, 4, 0, NULL, NULL));
    clReleaseMemObject(a);
}

static void host_access_flags(ct_env *e) {
    unsigned char buf[64] = {0};
    cl_int err = CL_SUCCESS;
    cl_mem none = ct_buffer(e, CL_MEM_HOST_NO_ACCESS, 64, NULL);
    cl_mem wo = ct_buffer(e, CL_MEM_HOST_WRITE_ONLY, 64, NULL);
    cl_mem ro = ct_buffer(e, CL_MEM_HOST_READ_ONLY, 64, NULL);
    CT_REQUIRE(none && wo && ro);
    /* "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been created
     * with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS." */
    CT_ERR(CL_INVALID_OPERATION, clEnqueueReadBuffer(e->q, wo, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    CT_ERR(CL_INVALID_OPERATION,
           clEnqueueReadBuffer(e->q, none, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    /* "CL_INVALID_OPERATION if clEnqueueWriteBuffer is called on buffer which has been created
     * with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS." */
    CT_ERR(CL_INVALID_OPERATION, clEnqueueWriteBuffer(e->q, ro, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    CT_ERR(CL_INVALID_OPERATION,
           clEnqueueWriteBuffer(e->q, none, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    /* The allowed direction works. */
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, wo, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, ro, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    /* Map: "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_WRITE_ONLY or
     * CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags". */
    CT_CHECK(clEnqueueMapBuffer(e->q, wo, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_OPERATION, err);
    /* "... or if buffer has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and
     * CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags." */
    CT_CHECK(clEnqueueMapBuffer(e->q, ro, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err) ==
             NULL);
    CT_ERR(CL_INVALID_OPERATION, err);
    /* Sub-buffers cannot widen host access: "CL_INVALID_VALUE if buffer was created with
     * CL_MEM_HOST_WRITE_ONLY and flags specify CL_MEM_HOST_READ_ONLY ..." */
    cl_buffer_region r = {0, 32};
    CT_CHECK(clCreateSubBuffer(wo, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    clReleaseMemObject(none);
    clReleaseMemObject(wo);
    clReleaseMemObject(ro);
}

static void sub_buffers(ct_env *e) {
    size_t align = ct_dev_uint(e->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    CT_REQUIRE(align >= 1);
    size_t total = align * 4;
    unsigned char *in = malloc(total), *out = malloc(total);
    fill_pattern(in, total, 5);
    cl_mem parent = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total, in);
    CT_REQUIRE(parent != NULL);
    cl_buffer_region r = {align, align * 2};
    cl_int err = 1;
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(sub != NULL);
    cl_mem assoc = NULL;
    size_t off = 0, size = 0;
    CT_ERR(CL_SUCCESS,
           clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, NULL));
    CT_CHECK(assoc == parent);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof(off), &off, NULL));
    CT_CHECK(off == align);
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof(size), &size, NULL));
    CT_CHECK(size == align * 2);
    cl_mem_flags flags = 0;
    /* Flags 0: the sub-buffer inherits the parent's access flags. */
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof(flags), &flags, NULL));
    CT_CHECK(flags & CL_MEM_READ_WRITE);
    /* The sub-buffer aliases the parent's data. */
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, sub, CL_TRUE, 0, align * 2, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, in + align, align * 2));
    memset(out, 0xab, align);
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, sub, CL_TRUE, 0, align, out, 0, NULL, NULL));
    memcpy(in + align, out, align);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, parent, CL_TRUE, 0, total, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, in, total));
    /* The parent holds a reference for the sub-buffer's life: it outlives its own release. */
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS,
           clGetMemObjectInfo(parent, CL_MEM_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs >= 1);
    CT_ERR(CL_SUCCESS, clReleaseMemObject(sub));
    CT_ERR(CL_SUCCESS, clReleaseMemObject(parent));
    free(in);
    free(out);
}

static void sub_buffer_errors(ct_env *e) {
    size_t align = ct_dev_uint(e->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    CT_REQUIRE(align >= 1);
    size_t total = align * 4;
    cl_mem parent = ct_buffer(e, CL_MEM_WRITE_ONLY, total, NULL);
    CT_REQUIRE(parent != NULL);
    cl_int err = CL_SUCCESS;
    cl_buffer_region r = {0, align};
    /* "CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context associated with
     * buffer for which the origin field of the cl_buffer_region structure passed in
     * buffer_create_info is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value." */
    if (align > 1) {
        cl_buffer_region mis = {1, 4};
        CT_CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err) == NULL);
        CT_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET, err);
    }
    /* "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in
     * buffer_create_info is out of bounds in buffer." */
    cl_buffer_region oob = {align * 3, align * 2};
    CT_CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &oob, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region structure passed in
     * buffer_create_info is 0." */
    cl_buffer_region zero = {0, 0};
    CT_CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &zero, &err) == NULL);
    CT_ERR(CL_INVALID_BUFFER_SIZE, err);
    /* "CL_INVALID_VALUE if value specified in buffer_create_type is not valid." and "if value(s)
     * specified in buffer_create_info (for a given buffer_create_type) is not valid or if
     * buffer_create_info is NULL." */
    CT_CHECK(clCreateSubBuffer(parent, 0, 0x7fff, &r, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags specifies
     * CL_MEM_READ_WRITE or CL_MEM_READ_ONLY". */
    CT_CHECK(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clCreateSubBuffer(parent, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "... or if flags specifies CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or
     * CL_MEM_COPY_HOST_PTR." */
    CT_CHECK(clCreateSubBuffer(parent, CL_MEM_ALLOC_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r,
                               &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a sub-buffer object."
     */
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CT_ERR(CL_SUCCESS, err);
    if (sub) {
        cl_buffer_region r2 = {0, 4};
        CT_CHECK(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err) == NULL);
        CT_ERR(CL_INVALID_MEM_OBJECT, err);
        clReleaseMemObject(sub);
    }
    CT_CHECK(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
    CT_ERR(CL_INVALID_MEM_OBJECT, err);
    clReleaseMemObject(parent);
}

/* Overflow-safe bounds: origin + size wraps past SIZE_MAX. */
static void sub_buffer_overflow(ct_env *e) {
    size_t align = ct_dev_uint(e->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    CT_REQUIRE(align >= 1);
    cl_mem parent = ct_buffer(e, CL_MEM_READ_WRITE, align * 4, NULL);
    CT_REQUIRE(parent != NULL);
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in
     * buffer_create_info is out of bounds in buffer." */
    cl_buffer_region wrap = {align, SIZE_MAX - align + 1};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &wrap, &err);
    CT_CHECK(sub == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    clReleaseMemObject(parent);
}

static void copy(ct_env *e) {
    unsigned char in[NB], out[NB];
    fill_pattern(in, NB, 11);
    cl_mem a = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NB, in);
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE, NB, NULL);
    CT_REQUIRE(a && b);
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueCopyBuffer(e->q, a, b, 0, 0, NB, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, NB, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(in, out, NB));
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_COPY_BUFFER);
    clReleaseEvent(ev);
    /* Non-overlapping regions of one buffer. */
    CT_ERR(CL_SUCCESS, clEnqueueCopyBuffer(e->q, a, a, 0, NB / 2, NB / 2, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, a, CL_TRUE, 0, NB, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, in, NB / 2) && !memcmp(out + NB / 2, in, NB / 2));
    /* Offsets into both. */
    CT_ERR(CL_SUCCESS, clEnqueueCopyBuffer(e->q, b, a, 7, 1, 100, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, a, CL_TRUE, 1, 100, out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, in + 7, 100));
    /* "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer object
     * and the source and destination regions overlap". */
    CT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(e->q, a, a, 0, 10, 100, 0, NULL, NULL));
    CT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(e->q, a, a, 10, 0, 100, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset + size
     * require accessing elements outside the src_buffer and dst_buffer buffer objects
     * respectively." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(e->q, a, b, 1, 0, NB, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(e->q, a, b, 0, 1, NB, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueCopyBuffer(e->q, a, b, SIZE_MAX, 0, 2, 0, NULL, NULL));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

static void copy_sub_buffer_overlap(ct_env *e) {
    size_t align = ct_dev_uint(e->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    CT_REQUIRE(align >= 1);
    cl_mem parent = ct_buffer(e, CL_MEM_READ_WRITE, align * 4, NULL);
    CT_REQUIRE(parent != NULL);
    cl_int err = CL_SUCCESS;
    cl_buffer_region r1 = {0, align * 2}, r2 = {align, align * 2};
    cl_mem s1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    cl_mem s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    CT_REQUIRE(s1 && s2);
    /* "... or if src_buffer and dst_buffer are different sub-buffers of the same associated
     * buffer object and they overlap." */
    CT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(e->q, s1, s2, align, 0, align, 0, NULL, NULL));
    /* Disjoint parts of overlapping sub-buffers are fine. */
    CT_ERR(CL_SUCCESS, clEnqueueCopyBuffer(e->q, s1, s2, 0, align, align, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clReleaseMemObject(s1);
    clReleaseMemObject(s2);
    clReleaseMemObject(parent);
}

static void fill(ct_env *e) {
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, NB, NULL);
    CT_REQUIRE(m != NULL);
    unsigned char pattern[128], out[NB];
    fill_pattern(pattern, sizeof(pattern), 77);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        CT_ERR(CL_SUCCESS, clEnqueueFillBuffer(e->q, m, pattern, ps, 0, NB, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, NB, out, 0, NULL, NULL));
        bool ok = true;
        for (size_t i = 0; i < NB; i++)
            ok &= out[i] == pattern[i % ps];
        ct_checks++;
        if (!ok)
            ct_fail(__FILE__, __LINE__, "fill with a %zu-byte pattern: wrong contents", ps);
    }
    /* A fill of a part leaves the rest. */
    cl_uint zero = 0, val = 0x01020304;
    CT_ERR(CL_SUCCESS, clEnqueueFillBuffer(e->q, m, &zero, 4, 0, NB, 0, NULL, NULL));
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueFillBuffer(e->q, m, &val, 4, 64, 128, 0, NULL, &ev));
    cl_uint words[NB / 4];
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, NB, words, 0, NULL, NULL));
    CT_CHECK(words[15] == 0 && words[16] == val && words[47] == val && words[48] == 0);
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_FILL_BUFFER);
    clReleaseEvent(ev);
    /* "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if pattern_size is not
     * one of { 1, 2, 4, 8, 16, 32, 64, 128 }." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, NULL, 4, 0, NB, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 0, 0, NB, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 3, 0, 12, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 256, 0, NB, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if offset and size are not a multiple of pattern_size." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 4, 2, 8, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 4, 0, 6, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if offset or offset + size require accessing elements outside the
     * buffer buffer object respectively." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 4, NB, 4, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueFillBuffer(e->q, m, pattern, 4, 4, NB, 0, NULL, NULL));
    clReleaseMemObject(m);
}

static void rect(ct_env *e) {
    /* A 16x8x2 box inside a 64x16x4 byte volume. */
    enum { W = 64, H = 16, D = 4 };
    unsigned char host[W * H * D], out[W * H * D], dev[W * H * D];
    fill_pattern(host, sizeof(host), 21);
    memset(dev, 0, sizeof(dev));
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(dev), dev);
    CT_REQUIRE(m != NULL);
    size_t borg[3] = {8, 2, 1}, horg[3] = {4, 3, 0}, region[3] = {16, 8, 2};
    CT_ERR(CL_SUCCESS, clEnqueueWriteBufferRect(e->q, m, CL_TRUE, borg, horg, region, W, W * H, W,
                                                W * H, host, 0, NULL, NULL));
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(dev + (z + borg[2]) * W * H + (y + borg[1]) * W + borg[0],
                   host + (z + horg[2]) * W * H + (y + horg[1]) * W + horg[0], region[0]);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, dev, sizeof(out)));
    /* Read the box back into a tightly packed host array (pitches 0: computed). */
    unsigned char box[16 * 8 * 2];
    size_t zero[3] = {0, 0, 0};
    CT_ERR(CL_SUCCESS, clEnqueueReadBufferRect(e->q, m, CL_TRUE, borg, zero, region, W, W * H, 0, 0,
                                               box, 0, NULL, NULL));
    bool ok = true;
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 8; y++)
            ok &= !memcmp(box + z * 128 + y * 16,
                          host + (z + horg[2]) * W * H + (y + horg[1]) * W + horg[0], 16);
    CT_CHECK(ok);
    /* Copy the box elsewhere in the same buffer (disjoint). */
    size_t dorg[3] = {40, 2, 1};
    CT_ERR(CL_SUCCESS, clEnqueueCopyBufferRect(e->q, m, m, borg, dorg, region, W, W * H, W, W * H,
                                               0, NULL, NULL));
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(dev + (z + dorg[2]) * W * H + (y + dorg[1]) * W + dorg[0],
                   dev + (z + borg[2]) * W * H + (y + borg[1]) * W + borg[0], region[0]);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, dev, sizeof(out)));
    /* "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer object
     * and the source and destination regions overlap". */
    size_t near[3] = {12, 2, 1};
    CT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(e->q, m, m, borg, near, region, W, W * H, W,
                                                        W * H, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if the region being read or written specified by (buffer_origin,
     * region, buffer_row_pitch, buffer_slice_pitch) is out of bounds." */
    size_t far[3] = {8, 2, 3}; /* slices 3..4 of 4 */
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(e->q, m, CL_TRUE, far, zero, region, W, W * H,
                                                     0, 0, box, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if any region array element is 0." */
    size_t flat[3] = {16, 0, 1};
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(e->q, m, CL_TRUE, borg, zero, flat, W, W * H,
                                                     0, 0, box, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if buffer_row_pitch is not 0 and is less than region[0]." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(e->q, m, CL_TRUE, borg, zero, region, 8, 0, 0,
                                                     0, box, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if host_row_pitch is not 0 and is less than region[0]." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(e->q, m, CL_TRUE, borg, zero, region, W, W * H,
                                                     8, 0, box, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if buffer_slice_pitch is not 0 and is less than region[1] ×
     * buffer_row_pitch and not a multiple of buffer_row_pitch." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(e->q, m, CL_TRUE, borg, zero, region, W,
                                                     W * 8 - 1, 0, 0, box, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if ptr is NULL." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(e->q, m, CL_TRUE, borg, zero, region, W, W * H,
                                                     0, 0, NULL, 0, NULL, NULL));
    clReleaseMemObject(m);
}

static void map_unmap(ct_env *e) {
    unsigned char in[NB];
    fill_pattern(in, NB, 31);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NB, in);
    CT_REQUIRE(m != NULL);
    cl_int err = 1;
    unsigned char *p = clEnqueueMapBuffer(e->q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, NB, 0,
                                          NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(p != NULL);
    CT_CHECK(!memcmp(p, in, NB));
    for (size_t i = 0; i < NB; i++)
        p[i] = (unsigned char)~p[i];
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(e->q, m, p, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_UNMAP_MEM_OBJECT);
    clReleaseEvent(ev);
    unsigned char out[NB];
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, NB, out, 0, NULL, NULL));
    bool ok = true;
    for (size_t i = 0; i < NB; i++)
        ok &= out[i] == (unsigned char)~in[i];
    CT_CHECK(ok);
    /* Non-blocking map of a part: the pointer is usable once its event is complete. */
    p = clEnqueueMapBuffer(e->q, m, CL_FALSE, CL_MAP_READ, 256, 512, 0, NULL, &ev, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(p != NULL);
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_MAP_BUFFER);
    CT_CHECK(!memcmp(p, out + 256, 512));
    clReleaseEvent(ev);
    /* "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or
     * clEnqueueMapImage for memobj." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueUnmapMemObject(e->q, m, in, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(e->q, m, p, 0, NULL, NULL));
    /* WRITE_INVALIDATE_REGION: the mapped region is written, the rest is kept. */
    p = clEnqueueMapBuffer(e->q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL,
                           &err);
    CT_ERR(CL_SUCCESS, err);
    if (p) {
        memset(p, 0x5a, 16);
        CT_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(e->q, m, p, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 32, in, 0, NULL, NULL));
        CT_CHECK(in[0] == 0x5a && in[15] == 0x5a && in[16] == out[16]);
    }
    /* "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or if
     * size is 0 or if values specified in map_flags are not valid." */
    CT_CHECK(clEnqueueMapBuffer(e->q, m, CL_TRUE, CL_MAP_READ, NB - 4, 8, 0, NULL, NULL, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clEnqueueMapBuffer(e->q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clEnqueueMapBuffer(e->q, NULL, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err) ==
             NULL);
    CT_ERR(CL_INVALID_MEM_OBJECT, err);
    clReleaseMemObject(m);
}

/* "CL_INVALID_VALUE if ... values specified in map_flags are not valid": WRITE_INVALIDATE_REGION
 * "is mutually exclusive with CL_MAP_READ or CL_MAP_WRITE", and undefined bits. */
static void map_flag_errors(ct_env *e) {
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, NB, NULL);
    CT_REQUIRE(m != NULL);
    cl_int err = CL_SUCCESS;
    CT_CHECK(clEnqueueMapBuffer(e->q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                4, 0, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    CT_CHECK(clEnqueueMapBuffer(e->q, m, CL_TRUE, (cl_map_flags)1 << 20, 0, 4, 0, NULL, NULL,
                                &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    clReleaseMemObject(m);
}

static void map_use_host_ptr(ct_env *e) {
    unsigned char *host = malloc(NB);
    fill_pattern(host, NB, 41);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, NB, host);
    CT_REQUIRE(m != NULL);
    unsigned char in[64];
    memset(in, 0x77, sizeof(in));
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_TRUE, 128, 64, in, 0, NULL, NULL));
    cl_int err = 1;
    /* "the pointer value returned by clEnqueueMapBuffer will be derived from the host_ptr
     * specified when the buffer object is created" and the host_ptr "is guaranteed to contain
     * the latest bits in the region being mapped when the clEnqueueMapBuffer command has
     * completed". */
    unsigned char *p =
        clEnqueueMapBuffer(e->q, m, CL_TRUE, CL_MAP_READ, 64, 256, 0, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_CHECK(p == host + 64);
    CT_CHECK(host[128] == 0x77 && host[191] == 0x77);
    if (p)
        CT_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(e->q, m, p, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clReleaseMemObject(m);
    free(host);
}

static void migrate(ct_env *e) {
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, NB, NULL);
    CT_REQUIRE(m != NULL);
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMigrateMemObjects(e->q, 1, &m, 0, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS,
           clEnqueueMigrateMemObjects(e->q, 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueMigrateMemObjects(
                           e->q, 1, &m, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_MIGRATE_MEM_OBJECTS);
    clReleaseEvent(ev);
    /* "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL." */
    CT_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(e->q, 0, &m, 0, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(e->q, 1, NULL, 0, 0, NULL, NULL));
    /* "CL_INVALID_VALUE if flags is not 0 or is not any of the values described in the table
     * above." */
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueMigrateMemObjects(e->q, 1, &m, (cl_mem_migration_flags)1 << 20, 0, NULL, NULL));
    /* "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid memory
     * object." */
    cl_mem null_mem = NULL;
    CT_ERR(CL_INVALID_MEM_OBJECT, clEnqueueMigrateMemObjects(e->q, 1, &null_mem, 0, 0, NULL, NULL));
    clReleaseMemObject(m);
}

/* "After the memobj reference count becomes zero and commands queued for execution on a
 * command-queue(s) that use memobj have finished, the memory object is deleted": a buffer
 * released while a gated command still uses it keeps its data for that command. */
static void release_while_in_use(ct_env *e) {
    unsigned char in[NB], out[NB];
    fill_pattern(in, NB, 51);
    memset(out, 0, NB);
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err), ev = NULL;
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NB, in);
    CT_REQUIRE(u && m);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_FALSE, 0, NB, out, 1, &u, &ev));
    CT_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    ct_sleep_ms(20);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_CHECK(!memcmp(in, out, NB));
    clReleaseEvent(ev);
    clReleaseEvent(u);
}

static void unclaimed_features(ct_env *e) {
    cl_int err = CL_SUCCESS;
    if (!ct_dev_uint(e->device, CL_DEVICE_IMAGE_SUPPORT)) {
        cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
        cl_image_desc desc = {0};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 16;
        desc.image_height = 16;
        /* "CL_INVALID_OPERATION if there are no devices in context that support images". */
        CT_CHECK(clCreateImage(e->ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err) == NULL);
        CT_ERR(CL_INVALID_OPERATION, err);
    }
    if (!ct_dev_uint(e->device, CL_DEVICE_PIPE_SUPPORT)) {
        /* "CL_INVALID_OPERATION if no devices in context support pipes." */
        CT_CHECK(clCreatePipe(e->ctx, 0, 4, 16, NULL, &err) == NULL);
        CT_ERR(CL_INVALID_OPERATION, err);
    }
    if (ct_dev_bits(e->device, CL_DEVICE_SVM_CAPABILITIES) == 0) {
        /* clSVMAlloc: "returns NULL ... if no devices in context support SVM". */
        CT_CHECK(clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, 64, 0) == NULL);
    }
    if (ct_dev_uint(e->device, CL_DEVICE_IMAGE_SUPPORT) &&
        ct_dev_uint(e->device, CL_DEVICE_PIPE_SUPPORT) &&
        ct_dev_bits(e->device, CL_DEVICE_SVM_CAPABILITIES))
        CT_SKIP("the device claims images, pipes and SVM");
}

static void wrong_type_handles(ct_env *e) {
    unsigned char buf[16];
    cl_int err = CL_SUCCESS;
    size_t size = 0;
    /* "CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object." */
    CT_ERR(CL_INVALID_MEM_OBJECT,
           clGetMemObjectInfo((cl_mem)e->q, CL_MEM_SIZE, sizeof(size), &size, NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT,
           clEnqueueReadBuffer(e->q, (cl_mem)e->ctx, CL_TRUE, 0, 4, buf, 0, NULL, NULL));
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_CHECK(clCreateBuffer((cl_context)e->q, CL_MEM_READ_WRITE, 16, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
}

static const ct_case cases[] = {
    {"create_flags", create_flags},
    {"create_errors", create_errors},
    {"with_properties", with_properties},
    {"info", info},
    {"destructor_callback", destructor_callback},
    {"read_write", read_write},
    {"read_write_errors", read_write_errors},
    {"null_mem_objects", null_mem_objects},
    {"host_access_flags", host_access_flags},
    {"sub_buffers", sub_buffers},
    {"sub_buffer_errors", sub_buffer_errors},
    {"sub_buffer_overflow", sub_buffer_overflow},
    {"copy", copy},
    {"copy_sub_buffer_overlap", copy_sub_buffer_overlap},
    {"fill", fill},
    {"rect", rect},
    {"map_unmap", map_unmap},
    {"map_flag_errors", map_flag_errors},
    {"map_use_host_ptr", map_use_host_ptr},
    {"migrate", migrate},
    {"release_while_in_use", release_while_in_use},
    {"unclaimed_features", unclaimed_features},
    {"wrong_type_handles", wrong_type_handles},
};
CT_SECTION(ct_buffer_section, "buffer", cases);
