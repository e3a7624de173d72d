/* The textured variant of a module (core/ptx_textured.h). */
#include "core/ptx_textured.h"

#include <stdlib.h>
#include <string.h>

/* The fallback images.cl keeps out of line for this. */
#define CV_PTX_SOFT_SAMPLING "cv_read_f_2d_soft"
/* The mark of images.cl's cv_textured_variant: the value before it is the variant's flag. */
#define CV_PTX_VARIANT_MARK " 0; // cv:textured-variant"

/* Where a `.func` definition of the name starts its header and body, for the return form
 * `(.param .align 16 .b8 func_retval0[16])` the builtin has (a float4); false if absent. */
static bool cv_find_soft(const char *s, size_t len, size_t *body, size_t *end) {
    static const char header[] =
        ".func  (.param .align 16 .b8 func_retval0[16]) " CV_PTX_SOFT_SAMPLING "(";
    const char *h = memmem(s, len, header, sizeof header - 1);
    if (!h)
        return false;
    /* The body: from the first `{` at a line start after the header to the `}` closing it at a
     * line start (nested blocks of calls are indented). */
    size_t from = (size_t)(h - s) + sizeof header - 1;
    const char *open = memmem(s + from, len - from, "\n{", 2);
    if (!open)
        return false;
    size_t b = (size_t)(open - s) + 1;
    const char *close = memmem(s + b, len - b, "\n}", 2);
    if (!close)
        return false;
    *body = b;
    *end = (size_t)(close - s) + 2;
    return true;
}

char *cv_ptx_textured(const char *text, size_t len, size_t *out_len) {
    static const char stub[] = "{\n"
                               "\t.reg .f32 %cvz;\n"
                               "\tmov.f32 %cvz, 0f00000000;\n"
                               "\tst.param.v4.f32 [func_retval0+0], {%cvz, %cvz, %cvz, %cvz};\n"
                               "\tret;\n"
                               "}";
    size_t body = 0, end = 0;
    if (!cv_find_soft(text, len, &body, &end))
        return NULL;
    size_t n = body + (sizeof stub - 1) + (len - end);
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, text, body);
        memcpy(out + body, stub, sizeof stub - 1);
        memcpy(out + body + sizeof stub - 1, text + end, len - end);
        out[n] = '\0';
        *out_len = n;
        /* Each flag's 0 becomes 1 (the same length). */
        for (char *m = out; (m = strstr(m, CV_PTX_VARIANT_MARK)) != NULL; m += 2)
            m[1] = '1';
    }
    return out;
}
