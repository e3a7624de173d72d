/* Section 4.4 of the OpenCL 3.0 API: contexts. */
#include "ct.h"

static void notify(const char *errinfo, const void *info, size_t cb, void *user) {
    (void)errinfo, (void)info, (void)cb, (void)user;
}

static void create(ct_env *e) {
    cl_int err = 1;
    cl_context c = clCreateContext(NULL, 1, &e->device, notify, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(c != NULL);
    cl_uint n = 0;
    CT_ERR(CL_SUCCESS, clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, NULL));
    CT_CHECK(n == 1);
    cl_device_id d = NULL;
    size_t size = 0;
    CT_ERR(CL_SUCCESS, clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(d), &d, &size));
    CT_CHECK(d == e->device && size == sizeof(d));
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS, clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == 1);
    /* CL_CONTEXT_PROPERTIES: with NULL properties, "may return a param_value_size_ret of 0"
     * or a list holding only the terminating 0. */
    CT_ERR(CL_SUCCESS, clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &size));
    CT_CHECK(size == 0 || size == sizeof(cl_context_properties));
    CT_ERR(CL_SUCCESS, clReleaseContext(c));
    /* errcode_ret may be NULL. */
    c = clCreateContext(NULL, 1, &e->device, NULL, NULL, NULL);
    CT_CHECK(c != NULL);
    if (c)
        clReleaseContext(c);
}

static void properties(ct_env *e) {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)e->platform, 0};
    cl_int err = 1;
    cl_context c = clCreateContext(props, 1, &e->device, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(c != NULL);
    cl_context_properties got[3] = {0};
    size_t size = 0;
    CT_ERR(CL_SUCCESS, clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof(got), got, &size));
    CT_CHECK(size == sizeof(props));
    CT_CHECK(!memcmp(got, props, sizeof(props)));
    clReleaseContext(c);
    /* "CL_INVALID_PROPERTY if context property name in properties is not a supported property
     * name, if the value specified for a supported property name is not valid, or if the same
     * property name is specified more than once." */
    cl_context_properties bad[] = {0x7fff, 1, 0};
    c = clCreateContext(bad, 1, &e->device, NULL, NULL, &err);
    CT_ERR(CL_INVALID_PROPERTY, err);
    CT_CHECK(c == NULL);
    cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)e->platform,
                                     CL_CONTEXT_PLATFORM, (cl_context_properties)e->platform, 0};
    c = clCreateContext(twice, 1, &e->device, NULL, NULL, &err);
    CT_ERR(CL_INVALID_PROPERTY, err);
    CT_CHECK(c == NULL);
    /* CL_CONTEXT_INTEROP_USER_SYNC takes a cl_bool. */
    cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
    c = clCreateContext(sync, 1, &e->device, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (c)
        clReleaseContext(c);
}

/* "CL_INVALID_PROPERTY if ... the value specified for a supported property name is not
 * valid": CL_CONTEXT_INTEROP_USER_SYNC takes a cl_bool. */
static void property_values(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    cl_context c = clCreateContext(sync, 1, &e->device, NULL, NULL, &err);
    CT_ERR(CL_INVALID_PROPERTY, err);
    CT_CHECK(c == NULL);
    if (c)
        clReleaseContext(c);
    cl_context_properties typed[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)e->platform,
                                     CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    c = clCreateContextFromType(typed, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    CT_ERR(CL_INVALID_PROPERTY, err);
    CT_CHECK(c == NULL);
    if (c)
        clReleaseContext(c);
}

static void create_errors(ct_env *e) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if devices is NULL." */
    CT_CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_VALUE if num_devices is equal to zero." */
    CT_CHECK(clCreateContext(NULL, 0, &e->device, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL." */
    int user = 0;
    CT_CHECK(clCreateContext(NULL, 1, &e->device, NULL, &user, &err) == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
    /* "CL_INVALID_DEVICE if any device in devices is not a valid device." */
    cl_device_id null_dev = NULL;
    CT_CHECK(clCreateContext(NULL, 1, &null_dev, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_DEVICE, err);
}

static void from_type(ct_env *e) {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)e->platform, 0};
    cl_int err = 1;
    cl_context c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    CT_REQUIRE(c != NULL);
    cl_uint n = 0, all = 0;
    CT_ERR(CL_SUCCESS, clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, NULL));
    clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, 0, NULL, &all);
    CT_CHECK(n == all);
    clReleaseContext(c);
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
    CT_ERR(CL_SUCCESS, err);
    if (c)
        clReleaseContext(c);
}

