/* The PTX parser and rewrite (src/core/ptx*.c) on text: nvcc's PTX, hand-written PTX with
 * __local pointers and launch information, and bad input. Every rewritten module must still
 * assemble: ptxas -arch=sm_90 checks it. */
#include "test_util.h"

#include "core/ptx.h"
#include "ptx_test_util.h"

#include <string.h>

static void test_nvcc(void) {
    size_t len;
    char *text = read_file("basic.ptx", &len);
    cv_ptx_module m;
    char msg[256];
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, len, &m, msg, sizeof msg));
    CHECK(!m.launch_info);
    CHECK(m.target_sm == 90);
    const cv_ptx_kernel *k = cv_ptx_find(&m, "add_one");
    REQUIRE(k != NULL);
    CHECK(k->num_params == 2);
    CHECK(k->params[0].size == 8 && k->params[0].align == 8 &&
          k->params[0].space == CV_PTX_NOT_PTR);
    CHECK(k->params[1].size == 4 && k->params[1].align == 4);
    CHECK(strcmp(k->params[1].name, "add_one_param_1") == 0);
    CHECK(k->arg_info == NULL);
    k = cv_ptx_find(&m, "by_value");
    REQUIRE(k != NULL);
    static const uint32_t sizes[] = {24, 1, 2, 8, 4, 8}, aligns[] = {8, 1, 2, 8, 4, 8};
    CHECK(k->num_params == 6);
    for (uint32_t i = 0; i < 6 && i < k->num_params; i++)
        CHECK(k->params[i].size == sizes[i] && k->params[i].align == aligns[i]);
    k = cv_ptx_find(&m, "empty");
    REQUIRE(k != NULL);
    CHECK(k->num_params == 0);
    k = cv_ptx_find(&m, "cluster_rank");
    REQUIRE(k != NULL);
    CHECK(k->cluster_dims[0] == 2 && k->cluster_dims[1] == 1 && k->cluster_dims[2] == 1);
    k = cv_ptx_find(&m, "bounded");
    REQUIRE(k != NULL);
    CHECK(k->max_threads == 64);
    CHECK(cv_ptx_find(&m, "no_such_kernel") == NULL);
    CHECK(m.num_kernels == 12);
    /* Nothing to rewrite: the text comes back unchanged. */
    size_t out_len = 0;
    char *out = cv_ptx_rewrite(text, len, &m, &out_len);
    REQUIRE(out != NULL);
    CHECK(out_len == len && strcmp(out, text) == 0);
    free(out);
    cv_ptx_free(&m);
    free(text);
}

