/* Integer multiplies of optimized textual IR rewritten into multiply-adds before llc
 * (cvc_internal.h: cvc_ir_mads). */
#include "compiler/cvc_internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The local name at p ("%x"; quoted names are left alone): its length with the '%', or 0. */
static size_t cvc_mad_local(const char *p) {
    size_t n = *p == '%' ? cvc_ir_ident(p + 1) : 0;
    return n ? n + 1 : 0;
}

/* One integer add or mul, "  %r = add|mul[ nuw][ nsw] TYPE A, B": spans into its line. */
typedef struct cvc_arith {
    const char *r, *type, *a, *b;
    size_t r_len, type_len, a_len, b_len;
    bool mul;
    bool b_is_one; /* B is 1, or a vector of 1s */
} cvc_arith;

/* An integer type (i8 ... i64, or a vector of one) at p: its length, 0 for others. */
static size_t cvc_mad_int_type(const char *p, unsigned *lanes) {
    const char *q = p;
    *lanes = 0;
    if (*q == '<') {
        char *end;
        unsigned long n = strtoul(q + 1, &end, 10);
        if (end == q + 1 || strncmp(end, " x ", 3) || n < 2 || n > 64)
            return 0;
        *lanes = (unsigned)n;
        q = end + 3;
    }
    if (*q++ != 'i' || !isdigit((unsigned char)*q))
        return 0;
    while (isdigit((unsigned char)*q))
        q++;
    if (*lanes && *q++ != '>')
        return 0;
    return cvc_ir_ident(q) ? 0 : (size_t)(q - p);
}

/* 1 of the type (its element "iN" in type[..elem_len]) at p: the length, 0 for anything else. */
static size_t cvc_mad_one(const char *p, const char *elem, size_t elem_len, unsigned lanes) {
    if (!lanes)
        return p[0] == '1' && !cvc_ir_ident(p + 1) ? 1 : 0;
    const char *q = p;
    if (*q++ != '<')
        return 0;
    for (unsigned i = 0; i < lanes; i++) {
        if (i && strncmp(q, ", ", 2) == 0)
            q += 2;
        else if (i)
            return 0;
        if (strncmp(q, elem, elem_len) || strncmp(q + elem_len, " 1", 2) ||
            cvc_ir_ident(q + elem_len + 2))
            return 0;
        q += elem_len + 2;
    }
    return *q == '>' ? (size_t)(q + 1 - p) : 0;
}

static bool cvc_mad_parse(const char *l, const char *eol, cvc_arith *x) {
    if (strncmp(l, "  %", 3))
        return false;
    x->r = l + 2;
    x->r_len = cvc_mad_local(x->r);
    if (!x->r_len)
        return false;
    const char *p = x->r + x->r_len;
    if (!strncmp(p, " = add ", 7))
        x->mul = false;
    else if (!strncmp(p, " = mul ", 7))
        x->mul = true;
    else
        return false;
    p += 6;
    while (!strncmp(p, " nuw ", 5) || !strncmp(p, " nsw ", 5))
        p += 4;
    if (*p++ != ' ')
        return false;
    unsigned lanes;
    x->type = p;
    x->type_len = cvc_mad_int_type(p, &lanes);
    if (!x->type_len || p[x->type_len] != ' ')
        return false;
    p += x->type_len + 1;
    x->a = p;
    x->a_len = cvc_mad_local(p);
    if (!x->a_len || strncmp(p + x->a_len, ", ", 2))
        return false;
    p += x->a_len + 2;
    x->b = p;
    x->b_len = cvc_mad_local(p);
    x->b_is_one = false;
    if (!x->b_len) {
        const char *elem = lanes ? strchr(x->type, 'i') : x->type;
        size_t elem_len = lanes ? (size_t)(strchr(elem, '>') - elem) : x->type_len;
        x->b_len = cvc_mad_one(p, elem, elem_len, lanes);
        x->b_is_one = x->b_len != 0;
    }
    return x->b_len && p + x->b_len == eol;
}

static bool cvc_mad_same(const char *a, size_t a_len, const char *b, size_t b_len) {
    return a_len == b_len && !memcmp(a, b, a_len);
}

/* ---- a function's definitions by name ---- */

typedef struct cvc_mad_def {
    cvc_arith x;
    bool used;
} cvc_mad_def;

typedef struct cvc_mad_defs {
    cvc_mad_def *slots;
    size_t cap;
} cvc_mad_defs;

static size_t cvc_mad_slot(const cvc_mad_defs *t, const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    size_t i = (size_t)h & (t->cap - 1);
    while (t->slots[i].used && !cvc_mad_same(t->slots[i].x.r, t->slots[i].x.r_len, s, n))
        i = (i + 1) & (t->cap - 1);
    return i;
}

/* The add or mul that defines name (of the type), or NULL. */
static const cvc_arith *cvc_mad_find(const cvc_mad_defs *t, const char *s, size_t n,
                                     const cvc_arith *like) {
    const cvc_mad_def *d = &t->slots[cvc_mad_slot(t, s, n)];
    return d->used && cvc_mad_same(d->x.type, d->x.type_len, like->type, like->type_len) ? &d->x
                                                                                         : NULL;
}

/* Is def `mul U, V` with {U, V} == {p, q}? */
static bool cvc_mad_is_product(const cvc_arith *def, const char *p, size_t p_len, const char *q,
                               size_t q_len) {
    return def && def->mul && !def->b_is_one &&
           ((cvc_mad_same(def->a, def->a_len, p, p_len) &&
             cvc_mad_same(def->b, def->b_len, q, q_len)) ||
            (cvc_mad_same(def->a, def->a_len, q, q_len) &&
             cvc_mad_same(def->b, def->b_len, p, p_len)));
}

