/* Command buffers at work: memory commands, sync points and barriers, events, releases in flight,
 * host-value gates, kernels captured at recording, and mutable dispatch (in-place updates, new
 * graphs where a launch's shape changes, all-or-nothing updates, deferred arguments). On the GPU
 * (gpu.command_buffer_run) kernels run and their results are checked; on the fake driver
 * (fake.command_buffer_run) copies, fills and host-value operations run, kernels' launches are
 * read from the fake's records, and the CUDA calls of an update are counted. */
#include "command_buffer_common.h"

#include <stdlib.h>
#include <time.h>

static void sleep_ms(long ms) {
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

/* The fake's last recorded launch. */
static const fakecuda_launch *last_launch(void) {
    return cbt_fake && cbt_fake->num_launches ? &cbt_fake->launches[cbt_fake->num_launches - 1]
                                              : NULL;
}

static uint32_t param_u32(const fakecuda_launch *l, unsigned i) {
    uint32_t v = 0;
    memcpy(&v, l->params + l->param_offset[i], 4);
    return v;
}

static void test_memory_commands(void) {
    enum { N = 64 };
    cl_int src[N], out[2 * N];
    cl_mem s = cv_test_buffer(cbt_context, sizeof src, NULL);
    cl_mem d = cv_test_buffer(cbt_context, 2 * sizeof src, NULL);
    cl_mem f = cv_test_buffer(cbt_context, sizeof src, NULL);
    cl_mem r = cv_test_buffer(cbt_context, sizeof src, NULL);
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    const cl_int pattern16[4] = {1, 2, 3, 4};
    const cl_short pattern2 = 0x0102;
    size_t origin[3] = {0, 0, 0}, dorigin[3] = {4, 1, 0}, region[3] = {16, 2, 1};
    CHECK_ERR(CL_SUCCESS,
              cbt.copy(cb, NULL, NULL, s, d, 0, sizeof src, sizeof src, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, f, pattern16, sizeof pattern16, 0, sizeof src, 0,
                                   NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.fill(cb, NULL, NULL, r, &pattern2, 2, 0, sizeof src, 0, NULL, NULL, NULL));
    /* Rows of 16 bytes from s (pitch 32) to r at (4, 1) (pitch 64), after r's fill. */
    CHECK_ERR(CL_SUCCESS, cbt.copy_rect(cb, NULL, NULL, s, r, origin, dorigin, region, 32, 0, 64, 0,
                                        0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    for (cl_int round = 1; round <= 2; round++) {
        for (int i = 0; i < N; i++)
            src[i] = round * 1000 + i;
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueWriteBuffer(cbt_queue, s, CL_FALSE, 0, sizeof src, src, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
        cbt_read(d, out, 2 * N);
        CHECK(memcmp(out + N, src, sizeof src) == 0);
        cbt_read(f, out, N);
        int ok = 1;
        for (int i = 0; i < N; i++)
            ok &= out[i] == pattern16[i % 4];
        CHECK(ok);
        cbt_read(r, out, N);
        /* Row y of the copy: bytes [64 y + 4 + 64, +16) of r from [32 y, +16) of s. */
        const unsigned char *rb = (const unsigned char *)out, *sb = (const unsigned char *)src;
        ok = rb[0] == 0x02 && rb[1] == 0x01 && rb[2] == 0x02;
        for (int y = 0; y < 2; y++)
            ok &= memcmp(rb + 64 * (y + 1) + 4, sb + 32 * y, 16) == 0;
        CHECK(ok);
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(s);
    clReleaseMemObject(d);
    clReleaseMemObject(f);
    clReleaseMemObject(r);
}

/* Dependencies: an out-of-order recording queue orders only by sync points and barriers, an
 * in-order one chains every command; on the fake, the graph's edges are counted. */
static void test_dependencies(void) {
    enum { N = 16 };
    cl_mem a = cv_test_buffer(cbt_context, N * 4, NULL),
           b = cv_test_buffer(cbt_context, N * 4, NULL);
    cl_mem c = cv_test_buffer(cbt_context, N * 4, NULL),
           d = cv_test_buffer(cbt_context, N * 4, NULL);
    cl_int five = 5, six = 6, out[N];
    cl_sync_point_khr sp[3];
    unsigned edges = cbt_fake ? cbt_fake->graph_edges : 0;
    cl_command_buffer_khr cb = cbt_new(cbt_ooo_queue, 0);
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, a, &five, 4, 0, N * 4, 0, NULL, &sp[0], NULL));
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, b, &six, 4, 0, N * 4, 0, NULL, &sp[1], NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy(cb, NULL, NULL, a, c, 0, 0, N * 4, 1, &sp[0], &sp[2], NULL));
    CHECK(sp[0] != sp[1] && sp[1] != sp[2]);
    /* A barrier after sp[1] and sp[2] (and one more time sp[1]: repeats are no error); the copy
     * after it waits for the barrier only. */
    cl_sync_point_khr list[3] = {sp[1], sp[2], sp[1]};
    CHECK_ERR(CL_SUCCESS, cbt.barrier(cb, NULL, NULL, 3, list, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy(cb, NULL, NULL, c, d, 0, 0, N * 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    /* copy: 1, barrier: 2, last copy: 1 */
    if (cbt_fake)
        CHECK(cbt_fake->graph_edges - edges == 4);
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_ooo_queue));
    cbt_read(d, out, N);
    CHECK(cbt_all(out, N, 5));
    cbt_read(b, out, N);
    CHECK(cbt_all(out, N, 6));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    /* A barrier without a list waits for every command before it. */
    edges = cbt_fake ? cbt_fake->graph_edges : 0;
    cb = cbt_new(cbt_ooo_queue, 0);
    for (int i = 0; i < 3; i++)
        CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, a, &five, 4, 0, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.barrier(cb, NULL, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, a, &six, 4, 0, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    if (cbt_fake)
        CHECK(cbt_fake->graph_edges - edges == 4);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    /* In order: each command after the one before. */
    edges = cbt_fake ? cbt_fake->graph_edges : 0;
    cb = cbt_new(cbt_queue, 0);
    for (int i = 0; i < 4; i++)
        CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, a, &five, 4, 0, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    if (cbt_fake)
        CHECK(cbt_fake->graph_edges - edges == 3);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(d);
}

static void test_events(void) {
    cl_int err = CL_SUCCESS, v = 3, out[4];
    cl_command_queue prof =
        clCreateCommandQueue(cbt_context, cbt_device, CL_QUEUE_PROFILING_ENABLE, &err);
    cl_mem m = cv_test_buffer(cbt_context, 16, NULL);
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, m, &v, 4, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(1, &prof, cb, 0, NULL, &e));
    REQUIRE(e);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    cl_command_type type = 0;
    cl_int status = 1;
    cl_command_queue q = NULL;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_COMMAND_BUFFER_KHR);
    CHECK_ERR(CL_SUCCESS,
              clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    CHECK(q == prof);
    cl_ulong t[4] = {0};
    for (int i = 0; i < 4; i++)
        CHECK_ERR(CL_SUCCESS, clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i,
                                                      sizeof t[i], &t[i], NULL));
    CHECK(t[0] && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
    cbt_read(m, out, 4);
    CHECK(cbt_all(out, 4, 3));
    /* A launch waits for its wait list; the command buffer, released in flight, lives until
     * the launch is done. */
    cl_event gate = clCreateUserEvent(cbt_context, &err);
    cl_event done = NULL;
    v = 8;
    cl_command_buffer_khr cb2 = cbt_new(cbt_queue, 0);
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb2, NULL, NULL, m, &v, 4, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb2));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb2, 1, &gate, &done));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb2));
    sleep_ms(20);
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                         &status, NULL));
    CHECK(status > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &done));
    cbt_read(m, out, 4);
    CHECK(cbt_all(out, 4, 8));
    /* An empty command buffer completes like a marker. */
    cl_command_buffer_khr empty = cbt_new(cbt_queue, 0);
    CHECK_ERR(CL_SUCCESS, cbt.finalize(empty));
    cl_event e2 = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, empty, 0, NULL, &e2));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e2));
    CHECK_ERR(CL_SUCCESS, cbt.release(empty));
    clReleaseEvent(e2);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    clReleaseEvent(e);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(m);
    clReleaseCommandQueue(prof);
}