static void test_launch_info(void) {
    size_t len;
    char *text = read_file("launch_info.ptx", &len);
    cv_ptx_module m;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, len, &m, NULL, 0));
    CHECK(m.launch_info);
    CHECK(!m.has_dynamic_smem);
    CHECK(m.num_kernels == 3);
    const cv_ptx_kernel *k = cv_ptx_find(&m, "local_sum");
    REQUIRE(k != NULL && k->num_params == 4);
    CHECK(k->has_shared_ptr);
    CHECK(k->params[0].space == CV_PTX_PTR_GLOBAL && k->params[0].ptr_align == 4);
    CHECK(k->params[1].space == CV_PTX_PTR_SHARED && k->params[1].ptr_align == 16);
    CHECK(k->params[1].size == 8 && k->params[1].align == 8);
    CHECK(k->params[3].space == CV_PTX_NOT_PTR);
    REQUIRE(k->arg_info != NULL);
    CHECK(k->arg_info[1].address == CL_KERNEL_ARG_ADDRESS_LOCAL);
    CHECK(k->arg_info[0].address == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CHECK(k->arg_info[3].address == CL_KERNEL_ARG_ADDRESS_PRIVATE);
    CHECK(k->arg_info[2].type_qualifier == CL_KERNEL_ARG_TYPE_VOLATILE);
    CHECK(k->arg_info[3].type_qualifier == CL_KERNEL_ARG_TYPE_CONST);
    CHECK(k->arg_info[0].access == CL_KERNEL_ARG_ACCESS_NONE);
    CHECK(strcmp(k->arg_info[3].type_name, "unsigned int") == 0);
    CHECK(strcmp(k->arg_info[1].name, "a") == 0);
    CHECK(strcmp(k->attributes, "__attribute__((work_group_size_hint(64,1,1)))") == 0);
    CHECK(k->work_group_size_hint[0] == 64 && k->work_group_size_hint[1] == 1);
    CHECK(k->reqd_work_group_size[0] == 0);
    k = cv_ptx_find(&m, "li_ids");
    REQUIRE(k != NULL && k->arg_info != NULL);
    CHECK(k->arg_info[0].type_qualifier == CL_KERNEL_ARG_TYPE_RESTRICT);
    CHECK(strcmp(k->arg_info[0].type_name, "uint*") == 0);
    CHECK(strcmp(k->attributes, "") == 0);
    CHECK(!k->has_shared_ptr);

    size_t out_len = 0;
    char *out = cv_ptx_rewrite(text, len, &m, &out_len);
    REQUIRE(out != NULL);
    CHECK(strlen(out) == out_len);
    /* one launch parameter per entry, one declaration of each shared variable */
    CHECK(count(out, ".param .align 8 .b8 __cv_launch_param[80]") == 3);
    /* every use is a load at a constant address in an entry: parameter reads, no shared copy */
    CHECK(count(out, "__cv_launch_info") == 1); /* the header comment */
    CHECK(count(out, "ld.param.u64 %rd2, [__cv_launch_param+56];") == 1);
    CHECK(count(out, "st.shared.b64") == 0);
    /* no kernel has uniform work-groups: each thread checks its global id */
    CHECK(count(out, "setp.ge.u64 %cvlp") == 9);
    CHECK(count(out, ".extern .shared .align 16 .b8 __cv_dynamic_smem[];") == 1);
    CHECK(count(out, "culvert: launch information") == 3);
    /* the two __local loads get the base added, the others do not */
    CHECK(count(out, "add.u64 %rd2, %rd2, %cvsm;") == 1);
    CHECK(count(out, "add.u64 %rd3, %rd3, %cvsm;") == 1);
    CHECK(count(out, "%cvsm; }") == 2);
    /* the //cv: metadata survives (CL_PROGRAM_BINARIES keeps the original anyway) */
    CHECK(count(out, "//cv:arg local_sum 1 local") == 1);
    CHECK(assembles(out, "launch_info"));
    /* The rewritten text parses again, now with the appended parameter. */
    cv_ptx_module m2;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(out, out_len, &m2, NULL, 0));
    k = cv_ptx_find(&m2, "local_sum");
    CHECK(k && k->num_params == 5 && k->params[4].size == 80 && k->params[4].align == 8);
    cv_ptx_free(&m2);
    free(out);
    cv_ptx_free(&m);
    free(text);
}

/* launch_info.ptx with li_ids marked //cv:uniform-work-groups and the first `from` replaced by
 * `to`, parsed into *m (the caller frees both). */
static char *launch_info_variant(const char *from, const char *to, cv_ptx_module *m) {
    static const char uniform[] = "//cv:uniform-work-groups li_ids\n";
    size_t len;
    char *text = read_file("launch_info.ptx", &len);
    char *at = strstr(text, from);
    REQUIRE(at != NULL);
    char *edited = malloc(len + strlen(to) + sizeof uniform);
    REQUIRE(edited != NULL);
    strcpy(edited, uniform);
    strncat(edited, text, (size_t)(at - text));
    strcat(edited, to);
    strcat(edited, at + strlen(from));
    free(text);
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(edited, strlen(edited), m, NULL, 0));
    return edited;
}

/* The loader's rewrite of a variant (REQUIRE'd to succeed). */
static char *rewritten(const char *edited, cv_ptx_module *m) {
    size_t out_len = 0;
    char *out = cv_ptx_rewrite(edited, strlen(edited), m, &out_len);
    REQUIRE(out != NULL);
    return out;
}

/* A use of __cv_launch_info that is not a load at a constant address (here: its address taken)
 * keeps the copy into shared memory for the whole module. */
