/* Kernel timing twins (core/ptx_timing.h, docs/kernel-abi.md "Kernel timing"). The twin is the
 * rewritten entry copied whole, with one parameter more, a prologue before its first statement
 * and every `ret` and `exit` of its body turned into a branch to an epilogue at its end. Neither
 * waits for memory: the times go to the slot by fire-and-forget reductions. */
#include "core/ptx_timing.h"
#include "core/ptx.h"
#include "core/ptx_edit.h"

#include <stdlib.h>
#include <string.h>

typedef struct cv_buf {
    char *s;
    size_t n, cap;
    bool oom;
} cv_buf;

static void cv_buf_add(cv_buf *b, const char *s, size_t n) {
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void cv_buf_str(cv_buf *b, const char *s) {
    cv_buf_add(b, s, strlen(s));
}

static const char cv_timing_param[] = ".param .align 8 .b8 __cv_timing[16]";

/* Every thread stores the same zero into the count of the block's finished threads (no %tid
 * read and no predicate before the barrier, which every thread reaches together), and the
 * barrier makes every thread see it. Then, past the barrier, so that no other thread waits for
 * it, thread (0, 0, 0) of each of the first 4096 blocks of the grid's first row (blocks start in
 * the order of their index: block 0, among the earliest, is one of them) reads %globaltimer and
 * keeps the earliest in the slot's word 0, as a key: the command's generation in the top 24
 * bits, the complement of the time's low 40 bits below (red.max of it is the earliest time of
 * the newest generation: a slot needs no clearing between commands). Each test reads one special
 * register and leaves early, so most threads read only %tid.x, most blocks' first threads only
 * %ctaid.x more: on the H100 reading every index before deciding cost a grid of one-µs blocks
 * ~5 % more than %tid.x and %ctaid.x alone (a raw-CUDA lab, docs/known-issues.md). */
static const char cv_timing_prologue[] = "\n\t// culvert: kernel timing (docs/kernel-abi.md)\n"
                                         "\t.shared .align 4 .u32 __cv_timed_done;\n"
                                         "\t{\n"
                                         "\t.reg .pred %cvtp;\n"
                                         "\t.reg .b32 %cvtw<2>;\n"
                                         "\t.reg .b64 %cvtg<3>;\n"
                                         "\tst.shared.u32 [__cv_timed_done], 0;\n"
                                         "\tbar.sync 0;\n"
                                         "\tmov.u32 %cvtw0, %tid.x;\n"
                                         "\tsetp.ne.u32 %cvtp, %cvtw0, 0;\n"
                                         "\t@%cvtp bra $__cv_timed_go;\n"
                                         "\tmov.u32 %cvtw0, %ctaid.x;\n"
                                         "\tsetp.ge.u32 %cvtp, %cvtw0, 4096;\n"
                                         "\t@%cvtp bra $__cv_timed_go;\n"
                                         "\tmov.u32 %cvtw0, %tid.y;\n"
                                         "\tmov.u32 %cvtw1, %tid.z;\n"
                                         "\tor.b32 %cvtw0, %cvtw0, %cvtw1;\n"
                                         "\tmov.u32 %cvtw1, %ctaid.y;\n"
                                         "\tor.b32 %cvtw0, %cvtw0, %cvtw1;\n"
                                         "\tmov.u32 %cvtw1, %ctaid.z;\n"
                                         "\tor.b32 %cvtw0, %cvtw0, %cvtw1;\n"
                                         "\tsetp.ne.u32 %cvtp, %cvtw0, 0;\n"
                                         "\t@%cvtp bra $__cv_timed_go;\n"
                                         "\tmov.u64 %cvtg0, %globaltimer;\n"
                                         "\tnot.b64 %cvtg0, %cvtg0;\n"
                                         "\tand.b64 %cvtg0, %cvtg0, 0xffffffffff;\n"
                                         "\tld.param.u64 %cvtg1, [__cv_timing+8];\n"
                                         "\tshl.b64 %cvtg1, %cvtg1, 40;\n"
                                         "\tor.b64 %cvtg0, %cvtg0, %cvtg1;\n"
                                         "\tld.param.u64 %cvtg2, [__cv_timing];\n"
                                         "\tred.relaxed.gpu.global.max.u64 [%cvtg2], %cvtg0;\n"
                                         "$__cv_timed_go:\n"
                                         "\t}\n";

/* Every thread ends here. The threads that arrive together count themselves once (their highest
 * lane adds their number); the block's last thread reads %globaltimer and keeps the latest in the
 * slot's word 1, as a key (the generation above the time's low 40 bits). Nothing waits: the host
 * reads the words once the command completed. */
static const char cv_timing_epilogue[] = "$__cv_timed_exit:\n"
                                         "\t{\n"
                                         "\t.reg .pred %cvtp;\n"
                                         "\t.reg .b32 %cvtm, %cvtn, %cvtl, %cvtt;\n"
                                         "\t.reg .b64 %cvtg, %cvth, %cvta;\n"
                                         "\tactivemask.b32 %cvtm;\n"
                                         "\tpopc.b32 %cvtn, %cvtm;\n"
                                         "\tbfind.u32 %cvtl, %cvtm;\n"
                                         "\tmov.u32 %cvtt, %laneid;\n"
                                         "\tsetp.ne.u32 %cvtp, %cvtl, %cvtt;\n"
                                         "\t@%cvtp exit;\n"
                                         "\tatom.shared.add.u32 %cvtl, [__cv_timed_done], %cvtn;\n"
                                         "\tadd.u32 %cvtl, %cvtl, %cvtn;\n"
                                         "\tmov.u32 %cvtt, %ntid.x;\n"
                                         "\tmov.u32 %cvtn, %ntid.y;\n"
                                         "\tmul.lo.u32 %cvtt, %cvtt, %cvtn;\n"
                                         "\tmov.u32 %cvtn, %ntid.z;\n"
                                         "\tmul.lo.u32 %cvtt, %cvtt, %cvtn;\n"
                                         "\tsetp.ne.u32 %cvtp, %cvtl, %cvtt;\n"
                                         "\t@%cvtp exit;\n"
                                         "\tmov.u64 %cvtg, %globaltimer;\n"
                                         "\tand.b64 %cvtg, %cvtg, 0xffffffffff;\n"
                                         "\tld.param.u64 %cvth, [__cv_timing+8];\n"
                                         "\tshl.b64 %cvth, %cvth, 40;\n"
                                         "\tor.b64 %cvtg, %cvtg, %cvth;\n"
                                         "\tld.param.u64 %cvta, [__cv_timing];\n"
                                         "\tred.relaxed.gpu.global.max.u64 [%cvta+8], %cvtg;\n"
                                         "\texit;\n"
                                         "\t}\n";

static bool cv_word_is(const char *s, size_t p, size_t w, const char *word) {
    return w - p == strlen(word) && memcmp(s + p, word, w - p) == 0;
}

/* Is the word [p, w) an instruction, `word ;`? */
static bool cv_instr_is(const char *s, size_t end, size_t p, size_t w, const char *word) {
    size_t n = cv_ptx_skip(s, end, w);
    return cv_word_is(s, p, w, word) && n < end && s[n] == ';';
}

/* .version X.Y as X * 10 + Y (0 when missing). */
static int cv_timing_version(const char *s, size_t len) {
    size_t p = cv_ptx_skip(s, len, 0), w = cv_ptx_ident_end(s, len, p);
    if (!cv_word_is(s, p, w, ".version"))
        return 0;
    p = cv_ptx_skip(s, len, w);
    int major = atoi(s + p), minor = 0;
    while (p < len && s[p] != '.' && s[p] != '\n')
        p++;
    if (p < len && s[p] == '.')
        minor = atoi(s + p + 1);
    return major * 10 + minor;
}

static bool cv_in_entry(const cv_ptx_module *m, size_t pos) {
    for (uint32_t i = 0; i < m->num_kernels; i++)
        if (pos > m->kernels[i].body_open && pos < m->kernels[i].body_close)
            return true;
    return false;
}

/* Why the module can have no twins, or NULL. */
static const char *cv_timing_module_refusal(const char *s, size_t len, const cv_ptx_module *m) {
    if (cv_timing_version(s, len) < 62)
        return "PTX .version below 6.2 (activemask)";
    if (m->target_sm < 70)
        return ".target below sm_70";
    const char *why = NULL;
    for (size_t p = cv_ptx_skip(s, len, 0); !why && p < len; p = cv_ptx_skip(s, len, p)) {
        if (!cv_ptx_is_ident(s[p])) {
            p++;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, len, p);
        /* Debug information names the entries' labels: a copy would make them ambiguous. */
        if (cv_word_is(s, p, w, ".section"))
            why = "debug sections";
        /* A thread ending in a function would never be counted: its block never finishes. */
        else if (cv_instr_is(s, len, p, w, "exit") && !cv_in_entry(m, p))
            why = "exit in a .func";
        p = w;
    }
    return why;
}

/* Bytes of the parameter list with the timing parameter appended. */
static size_t cv_timing_param_bytes(const cv_ptx_kernel *k) {
    size_t off = 0;
    for (uint32_t i = 0; i < k->num_params; i++) {
        size_t a = k->params[i].align ? k->params[i].align : 1;
        off = (off + a - 1) / a * a + k->params[i].size;
    }
    return (off + 7) / 8 * 8 + CV_PTX_TIMING_PARAM_SIZE;
}

/* Can this entry have a twin? Not where its name is taken, its parameters would pass the
 * limit (4 KiB, 32764 bytes from PTX 8.1), or its body declares a .global or .const variable
 * (a copy would be a second variable). */
static bool cv_timing_entry_ok(const char *s, const cv_ptx_module *m, const cv_ptx_kernel *k,
                               int version) {
    size_t nl = strlen(k->name);
    char twin[nl + sizeof CV_PTX_TIMED_SUFFIX];
    memcpy(twin, k->name, nl);
    memcpy(twin + nl, CV_PTX_TIMED_SUFFIX, sizeof CV_PTX_TIMED_SUFFIX);
    bool ok = cv_ptx_find(m, twin) == NULL &&
              cv_timing_param_bytes(k) <= (version >= 81 ? 32764u : 4096u);
    for (size_t p = k->body_open + 1; ok && p < k->body_close;
         p = cv_ptx_skip(s, k->body_close, p)) {
        if (!cv_ptx_is_ident(s[p])) {
            p++;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, k->body_close, p);
        ok = !cv_word_is(s, p, w, ".global") && !cv_word_is(s, p, w, ".const");
        p = w;
    }
    return ok;
}

/* The twin of k. */
static void cv_timing_twin(cv_buf *b, const char *s, const cv_ptx_kernel *k) {
    cv_buf_str(b, "\n.visible .entry ");
    cv_buf_str(b, k->name);
    cv_buf_str(b, CV_PTX_TIMED_SUFFIX);
    if (k->no_param_list) {
        cv_buf_str(b, "(\n\t");
    } else {
        cv_buf_add(b, s + k->params_open, k->params_close - k->params_open);
        cv_buf_str(b, k->num_params ? ",\n\t" : "\n\t");
    }
    cv_buf_str(b, cv_timing_param);
    cv_buf_str(b, k->no_param_list ? "\n)" : "\n");
    cv_buf_add(b, s + k->params_close, k->body_open + 1 - k->params_close);
    cv_buf_str(b, cv_timing_prologue);
    size_t from = k->body_open + 1, end = k->body_close;
    for (size_t p = cv_ptx_skip(s, end, from); p < end; p = cv_ptx_skip(s, end, p)) {
        if (!cv_ptx_is_ident(s[p])) {
            p++;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, end, p);
        const char *with = NULL;
        if (cv_instr_is(s, end, p, w, "ret") || cv_instr_is(s, end, p, w, "exit"))
            with = "bra $__cv_timed_exit";
        else if (cv_instr_is(s, end, p, w, "ret.uni"))
            with = "bra.uni $__cv_timed_exit";
        if (with) {
            cv_buf_add(b, s + from, p - from);
            cv_buf_str(b, with);
            from = w;
        }
        p = w;
    }
    cv_buf_add(b, s + from, end - from);
    /* A body that runs off its end reaches the epilogue too. */
    cv_buf_str(b, "\n");
    cv_buf_str(b, cv_timing_epilogue);
    cv_buf_str(b, "}\n");
}

char *cv_ptx_add_timing(const char *text, size_t len, cv_ptx_timing_mode mode, size_t *out_len,
                        cv_ptx_timing_stats *stats) {
    cv_ptx_module m;
    cv_buf b = {0};
    memset(stats, 0, sizeof *stats);
    if (cv_ptx_parse(text, len, &m, NULL, 0) != CL_SUCCESS)
        return NULL;
    stats->entries = m.num_kernels;
    stats->module_refused = cv_timing_module_refusal(text, len, &m);
    stats->timed = calloc(m.num_kernels + 1, sizeof *stats->timed);
    b.oom = stats->timed == NULL;
    int version = cv_timing_version(text, len);
    size_t from = 0;
    for (uint32_t i = 0; !stats->module_refused && i < m.num_kernels; i++) {
        const cv_ptx_kernel *k = &m.kernels[i];
        bool ok = cv_timing_entry_ok(text, &m, k, version);
        size_t after = k->body_close + 1;
        if (mode == CV_PTX_TIMING_ALONE) {
            cv_buf_add(&b, text + from, k->decl_start - from);
            from = after;
        } else if (ok) {
            cv_buf_add(&b, text + from, after - from);
            from = after;
        }
        if (ok) {
            cv_timing_twin(&b, text, k);
            stats->twins++;
            stats->timed[i] = true;
        }
    }
    cv_buf_add(&b, text + from, len - from);
    cv_ptx_free(&m);
    if (b.oom || !b.s) {
        free(b.s);
        free(stats->timed);
        stats->timed = NULL;
        return NULL;
    }
    *out_len = b.n;
    return b.s;
}
