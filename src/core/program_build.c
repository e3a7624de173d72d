/* clBuildProgram, clCompileProgram, clLinkProgram: source goes through the compiler
 * (src/compiler/compiler.h) to PTX; PTX is rewritten (core/ptx_rewrite.c) and loaded with
 * cuModuleLoadDataEx; the JIT's log joins the build log. */
#include "compiler/compiler.h"
#include "util/log.h"
#include "core/platform.h"
#include "core/program.h"
#include "core/image.h"
#include "core/backend.h"
#include "util/clock.h"
#include "core/program_function.h"
#include "core/ptx_textured.h"
#include "core/ptx_timing.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Build options of the OpenCL 3.0 spec and NVIDIA's. value: takes an argument, either attached
 * (=N, -DX) or as the next word. */
static const struct {
    const char *name;
    bool prefix; /* matches any word that starts with name */
    bool value;  /* the argument may be the next word */
} cv_options[] = {
    {"-D", true, true},
    {"-I", true, true},
    {"-cl-std=", true, false},
    {"-cl-single-precision-constant", false, false},
    {"-cl-denorms-are-zero", false, false},
    {"-cl-fp32-correctly-rounded-divide-sqrt", false, false},
    {"-cl-opt-disable", false, false},
    {"-cl-strict-aliasing", false, false},
    {"-cl-mad-enable", false, false},
    {"-cl-no-signed-zeros", false, false},
    {"-cl-unsafe-math-optimizations", false, false},
    {"-cl-finite-math-only", false, false},
    {"-cl-fast-relaxed-math", false, false},
    {"-cl-uniform-work-group-size", false, false},
    {"-cl-no-subgroup-ifp", false, false},
    {"-cl-kernel-arg-info", false, false},
    {"-w", false, false},
    {"-Werror", false, false},
    {"-g", false, false},
    {"-create-library", false, false},
    {"-enable-link-options", false, false},
    {"-cl-nv-verbose", false, false},
    {"-cl-nv-maxrregcount", true, true},
    {"-cl-nv-opt-level", true, true},
    {"-cl-nv-arch", true, true},
    {"-nv-line-info", false, false},
    {"-cl-ext=", true, false},
};

/* Next whitespace-separated word (quotes group); false at the end. */
static bool cv_next_word(const char **s, char *word, size_t size) {
    const char *p = *s;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (!*p)
        return false;
    size_t n = 0;
    char quote = 0;
    for (; *p && (quote || !isspace((unsigned char)*p)); p++) {
        if (quote && *p == quote)
            quote = 0;
        else if (!quote && (*p == '"' || *p == '\''))
            quote = *p;
        if (n + 1 < size)
            word[n++] = *p;
    }
    word[n] = '\0';
    *s = p;
    return true;
}

/* The number of "-opt=N" or "-opt N"; -1 when there is none or it is not a number. */
static int cv_option_number(const char *word, size_t name_len, const char **rest, bool *used_next) {
    const char *v = word + name_len;
    char next[64];
    *used_next = false;
    if (*v == '=')
        v++;
    else if (*v == '\0') {
        const char *save = *rest;
        if (!cv_next_word(rest, next, sizeof next)) {
            *rest = save;
            return -1;
        }
        *used_next = true;
        v = next;
    }
    char *end;
    long n = strtol(v, &end, 10);
    return (*v && *end == '\0' && n >= 0 && n < 1 << 20) ? (int)n : -1;
}

/* Validates build options (CL_INVALID_BUILD_OPTIONS) and reads the JIT's among them. */
static cl_int cv_program_parse_options(const char *options, cvcu_jit_options *jit) {
    char word[4096];
    const char *s = options ? options : "";
    cl_int err = CL_SUCCESS;
    jit->max_registers = 0;
    jit->opt_level = -1;
    jit->verbose = false;
    jit->target = 0;
    while (err == CL_SUCCESS && cv_next_word(&s, word, sizeof word)) {
        size_t i, n = sizeof cv_options / sizeof cv_options[0];
        for (i = 0; i < n; i++) {
            size_t l = strlen(cv_options[i].name);
            if (cv_options[i].prefix ? strncmp(word, cv_options[i].name, l) == 0
                                     : strcmp(word, cv_options[i].name) == 0)
                break;
        }
        if (i == n) {
            err = CL_INVALID_BUILD_OPTIONS;
            break;
        }
        const char *name = cv_options[i].name;
        size_t l = strlen(name);
        bool used_next = false;
        if (strcmp(name, "-cl-nv-maxrregcount") == 0) {
            jit->max_registers = cv_option_number(word, l, &s, &used_next);
            err = jit->max_registers >= 0 ? CL_SUCCESS : CL_INVALID_BUILD_OPTIONS;
        } else if (strcmp(name, "-cl-nv-opt-level") == 0) {
            jit->opt_level = cv_option_number(word, l, &s, &used_next);
            err =
                jit->opt_level >= 0 && jit->opt_level <= 4 ? CL_SUCCESS : CL_INVALID_BUILD_OPTIONS;
        } else if (strcmp(name, "-cl-nv-verbose") == 0) {
            jit->verbose = true;
        } else if (cv_options[i].value && word[l] == '\0') {
            /* "-D name" / "-I dir" / "-cl-nv-arch sm_90": the argument is the next word */
            char next[4096];
            if (!cv_next_word(&s, next, sizeof next))
                err = CL_INVALID_BUILD_OPTIONS;
        }
    }
    return err;
}

