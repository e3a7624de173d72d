/* Queue and event entry points refuse bad input with the spec's errors, without a GPU: culvert
 * runs as an empty platform (CULVERT_EMPTY_PLATFORM=1) and is called through its own dispatch
 * table, so handles of the wrong type and forged ones reach culvert's checks (not the loader's). */
#include "test_util.h"

#include <CL/cl_icd.h>
#include <string.h>

static void CL_CALLBACK no_callback(cl_event e, cl_int s, void *d) {
    (void)e;
    (void)s;
    (void)d;
}

int main(void) {
    setenv("CULVERT_EMPTY_PLATFORM", "1", 1);
    cl_platform_id p = cv_test_culvert_platform();
    REQUIRE(p != NULL);
    const cl_icd_dispatch *d = *(const cl_icd_dispatch **)p;
    REQUIRE(d != NULL);
    /* a forged object: culvert's dispatch table, but no valid type tag */
    void *forged[16];
    memset(forged, 0, sizeof forged);
    forged[0] = (void *)d;
    void *handles[] = {p, forged};
    cl_int err = 0;
    cl_ulong t = 0;
    cl_event e = NULL;

    for (int i = 0; i < 2; i++) {
        cl_context ctx = handles[i];
        cl_command_queue q = handles[i];
        cl_event ev = handles[i];
        cl_device_id dev = handles[i];
        /* queues */
        CHECK(!d->clCreateCommandQueue(ctx, dev, 0, &err));
        CHECK_ERR(CL_INVALID_CONTEXT, err);
        cl_queue_properties ok[] = {CL_QUEUE_PROPERTIES,
                                    CL_QUEUE_PROFILING_ENABLE,
                                    CL_QUEUE_PRIORITY_KHR,
                                    CL_QUEUE_PRIORITY_LOW_KHR,
                                    CL_QUEUE_THROTTLE_KHR,
                                    CL_QUEUE_THROTTLE_HIGH_KHR,
                                    0};
        CHECK(!d->clCreateCommandQueueWithProperties(ctx, dev, ok, &err));
        CHECK_ERR(CL_INVALID_CONTEXT, err);
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clRetainCommandQueue(q));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clReleaseCommandQueue(q));
        cl_uint refs = 0;
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clFlush(q));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clFinish(q));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clEnqueueMarkerWithWaitList(q, 0, NULL, &e));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clEnqueueMarker(q, &e));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clEnqueueBarrier(q));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, d->clEnqueueWaitForEvents(q, 1, &ev));
        /* events */
        CHECK_ERR(CL_INVALID_EVENT, d->clWaitForEvents(1, &ev));
        cl_int status = 0;
        CHECK_ERR(CL_INVALID_EVENT, d->clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                                      sizeof status, &status, NULL));
        CHECK_ERR(CL_INVALID_EVENT,
                  d->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
        CHECK_ERR(CL_INVALID_EVENT, d->clSetEventCallback(ev, CL_COMPLETE, no_callback, NULL));
        CHECK_ERR(CL_INVALID_EVENT, d->clRetainEvent(ev));
        CHECK_ERR(CL_INVALID_EVENT, d->clReleaseEvent(ev));
        CHECK_ERR(CL_INVALID_EVENT, d->clSetUserEventStatus(ev, CL_COMPLETE));
        CHECK(!d->clCreateUserEvent(ctx, &err));
        CHECK_ERR(CL_INVALID_CONTEXT, err);
        /* timers */
        CHECK_ERR(CL_INVALID_DEVICE, d->clGetHostTimer(dev, &t));
        CHECK_ERR(CL_INVALID_DEVICE, d->clGetDeviceAndHostTimer(dev, &t, &t));
    }

    /* property lists are checked before the context: each bad one is CL_INVALID_VALUE */
    const cl_queue_properties bad[][7] = {
        {CL_QUEUE_SIZE, 4096, 0},      /* without ON_DEVICE */
        {CL_QUEUE_PRIORITY_KHR, 0, 0}, /* no such priority */
        {CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR | CL_QUEUE_PRIORITY_LOW_KHR, 0},
        {CL_QUEUE_THROTTLE_KHR, 8, 0},                       /* no such throttle */
        {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0}, /* twice */
        {0x7777, 1, 0},                                      /* unknown name */
        {CL_QUEUE_CUDA_STREAM_CULVERT, 0, 0},                /* no stream */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!d->clCreateCommandQueueWithProperties((cl_context)p, NULL, bad[i], &err));
        CHECK_ERR(CL_INVALID_VALUE, err);
    }
    /* the 1.x function takes only the out-of-order and profiling bits */
    CHECK(!d->clCreateCommandQueue((cl_context)p, NULL, CL_QUEUE_ON_DEVICE, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK_ERR(CL_INVALID_VALUE, d->clWaitForEvents(0, NULL));
    CHECK_ERR(CL_INVALID_VALUE, d->clEnqueueMarker((cl_command_queue)p, NULL));
    return cv_test_report("queue_event_validation");
}