/* The GPU waits for a host value inside the graph: nothing after the wait runs until the host
 * signals, replay after replay. */
static void test_host_value_gate(void) {
    cl_int err = CL_SUCCESS, v = 9, zero = 0, out[4];
    cl_mem go = cbt.host_value(cbt_context, 0, &err);
    cl_mem done = cbt.host_value(cbt_context, 0, &err);
    cl_mem m = cv_test_buffer(cbt_context, 16, NULL);
    cl_command_queue reader = clCreateCommandQueue(cbt_context, cbt_device, 0, &err);
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    cl_sync_point_khr waited = 0;
    CHECK_ERR(CL_SUCCESS, cbt.wait_value(cb, NULL, NULL, go, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL,
                                         &waited, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, NULL, m, &v, 4, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.write_value(cb, NULL, NULL, done, 1, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    for (int round = 0; round < 3; round++) {
        CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, m, &zero, 4, 0, 16, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
        sleep_ms(20);
        cl_ulong d = 7;
        CHECK_ERR(CL_SUCCESS, cbt.load(done, &d));
        CHECK(d == 0);
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadBuffer(reader, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        CHECK(cbt_all(out, 4, 0));
        CHECK_ERR(CL_SUCCESS, cbt.signal(go, 1));
        CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
        CHECK_ERR(CL_SUCCESS, cbt.load(done, &d));
        CHECK(d == 1);
        cbt_read(m, out, 4);
        CHECK(cbt_all(out, 4, 9));
        CHECK_ERR(CL_SUCCESS, cbt.signal(go, 0));
        CHECK_ERR(CL_SUCCESS, cbt.signal(done, 0));
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseCommandQueue(reader);
    clReleaseMemObject(m);
    clReleaseMemObject(go);
    clReleaseMemObject(done);
}

/* clSetKernelArg after recording changes nothing of the command. */
static void test_kernel_capture(void) {
    enum { N = 64 };
    cl_int err = CL_SUCCESS;
    cl_program p = cbt_add_program();
    cl_kernel k = clCreateKernel(p, "add", &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k);
    cl_mem m = cv_test_buffer(cbt_context, N * 4, NULL);
    cl_int zero = 0, out[N];
    cl_uint five = 5, hundred = 100;
    size_t global = N, local = 32;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof five, &five));
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, &local, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof hundred, &hundred));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    /* The kernel is held: released by the application, it still runs. */
    clReleaseKernel(k);
    /* The command buffer's copy is no kernel object attached to the program: a build may replace
     * its binary, while the recorded command keeps the code it had. */
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &cbt_device, "", NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, m, &zero, 4, 0, N * 4, 0, NULL, NULL));
    unsigned before = cbt_fake ? cbt_fake->num_launches : 0;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cbt_read(m, out, N);
    if (cbt_fake) {
        const fakecuda_launch *l = last_launch();
        CHECK(cbt_fake->num_launches == before + 2 && l && l->graph);
        CHECK(l && strcmp(l->func, "add") == 0 && l->grid[0] == 2 && l->block[0] == 32);
        CHECK(l && param_u32(l, 1) == 5);
    } else {
        CHECK(cbt_all(out, N, 10));
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseProgram(p);
    clReleaseMemObject(m);
}

