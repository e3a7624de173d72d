/* A 3-stage pipeline recorded once (out of order, ordered by sync points) and replayed 1000
 * times, each replay gated on the GPU by a host value that a host thread signals; the host
 * thread checks every replay's result, and the first stage checks that the GPU never ran ahead
 * of the host (gpu.command_buffer_pipeline). Per replay:
 *
 *   wait(go == 1) --+--> write(go, 0) ------------------------------+--> write(done, 1)
 *                   +--> stage1 --> stage2 --> stage3 ---------------+
 *
 *   stage1: mid[i] = 2 in[i] + *param; work-item 0 records a violation if *param (the round the
 *           host announced) is not the number of replays the GPU finished (ticket)
 *   stage2: mid[i] += i
 *   stage3: *result = sum of mid[]; ticket += 1
 * On the fake driver (fake.command_buffer_pipeline) kernels do not run: the gates, the resets
 * and the number of graph launches are checked. */
#include "command_buffer_common.h"

#include <pthread.h>

#define ROUNDS 1000
#define N      512

static const char *pipeline_source =
    "__kernel void stage1(__global const int *in, __global int *mid,\n"
    "                     __global volatile ulong *param, __global const ulong *ticket,\n"
    "                     __global ulong *violation) {\n"
    "    size_t i = get_global_id(0);\n"
    "    ulong p = *param;\n"
    "    mid[i] = 2 * in[i] + (int)p;\n"
    "    if (i == 0 && p != ticket[0])\n"
    "        *violation = p + 1;\n"
    "}\n"
    "__kernel void stage2(__global int *mid) {\n"
    "    size_t i = get_global_id(0);\n"
    "    mid[i] += (int)i;\n"
    "}\n"
    "__kernel void stage3(__global const int *mid, __global volatile ulong *result,\n"
    "                     __global ulong *ticket, uint n) {\n"
    "    ulong s = 0;\n"
    "    for (uint i = 0; i < n; i++)\n"
    "        s += (ulong)mid[i];\n"
    "    *result = s;\n"
    "    ticket[0] += 1;\n"
    "}\n";

typedef struct driver {
    cl_mem go, done, param, result;
    int wrong, timeouts;
} driver;

static cl_ulong expected(cl_ulong round) {
    return 3ull * N * (N - 1) / 2 + (cl_ulong)N * round;
}

