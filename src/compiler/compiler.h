/* OpenCL C -> PTX: the interface the program objects (src/core/program*.c) call. The compiler
 * runs clang + libclc out of process (see src/compiler/README or docs), so nothing of LLVM is
 * loaded into the application. Every function is thread-safe. */
#ifndef CV_COMPILER_H
#define CV_COMPILER_H

#include "util/cl_headers.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An embedded header for clCompileProgram (input_headers / header_include_names). */
typedef struct cvc_header {
    const char *name; /* as the source #includes it */
    const char *text;
    size_t len;
} cvc_header;

typedef struct cvc_target {
    int cc_major, cc_minor; /* the device's compute capability: PTX for sm_<major><minor> */
    /* The device claims images (CL_DEVICE_IMAGE_SUPPORT): OpenCL C gets the image types, their
     * builtins (builtins/images.ll) and __IMAGE_SUPPORT__. */
    bool images;
} cvc_target;

/* What a step produces: a malloc'ed output (PTX text, 0-terminated, or LLVM bitcode) and the
 * build log (clang's diagnostics; 0-terminated, possibly empty). The caller frees both. */
typedef struct cvc_output {
    unsigned char *data;
    size_t size;
    char *log;
} cvc_output;

/* clBuildProgram from source: OpenCL C -> PTX following docs/kernel-abi.md (launch info,
 * __local pointer arguments, //cv: argument metadata comments).
 * Returns CL_SUCCESS, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE (log says why),
 * CL_COMPILER_NOT_AVAILABLE (no clang/libclc found), or CL_OUT_OF_HOST_MEMORY. */
cl_int cvc_build(const char *source, size_t len, const char *options, const cvc_target *target,
                 cvc_output *out);
/* clCompileProgram: OpenCL C -> an object (LLVM bitcode) that cvc_link takes. */
cl_int cvc_compile(const char *source, size_t len, const char *options, const cvc_header *headers,
                   size_t num_headers, const cvc_target *target, cvc_output *out);
/* clLinkProgram: objects (from cvc_compile or earlier links) -> PTX, or with
 * -create-library in options -> a library object (bitcode) again. */
cl_int cvc_link(const cvc_output *const *objects, size_t num_objects, const char *options,
                const cvc_target *target, bool *is_library, cvc_output *out);
/* Is this binary a library of cvc_link with -create-library (not a compiled object)? */
bool cvc_is_library(const unsigned char *data, size_t size);
/* Is a compiler there at all (CL_DEVICE_COMPILER_AVAILABLE)? */
bool cvc_available(void);
void cvc_output_free(cvc_output *out);
/* Stops the clang and llc processes started ahead of later builds and lets the tool servers go
 * (clUnloadPlatformCompiler); the next build starts its own. */
void cvc_unload(void);
/* How the tools run now (for the log): "tool servers, code generators", "tool servers" or "a
 * process per tool" (src/compiler/README.md). */
const char *cvc_engine(void);

/* ---- SPIR-V (clCreateProgramWithIL) ---- */
/* Is this a SPIR-V module: its magic number (either byte order), whole words? */
bool cvc_is_spirv(const unsigned char *il, size_t len);
/* A specialization constant of a SPIR-V module: its SpecId, its result id, its size in bytes (a
 * bool's is 1) and its type as llvm-spirv's --spec-const names it ("i1", "i32", "f64"). */
typedef struct cvc_spec_constant {
    cl_uint id;
    uint32_t result;
    size_t size;
    char type[4];
} cvc_spec_constant;
/* The module's specialization constants with a SpecId (malloc'ed array; *n of them):
 * CL_INVALID_VALUE when it is no readable SPIR-V. */
cl_int cvc_spirv_spec_constants(const unsigned char *il, size_t len, cvc_spec_constant **out,
                                size_t *n);
/* The constants set (set[i]: values[i] holds constant i's bits, in its low bytes) as llvm-spirv's
 * --spec-const takes them: "id:type:value", space-separated; NULL when none is set, or without
 * memory (*oom). */
char *cvc_spirv_spec_text(const cvc_spec_constant *c, const uint64_t *values, const bool *set,
                          size_t n, bool *oom);
/* Can SPIR-V be compiled (the compiler and llvm-spirv are there)? */
bool cvc_il_available(void);
/* The SPIR-V versions taken are 1.0 to 1.<this> (3 with LLVM 15's translator, 4 from LLVM 16's);
 * -1 without IL. */
int cvc_il_max_minor(void);
/* clCompileProgram of SPIR-V (and the first step of clBuildProgram's): an object (LLVM bitcode)
 * that cvc_link takes. spec: llvm-spirv's --spec-const value ("id:type:value ..."), or NULL.
 * Returns as cvc_compile does; CL_COMPILER_NOT_AVAILABLE without llvm-spirv. */
cl_int cvc_compile_il(const unsigned char *il, size_t len, const char *options, const char *spec,
                      const cvc_target *target, cvc_output *out);
/* clBuildProgram of SPIR-V: PTX as cvc_build makes it (OpenCL 3.0's non-uniform work-groups
 * unless -cl-uniform-work-group-size). Returns as cvc_build does. */
cl_int cvc_build_il(const unsigned char *il, size_t len, const char *options, const char *spec,
                    const cvc_target *target, cvc_output *out);

#endif
