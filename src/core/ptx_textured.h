/* The textured variant of a module culvert compiled with image builtins: the same text with the
 * body of `cv_read_f_2d_soft` (the software sampling a read-only 2D image takes where it has no
 * texture object, src/compiler/builtins/images.cl) replaced by a stub that returns zeros. The
 * fallback's call no longer holds registers for that body (on the H100 a bilinear kernel's 48
 * became 26: full occupancy), so launches whose read-only image arguments all have their texture
 * objects, which therefore never take the fallback, run the variant (core/kernel_enqueue.c). The
 * variant's flag (images.cl's cv_textured_variant) is 1 in it: ptxas drops the texture object's
 * test, and consecutive fetches stand in one block. */
#ifndef CV_CORE_PTX_TEXTURED_H
#define CV_CORE_PTX_TEXTURED_H

#include <stdbool.h>
#include <stddef.h>

/* The variant of text (len bytes): 0-terminated, malloc'ed, *out_len bytes; NULL where the text
 * defines no such function in the form expected (or out of memory): no variant. */
char *cv_ptx_textured(const char *text, size_t len, size_t *out_len);

#endif
