/* cl_khr_command_buffer and its mutable-dispatch layer, the API side: device queries, creation,
 * info, the state, and every error of the entry points (the spec's codes). Runs on the GPU
 * (gpu.command_buffer_api) and on the fake driver (fake.command_buffer_api). */
#include "command_buffer_common.h"

static void test_device_queries(void) {
    cl_ulong v = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(cbt_device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR,
                                          sizeof v, &v, NULL));
    CHECK(v == (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR));
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(cbt_device, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR,
                              sizeof v, &v, NULL));
    CHECK(v == (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(cbt_device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR,
                              sizeof v, &v, NULL));
    CHECK(v == 0);
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(cbt_device, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR,
                                          sizeof v, &v, NULL));
    CHECK(v == (CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
                CL_MUTABLE_DISPATCH_EXEC_INFO_KHR));
    /* The revisions the CTS checks for. */
    cl_name_version versions[64];
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(cbt_device, CL_DEVICE_EXTENSIONS_WITH_VERSION,
                                          sizeof versions, versions, &size));
    int found = 0;
    for (size_t i = 0; i < size / sizeof versions[0]; i++) {
        if (strcmp(versions[i].name, "cl_khr_command_buffer") == 0)
            found += versions[i].version == CL_MAKE_VERSION(0, 9, 8);
        if (strcmp(versions[i].name, "cl_khr_command_buffer_mutable_dispatch") == 0)
            found += versions[i].version == CL_MAKE_VERSION(0, 9, 5);
    }
    CHECK(found == 2);
}

static void test_create(void) {
    cl_int err = CL_SUCCESS;
    cl_command_queue two[2] = {cbt_queue, cbt_queue};
    CHECK(!cbt.create(2, two, NULL, &err) && err == CL_INVALID_VALUE);
    CHECK(!cbt.create(0, two, NULL, &err) && err == CL_INVALID_VALUE);
    CHECK(!cbt.create(1, NULL, NULL, &err) && err == CL_INVALID_VALUE);
    cl_command_queue bad = (cl_command_queue)cbt_context;
    CHECK(!cbt.create(1, &bad, NULL, &err) && err == CL_INVALID_COMMAND_QUEUE);
    const cl_command_buffer_properties_khr repeated[] = {
        CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR, CL_COMMAND_BUFFER_FLAGS_KHR,
        CL_COMMAND_BUFFER_MUTABLE_KHR, 0};
    CHECK(!cbt.create(1, &cbt_queue, repeated, &err) && err == CL_INVALID_VALUE);
    const cl_command_buffer_properties_khr bad_bits[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                         (cl_command_buffer_properties_khr)-1, 0};
    CHECK(!cbt.create(1, &cbt_queue, bad_bits, &err) && err == CL_INVALID_VALUE);
    /* cl_khr_command_buffer_multi_device's flag: that extension is not offered. */
    const cl_command_buffer_properties_khr sync[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                     CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR, 0};
    CHECK(!cbt.create(1, &cbt_queue, sync, &err) && err == CL_INVALID_VALUE);
    /* An unknown name, not terminated: nothing past it is read. */
    const cl_command_buffer_properties_khr unknown[] = {0x7777};
    CHECK(!cbt.create(1, &cbt_queue, unknown, &err) && err == CL_INVALID_VALUE);
    /* errcode_ret may be NULL. */
    CHECK(!cbt.create(1, NULL, NULL, NULL));
}