static void *drive(void *arg) {
    driver *d = arg;
    double limit = cv_test_limit_s(10.0);
    for (cl_ulong r = 0; r < ROUNDS && !d->timeouts; r++) {
        cbt.signal(d->param, r);
        cbt.signal(d->go, 1);
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        cl_ulong v = 0;
        do {
            cbt.load(d->done, &v);
            clock_gettime(CLOCK_MONOTONIC, &t);
        } while (v != 1 &&
                 (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (t.tv_nsec - t0.tv_nsec) < limit);
        if (v != 1) {
            d->timeouts++;
            break;
        }
        cl_ulong got = 0;
        cbt.load(d->result, &got);
        d->wrong += got != expected(r);
        cbt.signal(d->done, 0);
    }
    return NULL;
}

int main(void) {
    cbt_setup();
    cl_int err = CL_SUCCESS;
    cl_program p =
        cv_test_build(cbt_context, cbt_device, 1, &pipeline_source, NULL, "pipeline", &err);
    if (err == CL_COMPILER_NOT_AVAILABLE) {
        fprintf(stderr, "no OpenCL C compiler: skipped\n");
        return CV_TEST_SKIP;
    }
    REQUIRE(err == CL_SUCCESS);
    cl_kernel s1 = clCreateKernel(p, "stage1", &err), s2 = clCreateKernel(p, "stage2", &err);
    cl_kernel s3 = clCreateKernel(p, "stage3", &err);
    REQUIRE(s1 && s2 && s3);
    driver d = {cbt.host_value(cbt_context, 0, &err),
                cbt.host_value(cbt_context, 0, &err),
                cbt.host_value(cbt_context, 0, &err),
                cbt.host_value(cbt_context, 0, &err),
                0,
                0};
    REQUIRE(d.go && d.done && d.param && d.result);
    cl_int in[N];
    for (int i = 0; i < N; i++)
        in[i] = i;
    cl_ulong zero = 0;
    cl_mem in_buf = cv_test_buffer(cbt_context, sizeof in, in);
    cl_mem mid = cv_test_buffer(cbt_context, sizeof in, NULL);
    cl_mem ticket = cv_test_buffer(cbt_context, sizeof zero, &zero);
    cl_mem violation = cv_test_buffer(cbt_context, sizeof zero, &zero);
    cl_uint n = N;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s1, 0, sizeof in_buf, &in_buf));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s1, 1, sizeof mid, &mid));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s1, 2, sizeof d.param, &d.param));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s1, 3, sizeof ticket, &ticket));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s1, 4, sizeof violation, &violation));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s2, 0, sizeof mid, &mid));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s3, 0, sizeof mid, &mid));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s3, 1, sizeof d.result, &d.result));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s3, 2, sizeof ticket, &ticket));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(s3, 3, sizeof n, &n));

    /* Recorded once, out of order: the sync points are the only order. */
    cl_command_buffer_khr cb = cbt_new(cbt_ooo_queue, 0);
    cl_sync_point_khr waited, reset, st1, st2, st3;
    size_t global = N, local = 128, one = 1;
    CHECK_ERR(CL_SUCCESS, cbt.wait_value(cb, NULL, NULL, d.go, 1, CL_HOST_VALUE_EQ_CULVERT, 0, NULL,
                                         &waited, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.write_value(cb, NULL, NULL, d.go, 0, 1, &waited, &reset, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, s1, 1, NULL, &global, &local, 1, &waited, &st1, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, s2, 1, NULL, &global, &local, 1, &st1, &st2, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, NULL, s3, 1, NULL, &one, &one, 1, &st2, &st3, NULL));
    cl_sync_point_khr both[2] = {reset, st3};
    CHECK_ERR(CL_SUCCESS, cbt.write_value(cb, NULL, NULL, d.done, 1, 2, both, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    /* The application's references go: the command buffer holds what it uses. */
    clReleaseKernel(s1);
    clReleaseKernel(s2);
    clReleaseKernel(s3);
    clReleaseProgram(p);

    /* Replayed: all launches queued at once, each held on the GPU until its go. */
    unsigned launches = cbt_fake ? cbt_fake->graph_launches : 0;
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, drive, &d) == 0);
    for (int r = 0; r < ROUNDS; r++)
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    pthread_join(thread, NULL);
    REQUIRE(d.timeouts == 0);
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_ooo_queue));
    cl_ulong v = 7;
    CHECK_ERR(CL_SUCCESS, cbt.load(d.go, &v));
    CHECK(v == 0);
    if (cbt_fake) {
        CHECK(cbt_fake->graph_launches - launches == ROUNDS);
    } else {
        CHECK(d.wrong == 0);
        cl_ulong t = 0, bad = 1;
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadBuffer(cbt_queue, ticket, CL_TRUE, 0, sizeof t, &t, 0, NULL, NULL));
        CHECK(t == ROUNDS);
        CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(cbt_queue, violation, CL_TRUE, 0, sizeof bad,
                                                  &bad, 0, NULL, NULL));
        CHECK(bad == 0);
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(in_buf);
    clReleaseMemObject(mid);
    clReleaseMemObject(ticket);
    clReleaseMemObject(violation);
    clReleaseMemObject(d.go);
    clReleaseMemObject(d.done);
    clReleaseMemObject(d.param);
    clReleaseMemObject(d.result);
    cbt_teardown();
    return cv_test_report("command_buffer_pipeline");
}
