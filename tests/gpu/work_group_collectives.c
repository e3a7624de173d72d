/* OpenCL C 3.0 work-group collective functions on the GPU, against a CPU reference: every
 * function (reduce, inclusive and exclusive scans of add/min/max, broadcast by 1, 2 and 3 ids,
 * all, any) for int, uint, long, ulong, float and double; 1D work-groups of 1, 7, 32, 33, 64,
 * 100, 256 and 1024 work-items (sizes that end in a partial warp included), 2D groups of 8x8,
 * 16x3 and 32x32, 3D groups of 4x4x4; each with a uniform and a non-uniform global size (the
 * last groups smaller; in 2D/3D cut in x, which leaves holes in warps, or only in the slowest
 * dimension). Collectives run back to back in one kernel (the scratch reused), one feeding the
 * next. Integers must match exactly. Sums of floats may be in any order, so: the float inputs
 * are multiples of 1/4 whose sums float holds exactly (any order gives the exact sum, so they are
 * compared exactly), the double inputs have fractions and their sums get a tolerance. A
 * reduction must give every work-item of a group the same bits. */
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { NF = 16 }; /* result fields per work-item, as the kernel writes them */

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define BCAST(v, X, Y, Z) (dim == 1 ? work_group_broadcast(v, (X))\\\n"
    "    : dim == 2 ? work_group_broadcast(v, (X), (Y)) : work_group_broadcast(v, (X), (Y), (Z)))\n"
    "#define KERNEL(T)\\\n"
    "__kernel void coll_##T(__global const T *x, __global const int *flag, __global T *o,\\\n"
    "                       uint bx, uint by, uint bz) {\\\n"
    "    size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1))\\\n"
    "               * get_global_size(0) + get_global_id(0);\\\n"
    "    uint dim = get_work_dim();\\\n"
    "    size_t lx = get_local_size(0), ly = get_local_size(1), lz = get_local_size(2);\\\n"
    "    T v = x[g];\\\n"
    "    __global T *r = o + g * 16;\\\n"
    "    r[0] = work_group_reduce_add(v);\\\n"
    "    r[1] = work_group_reduce_min(v);\\\n"
    "    r[2] = work_group_reduce_max(v);\\\n"
    "    r[3] = work_group_scan_inclusive_add(v);\\\n"
    "    r[4] = work_group_scan_inclusive_min(v);\\\n"
    "    r[5] = work_group_scan_inclusive_max(v);\\\n"
    "    r[6] = work_group_scan_exclusive_add(v);\\\n"
    "    r[7] = work_group_scan_exclusive_min(v);\\\n"
    "    r[8] = work_group_scan_exclusive_max(v);\\\n"
    "    r[9] = BCAST(v, 0, 0, 0);\\\n"
    "    r[10] = BCAST(v, bx % lx, by % ly, bz % lz);\\\n"
    "    r[11] = BCAST(v, lx - 1, ly - 1, lz - 1);\\\n"
    "    r[12] = (T)work_group_all(flag[g] != 0);\\\n"
    "    r[13] = (T)work_group_any(flag[g] == 2);\\\n"
    "    r[14] = work_group_scan_exclusive_add(work_group_reduce_max(v));\\\n"
    "    r[15] = work_group_reduce_add(v);\\\n"
    "}\n"
    "KERNEL(int)\nKERNEL(uint)\nKERNEL(long)\nKERNEL(ulong)\nKERNEL(float)\nKERNEL(double)\n";

typedef enum { SIGNED, UNSIGNED, FLOAT } kind;
typedef struct wg_type {
    const char *name;
    size_t size;
    kind k;
} wg_type;
static const wg_type types[] = {{"int", 4, SIGNED},  {"uint", 4, UNSIGNED},
                                {"long", 8, SIGNED}, {"ulong", 8, UNSIGNED},
                                {"float", 4, FLOAT}, {"double", 8, FLOAT}};

/* A value of any of the types: integers as 64-bit two's complement (truncated to the type's
 * width when compared), floats as double. */
typedef struct val {
    uint64_t u;
    double f;
} val;

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static cl_program prog;

static uint64_t mix(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t width_mask(const wg_type *t) {
    return t->size == 8 ? ~0ull : 0xffffffffull;
}

static int64_t as_signed(const wg_type *t, uint64_t u) {
    return t->size == 8 ? (int64_t)u : (int64_t)(int32_t)(uint32_t)u;
}

static val load(const wg_type *t, const unsigned char *buf, size_t i) {
    val v = {0, 0};
    const unsigned char *p = buf + i * t->size;
    if (t->k == FLOAT) {
        if (t->size == 4) {
            float f;
            memcpy(&f, p, 4);
            v.f = f;
        } else {
            memcpy(&v.f, p, 8);
        }
    } else if (t->size == 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        v.u = t->k == SIGNED ? (uint64_t)(int64_t)(int32_t)w : w;
    } else {
        memcpy(&v.u, p, 8);
    }
    return v;
}

/* Input i: signed values small enough that no sum of 1024 overflows; unsigned ones over the
 * whole range (their sums wrap, as OpenCL defines); floats in quarters up to 2500 (1024 of them
 * sum exactly: below 2^24 quarters); doubles in thousandths. */
static void store_input(const wg_type *t, unsigned char *buf, size_t i) {
    uint64_t h = mix(i * 7919 + t->size * 31 + (uint64_t)t->k);
    unsigned char *p = buf + i * t->size;
    if (t->k == FLOAT) {
        double d = ((double)(int64_t)(h % 20001) - 10000.0) * (t->size == 4 ? 0.25 : 0.001);
        if (t->size == 4) {
            float f = (float)d;
            memcpy(p, &f, 4);
        } else {
            memcpy(p, &d, 8);
        }
    } else if (t->k == SIGNED) {
        int64_t s = t->size == 4 ? (int64_t)(h % 2000001) - 1000000
                                 : (int64_t)(h % 2000000000000001ull) - 1000000000000000ll;
        if (t->size == 4) {
            int32_t w = (int32_t)s;
            memcpy(p, &w, 4);
        } else {
            memcpy(p, &s, 8);
        }
    } else if (t->size == 4) {
        uint32_t w = (uint32_t)h;
        memcpy(p, &w, 4);
    } else {
        memcpy(p, &h, 8);
    }
}

typedef enum { ADD, MIN, MAX } op;

static val identity(const wg_type *t, op o) {
    val v = {0, 0};
    if (o == ADD)
        return v;
    if (t->k == FLOAT)
        v.f = o == MIN ? INFINITY : -INFINITY;
    else if (t->k == UNSIGNED)
        v.u = o == MIN ? width_mask(t) : 0;
    else if (t->size == 4)
        v.u = o == MIN ? (uint64_t)INT32_MAX : (uint64_t)(int64_t)INT32_MIN;
    else
        v.u = o == MIN ? (uint64_t)INT64_MAX : (uint64_t)INT64_MIN;
    return v;
}

static val apply(const wg_type *t, op o, val a, val b) {
    val r = a;
    if (t->k == FLOAT) {
        r.f = o == ADD ? a.f + b.f : o == MIN ? fmin(a.f, b.f) : fmax(a.f, b.f);
    } else if (o == ADD) {
        r.u = a.u + b.u;
    } else {
        int less = t->k == SIGNED ? as_signed(t, a.u) < as_signed(t, b.u)
                                  : (a.u & width_mask(t)) < (b.u & width_mask(t));
        r = (o == MIN) == less ? a : b;
    }
    return r;
}

/* got against want: integers exactly (at the type's width), double sums within a tolerance
 * relative to `scale` (the sum of the magnitudes that went in), everything else exactly. */
static int same(const wg_type *t, val got, val want, int is_sum, double scale) {
    if (t->k != FLOAT)
        return ((got.u ^ want.u) & width_mask(t)) == 0;
    if (!is_sum || t->size == 4)
        return got.f == want.f;
    return fabs(got.f - want.f) <= 1e-13 * (scale + 1.0);
}

static const char *field_names[NF] = {"reduce_add",
                                      "reduce_min",
                                      "reduce_max",
                                      "scan_inclusive_add",
                                      "scan_inclusive_min",
                                      "scan_inclusive_max",
                                      "scan_exclusive_add",
                                      "scan_exclusive_min",
                                      "scan_exclusive_max",
                                      "broadcast(0)",
                                      "broadcast(b)",
                                      "broadcast(last)",
                                      "all",
                                      "any",
                                      "scan_exclusive_add(reduce_max)",
                                      "reduce_add again"};

typedef struct config {
    cl_uint dim;
    size_t global[3], local[3];
} config;

/* Checks every work-item of every group: the group's items in local linear id order (x
 * fastest), with the group's true (possibly smaller) size. */
static void check(const wg_type *t, const config *c, const char *what, const unsigned char *x,
                  const cl_int *flag, const unsigned char *o, const cl_uint bid[3]) {
    size_t groups[3], items = c->local[0] * c->local[1] * c->local[2];
    size_t *members = malloc(items * sizeof(size_t));
    REQUIRE(members != NULL);
    for (int d = 0; d < 3; d++)
        groups[d] = (c->global[d] + c->local[d] - 1) / c->local[d];
    int bad = 0;
    for (size_t gi = 0; gi < groups[0] * groups[1] * groups[2]; gi++) {
        size_t gx = gi % groups[0], gy = gi / groups[0] % groups[1],
               gz = gi / groups[0] / groups[1];
        size_t base[3] = {gx * c->local[0], gy * c->local[1], gz * c->local[2]}, size[3];
        for (int d = 0; d < 3; d++) {
            size_t left = c->global[d] - base[d];
            size[d] = left < c->local[d] ? left : c->local[d];
        }
        size_t m = 0;
        for (size_t z = 0; z < size[2]; z++)
            for (size_t y = 0; y < size[1]; y++)
                for (size_t xx = 0; xx < size[0]; xx++)
                    members[m++] =
                        ((base[2] + z) * c->global[1] + base[1] + y) * c->global[0] + base[0] + xx;
        /* broadcast(b)'s source (b modulo the group's size) as a linear id of this group */
        size_t src_b = (bid[2] % size[2] * size[1] + bid[1] % size[1]) * size[0] + bid[0] % size[0];
        val tot[3], incl[3], excl[3];
        double scale = 0;
        int all = 1, any = 0;
        for (int f = 0; f < 3; f++)
            tot[f] = incl[f] = excl[f] = identity(t, (op)f);
        for (size_t i = 0; i < m; i++) {
            val v = load(t, x, members[i]);
            for (int f = 0; f < 3; f++)
                tot[f] = apply(t, (op)f, tot[f], v);
            scale += fabs(v.f);
            all &= flag[members[i]] != 0;
            any |= flag[members[i]] == 2;
        }
        val first_reduce = load(t, o, members[0] * NF);
        for (size_t i = 0; i < m; i++) {
            val v = load(t, x, members[i]);
            for (int f = 0; f < 3; f++)
                incl[f] = apply(t, (op)f, incl[f], v);
            val nested = {tot[2].u * (uint64_t)i, tot[2].f * (double)i};
            val want[NF] = {tot[0],
                            tot[1],
                            tot[2],
                            incl[0],
                            incl[1],
                            incl[2],
                            excl[0],
                            excl[1],
                            excl[2],
                            load(t, x, members[0]),
                            load(t, x, members[src_b]),
                            load(t, x, members[m - 1]),
                            {0, 0},
                            {0, 0},
                            nested,
                            tot[0]};
            for (int f = 0; f < NF; f++) {
                val got = load(t, o, members[i] * NF + (size_t)f);
                int ok;
                if (f == 12 || f == 13) /* all / any: any non-zero value is true */
                    ok = (t->k == FLOAT ? got.f != 0 : (got.u & width_mask(t)) != 0) ==
                         (f == 12 ? all : any);
                else
                    ok = same(t, got, want[f], f == 0 || f == 3 || f == 6 || f == 14 || f == 15,
                              f == 14 ? fabs(tot[2].f) * (double)i : scale);
                if (!ok && bad++ < 8)
                    fprintf(stderr,
                            "%s: group (%zu,%zu,%zu) item %zu of %zu: %s = %.17g / 0x%llx, want "
                            "%.17g / 0x%llx\n",
                            what, gx, gy, gz, i, m, field_names[f], got.f,
                            (unsigned long long)(got.u & width_mask(t)), want[f].f,
                            (unsigned long long)(want[f].u & width_mask(t)));
            }
            /* One reduction, one value: the same bits for every work-item. */
            val r0 = load(t, o, members[i] * NF);
            if (memcmp(&r0, &first_reduce, sizeof r0) != 0 && bad++ < 8)
                fprintf(stderr,
                        "%s: group (%zu,%zu,%zu) item %zu: reduce_add differs from item 0's\n",
                        what, gx, gy, gz, i);
            for (int f = 0; f < 3; f++)
                excl[f] = apply(t, (op)f, excl[f], v);
        }
    }
    CHECK(bad == 0);
    free(members);
}

/* Runs coll_<type> for one configuration and checks the results. */
static void run_config(const wg_type *t, const config *c) {
    char what[160];
    snprintf(what, sizeof what, "%s, global %zux%zux%zu, local %zux%zux%zu", t->name, c->global[0],
             c->global[1], c->global[2], c->local[0], c->local[1], c->local[2]);
    size_t n = c->global[0] * c->global[1] * c->global[2];
    unsigned char *x = malloc(n * t->size), *o = calloc(n * NF, t->size);
    cl_int *flag = malloc(n * sizeof(cl_int));
    REQUIRE(x && o && flag);
    for (size_t i = 0; i < n; i++) {
        store_input(t, x, i);
        uint64_t h = mix(i + 12345);
        flag[i] = h % 61 == 0 ? 0 : h % 53 == 0 ? 2 : 1;
    }
    const cl_uint bid[3] = {5, 2, 3}; /* broadcast(b): (5, 2, 3) modulo the group's size */
    cl_int err;
    char kname[32];
    snprintf(kname, sizeof kname, "coll_%s", t->name);
    cl_kernel k = clCreateKernel(prog, kname, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * t->size, x, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem bf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int),
                               flag, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * NF * t->size, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof bx, &bx));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof bf, &bf));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof bo, &bo));
    for (cl_uint a = 0; a < 3; a++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 3 + a, sizeof(cl_uint), &bid[a]));
    size_t kwg = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
    size_t items = c->local[0] * c->local[1] * c->local[2];
    if (items > kwg)
        fprintf(stderr, "%s: CL_KERNEL_WORK_GROUP_SIZE is only %zu\n", what, kwg);
    CHECK(items <= kwg);
    err = clEnqueueNDRangeKernel(queue, k, c->dim, NULL, c->global, c->local, 0, NULL, NULL);
    CHECK_ERR(CL_SUCCESS, err);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, n * NF * t->size, o, 0, NULL, NULL);
    CHECK_ERR(CL_SUCCESS, err);
    if (err == CL_SUCCESS)
        check(t, c, what, x, flag, o, bid);
    else
        fprintf(stderr, "%s: not run (%d)\n", what, err);
    clReleaseMemObject(bx);
    clReleaseMemObject(bf);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    free(x);
    free(o);
    free(flag);
}

