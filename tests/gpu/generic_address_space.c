/* The generic address space (OpenCL C 3.0, __opencl_c_generic_address_space) on the GPU:
 * - the claims: CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, the OpenCL C feature, the macro in
 *   OpenCL C 3.0 programs and not in 1.2 ones;
 * - functions (kept out of line, so their loads and stores are generic PTX) that read and write
 *   through a generic pointer, called with global, local and private pointers;
 * - to_global / to_local / to_private (non-NULL and the same object for the pointer's own space,
 *   NULL for the others and for NULL) and get_fence;
 * - atomics on generic pointers to global and to local memory: atomic_fetch_add (its old values
 *   are a permutation), the _explicit forms, a compare_exchange loop, float atomic_fetch_add;
 * - fract, modf, sincos, frexp, remquo, lgamma_r, vload4/vstore4, vload_half/vstore_half(_rtz)
 *   through generic pointers into each space, against the CPU;
 * - comparisons of pointers of every space with NULL and each other (the CTS's compare_pointers).
 * Under the fake CUDA driver (fake.generic_address_space) only the claims are checked. (PoCL 3.1
 * has no generic address space; the math expectations were checked there with private pointers.)
 */
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { N = 256, LOCAL = 64 };
/* OpenCL C's cl_mem_fence_flags values (get_fence's results). */
enum { CLK_LOCAL_MEM_FENCE = 1, CLK_GLOBAL_MEM_FENCE = 2 };

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;

