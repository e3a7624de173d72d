/* cl_culvert_host_value (include/CL/cl_culvert.h): tested only where the platform lists it; the
 * functions come from clGetExtensionFunctionAddressForPlatform. */
#include "ct.h"

#include <pthread.h>

typedef struct hv_fns {
    clCreateHostValue_fn create;
    clSignalHostValue_fn signal;
    clLoadHostValue_fn load;
    clResetHostValue_fn reset;
    clEnqueueWaitHostValue_fn wait;
    clEnqueueWriteHostValue_fn write;
} hv_fns;

static bool get_fns(ct_env *e, hv_fns *f) {
    f->create = (clCreateHostValue_fn)clGetExtensionFunctionAddressForPlatform(e->platform,
                                                                               "clCreateHostValue");
    f->signal = (clSignalHostValue_fn)clGetExtensionFunctionAddressForPlatform(e->platform,
                                                                               "clSignalHostValue");
    f->load = (clLoadHostValue_fn)clGetExtensionFunctionAddressForPlatform(e->platform,
                                                                           "clLoadHostValue");
    f->reset = (clResetHostValue_fn)clGetExtensionFunctionAddressForPlatform(e->platform,
                                                                             "clResetHostValue");
    f->wait = (clEnqueueWaitHostValue_fn)clGetExtensionFunctionAddressForPlatform(
        e->platform, "clEnqueueWaitHostValue");
    f->write = (clEnqueueWriteHostValue_fn)clGetExtensionFunctionAddressForPlatform(
        e->platform, "clEnqueueWriteHostValue");
    return f->create && f->signal && f->load && f->reset && f->wait && f->write;
}

#define SETUP()                                                                                    \
    if (!ct_plat_has_ext(e->platform, CL_CULVERT_HOST_VALUE_EXTENSION_NAME))                       \
        CT_SKIP(CL_CULVERT_HOST_VALUE_EXTENSION_NAME " not claimed");                              \
    hv_fns f;                                                                                      \
    CT_REQUIRE(get_fns(e, &f))

static cl_int status_of(cl_event ev) {
    cl_int st = 99;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, NULL);
    return st;
}

static void create_load_signal(ct_env *e) {
    SETUP();
    cl_int err = 1;
    cl_mem hv = f.create(e->ctx, 5, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(hv != NULL);
    cl_ulong v = 0;
    CT_ERR(CL_SUCCESS, f.load(hv, &v));
    CT_CHECK(v == 5);
    CT_ERR(CL_SUCCESS, f.signal(hv, 9));
    CT_ERR(CL_SUCCESS, f.load(hv, &v));
    CT_CHECK(v == 9);
    CT_ERR(CL_SUCCESS, f.reset(hv));
    CT_ERR(CL_SUCCESS, f.load(hv, &v));
    CT_CHECK(v == 0);
    size_t size = 0;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_SIZE, sizeof(size), &size, NULL));
    CT_CHECK(size == 8);
    cl_bool is = CL_FALSE;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_IS_HOST_VALUE_CULVERT, sizeof(is), &is, NULL));
    CT_CHECK(is == CL_TRUE);
    cl_ulong addr = 0;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT,
                                          sizeof(addr), &addr, NULL));
    CT_CHECK(addr != 0 && addr % 8 == 0);
    cl_context c = NULL;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_CONTEXT, sizeof(c), &c, NULL));
    CT_CHECK(c == e->ctx);
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS, clRetainMemObject(hv));
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 2);
    CT_ERR(CL_SUCCESS, clReleaseMemObject(hv));
    /* A plain buffer says it is no host value. */
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE, 8, NULL);
    if (b) {
        is = CL_TRUE;
        CT_ERR(CL_SUCCESS,
               clGetMemObjectInfo(b, CL_MEM_IS_HOST_VALUE_CULVERT, sizeof(is), &is, NULL));
        CT_CHECK(is == CL_FALSE);
        clReleaseMemObject(b);
    }
    clReleaseMemObject(hv);
}

