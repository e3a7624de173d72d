/* cv-conformance: the framework every section shares. A case is a function that gets a fresh
 * context and in-order queue on the chosen device; its checks count, and one failed check fails
 * the case. Cases never pass freed handles: invalid-object checks use NULL or an object of the
 * wrong type (its dispatch pointer leads the loader to the same platform, which must reject it). */
#ifndef CT_H
#define CT_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_culvert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ct_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue q;
    const char *platform_name;
} ct_env;

typedef void (*ct_fn)(ct_env *e);

typedef struct ct_case {
    const char *name;
    ct_fn fn;
} ct_case;

typedef struct ct_section {
    const char *name;
    const ct_case *cases;
    size_t count;
} ct_section;

#define CT_SECTION(sym, label, table)                                                              \
    const ct_section sym = {label, table, sizeof(table) / sizeof(table[0])}

/* State of the running case (one process runs one case at a time). */
extern int ct_checks;
extern int ct_failures;
extern const char *ct_skip_reason;
extern int ct_report_fd; /* where failure messages go (the runner's pipe) */

void ct_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define CT_CHECK(cond)                                                                             \
    do {                                                                                           \
        ct_checks++;                                                                               \
        if (!(cond))                                                                               \
            ct_fail(__FILE__, __LINE__, "check failed: %s", #cond);                                \
    } while (0)

/* CT_ERR(expected, expr): expr is a cl_int that must equal expected. */
#define CT_ERR(expected, expr)                                                                     \
    do {                                                                                           \
        cl_int ct_got_ = (cl_int)(expr);                                                           \
        ct_checks++;                                                                               \
        if (ct_got_ != (cl_int)(expected))                                                         \
            ct_fail(__FILE__, __LINE__, "%s returned %s (%d), expected %s", #expr,                 \
                    ct_err_name(ct_got_), (int)ct_got_, #expected);                                \
    } while (0)

/* CT_ERR2(a, b, expr): the spec allows either code. */
#define CT_ERR2(a, b, expr)                                                                        \
    do {                                                                                           \
        cl_int ct_got_ = (cl_int)(expr);                                                           \
        ct_checks++;                                                                               \
        if (ct_got_ != (cl_int)(a) && ct_got_ != (cl_int)(b))                                      \
            ct_fail(__FILE__, __LINE__, "%s returned %s (%d), expected %s or %s", #expr,           \
                    ct_err_name(ct_got_), (int)ct_got_, #a, #b);                                   \
    } while (0)

/* CT_REQUIRE(cond): like CT_CHECK, but ends the case (failed) when cond does not hold. */
#define CT_REQUIRE(cond)                                                                           \
    do {                                                                                           \
        ct_checks++;                                                                               \
        if (!(cond)) {                                                                             \
            ct_fail(__FILE__, __LINE__, "requirement failed: %s", #cond);                          \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* CT_REQUIRE_OK(expr): a call that must succeed for the case to go on. */
#define CT_REQUIRE_OK(expr)                                                                        \
    do {                                                                                           \
        cl_int ct_got_ = (cl_int)(expr);                                                           \
        ct_checks++;                                                                               \
        if (ct_got_ != CL_SUCCESS) {                                                               \
            ct_fail(__FILE__, __LINE__, "%s returned %s (%d)", #expr, ct_err_name(ct_got_),        \
                    (int)ct_got_);                                                                 \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CT_SKIP(reason)                                                                            \
    do {                                                                                           \
        ct_skip_reason = (reason);                                                                 \
        return;                                                                                    \
    } while (0)

const char *ct_err_name(cl_int err);

/* Device and platform queries (0 / empty on failure, which the caller's checks then catch). */
cl_ulong ct_dev_ulong(cl_device_id d, cl_device_info p);
cl_uint ct_dev_uint(cl_device_id d, cl_device_info p);
size_t ct_dev_size(cl_device_id d, cl_device_info p);
cl_bitfield ct_dev_bits(cl_device_id d, cl_device_info p);
/* Returns a malloc'ed string (never NULL). */
char *ct_dev_str(cl_device_id d, cl_device_info p);
char *ct_plat_str(cl_platform_id p, cl_platform_info i);
/* Whether a space-separated extension list holds name exactly. */
bool ct_list_has(const char *list, const char *name);
bool ct_dev_has_ext(cl_device_id d, const char *name);
bool ct_plat_has_ext(cl_platform_id p, const char *name);
/* An optional OpenCL C 3.0 feature (__opencl_c_...) in CL_DEVICE_OPENCL_C_FEATURES. */
bool ct_dev_has_c_feature(cl_device_id d, const char *name);
/* A cl_bool query: CL_TRUE (false when it fails). */
bool ct_dev_bool(cl_device_id d, cl_device_info p);
/* A cl_bool query that mirrors an optional OpenCL C feature: a cl_bool, CL_TRUE exactly when
 * CL_DEVICE_OPENCL_C_FEATURES lists `feature`. */
void ct_check_feature_query(ct_env *e, cl_device_info param, const char *feature);
/* OpenCL C 3.0 in CL_DEVICE_OPENCL_C_ALL_VERSIONS (programs may use -cl-std=CL3.0). */
bool ct_dev_has_c30(cl_device_id d);
bool ct_compiler(const ct_env *e);

/* Builds source for e->device; on failure records it with the build log and returns NULL. */
cl_program ct_build(ct_env *e, const char *src, const char *options);
/* Creates a kernel of a built program, or records the failure and returns NULL. */
cl_kernel ct_kernel(cl_program p, const char *name);
cl_mem ct_buffer(ct_env *e, cl_mem_flags flags, size_t size, void *host);
/* A second context on the same device (for mismatched-context checks). */
cl_context ct_other_context(ct_env *e);
/* Polls an int until it is nonzero or timeout_ms passes; returns its last value. */
int ct_wait_flag(volatile int *flag, int timeout_ms);
double ct_now_s(void);
void ct_sleep_ms(int ms);

/* The sections (each in its own file). */
extern const ct_section ct_platform_section, ct_device_section, ct_context_section,
    ct_queue_section, ct_buffer_section, ct_program_section, ct_kernel_section, ct_enqueue_section,
    ct_event_section, ct_profiling_section, ct_extensions_section, ct_host_value_section,
    ct_atomics_section, ct_subgroup_ext_section, ct_work_group_section,
    ct_generic_address_space_section, ct_builtins_section, ct_svm_section, ct_image_section;

#endif
