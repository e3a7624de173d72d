/* Reading kernel facts from clang's textual IR and finishing the PTX that llc wrote: the //cv:
 * comment lines of docs/kernel-abi.md (argument info, work-group size attributes) and NVIDIA's
 * register limit. */
#include "compiler/cvc_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Metadata nodes "!N = !{...}" by number. */
typedef struct cvc_mdmap {
    const char **node; /* start of the text after "= " */
    size_t count;
} cvc_mdmap;

static void cvc_md_index(const char *ll, cvc_mdmap *m) {
    size_t max = 0;
    for (const char *l = ll; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (l[0] == '!' && isdigit((unsigned char)l[1])) {
            size_t n = strtoul(l + 1, NULL, 10);
            if (n + 1 > max)
                max = n + 1;
        }
    m->node = calloc(max ? max : 1, sizeof *m->node);
    m->count = m->node ? max : 0;
    for (const char *l = ll; m->node && l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (l[0] == '!' && isdigit((unsigned char)l[1])) {
            char *end;
            size_t n = strtoul(l + 1, &end, 10);
            if (!strncmp(end, " = ", 3) && n < max)
                m->node[n] = end + 3;
        }
}

/* The node a function attachment names: " !<name> !N" on the define line. */
static const char *cvc_md_attached(const cvc_mdmap *m, const char *line, size_t line_len,
                                   const char *name) {
    char key[64];
    snprintf(key, sizeof key, " !%s !", name);
    size_t klen = strlen(key);
    for (const char *p = line; p + klen < line + line_len; p++)
        if (!memcmp(p, key, klen)) {
            size_t n = strtoul(p + klen, NULL, 10);
            return n < m->count ? m->node[n] : NULL;
        }
    return NULL;
}

/* Element i of a node "!{a, b, ...}" (or "distinct !{...}"): a string element ("!\"...\"")
 * decoded into out, a number element ("i32 7") as its digits; false past the end. */
static bool cvc_md_elem(const char *node, size_t index, char *out, size_t size) {
    if (!node)
        return false;
    const char *p = strchr(node, '{');
    if (!p)
        return false;
    p++;
    for (size_t i = 0;; i++) {
        while (*p == ' ')
            p++;
        if (*p == '}' || !*p || *p == '\n')
            return false;
        const char *start = p;
        bool str = p[0] == '!' && p[1] == '"';
        if (str) {
            p += 2;
            while (*p && *p != '"' && *p != '\n')
                p++;
            if (*p == '"')
                p++;
        } else {
            int depth = 0;
            while (*p && *p != '\n' && (depth > 0 || (*p != ',' && *p != '}'))) {
                if (*p == '<' || *p == '(' || *p == '{')
                    depth++;
                if (*p == '>' || *p == ')')
                    depth--;
                p++;
            }
        }
        if (i == index) {
            size_t o = 0;
            if (str) {
                for (const char *s = start + 2; s < p - 1 && o + 1 < size; s++) {
                    if (*s == '\\' && isxdigit((unsigned char)s[1]) &&
                        isxdigit((unsigned char)s[2])) {
                        char hex[3] = {s[1], s[2], 0};
                        out[o++] = (char)strtol(hex, NULL, 16);
                        s += 2;
                    } else {
                        out[o++] = *s;
                    }
                }
            } else {
                for (const char *s = start; s < p && o + 1 < size; s++)
                    out[o++] = *s;
                while (o > 0 && out[o - 1] == ' ')
                    o--;
            }
            out[o] = 0;
            return true;
        }
        if (*p == ',')
            p++;
    }
}

/* "i32 64" -> 64 */
static long cvc_md_int(const char *elem) {
    const char *sp = strrchr(elem, ' ');
    return strtol(sp ? sp + 1 : elem, NULL, 10);
}

/* Writes s with blanks as %20 (the //cv: lines are blank-separated). */
static void cvc_put_word(cvc_buf *b, const char *s) {
    for (; *s; s++) {
        if (*s == ' ')
            cvc_buf_str(b, "%20");
        else if (*s == '\n' || *s == '\t')
            cvc_buf_str(b, "%20");
        else
            cvc_buf_add(b, s, 1);
    }
}

static const char *cvc_address_name(long as) {
    switch (as) {
    case 1:
        return "global";
    case 2:
        return "constant";
    case 3:
        return "local";
    default:
        return "private";
    }
}

/* vec_type_hint: "!{<4 x float> undef, i32 1}" -> "float4" (i32 0: unsigned) */
static void cvc_vec_type_name(const char *type, bool is_signed, char *out, size_t size) {
    int width = 1;
    const char *elem = type;
    if (type[0] == '<') {
        width = atoi(type + 1);
        const char *x = strstr(type, " x ");
        elem = x ? x + 3 : type;
    }
    static const struct {
        const char *ir, *cl;
    } names[] = {{"i8", "char"},   {"i16", "short"},   {"i32", "int"},      {"i64", "long"},
                 {"half", "half"}, {"float", "float"}, {"double", "double"}};
    const char *name = "int";
    bool integer = false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i].ir);
        if (!strncmp(elem, names[i].ir, n) && !isalnum((unsigned char)elem[n])) {
            name = names[i].cl;
            integer = elem[0] == 'i';
        }
    }
    char w[16] = "";
    if (width > 1 && width <= 16)
        snprintf(w, sizeof w, "%d", width);
    snprintf(out, size, "%s%s%s", integer && !is_signed ? "u" : "", name, w);
}

