/* Address-space casts of textual IR that LLVM 16's NVPTX back end gets wrong or cannot select,
 * rewritten before llc. */
#include "compiler/cvc_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- casts between two named address spaces, casts of null ---- */

/* An addrspacecast of pointers: a constant expression "addrspacecast (ptr addrspace(N) X to ptr
 * addrspace(M))" or an instruction's "addrspacecast ptr addrspace(N) X to ptr addrspace(M)"
 * (address space 0, generic, written "ptr"). */
typedef struct cvc_cast {
    const char *op; /* X, not 0-terminated */
    size_t op_len;
    int from, to;
    bool constant;
    const char *end; /* past the cast */
} cvc_cast;

/* "ptr" or "ptr addrspace(N)" at *p: N (0 for "ptr"), *p moved past it; -1 for anything else. */
static int cvc_ptr_type(const char **p) {
    if (strncmp(*p, "ptr", 3))
        return -1;
    const char *q = *p + 3;
    long as = 0;
    if (!strncmp(q, " addrspace(", 11)) {
        char *end;
        as = strtol(q + 11, &end, 10);
        if (*end != ')')
            return -1;
        q = end + 1;
    }
    *p = q;
    return (int)as;
}

/* The cast whose "addrspacecast" starts at `at`; false for anything else (vectors of pointers). */
static bool cvc_cast_parse(const char *at, cvc_cast *c) {
    const char *p = at + sizeof "addrspacecast" - 1;
    if (*p++ != ' ')
        return false;
    c->constant = *p == '(';
    p += c->constant;
    c->from = cvc_ptr_type(&p);
    if (c->from < 0 || *p++ != ' ')
        return false;
    c->op = p;
    for (int depth = 0; *p && *p != '\n'; p++) {
        if (*p == '(' || *p == '[' || *p == '{' || *p == '<')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}' || *p == '>') {
            if (depth-- == 0)
                return false;
        } else if (depth == 0 && !strncmp(p, " to ", 4))
            break;
    }
    if (strncmp(p, " to ", 4))
        return false;
    c->op_len = (size_t)(p - c->op);
    p += 4;
    c->to = cvc_ptr_type(&p);
    if (c->to < 0 || (c->constant && *p != ')'))
        return false;
    c->end = p + c->constant;
    return true;
}

static bool cvc_cast_of_null(const cvc_cast *c) {
    return c->op_len == 4 && !memcmp(c->op, "null", 4) && c->from != c->to;
}

/* Neither side generic: NVPTX selects no such cast ("Cannot cast between two non-generic address
 * spaces"); InstCombine makes them of a generic pointer's two casts. */
static bool cvc_cast_between_named(const cvc_cast *c) {
    return c->from != 0 && c->to != 0 && c->from != c->to;
}

static void cvc_ptr_name(cvc_buf *b, int as) {
    if (as)
        cvc_buf_printf(b, "ptr addrspace(%d)", as);
    else
        cvc_buf_str(b, "ptr");
}

/* Appends text[0..len) with its constant-expression casts fixed:
 *  - a cast of null is null: NULL converted to another address space is NULL in OpenCL C, but
 *    NVPTX converts the shared (or local) address 0 to the generic address of that window;
 *  - a cast between named spaces goes through the generic space. */
