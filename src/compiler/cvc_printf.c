/* printf -> CUDA's vprintf. OpenCL C's printf is variadic, which NVPTX cannot compile; CUDA's
 * device runtime has `vprintf(format, argument buffer)`, whose output the driver prints at the
 * next synchronization (one record per call: threads never interleave characters). Every call
 * `%r = call i32 (ptr addrspace(4), ...) @printf(fmt, args...)` of the textual IR becomes
 *
 *     %cvp.N.buf = alloca { T1, T2, ... }         (in the function's entry block)
 *     store each argument into its field          (pointers first made generic)
 *     %cvp.N.ret = call i32 @vprintf(ptr fmt, ptr %cvp.N.buf)
 *     %r = ashr i32 %cvp.N.ret, 31                (OpenCL: 0 on success, -1 on failure)
 *
 * The buffer's natural layout is the one vprintf reads. Vector conversions (%v4hlf, %#v2hhx...)
 * have no vprintf counterpart: such a call gets a format of its own, each vector conversion
 * written out once per element with the same flags, width and precision, separated by commas
 * (OpenCL C 6.15.14.2.1), and each element its own argument (extractelement; char and short
 * elements widened as their conversion reads them, float and half ones to double, as C's
 * variadic promotion would). vprintf misreads the hh length (%hhd of 127 printed 37), so
 * integer conversions with h or hh get a format of their own too: the length dropped, the int
 * argument cut to short or char and widened back as the conversion reads it (sign-extended for
 * d and i), which is what C's printf does with it. */
#include "compiler/cvc_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CVC_MAX_PRINTF_ARGS 64

typedef struct cvc_arg_text {
    char type[64];
    char value[512];
} cvc_arg_text;

/* The end of the top-level item starting at p (a ',' or ')' at depth 0). */
static const char *cvc_item_end(const char *p) {
    int depth = 0;
    for (; *p && *p != '\n'; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"' && *p != '\n'; p++)
                ;
            continue;
        }
        if (*p == '(' || *p == '[' || *p == '{' || *p == '<')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}' || *p == '>') {
            if (depth == 0)
                return p;
            depth--;
        } else if (*p == ',' && depth == 0)
            return p;
    }
    return p;
}

static const char *const cvc_param_attrs[] = {"noundef ", "nonnull ",   "signext ",  "zeroext ",
                                              "noalias ", "nocapture ", "readonly ", "inreg "};

/* "ptr addrspace(4) noundef @.str" -> type "ptr addrspace(4)", value "@.str". */
static bool cvc_split_arg(const char *s, size_t len, cvc_arg_text *a) {
    while (len && isspace((unsigned char)*s))
        s++, len--;
    size_t t = 0;
    if (*s == '<') {
        while (t < len && s[t] != '>')
            t++;
        t++;
    } else if (len > 14 && !strncmp(s, "ptr addrspace(", 14)) {
        while (t < len && s[t] != ')')
            t++;
        t++;
    } else {
        while (t < len && !isspace((unsigned char)s[t]))
            t++;
    }
    if (t == 0 || t > len || t >= sizeof a->type)
        return false;
    memcpy(a->type, s, t);
    a->type[t] = 0;
    const char *v = s + t, *end = s + len;
    for (bool more = true; more;) {
        more = false;
        while (v < end && *v == ' ')
            v++;
        for (size_t i = 0; i < sizeof cvc_param_attrs / sizeof cvc_param_attrs[0]; i++) {
            size_t n = strlen(cvc_param_attrs[i]);
            if ((size_t)(end - v) > n && !strncmp(v, cvc_param_attrs[i], n)) {
                v += n;
                more = true;
            }
        }
        if ((size_t)(end - v) > 6 && (!strncmp(v, "align ", 6))) {
            v += 6;
            while (v < end && isdigit((unsigned char)*v))
                v++;
            more = true;
        } else if ((size_t)(end - v) > 15 && !strncmp(v, "dereferenceable", 15)) {
            while (v < end && *v != ')')
                v++;
            v++;
            more = true;
        }
    }
    while (end > v && isspace((unsigned char)end[-1]))
        end--;
    if (end <= v || (size_t)(end - v) >= sizeof a->value)
        return false;
    memcpy(a->value, v, (size_t)(end - v));
    a->value[end - v] = 0;
    return true;
}

