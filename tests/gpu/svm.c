/* Shared virtual memory: clSVMAlloc's checks, coarse- and fine-grained buffers used by kernels
 * (pointers into them and pointers stored in them), SVM copies, fills, maps, migrations, frees
 * (with and without a callback), buffers on SVM pointers and kernel exec info. Under the fake
 * driver the kernels do not run: the checks of their results are left out there. */
#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define N 4096

static const char *src =
    "kernel void scale(global int *p, int k) {\n"
    "    size_t i = get_global_id(0);\n"
    "    p[i] = p[i] * k + (int)i;\n"
    "}\n"
    "typedef struct node { global struct node *next; int value; } node;\n"
    "kernel void chase(global node *head, global int *sum) {\n"
    "    int s = 0;\n"
    "    for (global node *n = head; n; n = n->next) s += n->value;\n"
    "    *sum = s;\n"
    "}\n"
    "kernel void with_local(global int *p, local int *scratch) { scratch[0] = 1; p[0] = 1; }\n";

typedef struct node {
    struct node *next;
    int value;
} node;

typedef struct freed {
    atomic_int calls;
    cl_uint n;
    void *ptrs[2];
    cl_context ctx;
} freed;

static void CL_CALLBACK on_free(cl_command_queue q, cl_uint n, void **ptrs, void *user) {
    freed *f = user;
    (void)q;
    f->n = n;
    for (cl_uint i = 0; i < n && i < 2; i++) {
        f->ptrs[i] = ptrs[i];
        clSVMFree(f->ctx, ptrs[i]);
    }
    atomic_fetch_add(&f->calls, 1);
}

static void check_allocation_rules(cl_context ctx, cl_device_svm_capabilities caps) {
    /* "The values specified in flags do not follow rules described for supported values in
     * the SVM Memory Flags table." */
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) == NULL);
    /* "flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
     * CL_MEM_SVM_ATOMICS." */
    CHECK(clSVMAlloc(ctx, CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    /* "CL_MEM_SVM_FINE_GRAIN_BUFFER or CL_MEM_SVM_ATOMICS is specified in flags and these are
     * not supported by at least one device in context." */
    void *atomics = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0);
    CHECK((atomics != NULL) == ((caps & CL_DEVICE_SVM_ATOMICS) != 0));
    clSVMFree(ctx, atomics);
    /* "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE" / "alignment is not a power of two" */
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0) == NULL);
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3) == NULL);
    CHECK(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL);
    /* flags 0 is a read-write buffer; an alignment above the allocator's is honoured. */
    void *a = clSVMAlloc(ctx, 0, 100, 0);
    void *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 100, 4096);
    CHECK(a != NULL && b != NULL && (uintptr_t)b % 4096 == 0);
    clSVMFree(ctx, a);
    clSVMFree(ctx, b);
    clSVMFree(ctx, NULL);
}

