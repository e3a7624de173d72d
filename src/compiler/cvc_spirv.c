/* SPIR-V input (clCreateProgramWithIL): the module's specialization constants, read from its
 * words, and the LLVM IR that llvm-spirv gives back (SPIR's address spaces and calling
 * conventions) made into the NVPTX IR that culvert's pipeline takes from clang. */
#include "compiler/cvc_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CVC_SPIRV_MAGIC 0x07230203u

enum {
    CVC_OP_TYPE_BOOL = 20,
    CVC_OP_TYPE_INT = 21,
    CVC_OP_TYPE_FLOAT = 22,
    CVC_OP_SPEC_CONSTANT_TRUE = 48,
    CVC_OP_SPEC_CONSTANT_FALSE = 49,
    CVC_OP_SPEC_CONSTANT = 50,
    CVC_OP_DECORATE = 71,
    CVC_DECORATION_SPEC_ID = 1,
};

/* Word i of the module in its own byte order. */
static uint32_t cvc_spirv_word(const unsigned char *p, size_t i, bool swap) {
    uint32_t w;
    memcpy(&w, p + 4 * i, 4);
    return swap ? __builtin_bswap32(w) : w;
}

static bool cvc_spirv_swapped(const unsigned char *il, size_t len, bool *swap) {
    if (!il || len < 20 || len % 4)
        return false;
    uint32_t w;
    memcpy(&w, il, 4);
    *swap = w == __builtin_bswap32(CVC_SPIRV_MAGIC);
    return w == CVC_SPIRV_MAGIC || *swap;
}

bool cvc_is_spirv(const unsigned char *il, size_t len) {
    bool swap;
    return cvc_spirv_swapped(il, len, &swap);
}

/* A result id's type as llvm-spirv's --spec-const names it ("i32", "f64", "i1"), from the type
 * instructions seen; "" when unknown. */
typedef struct cvc_spirv_type {
    uint32_t id;
    char name[4];
} cvc_spirv_type;

cl_int cvc_spirv_spec_constants(const unsigned char *il, size_t len, cvc_spec_constant **out,
                                size_t *count) {
    bool swap = false;
    *out = NULL;
    *count = 0;
    if (!cvc_spirv_swapped(il, len, &swap))
        return CL_INVALID_VALUE;
    size_t words = len / 4, ntypes = 0, nids = 0, nconst = 0;
    cvc_spirv_type *types = calloc(words, sizeof *types);
    uint32_t(*ids)[2] = calloc(words, sizeof *ids); /* (target, SpecId) */
    cvc_spec_constant *consts = calloc(words, sizeof *consts);
    cl_int err = types && ids && consts ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    /* Instructions: the first word holds the word count (high half) and the opcode. */
    for (size_t i = 5; err == CL_SUCCESS && i < words;) {
        uint32_t first = cvc_spirv_word(il, i, swap), n = first >> 16, op = first & 0xffff;
        if (n == 0 || i + n > words) {
            err = CL_INVALID_VALUE;
            break;
        }
        uint32_t a1 = n > 1 ? cvc_spirv_word(il, i + 1, swap) : 0,
                 a2 = n > 2 ? cvc_spirv_word(il, i + 2, swap) : 0,
                 a3 = n > 3 ? cvc_spirv_word(il, i + 3, swap) : 0;
        if (op == CVC_OP_TYPE_BOOL && n >= 2)
            types[ntypes++] = (cvc_spirv_type){a1, "i1"};
        else if ((op == CVC_OP_TYPE_INT || op == CVC_OP_TYPE_FLOAT) && n >= 3 &&
                 (a2 == 8 || a2 == 16 || a2 == 32 || a2 == 64)) {
            cvc_spirv_type t = {a1, ""};
            snprintf(t.name, sizeof t.name, "%c%u", op == CVC_OP_TYPE_INT ? 'i' : 'f',
                     (unsigned)a2);
            types[ntypes++] = t;
        } else if (op == CVC_OP_DECORATE && n >= 4 && a2 == CVC_DECORATION_SPEC_ID) {
            ids[nids][0] = a1;
            ids[nids++][1] = a3;
        } else if ((op == CVC_OP_SPEC_CONSTANT || op == CVC_OP_SPEC_CONSTANT_TRUE ||
                    op == CVC_OP_SPEC_CONSTANT_FALSE) &&
                   n >= 3) {
            for (size_t t = 0; t < ntypes; t++)
                if (types[t].id == a1) {
                    cvc_spec_constant *c = &consts[nconst++];
                    c->result = a2;
                    memcpy(c->type, types[t].name, sizeof c->type);
                    c->size =
                        c->type[1] == '1' && c->type[2] == 0 ? 1 : (size_t)atoi(c->type + 1) / 8;
                }
        }
        i += n;
    }
    /* Only constants with a SpecId can be set. */
    size_t kept = 0;
    for (size_t c = 0; err == CL_SUCCESS && c < nconst; c++)
        for (size_t d = 0; d < nids; d++)
            if (ids[d][0] == consts[c].result) {
                consts[c].id = ids[d][1];
                consts[kept++] = consts[c];
                break;
            }
    free(types);
    free(ids);
    if (err == CL_SUCCESS) {
        *out = consts;
        *count = kept;
    } else {
        free(consts);
    }
    return err;
}

