/* cl_program: source (OpenCL C, compiled by src/compiler to PTX), binaries (PTX text, cubin,
 * fatbin, or compiled objects), and per device the built module and its kernels. */
#ifndef CV_CORE_PROGRAM_H
#define CV_CORE_PROGRAM_H

#include "core/context.h"
#include "core/ptx.h"

#include <stdatomic.h>

/* A kernel function of a built module (core/program_function.h). */
typedef struct cv_program_function cv_program_function;

typedef struct cv_program_device {
    cl_device_id device;
    cl_build_status status;
    cl_program_binary_type binary_type;
    char *log;
    char *options; /* of the last build, compile or link */
    /* The binary as CL_PROGRAM_BINARIES returns it: PTX text (0-terminated, size without the
     * terminator), a cubin/fatbin image, or an object (LLVM bitcode) from clCompileProgram. */
    unsigned char *binary;
    size_t binary_size;
    bool binary_is_ptx;
    cv_ptx_module ptx; /* parsed, when binary_is_ptx */
    struct cvcu_module *module;
    cv_program_function *functions;
    uint32_t num_functions;
    struct cv_program_twins *twins; /* the timed twins apart (core/program_function.h), or NULL */
} cv_program_device;

struct _cl_program {
    cv_object obj;
    cl_context context;
    cl_uint num_devices;
    cv_program_device *devs;
    char *source; /* clCreateProgramWithSource, else NULL */
    size_t source_len;
    unsigned char *il; /* clCreateProgramWithIL (SPIR-V), else NULL */
    size_t il_len;
    /* The IL's specialization constants, and the values clSetProgramSpecializationConstant set
     * (spec_set[i]: whether constant i has one; under lock). */
    struct cvc_spec_constant *spec;
    uint64_t *spec_values;
    bool *spec_set;
    size_t num_spec;
    pthread_mutex_t lock; /* builds and the kernel count */
    /* cl_kernel objects the application holds ("kernel objects attached": a build waits for
     * none), and those alive, also the ones only launches in flight still hold. */
    _Atomic uint32_t kernels;
    _Atomic uint32_t kernel_objects;
    /* Modules a rebuild replaced while kernel objects were alive: a launch in flight may still
     * run their code. Unloaded once no kernel object is left (at a later build or release). */
    struct cv_program_retired *retired;
    bool building;      /* a build, compile or link is running */
    char *kernel_names; /* ';'-separated, once built */
    size_t num_kernels;
};

static inline bool cv_is_program(const void *h) {
    return cv_object_valid(h, CV_TAG_PROGRAM);
}

cl_program cv_program_create_with_source(cl_context ctx, cl_uint count, const char **strings,
                                         const size_t *lengths, cl_int *err);
/* Do culvert's devices take IL (SPIR-V: the compiler and llvm-spirv are there)? */
bool cv_program_il_supported(void);
/* clCreateProgramWithIL: CL_INVALID_VALUE for what is no SPIR-V module. */
cl_program cv_program_create_with_il(cl_context ctx, const void *il, size_t length, cl_int *err);
/* clSetProgramSpecializationConstant on an IL program: CL_INVALID_SPEC_ID, CL_INVALID_VALUE (a
 * size that is not the constant's) or CL_SUCCESS. */
cl_int cv_program_set_spec_constant(cl_program p, cl_uint id, size_t size, const void *value);
/* binary_status: one entry per device, may be NULL. */
cl_program cv_program_create_with_binary(cl_context ctx, cl_uint num_devices,
                                         const cl_device_id *devices, const size_t *lengths,
                                         const unsigned char **binaries, cl_int *binary_status,
                                         cl_int *err);
/* Builds for the listed devices (all of the program's when num_devices is 0). */
/* clUnloadPlatformCompiler: the compiler processes started ahead of later builds are stopped. */
void cv_program_unload_compiler(void);
cl_int cv_program_build(cl_program p, cl_uint num_devices, const cl_device_id *devices,
                        const char *options);
cl_int cv_program_compile(cl_program p, cl_uint num_devices, const cl_device_id *devices,
                          const char *options, cl_uint num_headers, const cl_program *headers,
                          const char **header_names);
cl_program cv_program_link(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
                           const char *options, cl_uint num_inputs, const cl_program *inputs,
                           cl_int *err);
/* Before a build or compile replaces the device's binary: its module, functions and (unless
 * keep_ptx) parsed PTX are unloaded, or kept until the program's last kernel object is gone when
 * kernels the application released may still run in launches in flight. */
void cv_program_device_unload(cl_program p, cv_program_device *pd, bool keep_ptx);
/* An empty program for these devices (clLinkProgram's result). */
cl_program cv_program_alloc(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
                            cl_int *err);
cl_int cv_program_info(cl_program p, cl_program_info param, const cv_info *out);
cl_int cv_program_build_info(cl_program p, cl_device_id d, cl_program_build_info param,
                             const cv_info *out);
/* The device's entry in the program, or NULL when the program is not for that device. */
cv_program_device *cv_program_device_of(cl_program p, cl_device_id d);
/* Is any device built (an executable there)? */
bool cv_program_has_executable(cl_program p);
/* The function named `name` on device index i, or NULL. */
cv_program_function *cv_program_function_of(cv_program_device *pd, const char *name);
/* The name of function i of the program's first built device (module order), or NULL past the
 * last or where no device is built. */
const char *cv_program_kernel_name(cl_program p, size_t i);

#endif
