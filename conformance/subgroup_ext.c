/* The Khronos sub-group extensions, one case each, run where the device claims the extension.
 * Every work-item reports its work-group, sub-group, sub-group local id and size beside its
 * results, and the host recomputes the results from those, so the checks hold for any
 * sub-group size and layout the device has. */
#include "ct.h"

#define NEED(name)                                                                                 \
    do {                                                                                           \
        if (!ct_dev_has_ext(e->device, name))                                                      \
            CT_SKIP(name " not claimed");                                                          \
        if (!ct_compiler(e))                                                                       \
            CT_SKIP("CL_DEVICE_COMPILER_AVAILABLE is false");                                      \
    } while (0)

enum { N = 128, HEAD = 4, MAXW = 20 };

/* The kernel "k" every case runs: HEAD fields, then its results (W ints per work-item). */
static const char *prelude =
    "#define HEAD size_t i = get_global_id(0); global int *r = o + i * W; int v = x[i];\\\n"
    "    uint l = get_sub_group_local_id(), n = get_sub_group_size();\\\n"
    "    r[0] = (int)get_group_id(0); r[1] = (int)get_sub_group_id(); r[2] = (int)l;\\\n"
    "    r[3] = (int)n\n";

/* Builds "#define W w" + prelude + body (OpenCL C 3.0), runs k over N work-items in groups of
 * up to 64 with x[i] = (i * 37) % 101 - 40, reads the results into o. */
static bool run_sg(ct_env *e, const char *body, int w, cl_int *x, cl_int *o) {
    char src[4096];
    snprintf(src, sizeof src, "#define W %d\n%s%s", w, prelude, body);
    for (int i = 0; i < N; i++)
        x[i] = (i * 37) % 101 - 40;
    for (int i = 0; i < N * w; i++)
        o[i] = -12345;
    cl_program p = ct_build(e, src, "-cl-std=CL3.0");
    cl_kernel k = ct_kernel(p, "k");
    cl_mem bx = ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int), x);
    cl_mem bo =
        ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)N * w * sizeof(cl_int), o);
    bool ok = p && k && bx && bo;
    if (ok) {
        size_t wg = 0, global = N, local = 64;
        clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
        while (local > wg && local > 1)
            local /= 2;
        clSetKernelArg(k, 0, sizeof bx, &bx);
        clSetKernelArg(k, 1, sizeof bo, &bo);
        cl_int err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (!err)
            err = clEnqueueReadBuffer(e->q, bo, CL_TRUE, 0, (size_t)N * w * sizeof(cl_int), o, 0,
                                      NULL, NULL);
        ct_checks++;
        if (err) {
            ct_fail(__FILE__, __LINE__, "running the kernel: %s", ct_err_name(err));
            ok = false;
        }
    }
    if (bo)
        clReleaseMemObject(bo);
    if (bx)
        clReleaseMemObject(bx);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return ok;
}

/* The items of i's sub-group by sub-group local id (-1 where none); returns the size the items
 * report, and checks that they agree on it. */
static int members(const cl_int *o, int w, int i, int *by_lane) {
    const cl_int *r = o + i * w;
    int n = r[3];
    CT_CHECK(n >= 1 && n <= N);
    if (n < 1 || n > N)
        return 0;
    for (int l = 0; l < n; l++)
        by_lane[l] = -1;
    for (int j = 0; j < N; j++) {
        const cl_int *q = o + j * w;
        if (q[0] == r[0] && q[1] == r[1] && q[2] >= 0 && q[2] < n)
            by_lane[q[2]] = j;
    }
    for (int l = 0; l < n; l++)
        CT_CHECK(by_lane[l] >= 0 && o[by_lane[l] * w + 3] == n);
    return n;
}

/* One mismatch message per case, then a count. */
static void expect(int *bad, const char *what, int i, long long got, long long want) {
    ct_checks++;
    if (got != want && (*bad)++ == 0)
        ct_fail(__FILE__, __LINE__, "%s at work-item %d: %lld, expected %lld", what, i, got, want);
}

