/* OpenCL C 3.0 atomics with every order and scope, and cl_ext_float_atomics, on the GPU:
 * - the device's claims (CL_DEVICE_ATOMIC_MEMORY/FENCE_CAPABILITIES, the OpenCL C features,
 *   cl_ext_float_atomics and its capabilities);
 * - message passing between work-groups: plain stores published by a release store at device
 *   scope, read after an acquire load in another work-group (no spinning: the reader checks what
 *   it sees, so the test cannot hang whatever the scheduling);
 * - store buffering with seq_cst (the forbidden r0 == r1 == 0), with seq_cst operations and with
 *   relaxed operations around seq_cst fences;
 * - a seq_cst counter (atomic_fetch_add without _explicit): the tickets are a permutation;
 * - float and double atomic add/sub (global and local, every form) against the CPU, exact for
 *   integer-valued floats; float add and sub of subnormals, global, generic and local (kept); float
 * min/max with NaN and signed zeros, one case per work-item, and contended. Under the fake CUDA
 * driver (fake.atomics_orders) only the claims are checked. CV_ATOMICS_PLATFORM=<name substring>
 * runs it on another platform's first device (the checks of culvert's own claims are then left
 * out), to prove the test on PoCL. */
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static int is_culvert;

static cl_device_id pick_device(void) {
    const char *want = getenv("CV_ATOMICS_PLATFORM");
    if (!want || !*want)
        return cv_test_gpu_device_or_skip(NULL);
    cl_platform_id ps[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS)
        n = 0;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        cl_device_id d = NULL;
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want) && clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) == 0)
            return d;
    }
    fprintf(stderr, "no platform named like '%s': skipped\n", want);
    exit(CV_TEST_SKIP);
}

static cl_mem buffer(size_t size, const void *init) {
    return cv_test_buffer(ctx, size, init);
}

static void release_all(cl_mem *m, int n) {
    for (int i = 0; i < n; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
}

static void read_back(cl_mem m, size_t size, void *out) {
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, out, 0, NULL, NULL));
}

static cl_program build(const char *src, const char *what) {
    cl_int err;
    const char *parts[2] = {"#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                            "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
                            src};
    cl_program p = cv_test_build(ctx, dev, 2, parts, "-cl-std=CL3.0", what, &err);
    REQUIRE(p != NULL);
    CHECK(err == CL_SUCCESS);
    if (err != CL_SUCCESS) {
        clReleaseProgram(p);
        p = NULL;
    }
    return p;
}

/* Runs kernel `name` of p over global/local with the buffers as its arguments, then an int. */
static void run(cl_program p, const char *name, size_t global, size_t local, cl_mem *bufs,
                int nbufs, int iarg) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK(err == CL_SUCCESS);
    if (err != CL_SUCCESS)
        return;
    for (int i = 0; i < nbufs; i++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)nbufs, sizeof(int), &iarg));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    clReleaseKernel(k);
}

static int has_feature(const char *name) {
    return cv_test_has_c_feature(dev, name, 0);
}

static int has_extension(const char *name) {
    char ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    for (const char *s = strstr(ext, name); s; s = strstr(s + 1, name))
        if ((s == ext || s[-1] == ' ') && (s[strlen(name)] == ' ' || s[strlen(name)] == 0))
            return 1;
    return 0;
}

