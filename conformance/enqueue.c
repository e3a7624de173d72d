/* Section 5.10 of the OpenCL 3.0 API: executing kernels (NDRange, task, arguments). */
#include "ct.h"

static const char *src =
    "kernel void ids(global uint *out, uint w, uint h)\n"
    "{ size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  out[(z * h + y) * w + x] = (uint)(x + 1000 * y + 1000000 * z); }\n"
    "kernel void offs(global uint *out)\n"
    "{ out[get_global_id(0) - get_global_offset(0)] = (uint)get_global_id(0); }\n"
    "kernel void one(global int *a) { a[0] = (int)get_global_size(0) + 7; }\n"
    "kernel void inc(global int *a) { a[0] += 1; }\n"
    "typedef struct { int a; float b; long c; } pod;\n"
    "kernel void scalars(global long *out, char c, short s, int i, long l, float f, pod p,\n"
    "                    float4 v, global int *maybe)\n"
    "{ out[0] = c; out[1] = s; out[2] = i; out[3] = l; out[4] = (long)(f * 4.0f);\n"
    "  out[5] = p.a; out[6] = (long)(p.b * 2.0f); out[7] = p.c; out[8] = (long)(v.x + v.y + v.z + "
    "v.w);\n"
    "  out[9] = maybe == 0 ? 1 : 0; }\n"
    "kernel void reduce(global const int *in, global int *out, local int *tmp)\n"
    "{ size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) { if (l < s) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0]; }\n"
    "kernel void consts(constant int *c, global int *out) { out[get_global_id(0)] = "
    "c[get_global_id(0)] * 2; }\n"
    "__attribute__((reqd_work_group_size(4, 1, 1)))\n"
    "kernel void fixed(global int *a) { a[get_global_id(0)] = 1; }\n";

#define SETUP()                                                                                    \
    if (!ct_compiler(e))                                                                           \
        CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");                                          \
    cl_program p = ct_build(e, src, NULL);                                                         \
    CT_REQUIRE(p != NULL)

static void ndrange_dims(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "ids");
    enum { W = 16, H = 8, D = 4 };
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, W * H * D * 4, NULL);
    CT_REQUIRE(k && m);
    cl_uint w = W, h = H;
    clSetKernelArg(k, 0, sizeof(m), &m);
    clSetKernelArg(k, 1, sizeof(w), &w);
    clSetKernelArg(k, 2, sizeof(h), &h);
    static cl_uint out[W * H * D];
    for (cl_uint dims = 1; dims <= 3; dims++) {
        size_t g[3] = {W, dims > 1 ? H : 1, dims > 2 ? D : 1};
        size_t l[3] = {4, dims > 1 ? 2 : 1, 1};
        cl_uint zero = 0xffffffff;
        clEnqueueFillBuffer(e->q, m, &zero, 4, 0, sizeof(out), 0, NULL, NULL);
        cl_event ev = NULL;
        CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, dims, NULL, g, l, 0, NULL, &ev));
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
        bool ok = true;
        for (size_t z = 0; z < g[2]; z++)
            for (size_t y = 0; y < g[1]; y++)
                for (size_t x = 0; x < g[0]; x++)
                    ok &= out[(z * H + y) * W + x] == x + 1000 * y + 1000000 * z;
        ct_checks++;
        if (!ok)
            ct_fail(__FILE__, __LINE__, "%u-dimensional NDRange: wrong ids", dims);
        cl_command_type type = 0;
        CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
        CT_CHECK(type == CL_COMMAND_NDRANGE_KERNEL);
        clReleaseEvent(ev);
    }
    /* A NULL local size: the implementation picks one. */
    size_t g[3] = {W, H, D};
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 3, NULL, g, NULL, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(out[W * H * D - 1] == (W - 1) + 1000 * (H - 1) + 1000000 * (D - 1));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void offsets_and_task(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "offs"), t = ct_kernel(p, "one");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 64 * 4, NULL);
    CT_REQUIRE(k && t && m);
    clSetKernelArg(k, 0, sizeof(m), &m);
    size_t off = 100, g = 64;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, &off, &g, NULL, 0, NULL, NULL));
    cl_uint out[64];
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(out[0] == 100 && out[63] == 163);
    /* clEnqueueTask: "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
     * global_work_offset set to NULL, global_work_size[0] set to 1 and local_work_size[0]
     * set to 1." */
    clSetKernelArg(t, 0, sizeof(m), &m);
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, t, 0, NULL, &ev));
    cl_int v = 0;
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    CT_CHECK(v == 8);
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    /* Since 2.0 a task reports CL_COMMAND_NDRANGE_KERNEL; 1.x implementations said TASK. */
    CT_CHECK(type == CL_COMMAND_NDRANGE_KERNEL || type == CL_COMMAND_TASK);
    clReleaseEvent(ev);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseKernel(t);
    clReleaseProgram(p);
}