/* clUpdateMutableCommandsKHR with one config. */
static cl_int update1(cl_command_buffer_khr cb, const cl_mutable_dispatch_config_khr *cfg) {
    cl_command_buffer_update_type_khr type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
    const void *configs[1] = {cfg};
    return cbt.update(cb, 1, &type, configs);
}

static void test_mutable(void) {
    enum { N = 128 };
    cl_int err = CL_SUCCESS, zero = 0, out[N];
    cl_kernel k = cbt_add_kernel();
    cl_mem m = cv_test_buffer(cbt_context, N * 4, NULL),
           m2 = cv_test_buffer(cbt_context, N * 4, NULL);
    cl_uint five = 5, nine = 9, three = 3;
    size_t global = 64, local = 32, global2 = 128, odd = 48, offset = 4;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof five, &five));
    cl_command_buffer_khr cb = cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    cl_mutable_command_khr cmd = NULL;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, &local, 0, NULL, NULL, &cmd));
    REQUIRE(cmd);
    /* "CL_INVALID_OPERATION if command_buffer has not been finalized." */
    cl_mutable_dispatch_arg_khr arg9 = {1, sizeof nine, &nine};
    cl_mutable_dispatch_config_khr cfg = {.command = cmd, .num_args = 1, .arg_list = &arg9};
    CHECK_ERR(CL_INVALID_OPERATION, update1(cb, &cfg));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, m, &zero, 4, 0, N * 4, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    /* An argument: the instance's node in place, no new instance. */
    if (cbt_fake)
        cbt_fake->calls_begin();
    CHECK_ERR(CL_SUCCESS, update1(cb, &cfg));
    if (cbt_fake) {
        cbt_fake->calls_end();
        CHECK(cbt_fake->calls("cuGraphExecKernelNodeSetParams") == 1);
        CHECK(cbt_fake->calls("cuGraphInstantiateWithFlags") == 0);
    }
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cbt_read(m, out, N);
    if (cbt_fake)
        CHECK(last_launch() && param_u32(last_launch(), 1) == 9);
    else
        CHECK(cbt_all(out, 64, 14) && cbt_all(out + 64, 64, 0));
    /* The global size (still one launch: in place) and another buffer. */
    cl_mutable_dispatch_arg_khr argm2 = {0, sizeof m2, &m2};
    cl_mutable_dispatch_config_khr grow = {
        .command = cmd, .num_args = 1, .arg_list = &argm2, .global_work_size = &global2};
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, m2, &zero, 4, 0, N * 4, 0, NULL, NULL));
    if (cbt_fake)
        cbt_fake->calls_begin();
    CHECK_ERR(CL_SUCCESS, update1(cb, &grow));
    if (cbt_fake) {
        cbt_fake->calls_end();
        CHECK(cbt_fake->calls("cuGraphInstantiateWithFlags") == 0);
    }
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cbt_read(m2, out, N);
    if (cbt_fake)
        CHECK(last_launch() && last_launch()->grid[0] == 4);
    else
        CHECK(cbt_all(out, N, 9));
    size_t got[3] = {0};
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, cbt.command_info(cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR,
                                           sizeof got, got, &size));
    CHECK(size == sizeof(size_t) && got[0] == 128);
    /* All or nothing: a valid config with an invalid one changes nothing. */
    cl_mutable_dispatch_arg_khr arg3 = {1, sizeof three, &three}, bad_index = {7, 4, &three};
    cl_mutable_dispatch_config_khr ok_cfg = {.command = cmd, .num_args = 1, .arg_list = &arg3};
    cl_mutable_dispatch_config_khr bad_cfg = {
        .command = cmd, .num_args = 1, .arg_list = &bad_index};
    cl_command_buffer_update_type_khr types[2] = {CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR,
                                                  CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR};
    const void *both[2] = {&ok_cfg, &bad_cfg};
    CHECK_ERR(CL_INVALID_ARG_INDEX, cbt.update(cb, 2, types, both));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cbt_read(m2, out, N);
    if (cbt_fake)
        CHECK(last_launch() && param_u32(last_launch(), 1) == 9);
    else
        CHECK(cbt_all(out, N, 18));
    /* The errors of the configs. */
    cl_mutable_dispatch_config_khr c = {.command = cmd, .work_dim = 2};
    CHECK_ERR(CL_INVALID_OPERATION, update1(cb, &c));
    c = (cl_mutable_dispatch_config_khr){.command = cmd, .num_args = 1};
    CHECK_ERR(CL_INVALID_VALUE, update1(cb, &c));
    /* An SVM pointer for the 32-bit value argument: clSetKernelArgSVMPointer's
     * "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value." */
    c = (cl_mutable_dispatch_config_khr){.command = cmd, .num_svm_args = 1, .arg_svm_list = &arg3};
    CHECK_ERR(CL_INVALID_ARG_VALUE, update1(cb, &c));
    c = (cl_mutable_dispatch_config_khr){.command = cmd, .global_work_offset = &offset};
    CHECK_ERR(CL_INVALID_GLOBAL_OFFSET, update1(cb, &c));
    /* "CL_INVALID_OPERATION if the values of local_work_size and/or global_work_size result in
     * a change to work-group uniformity." */
    c = (cl_mutable_dispatch_config_khr){.command = cmd, .global_work_size = &odd};
    CHECK_ERR(CL_INVALID_OPERATION, update1(cb, &c));
    c = (cl_mutable_dispatch_config_khr){.command = (cl_mutable_command_khr)m};
    CHECK_ERR(CL_INVALID_MUTABLE_COMMAND_KHR, update1(cb, &c));
    cl_command_buffer_update_type_khr wrong = 1;
    const void *one[1] = {&cfg};
    CHECK_ERR(CL_INVALID_VALUE, cbt.update(cb, 1, &wrong, one));
    const void *null_cfg[1] = {NULL};
    CHECK_ERR(CL_INVALID_VALUE, cbt.update(cb, 1, types, null_cfg));
    CHECK_ERR(CL_INVALID_VALUE, cbt.update(cb, 0, types, one));
    /* The queries. */
    cl_kernel qk = NULL;
    cl_command_type type = 0;
    cl_uint dims = 0;
    CHECK_ERR(CL_SUCCESS,
              cbt.command_info(cmd, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof qk, &qk, NULL));
    CHECK(qk == k);
    CHECK_ERR(CL_SUCCESS,
              cbt.command_info(cmd, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_NDRANGE_KERNEL);
    CHECK_ERR(CL_SUCCESS,
              cbt.command_info(cmd, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, NULL));
    CHECK(dims == 1);
    CHECK_ERR(CL_SUCCESS,
              cbt.command_info(cmd, CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR, 0, NULL, &size));
    CHECK(size == 0);
    CHECK_ERR(CL_SUCCESS, cbt.command_info(cmd, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR,
                                           sizeof got, got, &size));
    CHECK(size == sizeof(size_t) && got[0] == 0);
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.command_info(cmd, CL_MUTABLE_DISPATCH_KERNEL_KHR, 1, &qk, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.command_info(cmd, 0x7777, sizeof qk, &qk, NULL));
    /* A cooperative launch is another node attribute: a new graph. */
    cl_bool yes = CL_TRUE;
    cl_mutable_dispatch_exec_info_khr coop = {CL_KERNEL_EXEC_INFO_COOPERATIVE_CULVERT, sizeof yes,
                                              &yes};
    c = (cl_mutable_dispatch_config_khr){
        .command = cmd, .num_exec_infos = 1, .exec_info_list = &coop};
    if (cbt_fake)
        cbt_fake->calls_begin();
    CHECK_ERR(CL_SUCCESS, update1(cb, &c));
    if (cbt_fake) {
        cbt_fake->calls_end();
        CHECK(cbt_fake->calls("cuGraphInstantiateWithFlags") == 1);
    }
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cbt_read(m2, out, N);
    if (cbt_fake)
        CHECK(last_launch() && last_launch()->cooperative && param_u32(last_launch(), 1) == 9);
    else
        CHECK(cbt_all(out, N, 27));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    /* A command buffer that is not mutable takes no update; one recorded with only its
     * arguments updatable takes no size. */
    cl_command_buffer_khr fixed = cbt_new(cbt_queue, 0);
    cl_mutable_command_khr fcmd = NULL;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(fixed, NULL, NULL, k, 1, NULL, &global, &local, 0, NULL, NULL, &fcmd));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(fixed));
    cfg.command = fcmd;
    CHECK_ERR(CL_INVALID_OPERATION, update1(fixed, &cfg));
    cl_command_buffer_khr args_only = cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    const cl_command_properties_khr props[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                               CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
    cl_mutable_command_khr acmd = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.ndrange(args_only, NULL, props, k, 1, NULL, &global, &local, 0, NULL,
                                      NULL, &acmd));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(args_only));
    c = (cl_mutable_dispatch_config_khr){.command = acmd, .global_work_size = &global2};
    CHECK_ERR(CL_INVALID_OPERATION, update1(args_only, &c));
    /* A command of another command buffer. */
    cfg.command = fcmd;
    CHECK_ERR(CL_INVALID_MUTABLE_COMMAND_KHR, update1(args_only, &cfg));
    cl_command_properties_khr got_props[3] = {0};
    CHECK_ERR(CL_SUCCESS, cbt.command_info(acmd, CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR,
                                           sizeof got_props, got_props, &size));
    CHECK(size == sizeof props && memcmp(got_props, props, sizeof props) == 0);
    CHECK_ERR(CL_SUCCESS, cbt.release(fixed));
    CHECK_ERR(CL_SUCCESS, cbt.release(args_only));
    clReleaseKernel(k);
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    (void)err;
}