static void test_claims(void) {
    cl_bitfield mem = 0, fence = 0, fp32 = 0, fp64 = 0, fp16 = 1;
    clGetDeviceInfo(dev, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof mem, &mem, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof fence, &fence, NULL);
    cl_bitfield all = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                      CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    CHECK(mem == all);
    CHECK(fence == (all | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM));
    CHECK(has_feature("__opencl_c_atomic_order_acq_rel"));
    CHECK(has_feature("__opencl_c_atomic_order_seq_cst"));
    CHECK(has_feature("__opencl_c_atomic_scope_device"));
    CHECK(has_feature("__opencl_c_atomic_scope_all_devices"));
    CHECK(has_extension("cl_ext_float_atomics"));
    static const char *const fp_features[] = {
        "__opencl_c_ext_fp32_global_atomic_add",     "__opencl_c_ext_fp32_local_atomic_add",
        "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
        "__opencl_c_ext_fp64_global_atomic_add",     "__opencl_c_ext_fp64_local_atomic_add",
        "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max",
    };
    for (size_t i = 0; i < sizeof fp_features / sizeof *fp_features; i++)
        if (!has_feature(fp_features[i])) {
            fprintf(stderr, "feature %s missing\n", fp_features[i]);
            CHECK(0);
        }
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT,
                                          sizeof fp32, &fp32, NULL));
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT,
                                          sizeof fp64, &fp64, NULL));
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT,
                                          sizeof fp16, &fp16, NULL));
    cl_bitfield fp_all =
        CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
        CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
        CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
    CHECK(fp32 == fp_all);
    CHECK(fp64 == fp_all);
    CHECK(fp16 == 0);
}

/* Message passing. Work-group g (even) writes WORDS values, each published by a release store
 * of the count to flag[g]; work-group g + 1 (odd) repeatedly loads flag[g] with acquire and
 * checks every word up to the count it saw. Both at device scope, in different work-groups. */
enum { MP_GROUPS = 128, MP_WG = 32, MP_WORDS = 256 };
static const char *mp_src =
    "#define WORDS 256\n"
    "__kernel void mp(__global atomic_int *flag, __global int *data, __global int *bad,\n"
    "                 __global int *seen_max, int unused) {\n"
    "    int g = get_group_id(0), l = get_local_id(0), pair = g / 2;\n"
    "    __global int *d = data + (pair * get_local_size(0) + l) * WORDS;\n"
    "    __global atomic_int *f = flag + pair * get_local_size(0) + l;\n"
    "    if (g % 2 == 0) {\n"
    "        for (int i = 0; i < WORDS; i++) {\n"
    "            d[i] = i * 7 + 1;\n"
    "            atomic_store_explicit(f, i + 1, memory_order_release, memory_scope_device);\n"
    "        }\n"
    "    } else {\n"
    "        int errors = 0, last = 0;\n"
    "        for (int round = 0; round < 4 * WORDS && last < WORDS; round++) {\n"
    "            int n = atomic_load_explicit(f, memory_order_acquire, memory_scope_device);\n"
    "            for (int i = last; i < n; i++)\n"
    "                errors += d[i] != i * 7 + 1;\n"
    "            last = n > last ? n : last;\n"
    "        }\n"
    "        bad[pair * get_local_size(0) + l] = errors;\n"
    "        seen_max[pair * get_local_size(0) + l] = last;\n"
    "    }\n"
    "}\n";

static void test_message_passing(void) {
    cl_program p = build(mp_src, "message passing");
    if (!p)
        return;
    size_t pairs = MP_GROUPS / 2 * MP_WG;
    int *zero = calloc(pairs * MP_WORDS, sizeof(int)), *bad = calloc(pairs, sizeof(int));
    int *seen = calloc(pairs, sizeof(int));
    REQUIRE(zero && bad && seen);
    long errors = 0, seen_total = 0;
    for (int rep = 0; rep < 20; rep++) {
        cl_mem b[4] = {buffer(pairs * sizeof(int), zero),
                       buffer(pairs * MP_WORDS * sizeof(int), zero),
                       buffer(pairs * sizeof(int), zero), buffer(pairs * sizeof(int), zero)};
        run(p, "mp", MP_GROUPS * MP_WG, MP_WG, b, 4, 0);
        read_back(b[2], pairs * sizeof(int), bad);
        read_back(b[3], pairs * sizeof(int), seen);
        for (size_t i = 0; i < pairs; i++) {
            errors += bad[i];
            seen_total += seen[i];
            CHECK(seen[i] >= 0 && seen[i] <= MP_WORDS);
        }
        release_all(b, 4);
    }
    printf("message passing: %ld words seen through acquire loads, %ld stale\n", seen_total,
           errors);
    CHECK(errors == 0);
    free(zero);
    free(bad);
    free(seen);
    clReleaseProgram(p);
}

