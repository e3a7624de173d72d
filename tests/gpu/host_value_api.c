/* cl_culvert_host_value on a GPU, host side: creation, load/signal/reset, the cl_mem queries,
 * reference counts, the extension's listing, and the errors that need real objects. */
#include "host_value_common.h"

int main(void) {
    hv_test t;
    hv_test_setup(&t);
    cl_int err = CL_SUCCESS;

    /* Listed on the device and, with one device, on the platform, with its version. */
    char ext[8192] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetPlatformInfo(t.platform, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, CL_CULVERT_HOST_VALUE_EXTENSION_NAME) != NULL);
    cl_name_version versions[64];
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(t.device, CL_DEVICE_EXTENSIONS_WITH_VERSION,
                                          sizeof versions, versions, &size));
    bool versioned = false;
    for (size_t i = 0; i < size / sizeof versions[0]; i++)
        if (strcmp(versions[i].name, CL_CULVERT_HOST_VALUE_EXTENSION_NAME) == 0)
            versioned = versions[i].version == CL_CULVERT_HOST_VALUE_EXTENSION_VERSION;
    CHECK(versioned);

    /* Values: initial, signal, reset; every 64 bits survive. */
    cl_mem hv = hv_new(&t, 0x0123456789abcdefull);
    cl_ulong v = 0;
    CHECK_ERR(CL_SUCCESS, t.load(hv, &v));
    CHECK(v == 0x0123456789abcdefull);
    CHECK_ERR(CL_SUCCESS, t.signal(hv, ~0ull));
    CHECK_ERR(CL_SUCCESS, t.load(hv, &v));
    CHECK(v == ~0ull);
    CHECK_ERR(CL_SUCCESS, t.reset(hv));
    CHECK_ERR(CL_SUCCESS, t.load(hv, &v));
    CHECK(v == 0);
    /* "CL_INVALID_VALUE if value is NULL" */
    CHECK_ERR(CL_INVALID_VALUE, t.load(hv, NULL));
    cl_mem zero = t.create(t.context, 0, NULL); /* errcode_ret may be NULL */
    CHECK(zero != NULL);
    v = 1;
    CHECK_ERR(CL_SUCCESS, t.load(zero, &v));
    CHECK(v == 0);

    /* Many host values share pinned pages and stay independent. */
    enum { MANY = 1000 };
    static cl_mem many[MANY];
    for (cl_ulong i = 0; i < MANY; i++)
        many[i] = hv_new(&t, i * 3);
    int wrong = 0;
    for (cl_ulong i = 0; i < MANY; i++) {
        wrong += t.load(many[i], &v) != CL_SUCCESS || v != i * 3;
        wrong += t.signal(many[i], i * 4) != CL_SUCCESS;
    }
    for (cl_ulong i = 0; i < MANY; i++)
        wrong += t.load(many[i], &v) != CL_SUCCESS || v != i * 4;
    CHECK(wrong == 0);
    cl_ulong addr0 = 0, addr1 = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(many[0], CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT,
                                             sizeof addr0, &addr0, NULL));
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(many[1], CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT,
                                             sizeof addr1, &addr1, NULL));
    CHECK(addr0 != addr1 && addr0 % 8 == 0 && addr1 % 8 == 0);
    for (cl_ulong i = 0; i < MANY; i++)
        CHECK_ERR(CL_SUCCESS, clReleaseMemObject(many[i]));

    /* The cl_mem queries. */
    size_t mem_size = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_SIZE, sizeof mem_size, &mem_size, NULL));
    CHECK(mem_size == 8);
    cl_bool is_hv = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clGetMemObjectInfo(hv, CL_MEM_IS_HOST_VALUE_CULVERT, sizeof is_hv, &is_hv, NULL));
    CHECK(is_hv == CL_TRUE);
    cl_ulong addr = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT,
                                             sizeof addr, &addr, NULL));
    CHECK(addr != 0 && addr % 8 == 0);
    cl_context ctx = NULL;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL));
    CHECK(ctx == t.context);
    cl_mem_object_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_OBJECT_BUFFER);

    /* Reference counting through the generic cl_mem calls. */
    cl_uint refs = 0;
    CHECK_ERR(CL_SUCCESS, clRetainMemObject(hv));
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(hv));
    CHECK_ERR(CL_SUCCESS, t.signal(hv, 5)); /* still alive: one reference left */
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(hv, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 1);

    /* A buffer is not a host value. */
    cl_mem buf = clCreateBuffer(t.context, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK(err == CL_SUCCESS && buf != NULL);
    cl_command_queue q = hv_queue(&t, 0);
    if (buf) {
        CHECK_ERR(CL_INVALID_MEM_OBJECT, t.signal(buf, 1));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, t.load(buf, &v));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, t.reset(buf));
        CHECK_ERR(CL_INVALID_MEM_OBJECT,
                  t.enqueue_wait(q, buf, 0, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, t.enqueue_write(q, buf, 0, 0, NULL, NULL));
        is_hv = CL_TRUE;
        CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(buf, CL_MEM_IS_HOST_VALUE_CULVERT, sizeof is_hv,
                                                 &is_hv, NULL));
        CHECK(is_hv == CL_FALSE);
        clReleaseMemObject(buf);
    }

    /* A host value of another context. */
    cl_context other = clCreateContext(NULL, 1, &t.device, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem foreign = t.create(other, 7, &err);
    CHECK(err == CL_SUCCESS && foreign != NULL);
    cl_event ev = NULL;
    CHECK_ERR(CL_INVALID_CONTEXT,
              t.enqueue_wait(q, foreign, 0, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, &ev));
    CHECK_ERR(CL_INVALID_CONTEXT, t.enqueue_write(q, foreign, 0, 0, NULL, &ev));
    CHECK(ev == NULL);
    /* ... and wait-list events of another context. */
    cl_command_queue other_q = clCreateCommandQueueWithProperties(other, t.device, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event other_ev = hv_marker(other_q);
    CHECK_ERR(CL_INVALID_CONTEXT,
              t.enqueue_wait(q, hv, 0, CL_HOST_VALUE_GEQ_CULVERT, 1, &other_ev, NULL));
    CHECK_ERR(CL_INVALID_CONTEXT, t.enqueue_write(q, hv, 0, 1, &other_ev, NULL));

    /* Conditions: unknown ones, and NOR only where the device has it. */
    cl_host_value_condition unknown[] = {0, 1, CL_CULVERT_ENUM_BASE + 4, 0x7fffffff};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECK_ERR(CL_INVALID_VALUE, t.enqueue_wait(q, hv, 0, unknown[i], 0, NULL, &ev));
    CHECK(ev == NULL);
    err = t.enqueue_wait(q, hv, 0, CL_HOST_VALUE_NOR_CULVERT, 0, NULL, NULL); /* ~(5|0) != 0 */
    CHECK(err == CL_SUCCESS || err == CL_INVALID_VALUE);
    printf("NOR condition %s\n", err == CL_SUCCESS ? "supported" : "not supported");

    /* Wait lists. */
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST,
              t.enqueue_wait(q, hv, 0, CL_HOST_VALUE_GEQ_CULVERT, 1, NULL, NULL));
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST,
              t.enqueue_wait(q, hv, 0, CL_HOST_VALUE_GEQ_CULVERT, 0, &other_ev, NULL));
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST, t.enqueue_write(q, hv, 0, 1, NULL, NULL));
    cl_event not_event = (cl_event)hv;
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST, t.enqueue_write(q, hv, 0, 1, &not_event, NULL));

    /* A queue is not a context, a host value is not a queue. */
    CHECK(t.create((cl_context)q, 0, &err) == NULL && err == CL_INVALID_CONTEXT);
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
              t.enqueue_write((cl_command_queue)hv, hv, 0, 0, NULL, NULL));

    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK_ERR(CL_SUCCESS, clFinish(other_q));
    clReleaseEvent(other_ev);
    clReleaseCommandQueue(other_q);
    clReleaseCommandQueue(q);
    clReleaseMemObject(foreign);
    clReleaseMemObject(zero);
    CHECK_ERR(CL_SUCCESS, clReleaseMemObject(hv));
    clReleaseContext(other);
    clReleaseContext(t.context);
    return cv_test_report("host_value_api");
}
