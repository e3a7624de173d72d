/* Queue creation with every property, queue info, clSetCommandQueueProperty, CUDA interop
 * queries, markers and barriers on in-order and out-of-order queues. */
#include "queue_test.h"

static void test_info(void) {
    cl_command_queue_properties host = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(qt_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
                                          sizeof host, &host, NULL));
    CHECK(host & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    CHECK(host & CL_QUEUE_PROFILING_ENABLE);

    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES,
                                  CL_QUEUE_PROFILING_ENABLE,
                                  CL_QUEUE_PRIORITY_KHR,
                                  CL_QUEUE_PRIORITY_HIGH_KHR,
                                  CL_QUEUE_THROTTLE_KHR,
                                  CL_QUEUE_THROTTLE_LOW_KHR,
                                  0};
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(qt_context, qt_device, list, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(q);
    cl_queue_properties got[8] = {0};
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof got, got, &size));
    CHECK(size == sizeof list && memcmp(got, list, sizeof list) == 0);
    cl_command_queue_properties props = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK(props == CL_QUEUE_PROFILING_ENABLE);
    cl_context ctx = NULL;
    CHECK_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL));
    CHECK(ctx == qt_context);
    cl_device_id dev = NULL;
    CHECK_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL));
    CHECK(dev == qt_device);
    cl_uint refs = 0;
    CHECK_ERR(CL_SUCCESS, clRetainCommandQueue(q));
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    cl_uint qsize = 0;
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
              clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL));
    cl_command_queue def = (cl_command_queue)1;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, NULL));
    CHECK(def == NULL);
    CHECK_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(q, 0x7777, sizeof props, &props, NULL));
    void *stream = NULL;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof stream, &stream, NULL));
    CHECK(stream != NULL);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));

    /* the 1.x entry point, every priority and throttle hint */
    q = clCreateCommandQueue(qt_context, qt_device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK(props == CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    stream = (void *)1;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof stream, &stream, NULL));
    CHECK(stream == NULL); /* an out-of-order queue has no one stream */
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    const cl_queue_properties hints[] = {CL_QUEUE_PRIORITY_HIGH_KHR, CL_QUEUE_PRIORITY_MED_KHR,
                                         CL_QUEUE_PRIORITY_LOW_KHR};
    for (int i = 0; i < 3; i++) {
        cl_queue_properties l[] = {CL_QUEUE_PRIORITY_KHR, hints[i], CL_QUEUE_THROTTLE_KHR, hints[i],
                                   0};
        q = clCreateCommandQueueWithProperties(qt_context, qt_device, l, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    }
}

static void test_invalid(void) {
    cl_int err = 0;
    cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 4096, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, size_only, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_queue_properties on_device[] = {CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                       CL_QUEUE_SIZE, 4096, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, on_device, &err));
    CHECK_ERR(CL_INVALID_QUEUE_PROPERTIES, err);
    cl_queue_properties default_only[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, default_only, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_queue_properties bad_priority[] = {CL_QUEUE_PRIORITY_KHR, 3, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, bad_priority, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_queue_properties twice[] = {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, twice, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    cl_queue_properties unknown[] = {0x7777, 0, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, unknown, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(!clCreateCommandQueue(qt_context, qt_device, CL_QUEUE_ON_DEVICE, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK(!clCreateCommandQueue(qt_context, qt_device, (cl_command_queue_properties)1 << 40, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
}

static void test_interop(void) {
    cl_int err = 0;
    cl_command_queue a = qt_queue(0);
    void *stream = NULL;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(a, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof stream, &stream, NULL));
    REQUIRE(stream);
    /* a second queue on the same CUstream: same stream back, and releasing it leaves the
     * stream to its owner */
    cl_queue_properties wrap[] = {CL_QUEUE_CUDA_STREAM_CULVERT, (cl_queue_properties)stream, 0};
    cl_command_queue b = clCreateCommandQueueWithProperties(qt_context, qt_device, wrap, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(b);
    void *got = NULL;
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(b, CL_QUEUE_CUDA_STREAM_CULVERT, sizeof got, &got, NULL));
    CHECK(got == stream);
    cl_event e = qt_marker(b, 0, NULL);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    void *cuev = NULL;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_CUDA_EVENT_CULVERT, sizeof cuev, &cuev, NULL));
    CHECK(cuev != NULL);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(e));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(b));
    e = qt_marker(a, 0, NULL);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    CHECK(qt_status(e) == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clReleaseEvent(e));
    CHECK_ERR(CL_SUCCESS, clFinish(a));

    cl_queue_properties wrap_ooo[] = {CL_QUEUE_CUDA_STREAM_CULVERT, (cl_queue_properties)stream,
                                      CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                      0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, wrap_ooo, &err));
    CHECK_ERR(CL_INVALID_QUEUE_PROPERTIES, err);
    cl_queue_properties wrap_legacy[] = {CL_QUEUE_CUDA_STREAM_CULVERT, 1, 0};
    CHECK(!clCreateCommandQueueWithProperties(qt_context, qt_device, wrap_legacy, &err));
    CHECK_ERR(CL_INVALID_VALUE, err);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(a));

    void *cuctx = NULL;
    CHECK_ERR(CL_SUCCESS, clGetContextInfo(qt_context, CL_CONTEXT_CUDA_CONTEXT_CULVERT,
                                           sizeof cuctx, &cuctx, NULL));
    CHECK(cuctx != NULL);
    cl_int cudev = -1;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(qt_device, CL_DEVICE_CUDA_DEVICE_CULVERT, sizeof cudev,
                                          &cudev, NULL));
    CHECK(cudev >= 0);
    char ext[4096] = "";
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(qt_device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_priority_hints") != NULL);
    CHECK(strstr(ext, "cl_khr_throttle_hints") != NULL);
    CHECK(strstr(ext, "cl_culvert_cuda_interop") != NULL);
}

