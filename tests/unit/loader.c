/* ocl-icd loads culvert. Without a GPU culvert shows no platform (unless
 * CULVERT_EMPTY_PLATFORM=1); with one, the platform answers its queries. Either way no crash. */
#include "test_util.h"

#include <string.h>

int main(void) {
    cl_platform_id p = cv_test_culvert_platform();
    cl_uint ndev = 0;
    if (p) {
        char name[64] = "", version[128] = "", suffix[16] = "";
        CHECK_ERR(CL_SUCCESS, clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL));
        CHECK(strcmp(name, "culvert") == 0);
        CHECK_ERR(CL_SUCCESS,
                  clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof version, version, NULL));
        CHECK(strncmp(version, "OpenCL 3.0 ", 11) == 0);
        CHECK_ERR(CL_SUCCESS,
                  clGetPlatformInfo(p, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof suffix, suffix, NULL));
        CHECK(strlen(suffix) > 0);
        cl_version numeric = 0;
        CHECK_ERR(CL_SUCCESS, clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric,
                                                &numeric, NULL));
        CHECK(numeric == CL_MAKE_VERSION(3, 0, 0));
        /* "CL_INVALID_VALUE if param_name is not one of the supported values" */
        CHECK_ERR(CL_INVALID_VALUE, clGetPlatformInfo(p, 0x7fff, sizeof name, name, NULL));
        /* "... or if size in bytes specified by param_value_size is < size of return type" */
        CHECK_ERR(CL_INVALID_VALUE, clGetPlatformInfo(p, CL_PLATFORM_NAME, 2, name, NULL));
        cl_int e = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
        CHECK(e == CL_SUCCESS || e == CL_DEVICE_NOT_FOUND);
        /* the host value extension's functions are found by name */
        CHECK(clGetExtensionFunctionAddressForPlatform(p, "clCreateHostValue") != NULL);
        CHECK(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionCV") == NULL);
    }
    printf("culvert platform %s, %u device(s)\n", p ? "present" : "absent", ndev);
    return cv_test_report("loader");
}
