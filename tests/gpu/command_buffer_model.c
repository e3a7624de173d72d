/* Command buffers against a host model: random recordings of copies, rectangular copies, fills,
 * barriers and (where kernels run: not on the fake driver) `add` kernels on three buffers and
 * sub-buffers of them, each command made to wait for the one before through its sync point (or a
 * barrier between), on the in-order and the out-of-order queue; each recorded command (a refused
 * one is not recorded) goes into a model replay, the buffers get new contents before each of a
 * few replays, and after each replay every buffer is read back and compared with the model. */
#include "command_buffer_common.h"

#include <stdbool.h>
#include <stdint.h>

enum { ROOTS = 3, BUFFERS = 5, RECORDINGS = 60, MAX_COMMANDS = 24, REPLAYS = 3 };

typedef struct buf {
    cl_mem mem;
    int root;
    size_t offset, size;
} buf;

typedef enum { OP_COPY, OP_RECT, OP_FILL, OP_ADD } op_kind;
typedef struct op {
    op_kind kind;
    int src, dst; /* buffer indices */
    size_t src_off, dst_off, size;
    size_t src_o[3], dst_o[3], region[3], src_rp, src_sp, dst_rp, dst_sp; /* in effect */
    unsigned char pattern[16];
    size_t pattern_size;
    cl_int value; /* add */
    size_t ints;  /* add: work-items, one int each, from the buffer's start */
} op;

static uint64_t state = 0x6a09e667f3bcc908ull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&state);
}

static unsigned char *model[ROOTS];
static size_t root_size[ROOTS];
static buf bufs[BUFFERS];

static unsigned char *at(int b, size_t off) {
    return model[bufs[b].root] + bufs[b].offset + off;
}

static void apply(const op *o, unsigned char *snap) {
    switch (o->kind) {
    case OP_COPY:
        memcpy(snap, at(o->src, o->src_off), o->size);
        memcpy(at(o->dst, o->dst_off), snap, o->size);
        break;
    case OP_RECT:
        memcpy(snap, at(o->src, 0), bufs[o->src].size);
        cv_test_rect_copy(at(o->dst, 0), o->dst_o, o->dst_rp, o->dst_sp, snap, o->src_o, o->src_rp,
                          o->src_sp, o->region);
        break;
    case OP_FILL:
        for (size_t k = 0; k < o->size; k++)
            *at(o->dst, o->dst_off + k) = o->pattern[k % o->pattern_size];
        break;
    case OP_ADD:
        for (size_t k = 0; k < o->ints; k++) {
            uint32_t v;
            memcpy(&v, at(o->dst, 4 * k), 4);
            v += (uint32_t)o->value;
            memcpy(at(o->dst, 4 * k), &v, 4);
        }
        break;
    }
}

/* Records a random command waiting for *last (0: none); true when it was recorded. */
static bool record(cl_command_buffer_khr cb, cl_kernel add, cl_sync_point_khr *last, op *o) {
    cl_sync_point_khr sp = 0;
    cl_uint n = *last ? 1 : 0;
    const cl_sync_point_khr *wait = n ? last : NULL;
    cl_int e = CL_SUCCESS;
    int kinds = cbt_fake ? 3 : 4; /* the fake driver runs no kernels */
    memset(o, 0, sizeof *o);
    o->kind = (op_kind)(rnd() % kinds);
    o->src = (int)(rnd() % BUFFERS);
    o->dst = (int)(rnd() % BUFFERS);
    const buf *s = &bufs[o->src], *d = &bufs[o->dst];
    switch (o->kind) {
    case OP_COPY:
        o->src_off = rnd() % (s->size + 4);
        o->dst_off = rnd() % (d->size + 4);
        o->size = 1 + rnd() % 2000;
        e = cbt.copy(cb, NULL, NULL, s->mem, d->mem, o->src_off, o->dst_off, o->size, n, wait, &sp,
                     NULL);
        break;
    case OP_RECT: {
        size_t region[3] = {1 + rnd() % 40, 1 + rnd() % 8, 1 + rnd() % 3};
        memcpy(o->region, region, sizeof region);
        for (int i = 0; i < 3; i++) {
            o->src_o[i] = rnd() % (i == 0 ? 30 : 4);
            o->dst_o[i] = rnd() % (i == 0 ? 30 : 4);
        }
        size_t srp = rnd() % 2 ? 0 : region[0] + rnd() % 30;
        size_t drp = rnd() % 2 ? 0 : region[0] + rnd() % 30;
        o->src_rp = srp ? srp : region[0];
        o->dst_rp = drp ? drp : region[0];
        size_t ssp = rnd() % 2 ? 0 : o->src_rp * (region[1] + rnd() % 3);
        size_t dsp = rnd() % 2 ? 0 : o->dst_rp * (region[1] + rnd() % 3);
        o->src_sp = ssp ? ssp : o->src_rp * region[1];
        o->dst_sp = dsp ? dsp : o->dst_rp * region[1];
        e = cbt.copy_rect(cb, NULL, NULL, s->mem, d->mem, o->src_o, o->dst_o, region, srp, ssp, drp,
                          dsp, n, wait, &sp, NULL);
        break;
    }
    case OP_FILL:
        o->pattern_size = (size_t)1 << (rnd() % 5);
        for (size_t k = 0; k < o->pattern_size; k++)
            o->pattern[k] = (unsigned char)rnd();
        o->dst_off = (rnd() % (d->size / o->pattern_size + 2)) * o->pattern_size;
        o->size = (1 + rnd() % (2000 / o->pattern_size)) * o->pattern_size;
        e = cbt.fill(cb, NULL, NULL, d->mem, o->pattern, o->pattern_size, o->dst_off, o->size, n,
                     wait, &sp, NULL);
        break;
    case OP_ADD: {
        o->value = (cl_int)(rnd() % 1000) - 500;
        o->ints = (d->size / 4) / 32 * 32;
        if (!o->ints)
            return false;
        size_t g = o->ints, l = 32;
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(add, 0, sizeof(cl_mem), &d->mem));
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(add, 1, sizeof(cl_int), &o->value));
        e = cbt.ndrange(cb, NULL, NULL, add, 1, NULL, &g, &l, n, wait, &sp, NULL);
        break;
    }
    }
    CHECK(e <= CL_SUCCESS);
    if (e != CL_SUCCESS)
        return false;
    CHECK(sp != 0);
    *last = sp;
    /* sometimes a barrier after it, which the next command waits for instead */
    if (rnd() % 4 == 0) {
        cl_sync_point_khr b = 0;
        CHECK_ERR(CL_SUCCESS, cbt.barrier(cb, NULL, NULL, 1, last, &b, NULL));
        if (b)
            *last = b;
    }
    return true;
}

