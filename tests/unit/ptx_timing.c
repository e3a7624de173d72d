/* Kernel timing twins (src/core/ptx_timing.c) on text: every entry that can have one gets a twin
 * with the timing parameter, the prologue before its first statement and every ret and exit
 * turned into the branch to the epilogue; the entries themselves stay byte for byte as they were;
 * modules and entries that cannot have twins get none, and say why. The twins alone (a module of
 * their own) are the same twins without the entries. Every result must assemble: ptxas
 * -arch=sm_90 checks it. */
#include "test_util.h"

#include "core/ptx.h"
#include "core/ptx_timing.h"
#include "ptx_test_util.h"

#include <string.h>

/* The text of the kernel named name in text (from its parameter list to its closing brace),
 * malloc'ed; NULL when there is none. */
static char *entry_text(const char *text, const char *name) {
    cv_ptx_module m;
    REQUIRE(cv_ptx_parse(text, strlen(text), &m, NULL, 0) == CL_SUCCESS);
    const cv_ptx_kernel *k = cv_ptx_find(&m, name);
    char *out = NULL;
    if (k) {
        size_t n = k->body_close + 1 - k->params_open;
        out = malloc(n + 1);
        REQUIRE(out != NULL);
        memcpy(out, text + k->params_open, n);
        out[n] = '\0';
    }
    cv_ptx_free(&m);
    return out;
}

/* The twins alone of text: each twin of beside (text with the twins after their entries, parsed
 * as t) byte for byte, no entry of text, the rest of the module; and the result assembles. */
static void alone(const char *text, const char *beside, const cv_ptx_module *t,
                  const cv_ptx_timing_stats *st_beside, const char *tag) {
    size_t len = 0;
    cv_ptx_timing_stats st;
    char *out = cv_ptx_add_timing(text, strlen(text), CV_PTX_TIMING_ALONE, &len, &st);
    REQUIRE(out != NULL);
    CHECK(strlen(out) == len);
    CHECK(st.twins == st_beside->twins && st.entries == st_beside->entries);
    cv_ptx_module a;
    REQUIRE(cv_ptx_parse(out, len, &a, NULL, 0) == CL_SUCCESS);
    CHECK(a.num_kernels == (st.module_refused ? st.entries : st.twins));
    for (uint32_t i = 0; !st.module_refused && i < a.num_kernels; i++) {
        const char *name = a.kernels[i].name;
        size_t n = strlen(name), sn = strlen(CV_PTX_TIMED_SUFFIX);
        CHECK(n > sn && strcmp(name + n - sn, CV_PTX_TIMED_SUFFIX) == 0);
        char *mine = entry_text(out, name), *theirs = entry_text(beside, name);
        CHECK(cv_ptx_find(t, name) && mine && theirs && strcmp(mine, theirs) == 0);
        free(mine);
        free(theirs);
    }
    for (uint32_t i = 0; i < st.entries; i++)
        CHECK(st.timed[i] == st_beside->timed[i]);
    cv_ptx_free(&a);
    free(st.timed);
    char name[300];
    snprintf(name, sizeof name, "%s-alone", tag);
    if (st.twins)
        CHECK(assembles(out, name));
    free(out);
}

/* The twins added to text (PTX as the loader's rewrite left it), checked: as many as expected,
 * each original entry unchanged, each twin with the timing parameter, the prologue, no ret or
 * exit of its own, and the result assembles. */
static char *timed(const char *text, unsigned twins, const char *tag) {
    size_t out_len = 0;
    cv_ptx_timing_stats st;
    char *out = cv_ptx_add_timing(text, strlen(text), CV_PTX_TIMING_BESIDE, &out_len, &st);
    REQUIRE(out != NULL);
    CHECK(strlen(out) == out_len);
    CHECK(st.twins == twins);
    if (st.twins != twins)
        fprintf(stderr, "%s: %u twins, expected %u (%s)\n", tag, st.twins, twins,
                st.module_refused ? st.module_refused : "entries refused");
    cv_ptx_module m;
    REQUIRE(cv_ptx_parse(text, strlen(text), &m, NULL, 0) == CL_SUCCESS);
    cv_ptx_module t;
    REQUIRE(cv_ptx_parse(out, out_len, &t, NULL, 0) == CL_SUCCESS);
    CHECK(t.num_kernels == m.num_kernels + twins);
    for (uint32_t i = 0; i < m.num_kernels; i++) {
        const cv_ptx_kernel *k = &m.kernels[i];
        char *before = entry_text(text, k->name), *after = entry_text(out, k->name);
        CHECK(after && strcmp(before, after) == 0); /* the entry itself is untouched */
        char name[256];
        snprintf(name, sizeof name, "%s%s", k->name, CV_PTX_TIMED_SUFFIX);
        /* a kernel of that name in the input is no twin */
        const cv_ptx_kernel *tw = cv_ptx_find(&m, name) ? NULL : cv_ptx_find(&t, name);
        CHECK(st.timed[i] == (tw != NULL));
        if (tw) {
            CHECK(tw->num_params == k->num_params + 1);
            const cv_ptx_param *last = &tw->params[tw->num_params - 1];
            CHECK(strcmp(last->name, "__cv_timing") == 0 && last->size == 16 && last->align == 8);
            CHECK(tw->cluster_dims[0] == k->cluster_dims[0] && tw->max_threads == k->max_threads);
            char *body = entry_text(out, name);
            /* the epilogue's three exits and nothing else ends a thread */
            CHECK(count(body, "exit;") - count(body, "_exit;") == 3);
            CHECK(count(body, "ret;") == 0 && count(body, "ret.uni;") == 0);
            CHECK(count(body, "// culvert: kernel timing") == 1);
            CHECK(count(body, "$__cv_timed_exit:") == 1);
            /* the prologue runs first, before the launch information's */
            char *pro = strstr(body, "// culvert: kernel timing"),
                 *li = strstr(body, "// culvert: launch information");
            CHECK(!li || pro < li);
            free(body);
        }
        free(before);
        free(after);
    }
    alone(text, out, &t, &st, tag);
    cv_ptx_free(&t);
    cv_ptx_free(&m);
    free(st.timed);
    CHECK(assembles(out, tag));
    return out;
}

