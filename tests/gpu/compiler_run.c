/* OpenCL C through the OpenCL API on culvert's GPU: clCreateProgramWithSource + clBuildProgram,
 * kernels run and compared with the CPU (vectors, __constant and __local arguments, fp64,
 * 32- and 64-bit atomics, work-item functions with a global offset and, where the device
 * claims it, non-uniform work-groups), build errors and their log, bad options,
 * clCompileProgram + clLinkProgram with an embedded header and -create-library, a kernel
 * calling another kernel, clGetKernelArgInfo from the compiler's metadata, printf's h/hh
 * lengths, and nan()'s quiet NaNs. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "__kernel void saxpy4(__global const float4 *x, __global float4 *y, __constant float *a,\n"
    "                     __local float4 *tmp) {\n"
    "    size_t i = get_global_id(0), l = get_local_id(0);\n"
    "    tmp[l] = x[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    size_t other = get_local_size(0) - 1 - l;\n"
    "    y[i] = a[0] * tmp[other] + y[i];\n"
    "}\n"
    "__kernel void dmath(__global const double *x, __global double *y) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = sqrt(x[i]) + exp(x[i] * 0.01) + fma(x[i], 2.0, 1.0);\n"
    "}\n"
    "__kernel void counters(__global int *c32, __global long *c64, __global ulong *mx) {\n"
    "    size_t i = get_global_id(0);\n"
    "    atomic_inc(&c32[0]);\n"
    "    atom_add(&c64[0], (long)i);\n"
    "    atom_max(&mx[0], (ulong)i * 3);\n"
    "    atom_min(&c64[1], -(long)i);\n"
    "}\n"
    "__kernel void ids(__global ulong *out) {\n"
    "    size_t gx = get_global_id(0) - get_global_offset(0);\n"
    "    size_t gy = get_global_id(1) - get_global_offset(1);\n"
    "    size_t gz = get_global_id(2) - get_global_offset(2);\n"
    "    size_t g = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;\n"
    "    __global ulong *o = out + g * 8;\n"
    "    o[0] = get_global_id(0) | get_global_id(1) << 16 | (ulong)get_global_id(2) << 32;\n"
    "    o[1] = get_local_id(0) | get_local_id(1) << 16 | (ulong)get_local_id(2) << 32;\n"
    "    o[2] = get_group_id(0) | get_group_id(1) << 16 | (ulong)get_group_id(2) << 32;\n"
    "    o[3] = get_local_size(0) | get_local_size(1) << 16 | (ulong)get_local_size(2) << 32;\n"
    "    o[4] = get_num_groups(0) | get_num_groups(1) << 16 | (ulong)get_num_groups(2) << 32;\n"
    "    o[5] = get_global_size(0) | get_global_size(1) << 16 | (ulong)get_global_size(2) << 32;\n"
    "    o[6] = get_work_dim();\n"
    "    o[7] = 0xc0ffee;\n"
    "}\n";

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;

static cl_mem buffer(size_t size, const void *init) {
    return cv_test_buffer(ctx, size, init);
}

static void run(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global,
                const size_t *local) {
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, dim, offset, global, local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
}

/* A program from source, built for the device; on failure the build log is printed. */
static cl_program build_source(const char *src, const char *options, const char *what,
                               cl_int *err) {
    return cv_test_build(ctx, dev, 1, &src, options, what, err);
}

static void test_saxpy(cl_program p) {
    enum { n = 1024, wg = 64 };
    cl_int err;
    static float x[n * 4], y[n * 4], out[n * 4];
    float a = 2.5f;
    for (int i = 0; i < n * 4; i++) {
        x[i] = (float)i * 0.25f;
        y[i] = (float)(n - i);
    }
    cl_mem bx = buffer(sizeof x, x), by = buffer(sizeof y, y), ba = buffer(sizeof a, &a);
    cl_kernel k = clCreateKernel(p, "saxpy4", &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof bx, &bx));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof by, &by));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof ba, &ba));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 3, wg * 4 * sizeof(float), NULL));
    size_t global = n, local = wg;
    run(k, 1, NULL, &global, &local);
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(queue, by, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int group = i / wg, l = i % wg, other = group * wg + (wg - 1 - l);
        for (int c = 0; c < 4; c++) {
            float want = a * x[other * 4 + c] + y[i * 4 + c];
            if (out[i * 4 + c] != want && bad++ < 3)
                fprintf(stderr, "saxpy4[%d].%d = %g, want %g\n", i, c, out[i * 4 + c], want);
        }
    }
    CHECK(bad == 0);
    /* Argument info from the //cv: metadata. */
    char name[64] = "", type[64] = "";
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_type_qualifier tq = 0;
    CHECK_ERR(CL_SUCCESS, clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    CHECK(!strcmp(name, "tmp"));
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    CHECK(!strcmp(type, "float4*"));
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_CONSTANT);
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
    CHECK_ERR(CL_SUCCESS,
              clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    CHECK(tq == CL_KERNEL_ARG_TYPE_CONST);
    clReleaseKernel(k);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(ba);
}

