/* Section 4.1 of the OpenCL 3.0 API: querying platform info. */
#include "ct.h"

static void get_ids(ct_env *e) {
    cl_uint n = 0;
    CT_ERR(CL_SUCCESS, clGetPlatformIDs(0, NULL, &n));
    CT_CHECK(n >= 1);
    /* "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if both
     * num_platforms and platforms are NULL." */
    cl_platform_id p = NULL;
    CT_ERR(CL_INVALID_VALUE, clGetPlatformIDs(0, &p, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetPlatformIDs(1, NULL, NULL));
    cl_platform_id *all = calloc(n, sizeof(*all));
    cl_uint n2 = 0;
    CT_ERR(CL_SUCCESS, clGetPlatformIDs(n, all, &n2));
    CT_CHECK(n2 == n);
    bool found = false;
    for (cl_uint i = 0; i < n; i++)
        found |= all[i] == e->platform;
    CT_CHECK(found);
    free(all);
}

static void info_strings(ct_env *e) {
    static const cl_platform_info params[] = {CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION,
                                              CL_PLATFORM_NAME, CL_PLATFORM_VENDOR,
                                              CL_PLATFORM_EXTENSIONS};
    for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
        size_t n = 0;
        CT_ERR(CL_SUCCESS, clGetPlatformInfo(e->platform, params[i], 0, NULL, &n));
        CT_CHECK(n >= 1);
        char *s = calloc(n, 1);
        size_t n2 = 0;
        CT_ERR(CL_SUCCESS, clGetPlatformInfo(e->platform, params[i], n, s, &n2));
        CT_CHECK(n2 == n);
        CT_CHECK(strlen(s) + 1 == n);
        free(s);
    }
    char *profile = ct_plat_str(e->platform, CL_PLATFORM_PROFILE);
    CT_CHECK(!strcmp(profile, "FULL_PROFILE") || !strcmp(profile, "EMBEDDED_PROFILE"));
    free(profile);
}

static void version(ct_env *e) {
    /* "OpenCL<space><major_version.minor_version><space><platform-specific information>" */
    char *v = ct_plat_str(e->platform, CL_PLATFORM_VERSION);
    int major = 0, minor = 0;
    CT_CHECK(sscanf(v, "OpenCL %d.%d ", &major, &minor) == 2);
    cl_version num = 0;
    cl_int err =
        clGetPlatformInfo(e->platform, CL_PLATFORM_NUMERIC_VERSION, sizeof(num), &num, NULL);
    if (major >= 3) {
        CT_ERR(CL_SUCCESS, err);
        CT_CHECK(CL_VERSION_MAJOR(num) == (cl_uint)major);
        CT_CHECK(CL_VERSION_MINOR(num) == (cl_uint)minor);
    }
    free(v);
}

static void extensions_with_version(ct_env *e) {
    char *ext = ct_plat_str(e->platform, CL_PLATFORM_EXTENSIONS);
    size_t n = 0;
    CT_REQUIRE_OK(clGetPlatformInfo(e->platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &n));
    CT_CHECK(n % sizeof(cl_name_version) == 0);
    cl_name_version *nv = malloc(n + 1);
    CT_REQUIRE_OK(clGetPlatformInfo(e->platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n, nv, NULL));
    size_t count = n / sizeof(cl_name_version);
    for (size_t i = 0; i < count; i++)
        CT_CHECK(ct_list_has(ext, nv[i].name));
    /* Every name of the string is in the versioned list. */
    size_t words = 0;
    for (char *tok = strtok(ext, " "); tok; tok = strtok(NULL, " "))
        words++;
    CT_CHECK(words == count);
    free(nv);
    free(ext);
}

