/* A CPU emulation of one NVIDIA warp, to run culvert's sub-group builtins (builtins/subgroups.ll,
 * subgroup_ext.ll, retargeted to the host by kernels.cmake: every llvm.nvvm.* intrinsic becomes
 * a call of emu.*, defined by shim.ll on the functions here) without a GPU.
 *
 * Lanes are coroutines. A warp instruction (activemask, shfl.sync, vote.sync, bar.warp.sync)
 * blocks its lane; when every live lane is blocked or has exited, the lanes blocked at one call
 * site (the builtins are inlined, so each call of a builtin is its own site) are released
 * together, as converged lanes run: activemask answers the lanes that arrived, shfl and vote
 * follow the PTX ISA's definitions (a shfl from a lane that is not in the mask reads garbage).
 * A .sync instruction is released once every non-exited lane of its membermask has arrived; a
 * lane outside the mask, or lanes of one site with different masks, count as errors. */
#include "warp_emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

enum { OP_MASK, OP_SHFL, OP_VOTE, OP_SYNC };
enum { RUN, BLOCKED, EXITED };
enum { STACK = 1 << 18 };

typedef struct lane {
    ucontext_t ctx;
    char *stack;
    int state, op, mode;
    void *site;
    uint32_t mask, val, b, c, result;
    size_t gid[2], lid;
} lane;

size_t emu_global[2], emu_local[2];
int emu_errors;
static lane lanes[32];
static int nlanes, cur;
static ucontext_t scheduler;
static void (*lane_fn)(void);

static uint32_t block(void *site, int op, int mode, uint32_t mask, uint32_t val, uint32_t b,
                      uint32_t c) {
    lane *l = &lanes[cur];
    l->site = site;
    l->op = op;
    l->mode = mode;
    l->mask = mask;
    l->val = val;
    l->b = b;
    l->c = c;
    l->state = BLOCKED;
    swapcontext(&l->ctx, &scheduler);
    return l->result;
}

/* The warp instructions, under the names kernels.cmake gives the builtins' llvm.nvvm.* calls
 * (and the activemask inline asm): the builtins call these directly, so each call site stays
 * what the builtins' own IR makes it (their nomerge calls are not merged). An i1 argument
 * arrives as a register whose bit 0 is the value. */
#define EMU_SYMBOL(name) __asm__(name)
uint32_t emu_activemask(void) EMU_SYMBOL("emu.activemask");
uint32_t emu_shfl_idx(uint32_t mask, uint32_t v, uint32_t b, uint32_t c)
    EMU_SYMBOL("emu.shfl.sync.idx.i32");
uint32_t emu_shfl_up(uint32_t mask, uint32_t v, uint32_t b, uint32_t c)
    EMU_SYMBOL("emu.shfl.sync.up.i32");
uint32_t emu_shfl_down(uint32_t mask, uint32_t v, uint32_t b, uint32_t c)
    EMU_SYMBOL("emu.shfl.sync.down.i32");
uint32_t emu_shfl_bfly(uint32_t mask, uint32_t v, uint32_t b, uint32_t c)
    EMU_SYMBOL("emu.shfl.sync.bfly.i32");
uint32_t emu_vote_all(uint32_t mask, uint32_t p) EMU_SYMBOL("emu.vote.all.sync");
uint32_t emu_vote_any(uint32_t mask, uint32_t p) EMU_SYMBOL("emu.vote.any.sync");
uint32_t emu_vote_ballot(uint32_t mask, uint32_t p) EMU_SYMBOL("emu.vote.ballot.sync");
void emu_sync(uint32_t mask) EMU_SYMBOL("emu.bar.warp.sync");
/* Called by shim.ll. */
uint32_t emu_sreg(uint32_t code);
size_t _Z13get_global_idj(uint32_t d);
size_t _Z15get_global_sizej(uint32_t d);
size_t _Z14get_local_sizej(uint32_t d);

/* shfl modes: 0 idx, 1 up, 2 down, 3 bfly; vote modes: 0 all, 1 any, 2 ballot. */
#define EMU_SITE __builtin_return_address(0)
uint32_t emu_activemask(void) {
    return block(EMU_SITE, OP_MASK, 0, 0, 0, 0, 0);
}
uint32_t emu_shfl_idx(uint32_t mask, uint32_t v, uint32_t b, uint32_t c) {
    return block(EMU_SITE, OP_SHFL, 0, mask, v, b, c);
}
uint32_t emu_shfl_up(uint32_t mask, uint32_t v, uint32_t b, uint32_t c) {
    return block(EMU_SITE, OP_SHFL, 1, mask, v, b, c);
}
uint32_t emu_shfl_down(uint32_t mask, uint32_t v, uint32_t b, uint32_t c) {
    return block(EMU_SITE, OP_SHFL, 2, mask, v, b, c);
}
uint32_t emu_shfl_bfly(uint32_t mask, uint32_t v, uint32_t b, uint32_t c) {
    return block(EMU_SITE, OP_SHFL, 3, mask, v, b, c);
}
uint32_t emu_vote_all(uint32_t mask, uint32_t p) {
    return block(EMU_SITE, OP_VOTE, 0, mask, p & 1, 0, 0);
}
uint32_t emu_vote_any(uint32_t mask, uint32_t p) {
    return block(EMU_SITE, OP_VOTE, 1, mask, p & 1, 0, 0);
}
uint32_t emu_vote_ballot(uint32_t mask, uint32_t p) {
    return block(EMU_SITE, OP_VOTE, 2, mask, p & 1, 0, 0);
}
void emu_sync(uint32_t mask) {
    block(EMU_SITE, OP_SYNC, 0, mask, 0, 0, 0);
}