static void check_copies(cl_context ctx, cl_command_queue q) {
    int host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 3 + 1;
    int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, sizeof host, 0);
    int *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, sizeof host, 0);
    REQUIRE(a && b);
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(q, CL_TRUE, a, host, sizeof host, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(q, CL_FALSE, b, a, sizeof host, 0, NULL, NULL));
    memset(back, 0, sizeof back);
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(q, CL_TRUE, back, b, sizeof back, 0, NULL, NULL));
    CHECK(memcmp(back, host, sizeof host) == 0);
    /* Host memory to host memory, in the queue's order. */
    int other[N];
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(q, CL_FALSE, other, host, sizeof host, 0, NULL, &e));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    CHECK(memcmp(other, host, sizeof host) == 0);
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_SVM_MEMCPY);
    clReleaseEvent(e);
    /* "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in an
     * overlapping copy." / "CL_INVALID_VALUE if dst_ptr or src_ptr is NULL." */
    CHECK_ERR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(q, CL_TRUE, a + 1, a, 8, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(q, CL_TRUE, a + 2, a, 8, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(q, CL_TRUE, NULL, a, 8, 0, NULL, NULL));

    /* Fills of 4 and 16 bytes. */
    cl_uint four = 0xa5a5f00d, sixteen[4] = {1, 2, 3, 4};
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemFill(q, a, &four, 4, sizeof host / 2, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemFill(q, (char *)a + sizeof host / 2, sixteen, 16,
                                              sizeof host / 2, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(q, CL_TRUE, back, a, sizeof back, 0, NULL, NULL));
    int fill_errors = 0;
    for (int i = 0; i < N; i++)
        fill_errors += (cl_uint)back[i] != (i < N / 2 ? four : sixteen[i % 4]);
    CHECK(fill_errors == 0);
    /* "CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes." / size not a multiple
     * of it / pattern_size not a power of two up to 128. */
    CHECK_ERR(CL_INVALID_VALUE,
              clEnqueueSVMMemFill(q, (char *)a + 4, sixteen, 16, 16, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(q, a, sixteen, 16, 24, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(q, a, sixteen, 12, 24, 0, NULL, NULL));

    /* Migrations: whole allocations, part of one, to the host; a range past the end. */
    const void *ptrs[2] = {a, b + 16};
    size_t sizes[2] = {0, 64};
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMMigrateMem(q, 2, ptrs, NULL, 0, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    size_t past = sizeof host;
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(q, 1, ptrs + 1, &past, 0, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(q, 0, ptrs, NULL, 0, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    clSVMFree(ctx, a);
    clSVMFree(ctx, b);
}

/* A buffer made with CL_MEM_USE_HOST_PTR on an SVM pointer uses the allocation's bytes. */
static void check_buffer_on_svm(cl_context ctx, cl_command_queue q) {
    cl_int err = 0;
    int *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 1024, 0);
    REQUIRE(p);
    for (int i = 0; i < 256; i++)
        p[i] = i;
    /* "CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set in flags and host_ptr is a pointer
     * returned by clSVMAlloc and size is greater than the size passed to clSVMAlloc." */
    CHECK(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 2048, p, &err) == NULL &&
          err == CL_INVALID_BUFFER_SIZE);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 1024, p, &err);
    REQUIRE(m != NULL);
    cl_bool uses = CL_FALSE;
    CHECK_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_TRUE);
    int *mapped =
        clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 1024, 0, NULL, NULL, &err);
    CHECK(mapped == p);
    CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, m, mapped, 0, NULL, NULL));
    int got[4] = {0};
    CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, m, CL_TRUE, 400, sizeof got, got, 0, NULL, NULL));
    CHECK(got[0] == 100 && got[3] == 103);
    int five = 5;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof five, &five, 0, NULL, NULL));
    CHECK(p[0] == 5);
    clReleaseMemObject(m);
    /* A plain buffer does not use an SVM pointer. */
    cl_mem plain = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK_ERR(CL_SUCCESS,
              clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_FALSE);
    clReleaseMemObject(plain);
    clSVMFree(ctx, p);
}

static void check_free_commands(cl_context ctx, cl_command_queue q) {
    freed f = {.ctx = ctx};
    void *ptrs[2] = {clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0),
                     clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0)};
    REQUIRE(ptrs[0] && ptrs[1]);
    /* "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL, or if
     * svm_pointers is NULL and num_svm_pointers is not 0." */
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMFree(q, 0, ptrs, NULL, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMFree(q, 2, NULL, NULL, NULL, 0, NULL, NULL));
    cl_event e = NULL;
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMFree(q, 2, ptrs, on_free, &f, 0, NULL, &e));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
    cl_command_type type = 0;
    CHECK_ERR(CL_SUCCESS, clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_SVM_FREE);
    clReleaseEvent(e);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    for (int i = 0; i < 2000 && atomic_load(&f.calls) == 0; i++)
        usleep(1000);
    CHECK(atomic_load(&f.calls) == 1 && f.n == 2 && f.ptrs[0] == ptrs[0] && f.ptrs[1] == ptrs[1]);
    /* Without a callback culvert frees them itself. */
    void *more[1] = {clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256, 0)};
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMFree(q, 1, more, NULL, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
}