int main(void) {
    cbt_setup();
    cl_int err;
    cl_uint align_bits = 0;
    clGetDeviceInfo(cbt_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits,
                    NULL);
    size_t align = align_bits / 8;
    REQUIRE(align > 0);
    for (int i = 0; i < ROOTS; i++) {
        root_size[i] = 2048 + 4 * (rnd() % 4096);
        model[i] = malloc(root_size[i]);
        REQUIRE(model[i] != NULL);
        bufs[i] = (buf){cv_test_buffer(cbt_context, root_size[i], NULL), i, 0, root_size[i]};
    }
    for (int i = ROOTS; i < BUFFERS; i++) {
        int r = (int)(rnd() % ROOTS);
        size_t off = (rnd() % (root_size[r] / align)) * align;
        cl_buffer_region reg = {off, 4 + 4 * (rnd() % ((root_size[r] - off) / 4))};
        bufs[i] = (buf){clCreateSubBuffer(bufs[r].mem, CL_MEM_READ_WRITE,
                                          CL_BUFFER_CREATE_TYPE_REGION, &reg, &err),
                        r, off, reg.size};
        CHECK_ERR(CL_SUCCESS, err);
        REQUIRE(bufs[i].mem != NULL);
    }
    cl_kernel add = cbt_fake ? NULL : cbt_add_kernel();
    unsigned char *snap = malloc(1 << 16), *back = malloc(1 << 16);
    REQUIRE(snap && back);
    op ops[MAX_COMMANDS];
    int recorded = 0, compared = 0;
    bool same = true;
    for (int rec = 0; rec < RECORDINGS && same; rec++) {
        cl_command_queue q = rnd() % 2 ? cbt_queue : cbt_ooo_queue;
        cl_command_buffer_khr cb = cbt_new(q, 0);
        REQUIRE(cb != NULL);
        int n = 0, want = 1 + (int)(rnd() % MAX_COMMANDS);
        cl_sync_point_khr last = 0;
        for (int i = 0; i < want; i++)
            n += record(cb, add, &last, &ops[n]);
        recorded += n;
        CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
        for (int r = 0; r < REPLAYS && same; r++) {
            for (int i = 0; i < ROOTS; i++) {
                for (size_t k = 0; k < root_size[i]; k++)
                    model[i][k] = (unsigned char)rnd();
                CHECK_ERR(CL_SUCCESS, clEnqueueWriteBuffer(q, bufs[i].mem, CL_TRUE, 0, root_size[i],
                                                           model[i], 0, NULL, NULL));
            }
            CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
            for (int i = 0; i < n; i++)
                apply(&ops[i], snap);
            CHECK_ERR(CL_SUCCESS, clFinish(q));
            for (int i = 0; i < BUFFERS && same; i++) {
                CHECK_ERR(CL_SUCCESS, clEnqueueReadBuffer(q, bufs[i].mem, CL_TRUE, 0, bufs[i].size,
                                                          back, 0, NULL, NULL));
                same =
                    cv_test_same_bytes(back, at(i, 0), bufs[i].size,
                                       "recording %d (%d commands, %s queue), replay %d: buffer %d",
                                       rec, n, q == cbt_queue ? "in-order" : "out-of-order", r, i);
                compared++;
            }
        }
        cbt.release(cb);
    }
    CHECK(recorded > RECORDINGS * 2);
    printf("%d commands recorded in %d command buffers, %d buffers compared after replays\n",
           recorded, RECORDINGS, compared);
    if (add)
        clReleaseKernel(add);
    for (int i = BUFFERS - 1; i >= 0; i--)
        clReleaseMemObject(bufs[i].mem);
    for (int i = 0; i < ROOTS; i++)
        free(model[i]);
    free(snap);
    free(back);
    cbt_teardown();
    return cv_test_report("command_buffer_model");
}