static void test_dmath(cl_program p) {
    enum { n = 4096 };
    cl_int err;
    static double x[n], y[n];
    for (int i = 0; i < n; i++)
        x[i] = i * 0.37;
    cl_mem bx = buffer(sizeof x, x), by = buffer(sizeof y, NULL);
    cl_kernel k = clCreateKernel(p, "dmath", &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof bx, &bx);
    clSetKernelArg(k, 1, sizeof by, &by);
    size_t global = n;
    run(k, 1, NULL, &global, NULL);
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(queue, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double want = sqrt(x[i]) + exp(x[i] * 0.01) + fma(x[i], 2.0, 1.0);
        if (fabs(y[i] - want) > 1e-12 * fabs(want) && bad++ < 3)
            fprintf(stderr, "dmath[%d] = %.17g, want %.17g\n", i, y[i], want);
    }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
}

static void test_atomics(cl_program p) {
    enum { n = 100000 };
    cl_int err;
    cl_int c32 = 0;
    cl_long c64[2] = {0, 0};
    cl_ulong mx = 0;
    cl_mem b32 = buffer(sizeof c32, &c32), b64 = buffer(sizeof c64, c64),
           bmx = buffer(sizeof mx, &mx);
    cl_kernel k = clCreateKernel(p, "counters", &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof b32, &b32);
    clSetKernelArg(k, 1, sizeof b64, &b64);
    clSetKernelArg(k, 2, sizeof bmx, &bmx);
    size_t global = n, local = 100;
    run(k, 1, NULL, &global, &local);
    clEnqueueReadBuffer(queue, b32, CL_TRUE, 0, sizeof c32, &c32, 0, NULL, NULL);
    clEnqueueReadBuffer(queue, b64, CL_TRUE, 0, sizeof c64, c64, 0, NULL, NULL);
    clEnqueueReadBuffer(queue, bmx, CL_TRUE, 0, sizeof mx, &mx, 0, NULL, NULL);
    CHECK(c32 == n);
    CHECK(c64[0] == (cl_long)n * (n - 1) / 2);
    CHECK(c64[1] == -(cl_long)(n - 1));
    CHECK(mx == (cl_ulong)(n - 1) * 3);
    clReleaseKernel(k);
    clReleaseMemObject(b32);
    clReleaseMemObject(b64);
    clReleaseMemObject(bmx);
}

/* One launch of `ids` checked field by field against what the spec says each function returns. */
static void check_ids(cl_program p, const char *name, const size_t *offset, const size_t *global,
                      const size_t *local) {
    cl_int err;
    size_t total = global[0] * global[1] * global[2];
    cl_ulong *out = calloc(total * 8, sizeof *out);
    cl_mem b = buffer(total * 8 * sizeof *out, out);
    cl_kernel k = clCreateKernel(p, name, &err);
    REQUIRE(err == CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof b, &b);
    run(k, 3, offset, global, local);
    clEnqueueReadBuffer(queue, b, CL_TRUE, 0, total * 8 * sizeof *out, out, 0, NULL, NULL);
    int bad = 0;
    for (size_t z = 0; z < global[2]; z++)
        for (size_t y = 0; y < global[1]; y++)
            for (size_t x = 0; x < global[0]; x++) {
                size_t g[3] = {x, y, z}, want[8] = {0};
                cl_ulong *o = out + ((z * global[1] + y) * global[0] + x) * 8;
                for (int d = 0; d < 3; d++) {
                    size_t shift = d == 0 ? 0 : d == 1 ? 16 : 32;
                    size_t group = g[d] / local[d], groups = (global[d] + local[d] - 1) / local[d];
                    size_t lsize = group == groups - 1 && global[d] % local[d]
                                       ? global[d] % local[d]
                                       : local[d];
                    want[0] |= (g[d] + offset[d]) << shift;
                    want[1] |= (g[d] % local[d]) << shift;
                    want[2] |= group << shift;
                    want[3] |= lsize << shift;
                    want[4] |= groups << shift;
                    want[5] |= global[d] << shift;
                }
                want[6] = 3;
                want[7] = 0xc0ffee;
                for (int f = 0; f < 8; f++)
                    if (o[f] != want[f] && bad++ < 5)
                        fprintf(stderr, "ids (%zu,%zu,%zu) field %d = %#llx, want %#llx\n", x, y, z,
                                f, (unsigned long long)o[f], (unsigned long long)want[f]);
            }
    CHECK(bad == 0);
    clReleaseKernel(k);
    clReleaseMemObject(b);
    free(out);
}