static char *cv_strdup0(const char *s) {
    return strdup(s ? s : "");
}

/* Appends text to a device's build log. */
static void cv_log_append(cv_program_device *pd, const char *text) {
    if (!text || !*text)
        return;
    size_t a = pd->log ? strlen(pd->log) : 0, b = strlen(text);
    char *l = realloc(pd->log, a + b + 2);
    if (!l)
        return;
    memcpy(l + a, text, b + 1);
    if (b && text[b - 1] != '\n')
        strcat(l, "\n");
    pd->log = l;
}

/* Signatures for a cubin/fatbin: the driver's function list and parameter sizes (CUDA 12.4+). */
static cl_int cv_program_signatures_from_driver(cv_program_device *pd) {
    char **names = NULL;
    unsigned count = 0;
    cl_int err = cvcu_module_function_names(pd->module, &names, &count);
    if (err == CL_INVALID_OPERATION)
        cv_log_append(pd, "culvert: this CUDA driver cannot list a cubin's kernels (CUDA 12.4 "
                          "needed); load PTX instead");
    if (err == CL_SUCCESS && count) {
        pd->ptx.kernels = calloc(count, sizeof *pd->ptx.kernels);
        err = pd->ptx.kernels ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    for (unsigned i = 0; err == CL_SUCCESS && i < count; i++) {
        cv_ptx_kernel *k = &pd->ptx.kernels[i];
        cvcu_function *f;
        k->name = names[i];
        names[i] = NULL;
        pd->ptx.num_kernels = i + 1;
        k->attributes = strdup("");
        err = k->attributes ? cvcu_module_function(pd->module, k->name, &f) : CL_OUT_OF_HOST_MEMORY;
        size_t off, size, cap = 0;
        for (unsigned j = 0;
             err == CL_SUCCESS && cvcu_function_param(f, j, &off, &size) == CL_SUCCESS; j++) {
            if (k->num_params == cap) {
                cap = cap ? cap * 2 : 8;
                void *p = realloc(k->params, cap * sizeof *k->params);
                if (!p) {
                    err = CL_OUT_OF_HOST_MEMORY;
                    break;
                }
                k->params = p;
            }
            cv_ptx_param *prm = &k->params[k->num_params++];
            char pname[32];
            snprintf(pname, sizeof pname, "param_%u", j);
            prm->name = strdup(pname);
            prm->size = (uint32_t)size;
            /* the largest power of two (up to 8) that the offset and size allow */
            prm->align = 8;
            while (prm->align > 1 && ((off | size) & (prm->align - 1)))
                prm->align /= 2;
            prm->space = CV_PTX_NOT_PTR;
            prm->ptr_align = 0;
            if (!prm->name)
                err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    for (unsigned i = 0; i < count; i++)
        free(names ? names[i] : NULL);
    free(names);
    return err;
}

/* The timed twin of f's entry (core/ptx_timing.h); f->timed stays NULL where the driver
 * refuses it: the entry is timed with CUDA events then. */
static void cv_program_timed_twin(cvcu_module *module, cv_program_function *f) {
    size_t n = strlen(f->sig->name);
    char *name = malloc(n + sizeof CV_PTX_TIMED_SUFFIX);
    cvcu_function *twin = NULL;
    if (name) {
        memcpy(name, f->sig->name, n);
        memcpy(name + n, CV_PTX_TIMED_SUFFIX, sizeof CV_PTX_TIMED_SUFFIX);
    }
    if (name && cvcu_module_function(module, name, &twin) == CL_SUCCESS &&
        cvcu_function_attrs(twin, &f->timed_attrs) == CL_SUCCESS)
        f->timed = twin;
    free(name);
}

/* f's function in module, named by its signature, with its attributes and, where the module has
 * one for it, its timed twin; the launch bookkeeping starts from them. */
static cl_int cv_program_function_open(struct cvcu_module *module, cv_program_function *f,
                                       bool timed) {
    cl_int err = cvcu_module_function(module, f->sig->name, &f->func);
    if (err == CL_SUCCESS)
        err = cvcu_function_attrs(f->func, &f->attrs);
    if (err == CL_SUCCESS && timed)
        cv_program_timed_twin(module, f);
    atomic_init(&f->smem_optin, f->attrs.max_dynamic_smem);
    atomic_init(&f->timed_smem_optin, f->timed_attrs.max_dynamic_smem);
    atomic_init(&f->default_block, 0);
    atomic_init(&f->residency, 0);
    return err;
}

void cv_program_twins_free(cv_program_twins *t) {
    if (t) {
        if (t->module) {
            cvcu_device_bind(t->device->cu);
            cvcu_module_unload(t->module);
        }
        if (t->textured_module) {
            cvcu_device_bind(t->device->cu);
            cvcu_module_unload(t->textured_module);
        }
        free(t->textured);
        free(t->textured_text);
        if (t->textured_stats)
            free(t->textured_stats->timed);
        free(t->textured_stats);
        pthread_mutex_destroy(&t->lock);
        free(t->text);
        free(t->alone);
        if (t->stats)
            free(t->stats->timed);
        free(t->stats);
        free(t);
    }
}

/* Makes the twins' module text once, under t->lock (a load put off by a closed gate is tried
 * again without it); false when out of memory. */
static bool cv_program_twins_text(cv_program_twins *t) {
    if (t->stats)
        return t->alone != NULL;
    t->stats = calloc(1, sizeof *t->stats);
    size_t len = 0;
    if (t->stats)
        t->alone = cv_ptx_add_timing(t->text, strlen(t->text), CV_PTX_TIMING_ALONE, &len, t->stats);
    free(t->text);
    t->text = NULL;
    if (t->alone && t->stats->module_refused)
        cvu_log(CVU_LOG_INFO,
                "no kernel timing (%s): profiling queues time these kernels with CUDA events",
                t->stats->module_refused);
    return t->alone != NULL;
}

/* Loads the twins apart, under t->lock; a function whose twin the driver refuses keeps none
 * (CUDA events time it). False while a gate is closed: nothing was tried, a later launch tries
 * again (the load would wait for whoever opens the gate, maybe this very thread). */
static bool cv_program_twins_load(cv_program_twins *t) {
    bool made = cv_program_twins_text(t);
    const cv_ptx_timing_stats *st = t->stats;
    char *log = NULL;
    bool later = false;
    cl_int err = made ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS && st->twins) {
        uint64_t t0 = cvu_host_time_ns();
        err = cvcu_device_bind(t->device->cu);
        if (err == CL_SUCCESS)
            err = cvcu_module_load_unblocked(t->alone, &t->jit, &t->module, &log, &later);
        if (!later)
            cvu_log(err == CL_SUCCESS ? CVU_LOG_INFO : CVU_LOG_ERROR,
                    "timed twins of %u kernels: CUDA module load %.1f ms (%d)%s%s", st->twins,
                    (double)(cvu_host_time_ns() - t0) / 1e6, err, log && log[0] ? ": " : "",
                    log ? log : "");
    }
    for (uint32_t i = 0; t->module && i < t->num_functions && i < st->entries; i++) {
        cv_program_function *f = &t->functions[i];
        if (st->timed[i])
            cv_program_timed_twin(t->module, f);
        atomic_store(&f->timed_smem_optin, f->timed_attrs.max_dynamic_smem);
    }
    free(log);
    if (!later) {
        free(t->alone);
        t->alone = NULL;
        if (t->stats)
            free(t->stats->timed);
        free(t->stats);
        t->stats = NULL;
    }
    return !later;
}

cvcu_function *cv_program_function_timed(cv_program_function *f) {
    cv_program_twins *t = f->twins;
    if (t && !atomic_load_explicit(&t->tried, memory_order_acquire)) {
        pthread_mutex_lock(&t->lock);
        if (!atomic_load_explicit(&t->tried, memory_order_relaxed) && cv_program_twins_load(t))
            atomic_store_explicit(&t->tried, true, memory_order_release);
        pthread_mutex_unlock(&t->lock);
    }
    /* f->timed is written before tried turns true, and never after. */
    bool final = !t || atomic_load_explicit(&t->tried, memory_order_acquire);
    return final ? f->timed : NULL;
}

/* Loads the textured variant, under t->lock; false while a gate is closed (nothing tried). A
 * function the driver refuses there has no variant. */
static bool cv_program_textured_load(cv_program_twins *t) {
    char *log = NULL;
    bool later = false;
    uint64_t t0 = cvu_host_time_ns();
    cl_int err = cvcu_device_bind(t->device->cu);
    if (err == CL_SUCCESS)
        err = cvcu_module_load_unblocked(t->textured_text, &t->jit, &t->textured_module, &log,
                                         &later);
    if (later) {
        free(log);
        return false;
    }
    cvu_log(err == CL_SUCCESS ? CVU_LOG_INFO : CVU_LOG_ERROR,
            "textured variant of %u kernels: CUDA module load %.1f ms (%d)%s%s", t->num_functions,
            (double)(cvu_host_time_ns() - t0) / 1e6, err, log && log[0] ? ": " : "",
            log ? log : "");
    free(log);
    if (err == CL_SUCCESS)
        t->textured = calloc(t->num_functions ? t->num_functions : 1, sizeof *t->textured);
    const cv_ptx_timing_stats *st = t->textured_stats;
    for (uint32_t i = 0; t->textured && i < t->num_functions; i++) {
        cv_program_function *tf = &t->textured[i];
        tf->sig = t->functions[i].sig;
        tf->prints = t->functions[i].prints;
        bool timed = st && st->timed && i < st->entries && st->timed[i];
        if (cv_program_function_open(t->textured_module, tf, timed) != CL_SUCCESS)
            tf->func = NULL;
    }
    free(t->textured_text);
    t->textured_text = NULL;
    return true;
}

cv_program_function *cv_program_function_textured(cv_program_function *f) {
    cv_program_twins *t = f->twins;
    if (!t || !t->has_textured)
        return NULL;
    if (!atomic_load_explicit(&t->textured_tried, memory_order_acquire)) {
        pthread_mutex_lock(&t->lock);
        if (!atomic_load_explicit(&t->textured_tried, memory_order_relaxed) &&
            cv_program_textured_load(t))
            atomic_store_explicit(&t->textured_tried, true, memory_order_release);
        pthread_mutex_unlock(&t->lock);
    }
    cv_program_function *tf = NULL;
    /* t->textured is written before textured_tried turns true, and never after. */
    if (atomic_load_explicit(&t->textured_tried, memory_order_acquire) && t->textured)
        tf = &t->textured[f - t->functions];
    return tf && tf->func ? tf : NULL;
}

/* The textured variant's text (core/ptx_textured.h) of the entries' text, with its own timed
 * twins beside its entries; NULL where the module has no image sampling to stub out. */
static void cv_program_textured_text(cv_program_twins *t, const char *text) {
    size_t len = strlen(text), vlen = 0, wlen = 0;
    char *v = cv_ptx_textured(text, len, &vlen);
    t->textured_stats = v ? calloc(1, sizeof *t->textured_stats) : NULL;
    if (t->textured_stats)
        t->textured_text =
            cv_ptx_add_timing(v, vlen, CV_PTX_TIMING_BESIDE, &wlen, t->textured_stats);
    t->has_textured = t->textured_text != NULL;
    free(v);
}

/* The twins apart of a module loaded from text (which this takes), for its functions. */
static cv_program_twins *cv_program_twins_new(cv_program_device *pd, char *text,
                                              const cvcu_jit_options *jit) {
    cv_program_twins *t = calloc(1, sizeof *t);
    if (t && pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        t = NULL;
    }
    if (t) {
        atomic_init(&t->tried, false);
        t->text = text;
        t->jit = *jit;
        t->device = pd->device;
        t->functions = pd->functions;
        t->num_functions = pd->ptx.num_kernels;
        atomic_init(&t->textured_tried, false);
        cv_program_textured_text(t, text);
    } else {
        free(text);
    }
    return t;
}

/* Loads the device's binary: PTX (rewritten) or a CUDA image, then its functions. */
static cl_int cv_program_load(cl_program p, cv_program_device *pd, const cvcu_jit_options *jit0) {
    cvcu_jit_options jit = *jit0;
    const cvcu_device_props *props = pd->device->props;
    char *text = NULL;
    size_t text_len = 0;
    cl_int err = cvcu_device_bind(pd->device->cu);
    if (err == CL_SUCCESS && pd->binary_is_ptx && pd->ptx.envreg_unknown >= 0) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "culvert: this PTX from NVIDIA's OpenCL reads %%envreg%d, a launch value "
                 "culvert cannot provide",
                 pd->ptx.envreg_unknown);
        cv_log_append(pd, msg);
        err = CL_BUILD_PROGRAM_FAILURE;
    }
    if (err == CL_SUCCESS && pd->binary_is_ptx) {
        /* Never a lower target than the GPU has; arch-specific PTX (sm_90a) picks its own. */
        if (!pd->ptx.target_specific)
            jit.target = props->cc_major * 10 + props->cc_minor;
        size_t n = pd->binary_size;
        while (n && pd->binary[n - 1] == '\0')
            n--;
        text = cv_ptx_rewrite((const char *)pd->binary, n, &pd->ptx, &text_len);
        if (!text)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    /* The timed twins that profiling queues launch (core/ptx_timing.h): apart, loaded when
     * first launched, unless program-scope variables need them in the entries' module. */
    cv_ptx_timing_stats timing = {0};
    bool twins_apart = text && pd->ptx.global_bytes == 0;
    if (err == CL_SUCCESS && text && !twins_apart) {
        char *with = cv_ptx_add_timing(text, text_len, CV_PTX_TIMING_BESIDE, &text_len, &timing);
        free(text);
        text = with;
        if (!text)
            err = CL_OUT_OF_HOST_MEMORY;
        if (timing.module_refused)
            cvu_log(CVU_LOG_INFO,
                    "program %p: no kernel timing (%s): profiling queues time its kernels with "
                    "CUDA events",
                    (void *)p, timing.module_refused);
    }
    char *log = NULL;
    if (err == CL_SUCCESS) {
        err = cvcu_module_load(text ? (const void *)text : pd->binary, &jit, &pd->module, &log);
        cv_log_append(pd, log);
        free(log);
    }
    if (err == CL_SUCCESS && !pd->binary_is_ptx)
        err = cv_program_signatures_from_driver(pd);
    if (err == CL_SUCCESS && pd->ptx.num_kernels) {
        pd->functions = calloc(pd->ptx.num_kernels, sizeof *pd->functions);
        err = pd->functions ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS && twins_apart && pd->ptx.num_kernels) {
        pd->twins = cv_program_twins_new(pd, text, &jit);
        text = NULL;
        err = pd->twins ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    free(text);
    /* Once per module, not per kernel: large programs have many kernels and megabytes of PTX. */
    bool prints = memmem(pd->binary, pd->binary_size, "vprintf", 7) != NULL;
    /* CL_DEVICE_PRINTF_BUFFER_SIZE holds before the first launch of a kernel that prints. */
    if (err == CL_SUCCESS && prints)
        err = cvcu_device_printf_buffer(pd->device->cu);
    for (uint32_t i = 0; err == CL_SUCCESS && i < pd->ptx.num_kernels; i++) {
        cv_program_function *f = &pd->functions[i];
        f->sig = &pd->ptx.kernels[i];
        f->prints = prints;
        err = cv_program_function_open(pd->module, f,
                                       timing.timed && i < timing.entries && timing.timed[i]);
        f->twins = pd->twins;
        /* -cl-nv-verbose: the JIT's info log is empty when the driver takes the module from
         * its compute cache, so each kernel's resources, as the driver reports them, too. */
        if (err == CL_SUCCESS && jit.verbose) {
            char msg[400];
            snprintf(msg, sizeof msg,
                     "culvert: %.200s: %d registers, %d bytes static local (shared) memory, %d "
                     "bytes private (local) memory per work-item, up to %d work-items",
                     f->sig->name, f->attrs.num_regs, f->attrs.static_smem, f->attrs.local_bytes,
                     f->attrs.max_threads);
            cv_log_append(pd, msg);
        }
        pd->num_functions = i + 1;
    }
    free(timing.timed);
    if (err != CL_SUCCESS) {
        cv_program_twins_free(pd->twins);
        pd->twins = NULL;
    }
    if (err != CL_SUCCESS && pd->module) {
        cvcu_module_unload(pd->module);
        pd->module = NULL;
        free(pd->functions);
        pd->functions = NULL;
        pd->num_functions = 0;
    }
    (void)p;
    return err;
}

/* Kernel names of the program (from its first built device: every device has the same). */
static cl_int cv_program_collect_names(cl_program p) {
    const cv_program_device *pd = NULL;
    for (cl_uint i = 0; i < p->num_devices && !pd; i++)
        if (p->devs[i].module)
            pd = &p->devs[i];
    free(p->kernel_names);
    p->kernel_names = NULL;
    p->num_kernels = 0;
    if (!pd)
        return CL_SUCCESS;
    size_t len = 1;
    for (uint32_t i = 0; i < pd->num_functions; i++)
        len += strlen(pd->functions[i].sig->name) + 1;
    char *names = calloc(1, len);
    if (!names)
        return CL_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < pd->num_functions; i++) {
        if (i)
            strcat(names, ";");
        strcat(names, pd->functions[i].sig->name);
    }
    p->kernel_names = names;
    p->num_kernels = pd->num_functions;
    return CL_SUCCESS;
}

static cvc_target cv_target_of(cl_device_id d) {
    cvc_target t = {d->props->cc_major, d->props->cc_minor, cv_images_enabled()};
    return t;
}

/* Takes the compiler's output as the device's new binary. */
static cl_int cv_program_take_output(cv_program_device *pd, cvc_output *o, bool ptx,
                                     cl_program_binary_type type) {
    cl_int err = CL_SUCCESS;
    cv_ptx_free(&pd->ptx);
    pd->binary_is_ptx = false;
    free(pd->binary);
    pd->binary = o->data;
    pd->binary_size = o->size;
    o->data = NULL;
    pd->binary_type = type;
    if (ptx) {
        size_t n = pd->binary_size;
        while (n && pd->binary[n - 1] == '\0')
            n--;
        char msg[256];
        err = cv_ptx_parse((const char *)pd->binary, n, &pd->ptx, msg, sizeof msg);
        if (err != CL_SUCCESS)
            cv_log_append(pd, msg);
        pd->binary_is_ptx = err == CL_SUCCESS;
        /* CL_PROGRAM_BINARY_SIZES counts the terminator, as for binaries given to us. */
        if (pd->binary_size == n) {
            unsigned char *b = realloc(pd->binary, n + 1);
            if (b) {
                b[n] = '\0';
                pd->binary = b;
            }
            err = b ? err : CL_OUT_OF_HOST_MEMORY;
        }
        pd->binary_size = n + 1;
        if (err == CL_INVALID_BINARY)
            err = CL_BUILD_PROGRAM_FAILURE;
    }
    return err;
}

/* Whether the device is one of the build's targets. */
static bool cv_in_list(cl_device_id d, cl_uint n, const cl_device_id *list) {
    if (n == 0)
        return true;
    for (cl_uint i = 0; i < n; i++)
        if (list[i] == d)
            return true;
    return false;
}

/* Starts a build, compile or link step: CL_INVALID_OPERATION while kernels are attached or
 * another step is running. */
static cl_int cv_program_begin(cl_program p) {
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&p->lock);
    /* "CL_INVALID_OPERATION if the build of a program executable for any of the devices listed
     * in device_list by a previous call to clBuildProgram for program has not completed." */
    if (p->building)
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_OPERATION if there are kernel objects attached to program." */
    else if (atomic_load(&p->kernels) > 0)
        err = CL_INVALID_OPERATION;
    else
        p->building = true;
    pthread_mutex_unlock(&p->lock);
    return err;
}

