/* Memory entry points refuse bad handles with the spec's errors, with no GPU. The ICD loader
 * answers NULL handles itself, so the calls go through culvert's own dispatch table (read from
 * the platform handle, as the loader does) to reach culvert's checks; the platform handle also
 * serves as an object of the wrong type. */
#include "test_util.h"

#include <CL/cl_icd.h>
#include <string.h>

static void CL_CALLBACK never_called(cl_mem m, void *user_data) {
    (void)m;
    (void)user_data;
}

int main(void) {
    setenv("CULVERT_EMPTY_PLATFORM", "1", 1);
    cl_platform_id p = cv_test_culvert_platform();
    if (!p) {
        fprintf(stderr, "culvert platform not found even with CULVERT_EMPTY_PLATFORM=1\n");
        return 1;
    }
    const cl_icd_dispatch *d = *(const cl_icd_dispatch *const *)p;
    cl_mem wrong_mem = (cl_mem)p;
    cl_context wrong_ctx = (cl_context)p;
    cl_command_queue wrong_q = (cl_command_queue)p;
    cl_int err = 0;
    char host[64] = {0};
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};
    cl_uint pattern = 0;

    /* clCreateBuffer / WithProperties: "CL_INVALID_CONTEXT if context is not a valid context." */
    err = 0;
    CHECK(d->clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_CONTEXT, err);
    err = 0;
    CHECK(d->clCreateBuffer(wrong_ctx, CL_MEM_READ_WRITE, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_CONTEXT, err);
    CHECK(d->clCreateBuffer(NULL, 0, 64, NULL, NULL) == NULL); /* errcode_ret may be NULL */
    err = 0;
    CHECK(d->clCreateBufferWithProperties(NULL, NULL, 0, 64, NULL, &err) == NULL);
    CHECK_ERR(CL_INVALID_CONTEXT, err);
    /* through the loader as well */
    err = 0;
    CHECK(clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err) == NULL);
    CHECK(err != CL_SUCCESS);

    /* Sub-buffers: "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object" */
    cl_buffer_region r = {0, 16};
    err = 0;
    CHECK(d->clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
    CHECK_ERR(CL_INVALID_MEM_OBJECT, err);
    err = 0;
    CHECK(d->clCreateSubBuffer(wrong_mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
    CHECK_ERR(CL_INVALID_MEM_OBJECT, err);

    /* references, queries, callbacks */
    CHECK_ERR(CL_INVALID_MEM_OBJECT, d->clRetainMemObject(NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, d->clReleaseMemObject(NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, d->clRetainMemObject(wrong_mem));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, d->clReleaseMemObject(wrong_mem));
    size_t size = 0;
    CHECK_ERR(CL_INVALID_MEM_OBJECT,
              d->clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT,
              d->clGetMemObjectInfo(wrong_mem, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT,
              d->clGetMemObjectInfo(wrong_mem, CL_MEM_IS_HOST_VALUE_CULVERT, 4, &pattern, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT, d->clSetMemObjectDestructorCallback(NULL, never_called, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT,
              d->clSetMemObjectDestructorCallback(wrong_mem, never_called, NULL));

    /* Commands: "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
     * command-queue." (before anything else is looked at) */
    for (int i = 0; i < 2; i++) {
        cl_command_queue q = i ? wrong_q : NULL;
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueReadBuffer(q, wrong_mem, CL_TRUE, 0, 4, host, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueWriteBuffer(q, wrong_mem, CL_TRUE, 0, 4, host, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueCopyBuffer(q, wrong_mem, wrong_mem, 0, 8, 4, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueReadBufferRect(q, wrong_mem, CL_TRUE, origin, origin, region, 0, 0, 0,
                                             0, host, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueWriteBufferRect(q, wrong_mem, CL_TRUE, origin, origin, region, 0, 0,
                                              0, 0, host, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueCopyBufferRect(q, wrong_mem, wrong_mem, origin, origin, region, 0, 0,
                                             0, 0, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueFillBuffer(q, wrong_mem, &pattern, 4, 0, 4, 0, NULL, NULL));
        err = 0;
        CHECK(d->clEnqueueMapBuffer(q, wrong_mem, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL,
                                    &err) == NULL);
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, err);
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueUnmapMemObject(q, wrong_mem, host, 0, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  d->clEnqueueMigrateMemObjects(q, 1, &wrong_mem, 0, 0, NULL, NULL));
    }
    return cv_test_report("mem_validation");
}