static void cvc_constant_casts(cvc_buf *b, const char *text, size_t len, bool *changed) {
    static const char key[] = "addrspacecast (";
    const char *end = text + len, *from = text;
    for (const char *at = memmem(text, len, key, sizeof key - 1); at;
         at = memmem(at, (size_t)(end - at), key, sizeof key - 1)) {
        cvc_cast c;
        if (!cvc_cast_parse(at, &c) || c.end > end) {
            at++;
            continue;
        }
        cvc_buf_add(b, from, (size_t)(at - from));
        if (cvc_cast_of_null(&c)) {
            cvc_buf_str(b, "null");
            *changed = true;
        } else if (cvc_cast_between_named(&c)) {
            /* Through an integer: LLVM folds two address-space casts of a constant into one
             * again. A generic address taken as a global one is the same address; as a shared
             * one it is past the shared window, so it compares unequal to every shared
             * pointer, as a pointer of another space should. */
            cvc_buf_printf(b, "inttoptr (i64 ptrtoint (ptr addrspacecast (ptr addrspace(%d) ",
                           c.from);
            cvc_constant_casts(b, c.op, c.op_len, changed);
            cvc_buf_printf(b, " to ptr) to i64) to ptr addrspace(%d))", c.to);
            *changed = true;
        } else {
            cvc_buf_add(b, at, (size_t)(c.op - at));
            cvc_constant_casts(b, c.op, c.op_len, changed);
            cvc_buf_add(b, c.op + c.op_len, (size_t)(c.end - (c.op + c.op_len)));
        }
        from = at = c.end;
    }
    cvc_buf_add(b, from, (size_t)(end - from));
}

/* An instruction "  %r = addrspacecast ptr addrspace(N) X to ptr addrspace(M)..." (the line
 * from its start): true with the cast, *result the text of "%r = ". */
static bool cvc_cast_instruction(const char *line, size_t len, cvc_cast *c, size_t *result) {
    static const char key[] = " = addrspacecast ptr";
    const char *at = memmem(line, len, key, sizeof key - 1);
    size_t indent = strspn(line, " ");
    if (!at || line[indent] != '%' || memchr(line + indent, ' ', (size_t)(at - line - indent)))
        return false;
    *result = (size_t)(at + 3 - line);
    return cvc_cast_parse(at + 3, c) && c->end <= line + len;
}

/* Is there a cast to fix (most modules have none: they are not copied)? */
static bool cvc_casts_to_fix(const char *ll) {
    for (const char *at = strstr(ll, "addrspacecast "); at; at = strstr(at + 1, "addrspacecast ")) {
        cvc_cast c;
        if (cvc_cast_parse(at, &c) && (cvc_cast_of_null(&c) || cvc_cast_between_named(&c)))
            return true;
    }
    return false;
}

char *cvc_ir_fix_casts(const char *ll) {
    if (!cvc_casts_to_fix(ll))
        return NULL;
    cvc_buf b = {0};
    bool changed = false;
    unsigned fresh = 0;
    for (const char *line = ll; *line;) {
        size_t len = strcspn(line, "\n");
        cvc_cast c;
        size_t head;
        if (cvc_cast_instruction(line, len, &c, &head) &&
            (cvc_cast_of_null(&c) || cvc_cast_between_named(&c))) {
            size_t indent = strspn(line, " ");
            if (cvc_cast_of_null(&c)) {
                /* "%r = bitcast ptr addrspace(M) null to ptr addrspace(M)" */
                cvc_buf_add(&b, line, head);
                cvc_buf_str(&b, "bitcast ");
                cvc_ptr_name(&b, c.to);
                cvc_buf_str(&b, " null to ");
                cvc_ptr_name(&b, c.to);
            } else {
                /* One cast to the generic space, then one from it. */
                cvc_buf_printf(&b, "%.*s%%__cv_generic.%u = addrspacecast ptr addrspace(%d) ",
                               (int)indent, line, fresh, c.from);
                cvc_constant_casts(&b, c.op, c.op_len, &changed);
                cvc_buf_printf(&b, " to ptr\n");
                cvc_buf_add(&b, line, head);
                cvc_buf_printf(&b, "addrspacecast ptr %%__cv_generic.%u to ptr addrspace(%d)",
                               fresh++, c.to);
            }
            cvc_constant_casts(&b, c.end, (size_t)(line + len - c.end), &changed);
            changed = true;
        } else {
            cvc_constant_casts(&b, line, len, &changed);
        }
        line += len;
        if (*line == '\n') {
            cvc_buf_add(&b, "\n", 1);
            line++;
        }
    }
    if (!changed || b.failed) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}

/* ---- casts of one generic pointer to global and shared memory in one basic block ---- */

/* A cast of a generic pointer to global or shared memory: "%r = addrspacecast ptr %p to ptr
 * addrspace(N)..." (N 1 or 3). Its operand "%p" (not 0-terminated) and N, or 0. */