/* Store buffering: side 0 stores x then loads y, side 1 stores y then loads x, in different
 * work-groups. seq_cst forbids both loads returning 0. Kernel sb: seq_cst operations (the forms
 * without _explicit); kernel sb_fence: relaxed operations around seq_cst fences. */
enum { SB_GROUPS = 128, SB_WG = 64, SB_ROUNDS = 16 };
static const char *sb_src =
    "#define SIDE(st, ld, mid)                                                      \\\n"
    "    int g = get_group_id(0), l = get_local_id(0);                             \\\n"
    "    int pair = (g / 2) * get_local_size(0) + l;                               \\\n"
    "    for (int r = 0; r < ROUNDS; r++) {                                         \\\n"
    "        __global atomic_int *x = xy + 2 * (pair * ROUNDS + r);                 \\\n"
    "        __global atomic_int *mine = x + (g % 2), *other = x + 1 - (g % 2);     \\\n"
    "        st(mine);                                                              \\\n"
    "        mid;                                                                   \\\n"
    "        out[2 * (pair * ROUNDS + r) + (g % 2)] = ld(other);                    \\\n"
    "    }\n"
    "#define ROUNDS 16\n"
    "#define ST_SC(p) atomic_store(p, 1)\n"
    "#define LD_SC(p) atomic_load(p)\n"
    "#define ST_RLX(p) atomic_store_explicit(p, 1, memory_order_relaxed, memory_scope_device)\n"
    "#define LD_RLX(p) atomic_load_explicit(p, memory_order_relaxed, memory_scope_device)\n"
    "#define FENCE atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, "
    "memory_scope_device)\n"
    "__kernel void sb(__global atomic_int *xy, __global int *out, int unused) {\n"
    "    SIDE(ST_SC, LD_SC, (void)0)\n"
    "}\n"
    "__kernel void sb_fence(__global atomic_int *xy, __global int *out, int unused) {\n"
    "    SIDE(ST_RLX, LD_RLX, FENCE)\n"
    "}\n";

static void test_store_buffering(void) {
    cl_program p = build(sb_src, "store buffering");
    if (!p)
        return;
    size_t n = SB_GROUPS / 2 * SB_WG * SB_ROUNDS * 2;
    int *zero = calloc(n, sizeof(int)), *out = calloc(n, sizeof(int));
    REQUIRE(zero && out);
    static const char *const kernels[] = {"sb", "sb_fence"};
    for (int k = 0; k < 2; k++) {
        long forbidden = 0, mixed = 0;
        for (int rep = 0; rep < 10; rep++) {
            cl_mem b[2] = {buffer(n * sizeof(int), zero), buffer(n * sizeof(int), zero)};
            run(p, kernels[k], SB_GROUPS * SB_WG, SB_WG, b, 2, 0);
            read_back(b[1], n * sizeof(int), out);
            for (size_t i = 0; i < n; i += 2) {
                forbidden += out[i] == 0 && out[i + 1] == 0;
                mixed += out[i] != out[i + 1];
            }
            release_all(b, 2);
        }
        printf("store buffering (%s): %ld forbidden outcomes, %ld interleaved\n", kernels[k],
               forbidden, mixed);
        CHECK(forbidden == 0);
    }
    free(zero);
    free(out);
    clReleaseProgram(p);
}

/* A seq_cst counter: each work-item takes a ticket with atomic_fetch_add (seq_cst, device scope);
 * the tickets are 0 .. n-1, each once. Also atomic_fetch_sub / atomic_exchange / compare-exchange
 * without _explicit on a second counter. */
