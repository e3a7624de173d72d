/* A fault on the GPU (a kernel's store to an unmapped address) poisons the device's CUDA context
 * for the process: the cl_context that ran it is lost. Its commands fail (their events and their
 * dependents take an error), new commands and objects fail with CL_OUT_OF_RESOURCES, its notify
 * callback names the CUDA error, no other context of the device can be created while it lives,
 * and releasing it releases everything it held (no hold leaks). Then a new context of the same
 * process works: buffers (pinned, staged, bounced, registered copies), maps, queues, user
 * events, profiling and a kernel with correct results. Two faults in a row, so that a device
 * recovers more than once. Each recovery prints the context it gave: the primary one, reset, or
 * one of culvert's own where the reset left the primary context unusable (fake.device_recovery
 * and fake.device_recovery_own_context, FAKECUDA_RESET_KEEPS_FAULT=1, check each; in
 * fake.device_recovery_retry, FAKECUDA_RECOVER_REFUSALS=1, both fail on the first try and the
 * second recovers).
 *
 * Each round first uses everything culvert keeps per device beyond one context (slot pages,
 * staging pools, bounce buffers, the profiling clock, kernel timing's probe, anchors and slot
 * chunks), so the reset that recovers the device finds all of it; the kernel that faults runs on
 * a profiling queue (its timed twin faults, holding a slot), and after each recovery a kernel on
 * a profiling queue of the new context times itself again. Under the fake driver
 * (fake.device_recovery, FAKECUDA_FAULT_KERNEL=fault) the kernels do not run (their results are not
 * checked), and the fake aborts if culvert uses a stream, event, module or pinned page of the
 * context after its reset. The fault poisons the CUDA context of the process: this test runs alone.
 */
#include "queue_kernels.h"

#include <stdatomic.h>

/* inc: buf[i] += 1 for i < n. */
static const char inc_ptx[] = ".version 7.0\n"
                              ".target sm_70\n"
                              ".address_size 64\n"
                              ".visible .entry inc(.param .u64 .ptr .global .align 4 buf,\n"
                              "                    .param .u32 n)\n"
                              "{\n"
                              "  .reg .pred p;\n"
                              "  .reg .u32 i, t, c, cnt, v;\n"
                              "  .reg .u64 a, off;\n"
                              "  ld.param.u64 a, [buf];\n"
                              "  ld.param.u32 cnt, [n];\n"
                              "  mov.u32 i, %tid.x;\n"
                              "  mov.u32 t, %ctaid.x;\n"
                              "  mov.u32 c, %ntid.x;\n"
                              "  mad.lo.u32 i, t, c, i;\n"
                              "  setp.ge.u32 p, i, cnt;\n"
                              "  @p bra DONE;\n"
                              "  mul.wide.u32 off, i, 4;\n"
                              "  add.u64 a, a, off;\n"
                              "  ld.global.u32 v, [a];\n"
                              "  add.u32 v, v, 1;\n"
                              "  st.global.u32 [a], v;\n"
                              "DONE:\n"
                              "  ret;\n"
                              "}\n";

#define N (1u << 18) /* uints: 1 MiB, past the staged and registered thresholds */

static atomic_int lost_told;   /* notify messages that said the context is lost */
static atomic_int error_named; /* ... and named the CUDA error (the fake's: FAKE_ERROR_700) */

static void CL_CALLBACK notify(const char *info, const void *p, size_t cb, void *data) {
    (void)p;
    (void)cb;
    (void)data;
    if (strstr(info, "context is lost")) {
        atomic_fetch_add(&lost_told, 1);
        if (strstr(info, "CUDA_ERROR_") || strstr(info, "FAKE_ERROR_"))
            atomic_fetch_add(&error_named, 1);
        printf("notify: %s\n", info);
    }
}

static cl_kernel inc_kernel(void) {
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    size_t len = sizeof inc_ptx;
    const unsigned char *bin = (const unsigned char *)inc_ptx;
    cl_program p = clCreateProgramWithBinary(qt_context, 1, &qt_device, &len, &bin, &status, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &qt_device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "inc", &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k);
    clReleaseProgram(p);
    return k;
}

static cl_ulong host_now(void) {
    cl_ulong t = 0;
    CHECK_ERR(CL_SUCCESS, clGetHostTimer(qt_device, &t));
    return t;
}

/* The device's timer resolution: %globaltimer's step once kernel timing is ready (the fake's:
 * 32 ns), which only a probe that ran in the current context measures. A probe that did not
 * answer in time (a loaded host) is tried again a period later (CULVERT_PROFILING_ANCHOR_MS):
 * the fake's step is awaited. */
static size_t timer_resolution(void) {
    size_t res = 0;
    double end = qt_now() + cv_test_limit_s(10.0);
    do {
        if (res)
            usleep(50000);
        CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(qt_device, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                                              sizeof res, &res, NULL));
    } while (cv_test_fake_cuda() && res != 32 && qt_now() < end);
    return res;
}