/* A half's bits as a double (exact). */
static double cvc_half_double(uint16_t h) {
    int e = (h >> 10) & 0x1f;
    double m = h & 0x3ff, sign = h >> 15 ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : sign * INFINITY;
    /* subnormal: m * 2^-24; normal: (1024 + m) * 2^(e - 25) */
    return sign * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

/* Floats in decimal with 17 digits: the double, within half its ulp, which rounds to the same
 * float or half. llvm-spirv 16 reads a value with "0x" as the constant's bits, 15 as a C99 hex
 * float, so hex would mean different values to the two. */
char *cvc_spirv_spec_text(const cvc_spec_constant *c, const uint64_t *values, const bool *set,
                          size_t n, bool *oom) {
    cvc_buf b = {0};
    *oom = false;
    for (size_t i = 0; i < n; i++) {
        if (!set[i])
            continue;
        uint64_t v = values[i];
        cvc_buf_printf(&b, "%s%u:%s:", b.len ? " " : "", c[i].id, c[i].type);
        if (c[i].type[0] == 'f') {
            double d;
            if (c[i].size == 2) {
                d = cvc_half_double((uint16_t)v);
            } else if (c[i].size == 4) {
                float f;
                uint32_t bits = (uint32_t)v;
                memcpy(&f, &bits, sizeof f);
                d = f;
            } else {
                memcpy(&d, &v, sizeof d);
            }
            /* NaN and infinities by name (APFloat reads "nan", "inf", "-inf"). */
            if (isnan(d))
                cvc_buf_str(&b, "nan");
            else
                cvc_buf_printf(&b, "%.17g", d);
        } else {
            int bits = c[i].type[1] == '1' && !c[i].type[2] ? 1 : (int)c[i].size * 8;
            uint64_t masked = bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1);
            /* A bool is true for any nonzero value. */
            cvc_buf_printf(&b, "%llu",
                           bits == 1 ? (unsigned long long)(v != 0) : (unsigned long long)masked);
        }
    }
    if (b.failed)
        *oom = true;
    if (b.failed || !b.len) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}

/* ---- SPIR IR -> NVPTX IR ---- */

/* SPIR's address spaces (0 private, 1 global, 2 constant, 3 local, 4 generic) as NVPTX numbers
 * them (0 generic, 1 global, 3 shared, 4 constant, 5 local): private memory stays 0 (allocas in
 * the generic space, as clang writes them for NVPTX). */
static int cvc_nvptx_space(int spir) {
    return spir == 2 ? 4 : spir == 4 ? 0 : spir;
}

/* Copies an intrinsic's name (p at "llvm.", n bytes) with its pointer suffixes (".p2", ".p4")
 * renumbered. */
static void cvc_put_intrinsic(cvc_buf *b, const char *p, size_t n) {
    for (size_t i = 0; i < n;) {
        if (p[i] == '.' && i + 2 < n && p[i + 1] == 'p' && isdigit((unsigned char)p[i + 2]) &&
            (i + 3 == n || !isdigit((unsigned char)p[i + 3]))) {
            cvc_buf_printf(b, ".p%d", cvc_nvptx_space(p[i + 2] - '0'));
            i += 3;
        } else {
            cvc_buf_add(b, p + i, 1);
            i++;
        }
    }
}

