/* cvc_build / cvc_compile / cvc_link: build options, errors and their logs, -D and -I, headers,
 * compile + link (with -create-library), argument metadata, launch info, register limits, and
 * that no LLVM library enters the process. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

#include <signal.h>

static const char *simple = "__kernel void k(__global int *p) { p[get_global_id(0)] = VALUE; }\n";

static cl_int build(const char *src, const char *options, cvc_output *out) {
    memset(out, 0, sizeof *out);
    return cvc_build(src, strlen(src), options, &cvt_sm90, out);
}

static void test_options(void) {
    static const char *const good[] = {
        "-D VALUE=1",
        "-DVALUE=2",
        "-D VALUE",
        "-DVALUE -cl-std=CL1.0",
        "-DVALUE -cl-std=CL1.1",
        "-DVALUE -cl-std=CL1.2",
        "-DVALUE -cl-std=CL3.0",
        "-DVALUE -cl-opt-disable",
        "-DVALUE -cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations",
        "-DVALUE -cl-finite-math-only -cl-fast-relaxed-math",
        "-DVALUE -cl-denorms-are-zero -cl-single-precision-constant",
        "-DVALUE -cl-fp32-correctly-rounded-divide-sqrt -cl-kernel-arg-info",
        "-DVALUE -cl-uniform-work-group-size -w",
        "-DVALUE -Werror",
        "-DVALUE -cl-nv-maxrregcount=32",
        "-DVALUE -cl-nv-maxrregcount 32",
        "-DVALUE -cl-nv-opt-level=1",
        "-DVALUE -cl-nv-opt-level 0",
        "-DVALUE -cl-nv-verbose",
        "  -DVALUE   -I /tmp  -I/usr/include ",
        "-DVALUE -cl-strict-aliasing",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cvc_output out;
        cl_int err = build(simple, good[i], &out);
        CVT_CHECK(err == CL_SUCCESS, "options '%s': %d, log:\n%s", good[i], err, out.log);
        if (err == CL_SUCCESS)
            CVT_CHECK(cvt_ptxas((const char *)out.data, good[i]) == 0, "'%s'", good[i]);
        cvc_output_free(&out);
    }
    static const char *const bad[] = {
        "-DVALUE -cl-std=CL2.0",
        "-DVALUE -cl-std=CL9.9",
        "-DVALUE -fno-such-option",
        "-DVALUE --cl-fast-relaxed-math",
        "-D",
        "-DVALUE -I",
        "-DVALUE -cl-nv-maxrregcount=",
        "-DVALUE -cl-nv-maxrregcount=abc",
        "-DVALUE -cl-nv-opt-level=9",
        "-DVALUE -cl-nv-opt-level",
        "-DVALUE -create-library",
        "-DVALUE -cl-nv-maxrregcountx=3",
        "-D=3",
        "-DVALUE -O3",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cvc_output out;
        cl_int err = build(simple, bad[i], &out);
        CVT_CHECK(err == CL_INVALID_BUILD_OPTIONS, "options '%s': %d", bad[i], err);
        CVT_CHECK(out.data == NULL && out.size == 0, "no output for '%s'", bad[i]);
        CVT_CHECK(out.log && (strstr(out.log, "invalid build option") ||
                              strstr(out.log, "-create-library")),
                  "log for '%s': %s", bad[i], out.log ? out.log : "(null)");
        cvc_output_free(&out);
    }
    /* The register limit reaches every entry. */
    cvc_output out;
    const char *two = "__kernel void a(__global int *p) { p[0] = 1; }\n"
                      "__kernel void b() { }\n";
    CVT_CHECK(build(two, "-cl-nv-maxrregcount 40", &out) == CL_SUCCESS, "maxrregcount");
    const char *ptx = (const char *)out.data;
    int n = 0;
    for (const char *p = ptx ? strstr(ptx, ".maxnreg 40") : NULL; p;
         p = strstr(p + 1, ".maxnreg 40"))
        n++;
    CVT_CHECK(n == 2, ".maxnreg in both entries: %d\n%s", n, ptx ? ptx : "");
    CVT_CHECK(ptx && cvt_ptxas(ptx, "maxnreg") == 0, "maxnreg ptxas");
    cvc_output_free(&out);
    /* -cl-nv-verbose says something in the log. */
    CVT_CHECK(build(two, "-cl-nv-verbose", &out) == CL_SUCCESS && strstr(out.log, "sm_90"),
              "verbose log: %s", out.log ? out.log : "");
    cvc_output_free(&out);
}

