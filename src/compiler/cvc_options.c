/* OpenCL build options -> clang -cc1 / llc settings. Every option of the OpenCL 3.0 API
 * specification (5.8.6) is understood, and NVIDIA's -cl-nv-* options that applications pass to
 * NVIDIA's driver; anything else is CL_INVALID_BUILD_OPTIONS. */
#include "compiler/cvc_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Splits at blanks; double quotes group (and are removed), a backslash escapes the next char. */
static char **cvc_split(const char *s, size_t *count) {
    size_t cap = 8, n = 0;
    char **v = malloc(cap * sizeof *v);
    char *word = malloc(strlen(s) + 1);
    bool ok = v && word;
    while (ok && *s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        size_t len = 0;
        bool quoted = false;
        while (*s && (quoted || !isspace((unsigned char)*s))) {
            if (*s == '"') {
                quoted = !quoted;
                s++;
            } else if (*s == '\\' && s[1]) {
                word[len++] = s[1];
                s += 2;
            } else {
                word[len++] = *s++;
            }
        }
        word[len] = 0;
        if (n + 1 >= cap) {
            char **nv = realloc(v, (cap *= 2) * sizeof *v);
            ok = nv != NULL;
            if (ok)
                v = nv;
        }
        if (ok)
            ok = (v[n++] = strdup(word)) != NULL;
    }
    free(word);
    if (!ok && v) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        v = NULL;
    }
    if (v)
        v[n] = NULL;
    *count = n;
    return v;
}

/* Options passed to clang -cc1 unchanged (all OpenCL options clang knows). */
static const char *const cvc_clang_flags[] = {
    "-cl-mad-enable",
    "-cl-fast-relaxed-math",
    "-cl-finite-math-only",
    "-cl-unsafe-math-optimizations",
    "-cl-no-signed-zeros",
    "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-uniform-work-group-size",
    "-cl-strict-aliasing",
    "-w",
    "-Werror",
};

/* Link options (clLinkProgram); clBuildProgram takes them too ("build = compile + link"). */
static const char *const cvc_link_flags[] = {
    "-cl-denorms-are-zero", "-cl-no-signed-zeros",   "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp",
    "-enable-link-options", "-create-library",
};

static bool cvc_in(const char *s, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return true;
    return false;
}

static bool cvc_add_arg(cvc_options *o, const char *a, const char *b) {
    char **v = realloc(o->clang_args, (o->num_clang_args + 3) * sizeof *v);
    if (!v)
        return false;
    o->clang_args = v;
    v[o->num_clang_args] = strdup(a);
    if (!v[o->num_clang_args])
        return false;
    o->num_clang_args++;
    if (b) {
        v[o->num_clang_args] = strdup(b);
        if (!v[o->num_clang_args])
            return false;
        o->num_clang_args++;
    }
    v[o->num_clang_args] = NULL;
    return true;
}

/* A non-negative decimal number, the whole string. */
static bool cvc_number(const char *s, int *out) {
    char *end;
    if (!s || !isdigit((unsigned char)*s))
        return false;
    long v = strtol(s, &end, 10);
    if (*end || v > 100000)
        return false;
    *out = (int)v;
    return true;
}