/* ---- mangled names: SPIR's address-space qualifiers as clang writes them for NVPTX ----
 * OpenCL builtins are mangled with the target's numbers: SPIR's constant pointee is `U3AS2`, its
 * generic one `U3AS4`; NVPTX's constant is `U3AS4` and its generic pointee has no qualifier.
 * clang counts the generic pointee as a substitution candidate on NVPTX too (`_Z2g1PfS0_` there
 * for SPIR's `_Z2g1PU3AS4fS0_`), so the substitutions keep their numbers: the qualifiers are
 * replaced in place. */
static char *cvc_nvptx_mangling(const char *name, size_t n) {
    if (n < 3 || strncmp(name, "_Z", 2) || !memmem(name, n, "U3AS", 4))
        return NULL;
    cvc_buf b = {0};
    for (size_t i = 0; i < n;) {
        if (i + 5 <= n && !strncmp(name + i, "U3AS", 4) &&
            (name[i + 4] == '2' || name[i + 4] == '4')) {
            if (name[i + 4] == '2')
                cvc_buf_str(&b, "U3AS4");
            i += 5;
        } else {
            cvc_buf_add(&b, name + i, 1);
            i++;
        }
    }
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}

/* The end of a call's argument at p (a top-level ',' or the closing ')'). */
static const char *cvc_arg_end(const char *p) {
    int depth = 0;
    for (; *p && *p != '\n'; p++) {
        if (*p == '(' || *p == '[' || *p == '{' || *p == '<')
            depth++;
        else if ((*p == ')' || *p == ']' || *p == '}' || *p == '>') && depth-- == 0)
            return p;
        else if (*p == ',' && depth == 0)
            return p;
        else if (*p == '"') {
            const char *q = strchr(p + 1, '"');
            if (!q)
                break;
            p = q;
        }
    }
    return p;
}

/* A printf call's float and half arguments become doubles, as C's default argument promotions
 * (and clang, for OpenCL C) make them: SPIR-V's printf takes them as they are, and the format's
 * %f reads a double. The line at p is a call; its promoted copy goes to b, after the fpext
 * instructions it needs (numbered from *temps). Returns the line's end. */
static const char *cvc_promote_printf(cvc_buf *b, const char *p, unsigned *temps) {
    const char *eol = strchr(p, '\n'), *call = strstr(p, "@printf(");
    eol = eol ? eol : p + strlen(p);
    const char *args = call + sizeof "@printf(" - 1;
    cvc_buf line = {0}, ext = {0};
    cvc_buf_add(&line, p, (size_t)(args - p));
    for (const char *a = args; a < eol;) {
        const char *end = cvc_arg_end(a);
        const char *t = a;
        while (*t == ' ')
            t++;
        size_t tn = !strncmp(t, "float ", 6) ? 5 : !strncmp(t, "half ", 5) ? 4 : 0;
        if (tn) {
            /* type, attributes, value: the value is the last word */
            const char *v = end;
            while (v > t && v[-1] == ' ')
                v--;
            const char *vs = v;
            while (vs > t && vs[-1] != ' ')
                vs--;
            unsigned id = (*temps)++;
            cvc_buf_printf(&ext, "  %%__cv_fpext.%u = fpext %.*s %.*s to double\n", id, (int)tn, t,
                           (int)(v - vs), vs);
            cvc_buf_printf(&line, "%.*sdouble %%__cv_fpext.%u", (int)(t - a), a, id);
        } else {
            cvc_buf_add(&line, a, (size_t)(end - a));
        }
        if (end >= eol || *end != ',') {
            cvc_buf_add(&line, end, (size_t)(eol - end));
            break;
        }
        cvc_buf_add(&line, end, 1);
        a = end + 1;
    }
    if (ext.len)
        cvc_buf_add(b, ext.data, ext.len);
    cvc_buf_add(b, line.data, line.len);
    b->failed |= line.failed || ext.failed;
    free(line.data);
    free(ext.data);
    return eol;
}

/* Every call of printf through cvc_promote_printf; the rest unchanged. */
static char *cvc_printf_promoted(char *ll) {
    if (!ll || !strstr(ll, "@printf("))
        return ll;
    cvc_buf b = {0};
    unsigned temps = 0;
    for (const char *p = ll; *p;) {
        const char *eol = strchr(p, '\n');
        eol = eol ? eol : p + strlen(p);
        const char *call = strstr(p, "@printf(");
        const char *c = strstr(p, " call ");
        if (call && call < eol && c && c < call && strncmp(p, "declare", 7))
            p = cvc_promote_printf(&b, p, &temps);
        else {
            cvc_buf_add(&b, p, (size_t)(eol - p));
            p = eol;
        }
        if (*p == '\n') {
            cvc_buf_add(&b, "\n", 1);
            p++;
        }
    }
    free(ll);
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}

