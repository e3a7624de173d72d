/* Programs and kernels against the fake driver of tests/fake_cuda (no GPU needed): culvert loads
 * the fake's libcuda.so.1, which parses the PTX culvert hands it and records launches. Checks the
 * host side of the launch path: JIT options, build logs, info queries, argument buffers, grids
 * and work-group sizes (given, NULL, non-uniform, split past CUDA's limits), launch
 * information, __local slices and the shared memory opt-in, clusters, cooperative launches, and
 * the timed twins that profiling queues launch. */
#include "fake_cuda.h"
#include "test_util.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

static fakecuda_state *fake;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;

static unsigned char *read_ptx(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CV_TEST_PTX_DIR, name);
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    REQUIRE(got == (size_t)n);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static cl_program build(const char *name, const char *options) {
    size_t len;
    unsigned char *ptx = read_ptx(name, &len);
    const unsigned char *bins[1] = {ptx};
    cl_int err, status;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
    free(ptx);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(p != NULL);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &dev, options, NULL, NULL));
    return p;
}

static cl_kernel kernel(cl_program p, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(k != NULL);
    return k;
}

static const fakecuda_launch *last(void) {
    REQUIRE(fake->num_launches > 0);
    return &fake->launches[fake->num_launches - 1];
}

static uint64_t param_u64(const fakecuda_launch *l, unsigned i) {
    uint64_t v = 0;
    memcpy(&v, l->params + l->param_offset[i], 8);
    return v;
}

static uint32_t param_u32(const fakecuda_launch *l, unsigned i) {
    uint32_t v = 0;
    memcpy(&v, l->params + l->param_offset[i], 4);
    return v;
}

/* The launch-information block (the last parameter of a launch-info kernel). */
static void launch_info(const fakecuda_launch *l, uint64_t *off, uint64_t *size, uint32_t *goff,
                        uint32_t *dim) {
    const unsigned char *p = l->params + l->param_offset[l->num_params - 1];
    memcpy(off, p, 24);
    memcpy(size, p + 24, 24);
    memcpy(goff, p + 48, 12);
    memcpy(dim, p + 60, 4);
}

/* Its group limits (the launch's groups that belong to the NDRange). */
static bool group_limits_are(const fakecuda_launch *l, uint32_t x, uint32_t y, uint32_t z) {
    uint32_t lim[3];
    memcpy(lim, l->params + l->param_offset[l->num_params - 1] + 64, 12);
    return lim[0] == x && lim[1] == y && lim[2] == z;
}

static bool dims_are(const unsigned *v, unsigned x, unsigned y, unsigned z) {
    return v[0] == x && v[1] == y && v[2] == z;
}

/* Modules go once their program is released and the last launch of its last kernel is done
 * (the queue drops what commands kept as they complete, possibly from its own thread): waits
 * for that, for up to 5 s. */
static bool all_unloaded(void) {
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    for (int i = 0; i < 500 && fake->modules_unloaded != fake->modules_loaded; i++) {
        struct timespec ms = {0, 10 * 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    return fake->modules_unloaded == fake->modules_loaded;
}

static void check_all_unloaded(void) {
    CHECK(all_unloaded() && fake->modules_loaded > 0);
    if (fake->modules_unloaded != fake->modules_loaded)
        fprintf(stderr, "modules: %u loaded, %u unloaded\n", fake->modules_loaded,
                fake->modules_unloaded);
}

/* The binary of a program's only device (malloc'ed). */
static unsigned char *binary_of(cl_program p, size_t *size) {
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL));
    unsigned char *bin = malloc(*size ? *size : 1);
    unsigned char *bins[1] = {bin};
    REQUIRE(bin != NULL);
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    return bin;
}

static cl_program_binary_type binary_type(cl_program p) {
    cl_program_binary_type t = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
    return t;
}

