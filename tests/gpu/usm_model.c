/* Unified shared memory against a host model: a fixed random sequence of clEnqueueMemcpyINTEL
 * (device, host and shared allocations and pageable host memory on either side; blocking and
 * not) and clEnqueueMemFillINTEL on one allocation of each kind, applied to a host model when
 * culvert accepts them; every few commands an allocation is copied back to the host and compared
 * with the model (host and shared allocations are also read directly after a clFinish). */
#include "usm_common.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ALLOCS = 3, OPS = 1500, SIZE = 48 * 1024 };

static uint64_t state = 0xa54ff53a5f1d36f1ull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&state);
}

int main(void) {
    cl_platform_id platform;
    cl_device_id dev = cv_test_gpu_device_or_skip(&platform);
    char ext[8192] = "";
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    if (!strstr(ext, "cl_intel_unified_shared_memory")) {
        fprintf(stderr, "no cl_intel_unified_shared_memory: skipped\n");
        return CV_TEST_SKIP;
    }
    usm_load(platform);
    cl_int err;
    cl_command_queue q;
    cl_context ctx = cv_test_context(dev, &q);
    /* 0: device, 1: host, 2: shared */
    unsigned char *mem[ALLOCS], *model[ALLOCS];
    mem[0] = device_alloc(ctx, dev, NULL, SIZE, 0, &err);
    mem[1] = host_alloc(ctx, NULL, SIZE, 0, &err);
    mem[2] = shared_alloc(ctx, dev, NULL, SIZE, 0, &err);
    for (int i = 0; i < ALLOCS; i++) {
        REQUIRE(mem[i] != NULL);
        model[i] = malloc(SIZE);
        REQUIRE(model[i] != NULL);
        for (size_t k = 0; k < SIZE; k++)
            model[i][k] = (unsigned char)rnd();
        CHECK_ERR(CL_SUCCESS, copy(q, CL_TRUE, mem[i], model[i], SIZE, 0, NULL, NULL));
    }
    /* Pageable host memory of non-blocking copies stays untouched until the next clFinish. */
    cv_test_slots slots = cv_test_slots_new(8, SIZE);
    unsigned char *back = malloc(SIZE), *snap = malloc(SIZE);
    REQUIRE(back && snap);
    int applied = 0, compared = 0;
    bool same = true;
    for (int it = 0; it < OPS && same; it++) {
        unsigned char *host = cv_test_slot(&slots, q);
        int a = (int)(rnd() % ALLOCS), b = (int)(rnd() % ALLOCS);
        size_t off = rnd() % SIZE, src = rnd() % SIZE;
        size_t most = SIZE - (off > src ? off : src);
        size_t n = 1 + rnd() % (rnd() % 3 ? (most < 700 ? most : 700) : most);
        cl_bool blocking = rnd() % 2;
        cl_int e = CL_SUCCESS;
        switch (rnd() % 4) {
        case 0: /* allocation to allocation, ranges apart within one */
            if (a == b && src < off + n && off < src + n)
                break;
            e = copy(q, blocking, mem[a] + off, mem[b] + src, n, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                memcpy(snap, model[b] + src, n);
                memcpy(model[a] + off, snap, n);
            }
            break;
        case 1: /* from pageable host memory */
            for (size_t k = 0; k < n; k++)
                host[k] = (unsigned char)rnd();
            e = copy(q, blocking, mem[a] + off, host, n, 0, NULL, NULL);
            if (e == CL_SUCCESS)
                memcpy(model[a] + off, host, n);
            break;
        case 2: { /* to pageable host memory, checked */
            e = copy(q, CL_TRUE, back, mem[a] + off, n, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                same = cv_test_same_bytes(back, model[a] + off, n,
                                          "command %d: a copy out of allocation %d", it, a);
            }
            break;
        }
        default: {
            size_t ps = (size_t)1 << (rnd() % 8), o = off / ps * ps, len = n / ps * ps;
            unsigned char pattern[128];
            for (size_t k = 0; k < ps; k++)
                pattern[k] = (unsigned char)rnd();
            if (!len)
                break;
            e = fill(q, mem[a] + o, pattern, ps, len, 0, NULL, NULL);
            for (size_t k = 0; e == CL_SUCCESS && k < len; k++)
                model[a][o + k] = pattern[k % ps];
            break;
        }
        }
        CHECK(e <= CL_SUCCESS);
        applied += e == CL_SUCCESS;
        if (same && rnd() % 8 == 0) {
            int v = (int)(rnd() % ALLOCS);
            CHECK_ERR(CL_SUCCESS, clFinish(q));
            slots.used = 0; /* every slot's command is done */
            /* host and shared allocations: the host reads them itself */
            if (v > 0)
                memcpy(back, mem[v], SIZE);
            else
                CHECK_ERR(CL_SUCCESS, copy(q, CL_TRUE, back, mem[v], SIZE, 0, NULL, NULL));
            same = cv_test_same_bytes(back, model[v], SIZE, "command %d: allocation %d", it, v);
            compared++;
        }
    }
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    CHECK(applied > OPS / 2 && compared > OPS / 16);
    printf("%d of %d commands accepted, %d allocations compared with the model\n", applied, OPS,
           compared);
    for (int i = 0; i < ALLOCS; i++) {
        CHECK_ERR(CL_SUCCESS, blocking_free(ctx, mem[i]));
        free(model[i]);
    }
    cv_test_slots_free(&slots);
    free(back);
    free(snap);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("usm_model");
}
