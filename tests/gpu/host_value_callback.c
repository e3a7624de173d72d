/* Signalling from an asynchronous host worker (the seed's AsyncRT trampoline): an event callback
 * of one queue calls clSignalHostValue, which opens a clEnqueueWaitHostValue on another queue.
 * The pattern docs/host-value.md shows. */
#include "host_value_common.h"

#include <stdatomic.h>

static hv_test t;

typedef struct signal_job {
    cl_mem hv;
    cl_ulong value;
    _Atomic int calls; /* read after the acquire load of hv */
} signal_job;

static void CL_CALLBACK signal_when_done(cl_event e, cl_int status, void *user_data) {
    signal_job *job = user_data;
    (void)e;
    job->calls++;
    /* A failed producer must not leave the consumer blocked forever: signal either way (a real
     * application would signal an error value the consumer checks). */
    t.signal(job->hv, status == CL_COMPLETE ? job->value : ~0ull);
}

int main(void) {
    hv_test_setup(&t);
    cl_command_queue producer = hv_queue(&t, 0), consumer = hv_queue(&t, 0);
    cl_mem gate = hv_new(&t, 0), ready = hv_new(&t, 0);

    /* The producer's work (here: held back by a gate the test opens) ends with an event whose
     * callback signals `ready`. */
    CHECK_ERR(CL_SUCCESS,
              t.enqueue_wait(producer, gate, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    cl_event produced = hv_marker(producer);
    signal_job job = {ready, 5, 0};
    CHECK_ERR(CL_SUCCESS, clSetEventCallback(produced, CL_COMPLETE, signal_when_done, &job));
    /* The consumer waits on the GPU, with no host thread blocked. */
    CHECK_ERR(CL_SUCCESS,
              t.enqueue_wait(consumer, ready, 5, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    cl_event consumed = hv_marker(consumer);

    hv_sleep_ms(50);
    CHECK(hv_status(consumed) > CL_COMPLETE);
    CHECK(job.calls == 0);
    CHECK_ERR(CL_SUCCESS, t.signal(gate, 1));
    bool passed = hv_completes(consumed, 5000);
    if (!passed)
        t.signal(ready, 5); /* let the consumer go so the test ends */
    CHECK(passed);
    cl_ulong v = 0;
    CHECK_ERR(CL_SUCCESS, t.load(ready, &v));
    CHECK(v == 5);
    CHECK_ERR(CL_SUCCESS, clFinish(producer));
    CHECK_ERR(CL_SUCCESS, clFinish(consumer));
    CHECK(job.calls == 1);

    clReleaseEvent(produced);
    clReleaseEvent(consumed);
    clReleaseMemObject(gate);
    clReleaseMemObject(ready);
    clReleaseCommandQueue(producer);
    clReleaseCommandQueue(consumer);
    clReleaseContext(t.context);
    return cv_test_report("host_value_callback");
}
