/* Launch information in culvert-compiled PTX (docs/kernel-abi.md): the parameter appended to every
 * entry, the prologue that exits threads past the NDRange, and where the builtins read the block.
 * They read it straight from the parameter (ld.param: a constant-bank operand, free) when every
 * use of __cv_launch_info is an ld.shared with a constant address in an entry; otherwise every
 * thread first copies the parameter into the shared variable. */
#include "core/ptx_launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char cv_launch_info_decl[] = ".shared .align 8 .b8 __cv_launch_info[64];\n";
static const char cv_launch_param[] = ".param .align 8 .b8 __cv_launch_param[80]";
static const char cv_info_name[] = "__cv_launch_info";

#define CV_LI_HEAD                                                                                 \
    "\n\t// culvert: launch information (docs/kernel-abi.md)\n"                                    \
    "\t{\n"                                                                                        \
    "\t.reg .b64 %cvli;\n"                                                                         \
    "\t.reg .b32 %cvlw<2>;\n"                                                                      \
    "\t.reg .b64 %cvlg<3>;\n"                                                                      \
    "\t.reg .pred %cvlp;\n"
#define CV_LI_COPY(o)                                                                              \
    "\tld.param.b64 %cvli, [__cv_launch_param+" #o "];\n"                                          \
    "\tst.shared.b64 [__cv_launch_info+" #o "], %cvli;\n"
#define CV_LI_COPIES                                                                               \
    CV_LI_COPY(0)                                                                                  \
    CV_LI_COPY(8)                                                                                  \
    CV_LI_COPY(16) CV_LI_COPY(24) CV_LI_COPY(32) CV_LI_COPY(40) CV_LI_COPY(48) CV_LI_COPY(56)
/* Non-uniform work-groups: a thread whose global id (without offset) is past the global size
 * in dimension d exits. */
#define CV_LI_ITEM(d, goff, soff)                                                                  \
    "\tld.param.u32 %cvlw0, [__cv_launch_param+" #goff "];\n"                                      \
    "\tld.param.u64 %cvlg2, [__cv_launch_param+" #soff "];\n"                                      \
    "\tmov.u32 %cvlw1, %ctaid." #d ";\n"                                                           \
    "\tcvt.u64.u32 %cvlg0, %cvlw1;\n"                                                              \
    "\tcvt.u64.u32 %cvlg1, %cvlw0;\n"                                                              \
    "\tadd.u64 %cvlg0, %cvlg0, %cvlg1;\n"                                                          \
    "\tmov.u32 %cvlw1, %ntid." #d ";\n"                                                            \
    "\tcvt.u64.u32 %cvlg1, %cvlw1;\n"                                                              \
    "\tmul.lo.u64 %cvlg0, %cvlg0, %cvlg1;\n"                                                       \
    "\tmov.u32 %cvlw1, %tid." #d ";\n"                                                             \
    "\tcvt.u64.u32 %cvlg1, %cvlw1;\n"                                                              \
    "\tadd.u64 %cvlg0, %cvlg0, %cvlg1;\n"                                                          \
    "\tsetp.ge.u64 %cvlp, %cvlg0, %cvlg2;\n"                                                       \
    "\t@%cvlp exit;\n"
#define CV_LI_ITEMS CV_LI_ITEM(x, 48, 24) CV_LI_ITEM(y, 52, 32) CV_LI_ITEM(z, 56, 40)
/* Uniform work-groups and compiled cluster dimensions: only the whole groups added to fill
 * clusters exit (group_limit). Uniform work-groups without clusters: no check at all. */
#define CV_LI_GROUP(d, loff)                                                                       \
    "\tmov.u32 %cvlw0, %ctaid." #d ";\n"                                                           \
    "\tld.param.u32 %cvlw1, [__cv_launch_param+" #loff "];\n"                                      \
    "\tsetp.ge.u32 %cvlp, %cvlw0, %cvlw1;\n"                                                       \
    "\t@%cvlp exit;\n"
#define CV_LI_GROUPS CV_LI_GROUP(x, 64) CV_LI_GROUP(y, 68) CV_LI_GROUP(z, 72)

/* [copy into shared memory][exits: none, whole groups, threads] */
static const char *const cv_launch_prologues[2][3] = {
    {"", CV_LI_HEAD CV_LI_GROUPS "\t}\n", CV_LI_HEAD CV_LI_ITEMS "\t}\n"},
    {CV_LI_HEAD CV_LI_COPIES "\t}\n", CV_LI_HEAD CV_LI_COPIES CV_LI_GROUPS "\t}\n",
     CV_LI_HEAD CV_LI_COPIES CV_LI_ITEMS "\t}\n"},
};