static void test_counter(void) {
    static const char *src =
        "__kernel void tickets(__global atomic_int *c, __global int *t, __global atomic_long *s,\n"
        "                      int unused) {\n"
        "    size_t i = get_global_id(0);\n"
        "    t[i] = atomic_fetch_add(c, 1);\n"
        "    atomic_fetch_sub(s, (long)i);\n"
        "    long seen = atomic_load(s);\n"
        "    while (!atomic_compare_exchange_weak(s, &seen, seen + 3))\n"
        "        ;\n"
        "}\n";
    enum { N = 1 << 16 };
    cl_program p = build(src, "counter");
    if (!p)
        return;
    int *t = calloc(N, sizeof(int)), zero = 0;
    char *hit = calloc(N, 1);
    REQUIRE(t && hit);
    cl_long s0 = 0, s = 0;
    cl_mem b[3] = {buffer(sizeof(int), &zero), buffer(N * sizeof(int), t), buffer(sizeof s0, &s0)};
    run(p, "tickets", N, 256, b, 3, 0);
    read_back(b[1], N * sizeof(int), t);
    read_back(b[2], sizeof s, &s);
    int dup = 0;
    for (int i = 0; i < N; i++) {
        if (t[i] < 0 || t[i] >= N || hit[t[i]]++)
            dup++;
    }
    CHECK(dup == 0);
    CHECK(s == 3L * N - (cl_long)N * (N - 1) / 2);
    release_all(b, 3);
    free(t);
    free(hit);
    clReleaseProgram(p);
}

/* Float add/sub: integer-valued terms, so every partial sum is exact and the result must equal
 * the CPU's. Global float and double (several orders and forms), and local sums per
 * work-group. */
static const char *fadd_src =
    "__kernel void fadd(__global atomic_float *gf, __global atomic_double *gd,\n"
    "                   __global float *lf_out, __global double *ld_out, int n) {\n"
    "    __local atomic_float lf;\n"
    "    __local atomic_double ld;\n"
    "    int i = get_global_id(0);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        atomic_init(&lf, 0.0f);\n"
    "        atomic_init(&ld, 0.0);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float v = (float)(i % 17 - 8);\n"
    "    switch (i % 4) {\n"
    "    case 0: atomic_fetch_add(gf, v); atomic_fetch_sub(gd, (double)v); break;\n"
    "    case 1: atomic_fetch_add_explicit(gf, v, memory_order_acq_rel);\n"
    "            atomic_fetch_sub_explicit(gd, (double)v, memory_order_release); break;\n"
    "    case 2: atomic_fetch_sub_explicit(gf, -v, memory_order_relaxed, memory_scope_device);\n"
    "            atomic_fetch_add_explicit(gd, -(double)v, memory_order_seq_cst,\n"
    "                                      memory_scope_all_devices); break;\n"
    "    default: atomic_fetch_add_explicit(gf, v, memory_order_acquire, "
    "memory_scope_work_group);\n"
    "            atomic_fetch_sub_explicit(gd, (double)v, memory_order_relaxed,\n"
    "                                      memory_scope_work_group); break;\n"
    "    }\n"
    "    atomic_fetch_add_explicit(&lf, v, memory_order_relaxed, memory_scope_work_group);\n"
    "    atomic_fetch_sub_explicit(&ld, (double)v * 0.5, memory_order_acq_rel,\n"
    "                              memory_scope_work_group);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        lf_out[get_group_id(0)] = atomic_load_explicit(&lf, memory_order_relaxed,\n"
    "                                                       memory_scope_work_group);\n"
    "        ld_out[get_group_id(0)] = atomic_load_explicit(&ld, memory_order_relaxed,\n"
    "                                                       memory_scope_work_group);\n"
    "    }\n"
    "}\n";

static void test_float_add(void) {
    enum { N = 1 << 16, WG = 128, G = N / WG };
    cl_program p = build(fadd_src, "float add");
    if (!p)
        return;
    float f0 = 0, f = 0, *lf = calloc(G, sizeof(float));
    double d0 = 0, d = 0, *ld = calloc(G, sizeof(double));
    REQUIRE(lf && ld);
    cl_mem b[4] = {buffer(sizeof f0, &f0), buffer(sizeof d0, &d0), buffer(G * sizeof(float), NULL),
                   buffer(G * sizeof(double), NULL)};
    run(p, "fadd", N, WG, b, 4, N);
    read_back(b[0], sizeof f, &f);
    read_back(b[1], sizeof d, &d);
    read_back(b[2], G * sizeof(float), lf);
    read_back(b[3], G * sizeof(double), ld);
    double want = 0;
    int bad_local = 0;
    for (int g = 0; g < G; g++) {
        double group = 0;
        for (int i = g * WG; i < (g + 1) * WG; i++)
            group += i % 17 - 8;
        want += group;
        if (lf[g] != (float)group || ld[g] != -0.5 * group) {
            if (bad_local++ < 3)
                fprintf(stderr, "group %d: local sums %g %g, want %g %g\n", g, lf[g], ld[g], group,
                        -0.5 * group);
        }
    }
    if (f != (float)want || d != -want)
        fprintf(stderr, "global sums %g %g, want %g %g\n", f, d, want, -want);
    CHECK(f == (float)want);
    CHECK(d == -want);
    CHECK(bad_local == 0);
    release_all(b, 4);
    free(lf);
    free(ld);
    clReleaseProgram(p);
}

