/* OpenCL C -> PTX: the interface the program objects (src/core/program*.c) call. The compiler
 * runs clang + libclc out of process (see src/compiler/README or docs), so nothing of LLVM is
 * loaded into the application. Every function is thread-safe. */
#ifndef CV_COMPILER_H
#define CV_COMPILER_H

#include "util/cl_headers.h"
#include <stdbool.h>
#include <stddef.h>

/* An embedded header for clCompileProgram (input_headers / header_include_names). */
typedef struct cvc_header {
    const char *name; /* as the source #includes it */
    const char *text;
    size_t len;
} cvc_header;

typedef struct cvc_target {
    int cc_major, cc_minor; /* the device's compute capability: PTX for sm_<major><minor> */
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
/* Stops the clang and llc processes started ahead of later builds (clUnloadPlatformCompiler);
 * the next build starts its own. */
void cvc_unload(void);

#endif