static const char *src =
    "#define NOINLINE __attribute__((noinline))\n"
    /* Generic pointers into any space: out of line, so nothing infers the space. */
    "NOINLINE int sum_n(const int *p, int n) {\n"
    "    int s = 0;\n"
    "    for (int k = 0; k < n; k++) s += p[k];\n"
    "    return s;\n"
    "}\n"
    "NOINLINE void add_to(int *p, int v) { *p += v; }\n"
    "kernel void spaces(global int *g, global int *out) {\n"
    "    local int l[64];\n"
    "    int pr[4];\n"
    "    int i = (int)get_global_id(0), li = (int)get_local_id(0);\n"
    "    l[li] = i * 3;\n"
    "    for (int k = 0; k < 4; k++) pr[k] = i + k;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    add_to(&g[i], 5);\n"
    "    if (li == 0) add_to(&l[63], 7);\n"
    "    add_to(&pr[1], 11);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[i * 3 + 0] = sum_n(g + i, 1);\n"
    "    out[i * 3 + 1] = sum_n(l, 64);\n"
    "    out[i * 3 + 2] = sum_n(pr, 4);\n"
    "}\n"
    /* Bits: 1 to_global, 2 to_local, 4 to_private non-NULL; 8 each non-NULL one is the same
     * object (same address, same value read); then get_fence << 4. */
    "NOINLINE int conversions(int *p) {\n"
    "    global int *g = to_global(p);\n"
    "    local int *l = to_local(p);\n"
    "    private int *q = to_private(p);\n"
    "    int bits = (g != NULL) | (l != NULL) << 1 | (q != NULL) << 2;\n"
    "    int same = 1;\n"
    "    if (g) same &= (int *)g == p && *g == *p;\n"
    "    if (l) same &= (int *)l == p && *l == *p;\n"
    "    if (q) same &= (int *)q == p && *q == *p;\n"
    "    return bits | same << 3 | (p ? (int)get_fence(p) << 4 : 0);\n"
    "}\n"
    "kernel void convert(global int *g, global int *out) {\n"
    "    local int l[64];\n"
    "    int pr[2];\n"
    "    int i = (int)get_global_id(0), li = (int)get_local_id(0);\n"
    "    l[li] = i + 100;\n"
    "    pr[i & 1] = i + 200;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[i * 4 + 0] = conversions(&g[i]);\n"
    "    out[i * 4 + 1] = conversions(&l[li]);\n"
    "    out[i * 4 + 2] = conversions(&pr[i & 1]);\n"
    "    out[i * 4 + 3] = conversions((int *)0);\n"
    "}\n"
    /* Atomics through generic pointers to global and local memory. */
    "NOINLINE int bump(atomic_int *p, int v) { return atomic_fetch_add(p, v); }\n"
    "NOINLINE int bump_explicit(atomic_int *p, int v) {\n"
    "    return atomic_fetch_add_explicit(p, v, memory_order_relaxed, memory_scope_work_group);\n"
    "}\n"
    "NOINLINE void cas_add(atomic_int *p, int v) {\n"
    "    int seen = atomic_load_explicit(p, memory_order_relaxed);\n"
    "    while (!atomic_compare_exchange_strong(p, &seen, seen + v))\n"
    "        ;\n"
    "}\n"
    /* culvert has cl_ext_float_atomics; elsewhere a compare-exchange loop on the bits. */
    "#if defined(__opencl_c_ext_fp32_global_atomic_add) && "
    "defined(__opencl_c_ext_fp32_local_atomic_add)\n"
    "NOINLINE void fadd(atomic_float *p, float v) {\n"
    "    atomic_fetch_add_explicit(p, v, memory_order_relaxed, memory_scope_device);\n"
    "}\n"
    "#else\n"
    "NOINLINE void fadd(atomic_float *p, float v) {\n"
    "    atomic_int *b = (atomic_int *)p;\n"
    "    int seen = atomic_load(b);\n"
    "    while (!atomic_compare_exchange_weak(b, &seen, as_int(as_float(seen) + v)))\n"
    "        ;\n"
    "}\n"
    "#endif\n"
    "kernel void atomics(global atomic_int *count, global atomic_int *cas, global int *old,\n"
    "                    global int *groups, global atomic_float *fsum) {\n"
    "    local atomic_int lcount, lcas;\n"
    "    int i = (int)get_global_id(0), li = (int)get_local_id(0);\n"
    "    if (li == 0) {\n"
    "        atomic_init(&lcount, 0);\n"
    "        atomic_init(&lcas, 0);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    old[i] = bump((atomic_int *)count, 1);\n"
    "    bump_explicit((atomic_int *)&lcount, 2);\n"
    "    cas_add((atomic_int *)cas, i);\n"
    "    cas_add((atomic_int *)&lcas, li + 1);\n"
    "    fadd((atomic_float *)fsum, 0.5f);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (li == 0) {\n"
    "        groups[get_group_id(0) * 2] = atomic_load((atomic_int *)&lcount);\n"
    "        groups[get_group_id(0) * 2 + 1] = atomic_load((atomic_int *)&lcas);\n"
    "    }\n"
    "}\n"
    /* The pointer-result builtins through a generic pointer into the space `which` names
     * (0 global, 1 local, 2 private); the results are copied out whatever the space. */
    "kernel void math(global const float *x, global float *out, global int *iout, int which) {\n"
    "    local float lf[64 * 8];\n"
    "    local int li[64 * 4];\n"
    "    float pf[8];\n"
    "    int pi[4];\n"
    "    int i = (int)get_global_id(0), l = (int)get_local_id(0);\n"
    "    float *o = out + i * 16;\n"
    "    int *io = iout + i * 8;\n"
    "    float *f = which == 0 ? (float *)(o + 8) : which == 1 ? (float *)(lf + l * 8) : pf;\n"
    "    int *n = which == 0 ? (int *)(io + 4) : which == 1 ? (int *)(li + l * 4) : pi;\n"
    "    float v = x[i];\n"
    "    o[0] = fract(v, f);\n"
    "    o[1] = modf(v, f + 1);\n"
    "    o[2] = sincos(v, f + 2);\n"
    "    f[3] = v * 0.5f;\n"
    "    o[3] = frexp(v, n);\n"
    "    o[4] = remquo(v, 0.75f, n + 1);\n"
    "    o[5] = lgamma_r(v, n + 2);\n"
    "    vstore4(vload4(0, f) * 2.0f, 1, f);\n"
    "    half *h = (half *)(n + 3);\n"
    "    vstore_half_rtz(v, 0, h);\n"
    "    vstore_half(v * 3.0f, 1, h);\n"
    "    o[6] = vload_half(0, h);\n"
    "    o[7] = vload_half(1, h);\n"
    "    for (int k = 0; k < 8; k++) o[8 + k] = f[k];\n"
    "    for (int k = 0; k < 3; k++) io[4 + k] = n[k];\n"
    "}\n";