static bool cvc_is_ptr(const char *type) {
    return !strncmp(type, "ptr", 3);
}

/* The bytes of the constant string global `name` (c"..." with \XX escapes) in the module, without
 * its terminating 0; NULL when it is not one. */
static char *cvc_string_global(const char *ll, const char *name, size_t *len) {
    char key[600];
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *def = strstr(ll, key);
    const char *c = def ? strstr(def + 1, " c\"") : NULL;
    const char *eol = def ? strchr(def + 1, '\n') : NULL;
    if (!c || (eol && c > eol))
        return NULL;
    cvc_buf b = {0};
    for (c += 3; *c && *c != '"' && *c != '\n'; c++) {
        if (*c == '\\' && isxdigit((unsigned char)c[1]) && isxdigit((unsigned char)c[2])) {
            char hex[3] = {c[1], c[2], 0};
            char byte = (char)strtol(hex, NULL, 16);
            cvc_buf_add(&b, &byte, 1);
            c += 2;
        } else {
            cvc_buf_add(&b, c, 1);
        }
    }
    *len = b.len;
    if (b.len && b.data[b.len - 1] == 0)
        (*len)--;
    return cvc_buf_take(&b);
}

/* "<4 x float>" -> 4 and "float"; false when not a vector type. */
static bool cvc_vector_type(const char *type, int *count, char *elem, size_t size) {
    char e[32];
    if (sscanf(type, "<%d x %31[^>]>", count, e) != 2)
        return false;
    snprintf(elem, size, "%s", e);
    return true;
}

/* One argument of the rewritten call: its type and value, after instructions already written. */
static void cvc_arg_set(cvc_arg_text *a, const char *type, const char *value) {
    snprintf(a->type, sizeof a->type, "%s", type);
    snprintf(a->value, sizeof a->value, "%s", value);
}

/* A format with vector conversions or h/hh integer conversions: writes the format vprintf
 * reads into `globals` as @.cvp.N.fmt and replaces args (the format first) by the scalar
 * arguments, the element extractions and narrowings written to `out`. false: the log says why. */
