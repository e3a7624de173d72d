/* Section 5.1 of the OpenCL 3.0 API: command-queues. */
#include "ct.h"

static void create_default(ct_env *e) {
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(q != NULL);
    cl_context c = NULL;
    cl_device_id d = NULL;
    cl_uint refs = 0;
    cl_command_queue_properties props = 99;
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(c), &c, NULL));
    CT_CHECK(c == e->ctx);
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(d), &d, NULL));
    CT_CHECK(d == e->device);
    CT_ERR(CL_SUCCESS,
           clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL));
    CT_CHECK(props == 0);
    size_t size = 99;
    /* CL_QUEUE_PROPERTIES_ARRAY: "If properties was NULL, the implementation must return
     * param_value_size_ret equal to 0". */
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size));
    CT_CHECK(size == 0);
    CT_ERR(CL_SUCCESS, clFlush(q));
    CT_ERR(CL_SUCCESS, clFinish(q));
    CT_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
}

static void create_profiling(ct_env *e) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(q != NULL);
    cl_command_queue_properties got = 0;
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(got), &got, NULL));
    CT_CHECK(got == CL_QUEUE_PROFILING_ENABLE);
    cl_queue_properties arr[3] = {0};
    size_t size = 0;
    CT_ERR(CL_SUCCESS,
           clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof(arr), arr, &size));
    CT_CHECK(size == sizeof(props) && !memcmp(arr, props, sizeof(props)));
    clReleaseCommandQueue(q);
}

static void out_of_order(ct_env *e) {
    cl_command_queue_properties caps = ct_dev_bits(e->device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, props, &err);
    if (!(caps & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
        /* "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
         * supported by the device." */
        CT_ERR(CL_INVALID_QUEUE_PROPERTIES, err);
        CT_CHECK(q == NULL);
        return;
    }
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(q != NULL);
    /* Commands on an out-of-order queue ordered by a wait list. */
    cl_int v = 7, out = 0;
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE, sizeof(v), NULL);
    cl_event w = NULL;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof(v), &v, 0, NULL, &w));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), &out, 1, &w, NULL));
    CT_CHECK(out == 7);
    /* A barrier orders everything before it. */
    v = 9;
    CT_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof(v), &v, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(out), &out, 0, NULL, NULL));
    CT_CHECK(out == 9);
    clReleaseEvent(w);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