static void test_errors(void) {
    cvc_output out;
    cl_int err = build("__kernel void k(__global int *p) { p[0] = 1 }\n", "", &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE, "syntax error: %d", err);
    CVT_CHECK(out.log && strstr(out.log, "error") && strstr(out.log, "expected ';'"),
              "clang's diagnostic in the log: %s", out.log ? out.log : "(null)");
    CVT_CHECK(out.data == NULL, "no output on failure");
    cvc_output_free(&out);
    /* A function nobody defines fails the build with its name in the log. */
    err = build("int helper(int);\n__kernel void k(__global int *p) { p[0] = helper(1); }\n", "",
                &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && strstr(out.log, "helper"),
              "undefined function: %d, %s", err, out.log ? out.log : "");
    cvc_output_free(&out);
    /* printf of vectors: a format of its own, one conversion per element ("%.1f,%.1f,%.1f,%.1f"
     * and "%#x,%#x" as PTX bytes), elements as arguments. */
    err = build("__kernel void k(__global float4 *p, __global uchar2 *c) {\n"
                "    printf(\"%.1v4hlf|%#v2hhx\\n\", p[0], c[0]);\n}\n",
                "", &out);
    CVT_CHECK(err == CL_SUCCESS && out.data &&
                  strstr((char *)out.data,
                         "37, 46, 49, 102, 44, 37, 46, 49, 102, 44, 37, 46, 49, "
                         "102, 44, 37, 46, 49, 102, 124, 37, 35, 120, 44, 37, 35, "
                         "120, 10, 0}") &&
                  cvt_ptxas((char *)out.data, "vector printf") == 0,
              "vector printf: %d %s", err, out.log ? out.log : "");
    cvc_output_free(&out);
    /* h and hh lengths (which CUDA's vprintf misreads): a format without them ("%d|%x|%o|%d"),
     * the int cut to char or short and widened back (-128, 127, 128 and 70000 as a short, 4464,
     * folded to constants here). */
    err = build("__kernel void k(void) {\n"
                "    printf(\"%hhd|%hhx|%hho|%hd\\n\", -128, 127, -128, 70000);\n}\n",
                "", &out);
    CVT_CHECK(err == CL_SUCCESS && out.data &&
                  strstr((char *)out.data, "{37, 100, 124, 37, 120, 124, 37, 111, 124, 37, 100, "
                                           "10, 0}") &&
                  strstr((char *)out.data, ", 128;") && strstr((char *)out.data, ", 4464;") &&
                  cvt_ptxas((char *)out.data, "narrow printf") == 0,
              "h/hh printf: %d %s", err, out.log ? out.log : "");
    cvc_output_free(&out);
    /* A vector conversion without a vector of that size, or with a format that is not a literal:
     * refused with a message. */
    const char *bad_vectors[] = {
        "__kernel void k(__global int4 *p) { printf(\"%v2hli\\n\", p[0]); }\n",
        ("__kernel void k(__global int2 *p, int c) {\n" /* one source of two lines */
         "    printf(c ? \"%v2hli\\n\" : \"%v2hld\\n\", p[0]);\n}\n"),
        "__kernel void k(__global int2 *p) { printf(\"%v2\", p[0]); }\n"};
    for (int i = 0; i < 3; i++) {
        err = build(bad_vectors[i], "", &out);
        CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && strstr(out.log, "vector"),
                  "bad vector printf %d: %d %s", i, err, out.log ? out.log : "");
        cvc_output_free(&out);
    }
    /* Warnings: kept in the log of a successful build; -Werror makes them fatal. */
    const char *warn = "__kernel void k(__global int *p) { int unused_var; p[0] = 1; }\n"
                       "int f(void) { }\n";
    err = build(warn, "", &out);
    CVT_CHECK(err == CL_SUCCESS && strstr(out.log, "warning"), "warning: %d %s", err, out.log);
    cvc_output_free(&out);
    err = build(warn, "-Werror", &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE, "-Werror: %d", err);
    cvc_output_free(&out);
    err = build(warn, "-w", &out);
    CVT_CHECK(err == CL_SUCCESS && !strstr(out.log, "warning"), "-w: %s", out.log);
    cvc_output_free(&out);
}