/* A kernel calling another kernel runs it as a function of its own work-item: the work-item
 * functions of the called kernel answer for the caller's launch (offsets, split grids). */
static void test_kernel_calls(const size_t *offset, const size_t *global, const size_t *local) {
    cl_int err;
    const char *srcs[2] = {source, "__kernel void ids_call(__global ulong *out) { ids(out); }\n"};
    cl_program p = cv_test_build(ctx, dev, 2, srcs, "-cl-std=CL1.2", "kernel calls", &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (err != CL_SUCCESS)
        return;
    check_ids(p, "ids_call", offset, global, local);
    size_t g_big[3] = {2, 70000, 1}, l_big[3] = {2, 1, 1};
    check_ids(p, "ids_call", offset, g_big, l_big);
    check_ids(p, "ids", offset, global, local);
    clReleaseProgram(p);
}

/* printf: one line per call, each whole, written to stdout by the time clFinish returns; h and
 * hh lengths print the int argument as a short and a char. */
static void test_printf(void) {
    cl_int err;
    /* with cl_khr_fp16 the %f argument is a half (promoted to double, as a float is) */
    const char *src =
        "#ifdef cl_khr_fp16\n"
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "#define ARG(x) (half)(x)\n"
        "#else\n"
        "#define ARG(x) (x)\n"
        "#endif\n"
        "__kernel void say(int base) {\n"
        "    int i = (int)get_global_id(0);\n"
        "    printf(\"cvprintf %d %.1f %s %ld\\n\", i, ARG(0.5f * i), \"ok\", (long)base + i);\n"
        "    printf(\"cvvector %d %v4hld|%.1v2hlf|%v2hhu\\n\", i, (int4)(i, -i, 2 * i, 7),\n"
        "           (float2)(0.5f * i, -1.5f), (uchar2)(200, i));\n"
        "    printf(\"cvnarrow %d %hhd %hhx %hho %hd %hx %hhu\\n\", i, 128 + i, 127 - i, i - 128,\n"
        "           70000 + i, i - 32767, base + i);\n"
        "}\n";
    cl_program p = build_source(src, "", "kernel", &err);
    CHECK(err == CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "say", &err);
    CHECK(err == CL_SUCCESS);
    cl_int base = 1000;
    clSetKernelArg(k, 0, sizeof base, &base);
    char path[] = "/tmp/cv-printf-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    size_t global = 16;
    run(k, 1, NULL, &global, NULL);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    FILE *f = fopen(path, "r");
    int seen[16] = {0}, lines = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        int i;
        float x;
        char word[8];
        long v;
        int e[4], u[2], h[4];
        unsigned hx[2];
        float y[2];
        if (sscanf(line, "cvprintf %d %f %7s %ld", &i, &x, word, &v) == 4 && i >= 0 && i < 16 &&
            x == 0.5f * i && !strcmp(word, "ok") && v == 1000 + i)
            seen[i]++;
        else if (sscanf(line, "cvvector %d %d,%d,%d,%d|%f,%f|%d,%d", &i, &e[0], &e[1], &e[2], &e[3],
                        &y[0], &y[1], &u[0], &u[1]) == 9 &&
                 i >= 0 && i < 16 && e[0] == i && e[1] == -i && e[2] == 2 * i && e[3] == 7 &&
                 y[0] == 0.5f * i && y[1] == -1.5f && u[0] == 200 && u[1] == i)
            seen[i] += 16;
        /* h, hh: the int cut to short, char (C's printf): 128 + i as signed char, 127 - i as
         * unsigned char in hex, i - 128 in octal (128 + i), 70000 + i as short, i - 32767 as
         * unsigned short in hex, 1000 + i as unsigned char */
        else if (sscanf(line, "cvnarrow %d %d %x %o %d %x %d", &i, &h[0], &hx[0], &h[1], &h[2],
                        &hx[1], &h[3]) == 7 &&
                 i >= 0 && i < 16 && h[0] == i - 128 && hx[0] == 127u - (unsigned)i &&
                 h[1] == 128 + i && h[2] == 4464 + i && hx[1] == 32769u + (unsigned)i &&
                 h[3] == (1000 + i) % 256)
            seen[i] += 256;
        else
            fprintf(stderr, "unexpected printf output: %s", line);
        lines++;
    }
    if (f)
        fclose(f);
    close(fd);
    unlink(path);
    CHECK(lines == 48);
    for (int i = 0; i < 16; i++)
        CHECK(seen[i] == 273); /* a scalar, a vector and a narrow line each */
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* nan(code) is a quiet NaN for every code, 0 among them (libclc's double nan(0UL) was
 * infinity): float, double, half; scalars and a vector. */
static void test_nan(void) {
    cl_int err;
    const char *src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                      "__kernel void nans(__global const ulong *c, __global uint *f,\n"
                      "                   __global ulong *d, __global ushort *h) {\n"
                      "    size_t i = get_global_id(0);\n"
                      "    f[2 * i] = as_uint(nan((uint)c[i]));\n"
                      "    f[2 * i + 1] = as_uint(nan((uint2)((uint)c[i])).y);\n"
                      "    d[2 * i] = as_ulong(nan(c[i]));\n"
                      "    d[2 * i + 1] = as_ulong(nan((ulong4)(c[i])).z);\n"
                      "    h[2 * i] = as_ushort(nan((ushort)c[i]));\n"
                      "    h[2 * i + 1] = as_ushort(nan((ushort8)((ushort)c[i])).s7);\n"
                      "}\n";
    cl_program p = build_source(src, "", "nan", &err);
    CHECK(err == CL_SUCCESS);
    if (err != CL_SUCCESS)
        return;
    enum { N = 6 };
    cl_ulong codes[N] = {0, 1, 0x12345, 0xffffffffu, 0xfffffffffffffull, ~0ull};
    cl_uint f[2 * N];
    cl_ulong d[2 * N];
    cl_ushort h[2 * N];
    cl_mem bc = buffer(sizeof codes, codes), bf = buffer(sizeof f, NULL),
           bd = buffer(sizeof d, NULL), bh = buffer(sizeof h, NULL);
    cl_kernel k = clCreateKernel(p, "nans", &err);
    CHECK(err == CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof bc, &bc);
    clSetKernelArg(k, 1, sizeof bf, &bf);
    clSetKernelArg(k, 2, sizeof bd, &bd);
    clSetKernelArg(k, 3, sizeof bh, &bh);
    size_t global = N;
    run(k, 1, NULL, &global, NULL);
    CHECK(clEnqueueReadBuffer(queue, bf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL) == CL_SUCCESS);
    CHECK(clEnqueueReadBuffer(queue, bd, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL) == CL_SUCCESS);
    CHECK(clEnqueueReadBuffer(queue, bh, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL) == CL_SUCCESS);
    for (int i = 0; i < 2 * N; i++) {
        bool qf = (f[i] & 0x7fc00000u) == 0x7fc00000u;
        bool qd = (d[i] & 0x7ff8000000000000ull) == 0x7ff8000000000000ull;
        bool qh = (h[i] & 0x7e00u) == 0x7e00u;
        if (!qf || !qd || !qh)
            fprintf(stderr,
                    "nan(%#llx) #%d: float %#x, double %#llx, half %#x (not all quiet NaNs)\n",
                    (unsigned long long)codes[i / 2], i % 2, f[i], (unsigned long long)d[i], h[i]);
        CHECK(qf && qd && qh);
    }
    clReleaseKernel(k);
    clReleaseMemObject(bc);
    clReleaseMemObject(bf);
    clReleaseMemObject(bd);
    clReleaseMemObject(bh);
    clReleaseProgram(p);
}

/* Inline PTX (NVIDIA's OpenCL takes it; hashcat uses it): lop3 0x96 is a ^ b ^ c. */
static void test_inline_ptx(void) {
    cl_int err;
    const char *src = "__kernel void x3(__global uint *p) {\n"
                      "    size_t i = get_global_id(0); uint r;\n"
                      "    asm(\"lop3.b32 %0, %1, %2, %3, 0x96;\" : \"=r\"(r)\n"
                      "        : \"r\"(p[3 * i]), \"r\"(p[3 * i + 1]), \"r\"(p[3 * i + 2]));\n"
                      "    p[3 * i] = r;\n"
                      "}\n";
    cl_program p = build_source(src, "", "kernel", &err);
    CHECK(err == CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "x3", &err);
    CHECK(err == CL_SUCCESS);
    cl_uint v[3 * 64], want[64];
    for (int i = 0; i < 3 * 64; i++)
        v[i] = (cl_uint)i * 2654435761u;
    for (int i = 0; i < 64; i++)
        want[i] = v[3 * i] ^ v[3 * i + 1] ^ v[3 * i + 2];
    cl_mem b = buffer(sizeof v, v);
    clSetKernelArg(k, 0, sizeof b, &b);
    size_t global = 64;
    run(k, 1, NULL, &global, NULL);
    clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL);
    for (int i = 0; i < 64; i++)
        CHECK(v[3 * i] == want[i]);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* OpenCL C 3.0 atomics (relaxed, work-group scope; and acquire/release on a flag). */
static void test_c11_atomics(void) {
    cl_int err;
    const char *src =
        "__kernel void c11(__global atomic_int *count, __global atomic_float *sum,\n"
        "                  __global atomic_flag *lock, __global int *guarded) {\n"
        "    atomic_fetch_add_explicit(count, 2, memory_order_relaxed, memory_scope_work_group);\n"
        "    float seen = atomic_load_explicit(sum, memory_order_relaxed, "
        "memory_scope_work_group);\n"
        "    while (!atomic_compare_exchange_strong_explicit(sum, &seen, seen + 0.5f,\n"
        "            memory_order_relaxed, memory_order_relaxed, memory_scope_work_group))\n"
        "        ;\n"
        "    if (get_local_id(0) == 0) {\n"
        "        while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire,\n"
        "                                                 memory_scope_device))\n"
        "            ;\n"
        "        *guarded += 1;\n"
        "        atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);\n"
        "    }\n"
        "}\n";
    cl_program p = build_source(src, "-cl-std=CL3.0", "CL3.0 atomics", &err);
    CHECK(err == CL_SUCCESS);
    if (err == CL_SUCCESS) {
        cl_kernel k = clCreateKernel(p, "c11", &err);
        cl_int zero[4] = {0, 0, 0, 0};
        cl_mem bc = buffer(sizeof(cl_int), zero), bs = buffer(sizeof(cl_float), zero);
        cl_mem bl = buffer(sizeof(cl_int), zero), bg = buffer(sizeof(cl_int), zero);
        clSetKernelArg(k, 0, sizeof bc, &bc);
        clSetKernelArg(k, 1, sizeof bs, &bs);
        clSetKernelArg(k, 2, sizeof bl, &bl);
        clSetKernelArg(k, 3, sizeof bg, &bg);
        size_t global = 4096, local = 128;
        run(k, 1, NULL, &global, &local);
        cl_int count = 0, guarded = 0;
        cl_float sum = 0;
        clEnqueueReadBuffer(queue, bc, CL_TRUE, 0, sizeof count, &count, 0, NULL, NULL);
        clEnqueueReadBuffer(queue, bs, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL);
        clEnqueueReadBuffer(queue, bg, CL_TRUE, 0, sizeof guarded, &guarded, 0, NULL, NULL);
        CHECK(count == 2 * 4096);
        CHECK(sum == 0.5f * 4096);
        CHECK(guarded == 4096 / 128);
        clReleaseMemObject(bc);
        clReleaseMemObject(bs);
        clReleaseMemObject(bl);
        clReleaseMemObject(bg);
        clReleaseKernel(k);
    }
    clReleaseProgram(p);
}

/* cl_khr_subgroups: each work-item reports its sub-group and the collective results; the host
 * groups the items by (work-group, sub-group) and recomputes every result, so the check holds
 * for any sub-group size (32 on culvert: warps). The 80-item work-groups end in a short
 * sub-group. */
static void test_subgroups(void) {
    char ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    if (!strstr(ext, "cl_khr_subgroups")) {
        printf("cl_khr_subgroups not claimed: sub-group part skipped\n");
        return;
    }
    cl_int err;
    const char *src = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
                      "__kernel void sg(__global const int *x, __global int *o) {\n"
                      "    size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0);\n"
                      "    __global int *r = o + g * 12;\n"
                      "    int v = x[g];\n"
                      "    r[0] = (int)get_group_id(0) + 1000 * (int)get_group_id(1);\n"
                      "    r[1] = (int)get_sub_group_id();\n"
                      "    r[2] = (int)get_sub_group_local_id();\n"
                      "    r[3] = (int)get_sub_group_size();\n"
                      "    r[4] = sub_group_reduce_add(v);\n"
                      "    r[5] = sub_group_scan_inclusive_add(v);\n"
                      "    r[6] = sub_group_scan_exclusive_add(v);\n"
                      "    r[7] = sub_group_reduce_min(v);\n"
                      "    r[8] = sub_group_reduce_max(v);\n"
                      "    r[9] = sub_group_broadcast(v, 0u);\n"
                      "    r[10] = sub_group_all(v > -50);\n"
                      "    r[11] = sub_group_any(v == 7);\n"
                      "}\n";
    cl_program p = build_source(src, "-cl-std=CL3.0", "sub-groups", &err);
    CHECK(err == CL_SUCCESS);
    enum { W = 32, H = 10, N = W * H };
    cl_int x[N], *o = calloc(N * 12, sizeof(cl_int));
    for (int i = 0; i < N; i++)
        x[i] = (i * 37) % 101 - 40;
    if (err == CL_SUCCESS && o) {
        cl_kernel k = clCreateKernel(p, "sg", &err);
        cl_mem bx = buffer(sizeof x, x), bo = buffer(N * 12 * sizeof(cl_int), NULL);
        clSetKernelArg(k, 0, sizeof bx, &bx);
        clSetKernelArg(k, 1, sizeof bo, &bo);
        size_t global[2] = {W, H}, local[2] = {16, 5}; /* 80 items: sub-groups of 32, 32, 16 */
        run(k, 2, NULL, global, local);
        clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, N * 12 * sizeof(cl_int), o, 0, NULL, NULL);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            const cl_int *r = o + i * 12;
            /* The members of i's sub-group, by lane. */
            int members[64], count = 0, sum = 0, mn = 1 << 30, mx = -(1 << 30), incl = 0, excl = 0,
                             all = 1, any = 0, first = 0;
            for (int j = 0; j < N; j++) {
                const cl_int *q = o + j * 12;
                if (q[0] == r[0] && q[1] == r[1] && count < 64)
                    members[count++] = j;
            }
            for (int a = 0; a < count; a++) {
                int j = members[a], lane = o[j * 12 + 2];
                sum += x[j];
                mn = x[j] < mn ? x[j] : mn;
                mx = x[j] > mx ? x[j] : mx;
                all &= x[j] > -50;
                any |= x[j] == 7;
                if (lane <= r[2])
                    incl += x[j];
                if (lane < r[2])
                    excl += x[j];
                if (lane == 0)
                    first = x[j];
            }
            int want[12] = {r[0], r[1], r[2], count, sum, incl, excl, mn, mx, first, all, any};
            for (int f = 3; f < 12; f++)
                if ((f >= 10 ? r[f] != 0 : r[f]) != want[f] && bad++ < 5)
                    fprintf(stderr, "sub-group item %d field %d = %d, want %d\n", i, f, r[f],
                            want[f]);
        }
        CHECK(bad == 0);
        clReleaseMemObject(bx);
        clReleaseMemObject(bo);
        clReleaseKernel(k);
    }
    free(o);
    clReleaseProgram(p);
}