static void argument_types(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "scalars");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 10 * 8, NULL);
    CT_REQUIRE(k && m);
    cl_char c = -5;
    cl_short s = -300;
    cl_int i = 123456;
    cl_long l = 1ll << 40;
    cl_float f = 2.5f;
    struct {
        cl_int a;
        cl_float b;
        cl_long c;
    } pod = {-7, 1.5f, -(1ll << 35)};
    cl_float4 v = {{1, 2, 3, 4}};
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(m), &m));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof(c), &c));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof(s), &s));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 3, sizeof(i), &i));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 4, sizeof(l), &l));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 5, sizeof(f), &f));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 6, sizeof(pod), &pod));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 7, sizeof(v), &v));
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 8, sizeof(cl_mem), NULL));
    CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, k, 0, NULL, NULL));
    cl_long out[10] = {0};
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(out[0] == -5);
    CT_CHECK(out[1] == -300);
    CT_CHECK(out[2] == 123456);
    CT_CHECK(out[3] == 1ll << 40);
    CT_CHECK(out[4] == 10);
    CT_CHECK(out[5] == -7 && out[6] == 3 && out[7] == -(1ll << 35));
    CT_CHECK(out[8] == 10);
    /* "If the argument is a buffer object, the arg_value pointer can be NULL": the kernel sees a
     * NULL pointer. */
    CT_CHECK(out[9] == 1);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void local_and_constant(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "reduce"), c = ct_kernel(p, "consts");
    enum { N = 1024, L = 64 };
    cl_int in[N], expect[N / L] = {0}, out[N / L] = {0};
    for (int i = 0; i < N; i++) {
        in[i] = i % 17 - 3;
        expect[i / L] += in[i];
    }
    cl_mem mi = ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mo = ct_buffer(e, CL_MEM_READ_WRITE, sizeof(in), NULL);
    CT_REQUIRE(k && c && mi && mo);
    clSetKernelArg(k, 0, sizeof(mi), &mi);
    clSetKernelArg(k, 1, sizeof(mo), &mo);
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 2, L * sizeof(cl_int), NULL));
    size_t g = N, l = L;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, expect, sizeof(out)));
    clSetKernelArg(c, 0, sizeof(mi), &mi);
    clSetKernelArg(c, 1, sizeof(mo), &mo);
    g = 16;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, c, 1, NULL, &g, NULL, 0, NULL, NULL));
    cl_int d[16];
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, mo, CL_TRUE, 0, sizeof(d), d, 0, NULL, NULL));
    CT_CHECK(d[0] == in[0] * 2 && d[15] == in[15] * 2);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseKernel(c);
    clReleaseProgram(p);
}

static void in_order_chain(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "inc");
    cl_int zero = 0;
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &zero);
    CT_REQUIRE(k && m);
    clSetKernelArg(k, 0, sizeof(m), &m);
    /* An in-order queue runs commands in order: 200 increments give 200. */
    for (int i = 0; i < 200; i++)
        CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, k, 0, NULL, NULL));
    cl_int v = 0;
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    CT_CHECK(v == 200);
    /* Arguments are captured at enqueue: changing them afterwards does not affect the
     * enqueued command. */
    cl_mem m2 = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &zero);
    CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, k, 0, NULL, NULL));
    clSetKernelArg(k, 0, sizeof(m2), &m2);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    CT_CHECK(v == 201);
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m2, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    CT_CHECK(v == 0);
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Kernel, program and buffers released right after a gated enqueue: the command keeps what it
 * uses until it has run. */
static void release_after_enqueue(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "one");
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err), ev = NULL;
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL),
           out = ct_buffer(e, CL_MEM_READ_WRITE, 64, NULL);
    CT_REQUIRE(k && u && m && out);
    clSetKernelArg(k, 0, sizeof(m), &m);
    size_t g = 16;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &g, NULL, 1, &u, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueCopyBuffer(e->q, m, out, 0, 0, 4, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clReleaseKernel(k));
    CT_ERR(CL_SUCCESS, clReleaseProgram(p));
    CT_ERR(CL_SUCCESS, clReleaseMemObject(m));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    ct_sleep_ms(20);
    CT_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    cl_int v = 0;
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, out, CL_TRUE, 0, 4, &v, 0, NULL, NULL));
    CT_CHECK(v == 16 + 7);
    clReleaseEvent(ev);
    clReleaseEvent(u);
    clReleaseMemObject(out);
}

