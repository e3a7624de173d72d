/* Buffers against a host model: a fixed random sequence of writes (blocking and not, whole and
 * rectangular, pageable and through maps), fills, copies and rectangular copies between three
 * buffers and sub-buffers of them (overlapping each other), each applied to a host copy of the
 * root buffers when culvert accepts it (a refusal, such as an overlapping copy or a region out
 * of range, changes nothing), and every few commands one buffer read back whole and compared
 * with the model. One root is 3 MiB, so writes of up to 1 MiB take the staged paths too; one
 * is ALLOC_HOST_PTR, one USE_HOST_PTR (its maps must return the application's memory). */
#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { ROOTS = 3, BUFFERS = 8, OPS = 1500, HOST_SLOTS = 16, SLOT = 1 << 20 };

typedef struct buf {
    cl_mem mem;
    int root;
    size_t offset, size;
} buf;

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&state);
}

static unsigned char *model[ROOTS];
static size_t root_size[ROOTS];
static buf bufs[BUFFERS];
static unsigned char *use_host; /* root 2's memory */

/* A random rectangle: region, origins and pitches (0: the default, as the call takes it) and
 * the pitches in effect. */
typedef struct rect {
    size_t region[3], buf_origin[3], other_origin[3];
    size_t buf_rp, buf_sp, other_rp, other_sp;     /* as passed */
    size_t ebuf_rp, ebuf_sp, eother_rp, eother_sp; /* in effect */
} rect;

static rect random_rect(void) {
    rect t = {.region = {1 + rnd() % 40, 1 + rnd() % 8, 1 + rnd() % 3},
              .buf_origin = {rnd() % 30, rnd() % 5, rnd() % 3},
              .other_origin = {rnd() % 30, rnd() % 5, rnd() % 2}};
    t.buf_rp = rnd() % 2 ? 0 : t.region[0] + rnd() % 30;
    t.ebuf_rp = t.buf_rp ? t.buf_rp : t.region[0];
    t.buf_sp = rnd() % 2 ? 0 : t.ebuf_rp * (t.region[1] + rnd() % 4);
    t.ebuf_sp = t.buf_sp ? t.buf_sp : t.ebuf_rp * t.region[1];
    t.other_rp = rnd() % 2 ? 0 : t.region[0] + rnd() % 30;
    t.eother_rp = t.other_rp ? t.other_rp : t.region[0];
    t.other_sp = rnd() % 2 ? 0 : t.eother_rp * (t.region[1] + rnd() % 4);
    t.eother_sp = t.other_sp ? t.other_sp : t.eother_rp * t.region[1];
    return t;
}

