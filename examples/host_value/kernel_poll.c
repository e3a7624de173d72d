/* A kernel polls a host value that the host then sets. The host value is an ordinary kernel
 * argument (`__global volatile ulong *`); the kernel spins on it with volatile loads (system
 * scope: they see the host's store), then writes what it saw into a second host value that the
 * host reads. The kernel gives up after about 10 s so that a failure cannot hang the GPU. */
#include "example.h"
#include "wait_host_value_ptx.h"

#define TARGET    1000
#define TIMED_OUT 0xffffffffffffffffull

static const char wait_ptx[] = CV_HOST_VALUE_PTX_HEADER "\n" CV_WAIT_HOST_VALUE_PTX;

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