/* A kernel on a profiling queue times itself (%globaltimer, through a slot of the device's kernel
 * timing, once the probe mapped it): QUEUED <= SUBMIT <= START <= END <= COMPLETE, all within the
 * host clock around the command. On a GPU a 200 us spin lasts its 200 us. */
static void kernel_timed(cl_command_queue prof, cl_kernel k, const size_t *global,
                         const size_t *local) {
    size_t res = timer_resolution();
    CHECK(res >= 1 && res <= 1000);
    if (cv_test_fake_cuda())
        CHECK(res == 32);
    cl_ulong before = host_now(), t[5] = {0};
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(prof, k, 1, NULL, global, local, 0, NULL, &e));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    cl_ulong after = host_now();
    for (int i = 0; i < 5; i++)
        CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i,
                                                      sizeof t[i], &t[i], NULL));
    CHECK(before <= t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4] &&
          t[4] <= after);
    clReleaseEvent(e);
    if (cv_test_fake_cuda())
        return; /* the fake runs no spin */
    cl_kernel spin = qt_kernel("spin");
    cl_event s = NULL;
    CHECK_ERR(CL_SUCCESS, qt_spin(prof, spin, 200000, 0, NULL, &s));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &s));
    CHECK_ERR(CL_SUCCESS,
              clGetEventProfilingInfo(s, CL_PROFILING_COMMAND_START, sizeof t[2], &t[2], NULL));
    CHECK_ERR(CL_SUCCESS,
              clGetEventProfilingInfo(s, CL_PROFILING_COMMAND_END, sizeof t[3], &t[3], NULL));
    CHECK(t[3] - t[2] >= 190000 && t[3] - t[2] < 50000000);
    clReleaseEvent(s);
    clReleaseKernel(spin);
}

static cl_mem buffer(cl_mem_flags flags, size_t size, void *host) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(qt_context, flags, size, host, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    return m;
}

/* Everything a healthy context does, with its results checked: a map of an ALLOC_HOST_PTR
 * buffer (pinned shadow), a kernel, a staged blocking read, a non-blocking write while a user
 * event holds the stream (a bounce buffer, a slot), a profiled fill (the clock), a registered
 * USE_HOST_PTR buffer, clFinish (the queue's flag slots), a kernel timing itself on the profiling
 * queue (the probe, the anchors, a slot chunk). `base` varies the data per round. */
static void use_everything(unsigned base) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = qt_queue(0), prof = qt_queue(CL_QUEUE_PROFILING_ENABLE);
    cl_mem a = buffer(CL_MEM_ALLOC_HOST_PTR, N * 4, NULL);
    cl_uint *p = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_WRITE, 0, N * 4, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p);
    for (cl_uint i = 0; i < N; i++)
        p[i] = base + i;
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, a, p, 0, NULL, NULL));

    cl_kernel k = inc_kernel();
    cl_uint n = N;
    size_t global = N, local = 256;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof n, &n));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    cl_uint *out = malloc(N * 4);
    REQUIRE(out);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, a, CL_TRUE, 0, N * 4, out, 0, NULL, NULL));
    unsigned ran = cv_test_fake_cuda() ? 0 : 1; /* the fake runs no kernel */
    cl_uint wrong = 0;
    for (cl_uint i = 0; i < N; i++)
        wrong += out[i] != base + i + ran;
    CHECK(wrong == 0);

    /* Behind a closed gate the stream is busy: a non-blocking pageable write is bounced. */
    cl_event gate = qt_user_event();
    cl_event held = qt_marker(q, 1, &gate);
    cl_uint small[1024], back[1024] = {0};
    for (cl_uint i = 0; i < 1024; i++)
        small[i] = base * 3 + i;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof small, small, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CHECK(memcmp(back, small, sizeof back) == 0);
    CHECK(qt_status(held) == CL_COMPLETE);

    /* A profiled command: the device's clock anchors its timestamps. */
    cl_event filled = NULL;
    cl_uint pattern = base;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueFillBuffer(prof, a, &pattern, sizeof pattern, 0, N * 4, 0, NULL, &filled));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &filled));
    cl_ulong start = 0, end = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(filled, CL_PROFILING_COMMAND_START, sizeof start,
                                                  &start, NULL));
    CHECK_ERR(CL_SUCCESS,
              clGetEventProfilingInfo(filled, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(start > 0 && end >= start);

    /* A registered USE_HOST_PTR buffer: the copy into it lands in the application's memory. */
    cl_uint *host = calloc(N, 4);
    REQUIRE(host);
    cl_mem u = buffer(CL_MEM_USE_HOST_PTR, N * 4, host);
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, a, u, 0, 0, N * 4, 0, NULL, NULL));
    cl_uint *mapped = clEnqueueMapBuffer(q, u, CL_TRUE, CL_MAP_READ, 0, N * 4, 0, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK(mapped == host && host[0] == base && host[N - 1] == base);
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, u, mapped, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    kernel_timed(prof, k, &global, &local);

    clReleaseMemObject(u);
    free(host);
    clReleaseEvent(filled);
    clReleaseEvent(held);
    clReleaseEvent(gate);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    free(out);
    clReleaseCommandQueue(prof);
    clReleaseCommandQueue(q);
}