/* On failure clCreateContextFromType "returns a NULL value" with the error in errcode_ret. */
static void from_type_errors(ct_env *e) {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)e->platform, 0};
    cl_int err = CL_SUCCESS;
    cl_context c = NULL;
    /* "CL_INVALID_DEVICE_TYPE if device_type is not a valid value." */
    c = clCreateContextFromType(props, (cl_device_type)1 << 20, NULL, NULL, &err);
    CT_CHECK(c == NULL);
    CT_ERR2(CL_INVALID_DEVICE_TYPE, CL_DEVICE_NOT_FOUND, err);
    /* "CL_DEVICE_NOT_FOUND if no devices that match device_type and property values specified
     * in properties are currently available." */
    cl_device_type mine = ct_dev_bits(e->device, CL_DEVICE_TYPE);
    cl_device_type other =
        (mine & CL_DEVICE_TYPE_ACCELERATOR) ? CL_DEVICE_TYPE_CUSTOM : CL_DEVICE_TYPE_ACCELERATOR;
    cl_uint have = 0;
    if (clGetDeviceIDs(e->platform, other, 0, NULL, &have) == CL_DEVICE_NOT_FOUND) {
        c = clCreateContextFromType(props, other, NULL, NULL, &err);
        CT_CHECK(c == NULL);
        CT_ERR(CL_DEVICE_NOT_FOUND, err);
    }
    /* "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL." */
    int user = 0;
    c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, &user, &err);
    CT_CHECK(c == NULL);
    CT_ERR(CL_INVALID_VALUE, err);
}

static void refcount(ct_env *e) {
    cl_uint refs = 0;
    CT_ERR(CL_SUCCESS, clRetainContext(e->ctx));
    CT_ERR(CL_SUCCESS,
           clGetContextInfo(e->ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs >= 2);
    cl_uint before = refs;
    CT_ERR(CL_SUCCESS, clReleaseContext(e->ctx));
    CT_ERR(CL_SUCCESS,
           clGetContextInfo(e->ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, NULL));
    CT_CHECK(refs == before - 1);
    /* "CL_INVALID_CONTEXT if context is not a valid OpenCL context." */
    CT_ERR(CL_INVALID_CONTEXT, clRetainContext(NULL));
    CT_ERR(CL_INVALID_CONTEXT, clReleaseContext(NULL));
    CT_ERR(CL_INVALID_CONTEXT,
           clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, sizeof(refs), &refs, NULL));
}

static void info_errors(ct_env *e) {
    cl_uint n = 0;
    /* "CL_INVALID_VALUE if param_name is not one of the supported values or if size in bytes
     * specified by param_value_size is less than size of return type and param_value is not a
     * NULL value." */
    CT_ERR(CL_INVALID_VALUE, clGetContextInfo(e->ctx, 0x7fff, sizeof(n), &n, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetContextInfo(e->ctx, CL_CONTEXT_NUM_DEVICES, 1, &n, NULL));
    cl_device_id d;
    CT_ERR(CL_INVALID_VALUE, clGetContextInfo(e->ctx, CL_CONTEXT_DEVICES, 1, &d, NULL));
}

static volatile int destructor_calls;
static void destructor(cl_context c, void *user) {
    (void)c;
    __atomic_add_fetch((volatile int *)user, 1, __ATOMIC_RELEASE);
}

static void destructor_callback(ct_env *e) {
    cl_int err = CL_SUCCESS;
    cl_context c = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
    CT_REQUIRE(c != NULL);
    /* "CL_INVALID_VALUE if pfn_notify is NULL." */
    CT_ERR(CL_INVALID_VALUE, clSetContextDestructorCallback(c, NULL, NULL));
    destructor_calls = 0;
    CT_ERR(CL_SUCCESS, clSetContextDestructorCallback(c, destructor, (void *)&destructor_calls));
    CT_CHECK(destructor_calls == 0);
    CT_ERR(CL_SUCCESS, clReleaseContext(c));
    CT_CHECK(ct_wait_flag(&destructor_calls, 2000) == 1);
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_ERR(CL_INVALID_CONTEXT,
           clSetContextDestructorCallback(NULL, destructor, (void *)&destructor_calls));
}

static void wrong_type_handles(ct_env *e) {
    cl_uint n = 0;
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    CT_ERR(CL_INVALID_CONTEXT,
           clGetContextInfo((cl_context)e->q, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, NULL));
    CT_ERR(CL_INVALID_CONTEXT, clRetainContext((cl_context)e->q));
    /* "CL_INVALID_DEVICE if any device in devices is not a valid device." */
    cl_device_id wrong = (cl_device_id)e->ctx;
    CT_CHECK(clCreateContext(NULL, 1, &wrong, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_DEVICE, err);
    /* "CL_INVALID_PLATFORM if properties is NULL and no platform could be selected or if
     * platform value specified in properties is not a valid platform." */
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)e->ctx, 0};
    CT_CHECK(clCreateContext(props, 1, &e->device, NULL, NULL, &err) == NULL);
    CT_ERR(CL_INVALID_PLATFORM, err);
}

static const ct_case cases[] = {
    {"create", create},
    {"properties", properties},
    {"property_values", property_values},
    {"create_errors", create_errors},
    {"from_type", from_type},
    {"from_type_errors", from_type_errors},
    {"refcount", refcount},
    {"info_errors", info_errors},
    {"destructor_callback", destructor_callback},
    {"wrong_type_handles", wrong_type_handles},
};
CT_SECTION(ct_context_section, "context", cases);
