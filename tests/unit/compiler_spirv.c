/* SPIR-V input's pieces in the compiler (cvc_spirv.c): the module check, the specialization
 * constants read from the words (SpecId, type, size), and llvm-spirv's SPIR IR made NVPTX IR
 * (address spaces, intrinsic names, calling conventions, kernel annotations), then a SPIR-V
 * module of the build (tests/kernels-spirv) through cvc_build_il to PTX that ptxas takes, with a
 * specialization. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

#include <math.h>

/* A SPIR-V header and the instructions, as words, one instruction a line (the first word: the
 * word count above the opcode). */
// clang-format off
static const uint32_t module_words[] = {
    0x07230203, 0x00010400, 0, 100, 0,
    /* OpDecorate %10 SpecId 3; OpDecorate %11 SpecId 4; OpDecorate %12 SpecId 5 */
    (4u << 16) | 71, 10, 1, 3,
    (4u << 16) | 71, 11, 1, 4,
    (4u << 16) | 71, 12, 1, 5,
    /* %1 = OpTypeInt 16 0; %2 = OpTypeFloat 64; %3 = OpTypeBool */
    (4u << 16) | 21, 1, 16, 0,
    (3u << 16) | 22, 2, 64,
    (2u << 16) | 20, 3,
    /* %10 = OpSpecConstant %1 7; %11 = OpSpecConstant %2 0 0; %12 = OpSpecConstantTrue %3;
     * %13 = OpSpecConstant %1 9 (no SpecId: not settable) */
    (4u << 16) | 50, 1, 10, 7,
    (5u << 16) | 50, 2, 11, 0, 0,
    (3u << 16) | 48, 3, 12,
    (4u << 16) | 50, 1, 13, 9,
};
// clang-format on

static void spec_constants(void) {
    const unsigned char *m = (const unsigned char *)module_words;
    CVT_CHECK(cvc_is_spirv(m, sizeof module_words), "the module is SPIR-V");
    CVT_CHECK(!cvc_is_spirv(m, 16), "too short");
    CVT_CHECK(!cvc_is_spirv(m, sizeof module_words - 2), "not whole words");
    CVT_CHECK(!cvc_is_spirv((const unsigned char *)"BC\xc0\xde....................", 24),
              "bitcode is no SPIR-V");
    uint32_t swapped[sizeof module_words / 4];
    for (size_t i = 0; i < sizeof module_words / 4; i++)
        swapped[i] = __builtin_bswap32(module_words[i]);
    for (int pass = 0; pass < 2; pass++) {
        cvc_spec_constant *c = NULL;
        size_t n = 0;
        cl_int err = cvc_spirv_spec_constants(pass ? (const unsigned char *)swapped : m,
                                              sizeof module_words, &c, &n);
        CVT_CHECK(err == CL_SUCCESS && n == 3, "%s: three settable constants: %d, %zu",
                  pass ? "swapped" : "native", (int)err, n);
        for (size_t i = 0; i < n; i++) {
            bool ok = (c[i].id == 3 && c[i].size == 2 && !strcmp(c[i].type, "i16")) ||
                      (c[i].id == 4 && c[i].size == 8 && !strcmp(c[i].type, "f64")) ||
                      (c[i].id == 5 && c[i].size == 1 && !strcmp(c[i].type, "i1"));
            CVT_CHECK(ok, "constant %u: %zu bytes, %s", c[i].id, c[i].size, c[i].type);
        }
        free(c);
    }
    /* an instruction running past the end */
    uint32_t bad[8] = {0x07230203, 0x00010000, 0, 10, 0, (9u << 16) | 71, 1, 1};
    cvc_spec_constant *c = NULL;
    size_t n = 0;
    CVT_CHECK(cvc_spirv_spec_constants((const unsigned char *)bad, sizeof bad, &c, &n) ==
                  CL_INVALID_VALUE,
              "a truncated module");
    free(c);
}

