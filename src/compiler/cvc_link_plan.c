/* The bitcode libraries a build links, and for a source build only the part of them it calls.
 *
 * Why: measured on the H100 machine, clang spends most of a small program's cold build reading
 * libraries to link the few functions the program calls: libclc's 8 MB and 9,700 functions
 * (~28 ms), culvert's builtins, CUDA's libdevice and culvert's wrappers of it (~25 ms more, on
 * the build machine). The source names the builtins it calls, so culvert links one small
 * library instead: the functions of those names from every library, in link order, with what
 * they call, extracted by llvm-link --only-needed and kept in the cache directory, keyed by the
 * set of names and the libraries. A set seen for the first time is extracted while clang builds
 * with the whole libraries, for the builds after it (the same kernels with other options or
 * defines, a program built again in a new process). A call the scan cannot see (a name made by
 * macro pasting, a call in an included header) leaves an undefined function: the build is then
 * done again with every library whole (cvc_codegen), so the result never differs. Without a
 * cache directory (CULVERT_CACHE=0) the libraries are linked whole, as before. */
#include "compiler/cvc_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* culvert's embedded libraries (built from the .ll files of builtins/), in the order of cvc_lib. */
static const struct {
    const char *file;
    const unsigned char *data;
    const size_t *size;
} cvc_embedded[CVC_LIB_LIBDEVICE] = {
    [CVC_LIB_HALF] = {"culvert-half.bc", cvc_half_bc, &cvc_half_bc_size},
    [CVC_LIB_IMAGES] = {"culvert-images.bc", cvc_images_bc, &cvc_images_bc_size},
    [CVC_LIB_BUILTINS] = {"culvert-builtins.bc", cvc_builtins_bc, &cvc_builtins_bc_size},
    [CVC_LIB_FAST] = {"culvert-libdevice-fast.bc", cvc_libdevice_fast_bc,
                      &cvc_libdevice_fast_bc_size},
    [CVC_LIB_WRAPPERS] = {"culvert-libdevice.bc", cvc_libdevice_bc, &cvc_libdevice_bc_size},
};

/* The embedded libraries, hashed once per process (the cache keys). */
static cvc_hash cvc_blobs;
static pthread_once_t cvc_blobs_once = PTHREAD_ONCE_INIT;
static void cvc_hash_blobs(void) {
    cvc_hasher h;
    cvc_hash_init(&h);
    for (int i = 0; i < CVC_LIB_LIBDEVICE; i++) {
        cvc_hash_bytes(&h, cvc_embedded[i].size, sizeof *cvc_embedded[i].size);
        cvc_hash_bytes(&h, cvc_embedded[i].data, *cvc_embedded[i].size);
    }
    cvc_blobs = cvc_hash_final(&h);
}
cvc_hash cvc_blobs_hash(void) {
    pthread_once(&cvc_blobs_once, cvc_hash_blobs);
    return cvc_blobs;
}

/* The path of every library this build may link ("" when it cannot); the embedded ones are
 * written to the temporary directory only when a step needs them (cvc_libs_write). */
static void cvc_libs_init(cvc_link_plan *p, const cvc_options *o, const cvc_tools *t,
                          const cvc_tmp *tmp) {
    bool libdevice = t->libdevice[0] != 0;
    /* The image builtins have a path even where the target has no images: the index of names
     * (once per process) then has them for the image targets' builds (p->allowed decides). */
    bool usable[CVC_LIB_COUNT] = {
        [CVC_LIB_HALF] = true,
        [CVC_LIB_IMAGES] = cvc_images_bc_size > 0,
        [CVC_LIB_BUILTINS] = true,
        /* sin, exp, log... approximate, for -cl-fast-relaxed-math and the like */
        [CVC_LIB_FAST] = libdevice && o && o->fast_math && cvc_libdevice_fast_bc_size > 0,
        [CVC_LIB_WRAPPERS] = libdevice,
        [CVC_LIB_LIBDEVICE] = libdevice,
        [CVC_LIB_LIBCLC] = true,
    };
    for (int i = 0; i < CVC_LIB_COUNT; i++) {
        p->lib[i][0] = 0;
        if (!usable[i])
            continue;
        if (i < CVC_LIB_LIBDEVICE)
            cvc_tmp_path(tmp, cvc_embedded[i].file, p->lib[i]);
        else
            snprintf(p->lib[i], sizeof p->lib[i], "%s",
                     i == CVC_LIB_LIBDEVICE ? t->libdevice : t->libclc);
    }
}

