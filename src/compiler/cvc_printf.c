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
 * The buffer's natural layout is the one vprintf reads. Vector conversions (%v) have no vprintf
 * counterpart: a vector argument fails the build with a message. */
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

/* Rewrites one call line into `out`, adds the alloca to `allocas`. false: not convertible (the
 * reason is in log). */
static bool cvc_rewrite_call(const char *line, size_t len, int id, cvc_buf *out, cvc_buf *allocas,
                             cvc_buf *log) {
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
    if (n - 1 > 32) {
        /* CUDA's printf takes at most 32 arguments after the format, and ignores more. */
        cvc_buf_str(log, "error: printf with more than 32 arguments is not supported by CUDA's "
                         "device printf\n");
        free(args);
        return false;
    }
    for (size_t i = 1; i < n; i++)
        if (args[i].type[0] == '<') {
            cvc_buf_str(log, "error: printf of a vector (%v conversion) is not supported by "
                             "culvert's OpenCL C compiler\n");
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
    cvc_buf out = {0}, body = {0}, allocas = {0};
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
            if (!cvc_rewrite_call(l, len, id++, &body, &allocas, log))
                *failed = true;
        } else if (!define && !strncmp(l, "declare ", 8) && memmem(l, len, "@printf(", 8)) {
            cvc_buf_str(&out, "declare i32 @vprintf(ptr, ptr)\n");
        } else {
            cvc_buf_add(define ? &body : &out, l, len);
        }
        l += len;
    }
    free(body.data);
    free(allocas.data);
    if (out.failed)
        *failed = true;
    return cvc_buf_take(&out);
}
