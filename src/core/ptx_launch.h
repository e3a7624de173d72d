/* Launch information of culvert-compiled PTX: the rewrite's part for it (core/ptx_launch.c). */
#ifndef CV_CORE_PTX_LAUNCH_H
#define CV_CORE_PTX_LAUNCH_H

#include "core/ptx.h"
#include "core/ptx_edit.h"

/* The edits for a module with m->launch_info: the parameter and prologue of every entry, and
 * the builtins' reads of the block. */
void cv_ptx_launch_edits(const char *text, size_t len, const cv_ptx_module *m, cv_edits *ed);

#endif