/* Writes the embedded libraries of `mask` not written yet; false when that fails. */
static bool cvc_libs_write(cvc_link_plan *p, unsigned mask) {
    for (int i = 0; i < CVC_LIB_LIBDEVICE; i++)
        if ((mask & ~p->written & (1u << i)) && p->lib[i][0]) {
            if (!cvc_write_file(p->lib[i], cvc_embedded[i].data, *cvc_embedded[i].size))
                return false;
            p->written |= 1u << i;
        }
    return true;
}

/* The link list: the libraries of `mask` that exist, in link order. */
static bool cvc_plan_list(cvc_link_plan *p, unsigned mask) {
    p->count = 0;
    for (int i = 0; i < CVC_LIB_COUNT; i++)
        if ((mask & (1u << i)) && p->lib[i][0])
            p->list[p->count++] = p->lib[i];
    return cvc_libs_write(p, mask);
}

/* Every library's OpenCL C functions, sorted by their OpenCL C name (clamp, vload4...), then by
 * mangled name (a function two libraries define is one run: the first in link order wins). */
typedef struct cvc_lib_name {
    /* The OpenCL C name, inside `mangled` (or cvc_unmangled's), not 0-terminated. */
    const char *base;
    size_t base_len;
    const char *mangled;
    int lib; /* cvc_lib */
} cvc_lib_name;

static struct {
    char *text; /* the llvm-nm lists, lines made strings */
    cvc_lib_name *names;
    size_t count;
} cvc_index;
static pthread_mutex_t cvc_index_lock = PTHREAD_MUTEX_INITIALIZER;
static bool cvc_index_tried; /* with a cache directory: once per process */

static int cvc_base_cmp(const cvc_lib_name *x, const cvc_lib_name *y) {
    size_t n = x->base_len < y->base_len ? x->base_len : y->base_len;
    int c = memcmp(x->base, y->base, n);
    return c ? c : (x->base_len > y->base_len) - (x->base_len < y->base_len);
}

/* Builtins clang lowers to calls of unmangled functions (the generic address space's
 * conversions, builtins/generic.ll): indexed under the OpenCL C name a source calls them by. */
static const struct {
    const char *symbol, *name;
} cvc_unmangled[] = {
    {"__to_global", "to_global"},
    {"__to_local", "to_local"},
    {"__to_private", "to_private"},
    /* A sampler declared in the program (`constant sampler_t s = ...`). */
    {"__translate_sampler_initializer", "sampler_t"},
};

/* The OpenCL C name of a library's symbol (inside `symbol`, or cvc_unmangled's), or NULL for the
 * libraries' internals, reached only through the functions that use them. */
static const char *cvc_symbol_name(const char *symbol, size_t *len) {
    /* _Z<length><name>...: the OpenCL C name. */
    char *end;
    long n = symbol[0] == '_' && symbol[1] == 'Z' ? strtol(symbol + 2, &end, 10) : 0;
    if (n > 0 && (size_t)n <= strlen(end)) {
        *len = (size_t)n;
        return end;
    }
    for (size_t i = 0; i < sizeof cvc_unmangled / sizeof cvc_unmangled[0]; i++)
        if (!strcmp(symbol, cvc_unmangled[i].symbol)) {
            *len = strlen(cvc_unmangled[i].name);
            return cvc_unmangled[i].name;
        }
    return NULL;
}