static void info_errors(ct_env *e) {
    char small[2];
    /* "CL_INVALID_VALUE if param_name is not one of the supported values or if size in bytes
     * specified by param_value_size is less than size of return type and param_value is not a
     * NULL value." */
    CT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(e->platform, CL_PLATFORM_NAME, 1, small, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(e->platform, 0x7fff, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clGetPlatformInfo(e->platform, CL_DEVICE_NAME, 0, NULL, NULL));
    cl_ulong res = 0;
    CT_ERR(CL_INVALID_VALUE,
           clGetPlatformInfo(e->platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, 4, &res, NULL));
    /* "CL_INVALID_PLATFORM if platform is not a valid platform." (an object of another type) */
    CT_ERR(CL_INVALID_PLATFORM,
           clGetPlatformInfo((cl_platform_id)e->ctx, CL_PLATFORM_NAME, 0, NULL, NULL));
}

static void host_timer(ct_env *e) {
    cl_ulong res = 1;
    CT_REQUIRE_OK(
        clGetPlatformInfo(e->platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(res), &res, NULL));
    cl_ulong h1 = 0, h2 = 0, d1 = 0, d2 = 0;
    if (res == 0) {
        /* "CL_INVALID_OPERATION if the platform associated with device does not support device
         * and host timer synchronization." (a resolution of 0 says it does not) */
        CT_ERR(CL_INVALID_OPERATION, clGetHostTimer(e->device, &h1));
        CT_ERR(CL_INVALID_OPERATION, clGetDeviceAndHostTimer(e->device, &d1, &h1));
        return;
    }
    CT_ERR(CL_SUCCESS, clGetHostTimer(e->device, &h1));
    CT_ERR(CL_SUCCESS, clGetDeviceAndHostTimer(e->device, &d1, &h2));
    CT_ERR(CL_SUCCESS, clGetDeviceAndHostTimer(e->device, &d2, &h2));
    CT_CHECK(h2 >= h1);
    CT_CHECK(d2 >= d1);
    /* "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL." */
    CT_ERR(CL_INVALID_VALUE, clGetDeviceAndHostTimer(e->device, NULL, &h1));
    CT_ERR(CL_INVALID_VALUE, clGetDeviceAndHostTimer(e->device, &d1, NULL));
    /* "CL_INVALID_VALUE if host_timestamp is NULL." */
    CT_ERR(CL_INVALID_VALUE, clGetHostTimer(e->device, NULL));
    /* "CL_INVALID_DEVICE if device is not a valid device." */
    CT_ERR(CL_INVALID_DEVICE, clGetHostTimer((cl_device_id)e->ctx, &h1));
}

static void extension_address(ct_env *e) {
    /* An unknown name gives NULL. */
    CT_CHECK(clGetExtensionFunctionAddressForPlatform(e->platform, "clNoSuchFunctionCT") == NULL);
    if (ct_plat_has_ext(e->platform, "cl_khr_icd")) {
        char *suffix = ct_plat_str(e->platform, CL_PLATFORM_ICD_SUFFIX_KHR);
        CT_CHECK(suffix[0] != 0);
        free(suffix);
    }
}

static void unload_compiler(ct_env *e) {
    CT_ERR(CL_SUCCESS, clUnloadPlatformCompiler(e->platform));
    /* "CL_INVALID_PLATFORM if platform is not a valid platform." */
    CT_ERR(CL_INVALID_PLATFORM, clUnloadPlatformCompiler((cl_platform_id)e->q));
    /* A build after unloading still works (the compiler is loaded again on demand). */
    if (ct_compiler(e)) {
        cl_program p = ct_build(e, "kernel void k(global int *a) { a[0] = 1; }", NULL);
        if (p)
            clReleaseProgram(p);
    }
}

static const ct_case cases[] = {
    {"get_ids", get_ids},
    {"info_strings", info_strings},
    {"version", version},
    {"extensions_with_version", extensions_with_version},
    {"info_errors", info_errors},
    {"host_timer", host_timer},
    {"extension_address", extension_address},
    {"unload_compiler", unload_compiler},
};
CT_SECTION(ct_platform_section, "platform", cases);