static void test_build(void) {
    cl_program p = build("basic.ptx", "-cl-nv-maxrregcount=40 -cl-nv-opt-level 2 -cl-nv-verbose");
    CHECK(fake->jit_max_registers == 40);
    CHECK(fake->jit_opt_level == 2);
    CHECK(fake->jit_target == 90);
    CHECK(fake->jit_verbose == 1);
    char log[8192] = ""; /* the JIT log and a line per kernel */
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "fake verbose log") != NULL);
    size_t n = 0;
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
    CHECK(n == 12);
    clReleaseProgram(p);

    /* a module that prints: its build sizes CUDA's printf buffer to what the device reports,
     * before any of its kernels runs (CUDA's own 1 MiB loses the output of large kernels) */
    static const char prints[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
        ".global .align 1 .b8 fmt[3] = {104, 10, 0};\n"
        ".visible .entry hello()\n{\n\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
        "\tcvta.global.u64 %rd1, fmt;\n\t{\n\t.param .b64 f;\n\tst.param.b64 [f], %rd1;\n"
        "\t.param .b64 a;\n\tst.param.b64 [a], 0;\n\t.param .b32 r;\n"
        "\tcall.uni (r), vprintf, (f, a);\n\tld.param.b32 %r1, [r];\n\t}\n\tret;\n}\n";
    size_t psize = 0, plen = sizeof prints;
    const unsigned char *pbins[1] = {(const unsigned char *)prints};
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof psize, &psize, NULL));
    CHECK(psize >= 1024 * 1024);
    fake->printf_fifo_size = 0;
    p = clCreateProgramWithBinary(ctx, 1, &dev, &plen, pbins, NULL, NULL);
    REQUIRE(p != NULL);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    CHECK(fake->printf_fifo_size == psize);
    clReleaseProgram(p);

    /* a module the JIT refuses: its error log is the build log */
    static const char bad[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry broken()\n{\n\tnot_an_instruction;\n\tret;\n}\n";
    const unsigned char *bins[1] = {(const unsigned char *)bad};
    size_t len = sizeof bad;
    cl_int err;
    p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(p, 0, NULL, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "not_an_instruction") != NULL);
    cl_build_status bs = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    CHECK(bs == CL_BUILD_ERROR);
    clReleaseProgram(p);

    /* binaries culvert takes: CUDA images (executables) and LLVM bitcode (compiled objects);
     * anything else is CL_INVALID_BINARY with its binary_status */
    static const char *const images[] = {"basic.cubin", "basic.fatbin"};
    for (int i = 0; i < 2; i++) {
        unsigned char *img = read_ptx(images[i], &len);
        const unsigned char *ib[1] = {img};
        cl_int st = -1;
        p = clCreateProgramWithBinary(ctx, 1, &dev, &len, ib, &st, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK_ERR(CL_SUCCESS, st);
        cl_program_binary_type bt = 0;
        CHECK_ERR(CL_SUCCESS,
                  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
        CHECK(bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        size_t size = 0;
        CHECK_ERR(CL_SUCCESS,
                  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
        CHECK(size == len);
        clReleaseProgram(p);
        free(img);
    }
    static const unsigned char bitcode[] = {'B', 'C', 0xc0, 0xde, 0x35, 0x14, 0, 0};
    static const unsigned char junk[] = {0x12, 0x34, 0x56, 0x78, 0x9a};
    const unsigned char *two[2] = {bitcode, junk};
    size_t lens[2] = {sizeof bitcode, sizeof junk};
    cl_int st2[2] = {-1, -1};
    cl_device_id devs[2] = {dev, dev};
    CHECK(clCreateProgramWithBinary(ctx, 2, devs, lens, two, st2, &err) == NULL);
    CHECK_ERR(CL_INVALID_BINARY, err);
    CHECK_ERR(CL_SUCCESS, st2[0]);
    CHECK_ERR(CL_INVALID_BINARY, st2[1]);
    p = clCreateProgramWithBinary(ctx, 1, &dev, lens, two, st2, &err);
    CHECK_ERR(CL_SUCCESS, err);
    cl_program_binary_type obj = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof obj, &obj, NULL));
    CHECK(obj == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    clReleaseProgram(p);
    /* Bitcode in LLVM's wrapper: a library when the wrapper's CPU type is culvert's "cvlb". */
    static const unsigned char wrapped[2][28] = {
        {0xde, 0xc0, 0x17, 0x0b, 0,   0,   0,   0,   20,   0,    0,    0,    8, 0,
         0,    0,    'c',  'v',  'l', 'b', 'B', 'C', 0xc0, 0xde, 0x35, 0x14, 0, 0},
        {0xde, 0xc0, 0x17, 0x0b, 0, 0, 0,   0,   20,   0,    0,    0,    8, 0,
         0,    0,    7,    0,    0, 1, 'B', 'C', 0xc0, 0xde, 0x35, 0x14, 0, 0}};
    for (int i = 0; i < 2; i++) {
        const unsigned char *wb[1] = {wrapped[i]};
        size_t wl = sizeof wrapped[i];
        p = clCreateProgramWithBinary(ctx, 1, &dev, &wl, wb, NULL, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK(p && binary_type(p) == (i == 0 ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                             : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
        clReleaseProgram(p);
    }

    /* a source program: the stub compiler (or the real one, once merged) answers */
    const char *src = "kernel void k(global int *p) { p[0] = 1; }";
    p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    char text[128] = "";
    CHECK_ERR(CL_SUCCESS, clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof text, text, NULL));
    CHECK(strcmp(text, src) == 0);
    cl_bool compiler = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL));
    err = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
    printf("source program: compiler %s, build returned %d\n", compiler ? "available" : "absent",
           (int)err);
    CHECK(compiler ? err == CL_SUCCESS : err == CL_COMPILER_NOT_AVAILABLE);
    if (compiler && err == CL_SUCCESS) {
        /* culvert's compiler writes launch-information PTX: the launch carries the block */
        cl_kernel k = kernel(p, "k");
        cl_mem none = NULL;
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
        size_t g = 100;
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        CHECK(last()->num_params == 2 && last()->grid[0] * last()->block[0] >= 100);
        clReleaseKernel(k);
    }
    clReleaseProgram(p);
}

/* "If global_work_size is NULL, or the value in any passed dimension is 0 then the kernel
 * command will trivially succeed after its event dependencies are satisfied and subsequently
 * update its completion event." (the CTS's api zero_sized_enqueue, profiling_timebase) */
static void zero_sized(cl_kernel k) {
    static const size_t zeros[][3] = {{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
    for (cl_uint dim = 1; dim <= 3; dim++)
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueNDRangeKernel(queue, k, dim, NULL, NULL, NULL, 0, NULL, NULL));
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++)
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueNDRangeKernel(queue, k, 3, NULL, zeros[i], NULL, 0, NULL, NULL));
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(ctx, &err), ev = NULL;
    REQUIRE(gate != NULL);
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 3, NULL, zeros[0], NULL, 1, &gate, &ev));
    REQUIRE(ev != NULL);
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_NDRANGE_KERNEL);
    cl_int status = CL_COMPLETE;
    CHECK_ERR(CL_SUCCESS,
              clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_QUEUED || status == CL_SUBMITTED);
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &ev));
    CHECK_ERR(CL_SUCCESS,
              clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
}