/* Special registers: 0-2 %tid.x/y/z, 3-5 %ntid.x/y/z, 6 %laneid, 7-11 %lanemask_eq/le/lt/ge/gt. */
uint32_t emu_sreg(uint32_t code) {
    const lane *l = &lanes[cur];
    uint32_t id = (uint32_t)(l->lid % 32), eq = 1u << id;
    const uint32_t regs[] = {(uint32_t)(l->lid % emu_local[0]),
                             (uint32_t)(l->lid / emu_local[0]),
                             0,
                             (uint32_t)emu_local[0],
                             (uint32_t)emu_local[1],
                             1,
                             id,
                             eq,
                             eq | (eq - 1),
                             eq - 1,
                             ~(eq - 1),
                             ~(eq | (eq - 1))};
    return code < sizeof regs / sizeof regs[0] ? regs[code] : 0;
}

size_t _Z13get_global_idj(uint32_t d) {
    return d < 2 ? lanes[cur].gid[d] : 0;
}
size_t _Z15get_global_sizej(uint32_t d) {
    return d < 2 ? emu_global[d] : 1;
}
size_t _Z14get_local_sizej(uint32_t d) {
    return d < 2 ? emu_local[d] : 1;
}

static uint32_t shfl(const lane *l, uint32_t group) {
    int id = (int)(l - lanes);
    int bval = (int)(l->b & 31), cval = (int)(l->c & 31), seg = (int)((l->c >> 8) & 31);
    int max_lane = (id & seg) | (cval & ~seg), min_lane = id & seg, j, ok;
    switch (l->mode) {
    case 1:
        j = id - bval;
        ok = j >= max_lane;
        break;
    case 2:
        j = id + bval;
        ok = j <= max_lane;
        break;
    case 3:
        j = id ^ bval;
        ok = j <= max_lane;
        break;
    default:
        j = min_lane | (bval & ~seg);
        ok = j <= max_lane;
        break;
    }
    if (!ok)
        j = id;
    if (j >= 0 && j < nlanes && ((group >> j) & 1))
        return lanes[j].val;
    return 0xbad0bad0u ^ (uint32_t)id; /* undefined */
}

static void release(uint32_t group) {
    uint32_t ballot = 0;
    for (int j = 0; j < nlanes; j++)
        if (((group >> j) & 1) && lanes[j].val)
            ballot |= 1u << j;
    for (int i = 0; i < nlanes; i++) {
        lane *l = &lanes[i];
        if (!((group >> i) & 1))
            continue;
        if (l->op == OP_MASK)
            l->result = group;
        else if (l->op == OP_VOTE)
            l->result = l->mode == 0   ? (ballot & l->mask & group) == (l->mask & group)
                        : l->mode == 1 ? (ballot & l->mask) != 0
                                       : ballot & l->mask;
        else if (l->op == OP_SHFL)
            l->result = shfl(l, group);
        l->state = RUN;
    }
}

static void lane_main(void) {
    lane_fn();
    lanes[cur].state = EXITED;
}

/* Releases one group of blocked lanes; false when none can go on (a deadlock). */
static int release_one(void) {
    uint32_t live = 0;
    for (int j = 0; j < nlanes; j++)
        if (lanes[j].state != EXITED)
            live |= 1u << j;
    for (int i = 0; i < nlanes; i++) {
        if (lanes[i].state != BLOCKED)
            continue;
        uint32_t arrived = 0, m = lanes[i].mask;
        for (int j = 0; j < nlanes; j++)
            if (lanes[j].state == BLOCKED && lanes[j].site == lanes[i].site)
                arrived |= 1u << j;
        if (lanes[i].op == OP_MASK) {
            release(arrived);
            return 1;
        }
        for (int j = 0; j < nlanes; j++)
            if (((arrived >> j) & 1) && (lanes[j].mask != m || !((m >> j) & 1))) {
                fprintf(stderr,
                        "warp_emu: lane %d runs a warp instruction with mask %08x "
                        "(lanes there: %08x, first one's mask %08x)\n",
                        j, lanes[j].mask, arrived, m);
                emu_errors++;
            }
        if ((m & live & ~arrived) == 0) {
            release(arrived);
            return 1;
        }
    }
    return 0;
}

void emu_run_warp(int n, void (*fn)(void), void (*setup)(int lane, size_t *gid, size_t *lid)) {
    nlanes = n;
    lane_fn = fn;
    for (int i = 0; i < n; i++) {
        lane *l = &lanes[i];
        if (!l->stack && !(l->stack = malloc(STACK))) {
            fprintf(stderr, "warp_emu: out of memory\n");
            exit(1);
        }
        getcontext(&l->ctx);
        l->ctx.uc_stack.ss_sp = l->stack;
        l->ctx.uc_stack.ss_size = STACK;
        l->ctx.uc_link = &scheduler;
        makecontext(&l->ctx, lane_main, 0);
        l->state = RUN;
        setup(i, l->gid, &l->lid);
    }
    for (;;) {
        int live = 0;
        for (int i = 0; i < n; i++) {
            if (lanes[i].state == RUN) {
                cur = i;
                swapcontext(&scheduler, &lanes[i].ctx);
            }
            live |= lanes[i].state != EXITED;
        }
        if (!live)
            break;
        if (!release_one()) {
            fprintf(stderr, "warp_emu: deadlock (no lane can go on)\n");
            exit(1);
        }
    }
}
