/* Linking only the part of the libraries a source names (cvc_link_plan.c): the PTX is byte for
 * byte what the whole libraries give, the part is extracted once and then used, a call the scan
 * cannot see (a name made by macro pasting) still builds, and a damaged part never fails a build.
 */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

/* clamp and convert_int_rte named in the source; vload4 only through macro pasting. */
static const char *named = "__kernel void k(__global float *p, __global int *q) {\n"
                           "    size_t i = get_global_id(0);\n"
                           "    p[i] = clamp(p[i], 0.0f, 1.0f);\n"
                           "    q[i] = convert_int_rte(p[i] * 3.5f);\n"
                           "}\n";
/* half through the build options only, and half only through macro pasting (the scan cannot see
 * it: the build is done again with culvert's half builtins). */
static const char *half_by_option = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                                    "__kernel void k(__global REAL *p) {\n"
                                    "    p[get_global_id(0)] = sin(p[0]) + (REAL)1;\n"
                                    "}\n";
static const char *half_pasted = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                                 "#define H(x) x##alf\n"
                                 "__kernel void k(__global H(h) *p) {\n"
                                 "    p[get_global_id(0)] = cos(p[0]);\n"
                                 "}\n";
/* The generic address space (OpenCL C 3.0): clang calls to_global, to_local and to_private as
 * the unmangled __to_global, __to_local, __to_private, which the scan must still find. */
static const char *generic = "__kernel void k(__global float *p, __local float *l) {\n"
                             "    float *g = get_global_id(0) ? (float *)p : (float *)l;\n"
                             "    __global float *q = to_global(g);\n"
                             "    __local float *m = to_local(g);\n"
                             "    float *r = to_private(g);\n"
                             "    p[0] = fract(p[1], g) + (q != 0) + (m != 0) + (r != 0);\n"
                             "    p[2] = get_fence(g);\n"
                             "    atomic_fetch_add((atomic_int *)g, 1);\n"
                             "}\n";
static const char *pasted = "#define LOAD(n) vload##n\n"
                            "__kernel void k(__global float *p) {\n"
                            "    float4 v = LOAD(4)(0, p + 4);\n"
                            "    p[get_global_id(0)] = v.x + v.w;\n"
                            "}\n";

/* The source built with a fresh define (so never a cache hit): its PTX without the //cv: lines,
 * which name nothing that differs. NULL when the build fails. */
static const char *extra_options = "";

static char *ptx_of(const char *source, int round) {
    char options[128];
    snprintf(options, sizeof options, "-DROUND=%d %s", round, extra_options);
    cvc_output out = {0};
    cl_int err = cvc_build(source, strlen(source), options, &cvt_sm90, &out);
    char *text = err == CL_SUCCESS && out.data ? strdup((char *)out.data) : NULL;
    if (err != CL_SUCCESS)
        fprintf(stderr, "build failed: %s\n", out.log ? out.log : "");
    CVT_CHECK(!out.log || !strstr(out.log, "is called but"), "no undefined function in: %s",
              out.log);
    cvc_output_free(&out);
    return text;
}

/* The library parts (libpart-*.bc) in dir, and the path of one. */
static int parts(const char *dir, char *last, size_t size) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (!strncmp(e->d_name, "libpart-", 8) && len > 3 && !strcmp(e->d_name + len - 3, ".bc")) {
            n++;
            snprintf(last, size, "%s/%s", dir, e->d_name);
        }
    }
    if (d)
        closedir(d);
    return n;
}

/* The sets marked for the whole libraries (a call the scan missed) in dir. */
static int whole_marks(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int marks = 0;
    while (d && (e = readdir(d)) != NULL)
        marks += strstr(e->d_name, ".whole") != NULL;
    if (d)
        closedir(d);
    return marks;
}

static void same_as_whole(const char *source, const char *what) {
    setenv("CULVERT_CACHE", "0", 1);
    char *whole = ptx_of(source, 0);
    unsetenv("CULVERT_CACHE");
    CVT_CHECK(whole != NULL, "%s: build with the whole libraries", what);
    for (int round = 1; round <= 3; round++) {
        char *ptx = ptx_of(source, round);
        CVT_CHECK(ptx && whole && !strcmp(ptx, whole), "%s: round %d gives the same PTX", what,
                  round);
        free(ptx);
    }
    free(whole);
}

int main(void) {
    cvt_require_compiler();
    char dir[256], part[600] = "";
    cvt_private_cache(dir, sizeof dir);
    if (!cvc_get_tools()->llvm_nm[0]) {
        fprintf(stderr, "SKIP: no llvm-nm: the libraries are always linked whole\n");
        return 77;
    }

    /* The first build extracts the part, the next ones link it: the same PTX throughout. */
    same_as_whole(named, "named builtins");
    CVT_CHECK(parts(dir, part, sizeof part) == 1, "one part extracted: %d",
              parts(dir, part, sizeof part));

    /* vload4 is invisible to the scan: the part lacks it, the build is redone whole. */
    same_as_whole(pasted, "macro-pasted builtin");
    CVT_CHECK(whole_marks(dir) == 1, "the missed set is marked for the whole libraries: %d",
              whole_marks(dir));

    /* Every function of the generic source is in its part: no second, whole build. */
    extra_options = "-cl-std=CL3.0";
    same_as_whole(generic, "generic address space");
    extra_options = "";
    CVT_CHECK(whole_marks(dir) == 1, "the generic source's set is not marked: %d marks",
              whole_marks(dir));

    /* culvert's half builtins are linked only for sources that name half: through the options,
     * or found missing and linked in a second build. */
    extra_options = "-DREAL=half";
    same_as_whole(half_by_option, "half named in the options");
    extra_options = "";
    same_as_whole(half_pasted, "half made by macro pasting");

    /* A relaxed-math build and an accurate one name the same functions: each has its own part
     * (the CTS's math_brute_force builds the relaxed programs first; an accurate build that took
     * the relaxed part ran sin on sin.approx, 4 ulp off). */
    static const char *trig = "__kernel void k(__global float *p) { p[0] = sin(p[1]); }\n";
    extra_options = "-cl-fast-relaxed-math";
    char *relaxed = ptx_of(trig, 0);
    extra_options = "";
    char *accurate = ptx_of(trig, 0);
    if (cvc_get_tools()->libdevice[0])
        CVT_CHECK(relaxed && strstr(relaxed, "sin.approx.f32"), "relaxed: sin.approx");
    CVT_CHECK(accurate && !strstr(accurate, "sin.approx.f32"),
              "accurate after relaxed: no sin.approx");
    free(relaxed);
    free(accurate);
    same_as_whole(trig, "accurate sin after a relaxed build");

    /* A damaged part (cut to a few bytes) is no library: the build falls back to the whole. */
    FILE *f = fopen(part, "r+b");
    CVT_CHECK(f != NULL, "open %s", part);
    if (f) {
        CVT_CHECK(ftruncate(fileno(f), 16) == 0, "truncate the part");
        fclose(f);
    }
    same_as_whole(named, "damaged part");

    cvt_rmdir(dir);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