/* The CUDA context of the first context of the process: the device's primary context. */
static void *primary_cuctx;

/* A new context of the device; after a fault (recovery > 0) the device recovers here. */
static void new_context(unsigned recovery) {
    cl_int err = CL_SUCCESS;
    qt_context = clCreateContext(NULL, 1, &qt_device, notify, NULL, &err);
    cv_test_skip_if_unrecoverable(qt_device, err);
    if (err != CL_SUCCESS)
        fprintf(stderr,
                "clCreateContext returned %d: the device did not recover from the fault "
                "(neither the primary context's reset nor a context of culvert's own worked, or "
                "a lost context was still there; CULVERT_LOG=error says which)\n",
                (int)err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(qt_context);
    qt_check_recovered(recovery, &primary_cuctx);
}

/* One round: a healthy context is used, then faults, is checked lost, and released whole. */
static void fault_round(unsigned round) {
    cl_int err = CL_SUCCESS;
    atomic_int context_released = 0, buffer_released = 0;
    atomic_store(&lost_told, 0);
    atomic_store(&error_named, 0);
    new_context(round - 1);
    CHECK_ERR(CL_SUCCESS, clSetContextDestructorCallback(qt_context, qt_context_gone,
                                                         (void *)&context_released));
    use_everything(round * 1000);

    cl_command_queue q = qt_queue(CL_QUEUE_PROFILING_ENABLE), other = qt_queue(0);
    cl_mem src = buffer(CL_MEM_READ_WRITE, 4096, NULL), dst = buffer(CL_MEM_READ_WRITE, 4096, NULL);
    CHECK_ERR(CL_SUCCESS,
              clSetMemObjectDestructorCallback(dst, qt_mem_gone, (void *)&buffer_released));
    cl_kernel fault = qt_kernel("fault");
    cl_ulong bad = 16; /* an unmapped device address */
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(fault, 0, sizeof bad, &bad));
    /* The stream waits for a user event while the fault and an event-less copy (whose holds
     * wait in the queue's batch) are enqueued; then the fault runs. */
    cl_event gate = qt_user_event();
    cl_event gated = qt_marker(q, 1, &gate);
    size_t one = 1;
    cl_event f = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, fault, 1, NULL, &one, &one, 0, NULL, &f));
    CHECK_ERR(CL_SUCCESS, clEnqueueCopyBuffer(q, src, dst, 0, 0, 4096, 0, NULL, NULL));
    cl_event dep = qt_marker(other, 1, &f);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &f));
    CHECK(qt_status(f) < 0);
    cl_ulong when = 0;
    CHECK_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
              clGetEventProfilingInfo(f, CL_PROFILING_COMMAND_END, sizeof when, &when, NULL));
    CHECK(qt_poll_final(dep, 5.0) < 0);

    /* Lost: nothing new starts in it, and no other context of the device while it lives. */
    cl_uint word = 7;
    CHECK_ERR(CL_OUT_OF_RESOURCES, clFinish(q));
    CHECK_ERR(CL_OUT_OF_RESOURCES,
              clEnqueueWriteBuffer(other, src, CL_TRUE, 0, 4, &word, 0, NULL, NULL));
    cl_mem more = clCreateBuffer(qt_context, CL_MEM_READ_WRITE, 4096, NULL, &err);
    CHECK(more == NULL && err == CL_OUT_OF_RESOURCES);
    cl_command_queue late = clCreateCommandQueue(qt_context, qt_device, 0, &err);
    CHECK(late == NULL && err == CL_OUT_OF_RESOURCES);
    cl_context second = clCreateContext(NULL, 1, &qt_device, NULL, NULL, &err);
    CHECK(second == NULL && err == CL_DEVICE_NOT_AVAILABLE);
    CHECK(qt_wait_flag(&lost_told, 5.0) == 1);
    CHECK(atomic_load(&error_named) == 1);

    clReleaseEvent(dep);
    clReleaseEvent(f);
    clReleaseEvent(gated);
    clReleaseEvent(gate);
    clReleaseKernel(fault);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseCommandQueue(other);
    clReleaseCommandQueue(q);
    clReleaseContext(qt_context);
    /* Nothing of the lost context stays held: the copy's batch went with the queue. */
    CHECK(qt_wait_flag(&buffer_released, 5.0));
    CHECK(qt_wait_flag(&context_released, 5.0));
    printf("round %u: fault seen, context lost and released\n", round);
}

int main(void) {
    qt_device = cv_test_gpu_device_or_skip(&qt_platform);
    for (unsigned round = 1; round <= 2; round++)
        fault_round(round);
    /* A third context, after the second recovery, works as on a fresh device. */
    new_context(2);
    use_everything(5000);
    clReleaseContext(qt_context);
    return cv_test_report("device_recovery");
}