/* The rewritten text of a file of tests/kernels (the loader's first pass). */
static char *rewritten_file(const char *file) {
    size_t len;
    char *text = read_file(file, &len);
    cv_ptx_module m;
    REQUIRE(cv_ptx_parse(text, len, &m, NULL, 0) == CL_SUCCESS);
    size_t out_len;
    char *out = cv_ptx_rewrite(text, len, &m, &out_len);
    REQUIRE(out != NULL);
    cv_ptx_free(&m);
    free(text);
    return out;
}

/* nvcc's PTX: every kernel (clusters, the cooperative grid sync, structs by value) has a twin. */
static void test_nvcc(void) {
    char *text = rewritten_file("basic.ptx");
    cv_ptx_module m;
    REQUIRE(cv_ptx_parse(text, strlen(text), &m, NULL, 0) == CL_SUCCESS);
    unsigned n = m.num_kernels;
    CHECK(n >= 8);
    /* each ret of an entry becomes one branch to the epilogue */
    size_t rets = 0;
    for (uint32_t i = 0; i < n; i++) {
        char *e = entry_text(text, m.kernels[i].name);
        rets += count(e, "ret;");
        free(e);
    }
    cv_ptx_free(&m);
    char *out = timed(text, n, "nvcc");
    CHECK(rets >= n);
    CHECK(count(out, "bra $__cv_timed_exit;") == rets);
    CHECK(count(out, ".param .align 8 .b8 __cv_timing[16]") == n);
    CHECK(count(out, ".shared .align 4 .u32 __cv_timed_done;") == n);
    free(out);
    free(text);
}

/* culvert-compiled PTX: the launch prologue's exits of threads past the NDRange are counted too
 * (they become branches to the epilogue), and its parameter stays before the timing one. */
static void test_launch_info(void) {
    char *text = rewritten_file("launch_info.ptx");
    size_t exits = count(text, "@%cvlp exit;");
    CHECK(exits == 9);
    char *out = timed(text, 3, "launch_info");
    CHECK(count(out, "@%cvlp exit;") == exits);
    CHECK(count(out, "@%cvlp bra $__cv_timed_exit;") == exits);
    CHECK(count(out, "__cv_launch_param[80]\n,\n\t.param .align 8 .b8 __cv_timing[16]") == 3);
    free(out);
    free(text);
}