static void ndrange_errors(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "ids"), f = ct_kernel(p, "fixed"), t = ct_kernel(p, "one");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 4096, NULL);
    CT_REQUIRE(k && f && t && m);
    size_t g[3] = {16, 1, 1}, l[3] = {4, 1, 1};
    /* "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified." */
    CT_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, g, l, 0, NULL, NULL));
    CT_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueTask(e->q, t, 0, NULL, NULL));
    cl_uint w = 16;
    clSetKernelArg(k, 0, sizeof(m), &m);
    clSetKernelArg(k, 1, sizeof(w), &w);
    clSetKernelArg(k, 2, sizeof(w), &w);
    clSetKernelArg(f, 0, sizeof(m), &m);
    /* "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
     * CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)." */
    CT_ERR(CL_INVALID_WORK_DIMENSION,
           clEnqueueNDRangeKernel(e->q, k, 0, NULL, g, l, 0, NULL, NULL));
    cl_uint maxdim = ct_dev_uint(e->device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    size_t big[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    if (maxdim < 8)
        CT_ERR(CL_INVALID_WORK_DIMENSION,
               clEnqueueNDRangeKernel(e->q, k, maxdim + 1, NULL, big, NULL, 0, NULL, NULL));
    /* "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of the values ... are
     * 0. Returning this error code under these circumstances is deprecated by version 2.1." */
    CT_ERR2(CL_INVALID_GLOBAL_WORK_SIZE, CL_SUCCESS,
            clEnqueueNDRangeKernel(e->q, k, 1, NULL, NULL, NULL, 0, NULL, NULL));
    /* "... or if any of the values specified in global_work_size[0], ...
     * global_work_size[work_dim - 1] are 0. Returning this error code under these
     * circumstances is deprecated by version 2.1." (2.1+: an empty launch succeeds) */
    size_t zero[1] = {0};
    CT_ERR2(CL_SUCCESS, CL_INVALID_GLOBAL_WORK_SIZE,
            clEnqueueNDRangeKernel(e->q, k, 1, NULL, zero, NULL, 0, NULL, NULL));
    /* "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the total number of
     * work-items in the work-group computed as local_work_size[0] × ... local_work_size[work_dim
     * - 1] is greater than the value specified by CL_KERNEL_WORK_GROUP_SIZE". */
    size_t kwg = 0;
    clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kwg), &kwg, NULL);
    size_t g2[1] = {(kwg + 1) * 2}, l2[1] = {kwg + 1};
    cl_int err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, g2, l2, 0, NULL, NULL);
    size_t items[3] = {0};
    clGetDeviceInfo(e->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items, NULL);
    if (l2[0] > items[0])
        CT_ERR2(CL_INVALID_WORK_GROUP_SIZE, CL_INVALID_WORK_ITEM_SIZE, err);
    else
        CT_ERR(CL_INVALID_WORK_GROUP_SIZE, err);
    /* "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the
     * required work-group size for kernel in the program source." */
    size_t fl[1] = {8}, fg[1] = {16};
    CT_ERR(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(e->q, f, 1, NULL, fg, fl, 0, NULL, NULL));
    /* A NULL local size with reqd_work_group_size: "CL_INVALID_WORK_GROUP_SIZE if
     * local_work_size is NULL and the reqd_work_group_size attribute is used" (1.x wording);
     * later implementations use the required size. */
    CT_ERR2(CL_SUCCESS, CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(e->q, f, 1, NULL, fg, NULL, 0, NULL, NULL));
    /* "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
     * local_work_size[0], ... local_work_size[work_dim - 1] is greater than the corresponding
     * values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES". Tested where a dimension's limit is
     * below the work-group limit (else the work-group error is equally right). */
    if (items[1] < kwg) {
        size_t g3[2] = {1, (items[1] + 1) * 2}, l3[2] = {1, items[1] + 1};
        CT_ERR(CL_INVALID_WORK_ITEM_SIZE,
               clEnqueueNDRangeKernel(e->q, k, 2, NULL, g3, l3, 0, NULL, NULL));
    }
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseKernel(f);
    clReleaseKernel(t);
    clReleaseProgram(p);
}

