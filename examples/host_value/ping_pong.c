/* Ping-pong between the host and the GPU through two host values, no kernels and no host
 * callbacks: the GPU writes `ping` (clEnqueueWriteHostValue), the host sees it (clLoadHostValue,
 * spinning) and answers on `pong` (clSignalHostValue), which opens the GPU's next
 * clEnqueueWaitHostValue. Prints the round-trip time: host signal -> GPU passes its wait -> GPU
 * write -> host sees it. */
#include "example.h"

#define ROUNDS    1000
#define TIMEOUT_S 5.0

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Round `round` on the GPU: say `round` on ping, then wait for the host's answer on pong. */
static cl_int enqueue_round(example *ex, cl_mem ping, cl_mem pong, cl_ulong round) {
    cl_int err = ex->enqueue_write_host_value(ex->queue, ping, round, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = ex->enqueue_wait_host_value(ex->queue, pong, round, CL_HOST_VALUE_GEQ_CULVERT, 0,
                                          NULL, NULL);
    return err;
}

int main(void) {
    example ex;
    example_open(&ex);
    cl_mem ping = example_host_value(&ex, 0), pong = example_host_value(&ex, 0);
    static double rtt_us[ROUNDS];
    int measured = 0, failures = 0;

    cl_int err = enqueue_round(&ex, ping, pong, 1);
    double sent = 0;
    for (cl_ulong round = 1; round <= ROUNDS && err == CL_SUCCESS && !failures; round++) {
        cl_ulong seen = example_spin_until(&ex, ping, round, TIMEOUT_S);
        double now = example_now();
        if (seen != round) {
            fprintf(stderr, "round %llu: ping holds %llu after %.0f s\n", (unsigned long long)round,
                    (unsigned long long)seen, TIMEOUT_S);
            failures++;
            break;
        }
        if (round > 1)
            rtt_us[measured++] = (now - sent) * 1e6;
        /* Queue the next round before answering, so the answer's round trip is all the GPU's
         * (the GPU is still blocked on this round's pong: the new commands wait behind it). */
        if (round < ROUNDS)
            err = enqueue_round(&ex, ping, pong, round + 1);
        sent = example_now();
        ex.signal_host_value(pong, round);
    }
    /* Whatever happened, let the GPU's last wait pass so the queue can finish. */
    ex.signal_host_value(pong, ROUNDS);
    if (err != CL_SUCCESS || clFinish(ex.queue) != CL_SUCCESS) {
        fprintf(stderr, "enqueue or finish failed (%d)\n", err);
        failures++;
    }
    cl_ulong last = 0;
    ex.load_host_value(ping, &last);
    if (last != ROUNDS) {
        fprintf(stderr, "ping ends at %llu, expected %d\n", (unsigned long long)last, ROUNDS);
        failures++;
    }
    if (measured > 0) {
        qsort(rtt_us, (size_t)measured, sizeof rtt_us[0], compare);
        printf("ping-pong: %d round trips host -> GPU -> host: min %.1f us, median %.1f us, "
               "p99 %.1f us, max %.1f us\n",
               measured, rtt_us[0], rtt_us[measured / 2], rtt_us[measured * 99 / 100],
               rtt_us[measured - 1]);
    }
    printf("ping-pong: %s\n", failures ? "FAILED" : "ok");
    clReleaseMemObject(ping);
    clReleaseMemObject(pong);
    example_close(&ex);
    return failures ? 1 : 0;
}
