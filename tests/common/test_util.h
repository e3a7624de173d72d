/* What every culvert test program shares: assertions that count, and finding culvert. */
#ifndef CV_TEST_UTIL_H
#define CV_TEST_UTIL_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_culvert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CV_TEST_SKIP 77

/* Atomic: tests check from several threads (signal threads, callbacks). */
extern _Atomic int cv_test_failures;
extern _Atomic int cv_test_checks;

/* CHECK(cond): records a failure (with file:line and the condition) and goes on. */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        cv_test_checks++;                                                                          \
        if (!(cond)) {                                                                             \
            cv_test_failures++;                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

/* CHECK_ERR(expected, expr): expr is a cl_int that must equal expected. */
#define CHECK_ERR(expected, expr)                                                                  \
    do {                                                                                           \
        cl_int cv_got_ = (expr);                                                                   \
        cv_test_checks++;                                                                          \
        if (cv_got_ != (expected)) {                                                               \
            cv_test_failures++;                                                                    \
            fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", __FILE__, __LINE__,       \
                    #expr, (int)cv_got_, #expected, (int)(expected));                              \
        }                                                                                          \
    } while (0)

/* REQUIRE(cond): like CHECK, but ends the test (failed) when cond does not hold. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        int cv_ok_ = !!(cond); /* evaluated once */                                                \
        CHECK(cv_ok_ &&#cond);                                                                     \
        if (!cv_ok_)                                                                               \
            exit(cv_test_report(__FILE__));                                                        \
    } while (0)

/* The culvert platform, or NULL when the loader shows none (no GPU or no driver). */
cl_platform_id cv_test_culvert_platform(void);
/* The first culvert GPU device; exits with CV_TEST_SKIP (77) when there is none. */
cl_device_id cv_test_gpu_device_or_skip(cl_platform_id *platform_out);
/* After a fault, clCreateContext on dev answered err: where it is CL_DEVICE_NOT_AVAILABLE and dev
 * reports CL_DEVICE_AVAILABLE false on a real driver, the driver keeps the fault for the whole
 * process (the H100's driver 580 answers cuDevicePrimaryCtxRetain and cuCtxCreate with the
 * error): the test skips (exit 77) what needs a recovered device. The fake driver recovers. */
void cv_test_skip_if_unrecoverable(cl_device_id dev, cl_int err);
/* Prints "name: N checks, M failed" and returns the exit code (0 or 1). */
int cv_test_report(const char *name);
/* An extension function of the culvert platform, by name; exits failed if missing. */
void *cv_test_ext_fn(cl_platform_id platform, const char *name);
/* Nonzero under the fake CUDA driver (the fake.* tests set CV_FAKE_CUDA=1, tests/fake_cuda):
 * a test skips the checks that only hold on a real GPU (timing, latency). */
int cv_test_fake_cuda(void);
/* A time limit for something that must happen: `seconds`, or 10 times that under the fake
 * driver, whose streams are host threads that a loaded machine may hold back. */
double cv_test_limit_s(double seconds);
/* Creates and builds a program from `count` source strings; on failure prints the build log
 * (headed by `what`) to stderr. *err is the first failing call's code. */
cl_program cv_test_build(cl_context ctx, cl_device_id dev, cl_uint count, const char **sources,
                         const char *options, const char *what, cl_int *err);
/* A read-write buffer of `size` bytes, a copy of `init` when given; a failure ends the test
 * (exit 1, with the error code). */
cl_mem cv_test_buffer(cl_context ctx, size_t size, const void *init);
/* A context of dev and, in *q, an in-order queue of it without properties; the test ends (failed)
 * when either cannot be made. */
cl_context cv_test_context(cl_device_id dev, cl_command_queue *q);
/* A command's event on a profiling queue: waits for it, checks it completed with 0 < START <= END,
 * releases it. */
void cv_test_check_profiled(cl_event e);
/* Does the device list the OpenCL C feature `name` (at `version`, or any version when 0)? */
int cv_test_has_c_feature(cl_device_id dev, const char *name, cl_version version);
/* Host memory for non-blocking commands of the model tests: `count` slots of `size` bytes handed
 * out in turn; when all are out, cv_test_slot finishes q first (the commands reading them are
 * done then). The slots end the test (failed) when they cannot be had. */
typedef struct cv_test_slots {
    unsigned char *base;
    size_t size;
    unsigned count, used;
} cv_test_slots;
cv_test_slots cv_test_slots_new(unsigned count, size_t size);
unsigned char *cv_test_slot(cv_test_slots *s, cl_command_queue q);
void cv_test_slots_free(cv_test_slots *s);
/* A model test's comparison, counted as a check: are got's n bytes want's? Where not, a failure,
 * with the words of fmt and the first byte that differs, on stderr. */
bool cv_test_same_bytes(const void *got, const void *want, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The next number of a xorshift64 sequence (the state must start nonzero): tests' random data,
 * the same on every run and compiler. */
uint64_t cv_test_xorshift(uint64_t *state);
/* A CPU reference of a rectangle copy: the region (bytes, rows, slices) from src at src_origin
 * to dst at dst_origin, each side with its row and slice pitch. */
void cv_test_rect_copy(unsigned char *dst, const size_t dst_origin[3], size_t dst_row_pitch,
                       size_t dst_slice_pitch, const unsigned char *src, const size_t src_origin[3],
                       size_t src_row_pitch, size_t src_slice_pitch, const size_t region[3]);

#endif