/* A program made again from a binary keeps its type: a library of clLinkProgram
 * (-create-library) is CL_PROGRAM_BINARY_TYPE_LIBRARY, a compiled object
 * CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT (the CTS's program_binary_type); an object calling a
 * kernel of the library links into an executable. */
static void test_library_binary(void) {
    const char *copy = "kernel void CopyBuffer(global float *s, global float *d) {\n"
                       "    d[get_global_id(0)] = s[get_global_id(0)];\n"
                       "}\n";
    const char *another = "extern kernel void CopyBuffer(global float *s, global float *d);\n"
                          "kernel void AnotherCopyBuffer(global float *s, global float *d) {\n"
                          "    CopyBuffer(s, d);\n"
                          "}\n";
    cl_int err;
    cl_program obj = clCreateProgramWithSource(ctx, 1, &copy, NULL, &err);
    cl_program caller = clCreateProgramWithSource(ctx, 1, &another, NULL, &err);
    REQUIRE(obj && caller);
    CHECK_ERR(CL_SUCCESS, clCompileProgram(obj, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clCompileProgram(caller, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL));
    cl_program lib = clLinkProgram(ctx, 1, &dev, "-create-library", 1, &obj, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(lib != NULL);
    CHECK(binary_type(lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program from[2] = {obj, lib};
    cl_program_binary_type want[2] = {CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
                                      CL_PROGRAM_BINARY_TYPE_LIBRARY};
    cl_program again[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        size_t size = 0;
        unsigned char *bin = binary_of(from[i], &size);
        const unsigned char *bins[1] = {bin};
        again[i] = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, NULL, &err);
        CHECK_ERR(CL_SUCCESS, err);
        CHECK(again[i] && binary_type(again[i]) == want[i]);
        free(bin);
    }
    cl_program inputs[2] = {caller, again[1]};
    cl_program exe = clLinkProgram(ctx, 1, &dev, NULL, 2, inputs, NULL, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (exe) {
        CHECK(binary_type(exe) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
        cl_kernel k = kernel(exe, "AnotherCopyBuffer");
        clReleaseKernel(k);
        clReleaseProgram(exe);
    }
    for (int i = 0; i < 2; i++)
        clReleaseProgram(again[i]);
    clReleaseProgram(lib);
    clReleaseProgram(caller);
    clReleaseProgram(obj);
}

/* clBuildProgram again with other options (the CTS's options_build_macro): refused while the
 * application holds a kernel of the program ("CL_INVALID_OPERATION if there are kernel objects
 * attached to program"), done once it released it, even while a launch of that kernel is in
 * flight; that launch's module stays loaded until the kernel object is gone. */
static void test_rebuild(void) {
    const char *src = "kernel void k(global int *p) { p[0] = VALUE; }";
    cl_int err;
    REQUIRE(all_unloaded()); /* the modules of programs released before */
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    REQUIRE(p != NULL);
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &dev, "-D VALUE=1111", NULL, NULL));
    cl_kernel k = kernel(p, "k");
    cl_mem none = NULL;
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    CHECK_ERR(CL_INVALID_OPERATION, clBuildProgram(p, 1, &dev, "-D VALUE=2222", NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    unsigned unloaded = fake->modules_unloaded;
    clReleaseKernel(k); /* the launch (in the queue's batch) still holds it */
    CHECK_ERR(CL_SUCCESS, clBuildProgram(p, 1, &dev, "-D VALUE=2222", NULL, NULL));
    CHECK(fake->modules_unloaded == unloaded);
    size_t size = 0;
    char *ptx = (char *)binary_of(p, &size);
    CHECK(strstr(ptx, "2222") != NULL && strstr(ptx, "1111") == NULL);
    free(ptx);
    k = kernel(p, "k");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK(strcmp(last()->func, "k") == 0);
    clReleaseKernel(k);
    CHECK_ERR(CL_SUCCESS, clFinish(queue));
    clReleaseProgram(p);
}

static void test_plain_launches(cl_program p) {
    cl_kernel k = kernel(p, "add_one");
    cl_ulong addr = 0x7f0012340000ull; /* a device address as a plain value (nvcc pointers) */
    cl_uint n = 1 << 20;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof n, &n));
    size_t global = n, local = 256;
    unsigned before = fake->num_launches;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    REQUIRE(fake->num_launches == before + 1);
    const fakecuda_launch *l = last();
    CHECK(strcmp(l->func, "add_one") == 0);
    CHECK(dims_are(l->grid, 4096, 1, 1) && dims_are(l->block, 256, 1, 1) && l->smem == 0);
    CHECK(l->num_params == 2 && param_u64(l, 0) == addr && param_u32(l, 1) == n);
    /* NULL local: the occupancy answer (768) cut to a divisor that is a multiple of 32 */
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    l = last();
    CHECK(dims_are(l->block, 512, 1, 1) && dims_are(l->grid, 2048, 1, 1));
    size_t odd = 3 * 7 * 11 * 13;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &odd, NULL, 0, NULL, NULL));
    l = last();
    CHECK(dims_are(l->block, 429, 1, 1) && dims_are(l->grid, 7, 1, 1));
    /* arguments set after an enqueue do not change it; the next one sees them */
    cl_uint n2 = 77;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof n2, &n2));
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(queue, k, 0, NULL, NULL));
    l = last();
    CHECK(dims_are(l->grid, 1, 1, 1) && dims_are(l->block, 1, 1, 1) && param_u32(l, 1) == 77);
    /* a zero global size launches nothing */
    size_t zero = 0;
    before = fake->num_launches;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &zero, NULL, 0, NULL, NULL));
    zero_sized(k);
    CHECK(fake->num_launches == before);
    clReleaseKernel(k);

    /* 2D/3D with NULL local sizes: each dimension divided, limits kept */
    k = kernel(p, "fill_ids");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    size_t g3[3] = {64, 32, 8}, l3[3] = {8, 4, 2};
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 3, NULL, g3, l3, 0, NULL, NULL));
    l = last();
    CHECK(dims_are(l->grid, 8, 8, 4) && dims_are(l->block, 8, 4, 2));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 3, NULL, g3, NULL, 0, NULL, NULL));
    l = last();
    CHECK(l->block[0] * l->block[1] * l->block[2] <= 1024 && l->block[2] <= 64);
    CHECK(l->grid[0] * l->block[0] == 64 && l->grid[1] * l->block[1] == 32 &&
          l->grid[2] * l->block[2] == 8);
    /* past CUDA's y limit: refused for PTX without launch information */
    size_t tall[2] = {1, 70000}, one[2] = {1, 1};
    CHECK_ERR(CL_INVALID_GLOBAL_WORK_SIZE,
              clEnqueueNDRangeKernel(queue, k, 2, NULL, tall, one, 0, NULL, NULL));
    clReleaseKernel(k);

    /* structs and small scalars land at their offsets */
    k = kernel(p, "by_value");
    struct {
        int a;
        double b;
        char c;
    } pa;
    memset(&pa, 0, sizeof pa); /* the padding is compared too */
    pa.a = 7;
    pa.b = 2.5;
    pa.c = 9;
    cl_char c = -3;
    cl_short s = 1234;
    cl_long lv = -5;
    cl_float f = 0.25f;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof pa, &pa));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof c, &c));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, sizeof s, &s));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 3, sizeof lv, &lv));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 4, sizeof f, &f));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 5, sizeof addr, &addr));
    CHECK_ERR(CL_SUCCESS, clEnqueueTask(queue, k, 0, NULL, NULL));
    l = last();
    CHECK(l->num_params == 6 && memcmp(l->params + l->param_offset[0], &pa, sizeof pa) == 0);
    CHECK((cl_char)l->params[l->param_offset[1]] == -3);
    CHECK(param_u64(l, 3) == (uint64_t)-5 && param_u64(l, 5) == addr);
    clReleaseKernel(k);
}