/* Programs written for other OpenCL compilers: a plain `inline` function that is not inlined
 * (here: optimization off) is still defined (pyopencl's complex header), and an intrinsic used
 * on __global and __constant pointers is declared once after __constant becomes global. */
static void test_foreign_idioms(void) {
    cvc_output out;
    cl_int err = build("inline float twice(float x) { return 2 * x; }\n"
                       "__kernel void k(__global float *p) { p[0] = twice(p[1]); }\n",
                       "-cl-opt-disable", &out);
    CVT_CHECK(err == CL_SUCCESS, "plain inline function without inlining: %d %s", err,
              out.log ? out.log : "");
    cvc_output_free(&out);
    char ll[] = "declare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1), i64, i1)\n"
                "declare void @llvm.memcpy.p0.p4.i64(ptr, ptr addrspace(4), i64, i1)\n"
                "declare i32 @other(i32)\n";
    cvc_ir_fixups(ll);
    CVT_CHECK(strstr(ll, "\n;eclare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1)") != NULL &&
                  strncmp(ll, "declare void @llvm.memcpy.p0.p1.i64", 35) == 0 &&
                  strstr(ll, "\ndeclare i32 @other") != NULL,
              "one declaration left: %s", ll);
}

static void test_defines_includes(void) {
    char dir[256], path[512];
    cvt_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/cv_test_defs.h", dir);
    FILE *f = fopen(path, "w");
    fputs("#define FROM_HEADER 7\n", f);
    fclose(f);
    const char *src =
        "#include \"cv_test_defs.h\"\n"
        "#if FROM_HEADER != 7 || VALUE != 42 || !defined(FLAG)\n#error wrong\n#endif\n"
        "__kernel void k(__global int *p) { p[0] = VALUE + FROM_HEADER; }\n";
    char options[600];
    snprintf(options, sizeof options, "-I %s -D VALUE=42 -DFLAG", dir);
    cvc_output out;
    cl_int err = build(src, options, &out);
    CVT_CHECK(err == CL_SUCCESS, "-D/-I: %d %s", err, out.log);
    cvc_output_free(&out);
    snprintf(options, sizeof options, "-I%s -D VALUE=41 -DFLAG", dir);
    err = build(src, options, &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && strstr(out.log, "wrong"), "-D value used: %d",
              err);
    cvc_output_free(&out);
    err = build(src, "-D VALUE=42 -DFLAG", &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && strstr(out.log, "cv_test_defs.h"),
              "missing -I: %d", err);
    cvc_output_free(&out);
    /* The length may count the terminating 0: no "null character" warning. */
    const char *z = "__kernel void k(__global int *p) { p[0] = 1; }\n";
    err = cvc_build(z, strlen(z) + 1, "", &cvt_sm90, &out);
    CVT_CHECK(err == CL_SUCCESS && !strstr(out.log, "null character"), "trailing 0: %s", out.log);
    cvc_output_free(&out);
    /* A quoted define with blanks. */
    err =
        build("__kernel void k(__global int *p) { p[0] = VALUE; }\n", "-D \"VALUE=(1 + 2)\"", &out);
    CVT_CHECK(err == CL_SUCCESS, "quoted define: %d %s", err, out.log);
    cvc_output_free(&out);
    /* Many options (a generated configuration): the command line has no fixed length (a fixed
     * 512 arguments would refuse this: "too many build options"); the last define is used. */
    size_t cap = 1000 * 24;
    char *many = malloc(cap), *at = many;
    for (int i = 0; many && i < 1000; i++)
        at += snprintf(at, cap - (size_t)(at - many), "-D CV_MANY_%d=%d ", i, i);
    const char *uses = "__kernel void k(__global int *p) { p[0] = CV_MANY_999 * 3; }\n";
    err = many ? build(uses, many, &out) : CL_OUT_OF_HOST_MEMORY;
    CVT_CHECK(err == CL_SUCCESS && strstr((char *)out.data, "2997"), "1000 defines: %d %s", err,
              out.log ? out.log : "");
    cvc_output_free(&out);
    free(many);
    cvt_rmdir(dir);
}