static void ir_rewrite(void) {
    static const char *spir =
        "@c = addrspace(2) constant [2 x float] zeroinitializer, align 4\n"
        "define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(4) %g, ptr addrspace(2) "
        "%c) #0 !kernel_arg_addr_space !1 {\n"
        "  %x = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
        "  call void @llvm.memcpy.p4.p2.i64(ptr addrspace(4) %g, ptr addrspace(2) %c, i64 8, "
        "i1 false)\n"
        "  ret void\n"
        "}\n"
        "define spir_kernel void @\"k two\"() {\n  ret void\n}\n"
        "declare spir_func i64 @_Z13get_global_idj(i32)\n"
        "declare void @llvm.memcpy.p4.p2.i64(ptr addrspace(4), ptr addrspace(2), i64, i1)\n"
        "!1 = !{i32 1, i32 4, i32 2}\n"
        "!7 = !{i32 0}\n";
    char *out = cvc_ir_from_spir(spir);
    /* mangled names as clang 15 writes them for spir64 and clang 16 for NVPTX */
    static const char *const names[][2] = {
        {"_Z2g1PU3AS4fS0_", "_Z2g1PfS0_"},
        {"_Z2g2PU3AS4Dv4_fS1_PU3AS1S_", "_Z2g2PDv4_fS1_PU3AS1S_"},
        {"_Z2g3PU3AS2fS0_PU3AS4fS0_", "_Z2g3PU3AS4fS0_PfS0_"},
        {"_Z2g4PU3AS4VU7_AtomiciS1_12memory_orderS2_", "_Z2g4PVU7_AtomiciS1_12memory_orderS2_"},
        {"_Z2g5PU3AS4KfPU3AS4fS0_S2_PU3AS4DhS4_", "_Z2g5PKfPfS0_S2_PDhS4_"},
        {"_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope",
         "_Z25atomic_fetch_add_explicitPVU7_Atomicii12memory_order12memory_scope"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char in[256], want[256];
        snprintf(in, sizeof in, "declare void @%s(ptr)\n", names[i][0]);
        snprintf(want, sizeof want, "declare void @%s(ptr)\n", names[i][1]);
        char *got = cvc_ir_from_spir(in);
        CVT_CHECK(got && !strcmp(got, want), "%s -> %s", names[i][0], got ? got : "(null)");
        free(got);
    }
    CVT_CHECK(out != NULL, "rewritten");
    if (!out)
        return;
    CVT_CHECK(strstr(out, "@c = addrspace(4) constant") != NULL, "constant: 4\n%s", out);
    CVT_CHECK(strstr(out, "ptr addrspace(1) %p, ptr addrspace(0) %g, ptr addrspace(4) %c") != NULL,
              "parameters renumbered\n%s", out);
    CVT_CHECK(strstr(out, "@llvm.memcpy.p0.p4.i64") != NULL && !strstr(out, ".p4.p2"),
              "intrinsic names renumbered\n%s", out);
    CVT_CHECK(!strstr(out, "spir_func"), "no spir_func\n%s", out);
    /* metadata ids after the largest (7), not the kernels' argument metadata touched */
    CVT_CHECK(strstr(out, "!nvvm.annotations = !{!8, !9}") != NULL &&
                  strstr(out, "!8 = !{ptr @k, !\"kernel\", i32 1}") != NULL &&
                  strstr(out, "!9 = !{ptr @\"k two\", !\"kernel\", i32 1}") != NULL &&
                  strstr(out, "!1 = !{i32 1, i32 4, i32 2}") != NULL,
              "kernels annotated\n%s", out);
    free(out);

    /* an unnamed function gets a name (llc's body would read "[_param_0]"); a printf's float and
     * half arguments become doubles; strings pass unchanged */
    static const char *unnamed =
        "@0 = addrspace(2) constant [8 x i8] c\"%f @1 %d\\00\"\n"
        "define spir_func float @1(float %0) {\n  ret float %0\n}\n"
        "define spir_kernel void @k(float %x, half %h) {\n"
        "  %r = call spir_func float @1(float %x)\n"
        "  %p = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @0, float "
        "noundef %r, half %h, i32 7, <2 x float> <float 1.0, float 2.0>, double 2.0)\n"
        "  ret void\n}\n"
        "declare spir_func i32 @printf(ptr addrspace(2), ...)\n";
    out = cvc_ir_from_spir(unnamed);
    CVT_CHECK(out && strstr(out, "@__cv_unnamed_0 = addrspace(4) constant") &&
                  strstr(out, "define float @__cv_unnamed_1(float %0)") &&
                  strstr(out, "c\"%f @1 %d\\00\""),
              "unnamed globals named\n%s", out ? out : "(null)");
    CVT_CHECK(out &&
                  strstr(out, "  %__cv_fpext.0 = fpext float %r to double\n"
                              "  %__cv_fpext.1 = fpext half %h to double\n"
                              "  %p = call i32 (ptr addrspace(4), ...) @printf(ptr "
                              "addrspace(4) @__cv_unnamed_0, double %__cv_fpext.0, double "
                              "%__cv_fpext.1, i32 7, <2 x float> <float 1.0, float 2.0>, "
                              "double 2.0)\n") &&
                  strstr(out, "declare i32 @printf(ptr addrspace(4), ...)\n"),
              "printf's floats promoted\n%s", out ? out : "(null)");
    free(out);
}

/* Specialization values as both llvm-spirv 15 and 16 read them: decimal floats, exact;
 * infinities and NaN by name ("inf", "-inf", "nan": both translators read them). */
static void spec_text(void) {
    static const cvc_spec_constant c[] = {{1, 10, 4, "f32"}, {2, 11, 8, "f64"}, {3, 12, 2, "f16"},
                                          {4, 13, 1, "i1"},  {5, 14, 2, "i16"}, {6, 15, 4, "f32"},
                                          {7, 16, 4, "i32"}, {8, 17, 8, "f64"}};
    float f = -3.7f, nan_f = NAN;
    double d = 1.53453, minus_inf = -INFINITY;
    uint32_t fb, nb;
    uint64_t db, ib;
    memcpy(&fb, &f, 4);
    memcpy(&nb, &nan_f, 4);
    memcpy(&db, &d, 8);
    memcpy(&ib, &minus_inf, 8);
    const uint64_t v[] = {fb, db, 0x0002, 5, 0xfffff, nb, 9, ib};
    const bool set[] = {true, true, true, true, true, true, false, true};
    bool oom = true;
    char *s = cvc_spirv_spec_text(c, v, set, 8, &oom);
    CVT_CHECK(s && !oom &&
                  !strcmp(s, "1:f32:-3.7000000476837158 2:f64:1.5345299999999999 "
                             "3:f16:1.1920928955078125e-07 4:i1:1 5:i16:65535 6:f32:nan "
                             "8:f64:-inf"),
              "spec text: %s", s ? s : "(null)");
    free(s);
    const bool none[8] = {false};
    s = cvc_spirv_spec_text(c, v, none, 8, &oom);
    CVT_CHECK(!s && !oom, "none set: no text");
}

/* A SPIR-V module of the build (assembled by spirv-as), when it and llvm-spirv are there: NULL
 * (the test skipped, said on stderr) otherwise. */
static unsigned char *read_module(const char *path, const char *what, size_t *len) {
    unsigned char *il = NULL;
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        *len = (size_t)ftell(f);
        rewind(f);
        il = malloc(*len);
        if (il && fread(il, 1, *len, f) != *len)
            *len = 0;
        fclose(f);
    }
    if (!*len || !cvc_il_available()) {
        fprintf(stderr, "SKIP %s: %s\n", what,
                *len ? "no llvm-spirv" : "no SPIR-V module (spirv-as)");
        free(il);
        return NULL;
    }
    return il;
}

