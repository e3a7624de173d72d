/* culvert-clc: --help, a compile to PTX that ptxas accepts, build options passed through,
 * errors with a non-zero status and the diagnostics on stderr, -c and --link. */
#include "compiler_util.h"

#include <sys/wait.h>

static int run(const char *cmd) {
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int main(void) {
    cvt_require_compiler();
    char dir[256], cmd[4096], path[512];
    cvt_tempdir(dir, sizeof dir);
    setenv("CULVERT_CACHE", "0", 1);

    snprintf(cmd, sizeof cmd, "'%s' --help > '%s/help.txt'", CV_CLC, dir);
    CVT_CHECK(run(cmd) == 0, "--help status");
    snprintf(path, sizeof path, "%s/help.txt", dir);
    char *help = cvt_read(path);
    CVT_CHECK(help && strstr(help, "usage: culvert-clc") && strstr(help, "-o FILE"), "help text");
    free(help);

    snprintf(path, sizeof path, "%s/k.cl", dir);
    FILE *f = fopen(path, "w");
    fputs("__kernel void k(__global int *p, int v) { p[get_global_id(0)] = V + v; }\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -D V=3 -cl-nv-maxrregcount 32 --sm 90 '%s' -o '%s/k.ptx'",
             CV_CLC, path, dir);
    CVT_CHECK(run(cmd) == 0, "compile");
    snprintf(path, sizeof path, "%s/k.ptx", dir);
    char *ptx = cvt_read(path);
    CVT_CHECK(ptx && strstr(ptx, ".entry k(") && strstr(ptx, ".maxnreg 32") &&
                  strstr(ptx, "//cv:arg k 1 private none none int v"),
              "PTX: %s", ptx ? ptx : "(none)");
    CVT_CHECK(ptx && cvt_ptxas(ptx, "cli") == 0, "ptxas");
    free(ptx);

    /* Default output name: k.ptx beside the input. */
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' -DV=1 k.cl && test -s k.ptx", dir, CV_CLC);
    CVT_CHECK(run(cmd) == 0, "default output name");

    /* Missing -D: a compile error, status 1, clang's message on stderr. */
    snprintf(cmd, sizeof cmd, "'%s' '%s/k.cl' -o '%s/bad.ptx' 2> '%s/err.txt'", CV_CLC, dir, dir,
             dir);
    CVT_CHECK(run(cmd) == 1, "error status");
    snprintf(path, sizeof path, "%s/err.txt", dir);
    char *err = cvt_read(path);
    CVT_CHECK(err && strstr(err, "undeclared identifier 'V'"), "stderr: %s", err ? err : "");
    free(err);
    snprintf(cmd, sizeof cmd, "'%s' -DV=1 -cl-no-such-thing '%s/k.cl' 2>/dev/null", CV_CLC, dir);
    CVT_CHECK(run(cmd) == 1, "bad option status");
    snprintf(cmd, sizeof cmd, "'%s' 2>/dev/null", CV_CLC);
    CVT_CHECK(run(cmd) == 2, "usage status");

    /* -c then --link. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' -c -DV=2 k.cl -o k.bc && '%s' --link k.bc -o linked.ptx && "
             "grep -q '.entry k(' linked.ptx",
             dir, CV_CLC, CV_CLC);
    CVT_CHECK(run(cmd) == 0, "compile and link");

    /* Math on CUDA's libdevice, and (CULVERT_LIBDEVICE=0) on libclc: both valid, and
     * different. */
    snprintf(path, sizeof path, "%s/m.cl", dir);
    f = fopen(path, "w");
    fputs("__kernel void m(__global float *p, __global double *d) {\n"
          "    p[0] = sin(p[1]) + pow(p[2], p[3]) + exp(p[4]);\n"
          "    d[0] = log(d[1]) + cos(d[2]);\n}\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' m.cl -o ld.ptx && CULVERT_LIBDEVICE=0 '%s' m.cl -o clc.ptx", dir,
             CV_CLC, CV_CLC);
    CVT_CHECK(run(cmd) == 0, "math builds");
    char ld[600], clc[600];
    snprintf(ld, sizeof ld, "%s/ld.ptx", dir);
    snprintf(clc, sizeof clc, "%s/clc.ptx", dir);
    char *a = cvt_read(ld), *b = cvt_read(clc);
    CVT_CHECK(a && b && cvt_ptxas(a, "libdevice math") == 0 && cvt_ptxas(b, "libclc math") == 0,
              "math PTX assembles");
    if (access("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", R_OK) == 0)
        CVT_CHECK(a && b && strcmp(a, b) != 0, "libdevice changes the math code");
    free(a);
    free(b);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CVT_CHECK(run(cmd) == 0, "cleanup");
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
