/* STUB, to be deleted at merge: the compiler helper's real implementation of compiler.h
 * replaces this file. Until then there is no OpenCL C compiler: every step answers
 * CL_COMPILER_NOT_AVAILABLE (CL_LINKER_NOT_AVAILABLE for links) and cvc_available() is false,
 * so CL_DEVICE_COMPILER_AVAILABLE and CL_DEVICE_LINKER_AVAILABLE say CL_FALSE. */
#include "compiler/compiler.h"

#include <stdlib.h>

cl_int cvc_build(const char *source, size_t len, const char *options, const cvc_target *target,
                 cvc_output *out) {
    (void)source;
    (void)len;
    (void)options;
    (void)target;
    *out = (cvc_output){0};
    return CL_COMPILER_NOT_AVAILABLE;
}

cl_int cvc_compile(const char *source, size_t len, const char *options, const cvc_header *headers,
                   size_t num_headers, const cvc_target *target, cvc_output *out) {
    (void)source;
    (void)len;
    (void)options;
    (void)headers;
    (void)num_headers;
    (void)target;
    *out = (cvc_output){0};
    return CL_COMPILER_NOT_AVAILABLE;
}

cl_int cvc_link(const cvc_output *const *objects, size_t num_objects, const char *options,
                const cvc_target *target, bool *is_library, cvc_output *out) {
    (void)objects;
    (void)num_objects;
    (void)options;
    (void)target;
    *is_library = false;
    *out = (cvc_output){0};
    return CL_LINKER_NOT_AVAILABLE;
}

bool cvc_available(void) {
    return false;
}

void cvc_output_free(cvc_output *out) {
    free(out->data);
    free(out->log);
    out->data = NULL;
    out->log = NULL;
    out->size = 0;
}