static bool cvc_expand_format(const char *ll, cvc_arg_text *args, size_t *n, int id, cvc_buf *out,
                              cvc_buf *globals, cvc_buf *log) {
    size_t flen = 0, log_mark = log->len;
    char *fmt = args[0].value[0] == '@' ? cvc_string_global(ll, args[0].value, &flen) : NULL;
    if (!fmt) {
        cvc_buf_str(log, "error: printf of a vector needs a literal format string\n");
        return false;
    }
    cvc_arg_text *scalars = calloc(CVC_MAX_PRINTF_ARGS, sizeof *scalars);
    cvc_buf f = {0};
    size_t next = 1, count = 1, extracted = 0;
    bool ok = scalars != NULL;
    for (size_t i = 0; ok && i < flen; i++) {
        if (fmt[i] != '%') {
            cvc_buf_add(&f, fmt + i, 1);
            continue;
        }
        if (i + 1 < flen && fmt[i + 1] == '%') {
            cvc_buf_str(&f, "%%");
            i++;
            continue;
        }
        /* %[flags][width][.precision][vN][length]conversion */
        size_t j = i + 1;
        while (j < flen && strchr("-+ #0", fmt[j]))
            j++;
        size_t stars = 0;
        while (j < flen && (isdigit((unsigned char)fmt[j]) || fmt[j] == '.' || fmt[j] == '*'))
            stars += fmt[j++] == '*';
        size_t spec_end = j; /* flags, width and precision: fmt[i + 1, spec_end) */
        int vec = 0;
        if (j < flen && fmt[j] == 'v') {
            vec = (int)strtol(fmt + j + 1, NULL, 10);
            j++;
            while (j < flen && isdigit((unsigned char)fmt[j]))
                j++;
        }
        while (j < flen && strchr("hlLqjzt", fmt[j]))
            j++;
        if (j >= flen) {
            ok = false;
            break;
        }
        char conv = fmt[j];
        for (size_t k = 0; k < stars && ok; k++, next++) /* '*' widths: int arguments */
            ok = next < *n && count < CVC_MAX_PRINTF_ARGS;
        for (size_t k = next - stars; ok && k < next; k++)
            scalars[count++] = args[k];
        if (!ok)
            break;
        if (!vec) {
            int h = 0; /* h: 1, hh: 2 */
            for (size_t k = spec_end; k < j; k++)
                h += fmt[k] == 'h';
            bool narrow = h && h <= 2 && strchr("diouxX", conv) && next < *n &&
                          !strcmp(args[next].type, "i32");
            if (!narrow) {
                cvc_buf_add(&f, fmt + i, j + 1 - i);
                if (next < *n && count < CVC_MAX_PRINTF_ARGS)
                    scalars[count++] = args[next++];
                i = j;
                continue;
            }
            ok = count < CVC_MAX_PRINTF_ARGS;
            if (!ok)
                break;
            cvc_buf_add(&f, fmt + i, spec_end - i);
            cvc_buf_add(&f, &conv, 1);
            char v[64];
            snprintf(v, sizeof v, "%%cvp.%d.e%zu", id, extracted++);
            const char *small = h == 2 ? "i8" : "i16";
            cvc_buf_printf(out, "  %s.n = trunc i32 %s to %s\n", v, args[next].value, small);
            cvc_buf_printf(out, "  %s = %s %s %s.n to i32\n", v,
                           conv == 'd' || conv == 'i' ? "sext" : "zext", small, v);
            cvc_arg_set(&scalars[count++], "i32", v);
            next++;
            i = j;
            continue;
        }
        /* A vector conversion: the argument must be a vector of that many elements. */
        int elems = 0;
        char elem[32];
        ok = next < *n && cvc_vector_type(args[next].type, &elems, elem, sizeof elem) &&
             elems == vec && count + (size_t)vec <= CVC_MAX_PRINTF_ARGS;
        if (!ok) {
            cvc_buf_printf(log,
                           "error: printf: %%v%d conversion without a matching %d-element "
                           "vector argument\n",
                           vec, vec);
            break;
        }
        bool floating = strchr("aAeEfFgG", conv) != NULL;
        bool is_signed = conv == 'd' || conv == 'i';
        bool wide = !strcmp(elem, "i64");
        for (int e = 0; e < vec; e++) {
            if (e)
                cvc_buf_str(&f, ",");
            cvc_buf_add(&f, fmt + i, spec_end - i);
            cvc_buf_printf(&f, "%s%c", wide ? "l" : "", conv);
            char v[64];
            snprintf(v, sizeof v, "%%cvp.%d.e%zu", id, extracted);
            cvc_buf_printf(out, "  %s = extractelement %s %s, i32 %d\n", v, args[next].type,
                           args[next].value, e);
            const char *type = elem;
            if (floating && strcmp(elem, "double")) {
                cvc_buf_printf(out, "  %s.w = fpext %s %s to double\n", v, elem, v);
                type = "double";
                strcat(v, ".w");
            } else if (!floating && (!strcmp(elem, "i8") || !strcmp(elem, "i16"))) {
                cvc_buf_printf(out, "  %s.w = %s %s %s to i32\n", v, is_signed ? "sext" : "zext",
                               elem, v);
                type = "i32";
                strcat(v, ".w");
            }
            cvc_arg_set(&scalars[count++], type, v);
            extracted++;
        }
        next++;
        i = j;
    }
    if (ok && !f.failed) {
        /* The new format: a private constant like clang's own strings. */
        cvc_buf_printf(globals,
                       "@.cvp.%d.fmt = private unnamed_addr addrspace(4) constant [%zu x i8] c\"",
                       id, f.len + 1);
        for (size_t k = 0; k < f.len; k++) {
            unsigned char ch = (unsigned char)f.data[k];
            if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')
                cvc_buf_add(globals, &ch, 1);
            else
                cvc_buf_printf(globals, "\\%02X", ch);
        }
        cvc_buf_str(globals, "\\00\", align 1\n");
        cvc_arg_set(&scalars[0], "ptr addrspace(4)", "");
        snprintf(scalars[0].value, sizeof scalars[0].value, "@.cvp.%d.fmt", id);
        memcpy(args, scalars, count * sizeof *args);
        *n = count;
    } else if (ok) {
        ok = false;
    }
    /* A conversion cut short ("%v2" at the end), more '*' than arguments, no memory. */
    if (!ok && log->len == log_mark)
        cvc_buf_str(log, "error: printf: a vector conversion culvert cannot read in the format\n");
    free(f.data);
    free(scalars);
    free(fmt);
    return ok;
}

