/* OpenCL C builtins that an implementation built on libclc can miss (OpenCL C 3.0, 6.15): the
 * async copies of 3-vectors (every type, each direction, with strides, in uniform and non-uniform
 * work-groups), mad_hi of every integer type, smoothstep(double, double, doubleN), acospi outside
 * [-1, 1]. The host recomputes each result. (nan() is checked on culvert's GPU by
 * gpu.compiler_run: PoCL 3.1's nan(0u) is a signalling NaN.) */
#include "ct.h"

#include <math.h>

static bool fp64(ct_env *e) {
    return ct_dev_has_ext(e->device, "cl_khr_fp64");
}

/* Builds src with options (with the fp64 pragma where the device has doubles) or records why
 * not. */
static cl_program build_with(ct_env *e, const char *src, const char *options) {
    char *full = malloc(strlen(src) + 128);
    if (!full)
        return NULL;
    sprintf(full, "%s%s", fp64(e) ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", src);
    cl_program p = ct_build(e, full, options);
    free(full);
    return p;
}

static cl_program build(ct_env *e, const char *src) {
    return build_with(e, src, "");
}

/* Runs k over `global` work-items in groups of `local` with the buffers as its arguments, in
 * order; false when something failed (recorded). */
static bool run(ct_env *e, cl_kernel k, size_t global, size_t local, cl_mem *bufs, int nbufs) {
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < nbufs && !err; i++)
        err = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]);
    if (!err)
        err = clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (!err)
        err = clFinish(e->q);
    ct_checks++;
    if (err)
        ct_fail(__FILE__, __LINE__, "running the kernel: %s", ct_err_name(err));
    return !err;
}

/* ---- async copies of 3-vectors ---- */

typedef struct vtype {
    const char *name;
    size_t size; /* of one component */
    bool fp64;
} vtype;
static const vtype vtypes[] = {{"char", 1, false},   {"uchar", 1, false}, {"short", 2, false},
                               {"ushort", 2, false}, {"int", 4, false},   {"uint", 4, false},
                               {"long", 8, false},   {"ulong", 8, false}, {"float", 4, false},
                               {"double", 8, true}};

/* to_local: global -> local with the stride, then local -> global plainly; to_global: plainly
 * into local memory, then out with the stride. Each work-group copies n elements. */
static const char *copy_src =
    "#define COPY(T)\\\n"
    "kernel void to_local_##T(global const T *src, global T *dst, local T *tmp, uint n,\\\n"
    "                         uint stride) {\\\n"
    "  size_t g = get_group_id(0);\\\n"
    "  event_t e = async_work_group_strided_copy(tmp, src + g * n * stride, n, stride, 0);\\\n"
    "  wait_group_events(1, &e);\\\n"
    "  e = async_work_group_copy(dst + g * n, tmp, n, 0);\\\n"
    "  wait_group_events(1, &e);\\\n"
    "  prefetch(src, n);\\\n"
    "}\\\n"
    "kernel void to_global_##T(global const T *src, global T *dst, local T *tmp, uint n,\\\n"
    "                          uint stride) {\\\n"
    "  size_t g = get_group_id(0);\\\n"
    "  event_t e = async_work_group_copy(tmp, src + g * n, n, 0);\\\n"
    "  wait_group_events(1, &e);\\\n"
    "  e = async_work_group_strided_copy(dst + g * n * stride, tmp, n, stride, 0);\\\n"
    "  wait_group_events(1, &e);\\\n"
    "}\n"
    "COPY(char3) COPY(uchar3) COPY(short3) COPY(ushort3) COPY(int3) COPY(uint3) COPY(long3)\n"
    "COPY(ulong3) COPY(float3)\n"
    "#ifdef cl_khr_fp64\n"
    "COPY(double3)\n"
    "#endif\n";

enum { COPY_N = 37, STRIDE = 3, GROUPS = 3 };

