/* A kernel polls a host value that the host then sets. The host value is an ordinary kernel
 * argument (`__global volatile ulong *`); the kernel spins on it with volatile loads (system
 * scope: they see the host's store), then writes what it saw into a second host value that the
 * host reads. The kernel gives up after about 10 s so that a failure cannot hang the GPU. */
#include "example.h"

#define TARGET    1000
#define TIMED_OUT 0xffffffffffffffffull

/* OpenCL C equivalent:
 *   kernel void wait_host_value(global volatile ulong *hv, global volatile ulong *seen,
 *                               ulong target)
 *   { ulong v; while ((long)((v = *hv) - target) < 0) {} *seen = v; }
 * (plus the time limit, read from %globaltimer). */
static const char wait_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    "// wait_host_value(hv, seen, target): spins until (int64)(*hv - target) >= 0, or until about\n"
    "// 10 s have passed; then stores into *seen the value it saw (all ones on a timeout).\n"
    ".visible .entry wait_host_value(\n"
    "    .param .u64 hv,\n"
    "    .param .u64 seen,\n"
    "    .param .u64 target\n"
    ")\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b64 %rd<10>;\n"
    "\n"
    "    ld.param.u64 %rd1, [hv];\n"
    "    ld.param.u64 %rd2, [seen];\n"
    "    ld.param.u64 %rd3, [target];\n"
    "    cvta.to.global.u64 %rd1, %rd1;\n"
    "    cvta.to.global.u64 %rd2, %rd2;\n"
    "    mov.u64 %rd4, %globaltimer;\n"
    "    add.u64 %rd5, %rd4, 10000000000;\n"
    "SPIN:\n"
    "    ld.volatile.global.u64 %rd6, [%rd1];\n"
    "    sub.s64 %rd7, %rd6, %rd3;\n"
    "    setp.ge.s64 %p1, %rd7, 0;\n"
    "    @%p1 bra DONE;\n"
    "    mov.u64 %rd8, %globaltimer;\n"
    "    setp.lt.u64 %p2, %rd8, %rd5;\n"
    "    @%p2 bra SPIN;\n"
    "    mov.u64 %rd6, 0xffffffffffffffff;\n"
    "DONE:\n"
    "    st.volatile.global.u64 [%rd2], %rd6;\n"
    "    ret;\n"
    "}\n";

int main(void) {
    example ex;
    example_open(&ex);
    cl_kernel k = example_kernel(&ex, wait_ptx, "wait_host_value");
    cl_mem hv = example_host_value(&ex, 0), seen = example_host_value(&ex, 0);
    cl_ulong target = TARGET;
    size_t one = 1;
    int failures = 0;
    cl_int err = clSetKernelArg(k, 0, sizeof hv, &hv);
    err |= clSetKernelArg(k, 1, sizeof seen, &seen);
    err |= clSetKernelArg(k, 2, sizeof target, &target);
    err |= clEnqueueNDRangeKernel(ex.queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    clFlush(ex.queue);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "launch failed\n");
        return 1;
    }

    /* Let the kernel spin a while: it must not have finished. */
    struct timespec pause = {0, 100 * 1000000L};
    nanosleep(&pause, NULL);
    cl_ulong v = 1;
    ex.load_host_value(seen, &v);
    if (v != 0) {
        fprintf(stderr, "the kernel finished before the host set the value (saw %llu)\n",
                (unsigned long long)v);
        failures++;
    }

    double t0 = example_now();
    ex.signal_host_value(hv, TARGET);
    v = example_spin_until(&ex, seen, TARGET, 15.0);
    double latency_us = (example_now() - t0) * 1e6;
    if (v != TARGET) {
        fprintf(stderr, "the kernel stored %#llx%s\n", (unsigned long long)v,
                v == TIMED_OUT ? " (it never saw the host's store)" : "");
        failures++;
    }
    if (clFinish(ex.queue) != CL_SUCCESS)
        failures++;
    printf("kernel_poll: the host set %d, the spinning kernel saw it and answered in %.1f us; "
           "%s\n",
           TARGET, latency_us, failures ? "FAILED" : "ok");
    clReleaseMemObject(hv);
    clReleaseMemObject(seen);
    clReleaseKernel(k);
    example_close(&ex);
    return failures ? 1 : 0;
}
