/* cv-bench, OpenCL: the command-buffer figures (cl_khr_command_buffer 0.9.8; a device without it,
 * or with another revision, prints "-"): the host time of a replay of 100 empty kernels against
 * the same 100 kernels enqueued one by one, and a host-value wait inside a replayed command
 * buffer against the same wait on a stream (host_value_gate in bench_cl.c). */
#include "bench_cl.h"

#include <string.h>

#define CLB_KERNELS 100
#define CLB_BURST   8 /* replays (or sets of 100 enqueues) timed together */

#define CLB_FN(b, name) ((name##_fn)clGetExtensionFunctionAddressForPlatform((b)->platform, #name))

void clb_open_command_buffers(cl_backend *b) {
    cl_name_version v[128];
    size_t size = 0;
    bool listed = false;
    if (clGetDeviceInfo(b->dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof v, v, &size) !=
        CL_SUCCESS)
        size = 0;
    for (size_t i = 0; i < size / sizeof v[0]; i++)
        listed |= strcmp(v[i].name, "cl_khr_command_buffer") == 0 &&
                  v[i].version == CL_MAKE_VERSION(0, 9, 8);
    if (!listed)
        return;
    b->cb.create = CLB_FN(b, clCreateCommandBufferKHR);
    b->cb.ndrange = CLB_FN(b, clCommandNDRangeKernelKHR);
    b->cb.finalize = CLB_FN(b, clFinalizeCommandBufferKHR);
    b->cb.enqueue = CLB_FN(b, clEnqueueCommandBufferKHR);
    b->cb.release = CLB_FN(b, clReleaseCommandBufferKHR);
    b->cb.wait_value = CLB_FN(b, clCommandWaitHostValueCULVERT);
}

static bool clb_has_command_buffers(const cl_backend *b) {
    return b->cb.create && b->cb.ndrange && b->cb.finalize && b->cb.enqueue && b->cb.release &&
           b->k_empty;
}

/* n empty kernels of 32 work-items on b->q (in order: each after the one before); with hv, a
 * wait until it holds 1 first. NULL on failure. */
static cl_command_buffer_khr clb_record(cl_backend *b, int n, cl_mem hv) {
    static const size_t one32 = 32;
    cl_int e = CL_SUCCESS;
    cl_command_buffer_khr cb = b->cb.create(1, &b->q, NULL, &e);
    if (!e && hv)
        e = b->cb.wait_value(cb, NULL, NULL, hv, 1, CL_HOST_VALUE_EQ_CULVERT, 0, NULL, NULL, NULL);
    for (int i = 0; i < n && !e; i++)
        e = b->cb.ndrange(cb, NULL, NULL, b->k_empty, 1, NULL, &one32, &one32, 0, NULL, NULL, NULL);
    if (!e)
        e = b->cb.finalize(cb);
    if (e && cb)
        b->cb.release(cb);
    return e ? NULL : cb;
}

double clb_enqueue_100(cl_backend *b) {
    if (!b->k_empty)
        return NAN;
    double v[64];
    cl_int e = clb_launch_empty(b, b->q, 0, NULL, NULL);
    clFinish(b->q);
    for (int r = 0; r < g_opts.reps && !e; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < CLB_BURST * CLB_KERNELS && !e; i++)
            e = clb_launch_empty(b, b->q, 0, NULL, NULL);
        double t1 = bench_now_us();
        clFinish(b->q);
        v[r] = (t1 - t0) / CLB_BURST;
    }
    return e ? NAN : bench_median(v, g_opts.reps);
}

double clb_replay_100(cl_backend *b) {
    if (!clb_has_command_buffers(b))
        return NAN;
    cl_command_buffer_khr cb = clb_record(b, CLB_KERNELS, NULL);
    if (!cb)
        return NAN;
    double v[64];
    cl_int e = b->cb.enqueue(0, NULL, cb, 0, NULL, NULL);
    clFinish(b->q);
    for (int r = 0; r < g_opts.reps && !e; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < CLB_BURST && !e; i++)
            e = b->cb.enqueue(0, NULL, cb, 0, NULL, NULL);
        double t1 = bench_now_us();
        clFinish(b->q);
        v[r] = (t1 - t0) / CLB_BURST;
    }
    b->cb.release(cb);
    return e ? NAN : bench_median(v, g_opts.reps);
}

/* The host stores 1 into the host value a replay waits for; the replay's kernel is seen
 * complete through the launch's event (clWaitForEvents), as in the stream's gate row. */
double clb_host_value_gate_graph(cl_backend *b) {
    if (!clb_has_command_buffers(b) || !b->cb.wait_value || !b->hv_create || !b->hv_signal)
        return NAN;
    cl_int e = CL_SUCCESS;
    cl_mem hv = b->hv_create(b->ctx, 0, &e);
    cl_command_buffer_khr cb = hv ? clb_record(b, 1, hv) : NULL;
    if (!cb) {
        if (hv)
            clReleaseMemObject(hv);
        return NAN;
    }
    int n = g_opts.reps * 4;
    double v[256];
    for (int i = 0; i < n && !e; i++) {
        cl_event ev = NULL;
        b->hv_signal(hv, 0);
        e = b->cb.enqueue(0, NULL, cb, 0, NULL, &ev);
        clFlush(b->q);
        bench_sleep_us(300);
        double t0 = bench_now_us();
        b->hv_signal(hv, 1);
        if (!e)
            e = clWaitForEvents(1, &ev);
        v[i] = e ? NAN : bench_now_us() - t0;
        if (ev)
            clReleaseEvent(ev);
    }
    b->hv_signal(hv, 1); /* nothing left gated */
    clFinish(b->q);
    b->cb.release(cb);
    clReleaseMemObject(hv);
    return e ? NAN : bench_median(v, n);
}