/* coop_sum (a grid-wide sync) with its arguments, launched cooperatively. */
static cl_kernel coop_kernel(cl_program p, cl_ulong addr) {
    cl_kernel k = kernel(p, "coop_sum");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof addr, &addr));
    cl_bool on = CL_TRUE;
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_COOPERATIVE_CULVERT, sizeof on, &on));
    return k;
}

static void test_clusters_coop(cl_program p) {
    cl_ulong addr = 0x7f0000000000ull;
    cl_kernel k = kernel(p, "cluster_rank"); /* compiled cluster 2x1x1 */
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    size_t global = 8 * 64, local = 64, odd = 3 * 64;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(last()->grid[0] == 8 && !last()->ex);
    CHECK_ERR(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &odd, &local, 0, NULL, NULL));
    clReleaseKernel(k);

    k = kernel(p, "cluster_any");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    size_t dims[3] = {4, 1, 1};
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT, sizeof dims, dims));
    global = 16 * 32;
    local = 32;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    const fakecuda_launch *l = last();
    CHECK(l->ex && dims_are(l->cluster, 4, 1, 1) && l->grid[0] == 16);
    size_t six = 6 * 32;
    CHECK_ERR(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &six, &local, 0, NULL, NULL));
    clReleaseKernel(k);

    k = coop_kernel(p, addr);
    global = 8 * 128;
    local = 128;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(last()->cooperative);
    clReleaseKernel(k);

    /* extra dynamic shared memory past 48 KiB: opted in before the launch */
    k = kernel(p, "extern_smem");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    cl_uint words = 24 * 1024;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof words, &words));
    size_t extra = words * 4;
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT,
                                              sizeof extra, &extra));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(last()->smem == extra && fake->last_max_dynamic_smem == (int)extra);
    clReleaseKernel(k);
}