static void cvc_size_attr(cvc_buf *b, cvc_buf *attrs, const char *kernel, const char *node,
                          const char *name) {
    char e[3][64];
    if (!node || !cvc_md_elem(node, 0, e[0], 64) || !cvc_md_elem(node, 1, e[1], 64) ||
        !cvc_md_elem(node, 2, e[2], 64))
        return;
    long x = cvc_md_int(e[0]), y = cvc_md_int(e[1]), z = cvc_md_int(e[2]);
    cvc_buf_printf(b, "//cv:%s %s %ld %ld %ld\n", name, kernel, x, y, z);
    cvc_buf_printf(attrs, "%s%s(%ld,%ld,%ld)", attrs->len ? " " : "", name, x, y, z);
}

static void cvc_kernel_lines(cvc_buf *b, const cvc_mdmap *m, const char *kernel, const char *line,
                             size_t len) {
    const char *as = cvc_md_attached(m, line, len, "kernel_arg_addr_space");
    const char *access = cvc_md_attached(m, line, len, "kernel_arg_access_qual");
    const char *type = cvc_md_attached(m, line, len, "kernel_arg_type");
    const char *qual = cvc_md_attached(m, line, len, "kernel_arg_type_qual");
    const char *name = cvc_md_attached(m, line, len, "kernel_arg_name");
    char e[5][1024];
    for (size_t i = 0; cvc_md_elem(as, i, e[0], sizeof e[0]); i++) {
        if (!cvc_md_elem(access, i, e[1], sizeof e[1]))
            snprintf(e[1], sizeof e[1], "none");
        if (!cvc_md_elem(qual, i, e[2], sizeof e[2]))
            e[2][0] = 0;
        if (!cvc_md_elem(type, i, e[3], sizeof e[3]))
            snprintf(e[3], sizeof e[3], "void*");
        if (!cvc_md_elem(name, i, e[4], sizeof e[4]))
            e[4][0] = 0;
        for (char *q = e[2]; *q; q++)
            if (*q == ' ')
                *q = '|';
        cvc_buf_printf(b, "//cv:arg %s %zu %s %s %s ", kernel, i,
                       cvc_address_name(cvc_md_int(e[0])), e[1], e[2][0] ? e[2] : "none");
        cvc_put_word(b, e[3]);
        cvc_buf_str(b, " ");
        cvc_put_word(b, e[4]);
        cvc_buf_str(b, "\n");
    }
    cvc_buf attrs = {0};
    cvc_size_attr(b, &attrs, kernel, cvc_md_attached(m, line, len, "reqd_work_group_size"),
                  "reqd_work_group_size");
    cvc_size_attr(b, &attrs, kernel, cvc_md_attached(m, line, len, "work_group_size_hint"),
                  "work_group_size_hint");
    const char *hint = cvc_md_attached(m, line, len, "vec_type_hint");
    char t[256], s[64], vname[64];
    if (hint && cvc_md_elem(hint, 0, t, sizeof t) && cvc_md_elem(hint, 1, s, sizeof s)) {
        char *undef = strstr(t, " undef");
        if (undef)
            *undef = 0;
        cvc_vec_type_name(t, cvc_md_int(s) != 0, vname, sizeof vname);
        cvc_buf_printf(&attrs, "%svec_type_hint(%s)", attrs.len ? " " : "", vname);
    }
    if (attrs.len) {
        cvc_buf_printf(b, "//cv:kernel-attributes %s ", kernel);
        cvc_put_word(b, attrs.data);
        cvc_buf_str(b, "\n");
    }
    free(attrs.data);
}