/* Ends the step: the kernel names are those of the program's modules now. */
static cl_int cv_program_end(cl_program p) {
    pthread_mutex_lock(&p->lock);
    cl_int err = cv_program_collect_names(p);
    p->building = false;
    pthread_mutex_unlock(&p->lock);
    return err;
}

/* The set specialization constants as llvm-spirv's --spec-const takes them, or NULL when none is
 * set or without memory (*err). p->lock held. */
static char *cv_program_spec_text_locked(cl_program p, cl_int *err) {
    bool oom = false;
    char *s = cvc_spirv_spec_text(p->spec, p->spec_values, p->spec_set, p->num_spec, &oom);
    *err = oom ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
    return s;
}

static char *cv_program_spec_text(cl_program p, cl_int *err) {
    pthread_mutex_lock(&p->lock);
    char *spec = cv_program_spec_text_locked(p, err);
    pthread_mutex_unlock(&p->lock);
    return spec;
}

/* An IL program's executable: SPIR-V specialized with the constants set, then as source. */
static cl_int cv_build_il(cl_program p, cv_program_device *pd, const char *options) {
    cvc_target t = cv_target_of(pd->device);
    cvc_output o = {0};
    cl_int err = CL_SUCCESS;
    char *spec = cv_program_spec_text(p, &err);
    if (err == CL_SUCCESS)
        err = cvc_build_il(p->il, p->il_len, options, spec, &t, &o);
    free(spec);
    cv_log_append(pd, o.log);
    if (err == CL_SUCCESS)
        err = cv_program_take_output(pd, &o, true, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    cvc_output_free(&o);
    return err;
}

/* One device of clBuildProgram. */
static cl_int cv_build_device(cl_program p, cv_program_device *pd, const char *options,
                              const cvcu_jit_options *jit) {
    cl_int err = CL_SUCCESS;
    /* A rebuild starts from a clean slate; a program of a PTX binary loads the same PTX. */
    if (pd->module)
        cv_program_device_unload(p, pd, !p->source && !p->il && pd->binary_is_ptx);
    free(pd->log);
    pd->log = NULL;
    free(pd->options);
    pd->options = cv_strdup0(options);
    pd->status = CL_BUILD_IN_PROGRESS;
    cl_ulong start = cvu_host_time_ns(), compiled = start;
    if (p->source) {
        cvc_output o = {0};
        cvc_target t = cv_target_of(pd->device);
        err = cvc_build(p->source, p->source_len, options, &t, &o);
        compiled = cvu_host_time_ns();
        cv_log_append(pd, o.log);
        if (err == CL_SUCCESS)
            err = cv_program_take_output(pd, &o, true, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        cvc_output_free(&o);
    } else if (p->il) {
        err = cv_build_il(p, pd, options);
        compiled = cvu_host_time_ns();
    } else if (pd->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
               pd->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
        /* An object from clCompileProgram (or saved from one): link it alone. */
        cvc_output in = {pd->binary, pd->binary_size, NULL}, o = {0};
        const cvc_output *inputs[1] = {&in};
        cvc_target t = cv_target_of(pd->device);
        bool lib = false;
        err = cvc_link(inputs, 1, options, &t, &lib, &o);
        cv_log_append(pd, o.log);
        if (err == CL_SUCCESS && lib)
            err = CL_BUILD_PROGRAM_FAILURE;
        if (err == CL_SUCCESS)
            err = cv_program_take_output(pd, &o, true, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        cvc_output_free(&o);
        if (err == CL_LINKER_NOT_AVAILABLE || err == CL_LINK_PROGRAM_FAILURE)
            err = err == CL_LINKER_NOT_AVAILABLE ? CL_COMPILER_NOT_AVAILABLE
                                                 : CL_BUILD_PROGRAM_FAILURE;
    } else if (!pd->binary) {
        /* "CL_INVALID_BINARY if program is created with clCreateProgramWithBinary and devices
         * listed in device_list do not have a valid program binary loaded." */
        err = CL_INVALID_BINARY;
    }
    if (err == CL_SUCCESS)
        err = cv_program_load(p, pd, jit);
    /* Where a slow build's time goes: culvert's compiler (cache hits included) or CUDA's. */
    cvu_log(CVU_LOG_INFO, "program %p built (%d): compiler %.1f ms (%s), CUDA module load %.1f ms",
            (void *)p, (int)err, (double)(compiled - start) / 1e6, cvc_engine(),
            (double)(cvu_host_time_ns() - compiled) / 1e6);
    pd->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (err == CL_SUCCESS)
        pd->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return err;
}

void cv_program_unload_compiler(void) {
    cvc_unload();
}

cl_int cv_program_build(cl_program p, cl_uint num_devices, const cl_device_id *devices,
                        const char *options) {
    cvcu_jit_options jit;
    cl_int err = cv_program_parse_options(options, &jit);
    /* Source programs: the compiler judges the options (it knows more of them); culvert only
     * takes NVIDIA's JIT options from them. */
    if (err == CL_INVALID_BUILD_OPTIONS && (p->source || p->il))
        err = CL_SUCCESS;
    bool begun = false;
    if (err == CL_SUCCESS) {
        err = cv_program_begin(p);
        begun = err == CL_SUCCESS;
    }
    for (cl_uint i = 0; begun && i < p->num_devices; i++) {
        cv_program_device *pd = &p->devs[i];
        if (!cv_in_list(pd->device, num_devices, devices))
            continue;
        cl_int e = cv_build_device(p, pd, options, &jit);
        if (err == CL_SUCCESS && e != CL_SUCCESS)
            err = e;
    }
    if (begun) {
        cl_int e = cv_program_end(p);
        if (err == CL_SUCCESS)
            err = e;
    }
    return err;
}

cl_int cv_program_compile(cl_program p, cl_uint num_devices, const cl_device_id *devices,
                          const char *options, cl_uint num_headers, const cl_program *headers,
                          const char **header_names) {
    cvc_header *hs = num_headers ? calloc(num_headers, sizeof *hs) : NULL;
    cl_int err = (num_headers && !hs) ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_headers; i++) {
        hs[i].name = header_names[i];
        hs[i].text = headers[i]->source ? headers[i]->source : "";
        hs[i].len = headers[i]->source ? headers[i]->source_len : 0;
    }
    if (err == CL_SUCCESS)
        err = cv_program_begin(p);
    if (err != CL_SUCCESS) {
        free(hs);
        return err;
    }
    for (cl_uint i = 0; i < p->num_devices; i++) {
        cv_program_device *pd = &p->devs[i];
        if (!cv_in_list(pd->device, num_devices, devices))
            continue;
        cvc_output o = {0};
        cvc_target t = cv_target_of(pd->device);
        free(pd->log);
        pd->log = NULL;
        free(pd->options);
        pd->options = cv_strdup0(options);
        cl_int e = CL_SUCCESS;
        if (p->il) {
            char *spec = cv_program_spec_text(p, &e);
            if (e == CL_SUCCESS)
                e = cvc_compile_il(p->il, p->il_len, options, spec, &t, &o);
            free(spec);
        } else {
            e = cvc_compile(p->source, p->source_len, options, hs, num_headers, &t, &o);
        }
        cv_log_append(pd, o.log);
        /* An object replaces an executable built before. */
        if (e == CL_SUCCESS && pd->module)
            cv_program_device_unload(p, pd, false);
        if (e == CL_SUCCESS)
            e = cv_program_take_output(pd, &o, false, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
        cvc_output_free(&o);
        pd->status = e == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        if (err == CL_SUCCESS)
            err = e;
    }
    free(hs);
    cl_int e = cv_program_end(p);
    if (err == CL_SUCCESS)
        err = e;
    /* "CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile the program source." */
    if (err == CL_BUILD_PROGRAM_FAILURE)
        err = CL_COMPILE_PROGRAM_FAILURE;
    return err;
}

cl_program cv_program_link(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
                           const char *options, cl_uint num_inputs, const cl_program *inputs,
                           cl_int *err) {
    const cl_device_id *list = num_devices ? devices : ctx->devices;
    cl_uint n = num_devices ? num_devices : ctx->num_devices;
    const cvc_output **objs = calloc(num_inputs ? num_inputs : 1, sizeof *objs);
    cvc_output *storage = calloc(num_inputs ? num_inputs : 1, sizeof *storage);
    cl_program p = objs && storage ? cv_program_alloc(ctx, n, list, err) : NULL;
    cvcu_jit_options jit;
    if (!objs || !storage)
        *err = CL_OUT_OF_HOST_MEMORY;
    if (p)
        cv_program_parse_options(options, &jit); /* the compiler judges the options */
    bool linked_any = false;
    for (cl_uint i = 0; p && *err == CL_SUCCESS && i < n; i++) {
        cv_program_device *pd = &p->devs[i];
        /* Each input's object for this device. */
        cl_uint m = 0;
        for (cl_uint j = 0; j < num_inputs; j++) {
            cv_program_device *in = cv_program_device_of(inputs[j], pd->device);
            if (in && in->binary &&
                (in->binary_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
                 in->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY)) {
                storage[m] = (cvc_output){in->binary, in->binary_size, NULL};
                objs[m] = &storage[m];
                m++;
            }
        }
        /* "CL_INVALID_OPERATION if the rules for devices containing compiled binaries or
         * libraries as described in input_programs argument below are not followed." */
        if (m != num_inputs) {
            *err = CL_INVALID_OPERATION;
            break;
        }
        cvc_output o = {0};
        cvc_target t = cv_target_of(pd->device);
        bool lib = false;
        pd->options = cv_strdup0(options);
        cl_int e = cvc_link(objs, m, options, &t, &lib, &o);
        cv_log_append(pd, o.log);
        if (e == CL_SUCCESS)
            e = cv_program_take_output(pd, &o, !lib,
                                       lib ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                           : CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        cvc_output_free(&o);
        if (e == CL_SUCCESS && !lib)
            e = cv_program_load(p, pd, &jit);
        if (e == CL_BUILD_PROGRAM_FAILURE || e == CL_INVALID_BINARY)
            e = CL_LINK_PROGRAM_FAILURE;
        pd->status = e == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        linked_any |= e == CL_SUCCESS || e == CL_LINK_PROGRAM_FAILURE;
        *err = e;
    }
    if (p && *err == CL_SUCCESS)
        *err = cv_program_collect_names(p);
    /* A failed link still returns the program, so the application can read its log; other
     * errors return none. */
    if (p && *err != CL_SUCCESS && !(*err == CL_LINK_PROGRAM_FAILURE && linked_any)) {
        cv_release(&p->obj);
        p = NULL;
    }
    free(objs);
    free(storage);
    return p;
}