/* The test's SPIR-V module through the whole build, with constant 7 set to 42. */
static void build(void) {
    size_t len = 0;
    unsigned char *text = read_module(CV_IL_SPV, "build", &len);
    if (!text)
        return;
    const unsigned char *il = text;
    for (int spec = 0; spec < 2; spec++) {
        cvc_output out = {0};
        cl_int err = cvc_build_il(il, len, NULL, spec ? "7:i32:42" : NULL, &cvt_sm90, &out);
        CVT_CHECK(err == CL_SUCCESS, "build: %d\n%s", (int)err, out.log ? out.log : "");
        if (err == CL_SUCCESS) {
            char *ptx = (char *)out.data;
            CVT_CHECK(strstr(ptx, ".entry il_add") && strstr(ptx, "//cv:arg il_add 0 global"),
                      "kernel and its metadata");
            CVT_CHECK(!strstr(ptx, "//cv:uniform-work-groups"), "non-uniform work-groups");
            CVT_CHECK(strstr(ptx, spec ? ", 42," : ", 1234567,") != NULL, "the constant's value");
            CVT_CHECK(cvt_ptxas(ptx, "il_add") == 0, "ptxas");
        }
        cvc_output_free(&out);
    }
    /* a module llvm-spirv refuses (an unknown opcode: it aborts, in its own process) */
    cvc_output out = {0};
    static const uint32_t unknown[8] = {0x07230203, 0x00010000,          0, 10,
                                        0,          (3u << 16) | 0x7fff, 1, 2};
    cl_int err =
        cvc_build_il((const unsigned char *)unknown, sizeof unknown, NULL, NULL, &cvt_sm90, &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && out.log && *out.log, "an unknown opcode: %d",
              (int)err);
    cvc_output_free(&out);
    free(text);
}