static int cvc_ir_cast(const char *line, const char **op, size_t *op_len) {
    static const char cast[] = " = addrspacecast ptr %", to[] = " to ptr addrspace(";
    *op = NULL;
    *op_len = 0;
    const char *c = memmem(line, strcspn(line, "\n"), cast, sizeof cast - 1);
    if (!c || line[strspn(line, " ")] != '%')
        return 0;
    *op = c + sizeof cast - 2;
    *op_len = strcspn(*op, " ,\n");
    const char *t = *op + *op_len;
    if (strncmp(t, to, sizeof to - 1) || (t[sizeof to - 1] != '1' && t[sizeof to - 1] != '3') ||
        t[sizeof to] != ')')
        return 0;
    return t[sizeof to - 1] - '0';
}

/* Does the line start another basic block (a label, a function's start or end)? */
static bool cvc_ir_block_edge(const char *line) {
    size_t body = strcspn(line, ";\n"); /* before a comment */
    while (body > 0 && line[body - 1] == ' ')
        body--;
    return !strncmp(line, "define ", 7) || line[0] == '}' ||
           (body && line[0] != ' ' && line[body - 1] == ':');
}

char *cvc_ir_split_casts(const char *ll) {
    /* The lines to rewrite: in each block, the casts of an operand cast to both spaces. */
    const char *casts[64];
    size_t count = 0, rewrites = 0;
    const char **marked = NULL;
    size_t nmarked = 0, cap = 0;
    for (const char *line = ll; line && *line;) {
        const char *next = strchr(line, '\n');
        next = next ? next + 1 : NULL;
        const char *op;
        size_t op_len;
        int as = cvc_ir_cast(line, &op, &op_len);
        if (as && count < sizeof casts / sizeof casts[0])
            casts[count++] = line;
        if (!next || !*next || cvc_ir_block_edge(next)) {
            for (size_t i = 0; i < count; i++) {
                const char *oi, *oj;
                size_t li, lj;
                int ai = cvc_ir_cast(casts[i], &oi, &li);
                bool both = false;
                for (size_t j = 0; j < count && !both; j++)
                    both = cvc_ir_cast(casts[j], &oj, &lj) != ai && li == lj && !memcmp(oi, oj, li);
                if (!both)
                    continue;
                if (nmarked == cap) {
                    cap = cap ? 2 * cap : 16;
                    const char **m2 = realloc(marked, cap * sizeof *m2);
                    if (!m2) {
                        free(marked);
                        return NULL;
                    }
                    marked = m2;
                }
                marked[nmarked++] = casts[i];
            }
            count = 0;
        }
        line = next;
    }
    if (!nmarked)
        return NULL;
    cvc_buf b = {0};
    const char *from = ll;
    for (size_t k = 0; k < nmarked; k++) {
        const char *op;
        size_t op_len;
        int as = cvc_ir_cast(marked[k], &op, &op_len);
        const char *eq = strstr(marked[k], " = addrspacecast");
        const char *rest = strchr(op + op_len, ')') + 1;
        cvc_buf_add(&b, from, (size_t)(eq - from));
        cvc_buf_printf(&b, " = call ptr addrspace(%d) @llvm.nvvm.ptr.gen.to.%s.p%d.p0(ptr %.*s)",
                       as, as == 1 ? "global" : "shared", as, (int)op_len, op);
        from = rest;
        rewrites |= 1u << as;
    }
    cvc_buf_str(&b, from);
    /* Declared again where the module had them already: cvc_ir_fixups drops the copies. */
    if (rewrites & (1u << 1))
        cvc_buf_str(&b, "\ndeclare ptr addrspace(1) @llvm.nvvm.ptr.gen.to.global.p1.p0(ptr)\n");
    if (rewrites & (1u << 3))
        cvc_buf_str(&b, "\ndeclare ptr addrspace(3) @llvm.nvvm.ptr.gen.to.shared.p3.p0(ptr)\n");
    free(marked);
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}
