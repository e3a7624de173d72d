/* OpenCL C -> PTX (compiler.h): clang + libclc + culvert's builtins, run as child processes.
 *
 *   build:   clang -cc1 (OpenCL C -> IR, culvert's builtins and libclc linked in, optimized)
 *            -> llc (IR -> PTX) -> //cv: metadata lines and PTX fix-ups (cvc_ptx.c)
 *   compile: clang -cc1 (OpenCL C -> bitcode, nothing linked)
 *   link:    llvm-link (bitcode objects -> one module) [-> library: done] -> clang -cc1 -x ir
 *            (builtins linked, optimized) -> llc -> fix-ups, as for build
 *
 * Every output is cached on disk by content (cvc_cache.c). */
#include "compiler/cvc_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

/* Part of every cache key: raise it whenever the pipeline's output for a given input changes
 * (3: GNU inline semantics, one declaration per intrinsic after the __constant rewrite; 4:
 * cl_khr_fp16 always on, half builtins; 5: the ordered atomics and their feature macros; 6: the
 * generic address space; 7: kernels called as functions, casts of null and between named spaces,
 * libraries in the bitcode wrapper, printf's h/hh lengths; 10: __OPENCL_VERSION__; 12: unified
 * texture mode), so that PTX cached by an earlier culvert is not served. The builtin libraries are
 * part of the key by their hash. */
#define CVC_VERSION "culvert-compiler-12"

/* OpenCL C extensions culvert's library implements beyond what clang enables for NVPTX
 * (cl_khr_fp16: builtins/half.ll; clang declares the half overloads only with it). The generic
 * address space (OpenCL C 3.0): its builtins' generic-pointer overloads are, on NVPTX, the
 * private ones of libclc and half.ll (address space 0, generic PTX addressing), the generic
 * atomics of c11_atomics.ll and generic.ll's to_global... (src/compiler/README.md). */
#define CVC_WG_COLLECTIVES "__opencl_c_work_group_collective_functions"
#define CVC_EXTENSIONS                                                                             \
    "-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_subgroups,"         \
    "+__opencl_c_subgroups,+cl_khr_fp16,+__opencl_c_fp16,"                                         \
    "+__opencl_c_program_scope_global_variables,+__opencl_c_atomic_order_acq_rel,"                 \
    "+__opencl_c_atomic_order_seq_cst,+__opencl_c_generic_address_space,+" CVC_WG_COLLECTIVES

/* Image support (cvc_target.images; builtins/images.ll): the OpenCL C 3.0 image features, 3D
 * image writes and depth images (clang 16 declares the depth images' builtins only with
 * cl_khr_depth_images). clang 16 does not define __IMAGE_SUPPORT__ itself. */
#define CVC_IMAGE_EXTENSIONS                                                                       \
    "-cl-ext=+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,"        \
    "+cl_khr_3d_image_writes,+cl_khr_depth_images"

/* OpenCL C 3.0 features and the cl_ext_float_atomics macros clang 16 knows only as macros (its
 * header defines them for SPIR alone, and its builtin declarations test the macros): the atomics
 * of builtins/c11_atomics.ll. Only for OpenCL C 2.0+ programs, where the atomic types exist. */
static const char *const cvc_atomics_macros[] = {
    "-D__opencl_c_atomic_scope_device=1",
    "-D__opencl_c_atomic_scope_all_devices=1",
    "-Dcl_ext_float_atomics=1",
    "-D__opencl_c_ext_fp32_global_atomic_add=1",
    "-D__opencl_c_ext_fp32_local_atomic_add=1",
    "-D__opencl_c_ext_fp32_global_atomic_min_max=1",
    "-D__opencl_c_ext_fp32_local_atomic_min_max=1",
    "-D__opencl_c_ext_fp64_global_atomic_add=1",
    "-D__opencl_c_ext_fp64_local_atomic_add=1",
    "-D__opencl_c_ext_fp64_global_atomic_min_max=1",
    "-D__opencl_c_ext_fp64_local_atomic_min_max=1",
};

/* The sub-group extensions (builtins/subgroup_ext.ll), as -D options of clang -cc1. */
static const char *const cvc_subgroup_ext_macros[] = {
    "-Dcl_khr_subgroup_extended_types=1",   "-Dcl_khr_subgroup_shuffle=1",
    "-Dcl_khr_subgroup_shuffle_relative=1", "-Dcl_khr_subgroup_ballot=1",
    "-Dcl_khr_subgroup_non_uniform_vote=1", "-Dcl_khr_subgroup_non_uniform_arithmetic=1",
    "-Dcl_khr_subgroup_clustered_reduce=1",
};

void cvc_output_free(cvc_output *out) {
    if (!out)
        return;
    free(out->data);
    free(out->log);
    out->data = NULL;
    out->log = NULL;
    out->size = 0;
}

/* argv under construction (strings owned elsewhere, or by `owned`), NULL-terminated, as long as
 * the build options make it. Large (the owned paths): made with cvc_argvs, never on the stack. */
typedef struct cvc_argv {
    char **v;
    size_t n, cap;
    bool overflow; /* out of memory (or of owned strings): the command is not run */
    char owned[16][4200];
    size_t num_owned;
} cvc_argv;

/* n empty command lines; NULL without memory. */
static cvc_argv *cvc_argvs(size_t n) {
    return calloc(n, sizeof(cvc_argv));
}

static void cvc_argvs_free(cvc_argv *a, size_t n) {
    for (size_t i = 0; a && i < n; i++)
        free(a[i].v);
    free(a);
}

