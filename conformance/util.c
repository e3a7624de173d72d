/* cv-conformance helpers: check bookkeeping, queries, building, small utilities. */
#include "ct.h"

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

int ct_checks;
int ct_failures;
const char *ct_skip_reason;
int ct_report_fd = -1;

void ct_fail(const char *file, int line, const char *fmt, ...) {
    ct_failures++;
    char msg[6144];
    int len = snprintf(msg, sizeof(msg), "    %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - (size_t)len - 1, fmt, ap);
    va_end(ap);
    if (ct_report_fd < 0) {
        fprintf(stderr, "%s\n", msg);
        return;
    }
    /* To the runner, as one line ("M text", newlines as \x01), so it prints in order. */
    for (char *c = msg; *c; c++)
        if (*c == '\n')
            *c = '\x01';
    size_t len2 = strlen(msg);
    char out[6160] = "M ";
    memcpy(out + 2, msg, len2);
    out[2 + len2] = '\n';
    if (write(ct_report_fd, out, len2 + 3) < 0)
        _exit(3);
}

const char *ct_err_name(cl_int err) {
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
#define N(x) {x, #x}
        N(CL_SUCCESS),
        N(CL_DEVICE_NOT_FOUND),
        N(CL_DEVICE_NOT_AVAILABLE),
        N(CL_COMPILER_NOT_AVAILABLE),
        N(CL_MEM_OBJECT_ALLOCATION_FAILURE),
        N(CL_OUT_OF_RESOURCES),
        N(CL_OUT_OF_HOST_MEMORY),
        N(CL_PROFILING_INFO_NOT_AVAILABLE),
        N(CL_MEM_COPY_OVERLAP),
        N(CL_BUILD_PROGRAM_FAILURE),
        N(CL_MAP_FAILURE),
        N(CL_MISALIGNED_SUB_BUFFER_OFFSET),
        N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
        N(CL_COMPILE_PROGRAM_FAILURE),
        N(CL_LINKER_NOT_AVAILABLE),
        N(CL_LINK_PROGRAM_FAILURE),
        N(CL_DEVICE_PARTITION_FAILED),
        N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
        N(CL_INVALID_VALUE),
        N(CL_INVALID_DEVICE_TYPE),
        N(CL_INVALID_PLATFORM),
        N(CL_INVALID_DEVICE),
        N(CL_INVALID_CONTEXT),
        N(CL_INVALID_QUEUE_PROPERTIES),
        N(CL_INVALID_COMMAND_QUEUE),
        N(CL_INVALID_HOST_PTR),
        N(CL_INVALID_MEM_OBJECT),
        N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
        N(CL_INVALID_IMAGE_SIZE),
        N(CL_INVALID_SAMPLER),
        N(CL_INVALID_BINARY),
        N(CL_INVALID_BUILD_OPTIONS),
        N(CL_INVALID_PROGRAM),
        N(CL_INVALID_PROGRAM_EXECUTABLE),
        N(CL_INVALID_KERNEL_NAME),
        N(CL_INVALID_KERNEL_DEFINITION),
        N(CL_INVALID_KERNEL),
        N(CL_INVALID_ARG_INDEX),
        N(CL_INVALID_ARG_VALUE),
        N(CL_INVALID_ARG_SIZE),
        N(CL_INVALID_KERNEL_ARGS),
        N(CL_INVALID_WORK_DIMENSION),
        N(CL_INVALID_WORK_GROUP_SIZE),
        N(CL_INVALID_WORK_ITEM_SIZE),
        N(CL_INVALID_GLOBAL_OFFSET),
        N(CL_INVALID_EVENT_WAIT_LIST),
        N(CL_INVALID_EVENT),
        N(CL_INVALID_OPERATION),
        N(CL_INVALID_GL_OBJECT),
        N(CL_INVALID_BUFFER_SIZE),
        N(CL_INVALID_MIP_LEVEL),
        N(CL_INVALID_GLOBAL_WORK_SIZE),
        N(CL_INVALID_PROPERTY),
        N(CL_INVALID_IMAGE_DESCRIPTOR),
        N(CL_INVALID_COMPILER_OPTIONS),
        N(CL_INVALID_LINKER_OPTIONS),
        N(CL_INVALID_DEVICE_PARTITION_COUNT),
        N(CL_INVALID_PIPE_SIZE),
        N(CL_INVALID_DEVICE_QUEUE),
        N(CL_INVALID_SPEC_ID),
        N(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
#undef N
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].code == err)
            return names[i].name;
    return "unknown code";
}

#define DEV_SCALAR(fn, type)                                                                       \
    type fn(cl_device_id d, cl_device_info p) {                                                    \
        type v = 0;                                                                                \
        if (clGetDeviceInfo(d, p, sizeof(v), &v, NULL) != CL_SUCCESS)                              \
            v = 0;                                                                                 \
        return v;                                                                                  \
    }
DEV_SCALAR(ct_dev_ulong, cl_ulong)
DEV_SCALAR(ct_dev_uint, cl_uint)
DEV_SCALAR(ct_dev_size, size_t)
DEV_SCALAR(ct_dev_bits, cl_bitfield)