static void test_info(void) {
    cl_int err = CL_SUCCESS;
    const cl_command_buffer_properties_khr props[] = {
        CL_COMMAND_BUFFER_FLAGS_KHR,
        CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR | CL_COMMAND_BUFFER_MUTABLE_KHR, 0};
    cl_command_buffer_khr cb = cbt.create(1, &cbt_queue, props, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(cb);
    cl_uint u = 0;
    size_t size = 0;
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof u, &u, &size));
    CHECK(u == 1 && size == sizeof u);
    cl_command_queue q = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof q, &q, &size));
    CHECK(q == cbt_queue && size == sizeof q);
    CHECK_ERR(CL_INVALID_VALUE, cbt.info(cb, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof q - 1, &q, NULL));
    cl_context c = NULL;
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_CONTEXT_KHR, sizeof c, &c, NULL));
    CHECK(c == cbt_context);
    CHECK_ERR(CL_SUCCESS, cbt.retain(cb));
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof u, &u, NULL));
    CHECK(u == 2);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof u, &u, NULL));
    CHECK(u == 1);
    cl_command_buffer_properties_khr got[4] = {0};
    CHECK_ERR(CL_SUCCESS,
              cbt.info(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof got, got, &size));
    CHECK(size == sizeof props && memcmp(got, props, sizeof props) == 0);
    CHECK_ERR(CL_INVALID_VALUE, cbt.info(cb, CL_COMMAND_BUFFER_FLAGS_KHR, sizeof u, &u, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.info(cb, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &u, NULL));
    /* States: recording, then executable. */
    cl_command_buffer_state_khr s = 99;
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof s, &s, NULL));
    CHECK(s == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_STATE_KHR, sizeof s, &s, NULL));
    CHECK(s == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
    /* "CL_INVALID_OPERATION if command_buffer is not in the Recording state." */
    CHECK_ERR(CL_INVALID_OPERATION, cbt.finalize(cb));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    /* Created without properties: none are returned. */
    cb = cbt_new(cbt_queue, 0);
    CHECK_ERR(CL_SUCCESS, cbt.info(cb, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, NULL, &size));
    CHECK(size == 0);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
}