static void errors(ct_env *e) {
    SETUP();
    cl_int err = CL_SUCCESS;
    cl_mem hv = f.create(e->ctx, 0, &err);
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE, 8, NULL);
    CT_REQUIRE(hv && b);
    cl_ulong v = 0;
    CT_CHECK(f.create(NULL, 0, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
    CT_ERR(CL_INVALID_VALUE, f.load(hv, NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT, f.load(NULL, &v));
    CT_ERR(CL_INVALID_MEM_OBJECT, f.signal(NULL, 1));
    CT_ERR(CL_INVALID_MEM_OBJECT, f.reset(NULL));
    /* A cl_mem that is not a host value. */
    CT_ERR(CL_INVALID_MEM_OBJECT, f.load(b, &v));
    CT_ERR(CL_INVALID_MEM_OBJECT, f.signal(b, 1));
    CT_ERR(CL_INVALID_MEM_OBJECT, f.wait(e->q, b, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    CT_ERR(CL_INVALID_MEM_OBJECT, f.write(e->q, b, 1, 0, NULL, NULL));
    /* Unknown condition. */
    CT_ERR(CL_INVALID_VALUE, f.wait(e->q, hv, 1, 0x7fff, 0, NULL, NULL));
    CT_ERR(CL_INVALID_COMMAND_QUEUE, f.wait(NULL, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    CT_ERR(CL_INVALID_EVENT_WAIT_LIST,
           f.wait(e->q, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 1, NULL, NULL));
    /* A host value of another context. */
    cl_context other = ct_other_context(e);
    if (other) {
        cl_mem ohv = f.create(other, 0, &err);
        CT_ERR(CL_INVALID_CONTEXT, f.wait(e->q, ohv, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
        CT_ERR(CL_INVALID_CONTEXT, f.write(e->q, ohv, 1, 0, NULL, NULL));
        if (ohv)
            clReleaseMemObject(ohv);
        clReleaseContext(other);
    }
    clReleaseMemObject(b);
    clReleaseMemObject(hv);
}

static void wait_gates_queue(ct_env *e) {
    SETUP();
    cl_int err = CL_SUCCESS;
    cl_mem hv = f.create(e->ctx, 0, &err);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 4, NULL);
    CT_REQUIRE(hv && m);
    static const cl_host_value_condition conds[] = {
        CL_HOST_VALUE_GEQ_CULVERT, CL_HOST_VALUE_EQ_CULVERT, CL_HOST_VALUE_AND_CULVERT};
    static const cl_ulong target[] = {3, 7, 0x10}, release[] = {4, 7, 0x30}, miss[] = {2, 6, 0x01};
    for (int c = 0; c < 3; c++) {
        CT_ERR(CL_SUCCESS, f.signal(hv, miss[c]));
        cl_event wev = NULL, wr = NULL;
        cl_int val = 100 + c, out = 0;
        CT_ERR(CL_SUCCESS, f.wait(e->q, hv, target[c], conds[c], 0, NULL, &wev));
        CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(e->q, m, CL_FALSE, 0, 4, &val, 0, NULL, &wr));
        CT_ERR(CL_SUCCESS, clFlush(e->q));
        ct_sleep_ms(30);
        ct_checks++;
        if (status_of(wr) <= CL_COMPLETE)
            ct_fail(__FILE__, __LINE__, "condition %d: the gated write ran before the signal", c);
        cl_command_type type = 0;
        CT_ERR(CL_SUCCESS, clGetEventInfo(wev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
        CT_CHECK(type == CL_COMMAND_WAIT_HOST_VALUE_CULVERT);
        CT_ERR(CL_SUCCESS, f.signal(hv, release[c]));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 0, 4, &out, 0, NULL, NULL));
        CT_CHECK(out == val);
        CT_CHECK(status_of(wev) == CL_COMPLETE);
        clReleaseEvent(wev);
        clReleaseEvent(wr);
    }
    /* NOR: supported, or refused with CL_INVALID_VALUE where the device cannot. */
    cl_int nor = f.wait(e->q, hv, 0, CL_HOST_VALUE_NOR_CULVERT, 0, NULL, NULL);
    CT_CHECK(nor == CL_SUCCESS || nor == CL_INVALID_VALUE);
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clReleaseMemObject(m);
    clReleaseMemObject(hv);
}

static void gpu_writes_value(ct_env *e) {
    SETUP();
    cl_int err = CL_SUCCESS;
    cl_mem hv = f.create(e->ctx, 1, &err);
    cl_event u = clCreateUserEvent(e->ctx, &err), ev = NULL;
    CT_REQUIRE(hv && u);
    CT_ERR(CL_SUCCESS, f.write(e->q, hv, 42, 1, &u, &ev));
    CT_ERR(CL_SUCCESS, clFlush(e->q));
    ct_sleep_ms(20);
    cl_ulong v = 0;
    CT_ERR(CL_SUCCESS, f.load(hv, &v));
    CT_CHECK(v == 1);
    clSetUserEventStatus(u, CL_COMPLETE);
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_ERR(CL_SUCCESS, f.load(hv, &v));
    CT_CHECK(v == 42);
    cl_command_type type = 0;
    CT_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, NULL));
    CT_CHECK(type == CL_COMMAND_WRITE_HOST_VALUE_CULVERT);
    clReleaseEvent(ev);
    clReleaseEvent(u);
    clReleaseMemObject(hv);
}

static void kernel_argument(ct_env *e) {
    SETUP();
    if (!ct_compiler(e))
        CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");
    const char *src = "kernel void k(global volatile ulong *hv) { *hv = *hv * 2 + 1; }";
    cl_program p = ct_build(e, src, NULL);
    cl_kernel k = ct_kernel(p, "k");
    cl_int err = CL_SUCCESS;
    cl_mem hv = f.create(e->ctx, 20, &err);
    CT_REQUIRE(p && k && hv);
    CT_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof(hv), &hv));
    CT_ERR(CL_SUCCESS, clEnqueueTask(e->q, k, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    cl_ulong v = 0;
    CT_ERR(CL_SUCCESS, f.load(hv, &v));
    CT_CHECK(v == 41);
    clReleaseMemObject(hv);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

typedef struct {
    clSignalHostValue_fn signal;
    cl_mem hv;
} signal_arg;

static void *signal_later(void *p) {
    signal_arg *a = p;
    ct_sleep_ms(30);
    a->signal(a->hv, 1);
    return NULL;
}

static void profiled_wait(ct_env *e) {
    SETUP();
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
    cl_mem hv = f.create(e->ctx, 0, &err);
    CT_REQUIRE(q && hv);
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, f.wait(q, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clFlush(q));
    signal_arg a = {f.signal, hv};
    pthread_t t;
    pthread_create(&t, NULL, signal_later, &a);
    /* clFinish returns once another thread signals. */
    CT_ERR(CL_SUCCESS, clFinish(q));
    pthread_join(t, NULL);
    cl_ulong start = 0, end = 0;
    CT_ERR(CL_SUCCESS,
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL));
    CT_ERR(CL_SUCCESS,
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL));
    /* END - START is how long the GPU waited: about the 30 ms before the signal. */
    CT_CHECK(end >= start);
    CT_CHECK(end - start >= 10 * 1000000ull);
    clReleaseEvent(ev);
    clReleaseMemObject(hv);
    clReleaseCommandQueue(q);
}

static const ct_case cases[] = {
    {"create_load_signal", create_load_signal}, {"errors", errors},
    {"wait_gates_queue", wait_gates_queue},     {"gpu_writes_value", gpu_writes_value},
    {"kernel_argument", kernel_argument},       {"profiled_wait", profiled_wait},
};
CT_SECTION(ct_host_value_section, CL_CULVERT_HOST_VALUE_EXTENSION_NAME, cases);