static void extended_types(ct_env *e) {
    NEED("cl_khr_subgroup_extended_types");
    const char *body = "kernel void k(global const int *x, global int *o) {\n"
                       "    HEAD;\n"
                       "    r[4] = sub_group_reduce_add((char)v);\n"
                       "    r[5] = sub_group_scan_inclusive_max((short)(v * 300));\n"
                       "    r[6] = sub_group_broadcast((uchar)v, 0u);\n"
                       "    int4 b = sub_group_broadcast((int4)(v, v + 1, v + 2, v + 3), n - 1);\n"
                       "    r[7] = b.x;\n"
                       "    r[8] = b.w;\n"
                       "    r[9] = sub_group_scan_exclusive_min((ushort)(v + 100));\n"
                       "}\n";
    enum { W = 10 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        int sum = 0, mx = -32768, mn = 65535;
        for (int a = 0; a < n; a++) {
            sum += x[m[a]];
            if (a <= l && (short)(x[m[a]] * 300) > mx)
                mx = (short)(x[m[a]] * 300);
            if (a < l && (unsigned short)(x[m[a]] + 100) < mn)
                mn = (unsigned short)(x[m[a]] + 100);
        }
        expect(&bad, "sub_group_reduce_add(char)", i, o[i * W + 4], (signed char)sum);
        expect(&bad, "sub_group_scan_inclusive_max(short)", i, o[i * W + 5], mx);
        expect(&bad, "sub_group_broadcast(uchar)", i, o[i * W + 6], (unsigned char)x[m[0]]);
        expect(&bad, "sub_group_broadcast(int4).x", i, o[i * W + 7], x[m[n - 1]]);
        expect(&bad, "sub_group_broadcast(int4).w", i, o[i * W + 8], x[m[n - 1]] + 3);
        expect(&bad, "sub_group_scan_exclusive_min(ushort)", i, o[i * W + 9], mn);
    }
}

static void shuffle(ct_env *e) {
    NEED("cl_khr_subgroup_shuffle");
    const char *body = "kernel void k(global const int *x, global int *o) {\n"
                       "    HEAD;\n"
                       "    r[4] = sub_group_shuffle(v, (l + 1) % n);\n"
                       "    r[5] = sub_group_shuffle_xor(v, 1u);\n"
                       "    r[6] = (int)(sub_group_shuffle((long)v * 3000000000L, n - 1 - l) /\n"
                       "                 3000000000L);\n"
                       "    r[7] = (int)sub_group_shuffle_xor((float)v, 2u);\n"
                       "}\n";
    enum { W = 8 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        expect(&bad, "sub_group_shuffle", i, o[i * W + 4], x[m[(l + 1) % n]]);
        if ((l ^ 1) < n)
            expect(&bad, "sub_group_shuffle_xor", i, o[i * W + 5], x[m[l ^ 1]]);
        expect(&bad, "sub_group_shuffle(long)", i, o[i * W + 6], x[m[n - 1 - l]]);
        if ((l ^ 2) < n)
            expect(&bad, "sub_group_shuffle_xor(float)", i, o[i * W + 7], x[m[l ^ 2]]);
    }
}

static void shuffle_relative(ct_env *e) {
    NEED("cl_khr_subgroup_shuffle_relative");
    const char *body = "kernel void k(global const int *x, global int *o) {\n"
                       "    HEAD;\n"
                       "    r[4] = sub_group_shuffle_up(v, 1u);\n"
                       "    r[5] = sub_group_shuffle_down(v, 2u);\n"
                       "    r[6] = (int)sub_group_shuffle_down((ulong)(v + 50), 1u);\n"
                       "    r[7] = sub_group_shuffle_up((uchar)(v + 50), 3u);\n"
                       "}\n";
    enum { W = 8 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        if (l >= 1)
            expect(&bad, "sub_group_shuffle_up", i, o[i * W + 4], x[m[l - 1]]);
        if (l + 2 < n)
            expect(&bad, "sub_group_shuffle_down", i, o[i * W + 5], x[m[l + 2]]);
        if (l + 1 < n)
            expect(&bad, "sub_group_shuffle_down(ulong)", i, o[i * W + 6], x[m[l + 1]] + 50);
        if (l >= 3)
            expect(&bad, "sub_group_shuffle_up(uchar)", i, o[i * W + 7], x[m[l - 3]] + 50);
    }
}