/* Floating-point specialization values through llvm-spirv (whichever translator is found) into
 * the PTX: -3.7f and 1.53453, as cvc_spirv_spec_text writes them. */
static void build_float_spec(void) {
    size_t len = 0;
    unsigned char *il = read_module(CV_SPEC_FLOAT_SPV, "float specialization", &len);
    if (!il)
        return;
    cvc_spec_constant *c = NULL;
    size_t n = 0;
    CVT_CHECK(cvc_spirv_spec_constants(il, len, &c, &n) == CL_SUCCESS && n == 2,
              "two specialization constants: %zu", n);
    float fv = -3.7f;
    double dv = 1.53453;
    uint32_t fb;
    uint64_t db;
    memcpy(&fb, &fv, sizeof fb);
    memcpy(&db, &dv, sizeof db);
    uint64_t values[2] = {0, 0};
    bool set[2] = {true, true}, oom = false;
    for (size_t i = 0; i < n && i < 2; i++)
        values[i] = c[i].id == 1 ? fb : db;
    char *spec = n == 2 ? cvc_spirv_spec_text(c, values, set, n, &oom) : NULL;
    cvc_output out = {0};
    cl_int err = spec ? cvc_build_il(il, len, NULL, spec, &cvt_sm90, &out) : CL_INVALID_VALUE;
    CVT_CHECK(err == CL_SUCCESS, "build (%s): %d\n%s", spec ? spec : "-", (int)err,
              out.log ? out.log : "");
    if (err == CL_SUCCESS) {
        const char *ptx = (const char *)out.data;
        /* llc stores the constants' bits: 0xC06CCCCD and 0x3FF88D6F544BB1AF */
        CVT_CHECK(strstr(ptx, "-1066611507") && strstr(ptx, "4609589727908835759"),
                  "the specialized values in the PTX\n%s", ptx);
        CVT_CHECK(cvt_ptxas(ptx, "spec_fp") == 0, "ptxas");
    }
    cvc_output_free(&out);
    free(spec);
    free(c);
    free(il);
}

/* A build of a module links the part of the libraries its callees name (the first build of a
 * set extracts it, the next link it): the PTX is the same as with the libraries whole (no cache:
 * no parts). */
