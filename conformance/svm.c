/* Shared virtual memory (optional in OpenCL 3.0): what CL_DEVICE_SVM_CAPABILITIES claims works.
 * clSVMAlloc's flag rules, copies and fills between host memory and SVM, a coarse-grained
 * buffer written between map and unmap and read by a kernel, a fine-grained one (where claimed)
 * touched by the host without a map, pointers stored in SVM and followed by a kernel, buffers on
 * SVM pointers, and clEnqueueSVMFree's callback. A device without SVM skips every case. */
#include "ct.h"

#define N 1024

static cl_device_svm_capabilities caps(ct_env *e) {
    return ct_dev_bits(e->device, CL_DEVICE_SVM_CAPABILITIES);
}

#define SETUP_SVM()                                                                                \
    if (!(caps(e) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))                                            \
    CT_SKIP("no SVM")

/* "The values specified in flags do not follow rules described for supported values in the SVM
 * Memory Flags table" / "flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
 * CL_MEM_SVM_ATOMICS" / "size is 0" / "alignment is not a power of two": NULL; flags 0 is a
 * read-write buffer. */
static void alloc_rules(ct_env *e) {
    SETUP_SVM();
    CT_CHECK(clSVMAlloc(e->ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) == NULL);
    CT_CHECK(clSVMAlloc(e->ctx, CL_MEM_SVM_ATOMICS, 64, 0) == NULL);
    CT_CHECK(clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, 0, 0) == NULL);
    CT_CHECK(clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, 64, 3) == NULL);
    void *fine = clSVMAlloc(e->ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0);
    CT_CHECK((fine != NULL) == ((caps(e) & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0));
    clSVMFree(e->ctx, fine);
    void *p = clSVMAlloc(e->ctx, 0, 100, 0);
    CT_CHECK(p != NULL);
    clSVMFree(e->ctx, p);
    /* "If a NULL pointer is passed in svm_pointer, no action occurs." */
    clSVMFree(e->ctx, NULL);
}

static void copy_fill(ct_env *e) {
    SETUP_SVM();
    int host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = 7 * i + 1;
    int *a = clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, sizeof host, 0);
    int *b = clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, sizeof host, 0);
    CT_REQUIRE(a && b);
    CT_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(e->q, CL_TRUE, a, host, sizeof host, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(e->q, CL_FALSE, b, a, sizeof host, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(e->q, CL_TRUE, back, b, sizeof back, 0, NULL, NULL));
    CT_CHECK(memcmp(back, host, sizeof host) == 0);
    /* "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in an
     * overlapping copy." / "CL_INVALID_VALUE if dst_ptr or src_ptr is NULL." */
    CT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(e->q, CL_TRUE, a + 1, a, 8, 0, NULL, NULL));
    CT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(e->q, CL_TRUE, NULL, a, 8, 0, NULL, NULL));
    cl_uint pattern[4] = {1, 2, 3, 4};
    CT_ERR(CL_SUCCESS,
           clEnqueueSVMMemFill(e->q, b, pattern, sizeof pattern, sizeof host, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueSVMMemcpy(e->q, CL_TRUE, back, b, sizeof back, 0, NULL, NULL));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += (cl_uint)back[i] != pattern[i % 4];
    CT_CHECK(wrong == 0);
    /* "CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes." */
    CT_ERR(CL_INVALID_VALUE,
           clEnqueueSVMMemFill(e->q, (char *)b + 4, pattern, sizeof pattern, 16, 0, NULL, NULL));
    clSVMFree(e->ctx, a);
    clSVMFree(e->ctx, b);
}

static const char *src = "kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }\n"
                         "typedef struct node { global struct node *next; int value; } node;\n"
                         "kernel void walk(global node *n, global int *sum) {\n"
                         "    int s = 0;\n"
                         "    for (; n; n = n->next) s += n->value;\n"
                         "    *sum = s;\n"
                         "}\n";

/* A coarse-grained buffer: the host writes it between map and unmap, a kernel doubles it from
 * its second element on (a pointer into the allocation), the host reads it after a map. */
