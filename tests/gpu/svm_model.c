/* Coarse-grained SVM against a host model: a fixed random sequence of SVM copies (within one
 * allocation and between two), fills, mapped writes and reads, and buffers made on SVM pointers
 * written through, on three allocations, each applied to a host model when culvert accepts it,
 * and every few commands an allocation mapped for reading and compared with the model. */
#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ALLOCS = 3, OPS = 1500 };

static uint64_t state = 0x3c6ef372fe94f82bull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&state);
}

int main(void) {
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        fprintf(stderr, "no coarse-grained SVM: skipped\n");
        return CV_TEST_SKIP;
    }
    cl_command_queue q;
    cl_context ctx = cv_test_context(dev, &q);
    unsigned char *svm[ALLOCS], *model[ALLOCS];
    size_t size[ALLOCS];
    for (int i = 0; i < ALLOCS; i++) {
        size[i] = 1024 + rnd() % 60000;
        svm[i] = clSVMAlloc(ctx, CL_MEM_READ_WRITE, size[i], 0);
        model[i] = malloc(size[i]);
        REQUIRE(svm[i] && model[i]);
        for (size_t k = 0; k < size[i]; k++)
            model[i][k] = (unsigned char)rnd();
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueSVMMemcpy(q, CL_TRUE, svm[i], model[i], size[i], 0, NULL, NULL));
    }
    unsigned char *host = malloc(1 << 16), *snap = malloc(1 << 16);
    REQUIRE(host && snap);
    int applied = 0, compared = 0;
    bool same = true;
    for (int it = 0; it < OPS && same; it++) {
        int a = (int)(rnd() % ALLOCS), b = (int)(rnd() % ALLOCS);
        size_t off = rnd() % size[a], n = 1 + rnd() % (size[a] - off);
        if (rnd() % 3)
            n = n < 600 ? n : 1 + rnd() % 600;
        for (size_t k = 0; k < n; k++)
            host[k] = (unsigned char)rnd();
        cl_int e = CL_SUCCESS;
        switch (rnd() % 5) {
        case 0: { /* device to device; within one allocation only where the ranges are apart */
            size_t src = rnd() % size[b];
            n = n < size[b] - src ? n : size[b] - src;
            bool overlap = a == b && src < off + n && off < src + n;
            if (overlap)
                break;
            e = clEnqueueSVMMemcpy(q, rnd() % 2, svm[a] + off, svm[b] + src, n, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                memcpy(snap, model[b] + src, n);
                memcpy(model[a] + off, snap, n);
            }
            break;
        }
        case 1: /* from the host (blocking: the host bytes change next command) */
            e = clEnqueueSVMMemcpy(q, CL_TRUE, svm[a] + off, host, n, 0, NULL, NULL);
            if (e == CL_SUCCESS)
                memcpy(model[a] + off, host, n);
            break;
        case 2: {
            size_t ps = (size_t)1 << (rnd() % 8);
            size_t o = off / ps * ps, len = n / ps * ps;
            if (!len)
                break;
            e = clEnqueueSVMMemFill(q, svm[a] + o, host, ps, len, 0, NULL, NULL);
            for (size_t k = 0; e == CL_SUCCESS && k < len; k++)
                model[a][o + k] = host[k % ps];
            break;
        }
        case 3: { /* a mapped write */
            cl_map_flags f = rnd() % 2 ? CL_MAP_WRITE : CL_MAP_WRITE_INVALIDATE_REGION;
            e = clEnqueueSVMMap(q, CL_TRUE, f, svm[a] + off, n, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                memcpy(svm[a] + off, host, n);
                CHECK_ERR(CL_SUCCESS, clEnqueueSVMUnmap(q, svm[a] + off, 0, NULL, NULL));
                memcpy(model[a] + off, host, n);
            }
            break;
        }
        default: { /* a buffer on the SVM range, written through */
            cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, n, svm[a] + off, &e);
            if (m) {
                e = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n, host, 0, NULL, NULL);
                if (e == CL_SUCCESS)
                    memcpy(model[a] + off, host, n);
                clReleaseMemObject(m);
            }
            break;
        }
        }
        CHECK(e <= CL_SUCCESS);
        applied += e == CL_SUCCESS;
        if (rnd() % 4 == 0) {
            int v = (int)(rnd() % ALLOCS);
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, svm[v], size[v], 0, NULL, NULL));
            same =
                cv_test_same_bytes(svm[v], model[v], size[v], "command %d: allocation %d", it, v);
            CHECK_ERR(CL_SUCCESS, clEnqueueSVMUnmap(q, svm[v], 0, NULL, NULL));
            compared++;
        }
    }
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(applied > OPS / 2 && compared > OPS / 8);
    printf("%d of %d commands accepted, %d allocations compared with the model\n", applied, OPS,
           compared);
    for (int i = 0; i < ALLOCS; i++) {
        clSVMFree(ctx, svm[i]);
        free(model[i]);
    }
    free(host);
    free(snap);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("svm_model");
}
