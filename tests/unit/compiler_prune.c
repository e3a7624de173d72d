/* A build's functions that no kernel reaches (cvc_ir_prune, src/compiler/cvc_ir_prune.c): the
 * rewrite of a module's text (what goes, what turns internal, what stays as it is; the result
 * still parses), and builds of sources that take the two-step path (an `inline` helper, an
 * included header): the unused functions leave no trace in the PTX, which ptxas takes; sources
 * that fail there fail as they would in one step. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

static const char module_ll[] = "@table = global ptr @from_global\n"
                                "define dso_local i32 @used(i32 %x) {\n"
                                "  %r = call i32 @deep(i32 %x)\n"
                                "  ret i32 %r\n"
                                "}\n"
                                "define dso_local i32 @deep(i32 %x) {\n"
                                "  ret i32 %x\n"
                                "}\n"
                                "define dso_local i32 @dead(i32 %x) {\n"
                                "  %r = call i32 @dead_only(i32 %x)\n"
                                "  ret i32 %r\n"
                                "}\n"
                                "define dso_local i32 @dead_only(i32 %x) {\n"
                                "  ret i32 %x\n"
                                "}\n"
                                "define dso_local i32 @from_global() {\n"
                                "  ret i32 1\n"
                                "}\n"
                                "define internal i32 @unused_internal(i32 %x) {\n"
                                "  ret i32 %x\n"
                                "}\n"
                                "define linkonce_odr i32 @odr() {\n"
                                "  ret i32 2\n"
                                "}\n"
                                "define hidden i32 @hidden_fn() {\n"
                                "  ret i32 3\n"
                                "}\n"
                                "define dso_local spir_kernel void @k(ptr addrspace(1) %p) {\n"
                                "  %a = call i32 @used(i32 1)\n"
                                "  %b = call i32 @odr()\n"
                                "  %c = call i32 @hidden_fn()\n"
                                "  %d = call i32 @ext(i32 %a)\n"
                                "  store i32 %d, ptr addrspace(1) %p\n"
                                "  ret void\n"
                                "}\n"
                                "define dso_local spir_kernel void @k2() {\n"
                                "  ret void\n"
                                "}\n"
                                "declare i32 @ext(i32)\n";

static void rewrite(void) {
    char *out = cvc_ir_prune(module_ll);
    CVT_CHECK(out != NULL, "nothing pruned");
    if (!out)
        return;
    static const char *const present[] = {"define internal i32 @used(",
                                          "define internal i32 @deep(",
                                          "define internal i32 @from_global(",
                                          "define linkonce_odr i32 @odr(",
                                          "define hidden i32 @hidden_fn(",
                                          "define dso_local spir_kernel void @k(",
                                          "define dso_local spir_kernel void @k2(",
                                          "declare i32 @ext(i32)",
                                          "@table = global ptr @from_global"};
    for (size_t i = 0; i < sizeof present / sizeof *present; i++)
        CVT_CHECK(strstr(out, present[i]), "missing: %s\n%s", present[i], out);
    static const char *const absent[] = {"@dead(", "@dead_only(", "@unused_internal("};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        CVT_CHECK(!strstr(out, absent[i]), "still there: %s\n%s", absent[i], out);
    /* The result is a module LLVM reads (llvm-link parses and verifies it). */
    char dir[4096], in[4200], res[4200];
    cvt_tempdir(dir, sizeof dir);
    snprintf(in, sizeof in, "%s/pruned.ll", dir);
    snprintf(res, sizeof res, "%s/out.bc", dir);
    CVT_CHECK(cvt_write(in, out), "cannot write %s", in);
    const cvc_tools *t = cvc_get_tools();
    char *argv[] = {(char *)t->llvm_link, in, "-o", res, NULL};
    cvc_buf log = {0};
    int rc = t->llvm_link[0] ? cvc_run(argv, &log) : 0;
    CVT_CHECK(rc == 0, "llvm-link: %d\n%s", rc, log.data ? log.data : "");
    free(log.data);
    cvt_rmdir(dir);
    free(out);

    /* Nothing to drop or change: NULL. A name LLVM quotes: left alone. */
    CVT_CHECK(!cvc_ir_prune("define dso_local spir_kernel void @k() {\n  ret void\n}\n"),
              "a module of one kernel changed");
    CVT_CHECK(!cvc_ir_prune("define dso_local i32 @\"odd name\"() {\n  ret i32 0\n}\n"),
              "a quoted name was pruned");
}