static int cvc_name_cmp(const void *a, const void *b) {
    const cvc_lib_name *x = a, *y = b;
    int c = cvc_base_cmp(x, y);
    if (!c)
        c = strcmp(x->mangled, y->mangled);
    return c ? c : x->lib - y->lib;
}

/* "#<lib>" then that library's llvm-nm list, for each library that has C++-mangled names
 * (libdevice has none: it is reached through culvert's wrappers). */
static char *cvc_index_text(cvc_link_plan *p, const cvc_tools *t, size_t *len) {
    static const int listed[] = {CVC_LIB_HALF, CVC_LIB_IMAGES,   CVC_LIB_BUILTINS,
                                 CVC_LIB_FAST, CVC_LIB_WRAPPERS, CVC_LIB_LIBCLC};
    cvc_buf all = {0};
    for (size_t k = 0; k < sizeof listed / sizeof listed[0]; k++) {
        int i = listed[k];
        if (!p->lib[i][0])
            continue;
        char *argv[] = {(char *)t->llvm_nm, "--defined-only", "-j", p->lib[i], NULL};
        cvc_buf_printf(&all, "#%d\n", i);
        if (!cvc_libs_write(p, 1u << i) || cvc_run(argv, &all) != 0) {
            free(all.data);
            return NULL;
        }
    }
    if (all.failed) {
        free(all.data);
        return NULL;
    }
    *len = all.len;
    return cvc_buf_take(&all);
}

/* The index, kept in the cache directory for these tools, these embedded libraries and this
 * set of usable ones. Under cvc_index_lock. */
