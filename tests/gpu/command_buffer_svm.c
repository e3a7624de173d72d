/* Command buffers with SVM commands: a fill and a copy on SVM pointers, replayed; the
 * checks of clEnqueueSVMMemcpy / clEnqueueSVMMemFill; an SVM pointer set by a mutable dispatch.
 * Copies and fills run under the fake driver too (tests/fake_cuda runs graphs). */
#include "command_buffer_common.h"

static void check_copy_fill(void) {
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    cl_uint *a = clSVMAlloc(cbt_context, CL_MEM_READ_WRITE, 1024, 0);
    cl_uint *b = clSVMAlloc(cbt_context, 0, 1024, 0);
    REQUIRE(a && b);
    cl_uint pattern = 0x5eed;
    cl_sync_point_khr filled = 0;
    CHECK_ERR(CL_SUCCESS, cbt.svm_fill(cb, NULL, NULL, a, &pattern, sizeof pattern, 1024, 0, NULL,
                                       &filled, NULL));
    /* "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in an
     * overlapping copy." / "CL_INVALID_VALUE if dst_ptr or src_ptr is NULL." / svm_ptr not
     * aligned to pattern_size / "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is
     * NULL and num_sync_points_in_wait_list is > 0" */
    CHECK_ERR(CL_MEM_COPY_OVERLAP, cbt.svm_copy(cb, NULL, NULL, a + 1, a, 8, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.svm_copy(cb, NULL, NULL, NULL, a, 8, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, cbt.svm_fill(cb, NULL, NULL, (char *)a + 2, &pattern,
                                             sizeof pattern, 8, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
              cbt.svm_copy(cb, NULL, NULL, b, a, 8, 1, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.svm_copy(cb, NULL, NULL, b, a, 1024, 1, &filled, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    for (int round = 0; round < 2; round++) {
        memset(b, 0, 1024);
        memset(a, 0, 1024);
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
        int wrong = 0;
        for (int i = 0; i < 256; i++)
            wrong += b[i] != pattern;
        CHECK(wrong == 0);
    }
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clSVMFree(cbt_context, a);
    clSVMFree(cbt_context, b);
}

/* A kernel command whose buffer argument a mutable dispatch sets to an SVM pointer. */
static void check_mutable_svm_argument(void) {
    cl_int err = 0;
    cl_program prog = clCreateProgramWithBinary(
        cbt_context, 1, &cbt_device, (size_t[]){sizeof cbt_add_ptx - 1},
        (const unsigned char *[]){(const unsigned char *)cbt_add_ptx}, NULL, &err);
    REQUIRE(prog != NULL);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(prog, 1, &cbt_device, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "add", &err);
    REQUIRE(k != NULL);
    cl_uint *first = clSVMAlloc(cbt_context, CL_MEM_READ_WRITE, 64 * sizeof(cl_uint), 0);
    cl_uint *second = clSVMAlloc(cbt_context, CL_MEM_READ_WRITE, 64 * sizeof(cl_uint), 0);
    REQUIRE(first && second);
    memset(first, 0, 64 * sizeof(cl_uint));
    memset(second, 0, 64 * sizeof(cl_uint));
    cl_uint v = 5;
    CHECK_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(k, 0, first));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof v, &v));
    cl_command_buffer_khr cb = cbt_new(cbt_queue, CL_COMMAND_BUFFER_MUTABLE_KHR);
    cl_command_properties_khr props[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                         CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
    cl_mutable_command_khr cmd = NULL;
    size_t n = 64, local = 32;
    CHECK_ERR(CL_SUCCESS,
              cbt.ndrange(cb, NULL, props, k, 1, NULL, &n, &local, 0, NULL, NULL, &cmd));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    cl_mutable_dispatch_arg_khr arg = {0, sizeof(void *), second};
    cl_mutable_dispatch_config_khr cfg = {.command = cmd, .num_svm_args = 1, .arg_svm_list = &arg};
    cl_command_buffer_update_type_khr type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
    const void *cfgs[1] = {&cfg};
    CHECK_ERR(CL_SUCCESS, cbt.update(cb, 1, &type, cfgs));
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
    if (cbt_fake) {
        /* The fake records launches: the second replay's first parameter is the new pointer. */
        unsigned n_launches = cbt_fake->num_launches;
        const fakecuda_launch *l = n_launches ? &cbt_fake->launches[n_launches - 1] : NULL;
        uint64_t p0 = 0;
        if (l)
            memcpy(&p0, l->params + l->param_offset[0], sizeof p0);
        CHECK(l && p0 == (uint64_t)(uintptr_t)second);
    } else {
        int wrong = 0;
        for (int i = 0; i < 64; i++)
            wrong += first[i] != 5 || second[i] != 5;
        CHECK(wrong == 0);
    }
    cbt.release(cb);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clSVMFree(cbt_context, first);
    clSVMFree(cbt_context, second);
}

int main(void) {
    cbt_setup();
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(cbt_device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        fprintf(stderr, "command_buffer_svm: no SVM on the device: skipped\n");
        return CV_TEST_SKIP;
    }
    check_copy_fill();
    check_mutable_svm_argument();
    cbt_teardown();
    return cv_test_report("command_buffer_svm");
}