char *cvc_kernel_metadata(const char *ll) {
    cvc_mdmap m;
    cvc_md_index(ll, &m);
    cvc_buf b = {0};
    for (const char *l = ll; m.node && l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, "define ", 7))
            continue;
        const char *eol = strchr(l, '\n');
        size_t len = eol ? (size_t)(eol - l) : strlen(l);
        if (!cvc_md_attached(&m, l, len, "kernel_arg_addr_space"))
            continue;
        const char *at = memchr(l, '@', len);
        if (!at)
            continue;
        char kernel[1024];
        size_t k = 0;
        const char *p = at + 1;
        bool quoted = *p == '"';
        if (quoted)
            p++;
        while (p < l + len && k + 1 < sizeof kernel && (quoted ? *p != '"' : *p != '('))
            kernel[k++] = *p++;
        kernel[k] = 0;
        cvc_kernel_lines(&b, &m, kernel, l, len);
    }
    free(m.node);
    return cvc_buf_take(&b);
}

/* _Z<n><name>... -> name (enough to tell the user which builtin is missing). */
static void cvc_demangle(const char *mangled, size_t len, char *out, size_t size) {
    if (len > 2 && mangled[0] == '_' && mangled[1] == 'Z' && isdigit((unsigned char)mangled[2])) {
        char *end;
        size_t n = strtoul(mangled + 2, &end, 10);
        if ((size_t)(end - mangled) + n <= len) {
            snprintf(out, size, "%.*s", (int)n, end);
            return;
        }
    }
    snprintf(out, size, "%.*s", (int)len, mangled);
}

int cvc_undefined_functions(const char *ll, cvc_buf *log) {
    int count = 0;
    for (const char *l = ll; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, "declare ", 8))
            continue;
        const char *eol = strchr(l, '\n');
        size_t len = eol ? (size_t)(eol - l) : strlen(l);
        const char *at = memchr(l, '@', len);
        if (!at)
            continue;
        const char *name = at + 1;
        const char *paren = memchr(name, '(', len - (size_t)(name - l));
        if (!paren)
            continue;
        size_t n = (size_t)(paren - name);
        /* vprintf is CUDA's device runtime (printf, cvc_printf.c): the driver provides it. */
        if ((n == 7 && !strncmp(name, "vprintf", 7)) || (n >= 5 && !strncmp(name, "llvm.", 5)) ||
            (n == 14 && !strncmp(name, "__nvvm_reflect", 14)))
            continue;
        /* Only a declaration something calls is a problem. */
        char ref[1100];
        if (n + 3 > sizeof ref)
            continue;
        snprintf(ref, sizeof ref, "@%.*s(", (int)n, name);
        size_t uses = 0;
        for (const char *u = strstr(ll, ref); u; u = strstr(u + 1, ref))
            uses++;
        if (uses < 2)
            continue;
        char shown[512];
        cvc_demangle(name, n, shown, sizeof shown);
        if (log)
            cvc_buf_printf(log,
                           "error: '%s' (%.*s) is called but defined neither in the program (its "
                           "sources, objects and libraries) nor in culvert's OpenCL C library\n",
                           shown, (int)n, name);
        count++;
    }
    return count;
}