static void cvc_index_load(cvc_link_plan *p, const cvc_tools *t) {
    char key[200], path[4300];
    cvc_hash blobs = cvc_blobs_hash();
    snprintf(key, sizeof key, "names %016llx%016llx", (unsigned long long)blobs.hi,
             (unsigned long long)blobs.lo);
    for (int i = 0; i < CVC_LIB_COUNT; i++)
        strcat(key, p->lib[i][0] ? "1" : "0");
    cvc_tools_cache_path(t, "libnames", key, "names", path, sizeof path);
    if (cvc_index_tried || !t->found || !t->llvm_nm[0] || !path[0])
        return;
    cvc_index_tried = true;
    size_t len = 0;
    char *text = (char *)cvc_read_file(path, &len);
    if (!text) {
        text = cvc_index_text(p, t, &len);
        if (!text)
            return;
        cvc_cache_write(path, text, len);
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    cvc_lib_name *names = calloc(lines + 1, sizeof *names);
    size_t n = 0;
    int lib = -1;
    for (char *l = text; names && l < text + len;) {
        char *eol = memchr(l, '\n', (size_t)(text + len - l));
        if (eol)
            *eol = 0;
        size_t base_len = 0;
        const char *base = l[0] == '#' ? NULL : cvc_symbol_name(l, &base_len);
        if (l[0] == '#')
            lib = atoi(l + 1);
        else if (lib >= 0 && lib < CVC_LIB_COUNT && base) {
            names[n] = (cvc_lib_name){base, base_len, l, lib};
            n++;
        }
        l = eol ? eol + 1 : text + len;
    }
    if (!names || !n) {
        free(names);
        free(text);
        return;
    }
    qsort(names, n, sizeof *names, cvc_name_cmp);
    cvc_index.text = text;
    cvc_index.names = names;
    cvc_index.count = n;
}

/* The first index entry with this OpenCL C name, or NULL. */
static const cvc_lib_name *cvc_index_find(const char *word, size_t len) {
    cvc_lib_name key = {word, len, NULL, 0};
    size_t lo = 0, hi = cvc_index.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cvc_base_cmp(&cvc_index.names[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cvc_index.count && !cvc_base_cmp(&cvc_index.names[lo], &key) ? &cvc_index.names[lo]
                                                                             : NULL;
}

static bool cvc_is_ident(char c, bool first) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
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

typedef struct cvc_marks {
    unsigned char *wanted; /* per index entry */
    unsigned libs;         /* the libraries linked (bits of cvc_lib) */
    size_t found;
} cvc_marks;

/* Marks every function of the linked libraries called `word` (each overload). */
static void cvc_mark_word(const char *word, size_t len, void *arg) {
    cvc_marks *m = arg;
    const cvc_lib_name *end = cvc_index.names + cvc_index.count;
    for (const cvc_lib_name *e = cvc_index_find(word, len);
         e && e < end && e->base_len == len && !memcmp(e->base, word, len); e++) {
        size_t k = (size_t)(e - cvc_index.names);
        if (!m->wanted[k] && (m->libs & (1u << e->lib))) {
            m->wanted[k] = 1;
            m->found++;
        }
    }
}

/* The functions a source and its build options name: an llvm-link input (textual IR) whose
 * one global refers to each of them (--only-needed then brings them and what they call, from
 * the first library in link order that has them). Its first line names the libraries, so it
 * is also the part's cache key. NULL when out of memory. */
static char *cvc_stub(const char *source, size_t len, const char *options, unsigned libs) {
    size_t count = cvc_index.count;
    cvc_marks m = {calloc(count ? count : 1, 1), libs, 0};
    if (!m.wanted)
        return NULL;
    cvc_each_ident(source, len, cvc_mark_word, &m);
    cvc_each_ident(options, options ? strlen(options) : 0, cvc_mark_word, &m);
    cvc_hash blobs = cvc_blobs_hash();
    cvc_buf stub = {0};
    cvc_buf_printf(&stub, "; culvert libraries %x, %016llx%016llx\n", libs,
                   (unsigned long long)blobs.hi, (unsigned long long)blobs.lo);
    /* One reference per mangled name: a name two libraries define is a run of the index. */
    size_t unique = 0;
    for (size_t k = 0; k < count; k++)
        if (m.wanted[k] && (k == 0 || !m.wanted[k - 1] ||
                            strcmp(cvc_index.names[k].mangled, cvc_index.names[k - 1].mangled))) {
            m.wanted[k] = 2; /* the first of its run */
            unique++;
        }
    cvc_buf_printf(&stub, "@__cv_need = global [%zu x ptr] [", unique);
    for (size_t k = 0, n = 0; k < count; k++)
        if (m.wanted[k] == 2)
            cvc_buf_printf(&stub, "%sptr @%s", n++ ? ", " : "", cvc_index.names[k].mangled);
    cvc_buf_str(&stub, "]\n");
    for (size_t k = 0; k < count; k++)
        if (m.wanted[k] == 2)
            cvc_buf_printf(&stub, "declare void @%s()\n", cvc_index.names[k].mangled);
    free(m.wanted);
    if (stub.failed) {
        free(stub.data);
        return NULL;
    }
    return stub.data;
}

/* What a source names that decides its optional libraries. */
typedef struct cvc_named {
    bool half;   /* the half type, or the extension that enables it */
    bool images; /* an image type, an image builtin or a sampler */
} cvc_named;

static void cvc_named_word(const char *word, size_t n, void *arg) {
    static const char *const half[] = {"half",  "half2",  "half3",      "half4",
                                       "half8", "half16", "cl_khr_fp16"};
    static const char *const image[] = {"image1d",     "image2d",   "image3d",  "read_image",
                                        "write_image", "get_image", "sampler_t"};
    cvc_named *named = arg;
    for (size_t i = 0; i < sizeof half / sizeof half[0]; i++)
        if (strlen(half[i]) == n && !memcmp(half[i], word, n))
            named->half = true;
    for (size_t i = 0; i < sizeof image / sizeof image[0]; i++)
        if (n >= strlen(image[i]) && !memcmp(image[i], word, strlen(image[i])))
            named->images = true;
}

#define CVC_ALL_LIBS ((1u << CVC_LIB_COUNT) - 1)

bool cvc_link_plan_make(cvc_link_plan *p, const char *source, size_t len, const char *options,
                        const cvc_options *o, const cvc_tools *t, const cvc_tmp *tmp) {
    memset(p, 0, sizeof *p);
    cvc_libs_init(p, o, t, tmp);
    /* Only the libraries this build may link: the part's key (the stub's first line) tells a
     * relaxed-math build's part (sin on __nv_fast_sinf) from the accurate one's, whose names are
     * the same. The image builtins only for a target with images. */
    p->allowed = CVC_ALL_LIBS;
    for (int i = 0; i < CVC_LIB_COUNT; i++)
        if (!p->lib[i][0])
            p->allowed &= ~(1u << i);
    if (!o || !o->images)
        p->allowed &= ~(1u << CVC_LIB_IMAGES);
    /* culvert's half builtins (a sixth of a build's clang time) only for a source that names
     * half, the image builtins only for one that names images; a call of one the scan cannot see
     * builds again with them. */
    cvc_named named = {!source, !source};
    cvc_each_ident(source, len, cvc_named_word, &named);
    cvc_each_ident(options, options ? strlen(options) : 0, cvc_named_word, &named);
    unsigned libs = p->allowed;
    if (!named.half)
        libs &= ~(1u << CVC_LIB_HALF);
    if (!named.images)
        libs &= ~(1u << CVC_LIB_IMAGES);
    p->partial = libs != p->allowed;
    pthread_mutex_lock(&cvc_index_lock);
    if (source)
        cvc_index_load(p, t);
    bool indexed = cvc_index.count > 0; /* written once, under the lock */
    pthread_mutex_unlock(&cvc_index_lock);
    char dir[4096];
    char *stub = source && indexed && cvc_cache_dir(dir, sizeof dir)
                     ? cvc_stub(source, len, options, libs)
                     : NULL;
    if (stub) {
        cvc_tools_cache_path(t, "libpart", stub, "bc", p->final, sizeof p->final);
        cvc_tools_cache_path(t, "libpart", stub, "whole", p->whole, sizeof p->whole);
    }
    bool ok;
    if (!stub || !p->final[0] || access(p->whole, F_OK) == 0) {
        /* No part possible, or this set missed before (cvc_link_plan_missed): whole. */
        ok = cvc_plan_list(p, libs);
    } else if (access(p->final, R_OK) == 0) {
        p->list[0] = p->final;
        p->count = 1;
        p->partial = true;
        ok = true;
    } else {
        /* New set: extracted beside this build (which links the libraries whole). */
        ok = cvc_plan_list(p, libs);
        char stub_path[4096];
        cvc_tmp_path(tmp, "libpart-needed.ll", stub_path);
        cvc_unique_tmp(p->final, p->made, sizeof p->made);
        cvc_mkdirs(dir);
        char *argv[3 + CVC_LIB_COUNT + 3] = {(char *)t->llvm_link, "--only-needed",
                                             "--suppress-warnings", stub_path};
        size_t n = 4;
        for (size_t i = 0; i < p->count; i++)
            argv[n++] = (char *)p->list[i];
        argv[n++] = "-o";
        argv[n++] = p->made;
        argv[n] = NULL;
        if (!ok || !cvc_write_file(stub_path, stub, strlen(stub)) ||
            !cvc_child_start(argv, false, &p->maker, NULL))
            p->made[0] = 0;
    }
    free(stub);
    return ok;
}

void cvc_link_plan_end(cvc_link_plan *p) {
    if (cvc_child_started(&p->maker)) {
        if (cvc_child_finish(&p->maker, NULL, 0, NULL) != 0 || access(p->made, R_OK) != 0 ||
            rename(p->made, p->final) != 0)
            unlink(p->made);
    }
}

bool cvc_link_plan_missed(cvc_link_plan *p) {
    p->partial = false;
    if (p->whole[0])
        cvc_cache_write(p->whole, "", 0);
    return cvc_plan_list(p, p->allowed);
}