/* Arguments left unset by a command with CL_MUTABLE_DISPATCH_ARGUMENTS_KHR: the command buffer
 * is Finalized, not Executable, until an update sets them. */
static void test_deferred_arguments(void) {
    enum { N = 32 };
    cl_kernel k = cbt_add_kernel();
    cl_mem m = cv_test_buffer(cbt_context, N * 4, NULL);
    cl_uint two = 2;
    cl_int zero = 0, out[N];
    size_t global = N;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof two, &two));
    cl_command_buffer_khr cb = cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    cl_mutable_command_khr cmd = NULL;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, &cmd));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    cl_command_buffer_state_khr s = 99;
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof s, &s, NULL));
    CHECK(s == CL_COMMAND_BUFFER_STATE_FINALIZED_KHR);
    CHECK_ERR(CL_INVALID_OPERATION, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cl_mutable_dispatch_arg_khr arg = {0, sizeof m, &m};
    cl_mutable_dispatch_config_khr cfg = {.command = cmd, .num_args = 1, .arg_list = &arg};
    CHECK_ERR(CL_SUCCESS, update1(cb, &cfg));
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof s, &s, NULL));
    CHECK(s == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, m, &zero, 4, 0, N * 4, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cbt_read(m, out, N);
    if (!cbt_fake)
        CHECK(cbt_all(out, N, 2));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

/* Simultaneous use: a launch waits behind a user event, the command is updated, a second
 * launch goes to another queue; each launch has its own arguments. */
static void test_simultaneous(void) {
    enum { N = 32 };
    cl_int err = CL_SUCCESS, zero = 0, out[N];
    cl_kernel k = cbt_add_kernel();
    cl_mem a = cv_test_buffer(cbt_context, N * 4, NULL),
           b = cv_test_buffer(cbt_context, N * 4, NULL);
    cl_uint five = 5, seven = 7;
    size_t global = N;
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, a, &zero, 4, 0, N * 4, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueFillBuffer(cbt_queue, b, &zero, 4, 0, N * 4, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof a, &a));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof five, &five));
    cl_command_buffer_khr cb =
        cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR | CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
    cl_mutable_command_khr cmd = NULL;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, &cmd));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    cl_command_queue q2 = clCreateCommandQueue(cbt_context, cbt_device, 0, &err);
    cl_event gate = clCreateUserEvent(cbt_context, &err);
    unsigned before = cbt_fake ? cbt_fake->num_launches : 0;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 1, &gate, NULL));
    cl_mutable_dispatch_arg_khr args[2] = {{0, sizeof b, &b}, {1, sizeof seven, &seven}};
    cl_mutable_dispatch_config_khr cfg = {.command = cmd, .num_args = 2, .arg_list = args};
    CHECK_ERR(CL_SUCCESS, update1(cb, &cfg));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(1, &q2, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
    CHECK_ERR(CL_SUCCESS, clFinish(q2));
    if (cbt_fake) {
        CHECK(cbt_fake->num_launches == before + 2);
        if (cbt_fake->num_launches == before + 2) {
            uint32_t v0 = param_u32(&cbt_fake->launches[before], 1);
            uint32_t v1 = param_u32(&cbt_fake->launches[before + 1], 1);
            CHECK((v0 == 5 && v1 == 7) || (v0 == 7 && v1 == 5));
        }
    } else {
        cbt_read(a, out, N);
        CHECK(cbt_all(out, N, 5));
        cbt_read(b, out, N);
        CHECK(cbt_all(out, N, 7));
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseEvent(gate);
    clReleaseCommandQueue(q2);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

/* Kernels with launch information (culvert's ABI, tests/kernels/launch_info.ptx): offsets, and
 * NDRanges past CUDA's grid limits split in several launches; an update that changes the number
 * of launches builds a new graph. */
static void test_launch_information(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/launch_info.ptx", CV_TEST_PTX_DIR);
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len++] = 0;
    const unsigned char *bin = (const unsigned char *)text;
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    cl_program p =
        clCreateProgramWithBinary(cbt_context, 1, &cbt_device, &len, &bin, &status, &err);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &cbt_device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "li_ids", &err);
    REQUIRE(k);
    enum { N = 16 };
    cl_mem out = cv_test_buffer(cbt_context, 8 * 140000 * 4, NULL);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof out, &out));
    cl_command_buffer_khr cb = cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    cl_mutable_command_khr cmd = NULL;
    size_t global = N, local = 8, offset = 100;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, &local, 0, NULL, NULL, &cmd));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    cl_mutable_dispatch_config_khr cfg = {.command = cmd, .global_work_offset = &offset};
    if (cbt_fake)
        cbt_fake->calls_begin();
    CHECK_ERR(CL_SUCCESS, update1(cb, &cfg));
    if (cbt_fake) {
        cbt_fake->calls_end();
        CHECK(cbt_fake->calls("cuGraphInstantiateWithFlags") == 0);
    }
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cl_int ids[N];
    cbt_read(out, ids, N);
    if (cbt_fake) {
        const fakecuda_launch *l = last_launch();
        uint64_t o = 0;
        if (l)
            memcpy(&o, l->params + l->param_offset[l->num_params - 1], 8);
        CHECK(l && o == 100);
    } else {
        int ok = 1;
        for (int i = 0; i < N; i++)
            ok &= ids[i] == 100 + i;
        CHECK(ok);
    }
    /* Past CUDA's y limit: three launches, a new graph. */
    size_t g2[2] = {8, 140000}, l2[2] = {8, 1};
    cl_command_buffer_khr cb2 = cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    cl_mutable_command_khr cmd2 = NULL;
    size_t small[2] = {8, 4};
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb2, NULL, NULL, k, 2, NULL, small, l2, 0, NULL, NULL, &cmd2));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb2));
    cfg = (cl_mutable_dispatch_config_khr){.command = cmd2, .global_work_size = g2};
    if (cbt_fake)
        cbt_fake->calls_begin();
    CHECK_ERR(CL_SUCCESS, update1(cb2, &cfg));
    if (cbt_fake) {
        cbt_fake->calls_end();
        CHECK(cbt_fake->calls("cuGraphInstantiateWithFlags") == 1);
    }
    unsigned before = cbt_fake ? cbt_fake->num_launches : 0;
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb2, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
    if (cbt_fake) {
        CHECK(cbt_fake->num_launches == before + 3);
    } else {
        cl_int last[8];
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(cbt_queue, out, CL_TRUE, (8 * 139999) * 4,
                                                  sizeof last, last, 0, NULL, NULL));
        CHECK(last[3] == 3 + 1000 * 139999);
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb2));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(out);
}

int main(void) {
    cbt_setup();
    test_memory_commands();
    test_dependencies();
    test_events();
    test_host_value_gate();
    test_kernel_capture();
    test_mutable();
    test_deferred_arguments();
    test_simultaneous();
    test_launch_information();
    cbt_teardown();
    return cv_test_report("command_buffer_run");
}
