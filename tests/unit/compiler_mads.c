/* Multiply-adds that LLVM factored, put back before llc (cvc_ir_mads, src/compiler/cvc_ir_mad.c):
 * the text of the rewrite on clpeak's chain as clang -O2 writes it, what is left alone, the same
 * values as before (the chain run by LLVM's interpreter lli on this machine, before and after,
 * against C), and the PTX of the chain kernel: one mad.lo per multiply-add. */
#include "compiler_util.h"
#include "compiler/cvc_internal.h"

/* x = y*x + y; y = x*y + x, twice, as InstCombine and reassociation leave it (scalar and vector),
 * and a main() that prints a checksum over inputs. */
static const char chain_ll[] = "define i32 @chain(i32 %x0, i32 %y0) {\n"
                               "  %a1 = add nsw i32 %x0, 1\n"
                               "  %x1 = mul nsw i32 %y0, %a1\n"
                               "  %s1 = add i32 %x1, %a1\n"
                               "  %y1 = mul i32 %s1, %y0\n"
                               "  %a2 = add i32 %x1, 1\n"
                               "  %x2 = mul i32 %y1, %a2\n"
                               "  %s2 = add i32 %a2, %x2\n"
                               "  %y2 = mul i32 %y1, %s2\n"
                               "  ret i32 %y2\n"
                               "}\n"
                               "define <2 x i32> @chain2(<2 x i32> %x0, <2 x i32> %y0) {\n"
                               "  %a1 = add <2 x i32> %x0, <i32 1, i32 1>\n"
                               "  %x1 = mul <2 x i32> %y0, %a1\n"
                               "  %s1 = add <2 x i32> %x1, %a1\n"
                               "  %y1 = mul <2 x i32> %s1, %y0\n"
                               "  ret <2 x i32> %y1\n"
                               "}\n"
                               "define i32 @other(i32 %x, i32 %y, i32 %z) {\n"
                               "  %a = add i32 %x, 2\n"
                               "  %m = mul i32 %y, %a\n"
                               "  %s = add i32 %x, %z\n"
                               "  %n = mul i32 %s, %y\n"
                               "  %r = add i32 %m, %n\n"
                               "  ret i32 %r\n"
                               "}\n"
                               "declare i32 @printf(ptr, ...)\n"
                               "@fmt = private constant [6 x i8] c\"%u %u\\00\"\n"
                               "define i32 @main() {\n"
                               "entry:\n"
                               "  br label %loop\n"
                               "loop:\n"
                               "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
                               "  %h = phi i32 [ 0, %entry ], [ %h1, %loop ]\n"
                               "  %j = phi i32 [ 0, %entry ], [ %j1, %loop ]\n"
                               "  %x = mul i32 %i, 2654435761\n"
                               "  %y = xor i32 %x, 40503\n"
                               "  %c = call i32 @chain(i32 %x, i32 %y)\n"
                               "  %h1 = xor i32 %h, %c\n"
                               "  %v0 = insertelement <2 x i32> undef, i32 %x, i32 0\n"
                               "  %v1 = insertelement <2 x i32> %v0, i32 %y, i32 1\n"
                               "  %w = call <2 x i32> @chain2(<2 x i32> %v1, <2 x i32> %v1)\n"
                               "  %w0 = extractelement <2 x i32> %w, i32 1\n"
                               "  %j1 = add i32 %j, %w0\n"
                               "  %i1 = add i32 %i, 1\n"
                               "  %done = icmp eq i32 %i1, 100000\n"
                               "  br i1 %done, label %out, label %loop\n"
                               "out:\n"
                               "  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %h1, i32 %j1)\n"
                               "  ret i32 0\n"
                               "}\n";

/* The same checksums in C. */
static void chain_c(unsigned *h_out, unsigned *j_out) {
    unsigned h = 0, j = 0;
    for (unsigned i = 0; i < 100000; i++) {
        unsigned x = i * 2654435761u, y = x ^ 40503u;
        unsigned x0 = x, y0 = y;
        for (int k = 0; k < 2; k++) {
            x0 = y0 * x0 + y0;
            y0 = x0 * y0 + x0;
        }
        h ^= y0;
        /* chain2(v, v), lane 1: x = y = the input's lane 1 */
        unsigned xv = y, yv = y;
        xv = yv * xv + yv;
        yv = xv * yv + xv;
        j += yv;
    }
    *h_out = h;
    *j_out = j;
}

