/* The PTX rewrite of docs/kernel-abi.md: a list of edits (insertions, one removal) applied to the
 * original text in one pass. */
#include "core/ptx.h"
#include "core/ptx_edit.h"
#include "core/ptx_launch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cv_edit_cmp(const void *a, const void *b) {
    const cv_edit *x = a, *y = b;
    /* Stable enough: removals (which start statements) sort before insertions at one spot. */
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return (int)(y->remove > 0) - (int)(x->remove > 0);
}

static const char cv_dynamic_smem_decl[] = ".extern .shared .align 16 .b8 __cv_dynamic_smem[];\n";

static const cv_ptx_param *cv_shared_param(const cv_ptx_kernel *k, const char *s, size_t len) {
    for (uint32_t i = 0; i < k->num_params; i++) {
        const cv_ptx_param *p = &k->params[i];
        if (p->space == CV_PTX_PTR_SHARED && strlen(p->name) == len && memcmp(p->name, s, len) == 0)
            return p;
    }
    return NULL;
}

/* After every `ld.param.<type> %reg, [<__local param>(+N)];` in the body, the loaded offset
 * becomes the address of its slice: %reg += __cv_dynamic_smem. */
static void cv_rewrite_shared_loads(const char *s, const cv_ptx_kernel *k, cv_edits *ed) {
    size_t p = k->body_open + 1, end = k->body_close;
    while (p < end) {
        p = cv_ptx_skip(s, end, p);
        if (p >= end)
            break;
        if (!cv_ptx_is_ident(s[p])) {
            p++;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, end, p);
        if (w - p < 8 || memcmp(s + p, "ld.param", 8) != 0) {
            p = w;
            continue;
        }
        /* dest register */
        size_t r = cv_ptx_skip(s, end, w);
        size_t re = cv_ptx_ident_end(s, end, r);
        size_t c = cv_ptx_skip(s, end, re);
        if (re == r || c >= end || s[c] != ',') {
            p = w;
            continue;
        }
        size_t b = cv_ptx_skip(s, end, c + 1);
        if (b >= end || s[b] != '[') {
            p = w;
            continue;
        }
        size_t n = cv_ptx_skip(s, end, b + 1);
        size_t ne = cv_ptx_ident_end(s, end, n);
        const cv_ptx_param *prm = cv_shared_param(k, s + n, ne - n);
        size_t semi = ne;
        while (semi < end && s[semi] != ';' && s[semi] != '\n')
            semi++;
        if (prm && semi < end && s[semi] == ';') {
            /* The register's width is the load's (ld.param.u32 of a 64-bit parameter reads its
             * low half): the type suffix's last digits. */
            int bits = prm->size == 4 ? 32 : 64;
            if (w - p >= 2 && s[w - 2] == '3' && s[w - 1] == '2')
                bits = 32;
            else if (w - p >= 2 && s[w - 2] == '6' && s[w - 1] == '4')
                bits = 64;
            int rl = (int)(re - r);
            size_t sz = 160 + 2 * (size_t)rl;
            char *text = malloc(sz);
            if (text)
                snprintf(text, sz,
                         "\n\t{ .reg .b%d %%cvsm; mov.u%d %%cvsm, __cv_dynamic_smem; "
                         "add.u%d %.*s, %.*s, %%cvsm; }",
                         bits, bits, bits, rl, s + r, rl, s + r);
            cv_edit_add(ed, semi + 1, 0, text, true);
        }
        p = semi;
    }
}

/* Drops the `.ptr [space] [.align N]` annotations of an entry's parameters: the values are the
 * same without them, and CUDA's loader has been seen to refuse OpenCL-style annotated parameters
 * (culvert already read them: the parsed module keeps the address spaces). */
static void cv_strip_ptr_annotations(const char *s, const cv_ptx_kernel *k, cv_edits *ed) {
    static const char *const spaces[] = {".global", ".shared", ".const", ".local"};
    size_t p = k->params_open, end = k->params_close;
    while (!k->no_param_list && p < end) {
        p = cv_ptx_skip(s, end, p);
        if (p >= end)
            break;
        if (!cv_ptx_is_ident(s[p])) {
            p++;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, end, p);
        if (w - p != 4 || memcmp(s + p, ".ptr", 4) != 0) {
            p = w;
            continue;
        }
        size_t start = p, stop = w, q = cv_ptx_skip(s, end, w), qe = cv_ptx_ident_end(s, end, q);
        for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
            if (qe - q == strlen(spaces[i]) && memcmp(s + q, spaces[i], qe - q) == 0) {
                stop = qe;
                q = cv_ptx_skip(s, end, qe);
                qe = cv_ptx_ident_end(s, end, q);
                break;
            }
        if (qe - q == 6 && memcmp(s + q, ".align", 6) == 0) {
            size_t n = cv_ptx_skip(s, end, qe), ne = cv_ptx_ident_end(s, end, n);
            if (ne > n)
                stop = ne;
        }
        cv_edit_add(ed, start, stop - start, "", false);
        p = stop;
    }
}