/* Whether the literal format `name` (a global of the module) has an integer conversion with the
 * h or hh length; false for a format that is not a literal. */
static bool cvc_narrow_conversions(const char *ll, const char *name) {
    size_t len = 0;
    char *fmt = name[0] == '@' ? cvc_string_global(ll, name, &len) : NULL;
    bool found = false;
    for (size_t i = 0; fmt && i < len && !found; i++) {
        if (fmt[i] != '%')
            continue;
        size_t j = i + 1;
        if (j < len && fmt[j] == '%') {
            i = j;
            continue;
        }
        while (j < len && strchr("-+ #0123456789.*", fmt[j]))
            j++;
        bool h = false;
        while (j < len && strchr("hlLqjzt", fmt[j]))
            h |= fmt[j++] == 'h';
        found = h && j < len && strchr("diouxX", fmt[j]);
        i = j;
    }
    free(fmt);
    return found;
}

/* Rewrites one call line into `out`, adds the alloca to `allocas` and a vector call's format to
 * `globals`. false: not convertible (the reason is in log). */
static bool cvc_rewrite_call(const char *ll, const char *line, size_t len, int id, cvc_buf *out,
                             cvc_buf *allocas, cvc_buf *globals, cvc_buf *log) {
    const char *call = strstr(line, "@printf(");
    if (!call || call > line + len)
        return false;
    /* The result name: "  %x = [tail ]call ..." */
    char result[128] = "";
    const char *p = line;
    while (*p == ' ')
        p++;
    if (*p == '%') {
        const char *eq = strstr(p, " = ");
        if (eq && eq < call && (size_t)(eq - p) < sizeof result) {
            memcpy(result, p, (size_t)(eq - p));
            result[eq - p] = 0;
        }
    }
    cvc_arg_text *args = calloc(CVC_MAX_PRINTF_ARGS, sizeof *args);
    if (!args)
        return false;
    size_t n = 0;
    bool ok = true;
    for (const char *a = call + 8; ok && *a && *a != ')';) {
        const char *end = cvc_item_end(a);
        ok = n < CVC_MAX_PRINTF_ARGS && cvc_split_arg(a, (size_t)(end - a), &args[n]);
        n++;
        a = *end == ',' ? end + 1 : end;
    }
    if (!ok || n == 0) {
        cvc_buf_str(log, "error: culvert cannot compile this printf call (too many or unusual "
                         "arguments)\n");
        free(args);
        return false;
    }
    bool vectors = false;
    for (size_t i = 1; i < n; i++)
        vectors |= args[i].type[0] == '<';
    if ((vectors || cvc_narrow_conversions(ll, args[0].value)) &&
        !cvc_expand_format(ll, args, &n, id, out, globals, log)) {
        free(args);
        return false;
    }
    if (n - 1 > 32) {
        /* CUDA's printf takes at most 32 arguments after the format, and ignores more. */
        cvc_buf_str(log, "error: printf with more than 32 arguments is not supported by CUDA's "
                         "device printf\n");
        free(args);
        return false;
    }

    /* The argument buffer's type: pointers become generic. */
    cvc_buf st = {0};
    cvc_buf_str(&st, "{ ");
    for (size_t i = 1; i < n; i++)
        cvc_buf_printf(&st, "%s%s", i > 1 ? ", " : "",
                       cvc_is_ptr(args[i].type) ? "ptr" : args[i].type);
    cvc_buf_str(&st, " }");
    if (n > 1)
        cvc_buf_printf(allocas, "  %%cvp.%d.buf = alloca %s, align 8\n", id, st.data);
    /* The format as a generic pointer. */
    if (strcmp(args[0].type, "ptr"))
        cvc_buf_printf(out, "  %%cvp.%d.fmt = addrspacecast %s %s to ptr\n", id, args[0].type,
                       args[0].value);
    else
        cvc_buf_printf(out, "  %%cvp.%d.fmt = getelementptr i8, ptr %s, i64 0\n", id,
                       args[0].value);
    for (size_t i = 1; i < n; i++) {
        const char *value = args[i].value;
        char cast[64];
        if (cvc_is_ptr(args[i].type) && strcmp(args[i].type, "ptr")) {
            cvc_buf_printf(out, "  %%cvp.%d.a%zu = addrspacecast %s %s to ptr\n", id, i,
                           args[i].type, value);
            snprintf(cast, sizeof cast, "%%cvp.%d.a%zu", id, i);
            value = cast;
        }
        cvc_buf_printf(
            out, "  %%cvp.%d.p%zu = getelementptr inbounds %s, ptr %%cvp.%d.buf, i32 0, i32 %zu\n",
            id, i, st.data, id, i - 1);
        cvc_buf_printf(out, "  store %s %s, ptr %%cvp.%d.p%zu\n",
                       cvc_is_ptr(args[i].type) ? "ptr" : args[i].type, value, id, i);
    }
    char buffer[64] = "null";
    if (n > 1)
        snprintf(buffer, sizeof buffer, "%%cvp.%d.buf", id);
    cvc_buf_printf(out, "  %%cvp.%d.ret = call i32 @vprintf(ptr %%cvp.%d.fmt, ptr %s)\n", id, id,
                   buffer);
    if (result[0])
        cvc_buf_printf(out, "  %s = ashr i32 %%cvp.%d.ret, 31\n", result, id);
    free(st.data);
    free(args);
    return true;
}