static void rewrite_text(char **out) {
    char *r = cvc_ir_mads(chain_ll);
    *out = r;
    CVT_CHECK(r != NULL, "rewritten");
    if (!r)
        return;
    static const char *const want[] = {
        "  %cv.mad.x1 = mul i32 %y0, %x0\n  %x1 = add i32 %cv.mad.x1, %y0\n",
        "  %cv.mad.y1 = mul i32 %x1, %y0\n  %y1 = add i32 %cv.mad.y1, %x1\n",
        "  %cv.mad.x2 = mul i32 %y1, %x1\n  %x2 = add i32 %cv.mad.x2, %y1\n",
        "  %cv.mad.y2 = mul i32 %x2, %y1\n  %y2 = add i32 %cv.mad.y2, %x2\n",
        "  %cv.mad.x1 = mul <2 x i32> %y0, %x0\n  %x1 = add <2 x i32> %cv.mad.x1, %y0\n",
        "  %cv.mad.y1 = mul <2 x i32> %x1, %y0\n  %y1 = add <2 x i32> %cv.mad.y1, %x1\n",
        /* left alone: y * (x + 2), (x + z) * y with no product of x or z */
        "  %m = mul i32 %y, %a\n",
        "  %n = mul i32 %s, %y\n",
        /* main's multiply by a constant */
        "  %x = mul i32 %i, 2654435761\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        CVT_CHECK(strstr(r, want[i]) != NULL, "rewrite %zu: %s\n%s", i, want[i], r);
}

/* Runs the module with lli (beside llc); its output, or NULL where lli is not there. */
static char *run_lli(const char *ll, const char *dir, const char *name) {
    const cvc_tools *t = cvc_get_tools();
    char lli[4200], path[512], cmd[5000];
    snprintf(lli, sizeof lli, "%s", t->llc);
    char *slash = strrchr(lli, '/');
    if (!slash)
        return NULL;
    const char *suffix = strstr(slash, "llc-"); /* llc-16 beside lli-16 */
    snprintf(slash + 1, sizeof lli - (size_t)(slash + 1 - lli), "lli%s", suffix ? suffix + 3 : "");
    if (access(lli, X_OK) != 0)
        return NULL;
    snprintf(path, sizeof path, "%s/%s.ll", dir, name);
    if (!cvt_write(path, ll))
        return NULL;
    snprintf(cmd, sizeof cmd, "'%s' '%s' 2>&1", lli, path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    char *out = calloc(1, 256);
    if (out && !fgets(out, 256, p))
        out[0] = 0;
    pclose(p);
    return out;
}

static void same_values(const char *rewritten) {
    char dir[256];
    cvt_tempdir(dir, sizeof dir);
    char *before = run_lli(chain_ll, dir, "before"), *after = run_lli(rewritten, dir, "after");
    if (!before || !after) {
        fprintf(stderr, "SKIP the values: no lli beside llc\n");
    } else {
        unsigned h, j;
        chain_c(&h, &j);
        char want[64];
        snprintf(want, sizeof want, "%u %u", h, j);
        CVT_CHECK(!strcmp(before, want), "lli before the rewrite: '%s', C: '%s'", before, want);
        CVT_CHECK(!strcmp(after, want), "lli after the rewrite: '%s', C: '%s'", after, want);
    }
    free(before);
    free(after);
}

/* clpeak's int chain through the whole build: a mad.lo per multiply-add. */
static void chain_ptx(void) {
    static const char src[] =
        "#define M4(x, y) x = (y*x) + y; y = (x*y) + x; x = (y*x) + y; y = (x*y) + x;\n"
        "#define M16(x, y) M4(x, y) M4(x, y) M4(x, y) M4(x, y)\n"
        "kernel void chain(global int *out, int a) {\n"
        "    int x = a, y = (int)get_local_id(0);\n"
        "    for (int i = 0; i < 8; i++) { M16(x, y) }\n"
        "    out[get_global_id(0)] = y;\n"
        "}\n";
    cvc_output out = {0};
    cl_int err = cvc_build(src, strlen(src), "", &cvt_sm90, &out);
    CVT_CHECK(err == CL_SUCCESS, "build: %d\n%s", (int)err, out.log ? out.log : "");
    if (err == CL_SUCCESS) {
        const char *ptx = (const char *)out.data;
        int mads = 0, muls = 0;
        for (const char *p = ptx; (p = strstr(p, "mad.lo.s32")); p++)
            mads++;
        for (const char *p = ptx; (p = strstr(p, "mul.lo.s32")); p++)
            muls++;
        /* 128 multiply-adds (the loop unrolled): factored, each would be a mul.lo and an add */
        CVT_CHECK(mads >= 120 && muls <= 2, "a mad.lo per multiply-add: %d mad.lo, %d mul.lo\n%s",
                  mads, muls, ptx);
        CVT_CHECK(cvt_ptxas(ptx, "chain") == 0, "ptxas");
    }
    cvc_output_free(&out);
}

int main(void) {
    char *rewritten = NULL;
    rewrite_text(&rewritten);
    CVT_CHECK(cvc_ir_mads("define void @f() {\n  ret void\n}\n") == NULL, "nothing to do: NULL");
    cvt_require_compiler();
    if (rewritten)
        same_values(rewritten);
    free(rewritten);
    char cache[256];
    cvt_private_cache(cache, sizeof cache);
    chain_ptx();
    printf("%s\n", cvt_failures ? "FAILED" : "PASSED");
    return cvt_failures ? 1 : 0;
}