/* The CTS's compare_pointers cases, one result each (all 1): NULL in every space is NULL, and
 * pointers into different objects and spaces compare unequal; the last: a global pointer
 * against a generic pointer to a local variable (one cast between named spaces after
 * InstCombine). */
enum { COMPARES = 10 };
static const char *compare_src =
    "global int cmp_value = 7;\n"
    "global int cmp_arr[5] = {0, 1, 2, 3, 4};\n"
    "kernel void compare(global uint *r, global int *g) {\n"
    "    local int lv;\n"
    "    lv = 7;\n"
    "    uint t = (uint)get_global_id(0) * 10;\n"
    "    { int *ptr = NULL; r[t + 0] = (ptr == NULL); }\n"
    "    { int *ptr = NULL; global int *gptr = NULL; r[t + 1] = (ptr == gptr); }\n"
    "    { int *ptr = NULL; local int *lptr = NULL; r[t + 2] = (ptr == lptr); }\n"
    "    { int *ptr = NULL; private int *pptr = NULL; r[t + 3] = (ptr == pptr); }\n"
    "    { int *ptr = NULL; local int *lptr = NULL; global int *gptr = NULL;\n"
    "      ptr = lptr; r[t + 4] = (gptr == ptr) && (lptr == ptr); }\n"
    "    { int v = 7; int *ptr = NULL; private int *pptr = &v; r[t + 5] = (ptr != pptr); }\n"
    "    { int *ptr = NULL; local int *lptr = &lv; r[t + 6] = (ptr != lptr); }\n"
    "    { int *ptr = NULL; global int *gptr = &cmp_value; r[t + 7] = (ptr != gptr); }\n"
    "    { int *ptr = &cmp_arr[1]; global int *gptr = &cmp_arr[3]; r[t + 8] = (gptr >= ptr); }\n"
    "    { int *ptr = &lv; r[t + 9] = (g != ptr); }\n"
    "}\n";

static void read_back(cl_mem m, size_t size, void *out) {
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

/* Runs `name` over N work-items in groups of LOCAL with the buffers (and an int) as arguments. */
static void run(cl_program p, const char *name, cl_mem *bufs, int nbufs, const int *extra) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    REQUIRE(err == CL_SUCCESS);
    for (int a = 0; a < nbufs; a++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)a, sizeof(cl_mem), &bufs[a]));
    if (extra)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)nbufs, sizeof(int), extra));
    size_t global = N, local = LOCAL;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    clReleaseKernel(k);
}

/* The device's claims. */
static void test_claims(void) {
    cl_bool generic = CL_FALSE;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
                                          sizeof generic, &generic, NULL));
    CHECK(generic == CL_TRUE);
    CHECK(cv_test_has_c_feature(dev, "__opencl_c_generic_address_space", CL_MAKE_VERSION(3, 0, 0)));
}

/* The macro and to_global in OpenCL C 3.0 programs, neither in 1.2 ones. */
static void test_macro(void) {
    const char *probe = "#ifndef __opencl_c_generic_address_space\n"
                        "#error no generic address space\n"
                        "#endif\n"
                        "kernel void k(global int *p) { int *g = p; *to_global(g) = 1; }\n";
    cl_int err;
    cl_program p = cv_test_build(ctx, dev, 1, &probe, "-cl-std=CL3.0", "CL3.0 probe", &err);
    CHECK_ERR(CL_SUCCESS, err);
    clReleaseProgram(p);
    p = clCreateProgramWithSource(ctx, 1, &probe, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 1, &dev, "-cl-std=CL1.2", NULL, NULL));
    clReleaseProgram(p);
}

static void test_spaces(cl_program p) {
    int g[N], out[N * 3];
    for (int i = 0; i < N; i++)
        g[i] = i * 10;
    cl_mem b[2] = {cv_test_buffer(ctx, sizeof g, g), cv_test_buffer(ctx, sizeof out, NULL)};
    run(p, "spaces", b, 2, NULL);
    read_back(b[0], sizeof g, g);
    read_back(b[1], sizeof out, out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int group = i / LOCAL * LOCAL, lsum = 7;
        for (int k = 0; k < LOCAL; k++)
            lsum += (group + k) * 3;
        int want[3] = {i * 10 + 5, lsum, 4 * i + 6 + 11};
        for (int k = 0; k < 3; k++)
            if (out[i * 3 + k] != want[k] && bad++ < 5)
                fprintf(stderr, "spaces: item %d field %d = %d, want %d\n", i, k, out[i * 3 + k],
                        want[k]);
        CHECK(g[i] == i * 10 + 5);
    }
    CHECK(bad == 0);
    clReleaseMemObject(b[0]);
    clReleaseMemObject(b[1]);
}