/* NDRanges of random shapes (1 to 3 dimensions, local sizes given or not, offsets or not, sizes
 * past CUDA's 65535 groups in y and z): the launches culvert makes of each tile its work-groups
 * exactly once (each launch's groups from its group offset, up to its group limits, boxes that
 * meet nowhere and add up to every group), with the work-groups' size as their block and the
 * NDRange's offset, size and dimensions in every launch's information. */
static void test_ndrange_tiling(void) {
    cl_program p = build("launch_info.ptx", NULL);
    cl_kernel k = kernel(p, "li_ids");
    cl_mem none = NULL;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    uint64_t st = 0x510e527fade682d1ull;
    static const size_t locals[] = {1, 2, 3, 4, 7, 8, 16, 32, 64, 128, 256};
    for (int t = 0; t < 400; t++) {
        cl_uint dims = 1 + (cl_uint)(cv_test_xorshift(&st) % 3);
        size_t g[3] = {1, 1, 1}, l[3] = {1, 1, 1}, o[3] = {0, 0, 0}, threads = 1;
        bool given_local = cv_test_xorshift(&st) % 4 != 0;
        for (cl_uint d = 0; d < dims; d++) {
            uint64_t r = cv_test_xorshift(&st);
            do
                l[d] = locals[cv_test_xorshift(&st) % (sizeof locals / sizeof *locals)];
            while (threads * l[d] > 1024 || (d == 2 && l[d] > 64));
            threads *= l[d];
            /* small, or (a third of y and z) past the 65535 groups CUDA allows there, or a
             * long x */
            g[d] = d > 0 && r % 3 == 0    ? (60000 + r % 200000) * (given_local ? l[d] : 1)
                   : d == 0 && r % 5 == 0 ? r % 5000000 + 1
                                          : 1 + r % 3000;
            o[d] = cv_test_xorshift(&st) % 2 ? cv_test_xorshift(&st) % 100000 : 0;
        }
        fake->num_launches = 0;
        cl_int err =
            clEnqueueNDRangeKernel(queue, k, dims, o, g, given_local ? l : NULL, 0, NULL, NULL);
        CHECK_ERR(CL_SUCCESS, err);
        unsigned n = fake->num_launches;
        if (err != CL_SUCCESS || n == 0)
            continue;
        const unsigned *block = fake->launches[0].block;
        uint64_t groups[3], covered = 0, want = 1;
        for (int d = 0; d < 3; d++) {
            groups[d] = (g[d] + block[d] - 1) / block[d];
            want *= groups[d];
            CHECK(!given_local || block[d] == l[d]);
        }
        uint32_t lo[256][3], hi[256][3];
        bool ok = n <= 256;
        for (unsigned i = 0; i < n && ok; i++) {
            const fakecuda_launch *la = &fake->launches[i];
            uint64_t off[3], size[3];
            uint32_t go[3], dim, lim[3];
            launch_info(la, off, size, go, &dim);
            memcpy(lim, la->params + la->param_offset[la->num_params - 1] + 64, 12);
            ok &= dim == dims && dims_are(la->block, block[0], block[1], block[2]);
            uint64_t count = 1;
            for (int d = 0; d < 3; d++) {
                ok &= off[d] == o[d] && size[d] == g[d];
                uint32_t used = la->grid[d] < lim[d] ? la->grid[d] : lim[d];
                lo[i][d] = go[d];
                hi[i][d] = go[d] + used;
                ok &= used > 0 && hi[i][d] <= groups[d];
                count *= used;
            }
            covered += count;
            for (unsigned j = 0; j < i && ok; j++) {
                bool meet = true;
                for (int d = 0; d < 3; d++)
                    meet &= lo[i][d] < hi[j][d] && lo[j][d] < hi[i][d];
                ok &= !meet;
            }
        }
        ok &= covered == want;
        CHECK(ok);
        if (!ok)
            fprintf(stderr,
                    "NDRange %u-D %zu x %zu x %zu (local %zu x %zu x %zu%s): %u launches cover "
                    "%llu of %llu groups\n",
                    dims, g[0], g[1], g[2], l[0], l[1], l[2], given_local ? "" : ", not given", n,
                    (unsigned long long)covered, (unsigned long long)want);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_launch_info(void) {
    cl_program p = build("launch_info.ptx", NULL);
    cl_kernel k = kernel(p, "li_ids");
    cl_mem none = NULL;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    cl_uint nargs = 0;
    CHECK_ERR(CL_SUCCESS, clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    CHECK(nargs == 1);
    /* 1D, an offset and a non-uniform size */
    size_t g = 1000, lsz = 128, off = 5;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, &off, &g, &lsz, 0, NULL, NULL));
    const fakecuda_launch *l = last();
    uint64_t o[3], s[3];
    uint32_t go[3], dim;
    CHECK(l->num_params == 2 && dims_are(l->grid, 8, 1, 1) && dims_are(l->block, 128, 1, 1));
    launch_info(l, o, s, go, &dim);
    CHECK(o[0] == 5 && o[1] == 0 && s[0] == 1000 && s[1] == 1 && s[2] == 1 && dim == 1);
    CHECK(go[0] == 0 && go[1] == 0 && go[2] == 0 && group_limits_are(l, 8, 1, 1));
    /* clusters of 3 groups: a ninth group fills the last cluster, outside the limit */
    size_t dims3[3] = {3, 1, 1};
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT,
                                              sizeof dims3, dims3));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, &off, &g, &lsz, 0, NULL, NULL));
    l = last();
    CHECK(dims_are(l->grid, 9, 1, 1) && group_limits_are(l, 8, 1, 1));
    size_t no_cluster[3] = {0, 0, 0};
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT,
                                              sizeof no_cluster, no_cluster));
    /* NULL local with a non-uniform size: whole blocks, the last one partly idle */
    g = 1001;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    l = last();
    CHECK(l->block[0] == 768 && l->grid[0] == 2);
    /* past CUDA's y limit: split launches with group offsets */
    size_t g2[2] = {8, 140000}, l2[2] = {8, 1};
    unsigned before = fake->num_launches;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 2, NULL, g2, l2, 0, NULL, NULL));
    REQUIRE(fake->num_launches == before + 3);
    static const uint32_t starts[3] = {0, 65535, 131070}, rows[3] = {65535, 65535, 8930};
    for (unsigned i = 0; i < 3; i++) {
        l = &fake->launches[before + i];
        launch_info(l, o, s, go, &dim);
        CHECK(l->grid[0] == 1 && l->grid[1] == rows[i] && go[1] == starts[i]);
        CHECK(group_limits_are(l, 1, 140000 - starts[i], 1));
        CHECK(s[0] == 8 && s[1] == 140000 && dim == 2);
    }
    /* 64-bit offsets */
    size_t big[2] = {(size_t)1 << 33, 7}, g3[2] = {300, 5}, l3[2] = {64, 1};
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 2, big, g3, l3, 0, NULL, NULL));
    launch_info(last(), o, s, go, &dim);
    CHECK(o[0] == (uint64_t)1 << 33 && o[1] == 7 && s[0] == 300 && dim == 2);
    size_t huge = SIZE_MAX - 10;
    CHECK_ERR(CL_INVALID_GLOBAL_OFFSET,
              clEnqueueNDRangeKernel(queue, k, 1, &huge, g3, l3, 0, NULL, NULL));
    /* A global size near SIZE_MAX needs more groups than a launch can have: refused, its group
     * count not wrapped to 0 (which reached the driver as an empty grid). */
    size_t l128 = 128;
    before = fake->num_launches;
    CHECK_ERR(CL_INVALID_GLOBAL_WORK_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &huge, &l128, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_GLOBAL_WORK_SIZE,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &huge, NULL, 0, NULL, NULL));
    CHECK(fake->num_launches == before);
    clReleaseKernel(k);

    /* __local arguments: aligned slices, offsets as values, the opt-in past 48 KiB */
    k = kernel(p, "local_sum");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, 405, NULL));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, 400, NULL));
    cl_uint n = 100;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 3, sizeof n, &n));
    g = 256;
    lsz = 64;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &lsz, 0, NULL, NULL));
    l = last();
    CHECK(l->num_params == 5 && param_u64(l, 1) == 0 && param_u64(l, 2) == 416);
    CHECK(l->smem == 816);
    cl_ulong lmem = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CHECK(lmem == 816);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, 51200, NULL));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 2, 51200, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &lsz, 0, NULL, NULL));
    l = last();
    CHECK(l->smem == 102400 && param_u64(l, 2) == 51200 && fake->last_max_dynamic_smem == 102400);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, 300 * 1024, NULL));
    CHECK_ERR(CL_OUT_OF_RESOURCES,
              clEnqueueNDRangeKernel(queue, k, 1, NULL, &g, &lsz, 0, NULL, NULL));
    /* the clone keeps the arguments */
    cl_int err;
    cl_kernel c = clCloneKernel(k, &err);
    CHECK_ERR(CL_SUCCESS, err);
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(c, 1, 16, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, c, 1, NULL, &g, &lsz, 0, NULL, NULL));
    CHECK(last()->smem == 16 + 51200 && param_u64(last(), 2) == 16);
    clReleaseKernel(c);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* The timing parameter of a timed twin's launch (its last): the slot's words and generation. */