static void cvc_arg(cvc_argv *a, const char *s) {
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v) {
            a->overflow = true;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

static void cvc_argf(cvc_argv *a, const char *fmt, const char *s, int i) {
    if (a->num_owned >= sizeof a->owned / sizeof a->owned[0]) {
        a->overflow = true;
        return;
    }
    char *buf = a->owned[a->num_owned++];
    if (s)
        snprintf(buf, sizeof a->owned[0], fmt, s);
    else
        snprintf(buf, sizeof a->owned[0], fmt, i);
    cvc_arg(a, buf);
}

/* sm_XY for the device; a GPU newer than this LLVM knows gets the newest sm LLVM has (PTX is
 * compiled forward by the driver's JIT), never an older one when LLVM has the exact one. */
static int cvc_sm(const cvc_target *t, const cvc_tools *tools) {
    int sm = t ? t->cc_major * 10 + t->cc_minor : 90;
    if (tools->sm_max && sm > tools->sm_max)
        sm = tools->sm_max;
    return sm;
}

static const char *cvc_std_name(int v) {
    switch (v) {
    case 100:
        return "CL1.0";
    case 110:
        return "CL1.1";
    case 300:
        return "CL3.0";
    default:
        return "CL1.2";
    }
}

static const char *cvc_opt_flag(const cvc_options *o) {
    return o->opt_level == 0   ? "-O0"
           : o->opt_level == 1 ? "-O1"
           : o->opt_level == 2 ? "-O2"
                               : "-O3";
}

/* The clang -cc1 command line shared by every step. */
static void cvc_clang_common(cvc_argv *a, const cvc_tools *tools, const cvc_options *o, int sm,
                             bool source) {
    cvc_arg(a, tools->clang);
    cvc_arg(a, "-cc1");
    /* clang's driver passes it too: the process ends, so nothing is freed one by one. */
    cvc_arg(a, "-disable-free");
    cvc_arg(a, "-discard-value-names");
    cvc_arg(a, "-triple");
    cvc_arg(a, "nvptx64-nvidia-nvcl");
    cvc_arg(a, "-target-cpu");
    cvc_argf(a, "sm_%d", NULL, sm);
    if (tools->ptx_max) {
        cvc_arg(a, "-target-feature");
        cvc_argf(a, "+ptx%d", NULL, tools->ptx_max);
    }
    if (source) {
        cvc_arg(a, "-x");
        cvc_arg(a, "cl");
        cvc_argf(a, "-cl-std=%s", cvc_std_name(o->cl_std), 0);
        cvc_arg(a, "-finclude-default-header");
        cvc_arg(a, "-fdeclare-opencl-builtins");
        cvc_arg(a, "-cl-kernel-arg-info");
        /* `asm volatile("lop3.b32 ...")`: NVIDIA's OpenCL takes inline PTX with the GNU
         * keyword, and programs written for it (hashcat) use it. */
        cvc_arg(a, "-fgnu-keywords");
        /* A plain `inline` function is, in C99, only an inline definition: when the optimizer
         * does not inline a call (large functions, -cl-opt-disable) nothing defines it.
         * pyopencl's complex header is written that way, as is code tuned on NVIDIA's OpenCL,
         * which emits the function: GNU inline semantics do the same. */
        cvc_arg(a, "-fgnu89-inline");
        cvc_arg(a, CVC_EXTENSIONS);
        if (o->images) {
            cvc_arg(a, CVC_IMAGE_EXTENSIONS);
            cvc_arg(a, "-D__IMAGE_SUPPORT__=1");
        }
        /* "__OPENCL_VERSION__ substitutes an integer reflecting the version number of the OpenCL
         * supported by the OpenCL device" (OpenCL C 3.0, 6.12): clang leaves it to the
         * implementation, and culvert's devices are OpenCL 3.0 whatever -cl-std says. */
        cvc_arg(a, "-D__OPENCL_VERSION__=300");
        /* The OpenCL C 3.0 feature macro of cl_khr_fp16, claimed in CL_DEVICE_OPENCL_C_FEATURES:
         * clang 16 does not know it (its -cl-ext ignores it; later clangs define it too). */
        if (o->cl_std >= 300)
            cvc_arg(a, "-D__opencl_c_fp16=1");
        for (size_t i = 0;
             o->cl_std >= 200 && i < sizeof cvc_atomics_macros / sizeof *cvc_atomics_macros; i++)
            cvc_arg(a, cvc_atomics_macros[i]);
        /* clang 16 declares the sub-group extensions' functions when their macros are defined
         * (it defines them itself for SPIR only); like cl_khr_subgroups, OpenCL C 2.0+. */
        if (o->cl_std >= 200)
            for (size_t i = 0; i < sizeof cvc_subgroup_ext_macros / sizeof *cvc_subgroup_ext_macros;
                 i++)
                cvc_arg(a, cvc_subgroup_ext_macros[i]);
        /* clang 16 knows no such -cl-ext feature (its headers define the macro for SPIR only)
         * and declares the work-group functions only where the macro is defined; their
         * definitions are builtins/workgroup.ll. A feature macro: OpenCL C 3.0 only. */
        if (o->cl_std >= 300)
            cvc_arg(a, "-D" CVC_WG_COLLECTIVES "=1");
        /* With the generic address space clang declares only the builtins' generic overloads;
         * this (internal) macro of its headers brings back the __global/__local/__private ones,
         * which overload resolution prefers for named pointers: their atomics stay inline PTX
         * on .global/.shared (which LLVM cannot infer into inline assembly), and the programs
         * that use no generic pointer build as they did before the feature. */
        if (o->cl_std >= 200)
            cvc_arg(a, "-D__opencl_c_named_address_space_builtins=1");
    } else {
        cvc_arg(a, "-x");
        cvc_arg(a, "ir");
    }
    cvc_arg(a, cvc_opt_flag(o));
    for (size_t i = 0; i < o->num_clang_args; i++)
        cvc_arg(a, o->clang_args[i]);
}

/* The end of a clang -cc1 command: the dependency file (the files #included, for the cache),
 * what to emit, where, from what. */
static void cvc_clang_tail(cvc_argv *a, const char *depfile, const char *emit, const char *output,
                           const char *input) {
    if (depfile) {
        cvc_arg(a, "-dependency-file");
        cvc_arg(a, depfile);
        cvc_arg(a, "-MT");
        cvc_arg(a, "program");
    }
    cvc_arg(a, emit);
    cvc_arg(a, "-o");
    cvc_arg(a, output);
    cvc_arg(a, input);
}

static int cvc_run_args(const cvc_argv *a, cvc_buf *log) {
    if (a->overflow) {
        cvc_buf_str(log, "culvert: out of host memory for a command line\n");
        return -1;
    }
    return cvc_run((char *const *)a->v, log);
}

static cl_int cvc_out_of_memory(cvc_buf *log) {
    return log->failed ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
}

/* Appends the plan's libraries to a command line. */
static void cvc_libs_args(cvc_argv *a, const cvc_link_plan *plan) {
    for (size_t i = 0; i < plan->count; i++)
        cvc_arg(a, plan->list[i]);
}

/* "dir/name", owned by the command line but not appended to it. */
static const char *cvc_path_arg(cvc_argv *a, const char *dir, const char *name) {
    if (a->num_owned >= sizeof a->owned / sizeof a->owned[0]) {
        a->overflow = true;
        return "";
    }
    char *buf = a->owned[a->num_owned++];
    snprintf(buf, sizeof a->owned[0], "%s/%s", dir, name);
    return buf;
}

/* llc: IR on stdin -> PTX in dir/program.ptx. */
static void cvc_llc_argv(cvc_argv *l, const char *dir, const cvc_options *o, int sm,
                         const cvc_tools *tools) {
    cvc_arg(l, tools->llc);
    cvc_arg(l, cvc_opt_flag(o));
    cvc_argf(l, "-mcpu=sm_%d", NULL, sm);
    if (tools->ptx_max)
        cvc_argf(l, "-mattr=+ptx%d", NULL, tools->ptx_max);
    cvc_arg(l, "-o");
    cvc_arg(l, cvc_path_arg(l, dir, "program.ptx"));
}

/* clang for a source build: the source on stdin, the libraries as dir/lib0.bc ... (as many as a
 * plan can have; the empty module where a plan has fewer), optimized IR in dir/program.ll, the
 * files it #included in dir/program.d. Every path is under dir, so the command line is the same
 * for every build with these options: what lets a stage be started before its build
 * (cvc_spare.c). clang reads stdin before it opens the libraries. */
static void cvc_source_argv(cvc_argv *a, const char *dir, const cvc_options *o, int sm,
                            const cvc_tools *tools) {
    cvc_clang_common(a, tools, o, sm, true);
    cvc_arg(a, "-Wno-linker-warnings");
    for (size_t i = 0; i < CVC_LIB_COUNT; i++) {
        char name[32];
        snprintf(name, sizeof name, "lib%zu.bc", i);
        cvc_arg(a, "-mlink-builtin-bitcode");
        cvc_arg(a, cvc_path_arg(a, dir, name));
    }
    const char *depfile = cvc_path_arg(a, dir, "program.d");
    cvc_clang_tail(a, depfile, "-emit-llvm", cvc_path_arg(a, dir, "program.ll"), "-");
}

/* What identifies a stage: both command lines, without the directory, and the working directory
 * it was started in (relative -I paths and quoted includes of the source are found from there). */
static cvc_hash cvc_stage_sig(const cvc_options *o, int sm, const cvc_tools *tools) {
    cvc_hasher h;
    cvc_hash_init(&h);
    char cwd[PATH_MAX];
    cvc_hash_str(&h, getcwd(cwd, sizeof cwd) ? cwd : NULL);
    cvc_argv *a = cvc_argvs(2);
    if (a) {
        cvc_source_argv(&a[0], "", o, sm, tools);
        cvc_llc_argv(&a[1], "", o, sm, tools);
        for (size_t k = 0; k < 2; k++)
            for (size_t i = 0; i < a[k].n; i++)
                cvc_hash_str(&h, a[k].v[i]);
    }
    cvc_argvs_free(a, 2);
    return cvc_hash_final(&h);
}

static const char cvc_no_tmp[] = "culvert: cannot write to the temporary directory\n";

/* The stage's library place i (dir/libI.bc) made the empty module again: a hard link to its
 * dir/empty.bc (a directory entry, no new file), or a copy where links cannot be made. */
static bool cvc_stage_empty_place(cvc_stage *s, size_t i) {
    char place[4200], empty[4200], name[32];
    snprintf(name, sizeof name, "lib%zu.bc", i);
    cvc_tmp_path(&s->dir, name, place);
    cvc_tmp_path(&s->dir, "empty.bc", empty);
    unlink(place);
    return link(empty, place) == 0 || cvc_write_file(place, cvc_empty_bc, cvc_empty_bc_size);
}

/* A stage's llc and clang, started in a new directory (log: NULL or where failures are told). */
static bool cvc_stage_start(cvc_stage *s, const cvc_options *o, int sm, const cvc_tools *tools,
                            cvc_buf *log) {
    memset(s, 0, sizeof *s);
    /* Their servers start together, the first time (cvc_server.c). */
    const char *const tools_used[] = {tools->llc, tools->clang};
    cvc_servers_prepare(tools_used, 2);
    cvc_buf ignored = {0};
    cvc_buf *say = log ? log : &ignored;
    cvc_argv *a = cvc_argvs(2);
    bool ok = a && cvc_tmp_create(&s->dir);
    if (!ok)
        cvc_buf_str(say, "culvert: cannot create a temporary directory\n");
    /* Every library place holds the empty module until a build links a library there: written
     * now, ahead of the build, once (the places are links to it). */
    char empty[4200];
    cvc_tmp_path(&s->dir, "empty.bc", empty);
    ok = ok && cvc_write_file(empty, cvc_empty_bc, cvc_empty_bc_size);
    for (size_t i = 0; ok && i < CVC_LIB_COUNT; i++)
        ok = cvc_stage_empty_place(s, i);
    if (!ok && s->dir.dir[0])
        cvc_buf_str(say, cvc_no_tmp);
    if (ok) {
        cvc_source_argv(&a[0], s->dir.dir, o, sm, tools);
        cvc_llc_argv(&a[1], s->dir.dir, o, sm, tools);
        ok = !a[0].overflow && !a[1].overflow;
        if (!ok)
            cvc_buf_str(say, "culvert: out of host memory for a command line\n");
    }
    /* llc only where code generators do not work (cvc_codegen.c): one runs llc's step without a
     * run of its own. */
    ok = ok && (cvc_codegen_works() || cvc_child_start(a[1].v, true, &s->llc, say)) &&
         cvc_child_start(a[0].v, true, &s->clang, say);
    cvc_argvs_free(a, 2);
    free(ignored.data);
    if (!ok)
        cvc_stage_stop(s);
    return ok;
}

/* The stage's clang: the plan's libraries become its dir/libN.bc, the source goes to its stdin;
 * the optimized IR, or NULL (the log says why). A stage whose clang has run (the first try of a
 * partial plan) gets a new one. */
static char *cvc_stage_clang(cvc_stage *s, const cvc_link_plan *plan, const char *text, size_t len,
                             const cvc_options *o, int sm, const cvc_tools *tools, cvc_buf *log) {
    /* Places past the plan's hold the empty module (written at the stage's start; again where an
     * earlier try linked more). */
    bool ok = true;
    size_t places = plan->count > s->linked ? plan->count : s->linked;
    for (size_t i = 0; ok && i < places; i++) {
        char link[4200], real[PATH_MAX], name[32];
        if (i >= plan->count) {
            ok = cvc_stage_empty_place(s, i);
            continue;
        }
        snprintf(name, sizeof name, "lib%zu.bc", i);
        cvc_tmp_path(&s->dir, name, link);
        unlink(link);
        /* A relative cache directory ($CULVERT_CACHE_DIR=cache) is relative to our cwd. */
        const char *target = plan->list[i];
        if (target[0] != '/' && realpath(target, real))
            target = real;
        ok = symlink(target, link) == 0;
    }
    s->linked = plan->count;
    if (!ok) {
        cvc_buf_str(log, cvc_no_tmp);
        return NULL;
    }
    if (!cvc_child_started(&s->clang)) {
        cvc_argv *a = cvc_argvs(1);
        if (a)
            cvc_source_argv(a, s->dir.dir, o, sm, tools);
        ok = a && !a->overflow && cvc_child_start(a->v, true, &s->clang, log);
        cvc_argvs_free(a, 1);
        if (!ok)
            return NULL;
    }
    char ll_path[4200];
    size_t ll_len = 0;
    cvc_tmp_path(&s->dir, "program.ll", ll_path);
    unlink(ll_path);
    return cvc_child_finish(&s->clang, text, len, log) == 0
               ? (char *)cvc_read_file(ll_path, &ll_len)
               : NULL;
}

/* The fixed-up IR -> PTX (malloc'ed): a code generator's (cvc_codegen.c), else llc's — the one
 * started earlier (waiting for the IR on stdin) or one started now —, which writes
 * dir/program.ptx. NULL when llc failed (its words are in the log). */
static char *cvc_llc(const char *ll, cvc_child *llc, const char *dir, const cvc_options *o, int sm,
                     const cvc_tools *tools, cvc_buf *log) {
    size_t len = 0;
    char *ptx = cvc_codegen(tools->llc, ll, strlen(ll), sm, tools->ptx_max, o->opt_level, &len);
    if (ptx) {
        cvc_child_cancel(llc);
        return ptx;
    }
    if (!cvc_child_started(llc)) {
        cvc_argv *a = cvc_argvs(1);
        if (a)
            cvc_llc_argv(a, dir, o, sm, tools);
        bool started = a && !a->overflow && cvc_child_start(a->v, true, llc, log);
        cvc_argvs_free(a, 1);
        if (!started)
            return NULL;
    }
    char ptx_path[4200];
    snprintf(ptx_path, sizeof ptx_path, "%s/program.ptx", dir);
    return cvc_child_finish(llc, ll, strlen(ll), log) == 0 ? (char *)cvc_read_file(ptx_path, &len)
                                                           : NULL;
}

/* Optimized IR (taken over) -> finished PTX in out->data: printf lowered, fix-ups, PTX
 * (cvc_llc; llc's files in dir), the //cv: metadata. */
static cl_int cvc_ir_to_ptx(char *ll, cvc_child *llc, const char *dir, const cvc_options *o, int sm,
                            const cvc_tools *tools, cvc_buf *log, cvc_output *out) {
    cl_int err = CL_SUCCESS;
    bool printf_failed = false;
    char *lowered = cvc_lower_printf(ll, log, &printf_failed);
    if (lowered) {
        free(ll);
        ll = lowered;
    }
    /* IR rewrites before llc (cvc_internal.h): kernels called as functions, address-space
     * casts NVPTX cannot select or gets wrong, multiply-adds LLVM factored. */
    char *(*const rewrites[])(const char *) = {cvc_ir_kernel_calls, cvc_ir_fix_casts,
                                               cvc_ir_split_casts, cvc_ir_mads};
    for (size_t i = 0; i < sizeof rewrites / sizeof rewrites[0]; i++) {
        char *done = rewrites[i](ll);
        if (done) {
            free(ll);
            ll = done;
        }
    }
    if (printf_failed)
        err = CL_BUILD_PROGRAM_FAILURE;
    else if (cvc_undefined_functions(ll, log) > 0)
        err = CL_BUILD_PROGRAM_FAILURE;
    cvc_ir_fixups(ll);
    char *meta = err == CL_SUCCESS ? cvc_kernel_metadata(ll) : NULL;
    if (err == CL_SUCCESS && !meta)
        err = CL_OUT_OF_HOST_MEMORY;
    char *ptx = NULL;
    if (err == CL_SUCCESS) {
        ptx = cvc_llc(ll, llc, dir, o, sm, tools, log);
        if (!ptx)
            err = CL_BUILD_PROGRAM_FAILURE;
    } else {
        cvc_child_cancel(llc);
    }
    free(ll);
    if (err == CL_SUCCESS) {
        /* OpenCL C 1.x has uniform work-groups only (clLinkProgram's default is 1.2 too). */
        bool uniform = o->cl_std < 200 || o->uniform_work_groups;
        char *done = cvc_ptx_finish(ptx, meta, o->maxrregcount, uniform);
        if (!done)
            err = CL_OUT_OF_HOST_MEMORY;
        else {
            out->data = (unsigned char *)done;
            out->size = strlen(done);
        }
        if (done && o->verbose)
            cvc_buf_printf(log, "culvert: PTX for sm_%d (PTX ISA %d.%d), %zu bytes\n", sm,
                           tools->ptx_max / 10, tools->ptx_max % 10, out->size);
    }
    free(ptx);
    free(meta);
    return err;
}

static char *cvc_ir_names(const char *ir);
static cl_int cvc_codegen_ir(const cvc_tmp *tmp, const char *input, const char *names,
                             const cvc_options *o, const cvc_target *target, const cvc_tools *tools,
                             cvc_buf *log, cvc_output *out);

/* Whether a source may define functions its kernels never call, many of them: it includes a file
 * (a header of helpers, as pyopencl's complex numbers), or has an `inline` function not `static`
 * (GNU inline semantics emit it: cvc_ir_prune.c). Such a source builds in two steps. */
static bool cvc_source_prunes(const char *text, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '#') {
            size_t j = i + 1;
            while (j < len && (text[j] == ' ' || text[j] == '\t'))
                j++;
            if (len - j >= 7 && !memcmp(text + j, "include", 7))
                return true;
            continue;
        }
        bool word_start =
            i == 0 || !(text[i - 1] == '_' || (text[i - 1] >= 'a' && text[i - 1] <= 'z') ||
                        (text[i - 1] >= 'A' && text[i - 1] <= 'Z') ||
                        (text[i - 1] >= '0' && text[i - 1] <= '9'));
        if (!word_start || len - i < 6 || memcmp(text + i, "inline", 6) ||
            (len - i > 6 && cvc_ir_ident(text + i + 6) > 0))
            continue;
        /* The word before: `static inline` is internal already. */
        size_t j = i;
        while (j > 0 && (text[j - 1] == ' ' || text[j - 1] == '\t' || text[j - 1] == '\n'))
            j--;
        if (j < 6 || memcmp(text + j - 6, "static", 6))
            return true;
    }
    return false;
}

