/* cl_culvert_host_value without a GPU: the functions are found by name, their prototypes agree
 * with the header's types, and bad handles get the extension's errors (never a crash). */
#define CL_CULVERT_PROTOTYPES
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>

/* The opt-in prototypes and the _fn types describe the same functions (checked at compile time:
 * _Generic does not evaluate, so nothing is linked). */
#define SAME_TYPE(fn) _Generic(&fn, fn##_fn : 1, default : 0)
_Static_assert(SAME_TYPE(clCreateHostValue) && SAME_TYPE(clSignalHostValue) &&
                   SAME_TYPE(clLoadHostValue) && SAME_TYPE(clResetHostValue) &&
                   SAME_TYPE(clEnqueueWaitHostValue) && SAME_TYPE(clEnqueueWriteHostValue),
               "cl_culvert.h: prototypes and _fn types differ");

/* The enums stay inside culvert's provisional block of 16. */
#define IN_BLOCK(v) ((v) >= CL_CULVERT_ENUM_BASE && (v) < CL_CULVERT_ENUM_BASE + 16)
_Static_assert(IN_BLOCK(CL_HOST_VALUE_GEQ_CULVERT) && IN_BLOCK(CL_HOST_VALUE_EQ_CULVERT) &&
                   IN_BLOCK(CL_HOST_VALUE_AND_CULVERT) && IN_BLOCK(CL_HOST_VALUE_NOR_CULVERT) &&
                   IN_BLOCK(CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT) &&
                   IN_BLOCK(CL_MEM_IS_HOST_VALUE_CULVERT) &&
                   IN_BLOCK(CL_COMMAND_WAIT_HOST_VALUE_CULVERT) &&
                   IN_BLOCK(CL_COMMAND_WRITE_HOST_VALUE_CULVERT),
               "cl_culvert_host_value enums outside the culvert block");

/* An object of another ICD: a dispatch pointer that is not culvert's, then anything. */
static struct {
    void *dispatch;
    uint64_t junk[8];
} foreign = {(void *)&foreign, {0}};

int main(void) {
    setenv("CULVERT_EMPTY_PLATFORM", "1", 1);
    cl_platform_id p = cv_test_culvert_platform();
    REQUIRE(p != NULL);

    clCreateHostValue_fn create = (clCreateHostValue_fn)cv_test_ext_fn(p, "clCreateHostValue");
    clSignalHostValue_fn signal = (clSignalHostValue_fn)cv_test_ext_fn(p, "clSignalHostValue");
    clLoadHostValue_fn load = (clLoadHostValue_fn)cv_test_ext_fn(p, "clLoadHostValue");
    clResetHostValue_fn reset = (clResetHostValue_fn)cv_test_ext_fn(p, "clResetHostValue");
    clEnqueueWaitHostValue_fn enqueue_wait =
        (clEnqueueWaitHostValue_fn)cv_test_ext_fn(p, "clEnqueueWaitHostValue");
    clEnqueueWriteHostValue_fn enqueue_write =
        (clEnqueueWriteHostValue_fn)cv_test_ext_fn(p, "clEnqueueWriteHostValue");

    /* clCreateHostValue: "CL_INVALID_CONTEXT if context is not a valid context" */
    cl_int err = CL_SUCCESS;
    CHECK(create(NULL, 1, &err) == NULL);
    CHECK(err == CL_INVALID_CONTEXT);
    err = CL_SUCCESS;
    CHECK(create((cl_context)p, 1, &err) == NULL); /* a culvert object of another type */
    CHECK(err == CL_INVALID_CONTEXT);
    err = CL_SUCCESS;
    CHECK(create((cl_context)&foreign, 1, &err) == NULL);
    CHECK(err == CL_INVALID_CONTEXT);
    CHECK(create(NULL, 1, NULL) == NULL); /* errcode_ret may be NULL */

    /* "CL_INVALID_MEM_OBJECT if host_value is not a valid host value" */
    cl_mem bad[] = {NULL, (cl_mem)p, (cl_mem)&foreign};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cl_ulong v = 99;
        CHECK_ERR(CL_INVALID_MEM_OBJECT, signal(bad[i], 1));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, load(bad[i], &v));
        CHECK(v == 99); /* nothing written on an error */
        CHECK_ERR(CL_INVALID_MEM_OBJECT, load(bad[i], NULL));
        CHECK_ERR(CL_INVALID_MEM_OBJECT, reset(bad[i]));
    }
    CHECK(foreign.dispatch == (void *)&foreign && foreign.junk[0] == 0); /* left alone */

    /* "CL_INVALID_COMMAND_QUEUE if queue is not a valid command-queue" (checked first) */
    cl_event ev = NULL;
    cl_command_queue bad_queues[] = {NULL, (cl_command_queue)p, (cl_command_queue)&foreign};
    for (size_t i = 0; i < sizeof bad_queues / sizeof bad_queues[0]; i++) {
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  enqueue_wait(bad_queues[i], NULL, 1, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, &ev));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE,
                  enqueue_wait(bad_queues[i], NULL, 1, 0x1234, 1, NULL, NULL));
        CHECK_ERR(CL_INVALID_COMMAND_QUEUE, enqueue_write(bad_queues[i], NULL, 1, 0, NULL, &ev));
    }
    CHECK(ev == NULL); /* no event handed out on an error */

    return cv_test_report("host_value_validation");
}
