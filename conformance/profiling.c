/* Section 5.14 of the OpenCL 3.0 API: profiling operations on memory objects and kernels. */
#include "ct.h"

static cl_command_queue profiling_queue(ct_env *e) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
    ct_checks++;
    if (!q)
        ct_fail(__FILE__, __LINE__, "profiling queue: %s", ct_err_name(err));
    return q;
}

/* Reads the five timestamps; returns whether all were available. */
static bool stamps(cl_event ev, cl_ulong t[5]) {
    static const cl_profiling_info names[] = {
        CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};
    bool ok = true;
    for (int i = 0; i < 5; i++) {
        cl_int err = clGetEventProfilingInfo(ev, names[i], sizeof(cl_ulong), &t[i], NULL);
        ct_checks++;
        if (err != CL_SUCCESS) {
            ct_fail(__FILE__, __LINE__, "profiling info %d: %s", i, ct_err_name(err));
            ok = false;
        }
    }
    return ok;
}

static void ordering(ct_env *e) {
    cl_command_queue q = profiling_queue(e);
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 1 << 20, NULL);
    CT_REQUIRE(q && m);
    static unsigned char buf[1 << 20];
    cl_event evs[4] = {NULL};
    cl_uint pat = 1;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof(buf), buf, 0, NULL, &evs[0]));
    CT_ERR(CL_SUCCESS, clEnqueueFillBuffer(q, m, &pat, 4, 0, sizeof(buf), 0, NULL, &evs[1]));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof(buf), buf, 0, NULL, &evs[2]));
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(q, 0, NULL, &evs[3]));
    CT_ERR(CL_SUCCESS, clFinish(q));
    cl_ulong prev_end = 0, res = ct_dev_size(e->device, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
    for (int i = 0; i < 4; i++) {
        cl_ulong t[5];
        if (!stamps(evs[i], t))
            continue;
        /* QUEUED <= SUBMIT <= START <= END <= COMPLETE. */
        CT_CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
        /* In-order queue: a command starts after the previous one ended (within the timer
         * resolution, plus 1 µs for timestamps converted between clocks). */
        if (i > 0 && i < 3)
            CT_CHECK(t[2] + res + 1000 >= prev_end);
        prev_end = t[3];
    }
    for (int i = 0; i < 4; i++)
        clReleaseEvent(evs[i]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
}

static void kernel_duration(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");
    cl_command_queue q = profiling_queue(e);
    const char *src =
        "kernel void spin(global float *a, int n)\n"
        "{ float x = a[get_global_id(0)]; for (int i = 0; i < n; i++) x = x * 0.999f + 1.0f;\n"
        "  a[get_global_id(0)] = x; }";
    cl_program p = ct_build(e, src, NULL);
    cl_kernel k = ct_kernel(p, "spin");
    cl_mem m = ct_buffer(e, CL_MEM_READ_WRITE, 64 * 4, NULL);
    CT_REQUIRE(q && p && k && m);
    cl_float zero = 0;
    clEnqueueFillBuffer(q, m, &zero, 4, 0, 64 * 4, 0, NULL, NULL);
    cl_ulong dur[2] = {0, 0};
    cl_int iters[2] = {1000, 200000};
    for (int r = 0; r < 2; r++) {
        clSetKernelArg(k, 0, sizeof(m), &m);
        clSetKernelArg(k, 1, sizeof(cl_int), &iters[r]);
        size_t g = 64;
        cl_event ev = NULL;
        CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev));
        CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
        cl_ulong t[5];
        if (stamps(ev, t))
            dur[r] = t[3] - t[2];
        clReleaseEvent(ev);
    }
    /* 200x the work takes measurably longer. */
    CT_CHECK(dur[1] > dur[0]);
    CT_CHECK(dur[1] > 0);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
}

static void not_available(ct_env *e) {
    cl_ulong t = 0;
    cl_event ev = NULL;
    /* "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for the
     * command-queue". */
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(e->q, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t), &t, NULL));
    clReleaseEvent(ev);
    /* "... if event is a user event object". */
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    CT_REQUIRE(u != NULL);
    clSetUserEventStatus(u, CL_COMPLETE);
    CT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
           clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_START, sizeof(t), &t, NULL));
    clReleaseEvent(u);
}

static void before_complete(ct_env *e) {
    cl_command_queue q = profiling_queue(e);
    cl_int err = CL_SUCCESS;
    cl_event u = clCreateUserEvent(e->ctx, &err), ev = NULL;
    CT_REQUIRE(q && u);
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(q, 1, &u, &ev));
    cl_ulong t = 0;
    /* "CL_PROFILING_INFO_NOT_AVAILABLE if ... the execution status of the command identified by
     * event is not CL_COMPLETE". */
    CT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t), &t, NULL));
    clSetUserEventStatus(u, CL_COMPLETE);
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_ERR(CL_SUCCESS, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t), &t, NULL));
    /* "CL_INVALID_VALUE if param_name is not valid, or if size in bytes specified by
     * param_value_size is < size of return type". */
    CT_ERR(CL_INVALID_VALUE, clGetEventProfilingInfo(ev, 0x7fff, sizeof(t), &t, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 4, &t, NULL));
    /* "CL_INVALID_EVENT if event is a not a valid event object." */
    CT_ERR(CL_INVALID_EVENT,
           clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof(t), &t, NULL));
    clReleaseEvent(ev);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

static void device_timer_consistency(ct_env *e) {
    cl_ulong res = 0;
    clGetPlatformInfo(e->platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(res), &res, NULL);
    if (res == 0)
        CT_SKIP("no device and host timer synchronization (CL_PLATFORM_HOST_TIMER_RESOLUTION 0)");
    cl_command_queue q = profiling_queue(e);
    CT_REQUIRE(q != NULL);
    cl_ulong d0 = 0, h0 = 0, d1 = 0, h1 = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceAndHostTimer(e->device, &d0, &h0));
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueMarkerWithWaitList(q, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CT_ERR(CL_SUCCESS, clGetDeviceAndHostTimer(e->device, &d1, &h1));
    cl_ulong queued = 0, end = 0;
    CT_ERR(CL_SUCCESS,
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof(queued), &queued, NULL));
    CT_ERR(CL_SUCCESS,
           clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL));
    /* The device timer of clGetDeviceAndHostTimer is the profiling clock: the command's
     * timestamps lie between the two readings (1 ms of slack for timer resolution). */
    CT_CHECK(queued + 1000000 >= d0);
    CT_CHECK(end <= d1 + 1000000);
    clReleaseEvent(ev);
    clReleaseCommandQueue(q);
}

static const ct_case cases[] = {
    {"ordering", ordering},
    {"kernel_duration", kernel_duration},
    {"not_available", not_available},
    {"before_complete", before_complete},
    {"device_timer_consistency", device_timer_consistency},
};
CT_SECTION(ct_profiling_section, "profiling", cases);