char *cvc_ir_from_spir(const char *ll) {
    static const char as[] = "addrspace(", intr[] = "@llvm.", spir_func[] = "spir_func ",
                      kernel[] = "spir_kernel void @";
    cvc_buf b = {0}, kernels = {0};
    long max_md = -1;
    size_t nk = 0;
    for (const char *p = ll; *p;) {
        if (!strncmp(p, as, sizeof as - 1) && isdigit((unsigned char)p[sizeof as - 1])) {
            char *end;
            long n = strtol(p + sizeof as - 1, &end, 10);
            cvc_buf_printf(&b, "addrspace(%d", cvc_nvptx_space((int)n));
            p = end;
        } else if (!strncmp(p, intr, sizeof intr - 1)) {
            size_t n = 1 + cvc_ir_ident(p + 1);
            cvc_buf_str(&b, "@");
            cvc_put_intrinsic(&b, p + 1, n - 1);
            p += n;
        } else if (!strncmp(p, "@_Z", 3)) {
            size_t n = 1 + cvc_ir_ident(p + 1);
            char *renamed = cvc_nvptx_mangling(p + 1, n - 1);
            cvc_buf_str(&b, "@");
            if (renamed)
                cvc_buf_str(&b, renamed);
            else
                cvc_buf_add(&b, p + 1, n - 1);
            free(renamed);
            p += n;
        } else if (*p == '@' && isdigit((unsigned char)p[1])) {
            /* An unnamed function (no OpName): llc names its parameters after the function's
             * name, which it lacks in the body ("[_param_0]"), so every unnamed global gets one. */
            cvc_buf_str(&b, "@__cv_unnamed_");
            p++;
        } else if (*p == '"') {
            /* Strings and quoted names pass unchanged. */
            const char *q = strchr(p + 1, '"');
            size_t n = q ? (size_t)(q + 1 - p) : strlen(p);
            cvc_buf_add(&b, p, n);
            p += n;
        } else if (!strncmp(p, spir_func, sizeof spir_func - 1)) {
            p += sizeof spir_func - 1; /* NVPTX functions take the C calling convention */
        } else if (*p == '!' && (p == ll || p[-1] == '\n') && isdigit((unsigned char)p[1])) {
            long id = strtol(p + 1, NULL, 10);
            max_md = id > max_md ? id : max_md;
            cvc_buf_add(&b, p, 1);
            p++;
        } else {
            if (!strncmp(p, "define ", 7) && (p == ll || p[-1] == '\n')) {
                const char *eol = strchr(p, '\n'), *k = strstr(p, kernel);
                if (k && (!eol || k < eol)) {
                    const char *name = k + sizeof kernel - 1;
                    size_t n = 0;
                    if (*name == '"') {
                        const char *q = strchr(name + 1, '"');
                        n = q ? (size_t)(q + 1 - name) : 0;
                    } else {
                        n = cvc_ir_ident(name);
                    }
                    if (n) {
                        cvc_buf_printf(&kernels, "%s!{ptr @%.*s, !\"kernel\", i32 1}",
                                       nk ? "\n" : "", (int)n, name);
                        nk++;
                    }
                }
            }
            cvc_buf_add(&b, p, 1);
            p++;
        }
    }
    /* The kernels as clang marks them for NVPTX (llc makes them .entry). */
    if (nk) {
        cvc_buf_str(&b, "\n!nvvm.annotations = !{");
        for (size_t i = 0; i < nk; i++)
            cvc_buf_printf(&b, "%s!%ld", i ? ", " : "", max_md + 1 + (long)i);
        cvc_buf_str(&b, "}\n");
        const char *k = kernels.data;
        for (size_t i = 0; i < nk && k; i++) {
            const char *eol = strchr(k, '\n');
            size_t n = eol ? (size_t)(eol - k) : strlen(k);
            cvc_buf_printf(&b, "!%ld = %.*s\n", max_md + 1 + (long)i, (int)n, k);
            k = eol ? eol + 1 : NULL;
        }
    }
    free(kernels.data);
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return cvc_printf_promoted(cvc_buf_take(&b));
}