char *ct_dev_str(cl_device_id d, cl_device_info p) {
    size_t n = 0;
    char *s = NULL;
    if (clGetDeviceInfo(d, p, 0, NULL, &n) == CL_SUCCESS && n > 0) {
        s = calloc(n + 1, 1);
        if (clGetDeviceInfo(d, p, n, s, NULL) != CL_SUCCESS)
            s[0] = 0;
    }
    return s ? s : calloc(1, 1);
}

char *ct_plat_str(cl_platform_id pl, cl_platform_info i) {
    size_t n = 0;
    char *s = NULL;
    if (clGetPlatformInfo(pl, i, 0, NULL, &n) == CL_SUCCESS && n > 0) {
        s = calloc(n + 1, 1);
        if (clGetPlatformInfo(pl, i, n, s, NULL) != CL_SUCCESS)
            s[0] = 0;
    }
    return s ? s : calloc(1, 1);
}

bool ct_list_has(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *s = list; (s = strstr(s, name)) != NULL; s += n) {
        bool start = s == list || s[-1] == ' ';
        bool end = s[n] == 0 || s[n] == ' ';
        if (start && end)
            return true;
    }
    return false;
}

bool ct_dev_has_ext(cl_device_id d, const char *name) {
    char *s = ct_dev_str(d, CL_DEVICE_EXTENSIONS);
    bool has = ct_list_has(s, name);
    free(s);
    return has;
}

bool ct_plat_has_ext(cl_platform_id p, const char *name) {
    char *s = ct_plat_str(p, CL_PLATFORM_EXTENSIONS);
    bool has = ct_list_has(s, name);
    free(s);
    return has;
}

bool ct_dev_has_c_feature(cl_device_id d, const char *name) {
    size_t size = 0;
    bool has = false;
    if (clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) == CL_SUCCESS && size) {
        cl_name_version *f = malloc(size);
        if (f && clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL) == CL_SUCCESS)
            for (size_t i = 0; i < size / sizeof *f; i++)
                has |= !strcmp(f[i].name, name);
        free(f);
    }
    return has;
}

bool ct_dev_bool(cl_device_id d, cl_device_info p) {
    cl_bool b = CL_FALSE;
    return clGetDeviceInfo(d, p, sizeof b, &b, NULL) == CL_SUCCESS && b == CL_TRUE;
}

void ct_check_feature_query(ct_env *e, cl_device_info param, const char *feature) {
    cl_bool b = 7;
    size_t size = 0;
    CT_ERR(CL_SUCCESS, clGetDeviceInfo(e->device, param, sizeof(b), &b, &size));
    CT_CHECK(size == sizeof(cl_bool));
    CT_CHECK(b == CL_TRUE || b == CL_FALSE);
    CT_CHECK(ct_dev_has_c_feature(e->device, feature) == (b == CL_TRUE));
}

bool ct_dev_has_c30(cl_device_id d) {
    size_t size = 0;
    bool found = false;
    if (clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &size) != CL_SUCCESS)
        return false;
    cl_name_version *v = malloc(size ? size : 1);
    if (v && clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, size, v, NULL) == CL_SUCCESS)
        for (size_t i = 0; i < size / sizeof *v; i++)
            found = found || CL_VERSION_MAJOR(v[i].version) == 3;
    free(v);
    return found;
}

bool ct_compiler(const ct_env *e) {
    cl_bool avail = CL_FALSE;
    clGetDeviceInfo(e->device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(avail), &avail, NULL);
    return avail == CL_TRUE;
}

cl_program ct_build(ct_env *e, const char *src, const char *options) {
    cl_int err = CL_SUCCESS;
    ct_checks++;
    cl_program p = clCreateProgramWithSource(e->ctx, 1, &src, NULL, &err);
    if (!p) {
        ct_fail(__FILE__, __LINE__, "clCreateProgramWithSource returned %s", ct_err_name(err));
        return NULL;
    }
    err = clBuildProgram(p, 1, &e->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
        ct_fail(__FILE__, __LINE__, "clBuildProgram returned %s; log:\n%s", ct_err_name(err), log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

cl_kernel ct_kernel(cl_program p, const char *name) {
    cl_int err = CL_SUCCESS;
    ct_checks++;
    cl_kernel k = p ? clCreateKernel(p, name, &err) : NULL;
    if (!k)
        ct_fail(__FILE__, __LINE__, "clCreateKernel(%s) returned %s", name, ct_err_name(err));
    return k;
}

cl_mem ct_buffer(ct_env *e, cl_mem_flags flags, size_t size, void *host) {
    cl_int err = CL_SUCCESS;
    ct_checks++;
    cl_mem m = clCreateBuffer(e->ctx, flags, size, host, &err);
    if (!m)
        ct_fail(__FILE__, __LINE__, "clCreateBuffer(%zu) returned %s", size, ct_err_name(err));
    return m;
}

cl_context ct_other_context(ct_env *e) {
    cl_int err = CL_SUCCESS;
    ct_checks++;
    cl_context c = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
    if (!c)
        ct_fail(__FILE__, __LINE__, "second clCreateContext returned %s", ct_err_name(err));
    return c;
}

double ct_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ct_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int ct_wait_flag(volatile int *flag, int timeout_ms) {
    double end = ct_now_s() + timeout_ms / 1000.0;
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && ct_now_s() < end)
        ct_sleep_ms(1);
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}