int main(void) {
    cl_platform_id platform;
    dev = cv_test_gpu_device_or_skip(&platform);
    cl_bool compiler = CL_FALSE, collectives = CL_FALSE, non_uniform = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    REQUIRE(compiler == CL_TRUE);
    CHECK_ERR(CL_SUCCESS, clGetDeviceInfo(dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                                          sizeof collectives, &collectives, NULL));
    REQUIRE(collectives == CL_TRUE);
    clGetDeviceInfo(dev, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof non_uniform, &non_uniform,
                    NULL);
    CHECK(cv_test_has_c_feature(dev, "__opencl_c_work_group_collective_functions",
                                CL_MAKE_VERSION(3, 0, 0)));
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    /* At most 64 registers a work-item, so that work-groups of 1024 always fit the register
     * file (the double kernel is near that); what is measured is the collectives, not ptxas. */
    prog = cv_test_build(ctx, dev, 1, &source, "-cl-std=CL3.0 -cl-nv-maxrregcount=64",
                         "work_group_collectives", &err);
    REQUIRE(err == CL_SUCCESS);

    static const config uniform[] = {
        {1, {3, 1, 1}, {1, 1, 1}},     {1, {21, 1, 1}, {7, 1, 1}},
        {1, {96, 1, 1}, {32, 1, 1}},   {1, {99, 1, 1}, {33, 1, 1}},
        {1, {192, 1, 1}, {64, 1, 1}},  {1, {300, 1, 1}, {100, 1, 1}},
        {1, {768, 1, 1}, {256, 1, 1}}, {1, {3072, 1, 1}, {1024, 1, 1}},
        {2, {16, 24, 1}, {8, 8, 1}},   {2, {32, 9, 1}, {16, 3, 1}},
        {2, {64, 32, 1}, {32, 32, 1}}, {3, {8, 8, 8}, {4, 4, 4}},
    };
    /* The last groups smaller: 1D (a prefix of the block lives), 2D/3D cut in x (holes in
     * warps), 2D cut in y only (a prefix again), 32x32 cut to 8x8 (whole warps retired). */
    static const config non_uniform_configs[] = {
        {1, {18, 1, 1}, {7, 1, 1}},      {1, {80, 1, 1}, {32, 1, 1}},
        {1, {50, 1, 1}, {33, 1, 1}},     {1, {230, 1, 1}, {100, 1, 1}},
        {1, {2500, 1, 1}, {1024, 1, 1}}, {2, {20, 13, 1}, {8, 8, 1}},
        {2, {16, 20, 1}, {8, 8, 1}},     {2, {37, 7, 1}, {16, 3, 1}},
        {2, {40, 40, 1}, {32, 32, 1}},   {3, {10, 6, 7}, {4, 4, 4}},
        {3, {8, 8, 5}, {4, 4, 4}},
    };
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        for (size_t c = 0; c < sizeof uniform / sizeof uniform[0]; c++)
            run_config(&types[ti], &uniform[c]);
        for (size_t c = 0;
             non_uniform && c < sizeof non_uniform_configs / sizeof non_uniform_configs[0]; c++)
            run_config(&types[ti], &non_uniform_configs[c]);
    }
    if (!non_uniform)
        printf("non-uniform work-groups not claimed: those sizes skipped\n");
    clReleaseProgram(prog);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("work_group_collectives");
}