/* The name a `.func` line declares or defines: the word before its parameter list. */
static size_t cvc_func_name(const char *line, size_t len, const char **name) {
    const char *end = line + len, *p = line + 5; /* past ".func" */
    /* A return-value list comes first: skip it. */
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p < end && *p == '(') {
        const char *close = memchr(p, ')', (size_t)(end - p));
        p = close ? close + 1 : end;
    }
    while (p < end && isspace((unsigned char)*p))
        p++;
    const char *start = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '$'))
        p++;
    *name = start;
    return (size_t)(p - start);
}

/* Does the `.func` starting at line end in ';' (a prototype) rather than a body? */
static bool cvc_func_is_prototype(const char *line) {
    size_t stop = strcspn(line, ";{");
    return line[stop] == ';';
}

/* Is a function of this name defined (with a body) anywhere in the PTX? */
static bool cvc_func_defined(const char *ptx, const char *name, size_t n) {
    for (const char *l = ptx; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *f = strncmp(l, ".func", 5) == 0 ? l : NULL;
        if (!f && strncmp(l, ".visible .func", 14) == 0)
            f = l + 9;
        const char *got = NULL;
        size_t len = f ? strcspn(f, "\n") : 0;
        if (f && cvc_func_name(f, len, &got) == n && !strncmp(got, name, n) &&
            !cvc_func_is_prototype(f))
            return true;
    }
    return false;
}

char *cvc_ptx_finish(const char *ptx, const char *metadata, int maxnreg, bool uniform) {
    cvc_buf b = {0};
    const char *after_header = strstr(ptx, ".address_size");
    const char *split = after_header ? strchr(after_header, '\n') : NULL;
    split = split ? split + 1 : ptx;
    /* The header, in unified texture mode: llc writes texmode_independent for the nvcl OS, in
     * which a texture instruction takes a separate sampler; the image builtins' texture path
     * (builtins/images.cl) passes CUDA texture objects, which hold their sampling state. */
    static const char texmode[] = ", texmode_independent";
    const char *mode = memmem(ptx, (size_t)(split - ptx), texmode, sizeof texmode - 1);
    if (mode) {
        cvc_buf_add(&b, ptx, (size_t)(mode - ptx));
        cvc_buf_add(&b, mode + sizeof texmode - 1, (size_t)(split - mode) - (sizeof texmode - 1));
    } else
        cvc_buf_add(&b, ptx, (size_t)(split - ptx));
    if (metadata && *metadata) {
        cvc_buf_str(&b, "\n");
        cvc_buf_str(&b, metadata);
    }
    bool in_entry = false;
    static const char visible[] = ".visible .shared .align 8 .b8 __cv_launch_info[64];";
    for (const char *l = split; *l;) {
        const char *eol = strchr(l, '\n');
        size_t len = eol ? (size_t)(eol - l + 1) : strlen(l);
        /* The block as docs/kernel-abi.md writes it (module scope, no .visible). */
        const char *fname = NULL;
        size_t fname_len = strncmp(l, ".func", 5) == 0 ? cvc_func_name(l, len, &fname) : 0;
        if (len >= sizeof visible - 1 && !strncmp(l, visible, sizeof visible - 1))
            cvc_buf_add(&b, l + 9, len - 9);
        else if (fname_len && cvc_func_is_prototype(l) &&
                 !cvc_func_defined(split, fname, fname_len)) {
            /* llc writes no linkage directives for the OpenCL driver interface (nvcl), so a
             * function the module only calls (vprintf, from CUDA's device runtime) is a bare
             * prototype; CUDA's JIT needs it `.extern` (the driver crashed resolving it). */
            cvc_buf_str(&b, ".extern ");
            cvc_buf_add(&b, l, len);
        } else
            cvc_buf_add(&b, l, len);
        if (maxnreg > 0) {
            /* The code part of the line: llc appends "// @name" comments. */
            size_t body = len - (eol ? 1 : 0);
            const char *comment = memmem(l, body, "//", 2);
            if (comment)
                body = (size_t)(comment - l);
            while (body > 0 && isspace((unsigned char)l[body - 1]))
                body--;
            bool entry_line = memmem(l, body, ".entry ", 7) != NULL;
            bool closes = body > 0 && l[body - 1] == ')';
            if (entry_line && !closes)
                in_entry = true;
            else if ((entry_line && closes) || (in_entry && body == 1 && l[0] == ')')) {
                in_entry = false;
                cvc_buf_printf(&b, "%s.maxnreg %d\n", eol ? "" : "\n", maxnreg);
            }
        }
        l += len;
    }
    /* One line per kernel, after the code: comments anywhere are read by the loader. */
    for (const char *e = split; uniform && (e = strstr(e, ".entry ")) != NULL; e += 7) {
        const char *name = e + 7;
        size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$");
        cvc_buf_printf(&b, "//cv:uniform-work-groups %.*s\n", (int)n, name);
    }
    return cvc_buf_take(&b);
}

