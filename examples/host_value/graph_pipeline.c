/* A three-stage pipeline recorded once into a command buffer (a CUDA graph) and replayed 1000
 * times; each replay waits on the GPU for a host value that a host thread signals. The captured
 * graph holds the wait itself (clCommandWaitHostValueCULVERT, a memory-operation node), so the
 * replays go to the queue all at once and the GPU starts each as soon as the host says so: no
 * host thread blocks for the GPU, no host callback sits in the GPU's path.
 *
 * The command buffer, per replay:
 *   wait(go == 1) -> write(go, 0) -> stage1 -> stage2 -> stage3 -> write(done, 1)
 *   stage1: mid[i] = 2 * in[i] + param     (param: a host value the host sets per round)
 *   stage2: mid[i] += i
 *   stage3: *result = sum of mid[]          (result: a host value the host reads)
 * The host thread, per round r: param = r, go = 1, wait until done == 1, check result, done = 0.
 * write(go, 0) comes before the GPU's done = 1, so the next go = 1 always meets a reset gate.
 *
 * The command-buffer types come from culvert's declarations of cl_khr_command_buffer 0.9.8
 * (src/util/cl_khr_command_buffer.h); with OpenCL-Headers of 2025 or later, define
 * CL_ENABLE_BETA_EXTENSIONS and include CL/cl_ext.h instead. */
#include "util/cl_khr_command_buffer.h"

#include "example.h"

#include <pthread.h>
#include <stdbool.h>

#define ROUNDS 1000
#define N      256

static const char pipeline_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "// stage1(in, mid, param): mid[i] = 2 * in[i] + *param\n"
    ".visible .entry stage1(.param .u64 in, .param .u64 mid, .param .u64 param)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<10>;\n"
    "    ld.param.u64 %rd1, [in];\n"
    "    ld.param.u64 %rd2, [mid];\n"
    "    ld.param.u64 %rd3, [param];\n"
    "    ld.volatile.global.u64 %rd4, [%rd3];\n"
    "    cvt.u32.u64 %r1, %rd4;\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4;\n"
    "    mul.wide.u32 %rd5, %r5, 4;\n"
    "    add.u64 %rd6, %rd1, %rd5;\n"
    "    add.u64 %rd7, %rd2, %rd5;\n"
    "    ld.global.u32 %r6, [%rd6];\n"
    "    shl.b32 %r6, %r6, 1;\n"
    "    add.u32 %r6, %r6, %r1;\n"
    "    st.global.u32 [%rd7], %r6;\n"
    "    ret;\n"
    "}\n"
    "// stage2(mid): mid[i] += i\n"
    ".visible .entry stage2(.param .u64 mid)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<4>;\n"
    "    ld.param.u64 %rd1, [mid];\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4;\n"
    "    mul.wide.u32 %rd2, %r5, 4;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    ld.global.u32 %r6, [%rd3];\n"
    "    add.u32 %r6, %r6, %r5;\n"
    "    st.global.u32 [%rd3], %r6;\n"
    "    ret;\n"
    "}\n"
    "// stage3(mid, result, n): one work-item; *result = mid[0] + ... + mid[n - 1]\n"
    ".visible .entry stage3(.param .u64 mid, .param .u64 result, .param .u32 n)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [mid];\n"
    "    ld.param.u64 %rd2, [result];\n"
    "    ld.param.u32 %r1, [n];\n"
    "    mov.u64 %rd3, 0;\n"
    "    mov.u32 %r2, 0;\n"
    "LOOP:\n"
    "    setp.ge.u32 %p1, %r2, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    mul.wide.u32 %rd4, %r2, 4;\n"
    "    add.u64 %rd5, %rd1, %rd4;\n"
    "    ld.global.u32 %r3, [%rd5];\n"
    "    cvt.u64.u32 %rd6, %r3;\n"
    "    add.u64 %rd3, %rd3, %rd6;\n"
    "    add.u32 %r2, %r2, 1;\n"
    "    bra LOOP;\n"
    "DONE:\n"
    "    st.volatile.global.u64 [%rd2], %rd3;\n"
    "    ret;\n"
    "}\n";

typedef struct host_side {
    example *ex;
    cl_mem go, done, param, result;
    int mismatches, timeouts;
    double wait_s; /* signal -> done seen, summed */
} host_side;

/* What stage3 computes for round r with in[i] = i: sum of 2 i + r + i. */
static cl_ulong expected(cl_ulong r) {
    return 3ull * N * (N - 1) / 2 + (cl_ulong)N * r;
}

static void *drive(void *arg) {
    host_side *h = arg;
    for (cl_ulong r = 0; r < ROUNDS && !h->timeouts; r++) {
        h->ex->signal_host_value(h->param, r);
        double t0 = example_now();
        h->ex->signal_host_value(h->go, 1); /* release: param is visible before go */
        if (example_spin_until(h->ex, h->done, 1, 10.0) != 1) {
            fprintf(stderr, "round %llu: the GPU never wrote done\n", (unsigned long long)r);
            h->timeouts++;
            break;
        }
        h->wait_s += example_now() - t0;
        cl_ulong got = 0;
        h->ex->load_host_value(h->result, &got);
        h->mismatches += got != expected(r);
        h->ex->signal_host_value(h->done, 0);
    }
    return NULL;
}