/* clBuildProgram in two steps, for a source cvc_source_prunes picks: clang's front end alone (no
 * pass, no library), its functions that no kernel reaches dropped and the others made internal
 * (cvc_ir_prune), then the link and optimization of clLinkProgram's path (cvc_codegen_ir). The
 * source comes on stdin, as in a stage: includes are found from the same places. */
static cl_int cvc_codegen_split(const char *text, size_t len, const cvc_options *o,
                                const cvc_target *target, const cvc_tools *tools, cvc_buf *log,
                                cvc_output *out, char **deps) {
    cvc_tmp tmp = {{0}};
    if (!cvc_tmp_create(&tmp)) {
        cvc_buf_str(log, "culvert: cannot create a temporary directory\n");
        return CL_BUILD_PROGRAM_FAILURE;
    }
    char front[4096], depfile[4096], ir[4096];
    cvc_tmp_path(&tmp, "front.ll", front);
    cvc_tmp_path(&tmp, "program.d", depfile);
    cvc_tmp_path(&tmp, "pruned.ll", ir);
    cl_int err = CL_BUILD_PROGRAM_FAILURE;
    cvc_argv *a = cvc_argvs(1);
    cvc_child clang = {0};
    char *ll = NULL;
    if (a) {
        cvc_clang_common(a, tools, o, cvc_sm(target, tools), true);
        cvc_arg(a, "-disable-llvm-passes");
        cvc_clang_tail(a, depfile, "-emit-llvm", front, "-");
        size_t ll_len = 0;
        if (!a->overflow && cvc_child_start(a->v, true, &clang, log) &&
            cvc_child_finish(&clang, text, len, log) == 0)
            ll = (char *)cvc_read_file(front, &ll_len);
    }
    cvc_argvs_free(a, 1);
    char *pruned = ll ? cvc_ir_prune(ll) : NULL;
    const char *use = pruned ? pruned : ll;
    char *names = use ? cvc_ir_names(use) : NULL;
    if (use && names && cvc_write_file(ir, use, strlen(use))) {
        *deps = cvc_deps_text(depfile, tmp.dir);
        err = cvc_codegen_ir(&tmp, ir, names, o, target, tools, log, out);
    } else if (ll) {
        cvc_buf_str(log, cvc_no_tmp);
    }
    free(names);
    free(pruned);
    free(ll);
    cvc_tmp_remove(&tmp);
    return err;
}