/* Sources built through the two steps: unused helpers leave nothing in the PTX. */
static void builds(void) {
    char dir[4096], header[4200], opts[4300];
    cvt_tempdir(dir, sizeof dir);
    snprintf(header, sizeof header, "%s/helpers.h", dir);
    CVT_CHECK(cvt_write(header, "float helper_used(float x) { return x * 3.0f; }\n"
                                "float helper_unused(float x) { return pow(sin(x), cos(x)) + "
                                "exp(x); }\n"),
              "cannot write %s", header);
    snprintf(opts, sizeof opts, "-I %s", dir);
    static const char *const sources[] = {
        "inline float twice(float x) { return 2.0f * x; }\n"
        "inline float never(float x) { return lgamma(x) * tgamma(x) + erf(x); }\n"
        "kernel void k(global float *p) { p[get_global_id(0)] = twice(p[0]); }\n",
        "#include \"helpers.h\"\n"
        "kernel void k(global float *p) { p[get_global_id(0)] = helper_used(p[0]); }\n"};
    static const char *const gone[] = {"never", "helper_unused"};
    for (size_t i = 0; i < 2; i++) {
        cvc_output out;
        cl_int err = cvc_build(sources[i], strlen(sources[i]), opts, &cvt_sm90, &out);
        CVT_CHECK(err == CL_SUCCESS, "build %zu: %d\n%s", i, err, out.log ? out.log : "");
        if (err == CL_SUCCESS) {
            const char *ptx = (const char *)out.data;
            CVT_CHECK(strstr(ptx, ".entry k(") != NULL, "no kernel in\n%s", ptx);
            CVT_CHECK(!strstr(ptx, gone[i]), "%s is in the PTX", gone[i]);
            CVT_CHECK(!strstr(ptx, ".func"), "a function is left:\n%s", ptx);
            CVT_CHECK(cvt_ptxas(ptx, gone[i]) == 0, "ptxas refused build %zu", i);
        }
        cvc_output_free(&out);
    }
    cvt_rmdir(dir);
}

/* What goes wrong in the two steps is said as in one: CL_BUILD_PROGRAM_FAILURE and the words of
 * the step that failed (clang's front end, the check of undefined functions). */
static void failures(void) {
    static const struct {
        const char *source, *said;
    } bad[] = {
        {"inline int f(int x) { return x +; }\n"
         "kernel void k(global int *p) { p[0] = f(1); }\n",
         "expected expression"},
        {"#include \"no-such-header.h\"\nkernel void k(global int *p) { p[0] = 1; }\n",
         "no-such-header.h"},
        {"int g(int);\ninline int f(int x) { return g(x); }\n"
         "kernel void k(global int *p) { p[0] = f(1); }\n",
         "'g'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cvc_output out;
        cl_int err = cvc_build(bad[i].source, strlen(bad[i].source), "", &cvt_sm90, &out);
        CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE, "bad source %zu: %d", i, err);
        CVT_CHECK(out.log && strstr(out.log, bad[i].said), "bad source %zu, log:\n%s", i,
                  out.log ? out.log : "(none)");
        cvc_output_free(&out);
    }
}

int main(void) {
    rewrite();
    cvt_require_compiler();
    char cache[256];
    cvt_private_cache(cache, sizeof cache);
    builds();
    failures();
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