static void test_set_property(void) {
    cl_command_queue q = qt_queue(0);
    cl_command_queue_properties old = 99, props = 0;
    CHECK_ERR(CL_SUCCESS, clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old));
    CHECK(old == 0);
    CHECK_ERR(CL_SUCCESS,
              clSetCommandQueueProperty(q, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_TRUE, &old));
    CHECK(old == CL_QUEUE_PROFILING_ENABLE);
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK(props == (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
    /* the queue works out of order now: b completes while a waits */
    cl_event u = qt_user_event();
    cl_event a = qt_marker(q, 1, &u);
    cl_event done = qt_user_event();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(done, CL_COMPLETE));
    cl_event b = qt_marker(q, 1, &done);
    CHECK(qt_poll_final(b, 2.0) == CL_COMPLETE);
    CHECK(qt_status(a) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(qt_status(a) == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS,
              clSetCommandQueueProperty(q, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_FALSE, &old));
    CHECK_ERR(CL_SUCCESS,
              clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    CHECK(props == CL_QUEUE_PROFILING_ENABLE);
    CHECK_ERR(CL_INVALID_VALUE, clSetCommandQueueProperty(q, CL_QUEUE_ON_DEVICE, CL_TRUE, NULL));
    cl_event all[] = {u, a, done, b};
    for (int i = 0; i < 4; i++)
        clReleaseEvent(all[i]);
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

/* Markers and barriers, both forms, on in-order and out-of-order queues, with user events
 * holding commands back so the order is visible. */
static void test_sync_points(cl_command_queue_properties props) {
    bool ooo = props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    cl_command_queue q = qt_queue(props);
    cl_event u1 = qt_user_event(), u2 = qt_user_event(), ready = qt_user_event();
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(ready, CL_COMPLETE));
    cl_event a = qt_marker(q, 1, &u1);
    cl_event b = qt_marker(q, 1, &ready);
    /* out of order: b does not wait for a; in order it does */
    cl_int sb = qt_poll_final(b, ooo ? 2.0 : 0.05);
    CHECK(ooo ? sb == CL_COMPLETE : sb > CL_COMPLETE);
    /* 1.1 marker (all earlier commands), 1.2 marker without a list (the same) */
    cl_event m11 = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueMarker(q, &m11));
    cl_event m12 = qt_marker(q, 0, NULL);
    /* barrier without a list: c (no dependencies of its own) waits for it */
    CHECK_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    cl_event c = qt_marker(q, 1, &ready);
    usleep(50000);
    CHECK(qt_status(m11) > CL_COMPLETE);
    CHECK(qt_status(m12) > CL_COMPLETE);
    CHECK(qt_status(c) > CL_COMPLETE);
    qt_setter s;
    qt_set_later(&s, u1, CL_COMPLETE, 1000);
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &c));
    qt_join(&s);
    CHECK(qt_status(a) == CL_COMPLETE && qt_status(b) == CL_COMPLETE);
    CHECK(qt_status(m11) == CL_COMPLETE && qt_status(m12) == CL_COMPLETE);
    /* barrier with a list, and the 1.1 forms */
    cl_event bar = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(q, 1, &u2, &bar));
    cl_event d = qt_marker(q, 1, &ready);
    usleep(20000);
    CHECK(qt_status(bar) > CL_COMPLETE);
    CHECK(qt_status(d) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(u2, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &d));
    CHECK(qt_status(bar) == CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, clEnqueueBarrier(q));
    CHECK_ERR(CL_SUCCESS, clEnqueueWaitForEvents(q, 1, &d));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueWaitForEvents(q, 0, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueMarker(q, NULL));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    cl_event all[] = {u1, u2, ready, a, b, m11, m12, c, bar, d};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseEvent(all[i]));
    CHECK_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

int main(void) {
    qt_setup();
    test_info();
    test_invalid();
    test_interop();
    test_set_property();
    test_sync_points(0);
    test_sync_points(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    test_sync_points(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    clReleaseContext(qt_context);
    return cv_test_report("queues_basic");
}