/* One kernel of one type: element j of a 3-vector array is 4 components apart; the first three
 * are checked (the fourth is padding, whose contents the copy need not keep). */
static void copy_one(ct_env *e, cl_program p, const char *kernel, const vtype *t, size_t local,
                     size_t global, bool strided_in) {
    char name[64];
    snprintf(name, sizeof name, "%s_%s3", kernel, t->name);
    cl_kernel k = ct_kernel(p, name);
    if (!k)
        return;
    size_t groups = (global + local - 1) / local, elem = 4 * t->size;
    size_t count = groups * COPY_N * STRIDE; /* elements in src and dst */
    unsigned char *src = malloc(count * elem), *dst = malloc(count * elem);
    CT_REQUIRE(src && dst);
    for (size_t i = 0; i < count * elem; i++) {
        src[i] = (unsigned char)(i * 131 + 7);
        dst[i] = 0xa5;
    }
    cl_mem b[2] = {ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * elem, src),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, count * elem, dst)};
    cl_uint args[2] = {COPY_N, STRIDE};
    bool ok = b[0] && b[1] && clSetKernelArg(k, 2, COPY_N * elem, NULL) == CL_SUCCESS;
    if (ok) {
        cl_int err = CL_SUCCESS;
        err |= clSetKernelArg(k, 0, sizeof(cl_mem), &b[0]);
        err |= clSetKernelArg(k, 1, sizeof(cl_mem), &b[1]);
        err |= clSetKernelArg(k, 3, sizeof(cl_uint), &args[0]);
        err |= clSetKernelArg(k, 4, sizeof(cl_uint), &args[1]);
        CT_ERR(CL_SUCCESS, err);
        CT_ERR(CL_SUCCESS,
               clEnqueueNDRangeKernel(e->q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS,
               clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, count * elem, dst, 0, NULL, NULL));
        int bad = 0;
        for (size_t d = 0; d < count; d++) {
            /* the source element of destination element d, or none (left as it was) */
            long from = -1;
            if (strided_in && d < groups * COPY_N)
                from = (long)((d / COPY_N) * COPY_N * STRIDE + (d % COPY_N) * STRIDE);
            else if (!strided_in && d % STRIDE == 0)
                from = (long)(d / STRIDE);
            for (size_t c = 0; c < 3 * t->size; c++) {
                unsigned char want = from >= 0 ? src[(size_t)from * elem + c] : 0xa5;
                if (dst[d * elem + c] != want && bad++ < 4)
                    ct_fail(__FILE__, __LINE__,
                            "%s, global %zu local %zu: element %zu byte %zu = %#x, want %#x", name,
                            global, local, d, c, dst[d * elem + c], want);
            }
        }
        CT_CHECK(bad == 0);
    }
    for (int i = 0; i < 2; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
    clReleaseKernel(k);
    free(src);
    free(dst);
}

static void async_copy_vec3(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    size_t local = 32;
    cl_bool non_uniform = CL_FALSE;
    clGetDeviceInfo(e->device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(non_uniform),
                    &non_uniform, NULL);
    /* Non-uniform work-groups need a program of OpenCL C 2.0 or later ("-cl-std=CL2.0 or
     * higher" without -cl-uniform-work-group-size). */
    cl_program p = build_with(e, copy_src, non_uniform ? "-cl-std=CL3.0" : "");
    CT_REQUIRE(p != NULL);
    for (size_t i = 0; i < sizeof vtypes / sizeof vtypes[0]; i++) {
        if (vtypes[i].fp64 && !fp64(e))
            continue;
        for (int strided_in = 0; strided_in < 2; strided_in++) {
            const char *kernel = strided_in ? "to_local" : "to_global";
            copy_one(e, p, kernel, &vtypes[i], local, GROUPS * local, strided_in);
            /* the last work-group has 5 work-items: they copy all COPY_N elements */
            if (non_uniform)
                copy_one(e, p, kernel, &vtypes[i], local, (GROUPS - 1) * local + 5, strided_in);
        }
    }
    clReleaseProgram(p);
}