/* clBuildProgram: OpenCL C -> PTX through a stage, the one started ahead for these options when
 * it waits (and one is started for the next build). Only the part of the libraries the source
 * names, when that is known (cvc_link_plan.c); a call the scan missed: again, libraries whole.
 * *deps: the files the source #included, with their hashes (cvc_deps_text). */
static cl_int cvc_codegen_source(const char *text, size_t len, const char *options,
                                 const cvc_options *o, const cvc_target *target,
                                 const cvc_tools *tools, cvc_buf *log, cvc_output *out,
                                 char **deps) {
    if (cvc_source_prunes(text, len))
        return cvc_codegen_split(text, len, o, target, tools, log, out, deps);
    int sm = cvc_sm(target, tools);
    /* clang and llc first (started ahead, or now): their start-up overlaps the planning. */
    cvc_hash sig = cvc_stage_sig(o, sm, tools);
    cvc_stage st;
    bool staged = cvc_spare_take(sig, &st) || cvc_stage_start(&st, o, sm, tools, log);
    cvc_stage next;
    if (!cvc_spare_waiting(sig) && cvc_stage_start(&next, o, sm, tools, NULL))
        cvc_spare_keep(sig, &next);
    cvc_link_plan plan;
    char *ll = NULL;
    /* The plan's files (culvert's libraries written out, the part's list) go in the stage's
     * directory. */
    if (!staged)
        memset(&plan, 0, sizeof plan);
    else if (!cvc_link_plan_make(&plan, text, len, options, o, tools, &st.dir))
        cvc_buf_str(log, cvc_no_tmp);
    else {
        size_t log_mark = log->len;
        ll = cvc_stage_clang(&st, &plan, text, len, o, sm, tools, log);
        if (plan.partial && (!ll || cvc_undefined_functions(ll, NULL) > 0)) {
            /* The scan missed a call (or the part was unreadable): every library whole. */
            free(ll);
            cvc_buf_truncate(log, log_mark);
            ll = cvc_link_plan_missed(&plan)
                     ? cvc_stage_clang(&st, &plan, text, len, o, sm, tools, log)
                     : (cvc_buf_str(log, cvc_no_tmp), NULL);
        }
    }
    char depfile[4200];
    cvc_tmp_path(&st.dir, "program.d", depfile);
    if (ll)
        *deps = cvc_deps_text(depfile, st.dir.dir);
    cl_int err = ll ? cvc_ir_to_ptx(ll, &st.llc, st.dir.dir, o, sm, tools, log, out)
                    : CL_BUILD_PROGRAM_FAILURE;
    /* The part extracted for later builds (a new set of names) was made beside clang and llc:
     * waited for only now. */
    cvc_link_plan_end(&plan);
    cvc_stage_stop(&st);
    return err;
}

