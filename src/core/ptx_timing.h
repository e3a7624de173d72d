/* Kernel timing in the PTX culvert loads (docs/kernel-abi.md, "Kernel timing"): every entry that
 * can have one gets a twin, `<name>__cv_timed`, that takes one more parameter and records, into
 * the slot it names, the earliest %globaltimer read by a block's first thread as it begins and
 * the latest read as a block finishes. Kernels on profiling queues launch the twin; the entry
 * itself is left as it is. */
#ifndef CV_CORE_PTX_TIMING_H
#define CV_CORE_PTX_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The twin's name is the entry's with this appended. */
#define CV_PTX_TIMED_SUFFIX "__cv_timed"
/* The twin's last parameter: `.param .align 8 .b8 __cv_timing[16]`, two 64-bit words: [0] the
 * device address of the command's slot (two 64-bit words in device memory, which the blocks raise
 * with red.max: START's key, END's key), [1] the command's generation (24 bits). A key holds the
 * generation in its top 24 bits and a time's low 40 bits below (complemented for START, so that
 * the largest key is the earliest time): the newest command's keys win, with no clearing. */
#define CV_PTX_TIMING_PARAM_SIZE 16

/* What cv_ptx_add_timing did. */
typedef struct cv_ptx_timing_stats {
    unsigned entries; /* entries seen */
    unsigned twins;   /* twins added */
    /* Why a module gets none: .version below 6.2, .target below sm_70, debug sections, or an
     * `exit` in a .func (a thread ending there would never be counted); NULL when it may. */
    const char *module_refused;
    /* Per entry, in the order of the text: has a twin (malloc'ed; the caller frees it). */
    bool *timed;
} cv_ptx_timing_stats;

/* Where the twins go: after their entries, in the same module; or alone, each in its entry's
 * place (entries without a twin left out), a module of its own that shares nothing with the
 * entries' but what each module has its own copy of (no module-scope .global variable may be
 * there: cv_ptx_module.global_bytes). */
typedef enum cv_ptx_timing_mode {
    CV_PTX_TIMING_BESIDE,
    CV_PTX_TIMING_ALONE,
} cv_ptx_timing_mode;

/* The text (PTX as cv_ptx_rewrite made it, len bytes) with the twins placed as mode says:
 * 0-terminated, malloc'ed, *out_len bytes. NULL when out of memory or not PTX. */
char *cv_ptx_add_timing(const char *text, size_t len, cv_ptx_timing_mode mode, size_t *out_len,
                        cv_ptx_timing_stats *stats);

#endif
