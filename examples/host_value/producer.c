/* A producer thread signals increasing values; the GPU runs one kernel per value, each gated on
 * the GPU by clEnqueueWaitHostValue(produced >= round) - no host thread blocks for the GPU, and
 * the GPU never runs ahead of the producer.
 *
 * Per round the queue holds: wait(produced >= round), check_gate kernel, GPU write of round
 * into `consumed`. The kernel records a violation if it ever reads a value below its round; the
 * main thread checks that whatever the GPU consumed was produced before. */
#include "example.h"

#include <pthread.h>

#define ROUNDS 200

static const char gate_ptx[] = ".version 7.0\n"
                               ".target sm_75\n"
                               ".address_size 64\n"
                               "\n"
                               "// check_gate(produced, violation, round): runs behind "
                               "clEnqueueWaitHostValue(produced >= round);\n"
                               "// if the value it reads is still below round, the gate let it "
                               "through too early: it stores the\n"
                               "// round into *violation.\n"
                               ".visible .entry check_gate(\n"
                               "    .param .u64 produced,\n"
                               "    .param .u64 violation,\n"
                               "    .param .u64 round\n"
                               ")\n"
                               "{\n"
                               "    .reg .pred %p<2>;\n"
                               "    .reg .b64 %rd<6>;\n"
                               "\n"
                               "    ld.param.u64 %rd1, [produced];\n"
                               "    ld.param.u64 %rd2, [violation];\n"
                               "    ld.param.u64 %rd3, [round];\n"
                               "    cvta.to.global.u64 %rd1, %rd1;\n"
                               "    cvta.to.global.u64 %rd2, %rd2;\n"
                               "    ld.volatile.global.u64 %rd4, [%rd1];\n"
                               "    sub.s64 %rd5, %rd4, %rd3;\n"
                               "    setp.lt.s64 %p1, %rd5, 0;\n"
                               "    @%p1 st.volatile.global.u64 [%rd2], %rd3;\n"
                               "    ret;\n"
                               "}\n";

typedef struct producer {
    example *ex;
    cl_mem produced;
} producer;

static void *produce(void *arg) {
    producer *p = arg;
    for (cl_ulong round = 1; round <= ROUNDS; round++) {
        /* "Work" of varying length, so the GPU sometimes waits and sometimes finds the value
         * already there. */
        double until = example_now() + (double)(round % 7) * 20e-6;
        while (example_now() < until)
            ;
        p->ex->signal_host_value(p->produced, round); /* a release-ordered store */
    }
    return NULL;
}

int main(void) {
    example ex;
    example_open(&ex);
    cl_kernel check = example_kernel(&ex, gate_ptx, "check_gate");
    cl_mem produced = example_host_value(&ex, 0);
    cl_mem consumed = example_host_value(&ex, 0);
    cl_mem violation = example_host_value(&ex, 0);
    int failures = 0;

    /* Start the producer first: it never waits for the GPU, so even an enqueue that blocks
     * because the queue is full cannot deadlock. */
    producer prod = {&ex, produced};
    pthread_t thread;
    if (pthread_create(&thread, NULL, produce, &prod) != 0)
        return 1;

    size_t one = 1;
    for (cl_ulong round = 1; round <= ROUNDS; round++) {
        cl_int err = ex.enqueue_wait_host_value(ex.queue, produced, round,
                                                CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL);
        err |= clSetKernelArg(check, 0, sizeof produced, &produced);
        err |= clSetKernelArg(check, 1, sizeof violation, &violation);
        err |= clSetKernelArg(check, 2, sizeof round, &round);
        err |= clEnqueueNDRangeKernel(ex.queue, check, 1, NULL, &one, &one, 0, NULL, NULL);
        err |= ex.enqueue_write_host_value(ex.queue, consumed, round, 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "round %llu: enqueue failed\n", (unsigned long long)round);
            failures++;
            break;
        }
    }

    /* Watch the GPU follow: what it consumed must always have been produced. */
    cl_ulong last = 0, lag_max = 0;
    unsigned observations = 0;
    double end = example_now() + 10.0;
    while (last < ROUNDS && example_now() < end) {
        cl_ulong c = 0, p = 0;
        ex.load_host_value(consumed, &c); /* acquire: then produced is at least c */
        ex.load_host_value(produced, &p);
        if (p < c) {
            fprintf(stderr, "GPU consumed %llu before the host produced it (produced %llu)\n",
                    (unsigned long long)c, (unsigned long long)p);
            failures++;
            break;
        }
        if (c != last)
            observations++;
        if (p - c > lag_max)
            lag_max = p - c;
        last = c;
    }
    pthread_join(thread, NULL);
    if (last < ROUNDS) {
        fprintf(stderr, "the GPU consumed only %llu of %d rounds in 10 s\n",
                (unsigned long long)last, ROUNDS);
        failures++;
    } else if (clFinish(ex.queue) != CL_SUCCESS) {
        failures++;
    }
    cl_ulong bad = 0;
    ex.load_host_value(violation, &bad);
    if (bad) {
        fprintf(stderr, "round %llu's kernel ran before its value was produced\n",
                (unsigned long long)bad);
        failures++;
    }
    printf("producer: %d rounds, each kernel gated on its value; %u steps of the GPU seen, the "
           "producer ran up to %llu rounds ahead; %s\n",
           ROUNDS, observations, (unsigned long long)lag_max, failures ? "FAILED" : "ok");

    clReleaseMemObject(produced);
    clReleaseMemObject(consumed);
    clReleaseMemObject(violation);
    clReleaseKernel(check);
    example_close(&ex);
    return failures ? 1 : 0;
}