/* The OpenCL C names an NVPTX module calls, as the link plan's scan reads a source: the base
 * name of each mangled callee (@_Z13get_global_idj: get_global_id), other callees as they are,
 * and `half` where a mangled name takes one (Dh: culvert's half builtins). NULL when out of
 * memory. */
static char *cvc_ir_names(const char *ir) {
    cvc_buf b = {0};
    for (const char *p = strchr(ir, '@'); p; p = strchr(p + 1, '@')) {
        const char *q = p + 1;
        if (q[0] == '_' && q[1] == 'Z' && q[2] >= '0' && q[2] <= '9') {
            char *end;
            unsigned long n = strtoul(q + 2, &end, 10);
            size_t left = strcspn(end, " (),\n");
            if (n <= left) {
                cvc_buf_add(&b, end, n);
                cvc_buf_str(&b, memmem(end + n, left - n, "Dh", 2) ? " half\n" : "\n");
            }
        } else {
            size_t n = strcspn(q, " (),\n");
            cvc_buf_add(&b, q, n);
            cvc_buf_str(&b, "\n");
        }
    }
    if (b.failed)
        free(b.data);
    return b.failed ? NULL : b.data ? b.data : strdup("");
}

/* llvm-link of input with the plan's libraries, then clang's optimization: the module's text. */
static char *cvc_link_opt(const cvc_tmp *tmp, const char *input, const cvc_link_plan *plan,
                          const cvc_options *o, int sm, const cvc_tools *tools, cvc_buf *log) {
    char ll_path[4096], full[4096];
    cvc_tmp_path(tmp, "program.ll", ll_path);
    cvc_tmp_path(tmp, "program-full.bc", full);
    cvc_argv *a = cvc_argvs(2);
    char *ll = NULL;
    size_t ll_len = 0;
    if (!a)
        return NULL;
    /* clang links libraries only into source input: llvm-link does it for IR. */
    cvc_arg(&a[0], tools->llvm_link);
    cvc_arg(&a[0], input);
    cvc_arg(&a[0], "--only-needed");
    cvc_arg(&a[0], "--internalize");
    cvc_arg(&a[0], "--suppress-warnings");
    cvc_libs_args(&a[0], plan);
    cvc_arg(&a[0], "-o");
    cvc_arg(&a[0], full);
    cvc_clang_common(&a[1], tools, o, sm, false);
    cvc_clang_tail(&a[1], NULL, "-emit-llvm", ll_path, full);
    if (cvc_run_args(&a[0], log) == 0 && cvc_run_args(&a[1], log) == 0)
        ll = (char *)cvc_read_file(ll_path, &ll_len);
    cvc_argvs_free(a, 2);
    return ll;
}

/* IR -> PTX: clLinkProgram's linked objects (names NULL: every library linked whole), or a
 * SPIR-V build's module, whose callees (names: cvc_ir_names) pick the part of the libraries to
 * link, as a source build's names do (a callee the part lacks: again, libraries whole). */