int main(void) {
    example ex;
    example_open(&ex);
    clCreateCommandBufferKHR_fn create = EXAMPLE_FN(&ex, clCreateCommandBufferKHR);
    clCommandNDRangeKernelKHR_fn ndrange = EXAMPLE_FN(&ex, clCommandNDRangeKernelKHR);
    clFinalizeCommandBufferKHR_fn finalize = EXAMPLE_FN(&ex, clFinalizeCommandBufferKHR);
    clEnqueueCommandBufferKHR_fn enqueue = EXAMPLE_FN(&ex, clEnqueueCommandBufferKHR);
    clReleaseCommandBufferKHR_fn release = EXAMPLE_FN(&ex, clReleaseCommandBufferKHR);
    clCommandWaitHostValueCULVERT_fn wait_value = EXAMPLE_FN(&ex, clCommandWaitHostValueCULVERT);
    clCommandWriteHostValueCULVERT_fn write_value = EXAMPLE_FN(&ex, clCommandWriteHostValueCULVERT);
    if (!create || !ndrange || !finalize || !enqueue || !release || !wait_value || !write_value) {
        fprintf(stderr, "no cl_khr_command_buffer: skipped\n");
        return EXAMPLE_SKIP;
    }
    host_side h = {&ex,
                   example_host_value(&ex, 0),
                   example_host_value(&ex, 0),
                   example_host_value(&ex, 0),
                   example_host_value(&ex, 0),
                   0,
                   0,
                   0};
    cl_int in[N], err = CL_SUCCESS;
    for (int i = 0; i < N; i++)
        in[i] = i;
    cl_mem in_buf =
        clCreateBuffer(ex.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem mid = clCreateBuffer(ex.context, CL_MEM_READ_WRITE, sizeof in, NULL, &err);
    cl_kernel s1 = example_kernel(&ex, pipeline_ptx, "stage1");
    cl_kernel s2 = example_kernel(&ex, pipeline_ptx, "stage2");
    cl_kernel s3 = example_kernel(&ex, pipeline_ptx, "stage3");
    cl_uint n = N;
    clSetKernelArg(s1, 0, sizeof in_buf, &in_buf);
    clSetKernelArg(s1, 1, sizeof mid, &mid);
    clSetKernelArg(s1, 2, sizeof h.param, &h.param);
    clSetKernelArg(s2, 0, sizeof mid, &mid);
    clSetKernelArg(s3, 0, sizeof mid, &mid);
    clSetKernelArg(s3, 1, sizeof h.result, &h.result);
    clSetKernelArg(s3, 2, sizeof n, &n);

    /* Recorded once. */
    cl_command_buffer_khr cb = create(1, &ex.queue, NULL, &err);
    size_t global = N, local = 64, one = 1;
    if (err == CL_SUCCESS)
        err = wait_value(cb, NULL, NULL, h.go, 1, CL_HOST_VALUE_EQ_CULVERT, 0, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = write_value(cb, NULL, NULL, h.go, 0, 0, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = ndrange(cb, NULL, NULL, s1, 1, NULL, &global, &local, 0, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = ndrange(cb, NULL, NULL, s2, 1, NULL, &global, &local, 0, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = ndrange(cb, NULL, NULL, s3, 1, NULL, &one, &one, 0, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = write_value(cb, NULL, NULL, h.done, 1, 0, NULL, NULL, NULL);
    if (err == CL_SUCCESS)
        err = finalize(cb);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "recording failed: %d\n", err);
        return 1;
    }

    /* Replayed: every launch goes to the queue now; each waits on the GPU for its go. */
    pthread_t thread;
    pthread_create(&thread, NULL, drive, &h);
    double t0 = example_now();
    for (int r = 0; r < ROUNDS && err == CL_SUCCESS; r++)
        err = enqueue(0, NULL, cb, 0, NULL, NULL);
    double enqueued = example_now() - t0;
    pthread_join(thread, NULL);
    cl_int finished = h.timeouts ? CL_SUCCESS : clFinish(ex.queue);
    double total = example_now() - t0;

    printf("%d replays of a 3-stage command buffer, each gated by a host value: enqueued in %.1f "
           "ms, done in %.1f ms; signal -> done seen %.1f us on average\n",
           ROUNDS, enqueued * 1e3, total * 1e3, h.wait_s / ROUNDS * 1e6);
    const char *fake = getenv("CV_FAKE_CUDA"); /* the fake driver runs no kernels */
    bool check_results = !(fake && *fake && strcmp(fake, "0") != 0);
    int failed = err != CL_SUCCESS || finished != CL_SUCCESS || h.timeouts ||
                 (check_results && h.mismatches);
    printf("%s (%d wrong results, %d timeouts, enqueue %d)\n", failed ? "FAILED" : "ok",
           h.mismatches, h.timeouts, err);
    if (!h.timeouts)
        release(cb); /* a replay still gated keeps it; with a timeout the process exits anyway */
    clReleaseKernel(s1);
    clReleaseKernel(s2);
    clReleaseKernel(s3);
    clReleaseMemObject(in_buf);
    clReleaseMemObject(mid);
    return failed;
}