/* For the multiply m, a product P and an addend S such that m = P + S is the same value and the
 * sum llc fuses into one mad.lo: m = Y * (X + 1) gives Y * X + Y; m = (A + B) * C where A is
 * B * C gives A * C + A. False where neither holds. */
static bool cvc_mad_match(const cvc_mad_defs *t, const cvc_arith *m, const char **f1,
                          size_t *f1_len, const char **f2, size_t *f2_len, const char **s,
                          size_t *s_len) {
    if (m->b_is_one)
        return false;
    for (int side = 0; side < 2; side++) {
        const char *op = side ? m->b : m->a, *other = side ? m->a : m->b;
        size_t op_len = side ? m->b_len : m->a_len, other_len = side ? m->a_len : m->b_len;
        const cvc_arith *sum = cvc_mad_find(t, op, op_len, m);
        if (!sum || sum->mul)
            continue;
        if (sum->b_is_one) { /* Y * (X + 1) */
            *f1 = other, *f1_len = other_len, *f2 = sum->a, *f2_len = sum->a_len;
            *s = other, *s_len = other_len;
            return true;
        }
        for (int k = 0; k < 2; k++) { /* (A + B) * C, A = B * C */
            const char *a = k ? sum->b : sum->a, *b = k ? sum->a : sum->b;
            size_t a_len = k ? sum->b_len : sum->a_len, b_len = k ? sum->a_len : sum->b_len;
            if (cvc_mad_is_product(cvc_mad_find(t, a, a_len, m), b, b_len, other, other_len)) {
                *f1 = a, *f1_len = a_len, *f2 = other, *f2_len = other_len;
                *s = a, *s_len = a_len;
                return true;
            }
        }
    }
    return false;
}

typedef struct cvc_mad_line {
    const char *s, *eol;
    char *replacement; /* malloc'ed, in place of the line (no newline), or NULL */
} cvc_mad_line;

static void cvc_mad_function(cvc_mad_line *lines, size_t first, size_t end, unsigned *made,
                             bool *oom) {
    size_t cap = 64;
    while (cap < (end - first) * 2)
        cap *= 2;
    cvc_mad_defs t = {calloc(cap, sizeof(cvc_mad_def)), cap};
    if (!t.slots) {
        *oom = true;
        return;
    }
    for (size_t i = first; i < end; i++) {
        cvc_arith x;
        if (cvc_mad_parse(lines[i].s, lines[i].eol, &x)) {
            cvc_mad_def *d = &t.slots[cvc_mad_slot(&t, x.r, x.r_len)];
            d->x = x;
            d->used = true;
        }
    }
    /* The definitions stay as they were: a rewritten multiply is the same value. */
    for (size_t i = first; i < end && !*oom; i++) {
        cvc_arith m;
        const char *f1, *f2, *s;
        size_t f1_len, f2_len, s_len;
        if (!cvc_mad_parse(lines[i].s, lines[i].eol, &m) || !m.mul ||
            !cvc_mad_match(&t, &m, &f1, &f1_len, &f2, &f2_len, &s, &s_len))
            continue;
        cvc_buf b = {0};
        cvc_buf_printf(
            &b, "  %%cv.mad.%.*s = mul %.*s %.*s, %.*s\n  %.*s = add %.*s %%cv.mad.%.*s, %.*s",
            (int)m.r_len - 1, m.r + 1, (int)m.type_len, m.type, (int)f1_len, f1, (int)f2_len, f2,
            (int)m.r_len, m.r, (int)m.type_len, m.type, (int)m.r_len - 1, m.r + 1, (int)s_len, s);
        if (b.failed) {
            free(b.data);
            *oom = true;
            break;
        }
        lines[i].replacement = cvc_buf_take(&b);
        (*made)++;
    }
    free(t.slots);
}

char *cvc_ir_mads(const char *ll) {
    if (!strstr(ll, " = mul "))
        return NULL;
    size_t n = 1;
    for (const char *p = ll; *p; p++)
        n += *p == '\n';
    cvc_mad_line *lines = calloc(n, sizeof *lines);
    if (!lines)
        return NULL;
    size_t count = 0;
    for (const char *p = ll; *p;) {
        const char *eol = strchr(p, '\n');
        eol = eol ? eol : p + strlen(p);
        lines[count++] = (cvc_mad_line){p, eol, NULL};
        p = *eol ? eol + 1 : eol;
    }
    unsigned made = 0;
    bool oom = false;
    for (size_t i = 0; i < count && !oom; i++) {
        if (strncmp(lines[i].s, "define ", 7))
            continue;
        size_t end = i + 1;
        while (end < count && !(lines[end].eol - lines[end].s == 1 && lines[end].s[0] == '}'))
            end++;
        cvc_mad_function(lines, i + 1, end, &made, &oom);
        i = end;
    }
    char *out = NULL;
    if (made && !oom) {
        cvc_buf b = {0};
        for (size_t i = 0; i < count; i++) {
            if (lines[i].replacement)
                cvc_buf_str(&b, lines[i].replacement);
            else
                cvc_buf_add(&b, lines[i].s, (size_t)(lines[i].eol - lines[i].s));
            if (*lines[i].eol == '\n')
                cvc_buf_add(&b, "\n", 1);
        }
        if (b.failed)
            free(b.data);
        else
            out = cvc_buf_take(&b);
    }
    for (size_t i = 0; i < count; i++)
        free(lines[i].replacement);
    free(lines);
    return out;
}