static void test_launch_info_copy(void) {
    cv_ptx_module m;
    char *edited = launch_info_variant(
        "ld.shared.u32 %r10, [__cv_launch_info+48];",
        "mov.u64 %rd9, __cv_launch_info;\n\tld.shared.u32 %r10, [%rd9+48];", &m);
    char *out = rewritten(edited, &m);
    CHECK(count(out, ".shared .align 8 .b8 __cv_launch_info[64];") == 1);
    CHECK(count(out, "st.shared.b64 [__cv_launch_info+56], %cvli;") == 3);
    CHECK(count(out, "ld.shared.u64 %rd2, [__cv_launch_info+56];") == 1);
    /* li_ids has uniform work-groups and no cluster dimensions: no thread ever lies outside */
    CHECK(count(out, "setp.ge.u32 %cvlp") == 0);
    CHECK(count(out, "setp.ge.u64 %cvlp") == 6);
    CHECK(assembles(out, "launch_info_copy"));
    free(out);
    cv_ptx_free(&m);
    free(edited);
}

/* Two group offsets in one vector load, as LLVM merges get_global_id(0) and (1)'s: still a
 * parameter read, no copy into shared memory (the copy had made 2D kernels 1.4-2.5x slower on the
 * H100). */
static void test_launch_info_vector(void) {
    cv_ptx_module m;
    char *edited = launch_info_variant("ld.shared.u32 %r7, [__cv_launch_info+48];\n"
                                       "\tld.shared.u32 %r8, [__cv_launch_info+52];",
                                       "ld.shared.v2.u32 {%r7, %r8}, [__cv_launch_info+48];", &m);
    char *out = rewritten(edited, &m);
    CHECK(count(out, "ld.param.v2.u32 {%r7, %r8}, [__cv_launch_param+48];") == 1);
    CHECK(count(out, "__cv_launch_info") == 1); /* the header comment */
    CHECK(count(out, "st.shared.b64") == 0);
    CHECK(assembles(out, "launch_info_vector"));
    free(out);
    cv_ptx_free(&m);
    free(edited);
}

/* Uniform work-groups with compiled cluster dimensions: grids may be padded to whole clusters,
 * so the groups past group_limit exit (three 32-bit compares, no per-thread check). */
static void test_launch_info_clusters(void) {
    cv_ptx_module m;
    char *edited = launch_info_variant("li_ids_param_0\n)",
                                       "li_ids_param_0\n)\n.reqnctapercluster 2, 1, 1", &m);
    const cv_ptx_kernel *k = cv_ptx_find(&m, "li_ids");
    REQUIRE(k != NULL);
    CHECK(k->uniform_work_groups && k->cluster_dims[0] == 2 && cv_ptx_exits_outside(k));
    char *out = rewritten(edited, &m);
    CHECK(count(out, "[__cv_launch_param+64];") == 1);
    CHECK(count(out, "setp.ge.u32 %cvlp") == 3);
    CHECK(count(out, "setp.ge.u64 %cvlp") == 6);
    CHECK(assembles(out, "launch_info_clusters"));
    free(out);
    cv_ptx_free(&m);
    free(edited);
}

static void test_local_plain(void) {
    size_t len;
    char *text = read_file("local_plain.ptx", &len);
    cv_ptx_module m;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, len, &m, NULL, 0));
    CHECK(!m.launch_info);
    CHECK(m.target_sm == 80);
    size_t out_len = 0;
    char *out = cv_ptx_rewrite(text, len, &m, &out_len);
    REQUIRE(out != NULL);
    CHECK(count(out, "__cv_launch_param") == 0);
    CHECK(count(out, "add.u64 %rd2, %rd2, %cvsm;") == 1);
    CHECK(count(out, "__cv_dynamic_smem[]") == 1);
    CHECK(assembles(out, "local_plain"));
    free(out);
    cv_ptx_free(&m);
    free(text);
}