static void null_arguments(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "one");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 16, NULL);
    CT_REQUIRE(k && m);
    clSetKernelArg(k, 0, sizeof(m), &m);
    size_t g[1] = {4}, l[1] = {4};
    /* "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0".
     */
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST,
           clEnqueueNDRangeKernel(e->q, k, 1, NULL, g, l, 1, NULL, NULL));
    /* "CL_INVALID_KERNEL if kernel is not a valid kernel object." */
    CT_ERR(CL_INVALID_KERNEL, clEnqueueNDRangeKernel(e->q, NULL, 1, NULL, g, l, 0, NULL, NULL));
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueNDRangeKernel(NULL, k, 1, NULL, g, l, 0, NULL, NULL));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void mismatched_context(ct_env *e) {
    SETUP();
    cl_kernel k = ct_kernel(p, "one");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 16, NULL);
    CT_REQUIRE(k && m);
    clSetKernelArg(k, 0, sizeof(m), &m);
    size_t g[1] = {4}, l[1] = {4};
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the
     * same". */
    cl_context other = ct_other_context(e);
    if (other) {
        cl_command_queue oq = clCreateCommandQueueWithProperties(other, e->device, NULL, &err);
        if (oq) {
            CT_ERR(CL_INVALID_CONTEXT, clEnqueueNDRangeKernel(oq, k, 1, NULL, g, l, 0, NULL, NULL));
            clReleaseCommandQueue(oq);
        }
        clReleaseContext(other);
    }
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void non_uniform(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");
    const char *s =
        "kernel void w(global int *a) { a[get_global_id(0)] = (int)get_local_size(0); }";
    size_t g = 10, l = 4;
    int out[10];
    /* OpenCL C 1.2 programs: "CL_INVALID_WORK_GROUP_SIZE if ... the number of work-items
     * specified by global_work_size is not evenly divisible by size of work-group given by
     * local_work_size". */
    cl_program p = ct_build(e, s, "-cl-std=CL1.2");
    cl_kernel k = ct_kernel(p, "w");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, sizeof(out), NULL);
    CT_REQUIRE(p && k && m);
    clSetKernelArg(k, 0, sizeof(m), &m);
    CT_ERR(CL_INVALID_WORK_GROUP_SIZE,
           clEnqueueNDRangeKernel(e->q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    clReleaseKernel(k);
    clReleaseProgram(p);
    if (!ct_dev_uint(e->device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT)) {
        clReleaseMemObject(m);
        return;
    }
    /* With CL3.0 and non-uniform support: the last work-group is smaller. */
    p = ct_build(e, s, "-cl-std=CL3.0");
    k = ct_kernel(p, "w");
    CT_REQUIRE(p && k);
    clSetKernelArg(k, 0, sizeof(m), &m);
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
    CT_CHECK(out[0] == 4 && out[7] == 4 && out[8] == 2 && out[9] == 2);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(m);
}

static void CL_CALLBACK native_fn(void *args) {
    int *v = args;
    v[0] = v[1] * 3;
}

static void native_kernel(ct_env *e) {
    int arg[2] = {0, 14};
    if (ct_dev_bits(e->device, CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_NATIVE_KERNEL) {
        /* The implementation copies args; the copy is what the function sees, so the result
         * comes back through a buffer-free check: the function ran iff the event completes and
         * our own copy is untouched. */
        cl_event ev = NULL;
        CT_ERR(CL_SUCCESS, clEnqueueNativeKernel(e->q, native_fn, arg, sizeof(arg), 0, NULL, NULL,
                                                 0, NULL, &ev));
        CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
        CT_CHECK(arg[0] == 0);
        cl_command_type type = 0;
        CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
        CT_CHECK(type == CL_COMMAND_NATIVE_KERNEL);
        clReleaseEvent(ev);
        /* "CL_INVALID_VALUE if user_func is NULL." */
        CT_ERR(CL_INVALID_VALUE,
               clEnqueueNativeKernel(e->q, NULL, arg, sizeof(arg), 0, NULL, NULL, 0, NULL, NULL));
        return;
    }
    /* "CL_INVALID_OPERATION if the device associated with command_queue cannot execute the
     * native kernel." */
    CT_ERR(CL_INVALID_OPERATION, clEnqueueNativeKernel(e->q, (void (*)(void *))free, &arg,
                                                       sizeof(arg), 0, NULL, NULL, 0, NULL, NULL));
}

static const ct_case cases[] = {
    {"ndrange_dims", ndrange_dims},     {"offsets_and_task", offsets_and_task},
    {"argument_types", argument_types}, {"local_and_constant", local_and_constant},
    {"in_order_chain", in_order_chain}, {"release_after_enqueue", release_after_enqueue},
    {"ndrange_errors", ndrange_errors}, {"mismatched_context", mismatched_context},
    {"null_arguments", null_arguments}, {"non_uniform", non_uniform},
    {"native_kernel", native_kernel},
};
CT_SECTION(ct_enqueue_section, "enqueue", cases);
