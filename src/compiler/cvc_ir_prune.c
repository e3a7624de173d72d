/* A program's own functions that no kernel reaches, dropped before the libraries are linked and
 * the module optimized; the others made internal, so that the optimizer may inline and drop them
 * too (cvc_internal.h, cvc_ir_prune).
 *
 * Why: clBuildProgram's functions other than kernels are visible to nothing outside the program,
 * but clang keeps every function of external linkage, and with GNU inline semantics (which
 * culvert compiles with: code written for NVIDIA's OpenCL expects an `inline` function to be
 * emitted) each `inline` function of a header is one. pyopencl's complex header defines ~60:
 * each program including it had them all optimized, with the math they call, compiled to
 * ~445 KB of PTX and loaded by the driver, for a kernel that used one (0.5 s a build against
 * 0.09 s with them dropped). The textual IR of clang's front end, before any pass, is read as
 * lines: `define` lines start definitions that end at a line `}`; every other line is the
 * module's own (globals, declarations, metadata) and whatever it names stays. */
#include "compiler/cvc_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct cvc_def {
    const char *name; /* unquoted; not 0-terminated */
    size_t name_len;
    const char *start, *end; /* the definition's lines, `define` to the line after its `}` */
    bool kernel, reached;
} cvc_def;

static int cvc_def_cmp(const void *a, const void *b) {
    const cvc_def *x = a, *y = b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

static cvc_def *cvc_def_find(cvc_def *defs, size_t n, const char *name, size_t len) {
    cvc_def key = {.name = name, .name_len = len};
    return bsearch(&key, defs, n, sizeof *defs, cvc_def_cmp);
}

/* The definitions of ll, in order of appearance; NULL (nothing to prune) when a line is not as
 * expected (a quoted name, a definition without its closing line) or out of memory. */
static cvc_def *cvc_defs(const char *ll, size_t *count) {
    size_t n = 0, cap = 0;
    cvc_def *defs = NULL;
    for (const char *l = ll; *l;) {
        const char *eol = strchr(l, '\n');
        const char *next = eol ? eol + 1 : l + strlen(l);
        if (strncmp(l, "define ", 7)) {
            l = next;
            continue;
        }
        const char *at = memchr(l, '@', (size_t)(next - l));
        size_t len = at ? cvc_ir_ident(at + 1) : 0;
        const char *close = strstr(next, "\n}\n");
        if (!len || at[1 + len] != '(' || !close) {
            free(defs);
            return NULL;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            cvc_def *more = realloc(defs, cap * sizeof *defs);
            if (!more) {
                free(defs);
                return NULL;
            }
            defs = more;
        }
        const char *line_end = eol ? eol : next;
        bool kernel = memmem(l, (size_t)(line_end - l), " spir_kernel ", 13) != NULL;
        defs[n++] = (cvc_def){at + 1, len, l, close + 3, kernel, false};
        l = close + 3;
    }
    *count = n;
    return defs;
}

/* Marks what text[0..len) names (@ident) and, through their bodies, what those reach; stack
 * holds definitions still to read. */
static size_t cvc_mark(const char *text, size_t len, cvc_def *sorted, size_t n, cvc_def **stack,
                       size_t top) {
    for (const char *p = memchr(text, '@', len); p;
         p = memchr(p + 1, '@', len - (size_t)(p + 1 - text))) {
        size_t id = cvc_ir_ident(p + 1);
        cvc_def *d = id ? cvc_def_find(sorted, n, p + 1, id) : NULL;
        if (d && !d->reached) {
            d->reached = true;
            stack[top++] = d;
        }
        if ((size_t)(p + 1 - text) >= len)
            break;
    }
    return top;
}

char *cvc_ir_prune(const char *ll) {
    size_t n = 0;
    cvc_def *defs = cvc_defs(ll, &n);
    cvc_def *sorted = defs ? malloc((n ? n : 1) * sizeof *sorted) : NULL;
    cvc_def **stack = sorted ? malloc((n ? n : 1) * sizeof *stack) : NULL;
    char *out = NULL;
    if (!stack)
        goto done;
    memcpy(sorted, defs, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cvc_def_cmp);
    /* Roots: the kernels, and what the module's other lines name. */
    size_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (sorted[i].kernel && !sorted[i].reached) {
            sorted[i].reached = true;
            stack[top++] = &sorted[i];
        }
    const char *from = ll;
    for (size_t i = 0; i <= n; i++) {
        const char *to = i < n ? defs[i].start : ll + strlen(ll);
        top = cvc_mark(from, (size_t)(to - from), sorted, n, stack, top);
        from = i < n ? defs[i].end : to;
    }
    while (top) {
        cvc_def *d = stack[--top];
        top = cvc_mark(d->start, (size_t)(d->end - d->start), sorted, n, stack, top);
    }
    /* The module again: unreached definitions out, reached ones of external linkage internal
     * (those with another linkage or a visibility keep it). */
    cvc_buf b = {0};
    from = ll;
    bool changed = false;
    for (size_t i = 0; i < n; i++) {
        cvc_def *d = cvc_def_find(sorted, n, defs[i].name, defs[i].name_len);
        cvc_buf_add(&b, from, (size_t)(defs[i].start - from));
        from = defs[i].start;
        if (!d->reached) {
            from = defs[i].end;
            changed = true;
        } else if (!d->kernel) {
            const char *rest = defs[i].start + 7; /* after "define " */
            if (!strncmp(rest, "dso_local ", 10))
                rest += 10;
            static const char *const keep[] = {
                "internal ",    "private ", "linkonce",   "weak",    "available_externally ",
                "extern_weak ", "common ",  "appending ", "hidden ", "protected ",
                "dllexport "};
            bool plain = true;
            for (size_t k = 0; k < sizeof keep / sizeof *keep; k++)
                plain = plain && strncmp(rest, keep[k], strlen(keep[k]));
            if (plain) {
                cvc_buf_str(&b, "define internal ");
                from = rest;
                changed = true;
            }
        }
    }
    cvc_buf_str(&b, from);
    if (changed && !b.failed)
        out = cvc_buf_take(&b);
    else
        free(b.data);
done:
    free(stack);
    free(sorted);
    free(defs);
    return out;
}