/* The name a `declare` line declares (after '@', up to '('), or NULL. */
static const char *cvc_ir_declared(const char *line, size_t *len) {
    if (strncmp(line, "declare ", 8) != 0)
        return NULL;
    const char *at = strchr(line, '@');
    const char *nl = strchr(line, '\n');
    if (!at || (nl && at > nl))
        return NULL;
    *len = strcspn(at, "(\n");
    return at;
}

/* A module that used an intrinsic on both __global and __constant pointers declares it twice
 * once the address spaces are one (@llvm.memcpy.p0.p1.i64): later copies become comments. */
static void cvc_ir_drop_duplicate_declarations(char *ll) {
    /* The declarations kept so far; each line is compared with them only. */
    const char **seen = NULL;
    size_t *seen_len = NULL, count = 0, cap = 0;
    for (char *line = ll; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        size_t n = 0;
        const char *name = cvc_ir_declared(line, &n);
        if (!name)
            continue;
        bool dup = false;
        for (size_t i = 0; i < count && !dup; i++)
            dup = seen_len[i] == n && memcmp(seen[i], name, n) == 0;
        if (dup) {
            line[0] = ';';
            continue;
        }
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            const char **s2 = realloc(seen, cap * sizeof *s2);
            size_t *l2 = s2 ? realloc(seen_len, cap * sizeof *l2) : NULL;
            if (s2)
                seen = s2;
            if (!l2)
                break; /* out of memory: later duplicates stay (llc then says so) */
            seen_len = l2;
        }
        seen[count] = name;
        seen_len[count++] = n;
    }
    free(seen);
    free(seen_len);
}

/* __constant is NVPTX's addrspace(4), the 64 KiB constant bank, which `ld.const` reads by bank
 * offset. A __constant kernel argument is a buffer in global memory, and one __constant pointer
 * type must reach both program-scope constants and such buffers: culvert puts all of them in
 * global memory (docs/kernel-abi.md: __constant arguments are plain device pointers). The
 * rewrite is a consistent renaming of the address space in the whole module, done in place:
 * "addrspace(4)" -> "addrspace(1)", and the ".p4" pointer suffixes of intrinsic names
 * (@llvm.memcpy.p0.p4.i64) -> ".p1". */
void cvc_ir_fixups(char *ll) {
    /* The launch block must stay a module-scope variable (the loader's prologue writes it in
     * every entry): llc moves an internal .shared variable that one function uses into that
     * function ("demoted variable"). Blanks keep the text's length. */
    static const char internal_decl[] = "@__cv_launch_info = internal ";
    char *decl = strstr(ll, internal_decl);
    if (decl)
        memset(decl + sizeof internal_decl - 10, ' ', 8);
    for (char *p = strstr(ll, "addrspace(4)"); p; p = strstr(p, "addrspace(4)"))
        p[10] = '1', p += 12;
    for (char *p = strstr(ll, "@llvm."); p; p = strstr(p + 1, "@llvm.")) {
        char *end = p + 1;
        while (isalnum((unsigned char)*end) || *end == '.' || *end == '_')
            end++;
        for (char *q = p; q + 3 <= end; q++)
            if (q[0] == '.' && q[1] == 'p' && q[2] == '4' && (q + 3 == end || q[3] == '.'))
                q[2] = '1';
    }
    cvc_ir_drop_duplicate_declarations(ll);
}