static void test_conversions(cl_program p) {
    int g[N], out[N * 4];
    for (int i = 0; i < N; i++)
        g[i] = i - 7;
    cl_mem b[2] = {cv_test_buffer(ctx, sizeof g, g), cv_test_buffer(ctx, sizeof out, NULL)};
    run(p, "convert", b, 2, NULL);
    read_back(b[1], sizeof out, out);
    /* global: to_global only, CLK_GLOBAL_MEM_FENCE; local: to_local only, CLK_LOCAL_MEM_FENCE;
     * private: to_private only, CLK_GLOBAL_MEM_FENCE (culvert's choice, as AMD's and Intel's: a
     * valid fence, which private memory does not need); NULL: none. */
    const int want[4] = {1 | 8 | CLK_GLOBAL_MEM_FENCE << 4, 2 | 8 | CLK_LOCAL_MEM_FENCE << 4,
                         4 | 8 | CLK_GLOBAL_MEM_FENCE << 4, 8};
    static const char *const what[4] = {"global", "local", "private", "NULL"};
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 4; k++) {
            int got = out[i * 4 + k];
            if (got != want[k] && bad++ < 5)
                fprintf(stderr, "conversions: item %d %s pointer: 0x%x, want 0x%x\n", i, what[k],
                        got, want[k]);
        }
    CHECK(bad == 0);
    clReleaseMemObject(b[0]);
    clReleaseMemObject(b[1]);
}

static void test_compare(void) {
    cl_int err;
    cl_program p = cv_test_build(ctx, dev, 1, &compare_src, "-cl-std=CL3.0", "compare", &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (err != CL_SUCCESS)
        return;
    static cl_uint out[N * COMPARES];
    int g[N] = {0};
    cl_mem b[2] = {cv_test_buffer(ctx, sizeof out, NULL), cv_test_buffer(ctx, sizeof g, g)};
    run(p, "compare", b, 2, NULL);
    read_back(b[0], sizeof out, out);
    int bad = 0;
    for (int i = 0; i < N * COMPARES; i++)
        if (out[i] != 1 && bad++ < 5)
            fprintf(stderr, "compare: item %d case %d = %u, want 1\n", i / COMPARES, i % COMPARES,
                    out[i]);
    CHECK(bad == 0);
    clReleaseMemObject(b[0]);
    clReleaseMemObject(b[1]);
    clReleaseProgram(p);
}

static void test_atomics(cl_program p) {
    int zero = 0, old[N], groups[N / LOCAL * 2];
    float fzero = 0.0f, fsum = -1.0f;
    cl_mem b[5] = {cv_test_buffer(ctx, sizeof zero, &zero), cv_test_buffer(ctx, sizeof zero, &zero),
                   cv_test_buffer(ctx, sizeof old, NULL), cv_test_buffer(ctx, sizeof groups, NULL),
                   cv_test_buffer(ctx, sizeof fzero, &fzero)};
    run(p, "atomics", b, 5, NULL);
    int count = -1, cas = -1;
    read_back(b[0], sizeof count, &count);
    read_back(b[1], sizeof cas, &cas);
    read_back(b[2], sizeof old, old);
    read_back(b[3], sizeof groups, groups);
    read_back(b[4], sizeof fsum, &fsum);
    CHECK(count == N);
    CHECK(cas == N * (N - 1) / 2);
    CHECK(fsum == 0.5f * N);
    /* The old values of atomic_fetch_add: each of 0 .. N-1 once. */
    unsigned char seen[N] = {0};
    int bad = 0;
    for (int i = 0; i < N; i++) {
        if (old[i] < 0 || old[i] >= N || seen[old[i]]++)
            bad++;
    }
    CHECK(bad == 0);
    for (int w = 0; w < N / LOCAL; w++) {
        CHECK(groups[w * 2] == 2 * LOCAL);
        CHECK(groups[w * 2 + 1] == LOCAL * (LOCAL + 1) / 2);
    }
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(b[i]);
}

/* float -> half -> float for a normal half value: rounded toward zero, or to nearest even. */
static float half_round(float v, int nearest) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    if (nearest)
        u += 0xfffu + ((u >> 13) & 1u);
    u &= ~0x1fffu;
    memcpy(&v, &u, sizeof v);
    return v;
}