static void ballot(ct_env *e) {
    NEED("cl_khr_subgroup_ballot");
    const char *body = "kernel void k(global const int *x, global int *o) {\n"
                       "    HEAD;\n"
                       "    uint4 b = sub_group_ballot(v & 1), lt = get_sub_group_lt_mask();\n"
                       "    r[4] = (int)b.x; r[5] = (int)b.y; r[6] = (int)b.z; r[7] = (int)b.w;\n"
                       "    r[8] = (int)sub_group_ballot_bit_count(b);\n"
                       "    r[9] = (int)sub_group_ballot_inclusive_scan(b);\n"
                       "    r[10] = sub_group_inverse_ballot(b);\n"
                       "    r[11] = (int)lt.x; r[12] = (int)lt.y; r[13] = (int)lt.z;\n"
                       "    r[14] = (int)lt.w;\n"
                       "    r[15] = sub_group_broadcast_first(v);\n"
                       "    r[16] = (int)sub_group_ballot_find_lsb(b);\n"
                       "    r[17] = sub_group_ballot_bit_extract(b, 0u);\n"
                       "    if (l >= 2)\n"
                       "        r[18] = sub_group_non_uniform_broadcast(v, 2u);\n"
                       "}\n";
    enum { W = 19 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        cl_uint b[4] = {0, 0, 0, 0}, lt[4] = {0, 0, 0, 0};
        int count = 0, incl = 0, lsb = -1;
        for (int a = 0; a < n; a++) {
            if (x[m[a]] & 1) {
                b[a / 32] |= 1u << (a % 32);
                count++;
                incl += a <= l;
                lsb = lsb < 0 ? a : lsb;
            }
            if (a < l)
                lt[a / 32] |= 1u << (a % 32);
        }
        for (int c = 0; c < 4; c++) {
            expect(&bad, "sub_group_ballot", i, (cl_uint)o[i * W + 4 + c], b[c]);
            expect(&bad, "get_sub_group_lt_mask", i, (cl_uint)o[i * W + 11 + c], lt[c]);
        }
        expect(&bad, "sub_group_ballot_bit_count", i, o[i * W + 8], count);
        expect(&bad, "sub_group_ballot_inclusive_scan", i, o[i * W + 9], incl);
        expect(&bad, "sub_group_inverse_ballot", i, o[i * W + 10] != 0, x[i] & 1);
        expect(&bad, "sub_group_broadcast_first", i, o[i * W + 15], x[m[0]]);
        if (lsb >= 0)
            expect(&bad, "sub_group_ballot_find_lsb", i, o[i * W + 16], lsb);
        expect(&bad, "sub_group_ballot_bit_extract", i, o[i * W + 17] != 0, x[m[0]] & 1);
        expect(&bad, "sub_group_non_uniform_broadcast", i, o[i * W + 18],
               l >= 2 ? x[m[2]] : -12345);
    }
}

static void non_uniform_vote(ct_env *e) {
    NEED("cl_khr_subgroup_non_uniform_vote");
    const char *body = "kernel void k(global const int *x, global int *o) {\n"
                       "    HEAD;\n"
                       "    if (l % 2 == 0) {\n"
                       "        r[4] = sub_group_elect();\n"
                       "        r[5] = sub_group_non_uniform_all(v > -100);\n"
                       "        r[6] = sub_group_non_uniform_any(v == 7);\n"
                       "        r[7] = sub_group_non_uniform_all_equal(v / 1000);\n"
                       "        r[8] = sub_group_non_uniform_all_equal((float)v);\n"
                       "    }\n"
                       "}\n";
    enum { W = 9 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        if (l % 2) {
            for (int f = 4; f < W; f++)
                expect(&bad, "an inactive work-item's result", i, o[i * W + f], -12345);
            continue;
        }
        int any = 0, count = 0, eq = 1;
        for (int a = 0; a < n; a += 2) {
            any |= x[m[a]] == 7;
            count++;
            eq &= x[m[a]] == x[m[0]];
        }
        expect(&bad, "sub_group_elect", i, o[i * W + 4] != 0, l == 0);
        expect(&bad, "sub_group_non_uniform_all", i, o[i * W + 5] != 0, 1);
        expect(&bad, "sub_group_non_uniform_any", i, o[i * W + 6] != 0, any);
        expect(&bad, "sub_group_non_uniform_all_equal", i, o[i * W + 7] != 0, 1);
        expect(&bad, "sub_group_non_uniform_all_equal(float)", i, o[i * W + 8] != 0,
               count == 1 || eq);
    }
}