static cl_int cvc_codegen_ir(const cvc_tmp *tmp, const char *input, const char *names,
                             const cvc_options *o, const cvc_target *target, const cvc_tools *tools,
                             cvc_buf *log, cvc_output *out) {
    int sm = cvc_sm(target, tools);
    /* llc (where code generators do not work) starts now: its start-up overlaps llvm-link's and
     * clang's work. */
    cvc_argv *a = cvc_argvs(1);
    cvc_child llc = {0};
    if (!a)
        return CL_OUT_OF_HOST_MEMORY;
    cvc_llc_argv(&a[0], tmp->dir, o, sm, tools);
    if (!cvc_codegen_works() && (a[0].overflow || !cvc_child_start(a[0].v, true, &llc, log))) {
        cvc_argvs_free(a, 1);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    cvc_argvs_free(a, 1);
    cvc_link_plan plan;
    char *ll = NULL;
    if (!cvc_link_plan_make(&plan, names, names ? strlen(names) : 0, NULL, o, tools, tmp))
        cvc_buf_str(log, cvc_no_tmp);
    else {
        size_t log_mark = log->len;
        ll = cvc_link_opt(tmp, input, &plan, o, sm, tools, log);
        if (plan.partial && (!ll || cvc_undefined_functions(ll, NULL) > 0)) {
            /* The names missed a callee (or the part was unreadable): every library whole. */
            free(ll);
            cvc_buf_truncate(log, log_mark);
            ll = cvc_link_plan_missed(&plan) ? cvc_link_opt(tmp, input, &plan, o, sm, tools, log)
                                             : (cvc_buf_str(log, cvc_no_tmp), NULL);
        }
    }
    cvc_link_plan_end(&plan);
    if (!ll) {
        cvc_child_cancel(&llc);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return cvc_ir_to_ptx(ll, &llc, tmp->dir, o, sm, tools, log, out);
}

/* The key every step shares: culvert's compiler version, the tools, the step, the options and
 * the target. */
static void cvc_key_common(cvc_hasher *h, const char *step, const cvc_tools *tools,
                           const char *options, const cvc_target *target) {
    cvc_hash_init(h);
    cvc_hash_str(h, CVC_VERSION);
    cvc_hash blobs = cvc_blobs_hash();
    cvc_hash_bytes(h, &blobs, sizeof blobs);
    cvc_hash_str(h, tools->ident);
    cvc_hash_str(h, step);
    cvc_hash_str(h, options ? options : "");
    int cc[2] = {target ? target->cc_major : 9, target ? target->cc_minor : 0};
    cvc_hash_bytes(h, cc, sizeof cc);
    /* Image targets build with other flags and libraries (the keys of others stay as they were). */
    if (target && target->images)
        cvc_hash_str(h, "images");
}

/* Common ending: the log handed over, the output cached on success. */
static cl_int cvc_finish(cl_int err, cvc_buf *log, bool cache, cvc_hash key, cvc_output *out,
                         const char *deps) {
    if (err == CL_SUCCESS && log->failed)
        err = CL_OUT_OF_HOST_MEMORY;
    out->log = cvc_buf_take(log);
    if (!out->log && err == CL_SUCCESS)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        free(out->data);
        out->data = NULL;
        out->size = 0;
    } else if (cache) {
        cvc_cache_store(key, out, deps);
    }
    return err;
}

/* Parses options and finds the tools: what every entry point does first. */
static cl_int cvc_begin(const char *options, cvc_mode mode, const cvc_target *target,
                        cvc_options *o, const cvc_tools **tools, cvc_buf *log, cvc_output *out) {
    memset(out, 0, sizeof *out);
    cl_int err = cvc_options_parse(options, mode, o, log);
    o->images = target && target->images;
    *tools = cvc_get_tools();
    if (err == CL_SUCCESS && !(*tools)->found) {
        cvc_buf_str(log, (*tools)->why);
        cvc_options_free(o);
        err = CL_COMPILER_NOT_AVAILABLE;
    }
    return err;
}

/* The source as clang takes it: NULL is empty, and the terminating 0 of a source passed with it
 * (or of several strings joined with theirs at the end) would make clang warn about null
 * characters. */
static void cvc_source(const char **source, size_t *len) {
    if (!*source) {
        *source = "";
        *len = 0;
    }
    while (*len > 0 && (*source)[*len - 1] == 0)
        (*len)--;
}

/* A cached result for key: out holds it, and the step's options and log are dropped. */
static bool cvc_cache_hit(cvc_hash key, cvc_options *o, cvc_buf *log, cvc_output *out) {
    bool hit = cvc_cache_load(key, out);
    if (hit) {
        cvc_options_free(o);
        free(log->data);
    }
    return hit;
}

/* An embedded header's length: given, or up to its 0. */
static size_t cvc_header_len(const cvc_header *h) {
    return h->len ? h->len : (h->text ? strlen(h->text) : 0);
}

cl_int cvc_build(const char *source, size_t len, const char *options, const cvc_target *target,
                 cvc_output *out) {
    cvc_source(&source, &len);
    cvc_buf log = {0};
    cvc_options o;
    const cvc_tools *tools;
    cl_int err = cvc_begin(options, CVC_BUILD, target, &o, &tools, &log, out);
    if (err != CL_SUCCESS)
        return cvc_finish(err, &log, false, (cvc_hash){0, 0}, out, NULL);
    if (o.create_library) {
        cvc_buf_str(&log, "culvert: -create-library is a clLinkProgram option\n");
        cvc_options_free(&o);
        return cvc_finish(CL_INVALID_BUILD_OPTIONS, &log, false, (cvc_hash){0, 0}, out, NULL);
    }
    cvc_hasher h;
    cvc_key_common(&h, "build", tools, options, target);
    cvc_hash_bytes(&h, source, len);
    cvc_hash key = cvc_hash_final(&h);
    if (cvc_cache_hit(key, &o, &log, out))
        return CL_SUCCESS;
    /* Threads building this source at once: the first builds, the others take its result. */
    char dir[4096];
    bool caching = cvc_cache_dir(dir, sizeof dir), claimed = caching && cvc_flight_begin(key);
    /* Claimed or waited for, the result may be there by now (stored since the first look). */
    if (caching && cvc_cache_hit(key, &o, &log, out)) {
        if (claimed)
            cvc_flight_end(key);
        return CL_SUCCESS;
    }
    tools = cvc_get_probed_tools();
    char *deps = NULL;
    /* A tool server that stopped during the build (killed, out of memory) can leave a step
     * without its output: the build is done again, once, on a server started anew. */
    size_t log_mark = log.len;
    for (int attempt = 0; attempt < 2; attempt++) {
        unsigned long lost = cvc_children_lost();
        err = cvc_codegen_source(source, len, options, &o, target, tools, &log, out, &deps);
        if (err != CL_BUILD_PROGRAM_FAILURE || cvc_children_lost() == lost)
            break;
        cvc_buf_truncate(&log, log_mark);
        free(deps);
        deps = NULL;
    }
    cvc_options_free(&o);
    if (err == CL_SUCCESS)
        err = cvc_out_of_memory(&log);
    /* Included files that cannot be read back: the result is not cached. */
    err = cvc_finish(err, &log, deps != NULL, key, out, deps);
    free(deps);
    if (claimed)
        cvc_flight_end(key);
    return err;
}

/* Embedded headers are written under dir/ with their include names (which may have folders);
 * names that would leave the directory are refused. */
static bool cvc_write_headers(const cvc_tmp *tmp, const cvc_header *headers, size_t n,
                              cvc_buf *log) {
    for (size_t i = 0; i < n; i++) {
        const char *name = headers[i].name;
        if (!name || !*name || name[0] == '/' || strstr(name, "..")) {
            cvc_buf_printf(log, "culvert: unusable header name '%s'\n", name ? name : "(null)");
            return false;
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/inc/%s", tmp->dir, name);
        for (char *p = path + strlen(tmp->dir) + 1; *p; p++)
            if (*p == '/') {
                *p = 0;
                mkdir(path, 0700);
                *p = '/';
            }
        size_t len = cvc_header_len(&headers[i]);
        if (!cvc_write_file(path, headers[i].text ? headers[i].text : "", len)) {
            cvc_buf_printf(log, "culvert: cannot write header '%s'\n", name);
            return false;
        }
    }
    return true;
}

cl_int cvc_compile(const char *source, size_t len, const char *options, const cvc_header *headers,
                   size_t num_headers, const cvc_target *target, cvc_output *out) {
    cvc_source(&source, &len);
    cvc_buf log = {0};
    cvc_options o;
    const cvc_tools *tools;
    cl_int err = cvc_begin(options, CVC_COMPILE, target, &o, &tools, &log, out);
    if (err != CL_SUCCESS)
        return cvc_finish(err, &log, false, (cvc_hash){0, 0}, out, NULL);
    cvc_hasher h;
    cvc_key_common(&h, "compile", tools, options, target);
    for (size_t i = 0; i < num_headers; i++) {
        size_t hl = cvc_header_len(&headers[i]);
        cvc_hash_str(&h, headers[i].name);
        cvc_hash_bytes(&h, &hl, sizeof hl);
        cvc_hash_bytes(&h, headers[i].text ? headers[i].text : "", hl);
    }
    cvc_hash_bytes(&h, source, len);
    cvc_hash key = cvc_hash_final(&h);
    if (cvc_cache_hit(key, &o, &log, out))
        return CL_SUCCESS;
    tools = cvc_get_probed_tools();
    cvc_tmp tmp = {{0}};
    char src[4096], obj[4096], inc[4200], depfile[4096];
    char *deps = NULL;
    err = CL_COMPILE_PROGRAM_FAILURE;
    if (!cvc_tmp_create(&tmp))
        cvc_buf_str(&log, "culvert: cannot create a temporary directory\n");
    else {
        cvc_tmp_path(&tmp, "program.cl", src);
        cvc_tmp_path(&tmp, "program.bc", obj);
        snprintf(inc, sizeof inc, "%s/inc", tmp.dir);
        mkdir(inc, 0700);
        if (cvc_write_file(src, source, len) &&
            cvc_write_headers(&tmp, headers, num_headers, &log)) {
            cvc_argv *a = cvc_argvs(1);
            if (a) {
                cvc_clang_common(a, tools, &o, cvc_sm(target, tools), true);
                cvc_arg(a, "-I");
                cvc_arg(a, inc);
                cvc_tmp_path(&tmp, "program.d", depfile);
                cvc_clang_tail(a, depfile, "-emit-llvm-bc", obj, src);
            }
            if (a && cvc_run_args(a, &log) == 0) {
                out->data = cvc_read_file(obj, &out->size);
                if (out->data)
                    err = CL_SUCCESS;
                deps = cvc_deps_text(depfile, tmp.dir);
            }
            cvc_argvs_free(a, 1);
        }
    }
    cvc_tmp_remove(&tmp);
    cvc_options_free(&o);
    err = cvc_finish(err, &log, deps != NULL, key, out, deps);
    free(deps);
    return err;
}

/* SPIR-V -> LLVM IR (llvm-spirv, as OpenCL C 2.0 builtin calls, specialized) -> NVPTX IR
 * (cvc_ir_from_spir), written to obj (in tmp): bitcode for an object (clCompileProgram), the text
 * for a build, whose next step (llvm-link, clLinkProgram's) reads it as it is (one process less
 * of a cold build); *names: the names it calls, for a build's library part (cvc_ir_names). */
static cl_int cvc_il_to_object(const cvc_tmp *tmp, const unsigned char *il, size_t len,
                               const char *spec, const cvc_tools *tools, bool text_ok, cvc_buf *log,
                               char obj[4096], char **names) {
    char spv[4096], spir[4096], ll[4096], spec_arg[4200];
    cvc_tmp_path(tmp, "program.spv", spv);
    cvc_tmp_path(tmp, "spir.bc", spir);
    cvc_tmp_path(tmp, "spir.ll", ll);
    cvc_tmp_path(tmp, "program.bc", obj);
    cvc_argv *a = cvc_argvs(3);
    if (!a)
        return CL_OUT_OF_HOST_MEMORY;
    cvc_arg(&a[0], cvc_llvm_spirv());
    cvc_arg(&a[0], "-r");
    cvc_arg(&a[0], "--spirv-target-env=CL2.0");
    if (spec && *spec) {
        snprintf(spec_arg, sizeof spec_arg, "--spec-const=%s", spec);
        cvc_arg(&a[0], spec_arg);
    }
    cvc_arg(&a[0], spv);
    cvc_arg(&a[0], "-o");
    cvc_arg(&a[0], spir);
    /* clang disassembles it for NVPTX (the triple and data layout replaced). */
    cvc_arg(&a[1], tools->clang);
    cvc_arg(&a[1], "--target=nvptx64-nvidia-nvcl");
    cvc_arg(&a[1], "-Wno-override-module");
    cvc_arg(&a[1], "-Wno-unknown-cuda-version");
    cvc_arg(&a[1], "-x");
    cvc_arg(&a[1], "ir");
    cvc_arg(&a[1], "-S");
    cvc_arg(&a[1], "-emit-llvm");
    cvc_arg(&a[1], "-O0");
    cvc_arg(&a[1], spir);
    cvc_arg(&a[1], "-o");
    cvc_arg(&a[1], ll);
    cl_int err = CL_COMPILE_PROGRAM_FAILURE;
    char *text = NULL, *nvptx = NULL;
    size_t text_len = 0;
    if (cvc_write_file(spv, il, len) && cvc_run_args(&a[0], log) == 0 &&
        cvc_run_args(&a[1], log) == 0)
        text = (char *)cvc_read_file(ll, &text_len);
    if (text) {
        nvptx = cvc_ir_from_spir(text);
        err = nvptx ? CL_COMPILE_PROGRAM_FAILURE : CL_OUT_OF_HOST_MEMORY;
    }
    /* llvm-link reads the text and writes bitcode (an object's); a build takes the text. */
    if (nvptx && cvc_write_file(ll, nvptx, strlen(nvptx))) {
        cvc_arg(&a[2], tools->llvm_link);
        cvc_arg(&a[2], ll);
        cvc_arg(&a[2], "-o");
        cvc_arg(&a[2], obj);
        if (text_ok) {
            snprintf(obj, 4096, "%s", ll);
            *names = cvc_ir_names(nvptx);
        }
        if (text_ok)
            err = *names ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        else if (cvc_run_args(&a[2], log) == 0)
            err = CL_SUCCESS;
    }
    free(text);
    free(nvptx);
    cvc_argvs_free(a, 3);
    return err;
}

/* clCompileProgram (an object) or clBuildProgram (PTX) of SPIR-V. */
static cl_int cvc_il_step(const unsigned char *il, size_t len, const char *options,
                          const char *spec, const cvc_target *target, bool build, cvc_output *out) {
    cvc_buf log = {0};
    cvc_options o;
    const cvc_tools *tools;
    cl_int err = cvc_begin(options, build ? CVC_BUILD : CVC_COMPILE, target, &o, &tools, &log, out);
    if (err != CL_SUCCESS)
        return cvc_finish(err, &log, false, (cvc_hash){0, 0}, out, NULL);
    if (!cvc_llvm_spirv()) {
        cvc_buf_str(&log, "culvert: SPIR-V compiler not available: no llvm-spirv (set "
                          "CULVERT_LLVM_SPIRV)\n");
        cvc_options_free(&o);
        return cvc_finish(CL_COMPILER_NOT_AVAILABLE, &log, false, (cvc_hash){0, 0}, out, NULL);
    }
    cvc_hasher h;
    cvc_key_common(&h, build ? "build-il" : "compile-il", tools, options, target);
    cvc_hash_str(&h, cvc_llvm_spirv());
    cvc_hash_str(&h, spec ? spec : "");
    cvc_hash_bytes(&h, il, len);
    cvc_hash key = cvc_hash_final(&h);
    if (cvc_cache_hit(key, &o, &log, out))
        return CL_SUCCESS;
    tools = cvc_get_probed_tools();
    /* The servers of its steps start together, the first time (cvc_server.c): the translator,
     * clang's disassembly, the library part's and the code generator's. */
    const char *const tools_used[] = {cvc_llvm_spirv(), tools->clang, tools->llvm_link, tools->llc,
                                      tools->llvm_nm};
    cvc_servers_prepare(tools_used, tools->llvm_nm[0] ? 5 : 4);
    cvc_tmp tmp = {{0}};
    char obj[4096], *names = NULL;
    err = CL_COMPILE_PROGRAM_FAILURE;
    if (!cvc_tmp_create(&tmp))
        cvc_buf_str(&log, "culvert: cannot create a temporary directory\n");
    else
        err = cvc_il_to_object(&tmp, il, len, spec, tools, build, &log, obj, &names);
    if (err == CL_SUCCESS) {
        if (build) {
            /* IL follows OpenCL 3.0's rules: non-uniform work-groups unless
             * -cl-uniform-work-group-size (-cl-std is OpenCL C's). */
            o.cl_std = 300;
            err = cvc_codegen_ir(&tmp, obj, names, &o, target, tools, &log, out);
        } else {
            out->data = cvc_read_file(obj, &out->size);
            err = out->data ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        }
    }
    free(names);
    cvc_tmp_remove(&tmp);
    cvc_options_free(&o);
    if (build && err == CL_COMPILE_PROGRAM_FAILURE)
        err = CL_BUILD_PROGRAM_FAILURE;
    return cvc_finish(err, &log, true, key, out, NULL);
}

cl_int cvc_compile_il(const unsigned char *il, size_t len, const char *options, const char *spec,
                      const cvc_target *target, cvc_output *out) {
    return cvc_il_step(il, len, options, spec, target, false, out);
}

cl_int cvc_build_il(const unsigned char *il, size_t len, const char *options, const char *spec,
                    const cvc_target *target, cvc_output *out) {
    return cvc_il_step(il, len, options, spec, target, true, out);
}

/* A library is its bitcode in LLVM's bitcode wrapper (which every LLVM tool reads): magic,
 * version 0, the bitcode's offset and size, and a CPU-type field, here "cvlb". A compiled object
 * is plain bitcode. So the binary says what it is when it comes back through
 * clCreateProgramWithBinary (CL_PROGRAM_BINARY_TYPE_LIBRARY or _COMPILED_OBJECT). */
#define CVC_WRAPPER_SIZE 20
static const unsigned char cvc_wrapper_magic[4] = {0xde, 0xc0, 0x17, 0x0b};
static const unsigned char cvc_library_tag[4] = {'c', 'v', 'l', 'b'};

bool cvc_is_library(const unsigned char *data, size_t size) {
    return data && size > CVC_WRAPPER_SIZE && !memcmp(data, cvc_wrapper_magic, 4) &&
           !memcmp(data + 16, cvc_library_tag, 4);
}

/* The library binary of bitcode (taken over), or NULL without memory. */
static unsigned char *cvc_wrap_library(unsigned char *bc, size_t *size) {
    unsigned char *w = bc && *size <= UINT32_MAX ? malloc(CVC_WRAPPER_SIZE + *size) : NULL;
    if (w) {
        uint32_t head[4] = {0, CVC_WRAPPER_SIZE, (uint32_t)*size, 0};
        memcpy(w, cvc_wrapper_magic, 4);
        for (int i = 0; i < 3; i++) /* little endian, as the wrapper is */
            for (int k = 0; k < 4; k++)
                w[4 + 4 * i + k] = (unsigned char)(head[i] >> (8 * k));
        memcpy(w + 16, cvc_library_tag, 4);
        memcpy(w + CVC_WRAPPER_SIZE, bc, *size);
        *size += CVC_WRAPPER_SIZE;
    }
    free(bc);
    return w;
}

static bool cvc_is_bitcode(const cvc_output *obj) {
    return obj && obj->data && obj->size >= 4 &&
           (!memcmp(obj->data, "BC\xc0\xde", 4) || cvc_is_library(obj->data, obj->size));
}

cl_int cvc_link(const cvc_output *const *objects, size_t num_objects, const char *options,
                const cvc_target *target, bool *is_library, cvc_output *out) {
    cvc_buf log = {0};
    cvc_options o;
    const cvc_tools *tools;
    if (is_library)
        *is_library = false;
    cl_int err = cvc_begin(options, CVC_LINK, target, &o, &tools, &log, out);
    if (err != CL_SUCCESS)
        return cvc_finish(err, &log, false, (cvc_hash){0, 0}, out, NULL);
    cvc_hasher h;
    cvc_key_common(&h, "link", tools, options, target);
    for (size_t i = 0; i < num_objects && err == CL_SUCCESS; i++) {
        if (!cvc_is_bitcode(objects[i])) {
            cvc_buf_printf(&log, "culvert: input %zu is not a compiled OpenCL C object\n", i);
            err = CL_LINK_PROGRAM_FAILURE;
        } else {
            cvc_hash_bytes(&h, &objects[i]->size, sizeof objects[i]->size);
            cvc_hash_bytes(&h, objects[i]->data, objects[i]->size);
        }
    }
    if (num_objects == 0) {
        cvc_buf_str(&log, "culvert: nothing to link\n");
        err = CL_LINK_PROGRAM_FAILURE;
    }
    cvc_hash key = cvc_hash_final(&h);
    bool library = o.create_library;
    if (err == CL_SUCCESS && cvc_cache_hit(key, &o, &log, out)) {
        if (is_library)
            *is_library = library;
        return CL_SUCCESS;
    }
    cvc_tmp tmp = {{0}};
    if (err == CL_SUCCESS) {
        tools = cvc_get_probed_tools();
        err = CL_LINK_PROGRAM_FAILURE;
        if (!cvc_tmp_create(&tmp))
            cvc_buf_str(&log, "culvert: cannot create a temporary directory\n");
        else {
            char linked[4096];
            cvc_tmp_path(&tmp, "linked.bc", linked);
            cvc_argv *a = cvc_argvs(1);
            bool written = a != NULL;
            char(*paths)[4200] = calloc(num_objects, sizeof *paths);
            if (a)
                cvc_arg(a, tools->llvm_link);
            for (size_t i = 0; paths && written && i < num_objects; i++) {
                snprintf(paths[i], sizeof paths[i], "%s/object%zu.bc", tmp.dir, i);
                written = cvc_write_file(paths[i], objects[i]->data, objects[i]->size);
                cvc_arg(a, paths[i]);
            }
            if (a) {
                cvc_arg(a, "-o");
                cvc_arg(a, linked);
            }
            if (paths && written && cvc_run_args(a, &log) == 0) {
                if (library) {
                    out->data = cvc_wrap_library(cvc_read_file(linked, &out->size), &out->size);
                    err = out->data ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
                } else {
                    err = cvc_codegen_ir(&tmp, linked, NULL, &o, target, tools, &log, out);
                    if (err == CL_BUILD_PROGRAM_FAILURE)
                        err = CL_LINK_PROGRAM_FAILURE;
                }
            }
            free(paths);
            cvc_argvs_free(a, 1);
        }
    }
    cvc_tmp_remove(&tmp);
    cvc_options_free(&o);
    if (err == CL_SUCCESS && is_library)
        *is_library = library;
    return cvc_finish(err, &log, true, key, out, NULL);
}