/* PTX as NVIDIA's OpenCL driver saves it: texmode_independent, 32-bit __local pointers. */
static void test_nv_opencl(void) {
    size_t len;
    char *text = read_file("nv_opencl.ptx", &len);
    cv_ptx_module m;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, len, &m, NULL, 0));
    CHECK(m.target_sm == 90 && !m.target_specific && !m.launch_info);
    CHECK(m.opencl_abi && m.has_envreg && m.envreg_unknown == -1);
    const cv_ptx_kernel *k = cv_ptx_find(&m, "scale");
    REQUIRE(k != NULL && k->num_params == 4);
    CHECK(k->params[0].space == CV_PTX_PTR_GLOBAL && k->params[0].size == 8);
    CHECK(k->params[2].space == CV_PTX_NOT_PTR && k->params[2].size == 4);
    CHECK(k->params[3].space == CV_PTX_PTR_SHARED && k->params[3].size == 4);
    size_t out_len;
    char *out = cv_ptx_rewrite(text, len, &m, &out_len);
    REQUIRE(out != NULL);
    CHECK(count(out, "add.u32 %r1, %r1, %cvsm;") == 1);
    /* the launch environment: offsets are 0, group counts are %nctaid */
    CHECK(count(out, ", %envreg3;") == 0 && count(out, ", %envreg6;") == 0);
    CHECK(count(out, "mov.b32 \t%r8, 0;") == 1);
    CHECK(count(out, "mov.u32 \t%r10, %nctaid.x;") == 1);
    /* the parameters lose their .ptr annotations, nothing else */
    CHECK(count(out, ".ptr .global") == 0 && count(out, ".ptr .shared") == 0);
    CHECK(count(out, ".param .u64  scale_param_0,") == 1);
    CHECK(count(out, ".param .u32  scale_param_3") == 1);
    CHECK(assembles(out, "nv_opencl"));
    free(out);
    cv_ptx_free(&m);
    free(text);
}

/* Small modules written here: edge cases of the grammar. */
static void test_synthetic(void) {
    static const char no_params[] =
        "// leading comment\n/* block */\n.version 8.0\n.target sm_90\n.address_size 64\n"
        /* no initializer, right before the declaration the rewrite removes */
        ".global .align 8 .u64 total;\n"
        ".extern .shared .align 8 .b8 __cv_launch_info[64];\n"
        ".global .align 4 .b8 table[40];\n"
        ".global .align 8 .u64 counter = 5;\n"
        ".visible .entry k0()\n{\n\tret;\n}\n"
        ".visible .entry k1(\n\t.param .u32 .ptr .shared .align 8 k1_p0\n)\n.maxntid 32, 2, 1\n"
        "{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [k1_p0];\n\tst.shared.u32 [%r1], 7;\n"
        "\tret;\n}\n"
        /* a 64-bit __local pointer read as its low 32 bits */
        ".visible .entry k2(\n\t.param .u64 .ptr .shared .align 4 k2_p0\n)\n"
        "{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [k2_p0];\n\tst.shared.u32 [%r1], 7;\n"
        "\tret;\n}\n";
    cv_ptx_module m;
    char msg[128];
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(no_params, strlen(no_params), &m, msg, sizeof msg));
    CHECK(m.launch_info);
    CHECK(m.global_bytes == 56);
    /* Program-scope char3 variables as clang emits them (the CTS's basic progvar_prog_scope_init:
     * two char3, a char3[2], a pointer): a 3-component vector takes a 4-component one's size. */
    static const char char3s[] = ".version 7.8\n.target sm_90\n.address_size 64\n"
                                 ".visible .global .align 4 .b8 var[3] = {1, 2, 3};\n"
                                 ".visible .global .align 4 .b8 g_var[3];\n"
                                 ".visible .global .align 4 .b8 a_var[8];\n"
                                 ".visible .global .align 8 .u64 p_var = a_var+4;\n";
    cv_ptx_module globals;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(char3s, strlen(char3s), &globals, msg, sizeof msg));
    CHECK(globals.global_bytes == 24);
    cv_ptx_free(&globals);
    CHECK(m.num_kernels == 3);
    const cv_ptx_kernel *k = cv_ptx_find(&m, "k1");
    REQUIRE(k != NULL);
    CHECK(k->max_threads == 64);
    CHECK(k->params[0].size == 4 && k->params[0].space == CV_PTX_PTR_SHARED);
    size_t out_len;
    char *out = cv_ptx_rewrite(no_params, strlen(no_params), &m, &out_len);
    REQUIRE(out != NULL);
    CHECK(count(out, ".extern .shared .align 8 .b8 __cv_launch_info") == 0);
    CHECK(count(out, ".global .align 8 .u64 total;") == 1);
    CHECK(count(out, "add.u32 %r1, %r1, %cvsm;") == 2);
    CHECK(assembles(out, "synthetic"));
    free(out);
    cv_ptx_free(&m);

    /* A trailing terminator (NVIDIA's saved binaries carry one) is allowed. */
    static const unsigned char with_nul[] = ".version 7.0\n.target sm_52\n.address_size 64\n";
    CHECK(cv_ptx_is_text(with_nul, sizeof with_nul));
    CHECK(cv_ptx_is_text(with_nul, sizeof with_nul - 1));
    static const unsigned char elf[] = "\x7f"
                                       "ELF\x02\x01\x01";
    CHECK(!cv_ptx_is_text(elf, sizeof elf));
    static const unsigned char garbage[] = "hello world";
    CHECK(!cv_ptx_is_text(garbage, sizeof garbage - 1));
    static const unsigned char nul_inside[] = ".version 7.0\n\0.target sm_52\n";
    CHECK(!cv_ptx_is_text(nul_inside, sizeof nul_inside - 1));

    /* an %envreg culvert cannot provide, in NVIDIA OpenCL's PTX; CUDA's own (cooperative groups
     * read %envreg1/2) are left alone elsewhere */
    static const char envreg[] = ".version 8.0\n.target sm_90, texmode_independent\n"
                                 ".entry e()\n{\n\t.reg .b32 %r<2>;\n\tmov.b32 %r1, %envreg12;\n"
                                 "\tret;\n}\n";
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(envreg, strlen(envreg), &m, NULL, 0));
    CHECK(m.opencl_abi && m.envreg_unknown == 12);
    cv_ptx_free(&m);

    static const char *const bad[] = {
        "hello",
        ".version 8.0\n.target sm_90\n.visible .entry k(\n\t.param .u32 a\n{\n}\n",
        ".version 8.0\n.target sm_90\n.visible .entry k()\n{\n\tret;\n",
        ".version 8.0\n.target sm_90\n.visible .entry k(\n\t.param .zz a\n)\n{\n}\n",
        ".version 8.0\n.visible .entry\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        CHECK_ERR(CL_INVALID_BINARY, cv_ptx_parse(bad[i], strlen(bad[i]), &m, msg, sizeof msg));
        CHECK(msg[0] != '\0');
    }
}