static void kernel_coarse(ct_env *e) {
    SETUP_SVM();
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    cl_program prog = ct_build(e, src, NULL);
    CT_REQUIRE(prog != NULL);
    cl_kernel k = ct_kernel(prog, "twice");
    int *p = clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
    CT_REQUIRE(k && p);
    CT_ERR(CL_SUCCESS,
           clEnqueueSVMMap(e->q, CL_TRUE, CL_MAP_WRITE, p, N * sizeof(int), 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        p[i] = i;
    CT_ERR(CL_SUCCESS, clEnqueueSVMUnmap(e->q, p, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(k, 0, p + 1));
    size_t n = N - 1;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS,
           clEnqueueSVMMap(e->q, CL_TRUE, CL_MAP_READ, p, N * sizeof(int), 0, NULL, NULL));
    int wrong = p[0] != 0;
    for (int i = 1; i < N; i++)
        wrong += p[i] != 2 * i;
    CT_CHECK(wrong == 0);
    CT_ERR(CL_SUCCESS, clEnqueueSVMUnmap(e->q, p, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    clSVMFree(e->ctx, p);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* A fine-grained buffer: a linked list built by the host (pointers stored in SVM), walked by a
 * kernel, its sum read by the host without a map. */
static void kernel_fine(ct_env *e) {
    SETUP_SVM();
    if (!(caps(e) & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
        CT_SKIP("no fine-grained SVM buffers");
    if (!ct_compiler(e))
        CT_SKIP("no compiler");
    typedef struct node {
        struct node *next;
        int value;
    } node;
    cl_svm_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
    node *nodes = clSVMAlloc(e->ctx, f, 64 * sizeof(node), 0);
    int *sum = clSVMAlloc(e->ctx, f, sizeof(int), 0);
    cl_program prog = ct_build(e, src, NULL);
    cl_kernel k = prog ? ct_kernel(prog, "walk") : NULL;
    CT_REQUIRE(nodes && sum && k);
    int expect = 0;
    for (int i = 0; i < 64; i++) {
        nodes[i].value = i + 1;
        nodes[i].next = i + 1 < 64 ? &nodes[i + 1] : NULL;
        expect += i + 1;
    }
    *sum = -1;
    CT_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(k, 0, nodes));
    CT_ERR(CL_SUCCESS, clSetKernelArgSVMPointer(k, 1, sum));
    void *used[2] = {nodes, sum};
    CT_ERR(CL_SUCCESS, clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof used, used));
    size_t one = 1;
    CT_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(e->q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    CT_CHECK(*sum == expect);
    clSVMFree(e->ctx, nodes);
    clSVMFree(e->ctx, sum);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* CL_MEM_USE_HOST_PTR on an SVM pointer: the buffer uses it. */
static void buffer_on_svm(ct_env *e) {
    SETUP_SVM();
    cl_int err = CL_SUCCESS;
    int *p = clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, 1024, 0);
    CT_REQUIRE(p != NULL);
    for (int i = 0; i < 256; i++)
        p[i] = i;
    /* "CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set in flags and host_ptr is a pointer
     * returned by clSVMAlloc and size is greater than the size passed to clSVMAlloc." */
    cl_mem big = clCreateBuffer(e->ctx, CL_MEM_USE_HOST_PTR, 2048, p, &err);
    CT_CHECK(big == NULL && err == CL_INVALID_BUFFER_SIZE);
    cl_mem m = clCreateBuffer(e->ctx, CL_MEM_USE_HOST_PTR, 1024, p, &err);
    CT_REQUIRE(m != NULL);
    cl_bool uses = CL_FALSE;
    CT_ERR(CL_SUCCESS, clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CT_CHECK(uses == CL_TRUE);
    int got[2] = {0, 0};
    CT_ERR(CL_SUCCESS, clEnqueueReadBuffer(e->q, m, CL_TRUE, 40, sizeof got, got, 0, NULL, NULL));
    CT_CHECK(got[0] == 10 && got[1] == 11);
    clReleaseMemObject(m);
    clSVMFree(e->ctx, p);
}

typedef struct freed {
    volatile int calls;
    cl_uint n;
    void *first;
    cl_context ctx;
} freed;

static void CL_CALLBACK on_free(cl_command_queue q, cl_uint n, void **ptrs, void *user) {
    freed *f = user;
    (void)q;
    f->n = n;
    f->first = n ? ptrs[0] : NULL;
    for (cl_uint i = 0; i < n; i++)
        clSVMFree(f->ctx, ptrs[i]);
    __atomic_store_n(&f->calls, 1, __ATOMIC_RELEASE);
}

/* clEnqueueSVMFree calls pfn_free_func with the pointers once the command runs. */
static void free_callback(ct_env *e) {
    SETUP_SVM();
    freed f = {0, 0, NULL, e->ctx};
    void *ptrs[2] = {clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, 64, 0),
                     clSVMAlloc(e->ctx, CL_MEM_READ_WRITE, 64, 0)};
    CT_REQUIRE(ptrs[0] && ptrs[1]);
    /* "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL" */
    CT_ERR(CL_INVALID_VALUE, clEnqueueSVMFree(e->q, 0, ptrs, NULL, NULL, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clEnqueueSVMFree(e->q, 2, ptrs, on_free, &f, 0, NULL, NULL));
    CT_ERR(CL_SUCCESS, clFinish(e->q));
    CT_CHECK(ct_wait_flag(&f.calls, 5000));
    CT_CHECK(f.n == 2 && f.first == ptrs[0]);
}

static const ct_case cases[] = {
    {"alloc_rules", alloc_rules},     {"copy_fill", copy_fill},
    {"kernel_coarse", kernel_coarse}, {"kernel_fine", kernel_fine},
    {"buffer_on_svm", buffer_on_svm}, {"free_callback", free_callback},
};
CT_SECTION(ct_svm_section, "svm", cases);