static int close_to(double got, double want, double tol) {
    return fabs(got - want) <= tol * (fabs(want) > 1.0 ? fabs(want) : 1.0);
}

static void test_math(cl_program p) {
    float x[N];
    for (int i = 0; i < N; i++) {
        /* -24 .. 24, never a non-positive integer (lgamma's poles), |x| a normal half. */
        x[i] = ((float)i - 127.6f) * 0.1883f;
        if (fabsf(x[i]) < 0.01f)
            x[i] = 0.3f;
    }
    for (int which = 0; which < 3; which++) {
        float out[N * 16];
        int iout[N * 8];
        cl_mem b[3] = {cv_test_buffer(ctx, sizeof x, x), cv_test_buffer(ctx, sizeof out, NULL),
                       cv_test_buffer(ctx, sizeof iout, NULL)};
        run(p, "math", b, 3, &which);
        read_back(b[1], sizeof out, out);
        read_back(b[2], sizeof iout, iout);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            const float *o = out + i * 16;
            const int *io = iout + i * 8;
            float v = x[i], fl = floorf(v), ip;
            float fr = fminf(v - fl, 0x1.fffffep-1f);
            float mf = modff(v, &ip);
            int e;
            float m = frexpf(v, &e);
            int q;
            float rq = remquof(v, 0.75f, &q);
            int sign;
            double lg = lgamma_r((double)v, &sign);
            int gq = io[5];
            const char *fail = NULL;
            if (o[0] != fr || o[8] != fl)
                fail = "fract";
            else if (o[1] != mf || o[9] != ip)
                fail = "modf";
            else if (!close_to(o[2], sin((double)v), 1e-6) ||
                     !close_to(o[10], cos((double)v), 1e-6))
                fail = "sincos";
            else if (o[3] != m || io[4] != e)
                fail = "frexp";
            /* quo: the low 3 bits of the quotient's magnitude, and its sign (glibc keeps those
             * bits only: a multiple of 8 comes back as 0, without a sign). */
            else if (o[4] != rq || (abs(gq) & 7) != (abs(q) & 7) ||
                     ((abs(q) & 7) && (gq < 0) != (q < 0)))
                fail = "remquo";
            else if (!close_to(o[5], lg, 1e-5) || io[6] != sign)
                fail = "lgamma_r";
            else if (o[12] != 2.0f * o[8] || o[13] != 2.0f * o[9] || o[14] != 2.0f * o[10] ||
                     o[15] != 2.0f * o[11] || o[11] != v * 0.5f)
                fail = "vload4/vstore4";
            else if (o[6] != half_round(v, 0) || o[7] != half_round(v * 3.0f, 1))
                fail = "vload_half/vstore_half";
            if (fail && bad++ < 5)
                fprintf(stderr,
                        "math (%s pointers): %s(%a) wrong: %a %a %a %a %a %a %a %a | %d %d %d\n",
                        which == 0   ? "global"
                        : which == 1 ? "local"
                                     : "private",
                        fail, v, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], io[4], io[5],
                        io[6]);
        }
        CHECK(bad == 0);
        for (int k = 0; k < 3; k++)
            clReleaseMemObject(b[k]);
    }
}

int main(void) {
    dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    test_claims();
    if (cv_test_fake_cuda()) {
        /* The fake driver (fake.generic_address_space) runs no kernels: the claims only. */
        clReleaseCommandQueue(queue);
        clReleaseContext(ctx);
        return cv_test_report("generic_address_space (claims)");
    }
    test_macro();
    cl_program p = cv_test_build(ctx, dev, 1, &src, "-cl-std=CL3.0", "generic_address_space", &err);
    REQUIRE(err == CL_SUCCESS);
    test_spaces(p);
    test_conversions(p);
    test_atomics(p);
    test_math(p);
    test_compare();
    clReleaseProgram(p);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("generic_address_space");
}