/* A module at .version 7.8 with one entry of n .u64 parameters (with launch information or
 * not) that reads the first and the last; malloc'ed. */
static char *many_params(unsigned n, bool launch_info) {
    size_t cap = 512 + (size_t)n * 32;
    char *t = malloc(cap);
    REQUIRE(t != NULL);
    int o = snprintf(t, cap,
                     ".version 7.8\n.target sm_90, texmode_independent\n"
                     ".address_size 64\n%s.visible .entry big(\n",
                     launch_info ? ".shared .align 8 .b8 __cv_launch_info[64];\n" : "");
    for (unsigned i = 0; i < n; i++)
        o += snprintf(t + o, cap - (size_t)o, "\t.param .u64 big_p%u%s\n", i, i + 1 < n ? "," : "");
    snprintf(t + o, cap - (size_t)o,
             ")\n{\n\t.reg .b64 %%rd<4>;\n\tld.param.u64 %%rd1, [big_p0];\n"
             "\tld.param.u64 %%rd2, [big_p%u];\n%s\tst.global.u64 [%%rd1], %%rd2;\n\tret;\n}\n",
             n - 1,
             launch_info ? "\tld.shared.u64 %rd3, [__cv_launch_info+24];\n"
                           "\tadd.u64 %rd2, %rd2, %rd3;\n"
                         : "");
    return t;
}

/* Kernels past 4352 bytes of parameters need PTX ISA 8.1 (ptxas: "Kernel parameter size larger
 * than 4352 bytes requires PTX ISA .version 8.1 or later"): the rewrite raises .version for them
 * and leaves it alone for every other module. CL_DEVICE_MAX_PARAMETER_SIZE (32680 with CUDA
 * 12.1+) of arguments plus the launch parameter fits in the 32764 bytes (the CTS's api
 * min_max_parameter_size). */