/* Every entry point refuses a handle that is not a command buffer. */
static void test_invalid_handles(void) {
    cl_command_buffer_khr bad = (cl_command_buffer_khr)cbt_queue;
    cl_mem m = cv_test_buffer(cbt_context, 64, NULL);
    cl_int pattern = 1;
    size_t one = 1, origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};
    cl_kernel k = cbt_add_kernel();
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR, cbt.retain(NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR, cbt.release(bad));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR, cbt.finalize(NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR, cbt.enqueue(0, NULL, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.info(NULL, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 0, NULL, NULL));
    /* Before the queue check: "CL_INVALID_COMMAND_BUFFER_KHR" even with a queue given. */
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.barrier(NULL, cbt_queue, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.copy(bad, NULL, NULL, m, m, 0, 32, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.copy_rect(NULL, NULL, NULL, m, m, origin, origin, region, 0, 0, 0, 0, 0, NULL,
                            NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.fill(NULL, NULL, NULL, m, &pattern, 4, 0, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.ndrange(NULL, NULL, NULL, k, 1, NULL, &one, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
              cbt.copy_image(NULL, NULL, NULL, m, m, origin, origin, region, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_BUFFER_KHR, cbt.update(NULL, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_MUTABLE_COMMAND_KHR,
              cbt.command_info(NULL, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_MUTABLE_COMMAND_KHR,
              cbt.command_info((cl_mutable_command_khr)m, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, 0,
                               NULL, NULL));
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

static void test_record_errors(void) {
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    cl_mem a = cv_test_buffer(cbt_context, 256, NULL), b = cv_test_buffer(cbt_context, 256, NULL);
    cl_context other = clCreateContext(NULL, 1, &cbt_device, NULL, NULL, &err);
    REQUIRE(other);
    cl_mem foreign = cv_test_buffer(other, 256, NULL);
    cl_int pattern = 7;
    cl_mutable_command_khr handle = NULL;
    cl_sync_point_khr sp = 0, bad_sp = 0, far_sp = 1000;
    size_t origin[3] = {0, 0, 0}, region[3] = {16, 2, 1};
    /* "CL_INVALID_COMMAND_QUEUE if ... command_queue is not NULL." */
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE, cbt.barrier(cb, cbt_queue, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
              cbt.fill(cb, cbt_queue, NULL, a, &pattern, 4, 0, 16, 0, NULL, NULL, NULL));
    /* "CL_INVALID_VALUE if mutable_handle is not NULL." */
    CHECK_ERR(CL_INVALID_VALUE, cbt.barrier(cb, NULL, NULL, 0, NULL, NULL, &handle));
    CHECK_ERR(CL_INVALID_VALUE, cbt.copy(cb, NULL, NULL, a, b, 0, 0, 16, 0, NULL, NULL, &handle));
    /* "CL_INVALID_VALUE if values specified in properties are not valid." (none are defined);
     * an empty list is fine */
    const cl_command_properties_khr props[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0, 0};
    const cl_command_properties_khr empty[] = {0};
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.fill(cb, NULL, props, a, &pattern, 4, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.fill(cb, NULL, empty, a, &pattern, 4, 0, 16, 0, NULL, &sp, NULL));
    CHECK(sp != 0);
    /* Sync points: NULL with a count, a list without one, one that was never handed out. */
    CHECK_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
              cbt.barrier(cb, NULL, NULL, 1, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR, cbt.barrier(cb, NULL, NULL, 0, &sp, NULL, NULL));
    CHECK_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
              cbt.copy(cb, NULL, NULL, a, b, 0, 0, 16, 1, &bad_sp, NULL, NULL));
    CHECK_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
              cbt.copy(cb, NULL, NULL, a, b, 0, 0, 16, 1, &far_sp, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy(cb, NULL, NULL, a, b, 0, 0, 16, 1, &sp, NULL, NULL));
    /* The buffer commands' own errors. */
    CHECK_ERR(CL_INVALID_CONTEXT,
              cbt.copy(cb, NULL, NULL, foreign, b, 0, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_CONTEXT,
              cbt.fill(cb, NULL, NULL, foreign, &pattern, 4, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT,
              cbt.copy(cb, NULL, NULL, (cl_mem)cbt_queue, b, 0, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.copy(cb, NULL, NULL, a, b, 250, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_MEM_COPY_OVERLAP, cbt.copy(cb, NULL, NULL, a, a, 0, 8, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.fill(cb, NULL, NULL, a, &pattern, 3, 0, 12, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.fill(cb, NULL, NULL, a, &pattern, 4, 2, 12, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.copy_rect(cb, NULL, NULL, a, b, origin, origin, NULL, 0, 0, 0,
                                              0, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.copy_rect(cb, NULL, NULL, a, b, origin, origin, region, 8, 0, 0,
                                              0, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.copy_rect(cb, NULL, NULL, a, b, origin, origin, region, 32, 0, 32, 0,
                                        0, NULL, NULL, NULL));
    /* Image commands given buffers: "CL_INVALID_OPERATION if the device associated with
     * command_queue does not support images" where images are off (CULVERT_IMAGES=0), else the
     * buffers are no image objects: CL_INVALID_MEM_OBJECT (tests/gpu/command_buffer_images.c
     * records real ones). */
    cl_bool images = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(cbt_device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    cl_int no_image = images ? CL_INVALID_MEM_OBJECT : CL_INVALID_OPERATION;
    CHECK_ERR(no_image,
              cbt.copy_image(cb, NULL, NULL, a, b, origin, origin, region, 0, NULL, NULL, NULL));
    CHECK_ERR(no_image,
              cbt.copy_to_image(cb, NULL, NULL, a, b, 0, origin, region, 0, NULL, NULL, NULL));
    CHECK_ERR(no_image,
              cbt.copy_from_image(cb, NULL, NULL, a, b, origin, region, 0, 0, NULL, NULL, NULL));
    CHECK_ERR(no_image,
              cbt.fill_image(cb, NULL, NULL, a, &pattern, origin, region, 0, NULL, NULL, NULL));
    /* SVM commands take the checks of clEnqueueSVMMemcpy and clEnqueueSVMMemFill
     * (tests/gpu/command_buffer_svm.c runs them). */
    CHECK_ERR(CL_MEM_COPY_OVERLAP,
              cbt.svm_copy(cb, NULL, NULL, &pattern, &pattern, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.svm_fill(cb, NULL, NULL, NULL, &pattern, 4, 4, 0, NULL, NULL, NULL));
    /* After finalize: "CL_INVALID_OPERATION if command_buffer has been finalized." */
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_INVALID_OPERATION, cbt.barrier(cb, NULL, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_OPERATION,
              cbt.fill(cb, NULL, NULL, a, &pattern, 4, 0, 16, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

static void test_ndrange_errors(void) {
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    cl_kernel k = cbt_add_kernel();
    cl_mem m = cv_test_buffer(cbt_context, 4096, NULL);
    size_t global = 64, local = 32, offset = 4, huge_local = 4096;
    /* "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified" */
    CHECK_ERR(CL_INVALID_KERNEL_ARGS,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    cl_uint v = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof m, &m));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof v, &v));
    CHECK_ERR(CL_INVALID_KERNEL, cbt.ndrange(cb, NULL, NULL, (cl_kernel)m, 1, NULL, &global, NULL,
                                             0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_WORK_DIMENSION,
              cbt.ndrange(cb, NULL, NULL, k, 0, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_WORK_DIMENSION,
              cbt.ndrange(cb, NULL, NULL, k, 4, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
              cbt.ndrange(cb, cbt_queue, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    /* clEnqueueNDRangeKernel's errors: PTX without launch information takes no offset. */
    CHECK_ERR(CL_INVALID_GLOBAL_OFFSET,
              cbt.ndrange(cb, NULL, NULL, k, 1, &offset, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_WORK_ITEM_SIZE,
              cbt.ndrange(cb, NULL, NULL, k, 1, NULL, &global, &huge_local, 0, NULL, NULL, NULL));
    /* Properties: unknown names, bits outside the fields, a name twice. */
    const cl_command_properties_khr all_ones[] = {~(cl_command_properties_khr)0};
    const cl_command_properties_khr bad_bits[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                  (cl_command_properties_khr)1 << 26, 1};
    const cl_command_properties_khr twice[] = {
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, CL_MUTABLE_DISPATCH_ARGUMENTS_KHR,
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.ndrange(cb, NULL, all_ones, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.ndrange(cb, NULL, bad_bits, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.ndrange(cb, NULL, twice, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    /* "CL_INVALID_VALUE if ... properties includes the CL_MUTABLE_DISPATCH_ASSERTS_KHR property
     * with CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR and local_work_size is
     * NULL." */
    const cl_command_properties_khr asserts[] = {
        CL_MUTABLE_DISPATCH_ASSERTS_KHR, CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR,
        0};
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.ndrange(cb, NULL, asserts, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    cl_mutable_command_khr cmd = NULL;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, asserts, k, 1, NULL, &global, &local, 0, NULL, NULL, &cmd));
    CHECK(cmd != NULL);
    /* The command buffer's own assert. */
    const cl_command_buffer_properties_khr cb_asserts[] = {
        CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR,
        CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, 0};
    cl_command_buffer_khr cb2 = cbt.create(1, &cbt_queue, cb_asserts, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(cb2);
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.ndrange(cb2, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb2));
    /* A kernel of another context. */
    cl_context other = clCreateContext(NULL, 1, &cbt_device, NULL, NULL, &err);
    cl_command_queue oq = clCreateCommandQueue(other, cbt_device, 0, &err);
    cl_command_buffer_khr cb3 = cbt_new(oq, 0);
    CHECK_ERR(CL_INVALID_CONTEXT,
              cbt.ndrange(cb3, NULL, NULL, k, 1, NULL, &global, NULL, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb3));
    clReleaseCommandQueue(oq);
    clReleaseContext(other);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseKernel(k);
    clReleaseMemObject(m);
}

static void test_enqueue_errors(void) {
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    /* "CL_INVALID_OPERATION if command_buffer is not in the Executable state." */
    CHECK_ERR(CL_INVALID_OPERATION, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_INVALID_VALUE, cbt.enqueue(1, NULL, cb, 0, NULL, NULL));
    cl_command_queue qs[2] = {cbt_queue, cbt_queue};
    CHECK_ERR(CL_INVALID_VALUE, cbt.enqueue(0, qs, cb, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.enqueue(2, qs, cb, 0, NULL, NULL));
    cl_command_queue bad = (cl_command_queue)cbt_context;
    CHECK_ERR(CL_INVALID_COMMAND_QUEUE, cbt.enqueue(1, &bad, cb, 0, NULL, NULL));
    cl_context other = clCreateContext(NULL, 1, &cbt_device, NULL, NULL, &err);
    cl_command_queue oq = clCreateCommandQueue(other, cbt_device, 0, &err);
    CHECK_ERR(CL_INVALID_CONTEXT, cbt.enqueue(1, &oq, cb, 0, NULL, NULL));
    cl_event foreign = clCreateUserEvent(other, &err);
    CHECK_ERR(CL_INVALID_CONTEXT, cbt.enqueue(0, NULL, cb, 1, &foreign, NULL));
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST, cbt.enqueue(0, NULL, cb, 1, NULL, NULL));
    cl_event none[1] = {NULL};
    CHECK_ERR(CL_INVALID_EVENT_WAIT_LIST, cbt.enqueue(0, NULL, cb, 1, none, NULL));
    clSetUserEventStatus(foreign, CL_COMPLETE);
    clReleaseEvent(foreign);
    clReleaseCommandQueue(oq);
    clReleaseContext(other);
    /* Queues with the properties command buffers take: substitutes of the same device. */
    cl_command_queue prof = clCreateCommandQueue(
        cbt_context, cbt_device, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        &err);
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(1, &prof, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(prof));
    clReleaseCommandQueue(prof);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
}

static void test_host_value_errors(void) {
    cl_int err = CL_SUCCESS;
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    cl_mem hv = cbt.host_value(cbt_context, 0, &err);
    REQUIRE(hv);
    cl_mem buf = cv_test_buffer(cbt_context, 8, NULL);
    cl_mutable_command_khr handle = NULL;
    cl_uint sp = 0, bad_sp = 5;
    CHECK_ERR(
        CL_INVALID_COMMAND_BUFFER_KHR,
        cbt.wait_value(NULL, NULL, NULL, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL, NULL));
    CHECK_ERR(
        CL_INVALID_COMMAND_QUEUE,
        cbt.wait_value(cb, cbt_queue, NULL, hv, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL, NULL));
    CHECK_ERR(
        CL_INVALID_MEM_OBJECT,
        cbt.wait_value(cb, NULL, NULL, buf, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, cbt.write_value(cb, NULL, NULL, buf, 1, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.wait_value(cb, NULL, NULL, hv, 1, 12345, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.write_value(cb, NULL, NULL, hv, 1, 0, NULL, NULL, &handle));
    CHECK_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
              cbt.write_value(cb, NULL, NULL, hv, 1, 1, &bad_sp, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.wait_value(cb, NULL, NULL, hv, 1, CL_HOST_VALUE_EQ_CULVERT, 0, NULL, &sp, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.write_value(cb, NULL, NULL, hv, 0, 1, &sp, NULL, NULL));
    cl_context other = clCreateContext(NULL, 1, &cbt_device, NULL, NULL, &err);
    cl_mem foreign = cbt.host_value(other, 0, &err);
    CHECK_ERR(CL_INVALID_CONTEXT, cbt.write_value(cb, NULL, NULL, foreign, 1, 0, NULL, NULL, NULL));
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_INVALID_OPERATION, cbt.write_value(cb, NULL, NULL, hv, 1, 0, NULL, NULL, NULL));
    /* The host value outlives the application's release: the command buffer holds it. */
    clReleaseMemObject(hv);
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(buf);
}

int main(void) {
    cbt_setup();
    test_device_queries();
    test_create();
    test_info();
    test_invalid_handles();
    test_record_errors();
    test_ndrange_errors();
    test_enqueue_errors();
    test_host_value_errors();
    cbt_teardown();
    return cv_test_report("command_buffer_api");
}