static void check_kernels(cl_context ctx, cl_device_id dev, cl_command_queue q,
                          cl_device_svm_capabilities caps) {
    cl_int err = 0;
    cl_program prog = cv_test_build(ctx, dev, 1, &src, NULL, "svm kernels", &err);
    REQUIRE(prog != NULL);
    cl_kernel scale = clCreateKernel(prog, "scale", &err);
    cl_kernel chase = clCreateKernel(prog, "chase", &err);
    cl_kernel local = clCreateKernel(prog, "with_local", &err);
    REQUIRE(scale && chase && local);
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." / a __local pointer
     * takes no SVM pointer. */
    int *coarse = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    REQUIRE(coarse);
    CHECK_ERR(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(scale, 2, coarse));
    CHECK_ERR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(local, 1, coarse));
    CHECK_ERR(CL_INVALID_KERNEL, clSetKernelArgSVMPointer(NULL, 0, coarse));
    /* Exec info: the pointer list is taken; fine-grained system SVM is not claimed. */
    void *list[1] = {coarse};
    cl_bool on = CL_TRUE, off = CL_FALSE;
    CHECK_ERR(CL_SUCCESS,
              clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list));
    CHECK_ERR(CL_INVALID_VALUE, clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, list));
    CHECK_ERR(
        CL_INVALID_OPERATION,
        clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on));
    CHECK_ERR(CL_SUCCESS, clSetKernelExecInfo(scale, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                              sizeof off, &off));

    /* Coarse-grained: the host writes between map and unmap, a kernel scales from the second
     * element on (a pointer into the allocation), the host reads after a map. */
    CHECK_ERR(CL_SUCCESS,
              clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, coarse, N * sizeof(int), 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        coarse[i] = i;
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMUnmap(q, coarse, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE, clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, coarse, 0, 0, NULL, NULL));
    int k = 3;
    size_t n = N - 1;
    CHECK_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(scale, 0, coarse + 1));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(scale, 1, sizeof k, &k));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, scale, 1, NULL, &n, NULL, 0, NULL, NULL));
    cl_event mapped = NULL;
    CHECK_ERR(CL_SUCCESS,
              clEnqueueSVMMap(q, CL_FALSE, CL_MAP_READ, coarse, N * sizeof(int), 0, NULL, &mapped));
    CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &mapped));
    clReleaseEvent(mapped);
    if (!cv_test_fake_cuda()) {
        int wrong = coarse[0] != 0;
        for (int i = 1; i < N; i++)
            wrong += coarse[i] != i * 3 + (i - 1);
        CHECK(wrong == 0);
    }
    CHECK_ERR(CL_SUCCESS, clEnqueueSVMUnmap(q, coarse, 0, NULL, NULL));

    /* Fine-grained: the host builds a linked list in SVM (pointers stored in it), a kernel
     * follows them, and the host reads the sum without a map. */
    if (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) {
        node *nodes = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                 100 * sizeof(node), 0);
        int *sum =
            clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(int), 0);
        REQUIRE(nodes && sum);
        /* The walk starts at node 0 and meets the others 37 apart (mod 100): all 100. */
        int expect = 0;
        for (int i = 0; i < 100; i++) {
            int at = i * 37 % 100, next = (i + 1) * 37 % 100;
            nodes[at].value = at * at;
            nodes[at].next = i + 1 < 100 ? &nodes[next] : NULL;
            expect += at * at;
        }
        *sum = -1;
        CHECK_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(chase, 0, nodes));
        CHECK_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(chase, 1, sum));
        size_t one = 1;
        CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, chase, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, clFinish(q));
        if (!cv_test_fake_cuda())
            CHECK(*sum == expect);
        clSVMFree(ctx, nodes);
        clSVMFree(ctx, sum);
    }
    clSVMFree(ctx, coarse);
    clReleaseKernel(scale);
    clReleaseKernel(chase);
    clReleaseKernel(local);
    clReleaseProgram(prog);
}