static const cv_ptx_kernel *cv_entry_at(const cv_ptx_module *m, size_t pos) {
    for (uint32_t i = 0; i < m->num_kernels; i++)
        if (pos > m->kernels[i].body_open && pos < m->kernels[i].body_close)
            return &m->kernels[i];
    return NULL;
}

/* Adds the edits that turn the use at pos (an occurrence of __cv_launch_info) into a read of
 * the parameter; false when it is not `ld.shared... [__cv_launch_info(+N)]` in an entry. */
static bool cv_direct_use(const char *s, const cv_ptx_module *m, size_t pos, cv_edits *ed) {
    const cv_ptx_kernel *k = cv_entry_at(m, pos);
    if (!k || pos == 0 || s[pos - 1] != '[')
        return false;
    /* The instruction starts after the line's or the statement's start, and after a scope's
     * brace there: a vector operand's braces (`ld.shared.v2.u32 {%r3, %r4}, [...]`, what LLVM
     * makes of two adjacent group offsets) come after its opcode. */
    size_t start = pos;
    while (start > k->body_open + 1 && s[start - 1] != ';' && s[start - 1] != '\n')
        start--;
    size_t p = cv_ptx_skip(s, pos, start);
    while (p < pos && (s[p] == '{' || s[p] == '}'))
        p = cv_ptx_skip(s, pos, p + 1);
    /* A label ("$L__BB0_3:") or a guard ("@%p1") may come first. */
    size_t w = cv_ptx_ident_end(s, pos, p);
    if (w > p && w < pos && s[w] == ':')
        p = cv_ptx_skip(s, pos, w + 1);
    if (p < pos && s[p] == '@')
        p = cv_ptx_skip(s, pos, cv_ptx_ident_end(s, pos, p + 1));
    if (pos - p < 10 || memcmp(s + p, "ld.shared.", 10) != 0)
        return false;
    cv_edit_add(ed, p, strlen("ld.shared"), "ld.param", false);
    cv_edit_add(ed, pos, strlen(cv_info_name), "__cv_launch_param", false);
    return true;
}

/* The reads of the launch block, as parameter reads; false (nothing added) when some use of
 * __cv_launch_info is another kind of access. */
static bool cv_direct_uses(const char *s, size_t len, const cv_ptx_module *m, cv_edits *ed) {
    size_t first = ed->n;
    bool direct = true;
    size_t name_len = strlen(cv_info_name);
    for (size_t p = cv_ptx_skip(s, len, 0); direct && p < len; p = cv_ptx_skip(s, len, p)) {
        if (!cv_ptx_is_ident(s[p])) {
            p++;
            continue;
        }
        size_t w = cv_ptx_ident_end(s, len, p);
        bool use = w - p == name_len && memcmp(s + p, cv_info_name, name_len) == 0 &&
                   !(p >= m->launch_decl_start && p < m->launch_decl_end);
        if (use)
            direct = cv_direct_use(s, m, p, ed);
        p = w;
    }
    if (!direct) {
        ed->n = first; /* the edits added are static text: nothing to free */
    }
    return direct;
}

void cv_ptx_launch_edits(const char *text, size_t len, const cv_ptx_module *m, cv_edits *ed) {
    bool direct = !ed->oom && cv_direct_uses(text, len, m, ed);
    cv_edit_add(ed, m->launch_decl_start, m->launch_decl_end - m->launch_decl_start, "", false);
    if (!direct)
        cv_edit_add(ed, m->header_end, 0, cv_launch_info_decl, false);
    for (uint32_t i = 0; i < m->num_kernels; i++) {
        const cv_ptx_kernel *k = &m->kernels[i];
        size_t size = sizeof cv_launch_param + 16;
        char *prm = malloc(size);
        if (prm)
            snprintf(prm, size,
                     k->no_param_list ? "(\n\t%s\n)"
                     : k->num_params  ? ",\n\t%s\n"
                                      : "\n\t%s\n",
                     cv_launch_param);
        cv_edit_add(ed, k->params_close, 0, prm, true);
        int exits = !cv_ptx_exits_outside(k) ? 0 : k->uniform_work_groups ? 1 : 2;
        if (!direct || exits)
            cv_edit_add(ed, k->body_open + 1, 0, cv_launch_prologues[!direct][exits], false);
    }
}