/* Float add with subnormals (CL_FP_DENORM is claimed for float): global memory, through a generic
 * pointer and local memory each keep them, where PTX's atom.global.add.f32 flushes them to zero
 * (the CTS's c11_atomics atomic_fetch_add: 0 + 0x1p-149 gave 0). 64 work-items each add 2^-149,
 * or take it from FLT_MIN: every partial result is exact. */
static const char *fadd_subnormal_src =
    "__kernel void fsub(__global atomic_float *g, __global float *lout, int unused) {\n"
    "    __local atomic_float l;\n"
    "    if (get_local_id(0) == 0)\n"
    "        atomic_init(&l, 0.0f);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_fetch_add_explicit(&g[0], 0x1p-149f, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_add(&g[1], 0x1p-149f);\n"
    "    atomic_float *gp = (atomic_float *)(g + 2);\n"
    "    atomic_fetch_add_explicit(gp, 0x1p-149f, memory_order_acq_rel);\n"
    "    atomic_fetch_sub_explicit(&g[3], 0x1p-149f, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_add_explicit(&l, 0x1p-149f, memory_order_relaxed, memory_scope_work_group);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0)\n"
    "        lout[0] = atomic_load_explicit(&l, memory_order_relaxed, memory_scope_work_group);\n"
    "}\n";

static void test_float_add_subnormal(void) {
    cl_device_fp_config cfg = 0;
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof cfg, &cfg, NULL));
    if (!(cfg & CL_FP_DENORM))
        return;
    cl_program p = build(fadd_subnormal_src, "float add of subnormals");
    if (!p)
        return;
    float g[4] = {0, 0, 0, 0x1p-126f}, l = -1;
    cl_mem b[2] = {buffer(sizeof g, g), buffer(sizeof l, NULL)};
    run(p, "fsub", 64, 64, b, 2, 0);
    read_back(b[0], sizeof g, g);
    read_back(b[1], sizeof l, &l);
    const float sum = 0x1p-143f, rest = 0x1p-126f - 0x1p-143f;
    if (g[0] != sum || g[1] != sum || g[2] != sum || g[3] != rest || l != sum)
        fprintf(stderr, "subnormal sums: global %a %a generic %a from FLT_MIN %a local %a\n", g[0],
                g[1], g[2], g[3], l);
    CHECK(g[0] == sum && g[1] == sum);
    CHECK(g[2] == sum);
    CHECK(g[3] == rest);
    CHECK(l == sum);
    release_all(b, 2);
    clReleaseProgram(p);
}

/* Float min/max: one case per work-item (initial value, operand, operation), with NaN and signed
 * zeros: fmin/fmax semantics (a NaN operand is missing data; -0 is below +0). The old value
 * returned must be the initial one. Then contended min/max of many values, global and local. */