static const struct {
    const char *name;
    int version;
} cvc_stds[] = {
    {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL3.0", 300},
    /* OpenCL C 2.0 needs features (device enqueue, pipes) culvert does not have. */
};

cl_int cvc_options_parse(const char *options, cvc_mode mode, cvc_options *o, cvc_buf *log) {
    memset(o, 0, sizeof *o);
    o->cl_std = 120;
    o->opt_level = 3;
    size_t n = 0;
    char **w = cvc_split(options ? options : "", &n);
    cl_int err = w ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    const size_t nclang = sizeof cvc_clang_flags / sizeof cvc_clang_flags[0];
    const size_t nlink = sizeof cvc_link_flags / sizeof cvc_link_flags[0];
    for (size_t i = 0; err == CL_SUCCESS && i < n; i++) {
        const char *a = w[i];
        const char *next = i + 1 < n ? w[i + 1] : NULL;
        bool ok = true, mem = true;
        if (mode == CVC_LINK) {
            /* clLinkProgram takes only the link options. */
            if (!cvc_in(a, cvc_link_flags, nlink))
                ok = false;
            else if (!strcmp(a, "-create-library"))
                o->create_library = true;
            else if (!strcmp(a, "-cl-denorms-are-zero"))
                o->denorms_are_zero = true;
            else if (strcmp(a, "-enable-link-options") && strcmp(a, "-cl-no-subgroup-ifp")) {
                mem = cvc_add_arg(o, a, NULL);
                o->fast_math |= !strcmp(a, "-cl-fast-relaxed-math") ||
                                !strcmp(a, "-cl-unsafe-math-optimizations");
            }
        } else if ((a[1] == 'D' || a[1] == 'I') && a[0] == '-') {
            /* -D name[=definition], -Dname, -I dir, -Idir */
            const char *val = a[2] ? a + 2 : next;
            if (!a[2])
                i++;
            if (!val || !*val || (a[1] == 'D' && val[0] == '='))
                ok = false;
            else
                mem = cvc_add_arg(o, a[1] == 'D' ? "-D" : "-I", val);
        } else if (!strncmp(a, "-cl-std=", 8)) {
            ok = false;
            for (size_t s = 0; s < sizeof cvc_stds / sizeof cvc_stds[0]; s++)
                if (!strcmp(a + 8, cvc_stds[s].name)) {
                    o->cl_std = cvc_stds[s].version;
                    ok = true;
                }
        } else if (!strcmp(a, "-cl-opt-disable")) {
            o->opt_level = 0;
        } else if (!strcmp(a, "-cl-kernel-arg-info")) {
            /* Always on: the //cv:arg lines are written for every kernel. */
        } else if (!strcmp(a, "-cl-denorms-are-zero")) {
            o->denorms_are_zero = true;
        } else if (cvc_in(a, cvc_clang_flags, nclang)) {
            mem = cvc_add_arg(o, a, NULL);
            o->uniform_work_groups |= !strcmp(a, "-cl-uniform-work-group-size");
            o->fast_math |=
                !strcmp(a, "-cl-fast-relaxed-math") || !strcmp(a, "-cl-unsafe-math-optimizations");
        } else if (!strncmp(a, "-cl-nv-maxrregcount", 19) || !strncmp(a, "-cl-nv-opt-level", 16)) {
            /* NVIDIA spells these -opt=N and -opt N. */
            bool regs = a[7] == 'm';
            size_t len = regs ? 19 : 16;
            const char *val = a[len] == '=' ? a + len + 1 : (a[len] ? NULL : next);
            int v = 0;
            if (!a[len])
                i++;
            ok = val && cvc_number(val, &v) && (regs ? v > 0 && v <= 255 : v <= 3);
            if (ok && regs)
                o->maxrregcount = v < 16 ? 16 : v; /* ptxas's floor for .maxnreg */
            else if (ok)
                o->opt_level = v;
        } else if (!strcmp(a, "-cl-nv-verbose")) {
            o->verbose = true;
        } else if (cvc_in(a, cvc_link_flags, nlink) && strcmp(a, "-create-library")) {
            /* The remaining link options are harmless at build and compile time. */
        } else {
            ok = false;
        }
        if (!mem)
            err = CL_OUT_OF_HOST_MEMORY;
        else if (!ok) {
            cvc_buf_printf(log, "culvert: invalid build option '%s'%s\n", a,
                           mode == CVC_LINK ? " (clLinkProgram takes only link options)" : "");
            err = CL_INVALID_BUILD_OPTIONS;
        }
    }
    if (o->denorms_are_zero && err == CL_SUCCESS &&
        !cvc_add_arg(o, "-fdenormal-fp-math-f32=preserve-sign", NULL))
        err = CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; w && i < n; i++)
        free(w[i]);
    free(w);
    if (err != CL_SUCCESS)
        cvc_options_free(o);
    return err;
}

void cvc_options_free(cvc_options *o) {
    for (size_t i = 0; i < o->num_clang_args; i++)
        free(o->clang_args[i]);
    free(o->clang_args);
    o->clang_args = NULL;
    o->num_clang_args = 0;
}
