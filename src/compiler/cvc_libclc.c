/* libclc, only the part a program calls.
 *
 * Why: measured on the H100 machine, clang spends ~28 ms of a small program's cold build
 * (~65 ms) reading libclc's 8 MB and 9,700 functions, to link the few the program calls. The
 * source names the builtins it calls, so culvert links a small library instead: the libclc
 * functions of those names, with what they call, extracted by llvm-link --only-needed and kept
 * in the cache directory, keyed by the set of names. A set seen for the first time is extracted
 * while clang builds with the whole libclc, for the builds after it (the same kernels with other
 * options or defines, a program built again in a new process). A call the scan cannot see (a
 * name made by macro pasting, a call in an included header) leaves an undefined function: the
 * build is then done again with the whole libclc (cvc_codegen), so the result never differs.
 * Without a cache directory (CULVERT_CACHE=0) the whole libclc is linked, as before. */
#include "compiler/cvc_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libclc's mangled functions, sorted by their OpenCL C name (clamp, vload4...). */
typedef struct cvc_clc_name {
    const char *base; /* inside `mangled`, not 0-terminated */
    size_t base_len;
    const char *mangled;
} cvc_clc_name;

static struct {
    char *text; /* llvm-nm's output, lines made strings */
    cvc_clc_name *names;
    size_t count;
} cvc_clc_index;
static pthread_mutex_t cvc_clc_index_lock = PTHREAD_MUTEX_INITIALIZER;
static bool cvc_clc_index_tried; /* with a cache directory: once per process */

static int cvc_clc_name_cmp(const void *a, const void *b) {
    const cvc_clc_name *x = a, *y = b;
    size_t n = x->base_len < y->base_len ? x->base_len : y->base_len;
    int c = memcmp(x->base, y->base, n);
    return c ? c : (x->base_len > y->base_len) - (x->base_len < y->base_len);
}

/* The index: llvm-nm's list of libclc's defined symbols, kept in the cache directory. Under
 * cvc_clc_index_lock. */