static void non_uniform_arithmetic(ct_env *e) {
    NEED("cl_khr_subgroup_non_uniform_arithmetic");
    const char *body = "kernel void k(global const int *x, global int *o) {\n"
                       "    HEAD;\n"
                       "    if (l % 3 != 1) {\n"
                       "        r[4] = sub_group_non_uniform_reduce_add(v);\n"
                       "        r[5] = sub_group_non_uniform_scan_inclusive_max(v);\n"
                       "        r[6] = sub_group_non_uniform_scan_exclusive_add(v);\n"
                       "        r[7] = sub_group_non_uniform_reduce_logical_or(v == 7);\n"
                       "        r[8] = sub_group_non_uniform_reduce_xor(v);\n"
                       "        r[9] = (int)sub_group_non_uniform_scan_inclusive_mul((long)v);\n"
                       "        r[10] = (int)sub_group_non_uniform_reduce_min((double)v);\n"
                       "    }\n"
                       "}\n";
    enum { W = 11 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        if (l % 3 == 1) {
            for (int f = 4; f < W; f++)
                expect(&bad, "an inactive work-item's result", i, o[i * W + f], -12345);
            continue;
        }
        int sum = 0, mx = -1000, excl = 0, any = 0, xr = 0, mn = 1000;
        unsigned long long prod = 1;
        for (int a = 0; a < n; a++) {
            if (a % 3 == 1)
                continue;
            int v = x[m[a]];
            sum += v;
            xr ^= v;
            any |= v == 7;
            mn = v < mn ? v : mn;
            if (a <= l) {
                mx = v > mx ? v : mx;
                prod *= (unsigned long long)(long long)v;
            }
            if (a < l)
                excl += v;
        }
        expect(&bad, "sub_group_non_uniform_reduce_add", i, o[i * W + 4], sum);
        expect(&bad, "sub_group_non_uniform_scan_inclusive_max", i, o[i * W + 5], mx);
        expect(&bad, "sub_group_non_uniform_scan_exclusive_add", i, o[i * W + 6], excl);
        expect(&bad, "sub_group_non_uniform_reduce_logical_or", i, o[i * W + 7] != 0, any);
        expect(&bad, "sub_group_non_uniform_reduce_xor", i, o[i * W + 8], xr);
        expect(&bad, "sub_group_non_uniform_scan_inclusive_mul(long)", i, o[i * W + 9],
               (cl_int)(cl_uint)prod);
        expect(&bad, "sub_group_non_uniform_reduce_min(double)", i, o[i * W + 10], mn);
    }
}

static void clustered_reduce(ct_env *e) {
    NEED("cl_khr_subgroup_clustered_reduce");
    const char *body =
        "kernel void k(global const int *x, global int *o) {\n"
        "    HEAD;\n"
        "    r[4] = sub_group_clustered_reduce_add(v, 4u);\n"
        "    r[5] = sub_group_clustered_reduce_max(v, 2u);\n"
        "    r[6] = sub_group_clustered_reduce_logical_and(v > -30, 8u);\n"
        "    r[7] = sub_group_clustered_reduce_or(v, 1u);\n"
        "    r[8] = (int)sub_group_clustered_reduce_mul((float)(v & 1) + 1.0f, 4u);\n"
        "}\n";
    enum { W = 9 };
    static cl_int x[N], o[N * W];
    CT_REQUIRE(run_sg(e, body, W, x, o));
    int bad = 0, m[N];
    for (int i = 0; i < N; i++) {
        int n = members(o, W, i, m), l = o[i * W + 2];
        if (!n)
            continue;
        static const int sizes[] = {4, 2, 8, 1, 4};
        for (int c = 0; c < 5; c++) {
            int cs = sizes[c], first = l / cs * cs;
            if (cs > n)
                continue; /* a cluster larger than the sub-group: undefined */
            long long acc = c == 0 ? 0 : c == 1 ? -1000 : c == 2 ? 1 : c == 3 ? 0 : 1;
            for (int a = first; a < first + cs && a < n; a++) {
                int v = x[m[a]];
                acc = c == 0   ? acc + v
                      : c == 1 ? (v > acc ? v : acc)
                      : c == 2 ? (acc && v > -30)
                      : c == 3 ? (acc | v)
                               : acc * ((v & 1) + 1);
            }
            long long got = o[i * W + 4 + c];
            expect(&bad, "sub_group_clustered_reduce_*", i, c == 2 ? got != 0 : got, acc);
        }
    }
}

static const ct_case cases[] = {
    {"cl_khr_subgroup_extended_types", extended_types},
    {"cl_khr_subgroup_shuffle", shuffle},
    {"cl_khr_subgroup_shuffle_relative", shuffle_relative},
    {"cl_khr_subgroup_ballot", ballot},
    {"cl_khr_subgroup_non_uniform_vote", non_uniform_vote},
    {"cl_khr_subgroup_non_uniform_arithmetic", non_uniform_arithmetic},
    {"cl_khr_subgroup_clustered_reduce", clustered_reduce},
};
CT_SECTION(ct_subgroup_ext_section, "subgroup_ext", cases);
