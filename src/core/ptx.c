/* PTX parsing: a small tokenizer over the text (comments and strings skipped, //cv: comments
 * collected), then the module-scope structure: entries, their parameters and directives. */
#include "core/ptx.h"
#include "core/ptx_edit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cv_tok {
    size_t start, len;
} cv_tok;

typedef struct cv_lexer {
    const char *s;
    size_t len, pos;
    /* //cv: comments seen, as [start, end) ranges of their text after "//cv:". */
    struct {
        size_t start, end;
    } * meta;
    size_t num_meta, cap_meta;
    bool oom;
} cv_lexer;

static void cv_lex_meta(cv_lexer *lx, size_t start, size_t end) {
    if (lx->num_meta == lx->cap_meta) {
        size_t cap = lx->cap_meta ? lx->cap_meta * 2 : 16;
        void *p = realloc(lx->meta, cap * sizeof *lx->meta);
        if (!p) {
            lx->oom = true;
            return;
        }
        lx->meta = p;
        lx->cap_meta = cap;
    }
    lx->meta[lx->num_meta].start = start;
    lx->meta[lx->num_meta].end = end;
    lx->num_meta++;
}

/* A // comment on the lexer's way: //cv: lines are noted. */
static void cv_lex_comment(void *arg, size_t start, size_t stop) {
    cv_lexer *lx = arg;
    if (stop - start >= 5 && memcmp(lx->s + start, "//cv:", 5) == 0)
        cv_lex_meta(lx, start + 5, stop);
}

/* The next token; false at the end. Tokens: identifiers and directives (letters, digits, _ $ %
 * and dots), strings, and single punctuation characters. */
static bool cv_lex(cv_lexer *lx, cv_tok *t) {
    const char *s = lx->s;
    size_t n = lx->len, p = cv_ptx_skip_lines(s, n, lx->pos, cv_lex_comment, lx);
    if (p >= n || s[p] == '\0') {
        lx->pos = n;
        return false;
    }
    t->start = p;
    if (s[p] == '"') {
        p++;
        while (p < n && s[p] != '"' && s[p] != '\n')
            p += (s[p] == '\\' && p + 1 < n) ? 2 : 1;
        if (p < n && s[p] == '"')
            p++;
    } else if (cv_ptx_is_ident(s[p])) {
        while (p < n && cv_ptx_is_ident(s[p]))
            p++;
    } else {
        p++;
    }
    t->len = p - t->start;
    lx->pos = p;
    return true;
}

static bool cv_tok_is(const cv_lexer *lx, const cv_tok *t, const char *word) {
    size_t l = strlen(word);
    return t->len == l && memcmp(lx->s + t->start, word, l) == 0;
}

static char *cv_tok_dup(const cv_lexer *lx, const cv_tok *t) {
    char *d = malloc(t->len + 1);
    if (d) {
        memcpy(d, lx->s + t->start, t->len);
        d[t->len] = '\0';
    }
    return d;
}

static unsigned long long cv_tok_num(const cv_lexer *lx, const cv_tok *t) {
    char buf[32];
    size_t l = t->len < sizeof buf - 1 ? t->len : sizeof buf - 1;
    memcpy(buf, lx->s + t->start, l);
    buf[l] = '\0';
    return strtoull(buf, NULL, 0);
}