/* ---- mad_hi ---- */

typedef struct itype {
    const char *name;
    int bits;
    bool is_signed;
} itype;
static const itype itypes[] = {{"char", 8, true},     {"uchar", 8, false}, {"short", 16, true},
                               {"ushort", 16, false}, {"int", 32, true},   {"uint", 32, false},
                               {"long", 64, true},    {"ulong", 64, false}};

/* The value of x as a signed or unsigned integer of `bits` bits. */
static __int128 as_int(const itype *t, cl_ulong x) {
    if (t->bits < 64)
        x &= (1ull << t->bits) - 1;
    if (t->is_signed && (x >> (t->bits - 1)) & 1)
        return (__int128)x - ((__int128)1 << t->bits);
    return (__int128)x;
}

/* mad_hi(a, b, c) = mul_hi(a, b) + c, in the type (wrapping): every type, as a scalar and as a
 * 3-vector, on operands over the whole range. */
static void mad_hi_all(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    static const char *src = "#define MAD(T)\\\n"
                             "kernel void mad_##T(global const ulong *x, global ulong *o) {\\\n"
                             "  size_t i = get_global_id(0);\\\n"
                             "  T a = (T)x[3 * i], b = (T)x[3 * i + 1], c = (T)x[3 * i + 2];\\\n"
                             "  o[2 * i] = (ulong)mad_hi(a, b, c);\\\n"
                             "  o[2 * i + 1] = (ulong)mad_hi((T##3)(b, c, a), (T##3)(b), \\\n"
                             "                               (T##3)(c)).s2;\\\n"
                             "}\n"
                             "MAD(char) MAD(uchar) MAD(short) MAD(ushort) MAD(int) MAD(uint)\n"
                             "MAD(long) MAD(ulong)\n";
    cl_program p = build(e, src);
    CT_REQUIRE(p != NULL);
    enum { M = 64 };
    cl_ulong x[3 * M], o[2 * M];
    cl_ulong s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 3 * M; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x[i] = i < 9 ? (cl_ulong) - (i % 3) : s; /* 0, -1, -2 among them */
    }
    cl_mem b[2] = {ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x),
                   ct_buffer(e, CL_MEM_READ_WRITE, sizeof o, NULL)};
    for (size_t t = 0; b[0] && b[1] && t < sizeof itypes / sizeof itypes[0]; t++) {
        const itype *it = &itypes[t];
        char name[32];
        snprintf(name, sizeof name, "mad_%s", it->name);
        cl_kernel k = ct_kernel(p, name);
        if (!k || !run(e, k, M, 1, b, 2)) {
            if (k)
                clReleaseKernel(k);
            continue;
        }
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
        int bad = 0;
        for (int i = 0; i < M; i++) {
            __int128 a = as_int(it, x[3 * i]), bb = as_int(it, x[3 * i + 1]);
            __int128 c = as_int(it, x[3 * i + 2]);
            /* the high half of the product: an arithmetic shift (floor division by 2^bits);
             * ulong's product may need all 128 bits, unsigned */
            __int128 hi = it->bits == 64 && !it->is_signed
                              ? (__int128)(((unsigned __int128)x[3 * i] * x[3 * i + 1]) >> 64)
                              : (a * bb) >> it->bits;
            __int128 want = as_int(it, (cl_ulong)(hi + c));
            for (int v = 0; v < 2; v++)
                if (as_int(it, o[2 * i + v]) != want && bad++ < 4)
                    ct_fail(__FILE__, __LINE__, "mad_hi(%s%s) #%d: %#llx, want %#llx", it->name,
                            v ? "3" : "", i, (unsigned long long)o[2 * i + v],
                            (unsigned long long)(cl_ulong)want);
        }
        CT_CHECK(bad == 0);
        clReleaseKernel(k);
    }
    for (int i = 0; i < 2; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
    clReleaseProgram(p);
}

