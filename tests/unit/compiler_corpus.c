/* Every kernel of tests/kernels-cl and bench/kernels compiles through cvc_build to PTX that
 * ptxas accepts for sm_90, and contains what its "// expect:" lines name. A file's
 * "// options:" line gives its build options. No load writes a floating-point register of
 * another width than it reads (ptxas takes ld.v4.b16 into f32 registers, which puts the raw
 * bits there instead of the converted value: LLVM 16 made that of a half vector's fpext). */
#include "compiler_util.h"

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

static void check_dir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    CVT_CHECK(d != NULL, "cannot open %s", dir);
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".cl"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *src = cvt_read(path);
        CVT_CHECK(src != NULL, "read %s", path);
        if (!src)
            continue;
        char options[512] = "";
        const char *o = strstr(src, "// options:");
        if (o)
            sscanf(o + 11, " %511[^\n]", options);
        /* The kernel's own options; then with the optimizer off, and with relaxed math and
         * flushed denormals (other libraries and code paths): all must assemble. */
        static const char *const extra[] = {"-cl-opt-disable",
                                            "-cl-fast-relaxed-math -cl-denorms-are-zero"};
        for (size_t x = 0; x < sizeof extra / sizeof extra[0]; x++) {
            char more[1024];
            snprintf(more, sizeof more, "%s %s", options, extra[x]);
            cvc_output alt = {0};
            cl_int xerr = cvc_build(src, strlen(src), more, &cvt_sm90, &alt);
            CVT_CHECK(xerr == CL_SUCCESS, "%s with '%s': %d\n%s", e->d_name, more, xerr,
                      alt.log ? alt.log : "");
            char load[256];
            if (xerr == CL_SUCCESS) {
                CVT_CHECK(cvt_ptxas((char *)alt.data, more) == 0, "%s: ptxas with '%s'", e->d_name,
                          more);
                CVT_CHECK(!bad_float_load((char *)alt.data, load, sizeof load),
                          "%s with '%s': a load into a float register of another width: %s",
                          e->d_name, more, load);
            }
            cvc_output_free(&alt);
        }
        cvc_output out = {0};
        cl_int err = cvc_build(src, strlen(src), options, &cvt_sm90, &out);
        CVT_CHECK(err == CL_SUCCESS, "%s: build error %d, log:\n%s", e->d_name, err,
                  out.log ? out.log : "");
        if (err == CL_SUCCESS) {
            const char *ptx = (const char *)out.data;
            CVT_CHECK(strlen(ptx) == out.size, "%s: size", e->d_name);
            CVT_CHECK(strstr(ptx, "\n.shared .align 8 .b8 __cv_launch_info[64];") != NULL,
                      "%s: no launch info block", e->d_name);
            for (const char *x = strstr(src, "// expect:"); x; x = strstr(x + 1, "// expect:")) {
                char want[512];
                if (sscanf(x + 10, " %511[^\n]", want) == 1)
                    CVT_CHECK(strstr(ptx, want) != NULL, "%s: PTX lacks '%s'", e->d_name, want);
            }
            char load[256];
            CVT_CHECK(!bad_float_load(ptx, load, sizeof load),
                      "%s: a load into a float register of another width: %s", e->d_name, load);
            CVT_CHECK(cvt_ptxas(ptx, e->d_name) == 0, "%s: ptxas", e->d_name);
        }
        printf("%-24s %s\n", e->d_name, err == CL_SUCCESS ? "ok" : "FAILED");
        cvc_output_free(&out);
        free(src);
        count++;
    }
    if (d)
        closedir(d);
    CVT_CHECK(count > 0, "no kernels in %s", dir);
}

int main(void) {
    cvt_require_compiler();
    char cache[256];
    cvt_private_cache(cache, sizeof cache);
    check_dir(CV_KERNELS_CL_DIR);
    check_dir(CV_BENCH_KERNELS_DIR);
    cvt_rmdir(cache);
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