int main(void) {
    cl_device_id dev = cv_test_gpu_device_or_skip(NULL);
    cl_int err;
    cl_command_queue q;
    cl_context ctx = cv_test_context(dev, &q);
    cl_uint align_bits = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    size_t align = align_bits / 8;
    REQUIRE(align > 0);
    for (int i = 0; i < ROOTS; i++) {
        root_size[i] = 4096 + (rnd() % 8) * 4096 + rnd() % 1000 + (i == 0 ? (size_t)3 << 20 : 0);
        model[i] = malloc(root_size[i]);
        REQUIRE(model[i] != NULL);
        for (size_t k = 0; k < root_size[i]; k++)
            model[i][k] = (unsigned char)rnd();
        /* roots: plain (3 MiB), ALLOC_HOST_PTR, USE_HOST_PTR (the application's memory, which
         * maps return) */
        if (i == 2) {
            use_host = aligned_alloc(4096, (root_size[i] + 4095) / 4096 * 4096);
            REQUIRE(use_host != NULL);
            memcpy(use_host, model[i], root_size[i]);
        }
        cl_mem_flags flags = i == 1   ? CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR
                             : i == 2 ? CL_MEM_USE_HOST_PTR
                                      : CL_MEM_COPY_HOST_PTR;
        bufs[i] =
            (buf){clCreateBuffer(ctx, flags, root_size[i], i == 2 ? use_host : model[i], &err), i,
                  0, root_size[i]};
        REQUIRE(bufs[i].mem != NULL);
    }
    for (int i = ROOTS; i < BUFFERS; i++) {
        int r = (int)(rnd() % ROOTS);
        size_t off = (rnd() % (root_size[r] / align)) * align;
        cl_buffer_region reg = {off, 1 + rnd() % (root_size[r] - off)};
        bufs[i] = (buf){clCreateSubBuffer(bufs[r].mem, CL_MEM_READ_WRITE,
                                          CL_BUFFER_CREATE_TYPE_REGION, &reg, &err),
                        r, off, reg.size};
        REQUIRE(bufs[i].mem != NULL);
    }
    /* Host memory of non-blocking writes stays untouched until the clFinish that ends its use. */
    cv_test_slots slots = cv_test_slots_new(HOST_SLOTS, SLOT);
    unsigned char *snap = malloc(4 << 20), *back = malloc(4 << 20);
    REQUIRE(snap && back);
    int applied = 0, compared = 0;
    bool same = true;
    for (int it = 0; it < OPS && same; it++) {
        unsigned char *host = cv_test_slot(&slots, q);
        for (size_t k = 0; k < SLOT; k += 8) {
            uint64_t v = rnd();
            memcpy(host + k, &v, 8);
        }
        buf *a = &bufs[rnd() % BUFFERS], *b = &bufs[rnd() % BUFFERS];
        unsigned char *am = model[a->root] + a->offset, *bm = model[b->root] + b->offset;
        cl_bool blocking = rnd() % 2;
        size_t off = rnd() % (a->size + 8);
        size_t most = a->size < SLOT ? a->size : SLOT;
        size_t n = rnd() % 3 ? rnd() % 600 : rnd() % (most + 8);
        cl_int e = CL_SUCCESS;
        switch (rnd() % 7) {
        case 0:
            e = clEnqueueWriteBuffer(q, a->mem, blocking, off, n, host, 0, NULL, NULL);
            if (e == CL_SUCCESS)
                memcpy(am + off, host, n);
            break;
        case 1: {
            size_t ps = (size_t)1 << (rnd() % 8), o = off / ps * ps, len = n / ps * ps;
            e = clEnqueueFillBuffer(q, a->mem, host, ps, o, len, 0, NULL, NULL);
            for (size_t k = 0; e == CL_SUCCESS && k < len; k++)
                am[o + k] = host[k % ps];
            break;
        }
        case 2: {
            size_t src = rnd() % (b->size + 8);
            e = clEnqueueCopyBuffer(q, b->mem, a->mem, src, off, n, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                memcpy(snap, bm + src, n);
                memcpy(am + off, snap, n);
            }
            break;
        }
        case 3: {
            rect t = random_rect();
            e = clEnqueueWriteBufferRect(q, a->mem, blocking, t.buf_origin, t.other_origin,
                                         t.region, t.buf_rp, t.buf_sp, t.other_rp, t.other_sp, host,
                                         0, NULL, NULL);
            if (e == CL_SUCCESS)
                cv_test_rect_copy(am, t.buf_origin, t.ebuf_rp, t.ebuf_sp, host, t.other_origin,
                                  t.eother_rp, t.eother_sp, t.region);
            break;
        }
        case 4: {
            rect t = random_rect(); /* other: the source buffer b */
            e = clEnqueueCopyBufferRect(q, b->mem, a->mem, t.other_origin, t.buf_origin, t.region,
                                        t.other_rp, t.other_sp, t.buf_rp, t.buf_sp, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                memcpy(snap, bm, b->size);
                cv_test_rect_copy(am, t.buf_origin, t.ebuf_rp, t.ebuf_sp, snap, t.other_origin,
                                  t.eother_rp, t.eother_sp, t.region);
            }
            break;
        }
        case 5: {
            cl_map_flags f = rnd() % 2 ? CL_MAP_WRITE : CL_MAP_WRITE_INVALIDATE_REGION;
            void *p = clEnqueueMapBuffer(q, a->mem, CL_TRUE, f, off, n, 0, NULL, NULL, &e);
            CHECK((e == CL_SUCCESS) == (p != NULL));
            /* USE_HOST_PTR: the application's memory, at the buffer's place in it */
            CHECK(!p || a->root != 2 || p == use_host + a->offset + off);
            if (p) {
                memcpy(p, host, n);
                CHECK_ERR(CL_SUCCESS, clEnqueueUnmapMemObject(q, a->mem, p, 0, NULL, NULL));
                memcpy(am + off, host, n);
            }
            break;
        }
        default: {
            rect t = random_rect();
            static const size_t zero[3] = {0, 0, 0};
            e = clEnqueueReadBufferRect(q, a->mem, CL_TRUE, t.buf_origin, zero, t.region, 0, 0, 0,
                                        0, back, 0, NULL, NULL);
            if (e == CL_SUCCESS) {
                size_t rp = t.region[0], sp = rp * t.region[1];
                cv_test_rect_copy(snap, zero, rp, sp, am, t.buf_origin, rp, sp, t.region);
                same =
                    cv_test_same_bytes(back, snap, sp * t.region[2], "command %d: a rect read", it);
            }
            break;
        }
        }
        /* Refusals are errors (never positive codes); which ones, other tests check. */
        CHECK(e <= CL_SUCCESS);
        applied += e == CL_SUCCESS;
        if (same && rnd() % 4 == 0) {
            buf *v = &bufs[rnd() % BUFFERS];
            CHECK_ERR(CL_SUCCESS,
                      clEnqueueReadBuffer(q, v->mem, CL_TRUE, 0, v->size, back, 0, NULL, NULL));
            same = cv_test_same_bytes(back, model[v->root] + v->offset, v->size,
                                      "command %d: the buffer of root %d at %zu", it, v->root,
                                      v->offset);
            compared++;
        }
    }
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    /* the sequence does what it is for: most commands accepted, many buffers compared */
    CHECK(applied > OPS / 3 && compared > OPS / 8);
    printf("%d of %d commands accepted, %d buffers compared with the model\n", applied, OPS,
           compared);
    for (int i = BUFFERS - 1; i >= 0; i--)
        clReleaseMemObject(bufs[i].mem);
    for (int i = 0; i < ROOTS; i++)
        free(model[i]);
    free(use_host);
    cv_test_slots_free(&slots);
    free(snap);
    free(back);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return cv_test_report("buffers_model");
}