static const char *fminmax_src =
    "#define CASES(name, T)                                                          \\\n"
    "__kernel void name(__global atomic_##T *m, __global const T *v,                 \\\n"
    "                   __global const int *op, __global T *old, int unused) {       \\\n"
    "    int i = get_global_id(0);                                                   \\\n"
    "    switch (op[i]) {                                                            \\\n"
    "    case 0: old[i] = atomic_fetch_min_explicit(m + i, v[i], memory_order_relaxed, \\\n"
    "                                               memory_scope_device); break;     \\\n"
    "    case 1: old[i] = atomic_fetch_max_explicit(m + i, v[i], memory_order_relaxed, \\\n"
    "                                               memory_scope_device); break;     \\\n"
    "    case 2: old[i] = atomic_fetch_min(m + i, v[i]); break;                      \\\n"
    "    default: old[i] = atomic_fetch_max_explicit(m + i, v[i], memory_order_acq_rel); \\\n"
    "    }                                                                           \\\n"
    "}\n"
    "CASES(cases, float)\n"
    "CASES(dcases, double)\n"
    "__kernel void contended(__global atomic_float *g, __global atomic_double *gd,\n"
    "                        __global float *lout, int n) {\n"
    "    __local atomic_float lmin, lmax;\n"
    "    int i = get_global_id(0);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        atomic_init(&lmin, INFINITY);\n"
    "        atomic_init(&lmax, -INFINITY);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float v = (float)((i * 7919) % 100003) - 50000.0f;\n"
    "    atomic_fetch_min_explicit(&g[0], v, memory_order_relaxed, memory_scope_device);\n"
    "    atomic_fetch_max(&g[1], v);\n"
    "    atomic_fetch_min_explicit(&gd[0], (double)v, memory_order_seq_cst, memory_scope_device);\n"
    "    atomic_fetch_max_explicit(&gd[1], (double)v, memory_order_release);\n"
    "    atomic_fetch_min_explicit(&lmin, v, memory_order_relaxed, memory_scope_work_group);\n"
    "    atomic_fetch_max_explicit(&lmax, v, memory_order_acq_rel, memory_scope_work_group);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        lout[2 * get_group_id(0)] = atomic_load_explicit(&lmin, memory_order_relaxed,\n"
    "                                                         memory_scope_work_group);\n"
    "        lout[2 * get_group_id(0) + 1] = atomic_load_explicit(&lmax, memory_order_relaxed,\n"
    "                                                             memory_scope_work_group);\n"
    "    }\n"
    "}\n";

/* The expected result of min (op 0, 2) or max (op 1, 3) of memory value m and operand v. */
static double expect_minmax(int op, double m, double v) {
    int is_min = op == 0 || op == 2;
    if (isnan(v))
        return m;
    if (isnan(m))
        return v;
    if (m == v) /* equal: signed zeros differ; min prefers -0, max +0 */
        return is_min ? (signbit(v) ? v : m) : (signbit(v) ? m : v);
    return is_min ? (v < m ? v : m) : (v > m ? v : m);
}