static void test_metadata(void) {
    const char *src =
        "typedef struct { int a; float b; } pair;\n"
        "__kernel __attribute__((reqd_work_group_size(16, 2, 1))) void first(\n"
        "    __global const float *restrict in, __local int *tmp, __constant pair *c,\n"
        "    pair by_value, unsigned int n, __global volatile uint4 *v) { }\n"
        "__kernel void second(__global char *p) { p[0] = 1; }\n";
    cvc_output out;
    CVT_CHECK(build(src, "", &out) == CL_SUCCESS, "metadata build: %s", out.log);
    const char *ptx = out.data ? (const char *)out.data : "";
    static const char *const want[] = {
        "//cv:arg first 0 global none restrict|const float* in\n",
        "//cv:arg first 1 local none none int* tmp\n",
        "//cv:arg first 2 constant none const pair* c\n",
        "//cv:arg first 3 private none none pair by_value\n",
        "//cv:arg first 4 private none none uint n\n",
        "//cv:arg first 5 global none volatile uint4* v\n",
        "//cv:reqd_work_group_size first 16 2 1\n",
        "//cv:kernel-attributes first reqd_work_group_size(16,2,1)\n",
        "//cv:arg second 0 global none none char* p\n",
        "\n.shared .align 8 .b8 __cv_launch_info[64];",
        ".param .u64 .ptr .shared .align",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CVT_CHECK(strstr(ptx, want[i]) != NULL, "PTX lacks '%s'\n%s", want[i], ptx);
    CVT_CHECK(!strstr(ptx, "//cv:kernel-attributes second"), "no attributes for second");
    CVT_CHECK(cvt_ptxas(ptx, "metadata") == 0, "metadata ptxas");
    cvc_output_free(&out);
}

static void test_compile_link(void) {
    const char *lib_src = "#include \"cv/helper.h\"\n"
                          "int helper(int x) { return x * SCALE; }\n";
    const char *main_src = "#include \"cv/helper.h\"\n"
                           "__kernel void uses(__global int *p) { p[0] = helper(p[1]); }\n";
    cvc_header hdr = {"cv/helper.h", "#define SCALE 3\nint helper(int x);\n", 0};
    cvc_output lib = {0}, obj = {0}, lib2 = {0}, linked = {0};
    cl_int err = cvc_compile(lib_src, strlen(lib_src), "", &hdr, 1, &cvt_sm90, &lib);
    CVT_CHECK(err == CL_SUCCESS && lib.size > 4 && !memcmp(lib.data, "BC", 2), "compile lib: %d %s",
              err, lib.log);
    err = cvc_compile(main_src, strlen(main_src), "-cl-std=CL1.2", &hdr, 1, &cvt_sm90, &obj);
    CVT_CHECK(err == CL_SUCCESS, "compile main: %d %s", err, obj.log);
    /* Without the header the source does not compile. */
    cvc_output fail = {0};
    err = cvc_compile(main_src, strlen(main_src), "", NULL, 0, &cvt_sm90, &fail);
    CVT_CHECK(err == CL_COMPILE_PROGRAM_FAILURE && strstr(fail.log, "helper.h"), "no header: %d",
              err);
    cvc_output_free(&fail);
    bool is_lib = true;
    const cvc_output *both[] = {&obj, &lib};
    err = cvc_link(both, 2, "", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_SUCCESS && !is_lib, "link: %d %s", err, linked.log);
    CVT_CHECK(linked.data && strstr((char *)linked.data, ".entry uses") &&
                  strstr((char *)linked.data, "//cv:arg uses 0 global none none int* p"),
              "linked PTX");
    CVT_CHECK(linked.data && cvt_ptxas((char *)linked.data, "linked") == 0, "linked ptxas");
    cvc_output_free(&linked);
    /* -create-library gives an object again, which links into an executable later. */
    const cvc_output *one[] = {&lib};
    err = cvc_link(one, 1, "-create-library", &cvt_sm90, &is_lib, &lib2);
    /* The library says it is one (bitcode in LLVM's wrapper); a compiled object does not. */
    CVT_CHECK(err == CL_SUCCESS && is_lib && cvc_is_library(lib2.data, lib2.size) &&
                  !memcmp(lib2.data + 20, "BC", 2),
              "library: %d %s", err, lib2.log);
    CVT_CHECK(!cvc_is_library(lib.data, lib.size), "an object is no library");
    const cvc_output *with_lib[] = {&obj, &lib2};
    err = cvc_link(with_lib, 2, "-cl-denorms-are-zero -enable-link-options", &cvt_sm90, &is_lib,
                   &linked);
    CVT_CHECK(err == CL_SUCCESS && !is_lib && linked.data, "link with library: %d %s", err,
              linked.log);
    CVT_CHECK(linked.data && cvt_ptxas((char *)linked.data, "linked2") == 0, "linked2 ptxas");
    cvc_output_free(&linked);
    /* The unresolved helper fails the link, with its name. */
    const cvc_output *alone[] = {&obj};
    err = cvc_link(alone, 1, "", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_LINK_PROGRAM_FAILURE && strstr(linked.log, "helper"), "unresolved: %d %s",
              err, linked.log);
    cvc_output_free(&linked);
    /* Compile options are not link options; garbage is not an object. */
    err = cvc_link(both, 2, "-D X=1", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_INVALID_BUILD_OPTIONS, "-D at link: %d", err);
    cvc_output_free(&linked);
    cvc_output junk = {(unsigned char *)"not bitcode", 11, NULL};
    const cvc_output *bad[] = {&junk};
    err = cvc_link(bad, 1, "", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_LINK_PROGRAM_FAILURE, "junk: %d", err);
    cvc_output_free(&linked);
    cvc_output_free(&lib);
    cvc_output_free(&lib2);
    cvc_output_free(&obj);
}

/* The number of non-overlapping occurrences of s in text. */
static int count_of(const char *text, const char *s) {
    int n = 0;
    for (const char *p = text ? strstr(text, s) : NULL; p; p = strstr(p + strlen(s), s))
        n++;
    return n;
}

/* A kernel calling another kernel as a function (OpenCL C allows it): the call must go to a
 * device function, never to the .entry (ptxas: "Illegal call target, device function
 * expected"), at every optimization level and across clLinkProgram's objects and libraries. */
static void test_kernel_calls(void) {
    const char *src = "__kernel void callee(__global int *a, int v) { a[get_global_id(0)] = v; }\n"
                      "__kernel void caller(__global int *a) { callee(a, 7); a[0] += 1; }\n"
                      "__kernel void outer(__global int *a) { caller(a); }\n";
    static const char *const options[] = {"", "-cl-opt-disable", "-cl-std=CL3.0"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        cvc_output out;
        cl_int err = build(src, options[i], &out);
        const char *ptx = (const char *)out.data;
        CVT_CHECK(err == CL_SUCCESS && cvt_ptxas(ptx, "kernel calls") == 0, "'%s': %d %s",
                  options[i], err, out.log ? out.log : "");
        /* Every kernel stays an entry with its argument lines; the clones have none. */
        CVT_CHECK(count_of(ptx, ".entry ") == 3 && count_of(ptx, "//cv:arg ") == 4,
                  "'%s': entries and //cv:arg lines:\n%s", options[i], ptx ? ptx : "");
        cvc_output_free(&out);
    }
    /* The CTS's two_file_link and multi_file_libraries: a kernel of one object calls a kernel
     * of another object, or of a library. */
    const char *copy = "__kernel void CopyBuffer(__global float *src, __global float *dst) {\n"
                       "    int id = (int)get_global_id(0);\n"
                       "    dst[id] = src[id];\n"
                       "}\n";
    const char *another = "extern __kernel void CopyBuffer(__global float *src,\n"
                          "                                __global float *dst);\n"
                          "__kernel void AnotherCopyBuffer(__global float *src,\n"
                          "                                __global float *dst) {\n"
                          "    CopyBuffer(src, dst);\n"
                          "}\n";
    cvc_output a = {0}, b = {0}, lib = {0}, linked = {0};
    bool is_lib = false;
    CVT_CHECK(cvc_compile(copy, strlen(copy), "", NULL, 0, &cvt_sm90, &a) == CL_SUCCESS &&
                  cvc_compile(another, strlen(another), "", NULL, 0, &cvt_sm90, &b) == CL_SUCCESS,
              "compile: %s %s", a.log, b.log);
    const cvc_output *two[] = {&b, &a}, *one[] = {&a};
    cl_int err = cvc_link(two, 2, "", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_SUCCESS && cvt_ptxas((const char *)linked.data, "two objects") == 0 &&
                  count_of((const char *)linked.data, ".entry ") == 2,
              "two objects: %d %s", err, linked.log);
    cvc_output_free(&linked);
    err = cvc_link(one, 1, "-create-library", &cvt_sm90, &is_lib, &lib);
    const cvc_output *with_lib[] = {&b, &lib};
    err = err ? err : cvc_link(with_lib, 2, "", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_SUCCESS && cvt_ptxas((const char *)linked.data, "with library") == 0,
              "object and library: %d %s", err, linked.log);
    cvc_output_free(&linked);
    /* A kernel nobody defines is still an error, with its name. */
    const cvc_output *alone[] = {&b};
    err = cvc_link(alone, 1, "", &cvt_sm90, &is_lib, &linked);
    CVT_CHECK(err == CL_LINK_PROGRAM_FAILURE && strstr(linked.log, "'CopyBuffer'"),
              "undefined kernel: %d %s", err, linked.log);
    cvc_output_free(&linked);
    cvc_output_free(&a);
    cvc_output_free(&b);
    cvc_output_free(&lib);
}

/* -cl-fast-relaxed-math puts sin on sin.approx (libdevice's __nv_fast_sinf); without it, sin is
 * the accurate one. */
static void test_relaxed_math(void) {
    if (!cvc_get_tools()->libdevice[0]) {
        printf("no libdevice: relaxed math not checked\n");
        return;
    }
    const char *src = "__kernel void k(__global float *p) { p[0] = sin(p[1]) + exp(p[2]); }\n";
    cvc_output out;
    CVT_CHECK(build(src, "-cl-fast-relaxed-math", &out) == CL_SUCCESS, "relaxed build");
    CVT_CHECK(out.data && strstr((char *)out.data, "sin.approx.f32"), "sin.approx with fast math");
    CVT_CHECK(out.data && cvt_ptxas((char *)out.data, "relaxed") == 0, "relaxed ptxas");
    cvc_output_free(&out);
    CVT_CHECK(build(src, "", &out) == CL_SUCCESS, "accurate build");
    CVT_CHECK(out.data && !strstr((char *)out.data, "sin.approx.f32"), "no sin.approx by default");
    cvc_output_free(&out);
}

/* An application that ignores SIGCHLD (its children are reaped without a status) still gets
 * successes and failures right. Last: the disposition stays. */
static void test_sigchld_ignored(void) {
    signal(SIGCHLD, SIG_IGN);
    cvc_output out;
    CVT_CHECK(build("__kernel void k(__global int *p) { p[0] = 1; }\n", "", &out) == CL_SUCCESS &&
                  out.size > 0,
              "build with SIGCHLD ignored");
    cvc_output_free(&out);
    CVT_CHECK(build("__kernel void k(__global int *p) { p[0] = 1 }\n", "", &out) ==
                  CL_BUILD_PROGRAM_FAILURE,
              "failure with SIGCHLD ignored");
    cvc_output_free(&out);
}

/* LLVM runs in child processes: nothing of it is mapped into this process. */
static void test_isolation(void) {
    char *maps = cvt_read("/proc/self/maps");
    CVT_CHECK(maps != NULL, "read maps");
    if (maps) {
        CVT_CHECK(!strstr(maps, "libLLVM") && !strstr(maps, "libclang"), "LLVM loaded in process");
        free(maps);
    }
}

/* __opencl_c_work_group_collective_functions (clang 16 only declares the functions where the
 * macro is defined): a feature macro of OpenCL C 3.0, absent from 1.2 programs, and usable
 * through clCompileProgram + clLinkProgram too. */
static void test_work_group_feature(void) {
    const char *src = "#ifdef __opencl_c_work_group_collective_functions\n"
                      "__kernel void k(__global int *p) { p[0] = work_group_reduce_add(p[1]); }\n"
                      "#else\n"
                      "__kernel void k(__global int *p) { p[0] = -1; }\n"
                      "#endif\n";
    cvc_output out;
    CVT_CHECK(build(src, "-cl-std=CL3.0", &out) == CL_SUCCESS &&
                  strstr((const char *)out.data, "bar.sync") != NULL,
              "CL3.0: %s", out.log ? out.log : "");
    cvc_output_free(&out);
    CVT_CHECK(build(src, "-cl-std=CL1.2", &out) == CL_SUCCESS &&
                  strstr((const char *)out.data, "bar.sync") == NULL,
              "CL1.2: %s", out.log ? out.log : "");
    cvc_output_free(&out);
    cvc_output obj = {0}, linked = {0};
    cl_int err = cvc_compile(src, strlen(src), "-cl-std=CL3.0", NULL, 0, &cvt_sm90, &obj);
    CVT_CHECK(err == CL_SUCCESS, "compile: %d %s", err, obj.log ? obj.log : "");
    if (err == CL_SUCCESS) {
        const cvc_output *objs[] = {&obj};
        bool is_lib = true;
        err = cvc_link(objs, 1, "", &cvt_sm90, &is_lib, &linked);
        CVT_CHECK(err == CL_SUCCESS && strstr((const char *)linked.data, "bar.sync") != NULL,
                  "link: %d %s", err, linked.log ? linked.log : "");
    }
    cvc_output_free(&obj);
    cvc_output_free(&linked);
}

/* __opencl_c_generic_address_space: the macro of OpenCL C 3.0 programs (to_global and the
 * generic atomics link), not of 1.2 ones, whose named-pointer builtins are unchanged. */
static void test_generic_feature(void) {
    const char *src = "#ifdef __opencl_c_generic_address_space\n"
                      "__kernel void k(__global int *p, __local int *l) {\n"
                      "    int *g = p[1] ? (int *)p : (int *)l;\n"
                      "    p[0] = to_global(g) != 0;\n"
                      "    atomic_fetch_add_explicit((atomic_int *)g, 1, memory_order_acq_rel);\n"
                      "}\n"
                      "#else\n"
                      "__kernel void k(__global int *p) { p[0] = -1; }\n"
                      "#endif\n";
    cvc_output out;
    CVT_CHECK(build(src, "-cl-std=CL3.0", &out) == CL_SUCCESS &&
                  strstr((const char *)out.data, "isspacep.global") != NULL &&
                  strstr((const char *)out.data, "atom.acq_rel.gpu.add.u32") != NULL,
              "CL3.0: %s", out.log ? out.log : "");
    cvc_output_free(&out);
    CVT_CHECK(build(src, "-cl-std=CL1.2", &out) == CL_SUCCESS &&
                  strstr((const char *)out.data, "isspacep") == NULL,
              "CL1.2: %s", out.log ? out.log : "");
    cvc_output_free(&out);
    /* One generic pointer cast to global and to local memory in one basic block: LLVM 16's
     * NVPTX back end made both one cvta.to.shared (cvc_ir_split_casts). */
    const char *casts = "__attribute__((noinline)) long both(int *p) {\n"
                        "    return (long)(__global int *)p + (long)(__local int *)p;\n"
                        "}\n"
                        "__kernel void k(__global long *o, __local int *l) {\n"
                        "    o[0] = both(o[1] ? (int *)o : (int *)l);\n"
                        "}\n";
    CVT_CHECK(build(casts, "-cl-std=CL3.0", &out) == CL_SUCCESS, "casts: %s",
              out.log ? out.log : "");
    const char *f = out.data ? strstr((const char *)out.data, "both(") : NULL;
    const char *end = f ? strstr(f, "\n}") : NULL;
    const char *g = f ? strstr(f, "cvta.to.global.u64") : NULL;
    const char *sh = f ? strstr(f, "cvta.to.shared.u64") : NULL;
    CVT_CHECK(end && g && sh && g < end && sh < end, "both casts in both(): %s",
              out.data ? (const char *)out.data : "");
    cvc_output_free(&out);
    /* The CTS's compare_pointers: NULL of a named space converted to the generic space is NULL
     * (NVPTX makes shared address 0 the shared window's generic base), and a comparison of a
     * global with a local pointer through the generic space made llc abort ("Cannot cast
     * between two non-generic address spaces"). */
    const char *nulls = "__kernel void k(__global uint *r) {\n"
                        "    int *ptr = NULL;\n"
                        "    __local int *lptr = NULL;\n"
                        "    __global int *gptr = NULL;\n"
                        "    r[0] = (ptr == lptr);\n"
                        "    ptr = lptr;\n"
                        "    r[1] = (gptr == ptr) && (lptr == ptr);\n"
                        "}\n";
    CVT_CHECK(build(nulls, "-cl-std=CL3.0", &out) == CL_SUCCESS &&
                  cvt_ptxas((const char *)out.data, "nulls") == 0,
              "null casts: %s", out.log ? out.log : "");
    /* Both comparisons are true at compile time: no conversion of the shared address 0. */
    CVT_CHECK(out.data && !strstr((const char *)out.data, "cvta") &&
                  count_of((const char *)out.data, "st.global.u32") == 2,
              "null casts folded:\n%s", out.data ? (const char *)out.data : "");
    cvc_output_free(&out);
    const char *named = "__kernel void k1(__global uint *r, __global int *g) {\n"
                        "    __local int x;\n"
                        "    x = 1;\n"
                        "    int *p = &x;\n"
                        "    r[0] = (g == p);\n"
                        "}\n"
                        "__kernel void k2(__global uint *r, __global int *g, __local int *l) {\n"
                        "    int *p = l;\n"
                        "    r[0] = (g == (__global int *)p);\n"
                        "    r[1] = (l == (__local int *)(int *)g);\n"
                        "}\n";
    static const char *const levels[] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"};
    for (size_t i = 0; i < 2; i++) {
        CVT_CHECK(build(named, levels[i], &out) == CL_SUCCESS &&
                      cvt_ptxas((const char *)out.data, "named casts") == 0,
                  "casts between named spaces '%s': %s", levels[i], out.log ? out.log : "");
        cvc_output_free(&out);
    }
}

/* cl_ext_float_atomics: float add on global memory and through generic pointers is a loop of
 * compare-and-swap (PTX's atom.global.add.f32 flushes subnormals, and float keeps them: the CTS's
 * c11_atomics); on local memory atom.shared.add.f32 (which keeps them); double stays atom.add.f64.
 */
static void test_float_atomic_add(void) {
    static const struct {
        const char *param, *decl, *want, *unwanted;
    } cases[] = {
        {"__global", "__global atomic_float *a = pa;", "atom.global.cas.b32",
         "atom.global.add.f32"},
        /* generic: global or local memory, chosen when the kernel runs */
        {"__global",
         "__local atomic_float la;\n"
         "    atomic_float *a = out[2] > 0 ? (atomic_float *)pa : (atomic_float *)&la;",
         "atom.cas.b32", "atom.add.f32"},
        {"__local", "__local atomic_float *a = pa;", "atom.shared.add.f32", "cas.b32"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[640];
        snprintf(src, sizeof src,
                 "__kernel void k(__global float *out, __global atomic_double *d, %s atomic_float "
                 "*pa) {\n"
                 "    %s\n"
                 "    out[0] = atomic_fetch_add_explicit(a, out[1], memory_order_relaxed,\n"
                 "                                       memory_scope_work_group);\n"
                 "    atomic_fetch_sub(d, 1.0);\n"
                 "}\n",
                 cases[i].param, cases[i].decl);
        cvc_output out;
        cl_int err = build(src, "-cl-std=CL3.0", &out);
        const char *ptx = out.data ? (const char *)out.data : "";
        CVT_CHECK(err == CL_SUCCESS && strstr(ptx, cases[i].want) &&
                      !strstr(ptx, cases[i].unwanted) && strstr(ptx, ".add.f64"),
                  "float atomic add, case %zu: %s%s", i, out.log ? out.log : "", ptx);
        cvc_output_free(&out);
    }
}

/* __OPENCL_VERSION__ is the device's OpenCL version, 300, whatever -cl-std says (clang defines
 * only __OPENCL_C_VERSION__; the CTS's basic kernel_preprocessor_macros checks both). */
static void test_version_macros(void) {
    static const struct {
        const char *std;
        int c_version;
    } cases[] = {{"-cl-std=CL1.2", 120}, {"-cl-std=CL3.0", 300}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[320];
        snprintf(src, sizeof src,
                 "#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != 300\n"
                 "#error __OPENCL_VERSION__\n"
                 "#endif\n"
                 "#if __OPENCL_C_VERSION__ != %d\n"
                 "#error __OPENCL_C_VERSION__\n"
                 "#endif\n"
                 "__kernel void k(__global int *p) { p[0] = __OPENCL_VERSION__; }\n",
                 cases[i].c_version);
        cvc_output out;
        CVT_CHECK(build(src, cases[i].std, &out) == CL_SUCCESS, "%s: %s", cases[i].std,
                  out.log ? out.log : "");
        cvc_output_free(&out);
    }
}

int main(void) {
    cvt_require_compiler();
    char cache[256];
    cvt_private_cache(cache, sizeof cache);
    setenv("CULVERT_CACHE", "0", 1); /* every case compiles for real */
    test_options();
    test_errors();
    test_foreign_idioms();
    test_work_group_feature();
    test_generic_feature();
    test_float_atomic_add();
    test_version_macros();
    test_defines_includes();
    test_metadata();
    test_compile_link();
    test_kernel_calls();
    test_relaxed_math();
    test_isolation();
    test_sigchld_ignored();
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