static void cvc_clc_index_load(const cvc_tools *t) {
    char path[4300];
    cvc_tools_cache_path(t, "libclc", "names", "names", path, sizeof path);
    if (cvc_clc_index_tried || !t->found || !t->llvm_nm[0] || !path[0])
        return;
    cvc_clc_index_tried = true;
    size_t len = 0;
    char *text = (char *)cvc_read_file(path, &len);
    if (!text) {
        char *argv[] = {(char *)t->llvm_nm, "--defined-only", "-j", (char *)t->libclc, NULL};
        cvc_buf out = {0};
        if (cvc_run(argv, &out) != 0 || !out.data || out.failed) {
            free(out.data);
            return;
        }
        cvc_cache_write(path, out.data, out.len);
        len = out.len;
        text = cvc_buf_take(&out);
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    cvc_clc_name *names = calloc(lines + 1, sizeof *names);
    size_t n = 0;
    for (char *l = text; names && l < text + len;) {
        char *eol = memchr(l, '\n', (size_t)(text + len - l));
        if (eol)
            *eol = 0;
        /* _Z<length><name>...: the OpenCL C name; unmangled symbols are libclc's internals,
         * reached only through the functions that use them. */
        char *end;
        long base_len = l[0] == '_' && l[1] == 'Z' ? strtol(l + 2, &end, 10) : 0;
        if (base_len > 0 && (size_t)base_len <= strlen(end)) {
            names[n].base = end;
            names[n].base_len = (size_t)base_len;
            names[n].mangled = l;
            n++;
        }
        l = eol ? eol + 1 : text + len;
    }
    if (!names || !n) {
        free(names);
        free(text);
        return;
    }
    qsort(names, n, sizeof *names, cvc_clc_name_cmp);
    cvc_clc_index.text = text;
    cvc_clc_index.names = names;
    cvc_clc_index.count = n;
}

/* The first index entry with this OpenCL C name, or NULL. */
static const cvc_clc_name *cvc_clc_find(const char *word, size_t len) {
    cvc_clc_name key = {word, len, NULL};
    size_t lo = 0, hi = cvc_clc_index.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cvc_clc_name_cmp(&cvc_clc_index.names[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cvc_clc_index.count && !cvc_clc_name_cmp(&cvc_clc_index.names[lo], &key)
               ? &cvc_clc_index.names[lo]
               : NULL;
}

static bool cvc_is_ident(char c, bool first) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

/* Marks every libclc function called `word` (each overload); returns how many were new. */
static size_t cvc_clc_mark(unsigned char *wanted, const char *word, size_t len) {
    size_t count = cvc_clc_index.count, added = 0;
    for (const cvc_clc_name *e = cvc_clc_find(word, len);
         e && e < cvc_clc_index.names + count && e->base_len == len && !memcmp(e->base, word, len);
         e++) {
        size_t k = (size_t)(e - cvc_clc_index.names);
        added += !wanted[k];
        wanted[k] = 1;
    }
    return added;
}

/* Calls fn(word, length, arg) for each identifier of text. */
static void cvc_each_ident(const char *text, size_t len,
                           void (*fn)(const char *word, size_t n, void *arg), void *arg) {
    for (size_t i = 0; text && i < len;) {
        if (!cvc_is_ident(text[i], true) || (i > 0 && cvc_is_ident(text[i - 1], false))) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && cvc_is_ident(text[j], false))
            j++;
        fn(text + i, j - i, arg);
        i = j;
    }
}

typedef struct cvc_clc_marks {
    unsigned char *wanted;
    size_t found;
} cvc_clc_marks;

static void cvc_clc_mark_word(const char *word, size_t n, void *arg) {
    cvc_clc_marks *m = arg;
    m->found += cvc_clc_mark(m->wanted, word, n);
}

/* The libclc functions a source and its build options name, and those culvert's builtins
 * call: an llvm-link input (textual IR) whose one global refers to each of them (--only-needed
 * then brings them and what they call), or NULL when none. *none: no name matched. */
static char *cvc_clc_stub(const char *source, size_t len, const char *options, bool *none) {
    size_t count = cvc_clc_index.count;
    cvc_clc_marks m = {calloc(count ? count : 1, 1), 0};
    unsigned char *wanted = m.wanted;
    if (!wanted)
        return NULL;
    cvc_each_ident(source, len, cvc_clc_mark_word, &m);
    cvc_each_ident(options, options ? strlen(options) : 0, cvc_clc_mark_word, &m);
    size_t found = m.found;
    /* Lines of _Z<length><name>...: the name. */
    for (const char *l = cvc_builtins_calls; *l; l = strchr(l, '\n'), l = l ? l + 1 : "") {
        char *end;
        long n = l[0] == '_' && l[1] == 'Z' ? strtol(l + 2, &end, 10) : 0;
        if (n > 0 && (size_t)n <= strcspn(end, "\n"))
            found += cvc_clc_mark(wanted, end, (size_t)n);
    }
    *none = found == 0;
    cvc_buf stub = {0};
    if (found) {
        cvc_buf_printf(&stub, "@__cv_need = global [%zu x ptr] [", found);
        for (size_t k = 0, n = 0; k < count; k++)
            if (wanted[k])
                cvc_buf_printf(&stub, "%sptr @%s", n++ ? ", " : "", cvc_clc_index.names[k].mangled);
        cvc_buf_str(&stub, "]\n");
        for (size_t k = 0; k < count; k++)
            if (wanted[k])
                cvc_buf_printf(&stub, "declare void @%s()\n", cvc_clc_index.names[k].mangled);
    }
    free(wanted);
    if (stub.failed) {
        free(stub.data);
        return NULL;
    }
    return stub.data;
}

/* Does the text name the half type (or the extension that enables it)? */
static void cvc_half_word(const char *word, size_t n, void *arg) {
    static const char *const words[] = {"half",  "half2",  "half3",      "half4",
                                        "half8", "half16", "cl_khr_fp16"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && !memcmp(words[i], word, n))
            *(bool *)arg = true;
}

void cvc_libclc_plan_make(cvc_libclc_plan *p, const char *source, size_t len, const char *options,
                          const cvc_tools *t, const cvc_tmp *tmp) {
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", t->libclc);
    /* culvert's half builtins (a sixth of a build's clang time) only for a source that names
     * half; a call of one the scan cannot see builds again with them, as for libclc. */
    p->half = !source;
    cvc_each_ident(source, len, cvc_half_word, &p->half);
    cvc_each_ident(options, options ? strlen(options) : 0, cvc_half_word, &p->half);
    p->partial = !p->half;
    pthread_mutex_lock(&cvc_clc_index_lock);
    cvc_clc_index_load(t);
    bool indexed = cvc_clc_index.count > 0; /* written once, under the lock */
    pthread_mutex_unlock(&cvc_clc_index_lock);
    char dir[4096];
    if (!source || !indexed || !cvc_cache_dir(dir, sizeof dir))
        return;
    bool none = false;
    char *stub = cvc_clc_stub(source, len, options, &none);
    if (none) {
        p->path[0] = 0; /* nothing of libclc named: none linked */
        p->partial = true;
    } else if (stub) {
        cvc_tools_cache_path(t, "libclc", stub, "bc", p->final, sizeof p->final);
        cvc_tools_cache_path(t, "libclc", stub, "whole", p->whole, sizeof p->whole);
        if (p->whole[0] && access(p->whole, F_OK) == 0) {
            /* This set missed before (cvc_libclc_plan_missed): the whole libclc at once. */
        } else if (p->final[0] && access(p->final, R_OK) == 0) {
            snprintf(p->path, sizeof p->path, "%s", p->final);
            p->partial = true;
        } else if (p->final[0]) {
            /* New set: extracted beside this build (which links the whole libclc). */
            char stub_path[4096];
            cvc_tmp_path(tmp, "libclc-needed.ll", stub_path);
            cvc_unique_tmp(p->final, p->made, sizeof p->made);
            cvc_mkdirs(dir);
            char *argv[] = {(char *)t->llvm_link,
                            "--only-needed",
                            "--suppress-warnings",
                            stub_path,
                            (char *)t->libclc,
                            "-o",
                            p->made,
                            NULL};
            if (!cvc_write_file(stub_path, stub, strlen(stub)) ||
                !cvc_child_start(argv, false, &p->maker, NULL))
                p->made[0] = 0;
        }
    }
    free(stub);
}

void cvc_libclc_plan_end(cvc_libclc_plan *p) {
    if (p->maker.pid) {
        if (cvc_child_finish(&p->maker, NULL, 0, NULL) != 0 || access(p->made, R_OK) != 0 ||
            rename(p->made, p->final) != 0)
            unlink(p->made);
    }
}

void cvc_libclc_plan_missed(cvc_libclc_plan *p, const cvc_tools *t) {
    snprintf(p->path, sizeof p->path, "%s", t->libclc);
    p->half = true;
    p->partial = false;
    if (p->whole[0])
        cvc_cache_write(p->whole, "", 0);
}