/* PTX saved from NVIDIA's OpenCL (texmode_independent, %envreg replaced, __local pointers). */
static void test_nv_opencl(void) {
    char *text = rewritten_file("nv_opencl.ptx");
    char *out = timed(text, 1, "nv_opencl");
    free(out);
    free(text);
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Early rets (guarded and not, in nested blocks), exit, ret.uni, a body that runs off its end, an
 * entry without a parameter list and one with an empty list. */
static void test_exits(void) {
    static const char text[] =
        HEAD ".visible .entry many(\n\t.param .u64 out,\n\t.param .u32 n\n)\n.maxntid 256, 1, 1\n"
             "{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
             "\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [n];\n"
             "\tsetp.ge.u32 %p1, %r1, %r2;\n\t@%p1 ret;\n"
             "\tsetp.eq.u32 %p2, %r1, 7;\n\t@!%p2 bra $L_a;\n\t{\n\t.reg .b32 %q;\n"
             "\tmov.u32 %q, 1;\n\texit;\n\t}\n"
             "$L_a:\n\tsetp.eq.u32 %p3, %r1, 9;\n\t@%p3 bra $L_b;\n"
             "\tld.param.u64 %rd1, [out];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n"
             "$L_b:\n\tret.uni;\n}\n"
             ".visible .entry bare\n{\n\tret;\n}\n"
             ".visible .entry none()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n}\n"
             /* a comment after the last parameter */
             ".visible .entry noted(\n\t.param .u32 a // the last one\n)\n{\n\tret;\n}\n";
    char *out = timed(text, 4, "exits");
    char *many = entry_text(out, "many" CV_PTX_TIMED_SUFFIX);
    REQUIRE(many != NULL);
    CHECK(count(many, "@%p1 bra $__cv_timed_exit;") == 1);
    CHECK(count(many, "bra $__cv_timed_exit;") == 3);
    CHECK(count(many, "bra.uni $__cv_timed_exit;") == 1);
    /* the branches the kernel had stay as they were */
    CHECK(count(many, "@!%p2 bra $L_a;") == 1 && count(many, "@%p3 bra $L_b;") == 1);
    free(many);
    char *bare = entry_text(out, "bare" CV_PTX_TIMED_SUFFIX);
    CHECK(bare && count(bare, "(\n\t.param .align 8 .b8 __cv_timing[16]\n)") == 1);
    free(bare);
    char *none = entry_text(out, "none" CV_PTX_TIMED_SUFFIX);
    CHECK(none && count(none, "(\n\t.param .align 8 .b8 __cv_timing[16]\n)") == 1);
    free(none);
    free(out);
}

/* Modules that get no twin, with the reason; entries that get none while others do. */
static void test_refusals(void) {
    static const struct {
        const char *text, *why;
    } modules[] = {
        {".version 6.1\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n",
         "PTX .version below 6.2 (activemask)"},
        {".version 7.0\n.target sm_60\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n",
         ".target below sm_70"},
        {HEAD ".func f()\n{\n\texit;\n}\n.visible .entry k()\n{\n\tcall f, ();\n\tret;\n}\n",
         "exit in a .func"},
        {HEAD ".visible .entry k()\n{\n\tret;\n}\n.section .debug_abbrev\n{\n.b8 1\n}\n",
         "debug sections"},
    };
    for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++) {
        size_t len = 0;
        cv_ptx_timing_stats st;
        char *out = cv_ptx_add_timing(modules[i].text, strlen(modules[i].text),
                                      CV_PTX_TIMING_BESIDE, &len, &st);
        REQUIRE(out != NULL);
        CHECK(st.twins == 0 && st.entries == 1);
        CHECK(st.module_refused && strcmp(st.module_refused, modules[i].why) == 0);
        CHECK(strcmp(out, modules[i].text) == 0);
        CHECK(st.timed && !st.timed[0]);
        free(st.timed);
        free(out);
    }
    /* A function that returns (a `ret` in a .func) is fine; a label named like exit is no exit. */
    static const char func_ret[] = HEAD ".func f()\n{\n\tbra exit_here;\nexit_here:\n\tret;\n}\n"
                                        ".visible .entry k()\n{\n\tcall f, ();\n\tret;\n}\n";
    free(timed(func_ret, 1, "func_ret"));

    /* Per entry: a function-scope .global variable (a copy would be another variable), a name
     * whose twin name is taken, and parameters at the 4 KiB limit of PTX before 8.1. */
    static const char entries[] =
        HEAD ".visible .entry statics()\n{\n\t.global .align 4 .u32 g;\n\tret;\n}\n"
             ".visible .entry taken()\n{\n\tret;\n}\n"
             ".visible .entry taken" CV_PTX_TIMED_SUFFIX "()\n{\n\tret;\n}\n"
             ".visible .entry big(\n\t.param .align 8 .b8 big_p[4088]\n)\n{\n\tret;\n}\n"
             ".visible .entry fits(\n\t.param .align 8 .b8 fits_p[4080]\n)\n{\n\tret;\n}\n";
    char *out = timed(entries, 2, "entries");
    CHECK(count(out, "taken" CV_PTX_TIMED_SUFFIX CV_PTX_TIMED_SUFFIX) == 1);
    CHECK(count(out, "statics" CV_PTX_TIMED_SUFFIX) == 0);
    CHECK(count(out, "taken" CV_PTX_TIMED_SUFFIX "(") == 1); /* its own, not a twin */
    CHECK(count(out, "big" CV_PTX_TIMED_SUFFIX) == 0);
    CHECK(count(out, "fits" CV_PTX_TIMED_SUFFIX) == 1);
    free(out);
    /* PTX 8.1 takes 32764 bytes of parameters */
    static const char big81[] = ".version 8.1\n.target sm_90\n.address_size 64\n"
                                ".visible .entry big(\n\t.param .align 8 .b8 big_p[4088]\n)\n"
                                "{\n\tret;\n}\n";
    free(timed(big81, 1, "big81"));
    /* not PTX */
    size_t len = 0;
    cv_ptx_timing_stats st;
    CHECK(cv_ptx_add_timing("hello", 5, CV_PTX_TIMING_BESIDE, &len, &st) == NULL);
    CHECK(cv_ptx_add_timing("hello", 5, CV_PTX_TIMING_ALONE, &len, &st) == NULL);
}

int main(void) {
    test_nvcc();
    test_launch_info();
    test_nv_opencl();
    test_exits();
    test_refusals();
    return cv_test_report("ptx_timing");
}