static int same_value(double a, double b) {
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static void test_float_minmax(void) {
    cl_program p = build(fminmax_src, "float min/max");
    if (!p)
        return;
    static const double values[] = {0.0, -0.0, 1.5, -2.25, NAN, INFINITY, -INFINITY, 1e-40};
    enum { NV = sizeof values / sizeof values[0], NC = NV * NV * 4 };
    float mf[NC], vf[NC], oldf[NC], got_f[NC];
    double md[NC], vd[NC], oldd[NC], got_d[NC];
    int op[NC];
    for (int i = 0; i < NC; i++) {
        md[i] = values[i / (NV * 4)];
        vd[i] = values[(i / 4) % NV];
        op[i] = i % 4;
        mf[i] = (float)md[i];
        vf[i] = (float)vd[i];
    }
    cl_mem b[4] = {buffer(sizeof mf, mf), buffer(sizeof vf, vf), buffer(sizeof op, op),
                   buffer(sizeof oldf, NULL)};
    run(p, "cases", NC, 4, b, 4, 0);
    read_back(b[0], sizeof got_f, got_f);
    read_back(b[3], sizeof oldf, oldf);
    cl_mem bd[4] = {buffer(sizeof md, md), buffer(sizeof vd, vd), b[2], buffer(sizeof oldd, NULL)};
    run(p, "dcases", NC, 4, bd, 4, 0);
    read_back(bd[0], sizeof got_d, got_d);
    read_back(bd[3], sizeof oldd, oldd);
    int bad = 0;
    for (int i = 0; i < NC; i++) {
        /* 1e-40 is a float denormal: the float case compares with what the float holds. */
        double want_f = expect_minmax(op[i], mf[i], vf[i]);
        double want_d = expect_minmax(op[i], md[i], vd[i]);
        if (!same_value(got_f[i], want_f) || !same_value(oldf[i], mf[i]) ||
            !same_value(got_d[i], want_d) || !same_value(oldd[i], md[i])) {
            if (bad++ < 8)
                fprintf(stderr,
                        "%s(%g, %g): float %g (old %g), want %g; double %g (old %g), want %g\n",
                        op[i] % 2 ? "max" : "min", md[i], vd[i], got_f[i], oldf[i], want_f,
                        got_d[i], oldd[i], want_d);
        }
    }
    CHECK(bad == 0);
    release_all(b, 4);
    clReleaseMemObject(bd[0]);
    clReleaseMemObject(bd[1]);
    clReleaseMemObject(bd[3]);

    enum { N = 1 << 16, WG = 256, G = N / WG };
    float g0[2] = {INFINITY, -INFINITY}, g[2];
    double gd0[2] = {INFINITY, -INFINITY}, gd[2];
    float *lout = calloc(2 * G, sizeof(float));
    REQUIRE(lout);
    cl_mem c[3] = {buffer(sizeof g0, g0), buffer(sizeof gd0, gd0),
                   buffer(2 * G * sizeof(float), NULL)};
    run(p, "contended", N, WG, c, 3, N);
    read_back(c[0], sizeof g, g);
    read_back(c[1], sizeof gd, gd);
    read_back(c[2], 2 * G * sizeof(float), lout);
    float lo = INFINITY, hi = -INFINITY;
    int bad_local = 0;
    for (int grp = 0; grp < G; grp++) {
        float glo = INFINITY, ghi = -INFINITY;
        for (int i = grp * WG; i < (grp + 1) * WG; i++) {
            float v = (float)((i * 7919) % 100003) - 50000.0f;
            glo = v < glo ? v : glo;
            ghi = v > ghi ? v : ghi;
        }
        bad_local += lout[2 * grp] != glo || lout[2 * grp + 1] != ghi;
        lo = glo < lo ? glo : lo;
        hi = ghi > hi ? ghi : hi;
    }
    CHECK(g[0] == lo && g[1] == hi);
    CHECK(gd[0] == lo && gd[1] == hi);
    CHECK(bad_local == 0);
    release_all(c, 3);
    free(lout);
    clReleaseProgram(p);
}

int main(void) {
    dev = pick_device();
    cl_platform_id platform = NULL;
    char pname[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    is_culvert = !strcmp(pname, "culvert");
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    if (is_culvert)
        test_claims();
    if (cv_test_fake_cuda()) {
        /* The fake driver (fake.atomics_orders) runs no kernels: the claims only. */
        clReleaseCommandQueue(queue);
        clReleaseContext(ctx);
        return cv_test_report("atomics_orders (claims)");
    }
    if (has_feature("__opencl_c_atomic_order_acq_rel") &&
        has_feature("__opencl_c_atomic_scope_device"))
        test_message_passing();
    if (has_feature("__opencl_c_atomic_order_seq_cst") &&
        has_feature("__opencl_c_atomic_scope_device")) {
        test_store_buffering();
        test_counter();
    }
    if (has_extension("cl_ext_float_atomics") && has_feature("__opencl_c_fp64") &&
        has_feature("__opencl_c_ext_fp32_global_atomic_add"))
        test_float_add();
    else
        printf("cl_ext_float_atomics not claimed: float atomics skipped\n");
    if (has_extension("cl_ext_float_atomics") &&
        has_feature("__opencl_c_ext_fp32_global_atomic_add") &&
        has_feature("__opencl_c_ext_fp32_local_atomic_add") &&
        has_feature("__opencl_c_generic_address_space"))
        test_float_add_subnormal();
    if (has_extension("cl_ext_float_atomics") &&
        has_feature("__opencl_c_ext_fp64_global_atomic_min_max"))
        test_float_minmax();
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("atomics_orders");
}