/* SVM atomics, where claimed: a kernel's atomic adds at all_svm_devices scope and the host's, on
 * one counter at the same time, lose nothing; a flag handshake between host and kernel. */
typedef struct bumper {
    atomic_int *counter;
    int n;
} bumper;

static void *host_bumps(void *arg) {
    bumper *b = arg;
    for (int i = 0; i < b->n; i++)
        atomic_fetch_add_explicit(b->counter, 1, memory_order_relaxed);
    return NULL;
}

static const char *atomics_src =
    "kernel void bump(global atomic_int *c, int n) {\n"
    "    for (int i = 0; i < n; i++)\n"
    "        atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "}\n"
    "kernel void answer(global atomic_int *flag, int turns) {\n"
    "    int seen = 0;\n"
    "    for (int i = 0; i < turns && seen != 1; i++)\n"
    "        seen = atomic_load_explicit(flag, memory_order_acquire, "
    "memory_scope_all_svm_devices);\n"
    "    atomic_store_explicit(flag, seen == 1 ? 2 : -1, memory_order_release,\n"
    "                          memory_scope_all_svm_devices);\n"
    "}\n";

static void check_atomics(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err = 0;
    cl_program prog =
        cv_test_build(ctx, dev, 1, &atomics_src, "-cl-std=CL3.0", "svm atomics", &err);
    REQUIRE(prog != NULL);
    cl_kernel bump = clCreateKernel(prog, "bump", &err),
              answer = clCreateKernel(prog, "answer", &err);
    REQUIRE(bump && answer);
    cl_svm_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    atomic_int *counter = clSVMAlloc(ctx, f, 2 * sizeof(atomic_int), 0);
    REQUIRE(counter);
    atomic_init(&counter[0], 0);
    atomic_init(&counter[1], 0);
    int per_item = 2000, threads = 4;
    size_t items = 1024;
    bumper b = {&counter[0], 200000};
    pthread_t t[4];
    CHECK_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(bump, 0, &counter[0]));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(bump, 1, sizeof per_item, &per_item));
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, bump, 1, NULL, &items, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, host_bumps, &b);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    long want = (long)items * per_item * !cv_test_fake_cuda() + (long)threads * b.n;
    if (atomic_load(&counter[0]) != want)
        fprintf(stderr, "svm atomics: counter %d, expected %ld\n", atomic_load(&counter[0]), want);
    CHECK(atomic_load(&counter[0]) == want);
    /* The kernel waits for the host's 1 and answers 2 while both run. */
    int turns = 100000000;
    CHECK_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(answer, 0, &counter[1]));
    CHECK_ERR(CL_SUCCESS, clSetKernelArg(answer, 1, sizeof turns, &turns));
    size_t one = 1;
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(q, answer, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFlush(q));
    atomic_store_explicit(&counter[1], 1, memory_order_release);
    int got = 1;
    for (long i = 0; i < 20000000 && !cv_test_fake_cuda() && got == 1; i++)
        got = atomic_load_explicit(&counter[1], memory_order_acquire);
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    if (!cv_test_fake_cuda())
        CHECK(got == 2 && atomic_load(&counter[1]) == 2);
    clSVMFree(ctx, counter);
    clReleaseKernel(bump);
    clReleaseKernel(answer);
    clReleaseProgram(prog);
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    cl_int err = 0;
    cl_device_svm_capabilities caps = 0;
    CHECK_ERR(CL_SUCCESS,
              clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        fprintf(stderr, "svm: the device has no managed memory\n");
        return CV_TEST_SKIP;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(ctx != NULL);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(q != NULL);
    check_allocation_rules(ctx, caps);
    check_copies(ctx, q);
    check_buffer_on_svm(ctx, q);
    check_free_commands(ctx, q);
    check_kernels(ctx, dev, q, caps);
    if (caps & CL_DEVICE_SVM_ATOMICS)
        check_atomics(ctx, dev, q);
    /* An allocation the application never frees goes with its context. */
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0) != NULL);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("svm");
}