char *cvc_lower_printf(const char *ll, cvc_buf *log, bool *failed) {
    *failed = false;
    if (!strstr(ll, "@printf("))
        return NULL;
    cvc_buf out = {0}, body = {0}, allocas = {0}, globals = {0};
    const char *define = NULL;
    size_t define_len = 0;
    int id = 0;
    for (const char *l = ll; *l;) {
        const char *eol = strchr(l, '\n');
        size_t len = eol ? (size_t)(eol - l + 1) : strlen(l);
        if (!define && !strncmp(l, "define ", 7) && len >= 2 && l[len - (eol ? 2 : 1)] == '{') {
            define = l;
            define_len = len;
        } else if (define && l[0] == '}') {
            /* End of the function: its line, the allocas, the body. */
            cvc_buf_add(&out, define, define_len);
            /* The allocas go first in the entry block: after its label, if it has one. */
            size_t label = 0;
            if (body.len && !isspace((unsigned char)body.data[0])) {
                const char *nl = memchr(body.data, '\n', body.len);
                label = nl ? (size_t)(nl - body.data + 1) : 0;
            }
            cvc_buf_add(&out, body.data, label);
            if (allocas.len)
                cvc_buf_add(&out, allocas.data, allocas.len);
            if (body.len > label)
                cvc_buf_add(&out, body.data + label, body.len - label);
            cvc_buf_add(&out, l, len);
            define = NULL;
            body.len = allocas.len = 0;
        } else if (define && memmem(l, len, "@printf(", 8) && memmem(l, len, "call ", 5)) {
            if (!cvc_rewrite_call(ll, l, len, id++, &body, &allocas, &globals, log))
                *failed = true;
        } else if (!define && !strncmp(l, "declare ", 8) && memmem(l, len, "@printf(", 8)) {
            cvc_buf_str(&out, "declare i32 @vprintf(ptr, ptr)\n");
        } else {
            cvc_buf_add(define ? &body : &out, l, len);
        }
        l += len;
    }
    if (globals.len)
        cvc_buf_add(&out, globals.data, globals.len);
    free(body.data);
    free(allocas.data);
    free(globals.data);
    if (out.failed)
        *failed = true;
    return cvc_buf_take(&out);
}
