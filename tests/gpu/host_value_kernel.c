/* Host values as kernel arguments (`__global volatile ulong *`): a kernel polls a host value
 * that the host then sets, a kernel's store releases a GPU wait on another queue, and a kernel
 * gated by clEnqueueWaitHostValue sees the value that opened the gate. The kernels are PTX
 * written by hand (clCreateProgramWithBinary). */
#include "host_value_common.h"
#include "../../examples/host_value/wait_host_value_ptx.h"

static const char kernels_ptx[] =
    "//\n"
    "// Kernels over host values (cl_culvert_host_value): a host value is a 64-bit slot in mapped\n"
    "// pinned host memory; kernels get its device address as a pointer argument.\n"
    "//\n" CV_HOST_VALUE_PTX_HEADER "\n" CV_WAIT_HOST_VALUE_PTX "\n"
    "// store_host_value(hv, value): *hv = value, visible system-wide.\n"
    ".visible .entry store_host_value(\n"
    "    .param .u64 hv,\n"
    "    .param .u64 value\n"
    ")\n"
    "{\n"
    "    .reg .b64 %rd<4>;\n"
    "\n"
    "    ld.param.u64 %rd1, [hv];\n"
    "    ld.param.u64 %rd2, [value];\n"
    "    cvta.to.global.u64 %rd1, %rd1;\n"
    "    membar.sys;\n"
    "    st.volatile.global.u64 [%rd1], %rd2;\n"
    "    ret;\n"
    "}\n";

#define TIMED_OUT  0xffffffffffffffffull /* what wait_host_value stores when it gave up */
#define BLOCKED_MS 100
#define PASS_MS    5000

static hv_test t;

static cl_kernel kernel(cl_program p, const char *name) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name, &err);
    REQUIRE(err == CL_SUCCESS && k != NULL);
    return k;
}

static cl_event launch(cl_command_queue q, cl_kernel k, cl_mem a, cl_mem b, cl_ulong scalar) {
    size_t one = 1;
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof a, &a));
    if (b) {
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof b, &b));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof scalar, &scalar));
    } else {
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof scalar, &scalar));
    }
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &e));
    return e;
}

/* A kernel spins on a host value until the host sets it. */
static void kernel_polls(cl_command_queue q, cl_kernel wait_k) {
    cl_mem hv = hv_new(&t, 1), seen = hv_new(&t, 0);
    cl_event e = launch(q, wait_k, hv, seen, 1000);
    hv_sleep_ms(BLOCKED_MS);
    cl_ulong v = 1;
    CHECK_ERR(CL_SUCCESS, t.load(seen, &v));
    CHECK(v == 0); /* still spinning: 1 < 1000 */
    CHECK(e && hv_status(e) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(hv, 1000));
    bool seen_it = hv_reaches(&t, seen, 1000, PASS_MS);
    CHECK_ERR(CL_SUCCESS, t.load(seen, &v));
    if (!seen_it)
        fprintf(stderr, "polling kernel stored %#llx%s\n", (unsigned long long)v,
                v == TIMED_OUT ? " (it never saw the host's store)" : "");
    CHECK(seen_it);
    CHECK(e && hv_completes(e, PASS_MS));
    clReleaseEvent(e);
    clReleaseMemObject(hv);
    clReleaseMemObject(seen);
}

/* A kernel's store opens a clEnqueueWaitHostValue on another queue. The kernel (behind a gate the
 * test opens) is enqueued before the waiter: CUDA does not see this dependency, and a waiter
 * enqueued first could block the kernel if the two streams shared a hardware queue. */
static void kernel_signals_queue(cl_command_queue q, cl_kernel store_k) {
    cl_command_queue q2 = hv_queue(&t, 0);
    cl_mem gate = hv_new(&t, 0), link = hv_new(&t, 0);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, gate, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    cl_event e = launch(q, store_k, link, NULL, 77);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q2, link, 77, CL_HOST_VALUE_EQ_CULVERT, 0, NULL, NULL));
    cl_event opened = hv_marker(q2);
    hv_sleep_ms(BLOCKED_MS);
    CHECK(hv_status(opened) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 1));
    bool passed = hv_completes(opened, PASS_MS);
    if (!passed)
        t.signal(link, 77); /* let q2 go so the test ends */
    CHECK(passed);
    CHECK(e && hv_completes(e, PASS_MS));
    cl_ulong v = 0;
    CHECK_ERR(CL_SUCCESS, t.load(link, &v));
    CHECK(v == 77);
    CHECK_ERR(CL_SUCCESS, clFinish(q2));
    clReleaseEvent(e);
    clReleaseEvent(opened);
    clReleaseCommandQueue(q2);
    clReleaseMemObject(gate);
    clReleaseMemObject(link);
}

/* A kernel behind a wait runs only once the gate opened, and sees the value that opened it. */
static void gated_kernel(cl_command_queue q, cl_kernel wait_k) {
    cl_mem gate = hv_new(&t, 0), seen = hv_new(&t, 0xdead);
    CHECK_ERR(CL_SUCCESS, t.enqueue_wait(q, gate, 3, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    cl_event e = launch(q, wait_k, gate, seen, 0); /* target 0: returns at once */
    hv_sleep_ms(BLOCKED_MS);
    cl_ulong v = 0;
    CHECK_ERR(CL_SUCCESS, t.load(seen, &v));
    CHECK(v == 0xdead);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 2));
    hv_sleep_ms(BLOCKED_MS);
    CHECK_ERR(CL_SUCCESS, t.load(seen, &v));
    CHECK(v == 0xdead);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 3));
    CHECK(hv_reaches(&t, seen, 3, PASS_MS));
    CHECK(e && hv_completes(e, PASS_MS));
    clReleaseEvent(e);
    clReleaseMemObject(gate);
    clReleaseMemObject(seen);
}

int main(void) {
    hv_test_setup(&t);
    cl_int err = CL_SUCCESS, status = CL_SUCCESS;
    const unsigned char *bin = (const unsigned char *)kernels_ptx;
    size_t len = sizeof kernels_ptx; /* with the terminating NUL */
    cl_program p = clCreateProgramWithBinary(t.context, 1, &t.device, &len, &bin, &status, &err);
    REQUIRE(err == CL_SUCCESS && status == CL_SUCCESS);
    err = clBuildProgram(p, 1, &t.device, NULL, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, t.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build: %d\n%s\n", err, log);
    }
    REQUIRE(err == CL_SUCCESS);
    cl_kernel wait_k = kernel(p, "wait_host_value"), store_k = kernel(p, "store_host_value");
    cl_command_queue q = hv_queue(&t, 0);

    kernel_polls(q, wait_k);
    kernel_signals_queue(q, store_k);
    gated_kernel(q, wait_k);

    CHECK_ERR(CL_SUCCESS, clFinish(q));
    clReleaseCommandQueue(q);
    clReleaseKernel(wait_k);
    clReleaseKernel(store_k);
    clReleaseProgram(p);
    clReleaseContext(t.context);
    return cv_test_report("host_value_kernel");
}
