#include "test_util.h"

#include <string.h>

int cv_test_failures;
int cv_test_checks;

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