/* Bytes of a PTX fundamental type (.u32 ...), 0 when not one. */
static uint32_t cv_ptx_type_size(const cv_lexer *lx, const cv_tok *t) {
    static const struct {
        const char *name;
        uint32_t size;
    } types[] = {
        {".u8", 1},  {".s8", 1},  {".b8", 1},    {".u16", 2},    {".s16", 2},
        {".b16", 2}, {".f16", 2}, {".bf16", 2},  {".u32", 4},    {".s32", 4},
        {".b32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4}, {".u64", 8},
        {".s64", 8}, {".b64", 8}, {".f64", 8},   {".pred", 1},   {".b128", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (cv_tok_is(lx, t, types[i].name))
            return types[i].size;
    return 0;
}

typedef struct cv_parse {
    cv_lexer lx;
    cv_ptx_module *m;
    char *msg;
    size_t msg_size;
    cl_int err;
    size_t cap_kernels;
} cv_parse;

static void cv_fail(cv_parse *ps, cl_int err, const char *what, size_t at) {
    if (ps->err != CL_SUCCESS)
        return;
    ps->err = err;
    if (ps->msg && ps->msg_size) {
        size_t line = 1;
        for (size_t i = 0; i < at && i < ps->lx.len; i++)
            line += ps->lx.s[i] == '\n';
        snprintf(ps->msg, ps->msg_size, "PTX line %zu: %s", line, what);
    }
}

/* One `.param ...` up to ',' or ')'; *end receives that token. */
static void cv_parse_param(cv_parse *ps, cv_ptx_param *prm, cv_tok *end) {
    cv_lexer *lx = &ps->lx;
    cv_tok t;
    bool after_ptr = false;
    uint32_t elem = 0, count = 1;
    memset(prm, 0, sizeof *prm);
    while (ps->err == CL_SUCCESS && cv_lex(lx, &t)) {
        if (cv_tok_is(lx, &t, ",") || cv_tok_is(lx, &t, ")")) {
            *end = t;
            break;
        }
        if (cv_tok_is(lx, &t, ".param") || cv_tok_is(lx, &t, ".reg"))
            continue;
        if (cv_tok_is(lx, &t, ".align")) {
            cv_tok n;
            if (!cv_lex(lx, &n))
                break;
            uint32_t a = (uint32_t)cv_tok_num(lx, &n);
            if (after_ptr)
                prm->ptr_align = a;
            else
                prm->align = a;
        } else if (cv_tok_is(lx, &t, ".ptr")) {
            after_ptr = true;
            prm->space = CV_PTX_PTR_GENERIC;
        } else if (after_ptr && cv_tok_is(lx, &t, ".global")) {
            prm->space = CV_PTX_PTR_GLOBAL;
        } else if (after_ptr && cv_tok_is(lx, &t, ".shared")) {
            prm->space = CV_PTX_PTR_SHARED;
        } else if (after_ptr && cv_tok_is(lx, &t, ".const")) {
            prm->space = CV_PTX_PTR_CONST;
        } else if (after_ptr && cv_tok_is(lx, &t, ".local")) {
            prm->space = CV_PTX_PTR_LOCAL;
        } else if (cv_ptx_type_size(lx, &t)) {
            elem = cv_ptx_type_size(lx, &t);
        } else if (cv_tok_is(lx, &t, "[")) {
            cv_tok n, close;
            if (!cv_lex(lx, &n) || !cv_lex(lx, &close) || !cv_tok_is(lx, &close, "]")) {
                cv_fail(ps, CL_INVALID_BINARY, "bad parameter array", t.start);
                break;
            }
            count = (uint32_t)cv_tok_num(lx, &n);
        } else if (lx->s[t.start] != '.' && !prm->name) {
            prm->name = cv_tok_dup(lx, &t);
            if (!prm->name)
                cv_fail(ps, CL_OUT_OF_HOST_MEMORY, "out of memory", t.start);
        }
    }
    if (ps->err == CL_SUCCESS && (!prm->name || !elem || !count))
        cv_fail(ps, CL_INVALID_BINARY, "bad .entry parameter", lx->pos);
    prm->size = elem * count;
    if (!prm->align)
        prm->align = elem;
}

/* Reads up to three comma-separated numbers after a directive. */
static void cv_parse_dims(cv_parse *ps, uint64_t dims[3]) {
    cv_lexer *lx = &ps->lx;
    dims[0] = dims[1] = dims[2] = 1;
    for (int i = 0; i < 3; i++) {
        size_t save = lx->pos;
        cv_tok t;
        if (!cv_lex(lx, &t) || !isdigit((unsigned char)lx->s[t.start])) {
            lx->pos = save;
            break;
        }
        dims[i] = cv_tok_num(lx, &t);
        save = lx->pos;
        if (!cv_lex(lx, &t) || !cv_tok_is(lx, &t, ",")) {
            lx->pos = save;
            break;
        }
    }
}

/* Notes a read of an %envreg register (NVIDIA's OpenCL launch environment). */
static bool cv_note_envreg(cv_parse *ps, const cv_tok *t) {
    if (t->len <= 7 || memcmp(ps->lx.s + t->start, "%envreg", 7) != 0)
        return false;
    int n = atoi(ps->lx.s + t->start + 7);
    ps->m->has_envreg = true;
    if (n > 8 && ps->m->opencl_abi && ps->m->envreg_unknown < 0)
        ps->m->envreg_unknown = n;
    return true;
}

/* `.entry name ( params ) directives { body }` (or a declaration ending in ';'); its statement
 * starts at decl_start. */
static void cv_parse_entry(cv_parse *ps, size_t decl_start) {
    cv_lexer *lx = &ps->lx;
    cv_ptx_kernel k;
    cv_tok t;
    memset(&k, 0, sizeof k);
    if (!cv_lex(lx, &t) || !cv_ptx_is_ident(lx->s[t.start])) {
        cv_fail(ps, CL_INVALID_BINARY, ".entry without a name", lx->pos);
        return;
    }
    k.name = cv_tok_dup(lx, &t);
    k.decl_start = decl_start;
    size_t cap = 0, name_end = t.start + t.len;
    bool have = cv_lex(lx, &t);
    if (have && cv_tok_is(lx, &t, "(")) {
        k.params_open = t.start;
        cv_tok end = t;
        size_t save = lx->pos;
        cv_tok peek;
        if (cv_lex(lx, &peek) && cv_tok_is(lx, &peek, ")")) {
            end = peek;
        } else {
            lx->pos = save;
            while (ps->err == CL_SUCCESS) {
                if (k.num_params == cap) {
                    cap = cap ? cap * 2 : 8;
                    void *p = realloc(k.params, cap * sizeof *k.params);
                    if (!p) {
                        cv_fail(ps, CL_OUT_OF_HOST_MEMORY, "out of memory", t.start);
                        break;
                    }
                    k.params = p;
                }
                end.len = 0;
                cv_parse_param(ps, &k.params[k.num_params], &end);
                k.num_params++;
                if (end.len == 0)
                    cv_fail(ps, CL_INVALID_BINARY, "unterminated parameter list", lx->pos);
                if (ps->err != CL_SUCCESS || cv_tok_is(lx, &end, ")"))
                    break;
            }
        }
        k.params_close = end.start;
        have = cv_lex(lx, &t);
    } else {
        k.no_param_list = true;
        k.params_open = k.params_close = name_end;
    }
    /* Performance directives up to the body. */
    bool declaration = false;
    while (ps->err == CL_SUCCESS && have && !cv_tok_is(lx, &t, "{")) {
        uint64_t d[3];
        if (cv_tok_is(lx, &t, ";")) {
            declaration = true;
            break;
        } else if (cv_tok_is(lx, &t, ".reqntid")) {
            cv_parse_dims(ps, d);
            for (int i = 0; i < 3; i++)
                k.reqd_work_group_size[i] = d[i];
        } else if (cv_tok_is(lx, &t, ".maxntid")) {
            cv_parse_dims(ps, d);
            k.max_threads = d[0] * d[1] * d[2];
        } else if (cv_tok_is(lx, &t, ".reqnctapercluster")) {
            cv_parse_dims(ps, d);
            for (int i = 0; i < 3; i++)
                k.cluster_dims[i] = (uint32_t)d[i];
        }
        have = cv_lex(lx, &t);
    }
    if (ps->err == CL_SUCCESS && !declaration) {
        if (!have) {
            cv_fail(ps, CL_INVALID_BINARY, ".entry without a body", lx->pos);
        } else {
            k.body_open = t.start;
            int depth = 1;
            while (depth > 0 && cv_lex(lx, &t)) {
                if (cv_note_envreg(ps, &t))
                    continue;
                if (cv_tok_is(lx, &t, "{"))
                    depth++;
                else if (cv_tok_is(lx, &t, "}"))
                    depth--;
            }
            if (depth > 0)
                cv_fail(ps, CL_INVALID_BINARY, "unterminated .entry body", k.body_open);
            k.body_close = t.start;
        }
    }
    for (uint32_t i = 0; i < k.num_params; i++)
        k.has_shared_ptr |= k.params[i].space == CV_PTX_PTR_SHARED;
    cv_ptx_module *m = ps->m;
    if (ps->err == CL_SUCCESS && !declaration && k.name) {
        if (m->num_kernels == ps->cap_kernels) {
            size_t c = ps->cap_kernels ? ps->cap_kernels * 2 : 8;
            void *p = realloc(m->kernels, c * sizeof *m->kernels);
            if (!p) {
                cv_fail(ps, CL_OUT_OF_HOST_MEMORY, "out of memory", 0);
            } else {
                m->kernels = p;
                ps->cap_kernels = c;
            }
        }
        if (ps->err == CL_SUCCESS) {
            m->kernels[m->num_kernels++] = k;
            return;
        }
    }
    for (uint32_t i = 0; i < k.num_params; i++)
        free(k.params[i].name);
    free(k.params);
    free(k.name);
}

static size_t cv_line_end(const char *s, size_t len, size_t p) {
    while (p < len && s[p] != '\n')
        p++;
    return p < len ? p + 1 : len;
}

/* A module-scope `.global [.align N] .type name[count]` (with an initializer or not). It counts
 * its size rounded up to its alignment: the next variable starts aligned, and an OpenCL C
 * 3-component vector, which has the size of a 4-component one, is `.align 4 .b8 v[3]` for a
 * char3 (its loads read 4 bytes). */
static void cv_parse_global(cv_parse *ps) {
    cv_lexer *lx = &ps->lx;
    cv_tok t;
    uint64_t elem = 0, count = 1, align = 1;
    size_t save = lx->pos;
    while (cv_lex(lx, &t) && !cv_tok_is(lx, &t, ";") && !cv_tok_is(lx, &t, "=")) {
        if (cv_ptx_type_size(lx, &t))
            elem = cv_ptx_type_size(lx, &t);
        else if (cv_tok_is(lx, &t, ".align")) {
            cv_tok n;
            if (cv_lex(lx, &n) && isdigit((unsigned char)lx->s[n.start]) && cv_tok_num(lx, &n))
                align = cv_tok_num(lx, &n);
        } else if (cv_tok_is(lx, &t, "[")) {
            cv_tok n;
            if (cv_lex(lx, &n) && isdigit((unsigned char)lx->s[n.start]))
                count *= cv_tok_num(lx, &n);
        } else if (cv_tok_is(lx, &t, "(") || cv_tok_is(lx, &t, "{")) {
            /* .global in a function prototype or something unexpected: not a variable */
            lx->pos = save;
            return;
        }
    }
    uint64_t bytes = elem * count;
    ps->m->global_bytes += bytes + (align - bytes % align) % align;
    /* An initializer's braces are skipped by the caller's depth tracking; the ';' is left to
     * the caller too, which starts the next statement there (the launch-information
     * declaration a rewrite removes starts at its statement's first token). */
    if (cv_tok_is(lx, &t, "=") || cv_tok_is(lx, &t, ";"))
        lx->pos = t.start + cv_tok_is(lx, &t, "=");
}

/* `.version major.minor`: the number and where its text is (a rewrite may raise it). True when
 * a number follows. */
static bool cv_parse_version(cv_parse *ps) {
    cv_tok t;
    if (!cv_lex(&ps->lx, &t) || !isdigit((unsigned char)ps->lx.s[t.start]))
        return false;
    char buf[16] = "";
    memcpy(buf, ps->lx.s + t.start, t.len < sizeof buf - 1 ? t.len : sizeof buf - 1);
    char *dot = NULL;
    unsigned long major = strtoul(buf, &dot, 10);
    unsigned long minor = *dot == '.' ? strtoul(dot + 1, NULL, 10) : 0;
    ps->m->version = major < 100 && minor < 100 ? (unsigned)(major * 100 + minor) : 0;
    ps->m->version_start = t.start;
    ps->m->version_end = t.start + t.len;
    return true;
}

static void cv_parse_target(cv_parse *ps) {
    cv_tok t;
    if (!cv_lex(&ps->lx, &t))
        return;
    const char *s = ps->lx.s + t.start;
    if (t.len > 3 && memcmp(s, "sm_", 3) == 0) {
        ps->m->target_sm = atoi(s + 3);
        ps->m->target_specific = isalpha((unsigned char)s[t.len - 1]) != 0;
    }
    /* the rest of the line: `, texmode_independent` marks NVIDIA's OpenCL */
    size_t e = cv_line_end(ps->lx.s, ps->lx.len, t.start);
    for (size_t p = t.start; p + 19 <= e; p++)
        if (memcmp(ps->lx.s + p, "texmode_independent", 19) == 0)
            ps->m->opencl_abi = true;
}

/* Splits a metadata line into words; returns the count. */
static int cv_meta_words(const char *s, size_t len, char words[][256], int max) {
    int n = 0;
    size_t p = 0;
    while (n < max) {
        while (p < len && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r'))
            p++;
        if (p >= len)
            break;
        size_t e = p;
        while (e < len && s[e] != ' ' && s[e] != '\t' && s[e] != '\r')
            e++;
        size_t l = e - p < 255 ? e - p : 255;
        memcpy(words[n], s + p, l);
        words[n][l] = '\0';
        n++;
        p = e;
    }
    return n;
}

/* %20 -> space, in place. */
static void cv_unescape(char *s) {
    char *o = s;
    for (; *s; s++) {
        if (s[0] == '%' && s[1] == '2' && s[2] == '0') {
            *o++ = ' ';
            s += 2;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
}

static cv_ptx_kernel *cv_find_mut(cv_ptx_module *m, const char *name) {
    for (uint32_t i = 0; i < m->num_kernels; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

static bool cv_meta_arg(cv_ptx_kernel *k, char w[][256], int n) {
    static const struct {
        const char *name;
        cl_uint value;
    } addr[] = {{"global", CL_KERNEL_ARG_ADDRESS_GLOBAL},
                {"local", CL_KERNEL_ARG_ADDRESS_LOCAL},
                {"constant", CL_KERNEL_ARG_ADDRESS_CONSTANT},
                {"private", CL_KERNEL_ARG_ADDRESS_PRIVATE}},
      access[] = {{"read_only", CL_KERNEL_ARG_ACCESS_READ_ONLY},
                  {"write_only", CL_KERNEL_ARG_ACCESS_WRITE_ONLY},
                  {"read_write", CL_KERNEL_ARG_ACCESS_READ_WRITE},
                  {"none", CL_KERNEL_ARG_ACCESS_NONE}},
      quals[] = {{"const", CL_KERNEL_ARG_TYPE_CONST},
                 {"restrict", CL_KERNEL_ARG_TYPE_RESTRICT},
                 {"volatile", CL_KERNEL_ARG_TYPE_VOLATILE},
                 {"pipe", CL_KERNEL_ARG_TYPE_PIPE},
                 {"none", CL_KERNEL_ARG_TYPE_NONE}};
    /* w: kernel index address access quals type [name]: a SPIR-V module's parameters have no
     * names (the line ends after the type), and their qualifiers still tell images apart. */
    unsigned long idx = strtoul(w[1], NULL, 10);
    if (n < 6 || idx >= k->num_params)
        return false;
    if (!k->arg_info) {
        k->arg_info = calloc(k->num_params, sizeof *k->arg_info);
        if (!k->arg_info)
            return false;
    }
    cv_ptx_arg_info *a = &k->arg_info[idx];
    for (size_t i = 0; i < sizeof addr / sizeof addr[0]; i++)
        if (strcmp(w[2], addr[i].name) == 0)
            a->address = addr[i].value;
    for (size_t i = 0; i < sizeof access / sizeof access[0]; i++)
        if (strcmp(w[3], access[i].name) == 0)
            a->access = access[i].value;
    a->type_qualifier = 0;
    for (char *q = strtok(w[4], "|"); q; q = strtok(NULL, "|"))
        for (size_t i = 0; i < sizeof quals / sizeof quals[0]; i++)
            if (strcmp(q, quals[i].name) == 0)
                a->type_qualifier |= quals[i].value;
    cv_unescape(w[5]);
    free(a->type_name);
    free(a->name);
    a->type_name = strdup(w[5]);
    a->name = strdup(n > 6 ? w[6] : "");
    return a->type_name && a->name;
}

/* Applies the //cv: lines to the kernels they name. */
static void cv_apply_meta(cv_parse *ps) {
    cv_ptx_module *m = ps->m;
    char w[8][256];
    for (size_t i = 0; i < ps->lx.num_meta && ps->err == CL_SUCCESS; i++) {
        const char *s = ps->lx.s + ps->lx.meta[i].start;
        size_t len = ps->lx.meta[i].end - ps->lx.meta[i].start;
        int n = cv_meta_words(s, len, w, 8);
        cv_ptx_kernel *k = n >= 2 ? cv_find_mut(m, w[1]) : NULL;
        if (!k)
            continue;
        if (strcmp(w[0], "arg") == 0 && n >= 7) {
            if (!cv_meta_arg(k, w + 1, n - 1))
                continue;
        } else if ((strcmp(w[0], "reqd_work_group_size") == 0 ||
                    strcmp(w[0], "work_group_size_hint") == 0) &&
                   n >= 5) {
            size_t *d = w[0][0] == 'r' ? k->reqd_work_group_size : k->work_group_size_hint;
            for (int j = 0; j < 3; j++)
                d[j] = strtoull(w[2 + j], NULL, 10);
        } else if (strcmp(w[0], "uniform-work-groups") == 0) {
            k->uniform_work_groups = true;
        } else if (strcmp(w[0], "kernel-attributes") == 0) {
            /* the rest of the line after the kernel name */
            const char *rest = strstr(s, w[1]);
            size_t off = rest ? (size_t)(rest - s) + strlen(w[1]) : len;
            while (off < len && (s[off] == ' ' || s[off] == '\t'))
                off++;
            size_t l = len - off;
            while (l && (s[off + l - 1] == '\r' || s[off + l - 1] == ' '))
                l--;
            char *a = malloc(l + 1);
            if (!a) {
                cv_fail(ps, CL_OUT_OF_HOST_MEMORY, "out of memory", 0);
                break;
            }
            memcpy(a, s + off, l);
            a[l] = '\0';
            free(k->attributes);
            k->attributes = a;
        }
    }
    /* Argument information only when every argument has its line. */
    for (uint32_t i = 0; i < m->num_kernels; i++) {
        cv_ptx_kernel *k = &m->kernels[i];
        bool complete = k->arg_info != NULL;
        for (uint32_t j = 0; complete && j < k->num_params; j++)
            complete = k->arg_info[j].name != NULL;
        if (!complete && k->arg_info) {
            for (uint32_t j = 0; j < k->num_params; j++) {
                free(k->arg_info[j].type_name);
                free(k->arg_info[j].name);
            }
            free(k->arg_info);
            k->arg_info = NULL;
        }
        k->arg_info_named = complete;
        for (uint32_t j = 0; k->arg_info_named && j < k->num_params; j++)
            k->arg_info_named = k->arg_info[j].name[0] != '\0';
        if (!k->attributes)
            k->attributes = strdup("");
        if (!k->attributes)
            cv_fail(ps, CL_OUT_OF_HOST_MEMORY, "out of memory", 0);
    }
}

bool cv_ptx_is_text(const unsigned char *bin, size_t len) {
    cv_lexer lx = {.s = (const char *)bin, .len = len};
    cv_tok t;
    bool ok = cv_lex(&lx, &t) && cv_tok_is(&lx, &t, ".version");
    free(lx.meta);
    /* Text: no NUL before the end (a terminator or two is allowed). */
    for (size_t i = 0; ok && i < len; i++)
        if (bin[i] == '\0') {
            for (size_t j = i; j < len; j++)
                ok = ok && bin[j] == '\0';
            break;
        }
    return ok;
}

cl_int cv_ptx_parse(const char *text, size_t len, cv_ptx_module *out, char *msg, size_t msg_size) {
    cv_parse ps = {.lx = {.s = text, .len = len}, .m = out, .msg = msg, .msg_size = msg_size};
    memset(out, 0, sizeof *out);
    out->envreg_unknown = -1;
    if (msg && msg_size)
        msg[0] = '\0';
    cv_tok t;
    int depth = 0;
    bool saw_version = false;
    size_t stmt_start = 0; /* first token of the current module-scope statement */
    bool new_stmt = true;
    while (ps.err == CL_SUCCESS && cv_lex(&ps.lx, &t)) {
        if (depth == 0 && new_stmt) {
            stmt_start = t.start;
            new_stmt = false;
        }
        if (cv_tok_is(&ps.lx, &t, "{")) {
            depth++;
        } else if (cv_tok_is(&ps.lx, &t, "}")) {
            depth -= depth > 0;
            new_stmt = depth == 0;
        } else if (cv_tok_is(&ps.lx, &t, ";")) {
            new_stmt = depth == 0;
        } else if (cv_note_envreg(&ps, &t)) {
            continue;
        } else if (depth > 0) {
            continue;
        } else if (cv_tok_is(&ps.lx, &t, ".version") || cv_tok_is(&ps.lx, &t, ".target") ||
                   cv_tok_is(&ps.lx, &t, ".address_size")) {
            /* Header directives end at their line, without ';'. */
            if (cv_tok_is(&ps.lx, &t, ".version"))
                saw_version |= cv_parse_version(&ps);
            if (cv_tok_is(&ps.lx, &t, ".target"))
                cv_parse_target(&ps);
            size_t e = cv_line_end(text, len, t.start);
            out->header_end = e;
            ps.lx.pos = e > ps.lx.pos ? e : ps.lx.pos;
            new_stmt = true;
        } else if (cv_tok_is(&ps.lx, &t, ".file")) {
            ps.lx.pos = cv_line_end(text, len, t.start);
            new_stmt = true;
        } else if (cv_tok_is(&ps.lx, &t, ".entry")) {
            cv_parse_entry(&ps, stmt_start);
            new_stmt = true;
        } else if (cv_tok_is(&ps.lx, &t, ".global")) {
            cv_parse_global(&ps);
        } else if (cv_tok_is(&ps.lx, &t, "__cv_launch_info")) {
            out->launch_info = true;
            out->launch_decl_start = stmt_start;
            size_t e = t.start;
            while (e < len && text[e] != ';')
                e++;
            out->launch_decl_end = e < len ? e + 1 : len;
        } else if (cv_tok_is(&ps.lx, &t, "__cv_dynamic_smem")) {
            out->has_dynamic_smem = true;
        }
    }
    if (ps.lx.oom)
        cv_fail(&ps, CL_OUT_OF_HOST_MEMORY, "out of memory", 0);
    if (ps.err == CL_SUCCESS && !saw_version)
        cv_fail(&ps, CL_INVALID_BINARY, "no .version directive: not PTX", 0);
    if (ps.err == CL_SUCCESS && depth != 0)
        cv_fail(&ps, CL_INVALID_BINARY, "unbalanced braces", len);
    if (ps.err == CL_SUCCESS)
        cv_apply_meta(&ps);
    free(ps.lx.meta);
    if (ps.err != CL_SUCCESS)
        cv_ptx_free(out);
    return ps.err;
}

static size_t cv_align_up(size_t n, size_t a) {
    return a > 1 ? (n + a - 1) / a * a : n;
}

size_t cv_ptx_param_space(const cv_ptx_kernel *k, bool launch_info) {
    size_t end = 0;
    for (uint32_t i = 0; i < k->num_params; i++)
        end = cv_align_up(end, k->params[i].align) + k->params[i].size;
    /* `.param .align 8 .b8 __cv_launch_param[80]` (core/ptx_launch.c) */
    if (launch_info)
        end = cv_align_up(end, 8) + sizeof(cv_launch_info);
    return end;
}

const cv_ptx_kernel *cv_ptx_find(const cv_ptx_module *m, const char *name) {
    return cv_find_mut((cv_ptx_module *)m, name);
}

void cv_ptx_free(cv_ptx_module *m) {
    for (uint32_t i = 0; i < m->num_kernels; i++) {
        cv_ptx_kernel *k = &m->kernels[i];
        for (uint32_t j = 0; j < k->num_params; j++) {
            free(k->params[j].name);
            if (k->arg_info) {
                free(k->arg_info[j].type_name);
                free(k->arg_info[j].name);
            }
        }
        free(k->arg_info);
        free(k->params);
        free(k->name);
        free(k->attributes);
    }
    free(m->kernels);
    memset(m, 0, sizeof *m);
}