/* %envreg0-2 (group offsets) and %envreg3-5 (global offsets) read as 0 for the launches
 * culvert makes of such PTX (no offsets, no split grids); %envreg6-8 are the group counts. */
static void cv_replace_envregs(const char *s, size_t len, cv_edits *ed) {
    static const char *const with[9] = {"0", "0",         "0",         "0",        "0",
                                        "0", "%nctaid.x", "%nctaid.y", "%nctaid.z"};
    size_t p = 0, stmt = 0;
    while (p < len) {
        size_t q = cv_ptx_skip(s, len, p);
        if (q >= len)
            break;
        if (!cv_ptx_is_ident(s[q])) {
            if (s[q] == ';' || s[q] == '{' || s[q] == '}')
                stmt = q + 1;
            p = q + 1;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, len, q);
        if (w - q > 7 && memcmp(s + q, "%envreg", 7) == 0) {
            int n = atoi(s + q + 7);
            if (n >= 0 && n <= 8) {
                cv_edit_add(ed, q, w - q, with[n], false);
                /* a special register is read with mov.u32, the spelling nvcc uses */
                size_t m = cv_ptx_skip(s, len, stmt);
                if (n >= 6 && m + 7 <= len && memcmp(s + m, "mov.b32", 7) == 0)
                    cv_edit_add(ed, m, 7, "mov.u32", false);
            }
        }
        p = w;
    }
}

/* An entry with more parameter space than PTX ISA 8.1 allows before it (ptxas: "Kernel
 * parameter size larger than 4352 bytes requires PTX ISA .version 8.1 or later") gets the module
 * .version 8.1; modules whose entries all fit keep theirs. */
static void cv_raise_version(const cv_ptx_module *m, cv_edits *ed) {
    bool large = false;
    for (uint32_t i = 0; i < m->num_kernels && !large; i++)
        large = cv_ptx_param_space(&m->kernels[i], m->launch_info) > CV_PTX_PARAM_SPACE_OLD;
    if (large && m->version < CV_PTX_LARGE_PARAMS_ISA && m->version_end > m->version_start)
        cv_edit_add(ed, m->version_start, m->version_end - m->version_start, "8.1", false);
}

char *cv_ptx_rewrite(const char *text, size_t len, const cv_ptx_module *m, size_t *out_len) {
    cv_edits ed = {0};
    bool any_shared = false;
    for (uint32_t i = 0; i < m->num_kernels; i++)
        any_shared |= m->kernels[i].has_shared_ptr;
    cv_raise_version(m, &ed);
    if (m->launch_info)
        cv_ptx_launch_edits(text, len, m, &ed);
    if (any_shared && !m->has_dynamic_smem)
        cv_edit_add(&ed, m->header_end, 0, cv_dynamic_smem_decl, false);
    for (uint32_t i = 0; i < m->num_kernels; i++) {
        const cv_ptx_kernel *k = &m->kernels[i];
        if (k->has_shared_ptr)
            cv_rewrite_shared_loads(text, k, &ed);
        cv_strip_ptr_annotations(text, k, &ed);
    }
    if (m->opencl_abi && m->has_envreg)
        cv_replace_envregs(text, len, &ed);
    char *out = NULL;
    if (!ed.oom) {
        /* No edits: ed.e is NULL, which qsort must not get even with a count of 0. */
        if (ed.n)
            qsort(ed.e, ed.n, sizeof *ed.e, cv_edit_cmp);
        size_t total = len + 1;
        for (size_t i = 0; i < ed.n; i++)
            total += strlen(ed.e[i].text);
        out = malloc(total);
    }
    if (out) {
        size_t o = 0, p = 0;
        for (size_t i = 0; i < ed.n; i++) {
            const cv_edit *e = &ed.e[i];
            size_t at = e->pos < p ? p : e->pos;
            memcpy(out + o, text + p, at - p);
            o += at - p;
            size_t l = strlen(e->text);
            memcpy(out + o, e->text, l);
            o += l;
            p = at + e->remove;
        }
        /* A trailing terminator in the binary is not text. */
        size_t stop = len;
        while (stop > p && text[stop - 1] == '\0')
            stop--;
        memcpy(out + o, text + p, stop - p);
        o += stop - p;
        out[o] = '\0';
        *out_len = o;
    }
    for (size_t i = 0; i < ed.n; i++)
        if (ed.e[i].owned)
            free((char *)ed.e[i].text);
    free(ed.e);
    return out;
}
