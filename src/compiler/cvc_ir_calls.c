/* Kernels called as functions. OpenCL C lets a kernel call another kernel (of its own source, or
 * of another object or library at clLinkProgram); clang 16 emits a plain call of the kernel, and
 * llc writes it as a `call` of the `.entry`, which ptxas refuses ("Illegal call target, device
 * function expected"); culvert's loader also appends the launch parameter to every entry, so the
 * call would miss one ("Call has wrong number of parameters"). Each kernel something calls gets a
 * clone that is a plain internal function (no kernel calling convention and no kernel metadata:
 * a `.func`, no //cv: lines), and every call goes to the clone; the kernel itself stays as it is
 * for launches. The clone reads the launch block like any function (docs/kernel-abi.md): the
 * called kernel runs as part of the caller's work-item, with the caller's NDRange. */
#include "compiler/cvc_internal.h"

#include <stdlib.h>
#include <string.h>

#define CVC_CLONE_PREFIX "__cv_kernel_fn_"

/* A kernel call, as clang writes it at every optimization level ("tail call spir_kernel..."). */
static const char cvc_kernel_call[] = "call spir_kernel void @";
static const char cvc_kernel_define[] = " spir_kernel void @";

/* The define line of kernel name[0..n) (its first character), or NULL when the module only
 * declares it. */
static const char *cvc_kernel_definition(const char *ll, const char *name, size_t n) {
    for (const char *l = ll; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, "define ", 7))
            continue;
        size_t len = strcspn(l, "\n");
        const char *k = memmem(l, len, cvc_kernel_define, sizeof cvc_kernel_define - 1);
        const char *at = k ? k + sizeof cvc_kernel_define - 1 : NULL;
        if (at && cvc_ir_ident(at) == n && !memcmp(at, name, n) && at[n] == '(')
            return l;
    }
    return NULL;
}

/* Every call of a kernel the module defines goes to its clone; NULL when there is none (or no
 * memory: the calls stay, and ptxas says why). */
static char *cvc_redirect_kernel_calls(const char *ll) {
    cvc_buf b = {0};
    const char *from = ll;
    for (const char *c = strstr(ll, cvc_kernel_call); c; c = strstr(c + 1, cvc_kernel_call)) {
        const char *name = c + sizeof cvc_kernel_call - 1;
        size_t n = cvc_ir_ident(name);
        if (name[n] != '(' || !cvc_kernel_definition(ll, name, n))
            continue; /* only declared: the undefined-function check names it */
        cvc_buf_add(&b, from, (size_t)(c - from));
        cvc_buf_str(&b, "call void @" CVC_CLONE_PREFIX);
        cvc_buf_add(&b, name, n);
        from = name + n;
    }
    if (!b.data || b.failed) {
        free(b.data);
        return NULL;
    }
    cvc_buf_str(&b, from);
    return cvc_buf_take(&b);
}

/* Was kernel name[0..n) called (has its clone's name a call in ll)? */
static bool cvc_kernel_called(const char *ll, const char *name, size_t n) {
    static const char call[] = "call void @" CVC_CLONE_PREFIX;
    for (const char *c = strstr(ll, call); c; c = strstr(c + 1, call)) {
        const char *at = c + sizeof call - 1;
        if (cvc_ir_ident(at) == n && !memcmp(at, name, n))
            return true;
    }
    return false;
}

/* Past the "}" line that ends the function whose body starts at `body`. */
static const char *cvc_function_end(const char *body) {
    const char *end = body;
    while (*end && !(end[0] == '}' && (end[1] == '\n' || end[1] == 0))) {
        const char *nl = strchr(end, '\n');
        end = nl ? nl + 1 : end + strlen(end);
    }
    return *end ? end + (end[1] ? 2 : 1) : end;
}

/* The clone of kernel name[0..n) (`name` inside its define line, `body` its next line): internal,
 * no calling convention, the define line's metadata attachments (!kernel_arg_*,
 * !reqd_work_group_size...) left out. */
static void cvc_clone_kernel(cvc_buf *b, const char *name, size_t n, const char *body) {
    const char *params = name + n, *p = params; /* '(' */
    for (int depth = 0; *p && *p != '\n'; p++) {
        depth += (*p == '(') - (*p == ')');
        if (depth == 0)
            break;
    }
    if (*p != ')')
        return;
    cvc_buf_str(b, "\ndefine internal void @" CVC_CLONE_PREFIX);
    cvc_buf_add(b, name, n);
    cvc_buf_add(b, params, (size_t)(p + 1 - params));
    /* The attributes after the parameters, without "!name !N" pairs. */
    const char *eol = p + strcspn(p, "\n");
    for (const char *t = p + 1; t < eol;) {
        t += strspn(t, " ");
        size_t len = strcspn(t, " \n");
        if (len && t[0] != '!')
            cvc_buf_printf(b, " %.*s", (int)len, t);
        t += len;
    }
    cvc_buf_str(b, "\n");
    cvc_buf_add(b, body, (size_t)(cvc_function_end(body) - body));
}

char *cvc_ir_kernel_calls(const char *ll) {
    if (!strstr(ll, cvc_kernel_call))
        return NULL;
    char *redirected = cvc_redirect_kernel_calls(ll);
    if (!redirected)
        return NULL;
    /* Each called kernel's clone follows the kernel. */
    cvc_buf b = {0};
    for (const char *l = redirected; *l;) {
        const char *nl = strchr(l, '\n');
        const char *next = nl ? nl + 1 : l + strlen(l);
        const char *k = strncmp(l, "define ", 7) ? NULL
                                                 : memmem(l, (size_t)(next - l), cvc_kernel_define,
                                                          sizeof cvc_kernel_define - 1);
        const char *name = k ? k + sizeof cvc_kernel_define - 1 : NULL;
        size_t n = name ? cvc_ir_ident(name) : 0;
        if (name && name[n] == '(' && cvc_kernel_called(redirected, name, n)) {
            /* The kernel as it is, then its clone. */
            const char *end = cvc_function_end(next);
            cvc_buf_add(&b, l, (size_t)(end - l));
            cvc_clone_kernel(&b, name, n, next);
            next = end;
        } else {
            cvc_buf_add(&b, l, (size_t)(next - l));
        }
        l = next;
    }
    free(redirected);
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}