static void test_large_params(void) {
    static const struct {
        unsigned n;
        bool launch_info;
        size_t space;
        bool raised;
    } cases[] = {
        {4, true, 4 * 8 + 80, false},     {544, false, 4352, false},
        {534, true, 534 * 8 + 80, false}, /* 4352 */
        {545, false, 4360, true},         {535, true, 4360, true},
        {32680 / 8, true, 32760, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = many_params(cases[i].n, cases[i].launch_info);
        cv_ptx_module m;
        char msg[128];
        CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, strlen(text), &m, msg, sizeof msg));
        CHECK(m.version == 708);
        REQUIRE(m.num_kernels == 1);
        CHECK(cv_ptx_param_space(&m.kernels[0], m.launch_info) == cases[i].space);
        size_t out_len = 0;
        char *out = cv_ptx_rewrite(text, strlen(text), &m, &out_len);
        REQUIRE(out != NULL);
        CHECK(count(out, ".version 8.1\n") == cases[i].raised);
        CHECK(count(out, ".version 7.8\n") == !cases[i].raised);
        char tag[32];
        snprintf(tag, sizeof tag, "params%u", cases[i].n);
        CHECK(assembles(out, tag));
        free(out);
        cv_ptx_free(&m);
        free(text);
    }
    /* A module already at 8.1 or later keeps its version. */
    char *text = many_params(600, false);
    memcpy(strstr(text, "7.8"), "8.5", 3);
    cv_ptx_module m;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, strlen(text), &m, NULL, 0));
    CHECK(m.version == 805);
    size_t out_len = 0;
    char *out = cv_ptx_rewrite(text, strlen(text), &m, &out_len);
    REQUIRE(out != NULL);
    CHECK(count(out, ".version 8.5\n") == 1 && count(out, ".version 8.1") == 0);
    free(out);
    cv_ptx_free(&m);
    free(text);
}

/* //cv:arg lines: a source build's name every parameter (clGetKernelArgInfo tells them); a
 * SPIR-V module's end after the type, and their access qualifiers still mark image arguments. */
static void test_arg_lines(void) {
    static const char head[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k(\n\t.param .u64 .ptr .global .align 16 k_p0,\n"
                               "\t.param .u64 k_p1\n)\n{\n\tret;\n}\n";
    static const char *const lines[2] = {
        "//cv:arg k 0 global none none int4* dst\n//cv:arg k 1 global read_only none image2d_t "
        "src\n",
        "//cv:arg k 0 global none none int4* \n//cv:arg k 1 global read_only none image2d_t \n"};
    for (int named = 1; named >= 0; named--) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", head, lines[named ? 0 : 1]);
        cv_ptx_module m;
        char msg[128];
        CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, strlen(text), &m, msg, sizeof msg));
        const cv_ptx_kernel *k = cv_ptx_find(&m, "k");
        REQUIRE(k != NULL && k->num_params == 2);
        REQUIRE(k->arg_info != NULL);
        CHECK(k->arg_info_named == (named != 0));
        CHECK(k->arg_info[0].address == CL_KERNEL_ARG_ADDRESS_GLOBAL);
        CHECK(k->arg_info[1].access == CL_KERNEL_ARG_ACCESS_READ_ONLY);
        CHECK(strcmp(k->arg_info[1].type_name, "image2d_t") == 0);
        CHECK(strcmp(k->arg_info[1].name, named ? "src" : "") == 0);
        cv_ptx_free(&m);
    }
    /* A parameter without its line: no argument information at all. */
    char text[1024];
    snprintf(text, sizeof text, "%s//cv:arg k 0 global none none int4* dst\n", head);
    cv_ptx_module m;
    CHECK_ERR(CL_SUCCESS, cv_ptx_parse(text, strlen(text), &m, NULL, 0));
    const cv_ptx_kernel *k = cv_ptx_find(&m, "k");
    CHECK(k != NULL && k->arg_info == NULL && !k->arg_info_named);
    cv_ptx_free(&m);
}

int main(void) {
    test_arg_lines();
    test_nvcc();
    test_large_params();
    test_launch_info();
    test_launch_info_copy();
    test_launch_info_vector();
    test_launch_info_clusters();
    test_local_plain();
    test_nv_opencl();
    test_synthetic();
    return cv_test_report("ptx_rewrite");
}