/* ---- smoothstep(double, double, doubleN), acospi outside [-1, 1] ---- */

static double smooth(double e0, double e1, double x) {
    double t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

static void smoothstep_scalar_edges(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    if (!fp64(e))
        CT_SKIP("no cl_khr_fp64");
    static const char *src = "kernel void k(global const double *x, global double *o) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  vstore2(smoothstep(x[0], x[1], vload2(i, x + 2)), i, o);\n"
                             "  vstore3(smoothstep(x[0], x[1], vload3(i, x + 2)), i, o + 64);\n"
                             "  vstore4(smoothstep(x[0], x[1], vload4(i, x + 2)), i, o + 128);\n"
                             "  vstore8(smoothstep(x[0], x[1], vload8(i, x + 2)), i, o + 256);\n"
                             "  vstore16(smoothstep(x[0], x[1], vload16(i, x + 2)), i, o + 512);\n"
                             "}\n";
    cl_program p = build(e, src);
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "k");
    enum { ITEMS = 4, IN = 2 + 16 * ITEMS };
    double x[IN], o[1024];
    x[0] = -1.5;
    x[1] = 2.25;
    for (int i = 2; i < IN; i++)
        x[i] = -3 + 0.1 * (i - 2);
    cl_mem b[2] = {ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x),
                   ct_buffer(e, CL_MEM_READ_WRITE, sizeof o, NULL)};
    if (k && b[0] && b[1] && run(e, k, ITEMS, 1, b, 2)) {
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
        static const int widths[] = {2, 3, 4, 8, 16}, at[] = {0, 64, 128, 256, 512};
        int bad = 0;
        for (int w = 0; w < 5; w++)
            for (int i = 0; i < ITEMS * widths[w]; i++) {
                double want = smooth(x[0], x[1], x[2 + i]), got = o[at[w] + i];
                if (!(fabs(got - want) <= 1e-12) && bad++ < 4)
                    ct_fail(__FILE__, __LINE__,
                            "smoothstep(double, double, double%d) #%d: %.17g, "
                            "want %.17g",
                            widths[w], i, got, want);
            }
        CT_CHECK(bad == 0);
    }
    for (int i = 0; i < 2; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

/* acospi(x) is acos(x) / pi: NaN for |x| > 1. */
static void acospi_domain(ct_env *e) {
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    static const char *src = "kernel void k(global const float *x, global float *f,\n"
                             "              global double *d) {\n"
                             "  f[0] = acospi(x[0]); f[1] = acospi(-x[0]);\n"
                             "#ifdef cl_khr_fp64\n"
                             "  d[0] = acospi((double)x[0]); d[1] = acospi(-(double)x[0]);\n"
                             "#endif\n"
                             "}\n";
    cl_program p = build(e, src);
    CT_REQUIRE(p != NULL);
    cl_kernel k = ct_kernel(p, "k");
    float x = 2.0f, f[2] = {0, 0};
    double d[2] = {0, 0};
    cl_mem b[3] = {ct_buffer(e, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, &x),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof f, f),
                   ct_buffer(e, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof d, d)};
    if (k && b[0] && b[1] && b[2] && run(e, k, 1, 1, b, 3)) {
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b[1], CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
        CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, b[2], CL_TRUE, 0, sizeof d, d, 0, NULL, NULL));
        CT_CHECK(isnan(f[0]) && isnan(f[1]));
        if (fp64(e))
            CT_CHECK(isnan(d[0]) && isnan(d[1]));
    }
    for (int i = 0; i < 3; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
}

static const ct_case cases[] = {
    {"async_copy_vec3", async_copy_vec3},
    {"mad_hi", mad_hi_all},
    {"smoothstep_scalar_edges", smoothstep_scalar_edges},
    {"acospi_domain", acospi_domain},
};
CT_SECTION(ct_builtins_section, "builtins", cases);