static void test_errors(void) {
    cl_int err;
    const char *broken = "__kernel void k(__global int *p) { p[0] = undefined_thing; }\n";
    cl_program p = clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
    CHECK(err == CL_SUCCESS);
    CHECK_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 1, &dev, "", NULL, NULL));
    char log[4096] = "";
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "undefined_thing") != NULL);
    cl_build_status status = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_BUILD_ERROR);
    CHECK_ERR(CL_INVALID_BUILD_OPTIONS,
              clBuildProgram(p, 1, &dev, "-cl-no-such-option", NULL, NULL));
    clReleaseProgram(p);
}

static void test_compile_link(void) {
    cl_int err;
    const char *hdr_src = "#define OFFSET 5\nint add_offset(int v);\n";
    const char *lib_src =
        "#include \"inc/offset.h\"\nint add_offset(int v) { return v + OFFSET; }\n";
    const char *main_src = "#include \"inc/offset.h\"\n"
                           "__kernel void use(__global int *p) { p[get_global_id(0)] = "
                           "add_offset((int)get_global_id(0)); }\n";
    cl_program hdr = clCreateProgramWithSource(ctx, 1, &hdr_src, NULL, &err);
    cl_program lib = clCreateProgramWithSource(ctx, 1, &lib_src, NULL, &err);
    cl_program main_p = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
    const char *name = "inc/offset.h";
    CHECK_ERR(CL_SUCCESS, clCompileProgram(lib, 1, &dev, "", 1, &hdr, &name, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clCompileProgram(main_p, 1, &dev, "", 1, &hdr, &name, NULL, NULL));
    cl_program library = clLinkProgram(ctx, 1, &dev, "-create-library", 1, &lib, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS);
    cl_program both[2] = {main_p, library};
    cl_program exe = clLinkProgram(ctx, 1, &dev, "", 2, both, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS);
    if (err == CL_SUCCESS) {
        cl_kernel k = clCreateKernel(exe, "use", &err);
        CHECK(err == CL_SUCCESS);
        cl_int out[64];
        cl_mem b = buffer(sizeof out, NULL);
        clSetKernelArg(k, 0, sizeof b, &b);
        size_t global = 64;
        run(k, 1, NULL, &global, NULL);
        clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        for (int i = 0; i < 64; i++)
            CHECK(out[i] == i + 5);
        clReleaseKernel(k);
        clReleaseMemObject(b);
        clReleaseProgram(exe);
    }
    if (library)
        clReleaseProgram(library);
    clReleaseProgram(hdr);
    clReleaseProgram(lib);
    clReleaseProgram(main_p);
}

int main(void) {
    cl_platform_id platform;
    dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err;
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    REQUIRE(compiler == CL_TRUE);
    char ext[4096] = "", pname[64] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    if (!strcmp(pname, "culvert")) {
        CHECK(strstr(ext, "cl_khr_fp64") != NULL);
        CHECK(strstr(ext, "cl_khr_int64_base_atomics") != NULL);
        CHECK(strstr(ext, "cl_khr_int64_extended_atomics") != NULL);
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program p = build_source(source, "-cl-std=CL1.2 -cl-kernel-arg-info", "main program", &err);
    REQUIRE(err == CL_SUCCESS);
    test_saxpy(p);
    test_dmath(p);
    test_atomics(p);
    size_t zero[3] = {0, 0, 0}, off[3] = {3, 100, 7};
    size_t g1[3] = {64, 8, 4}, l1[3] = {16, 4, 2};
    check_ids(p, "ids", zero, g1, l1);
    check_ids(p, "ids", off, g1, l1);
    /* 70000 groups in y: past CUDA's 65535, so the launch is split and group_offset is used. */
    size_t g_big[3] = {2, 70000, 1}, l_big[3] = {2, 1, 1};
    check_ids(p, "ids", off, g_big, l_big);
    cl_bool non_uniform = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof non_uniform, &non_uniform,
                    NULL);
    if (non_uniform) {
        /* Needs OpenCL C 2.0+ semantics: build again for CL3.0. */
        cl_program p3 = build_source(source, "-cl-std=CL3.0", "CL3.0 program", &err);
        CHECK(err == CL_SUCCESS);
        size_t g2[3] = {37, 5, 3}, l2[3] = {8, 2, 2};
        check_ids(p3, "ids", off, g2, l2);
        clReleaseProgram(p3);
    } else {
        printf("non-uniform work-groups not claimed: that part skipped\n");
    }
    test_kernel_calls(off, g1, l1);
    test_printf();
    test_nan();
    test_c11_atomics();
    test_subgroups();
    if (!strcmp(pname, "culvert"))
        test_inline_ptx();
    test_errors();
    test_compile_link();
    clReleaseProgram(p);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("compiler_run");
}