static void build_part(const char *dir) {
    size_t len = 0;
    unsigned char *il = read_module(CV_IL_SPV, "library part", &len);
    if (!il)
        return;
    char *ptx[3] = {NULL, NULL, NULL};
    for (int round = 0; round < 3; round++) {
        /* round 0: no cache (the libraries whole); 1: extracts the part; 2: links it. A new
         * value each round: never a cache hit. */
        char spec[32];
        snprintf(spec, sizeof spec, "7:i32:%d", 100 + round);
        if (round == 0)
            setenv("CULVERT_CACHE", "0", 1);
        cvc_output out = {0};
        cl_int err = cvc_build_il(il, len, NULL, spec, &cvt_sm90, &out);
        unsetenv("CULVERT_CACHE");
        CVT_CHECK(err == CL_SUCCESS, "round %d: %d\n%s", round, (int)err, out.log ? out.log : "");
        /* the constant differs: compare what follows its line */
        const char *text = err == CL_SUCCESS ? strstr((char *)out.data, ".entry") : NULL;
        ptx[round] = text ? strdup(text) : NULL;
        if (ptx[round]) {
            char value[16];
            snprintf(value, sizeof value, "%d", 100 + round);
            char *v = strstr(ptx[round], value);
            if (v)
                memset(v, 'X', strlen(value));
        }
        cvc_output_free(&out);
    }
    DIR *d = opendir(dir);
    struct dirent *e;
    int parts = 0;
    while (d && (e = readdir(d)) != NULL)
        parts += !strncmp(e->d_name, "libpart-", 8) && strstr(e->d_name, ".bc") != NULL;
    if (d)
        closedir(d);
    CVT_CHECK(parts >= 1, "a library part for the module: %d", parts);
    CVT_CHECK(ptx[0] && ptx[1] && !strcmp(ptx[0], ptx[1]), "extracting round: the same PTX");
    CVT_CHECK(ptx[0] && ptx[2] && !strcmp(ptx[0], ptx[2]), "part round: the same PTX");
    for (int i = 0; i < 3; i++)
        free(ptx[i]);
    free(il);
}

/* A SPIR-V module with image types, samplers and image builtins: for an image target, PTX that
 * ptxas takes, the read-only 2D reads with a sampler on the texture path (tex.2d); without
 * images, no build. */
static void build_images(void) {
    size_t len = 0;
    unsigned char *il = read_module(CV_IMAGES_SPV, "images", &len);
    if (!il)
        return;
    cvc_target images = cvt_sm90;
    images.images = true;
    cvc_output out = {0};
    cl_int err = cvc_build_il(il, len, NULL, NULL, &images, &out);
    CVT_CHECK(err == CL_SUCCESS, "images: %d\n%s", (int)err, out.log ? out.log : "");
    if (err == CL_SUCCESS) {
        const char *ptx = (const char *)out.data;
        CVT_CHECK(strstr(ptx, ".entry images") &&
                      strstr(ptx, "//cv:arg images 1 private none none sampler_t"),
                  "image kernel and its sampler argument");
        CVT_CHECK(strstr(ptx, "//cv:arg images 0 global read_only none image2d_t"),
                  "image argument: %.300s", strstr(ptx, "//cv:arg"));
        CVT_CHECK(strstr(ptx, "\ttex.2d.v4.f32.f32 ") != NULL, "the texture path");
        CVT_CHECK(cvt_ptxas_at(ptx, "images", 3) == 0, "images: ptxas");
    }
    cvc_output_free(&out);
    cvc_output none = {0};
    err = cvc_build_il(il, len, NULL, NULL, &cvt_sm90, &none);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE, "images without image support: %d", (int)err);
    cvc_output_free(&none);
    free(il);
}

int main(void) {
    spec_constants();
    spec_text();
    ir_rewrite();
    cvt_require_compiler();
    char dir[256];
    cvt_private_cache(dir, sizeof dir);
    build();
    build_float_spec();
    build_images();
    build_part(dir);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