static void timing_of(const fakecuda_launch *l, uint64_t t[2]) {
    memcpy(t, l->params + l->param_offset[l->num_params - 1], 16);
}

/* Kernels on a profiling queue run their timed twins (docs/kernel-abi.md, "Kernel timing"), with
 * the timing parameter last, when they return an event: every block shape, clusters, cooperative
 * launches, extra shared memory (the twin opts in too), launches split past CUDA's limits (one
 * slot and generation for all of them); each command gets a new generation. The twins' module is
 * loaded once, by the first launch that runs a twin. */
static void test_timed_launches(cl_program p) {
    cl_int err;
    cl_command_queue qp = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_ulong addr = 0x7f0000000000ull;
    cl_uint n = 100;
    cl_kernel k = kernel(p, "add_one");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof n, &n));
    size_t g3[3] = {64, 6, 3}, l3[3] = {16, 2, 3};
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 3, NULL, g3, l3, 0, NULL, &e));
    const fakecuda_launch *l = last();
    uint64_t t0[2], t1[2];
    CHECK(strcmp(l->func, "add_one__cv_timed") == 0 && l->num_params == 3);
    CHECK(dims_are(l->grid, 4, 3, 1) && dims_are(l->block, 16, 2, 3));
    CHECK(param_u64(l, 0) == addr && param_u32(l, 1) == n);
    timing_of(l, t0);
    CHECK(t0[0] != 0 && t0[0] % 8 == 0 && t0[1] >= 1 && t0[1] < (1u << 24));
    cv_test_check_profiled(e);
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 3, NULL, g3, l3, 0, NULL, &e));
    timing_of(last(), t1);
    CHECK(t1[0] != t0[0] || t1[1] != t0[1]); /* another slot, or the same one's next generation */
    cv_test_check_profiled(e);
    /* without an event there is nothing to time: the entry itself */
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 3, NULL, g3, l3, 0, NULL, NULL));
    CHECK(strcmp(last()->func, "add_one") == 0 && last()->num_params == 2);
    /* A grid of more than 20 turns (the blocks the multiprocessors hold at once: the fake's 132
     * of 32 blocks of 64) runs the entry, timed by CUDA events; 20 turns run the twin. */
    size_t local64 = 64, turns20 = (size_t)132 * 32 * 64 * 20;
    size_t turns21 = turns20 + 64;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 1, NULL, &turns20, &local64, 0, NULL, &e));
    CHECK(strcmp(last()->func, "add_one__cv_timed") == 0 && last()->grid[0] == 132 * 32 * 20);
    cv_test_check_profiled(e);
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 1, NULL, &turns21, &local64, 0, NULL, &e));
    CHECK(strcmp(last()->func, "add_one") == 0 && last()->num_params == 2);
    cv_test_check_profiled(e);
    /* the occupancy answer is asked per block size: 8 blocks of 128 at once, 40 turns */
    fake->blocks_per_sm = 8;
    size_t local128 = 128, half20 = turns20;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 1, NULL, &half20, &local128, 0, NULL, &e));
    CHECK(strcmp(last()->func, "add_one") == 0 && last()->grid[0] == 132 * 16 * 20);
    cv_test_check_profiled(e);
    fake->blocks_per_sm = 0;
    clReleaseKernel(k);

    k = kernel(p, "cluster_rank"); /* compiled cluster 2x1x1 */
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    size_t global = 8 * 64, local = 64;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 1, NULL, &global, &local, 0, NULL, &e));
    CHECK(strcmp(last()->func, "cluster_rank__cv_timed") == 0 && last()->grid[0] == 8);
    cv_test_check_profiled(e);
    clReleaseKernel(k);

    k = coop_kernel(p, addr);
    global = 8 * 128;
    local = 128;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 1, NULL, &global, &local, 0, NULL, &e));
    CHECK(strcmp(last()->func, "coop_sum__cv_timed") == 0 && last()->cooperative);
    cv_test_check_profiled(e);
    clReleaseKernel(k);

    k = kernel(p, "extern_smem");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof addr, &addr));
    cl_uint words = 30 * 1024;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 1, sizeof words, &words));
    size_t extra = words * 4;
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT,
                                              sizeof extra, &extra));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 1, NULL, &global, &local, 0, NULL, &e));
    CHECK(strcmp(last()->func, "extern_smem__cv_timed") == 0 && last()->smem == extra);
    CHECK(fake->last_max_dynamic_smem == (int)extra);
    cv_test_check_profiled(e);
    clReleaseKernel(k);

    /* launch information and a split launch: the same slot and generation for every part; the
     * twins in a module of their own, loaded by the first launch that wants one */
    unsigned loaded = fake->modules_loaded;
    cl_program li = build("launch_info.ptx", NULL);
    CHECK(fake->modules_loaded == loaded + 1);
    k = kernel(li, "li_ids");
    cl_mem none = NULL;
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    size_t g2[2] = {8, 140000}, l2[2] = {8, 1};
    /* 140000 blocks in 5 turns (blocks of 8 work-items, 255 at once on a multiprocessor) */
    fake->blocks_per_sm = 255;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 2, NULL, g2, l2, 0, NULL, NULL));
    CHECK(fake->modules_loaded == loaded + 1 && strcmp(last()->func, "li_ids") == 0);
    unsigned before = fake->num_launches;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 2, NULL, g2, l2, 0, NULL, &e));
    CHECK(fake->modules_loaded == loaded + 2);
    REQUIRE(fake->num_launches == before + 3);
    timing_of(&fake->launches[before], t0);
    for (unsigned i = 0; i < 3; i++) {
        l = &fake->launches[before + i];
        CHECK(strcmp(l->func, "li_ids__cv_timed") == 0 && l->num_params == 3);
        CHECK(l->params[l->param_offset[1] + 60] == 2); /* the launch information's work_dim */
        timing_of(l, t1);
        CHECK(t1[0] == t0[0] && t1[1] == t0[1]);
    }
    cv_test_check_profiled(e);
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 2, NULL, g2, l2, 0, NULL, &e));
    CHECK(fake->modules_loaded == loaded + 2 && strcmp(last()->func, "li_ids__cv_timed") == 0);
    cv_test_check_profiled(e);
    clReleaseKernel(k);
    clReleaseProgram(li);

    /* A profiled launch while a gate is closed (a user event in another queue's wait list) runs
     * the entry, timed by CUDA events: the twins' module load would wait for whoever opens the
     * gate. The twins' text is made once; later launches retry only the load, and the first one
     * after the gate opened loads it, once. */
    loaded = fake->modules_loaded;
    li = build("launch_info.ptx", NULL);
    CHECK(fake->modules_loaded == loaded + 1);
    k = kernel(li, "li_ids");
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, 0, sizeof none, &none));
    cl_command_queue other = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_event gate = clCreateUserEvent(ctx, &err);
    REQUIRE(other && gate);
    size_t one = 8;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(other, k, 1, NULL, &one, &one, 1, &gate, NULL));
    CHECK_ERR(CL_SUCCESS, clFlush(other));
    for (int round = 0; round < 2; round++) {
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 2, NULL, g2, l2, 0, NULL, &e));
        CHECK(fake->modules_loaded == loaded + 1 && strcmp(last()->func, "li_ids") == 0);
        cv_test_check_profiled(e);
    }
    CHECK_ERR(CL_SUCCESS, clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_ERR(CL_SUCCESS, clFinish(other));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(qp, k, 2, NULL, g2, l2, 0, NULL, &e));
    CHECK(fake->modules_loaded == loaded + 2 && strcmp(last()->func, "li_ids__cv_timed") == 0);
    cv_test_check_profiled(e);
    clReleaseEvent(gate);
    clReleaseCommandQueue(other);
    clReleaseKernel(k);
    clReleaseProgram(li);
    fake->blocks_per_sm = 0;
    clReleaseCommandQueue(qp);
}

int main(void) {
    fake = fakecuda_find();
    if (!fake) {
        fprintf(stderr, "the fake libcuda.so.1 is not the one found (LD_LIBRARY_PATH)\n");
        return 1;
    }
    cl_platform_id platform;
    dev = cv_test_gpu_device_or_skip(&platform);
    char name[64] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    REQUIRE(strstr(name, "Fake") != NULL);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueue(ctx, dev, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    test_build();
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    if (compiler) {
        test_library_binary();
        test_rebuild();
    }
    cl_program p = build("basic.ptx", NULL);
    test_plain_launches(p);
    test_clusters_coop(p);
    test_timed_launches(p);
    clReleaseProgram(p);
    test_launch_info();
    test_ndrange_tiling();
    check_all_unloaded();
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("kernels_mock");
}
