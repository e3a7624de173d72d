#include "test_util.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

_Atomic int cv_test_failures;
_Atomic int cv_test_checks;

int cv_test_fake_cuda(void) {
    const char *v = getenv("CV_FAKE_CUDA");
    return v && *v && strcmp(v, "0") != 0;
}

double cv_test_limit_s(double seconds) {
    return cv_test_fake_cuda() ? 10 * seconds : seconds;
}

cl_platform_id cv_test_culvert_platform(void) {
    cl_platform_id found = NULL, platforms[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        n = 0;
    for (cl_uint i = 0; i < n && i < 16 && !found; i++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, "culvert") == 0)
            found = platforms[i];
    }
    return found;
}

cl_device_id cv_test_gpu_device_or_skip(cl_platform_id *platform_out) {
    cl_platform_id p = cv_test_culvert_platform();
    cl_device_id d = NULL;
    cl_uint n = 0;
    if (!p || clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, &n) != CL_SUCCESS || n == 0) {
        fprintf(stderr, "no culvert GPU device: skipped\n");
        exit(CV_TEST_SKIP);
    }
    if (platform_out)
        *platform_out = p;
    return d;
}

/* CV_EXPECT_UNRECOVERABLE=1 (with a fake driver that refuses every recovery): the device must be
 * unavailable, and a second clCreateContext must answer CL_DEVICE_NOT_AVAILABLE at once, without
 * trying to recover again; the test ends there. */
static void cv_test_expect_unrecoverable(cl_device_id dev, cl_int err) {
    cl_bool available = CL_TRUE;
    CHECK(err == CL_DEVICE_NOT_AVAILABLE);
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL) ==
              CL_SUCCESS &&
          available == CL_FALSE);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cl_int again = CL_SUCCESS;
    cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &again);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(c == NULL && again == CL_DEVICE_NOT_AVAILABLE);
    CHECK(took < cv_test_limit_s(0.05)); /* no recovery tries (they pause 0.5 s) */
    printf("unrecoverable: clCreateContext answered %d, then %d in %.1f ms\n", (int)err, (int)again,
           took * 1e3);
    exit(cv_test_report("unrecoverable"));
}

void cv_test_skip_if_unrecoverable(cl_device_id dev, cl_int err) {
    cl_bool available = CL_TRUE;
    if (getenv("CV_EXPECT_UNRECOVERABLE") && err != CL_SUCCESS)
        cv_test_expect_unrecoverable(dev, err);
    if (err != CL_DEVICE_NOT_AVAILABLE || getenv("CV_FAKE_CUDA") ||
        clGetDeviceInfo(dev, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL) !=
            CL_SUCCESS ||
        available)
        return;
    printf("the driver keeps the fault for this process: the device reports itself unavailable "
           "and clCreateContext CL_DEVICE_NOT_AVAILABLE (CULVERT_LOG=error says why): the rest "
           "skipped\n");
    exit(CV_TEST_SKIP);
}

int cv_test_report(const char *name) {
    printf("%s: %d checks, %d failed\n", name, cv_test_checks, cv_test_failures);
    return cv_test_failures ? 1 : 0;
}

void *cv_test_ext_fn(cl_platform_id platform, const char *name) {
    void *fn = clGetExtensionFunctionAddressForPlatform(platform, name);
    if (!fn) {
        fprintf(stderr, "extension function %s not found\n", name);
        exit(1);
    }
    return fn;
}

cl_mem cv_test_buffer(cl_context ctx, size_t size, const void *init) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                              (void *)init, &err);
    if (!m || err != CL_SUCCESS) {
        fprintf(stderr, "clCreateBuffer(%zu bytes) failed: %d\n", size, err);
        exit(1);
    }
    return m;
}

cl_context cv_test_context(cl_device_id dev, cl_command_queue *q) {
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(ctx != NULL);
    *q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(*q != NULL);
    return ctx;
}

void cv_test_check_profiled(cl_event e) {
    cl_ulong start = 0, end = 0;
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    CHECK_ERR(CL_SUCCESS,
              clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK_ERR(CL_SUCCESS,
              clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    CHECK(start > 0 && start <= end);
    clReleaseEvent(e);
}

cl_program cv_test_build(cl_context ctx, cl_device_id dev, cl_uint count, const char **sources,
                         const char *options, const char *what, cl_int *err) {
    cl_program p = clCreateProgramWithSource(ctx, count, sources, NULL, err);
    if (*err == CL_SUCCESS)
        *err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (p && *err != CL_SUCCESS) {
        static char log[1 << 16];
        log[0] = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s: build failed (%d):\n%s\n", what, *err, log);
    }
    return p;
}

int cv_test_has_c_feature(cl_device_id dev, const char *name, cl_version version) {
    static cl_name_version f[256];
    size_t size = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof f, f, &size) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < size / sizeof *f; i++)
        if (!strcmp(f[i].name, name) && (!version || f[i].version == version))
            return 1;
    return 0;
}

uint64_t cv_test_xorshift(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

void cv_test_rect_copy(unsigned char *dst, const size_t dst_origin[3], size_t dst_row_pitch,
                       size_t dst_slice_pitch, const unsigned char *src, const size_t src_origin[3],
                       size_t src_row_pitch, size_t src_slice_pitch, const size_t region[3]) {
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(dst + (dst_origin[2] + z) * dst_slice_pitch +
                       (dst_origin[1] + y) * dst_row_pitch + dst_origin[0],
                   src + (src_origin[2] + z) * src_slice_pitch +
                       (src_origin[1] + y) * src_row_pitch + src_origin[0],
                   region[0]);
}

cv_test_slots cv_test_slots_new(unsigned count, size_t size) {
    cv_test_slots s = {malloc(count * size), size, count, 0};
    REQUIRE(s.base != NULL);
    return s;
}

unsigned char *cv_test_slot(cv_test_slots *s, cl_command_queue q) {
    if (s->used == s->count) {
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        s->used = 0;
    }
    return s->base + s->used++ * s->size;
}

void cv_test_slots_free(cv_test_slots *s) {
    free(s->base);
    s->base = NULL;
}

bool cv_test_same_bytes(const void *got, const void *want, size_t n, const char *fmt, ...) {
    const unsigned char *g = got, *w = want;
    size_t k = 0;
    while (k < n && g[k] == w[k])
        k++;
    CHECK(k == n);
    if (k < n) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, ": byte %zu of %zu is 0x%02x, the model's 0x%02x\n", k, n, g[k], w[k]);
    }
    return k == n;
}