static void create_errors(ct_env *e) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_CHECK(clCreateCommandQueueWithProperties(NULL, e->device, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
    /* "CL_INVALID_DEVICE if device is not a valid device or is not associated with context." */
    CT_CHECK(clCreateCommandQueueWithProperties(e->ctx, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_DEVICE, err);
    /* "CL_INVALID_VALUE if values specified in properties are not valid." */
    cl_queue_properties bad_key[] = {0x7fff, 0, 0};
    CT_CHECK(clCreateCommandQueueWithProperties(e->ctx, e->device, bad_key, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    cl_queue_properties bad_bits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0};
    CT_CHECK(clCreateCommandQueueWithProperties(e->ctx, e->device, bad_bits, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* clCreateCommandQueue (deprecated) checks the same. */
    CT_CHECK(clCreateCommandQueue(NULL, e->device, 0, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
    CT_CHECK(clCreateCommandQueue(e->ctx, e->device, (cl_command_queue_properties)1 << 40, &err) ==
             NULL);
    CT_ERR(CL_INVALID_VALUE, err);
}

/* Device queues: refused with an error (never a crash) where the request is invalid or the
 * device has no device-side enqueue. */
static void device_queue_errors(ct_env *e) {
    cl_int err = CL_SUCCESS;
    /* CL_QUEUE_ON_DEVICE "can only be used if CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE is also
     * set": a device queue without it is not valid. */
    cl_queue_properties dev_inorder[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0};
    CT_CHECK(clCreateCommandQueueWithProperties(e->ctx, e->device, dev_inorder, &err) == NULL);
    CT_ERR2(CL_INVALID_VALUE, CL_INVALID_QUEUE_PROPERTIES, err);
    /* Device queues where the device has none. */
    if (ct_dev_bits(e->device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0) {
        cl_queue_properties devq[] = {
            CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
        CT_CHECK(clCreateCommandQueueWithProperties(e->ctx, e->device, devq, &err) == NULL);
        CT_ERR2(CL_INVALID_QUEUE_PROPERTIES, CL_INVALID_VALUE, err);
    }
}

static void create_deprecated(ct_env *e) {
    cl_int err = 1;
    cl_command_queue q = clCreateCommandQueue(e->ctx, e->device, CL_QUEUE_PROFILING_ENABLE, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(q != NULL);
    cl_command_queue_properties got = 0;
    CT_ERR(CL_SUCCESS, clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(got), &got, NULL));
    CT_CHECK(got == CL_QUEUE_PROFILING_ENABLE);
    CT_ERR(CL_SUCCESS, clFinish(q));
    clReleaseCommandQueue(q);
}

static void refcount_and_errors(ct_env *e) {
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS, clRetainCommandQueue(e->q));
    CT_ERR(CL_SUCCESS,
           clGetCommandQueueInfo(e->q, CL_QUEUE_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 2);
    CT_ERR(CL_SUCCESS, clReleaseCommandQueue(e->q));
    CT_ERR(CL_SUCCESS,
           clGetCommandQueueInfo(e->q, CL_QUEUE_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clRetainCommandQueue(NULL));
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(NULL));
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clFlush(NULL));
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clFinish(NULL));
    CT_ERR(CL_INVALID_COMMAND_QUEUE,
           clGetCommandQueueInfo(NULL, CL_QUEUE_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    /* "CL_INVALID_VALUE if param_name is not one of the supported values or if size in bytes
     * specified by param_value_size is less than size of return type". */
    CT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(e->q, 0x7fff, sizeof(refs), &refs, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(e->q, CL_QUEUE_CONTEXT, 1, &refs, NULL));
}

/* A queue released with work in it still runs that work (the queue lives until it is done). */
static void release_with_work(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->device, NULL, &err);
    CT_REQUIRE(q != NULL);
    enum { N = 1 << 16 };
    cl_int *data = malloc(N * sizeof(cl_int));
    for (int i = 0; i < N; i++)
        data[i] = i;
    cl_mem b = ct_buffer(e, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL);
    cl_event ev = NULL;
    CT_ERR(CL_SUCCESS,
           clEnqueueWriteBuffer(q, b, CL_FALSE, 0, N * sizeof(cl_int), data, 0, NULL, &ev));
    CT_ERR(CL_SUCCESS, clFlush(q));
    CT_ERR(CL_SUCCESS, clReleaseCommandQueue(q));
    CT_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    cl_int *out = calloc(N, sizeof(cl_int));
    CT_ERR(CL_SUCCESS,
           clEnqueueReadBuffer(e->q, b, CL_TRUE, 0, N * sizeof(cl_int), out, 0, NULL, NULL));
    CT_CHECK(!memcmp(out, data, N * sizeof(cl_int)));
    clReleaseEvent(ev);
    clReleaseMemObject(b);
    free(data);
    free(out);
}

static void wrong_type_handles(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_uint refs = 0;
    /* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue." */
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clFinish((cl_command_queue)e->ctx));
    CT_ERR(CL_INVALID_COMMAND_QUEUE, clFlush((cl_command_queue)e->ctx));
    CT_ERR(CL_INVALID_COMMAND_QUEUE,
           clGetCommandQueueInfo((cl_command_queue)e->ctx, CL_QUEUE_REFERENCE_COUNT, sizeof(refs),
                                 &refs, NULL));
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_CHECK(clCreateCommandQueueWithProperties((cl_context)e->q, e->device, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_CONTEXT, err);
    /* "CL_INVALID_DEVICE if device is not a valid device or is not associated with context." */
    CT_CHECK(clCreateCommandQueueWithProperties(e->ctx, (cl_device_id)e->q, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_DEVICE, err);
}

static const ct_case cases[] = {
    {"create_default", create_default},
    {"create_profiling", create_profiling},
    {"out_of_order", out_of_order},
    {"create_errors", create_errors},
    {"device_queue_errors", device_queue_errors},
    {"create_deprecated", create_deprecated},
    {"refcount_and_errors", refcount_and_errors},
    {"release_with_work", release_with_work},
    {"wrong_type_handles", wrong_type_handles},
};
CT_SECTION(ct_queue_section, "queue", cases);
