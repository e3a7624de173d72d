/* A corpus kernel (a file of tests/kernels-cl or bench/kernels; CMake adds one test per file)
 * compiles through cvc_build to PTX that ptxas accepts for sm_90, and contains what its
 * "// expect:" lines name; the loader's rewrite with the timed twins of every kernel assembles
 * too. A file's "// options:" line gives its build options. No load writes a floating-point
 * register of another width than it reads (ptxas takes ld.v4.b16 into f32 registers, which puts
 * the raw bits there instead of the converted value: LLVM 16 made that of a half vector's fpext).
 *   usage: compiler_corpus FILE.cl... */
#include "compiler_util.h"

#include "core/ptx.h"
#include "core/ptx_timing.h"

#include <ctype.h>

/* The first load of `ptx` that writes an f32 register (%f) with other than 32 bits or an f64
 * register (%fd) with other than 64, as its line (into line[size]); false when there is none. */
static bool bad_float_load(const char *ptx, char *line, size_t size) {
    for (const char *l = ptx; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        const char *p = l;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "ld.", 3))
            continue;
        const char *end = p;
        while (*end && !isspace((unsigned char)*end))
            end++;
        const char *dot = end;
        while (dot > p && dot[-1] != '.')
            dot--;
        int bits = atoi(dot + 1); /* the type's width: b16, f32, u64... */
        const char *reg = strchr(end, '%');
        const char *eol = strchr(end, '\n');
        if (!reg || (eol && reg > eol) || reg[1] != 'f')
            continue;
        int want = reg[2] == 'd' ? 64 : 32;
        if (bits != want) {
            size_t n = eol ? (size_t)(eol - l) : strlen(l);
            snprintf(line, size, "%.*s", (int)(n < size ? n : size - 1), l);
            return true;
        }
    }
    return false;
}

/* Whether the launch block must be copied into shared memory (docs/kernel-abi.md): a `.func`
 * reads it, or its address is taken (a use not inside brackets). */
static bool launch_info_needs_copy(const char *ptx) {
    static const char name[] = "__cv_launch_info";
    for (const char *f = strstr(ptx, ".func"); f; f = strstr(f + 1, ".func")) {
        const char *end = strstr(f, "\n}\n");
        const char *use = strstr(f, name);
        if (use && (!end || use < end))
            return true;
    }
    for (const char *u = strstr(ptx, name); u; u = strstr(u + 1, name)) {
        const char *line = u;
        while (line > ptx && line[-1] != '\n')
            line--;
        if (u[-1] != '[' && strncmp(line, ".shared", 7) != 0)
            return true;
    }
    return false;
}

/* The loader's rewrite and the timed twins of profiling queues (docs/kernel-abi.md): every
 * kernel of culvert's compiler gets one, and the result is valid PTX (ptxas -O0). Where only
 * entries read the launch block at constant offsets, the rewrite reads it as parameters, with
 * no per-thread copy into shared memory (a scalar or vector load alike: a missed form costs 2D
 * kernels a third of their speed on the H100). */
static void check_timed(const char *ptx, const char *name) {
    cv_ptx_module m;
    size_t len = 0, timed_len = 0;
    CVT_CHECK(cv_ptx_parse(ptx, strlen(ptx), &m, NULL, 0) == CL_SUCCESS, "%s: parse", name);
    char *text = cv_ptx_rewrite(ptx, strlen(ptx), &m, &len);
    if (text && !launch_info_needs_copy(ptx))
        CVT_CHECK(strstr(text, "st.shared.b64 [__cv_launch_info") == NULL,
                  "%s: the launch block copied into shared memory", name);
    cv_ptx_timing_stats st = {0};
    char *timed = text ? cv_ptx_add_timing(text, len, CV_PTX_TIMING_BESIDE, &timed_len, &st) : NULL;
    CVT_CHECK(timed != NULL, "%s: twins", name);
    CVT_CHECK(st.twins == m.num_kernels && m.num_kernels > 0, "%s: %u twins for %u kernels (%s)",
              name, st.twins, m.num_kernels, st.module_refused ? st.module_refused : "");
    if (timed)
        CVT_CHECK(cvt_ptxas_at(timed, name, 0) == 0, "%s: ptxas on the timed twins", name);
    free(st.timed);
    free(timed);
    free(text);
    cv_ptx_free(&m);
}

static void check_file(const char *path) {
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *src = cvt_read(path);
    CVT_CHECK(src != NULL, "read %s", path);
    if (!src)
        return;
    char options[512] = "";
    const char *o = strstr(src, "// options:");
    if (o)
        sscanf(o + 11, " %511[^\n]", options);
    /* With the optimizer off, and with relaxed math and flushed denormals (other libraries and
     * code paths), the PTX must be valid (ptxas -O0); with the kernel's own options it must also
     * pass ptxas -O3 as the driver runs it. */
    static const char *const extra[] = {"-cl-opt-disable",
                                        "-cl-fast-relaxed-math -cl-denorms-are-zero"};
    for (size_t x = 0; x < sizeof extra / sizeof extra[0]; x++) {
        char more[1024];
        snprintf(more, sizeof more, "%s %s", options, extra[x]);
        cvc_output alt = {0};
        cl_int xerr = cvc_build(src, strlen(src), more, &cvt_sm90, &alt);
        CVT_CHECK(xerr == CL_SUCCESS, "%s with '%s': %d\n%s", name, more, xerr,
                  alt.log ? alt.log : "");
        char load[256];
        if (xerr == CL_SUCCESS) {
            CVT_CHECK(cvt_ptxas_at((char *)alt.data, more, 0) == 0, "%s: ptxas with '%s'", name,
                      more);
            CVT_CHECK(!bad_float_load((char *)alt.data, load, sizeof load),
                      "%s with '%s': a load into a float register of another width: %s", name, more,
                      load);
        }
        cvc_output_free(&alt);
    }
    cvc_output out = {0};
    cl_int err = cvc_build(src, strlen(src), options, &cvt_sm90, &out);
    CVT_CHECK(err == CL_SUCCESS, "%s: build error %d, log:\n%s", name, err, out.log ? out.log : "");
    if (err == CL_SUCCESS) {
        const char *ptx = (const char *)out.data;
        CVT_CHECK(strlen(ptx) == out.size, "%s: size", name);
        CVT_CHECK(strstr(ptx, "\n.shared .align 8 .b8 __cv_launch_info[64];") != NULL,
                  "%s: no launch info block", name);
        for (const char *x = strstr(src, "// expect:"); x; x = strstr(x + 1, "// expect:")) {
            char want[512];
            if (sscanf(x + 10, " %511[^\n]", want) == 1)
                CVT_CHECK(strstr(ptx, want) != NULL, "%s: PTX lacks '%s'", name, want);
        }
        CVT_CHECK(cvt_ptxas(ptx, name) == 0, "%s: ptxas", name);
        char load[256];
        CVT_CHECK(!bad_float_load(ptx, load, sizeof load),
                  "%s: a load into a float register of another width: %s", name, load);
        check_timed(ptx, name);
    }
    printf("%-24s %s\n", name, err == CL_SUCCESS ? "ok" : "FAILED");
    cvc_output_free(&out);
    free(src);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.cl...\n", argv[0]);
        return 2;
    }
    cvt_require_compiler();
    char cache[256];
    cvt_private_cache(cache, sizeof cache);
    for (int i = 1; i < argc; i++)
        check_file(argv[i]);
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
