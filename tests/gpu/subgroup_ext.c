/* The Khronos sub-group extensions on culvert's GPU (cl_khr_subgroup_extended_types, _shuffle,
 * _shuffle_relative, _ballot, _non_uniform_vote, _non_uniform_arithmetic, _clustered_reduce):
 * every function, for every type clang declares (half aside), against a CPU model of 32-lane
 * sub-groups formed from the linear local id. Each kernel runs with work-groups of 32, 48, 100
 * and 256 work-items and 8x5 (2D), so sub-groups are full and short, and with lanes switched
 * off by an `if` on the sub-group local id (patterns: all, a prefix, odd lanes, the two ends,
 * scattered, one lane), which takes the shfl-tree and the loop paths of the reductions. A
 * result the spec leaves undefined (a shuffle from an inactive lane) is not checked; lanes that
 * do not run the call must leave their output untouched. Also: the functions that move half
 * values keep every bit (NaN payloads too); calls written alike on both sides of a branch run
 * on each side's lanes (the Khronos CTS's pattern, which LLVM would merge into one call above
 * the branch); ballot bit counts and searches read as many bits as the largest sub-group has,
 * in a short sub-group too (as the CTS counts them). */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static cl_program prog;
static int bad; /* mismatches so far (the first ones are printed) */

typedef struct ty {
    const char *name;
    unsigned size;
    char kind; /* s signed, u unsigned, f floating */
} ty;
static const ty types[] = {
    {"char", 1, 's'}, {"uchar", 1, 'u'}, {"short", 2, 's'}, {"ushort", 2, 'u'}, {"int", 4, 's'},
    {"uint", 4, 'u'}, {"long", 8, 's'},  {"ulong", 8, 'u'}, {"float", 4, 'f'},  {"double", 8, 'f'}};
#define NTYPES (sizeof types / sizeof types[0])

/* ---- the kernels: one copy of each body per type (T, S(name) = name_T) ---- */
static const char *prelude =
    "#define CAT_(a, b) a##b\n"
    "#define CAT(a, b) CAT_(a, b)\n"
    "#define GID (get_global_id(1) * get_global_size(0) + get_global_id(0))\n"
    "#define ACTIVE ((pattern >> get_sub_group_local_id()) & 1u)\n"
    "kernel void vote(global const int *in, global int *out, uint pattern) {\n"
    "    size_t g = GID;\n"
    "    if (ACTIVE) {\n"
    "        out[g * 3] = sub_group_elect();\n"
    "        out[g * 3 + 1] = sub_group_non_uniform_all(in[g]);\n"
    "        out[g * 3 + 2] = sub_group_non_uniform_any(in[g]);\n"
    "    }\n"
    "}\n"
    "#define LOGICAL(o, p, n) o[0] = sub_group_clustered_reduce_logical_and(p, n);\\\n"
    "    o[1] = sub_group_clustered_reduce_logical_or(p, n);\\\n"
    "    o[2] = sub_group_clustered_reduce_logical_xor(p, n)\n"
    "kernel void logical(global const int *in, global int *out, uint pattern) {\n"
    "    size_t g = GID;\n"
    "    int p = in[g];\n"
    "    global int *o = out + g * 27;\n"
    "    if (ACTIVE) {\n"
    "        o[0] = sub_group_non_uniform_reduce_logical_and(p);\n"
    "        o[1] = sub_group_non_uniform_reduce_logical_or(p);\n"
    "        o[2] = sub_group_non_uniform_reduce_logical_xor(p);\n"
    "        o[3] = sub_group_non_uniform_scan_inclusive_logical_and(p);\n"
    "        o[4] = sub_group_non_uniform_scan_inclusive_logical_or(p);\n"
    "        o[5] = sub_group_non_uniform_scan_inclusive_logical_xor(p);\n"
    "        o[6] = sub_group_non_uniform_scan_exclusive_logical_and(p);\n"
    "        o[7] = sub_group_non_uniform_scan_exclusive_logical_or(p);\n"
    "        o[8] = sub_group_non_uniform_scan_exclusive_logical_xor(p);\n"
    "        LOGICAL((o + 9), p, 1u); LOGICAL((o + 12), p, 2u); LOGICAL((o + 15), p, 4u);\n"
    "        LOGICAL((o + 18), p, 8u); LOGICAL((o + 21), p, 16u); LOGICAL((o + 24), p, 32u);\n"
    "    }\n"
    "}\n"
    "#define MASK(o, m) o[0] = m.x; o[1] = m.y; o[2] = m.z; o[3] = m.w\n"
    "kernel void ballot(global const int *in, global uint *out, uint pattern, uint bit, uint v) {\n"
    "    size_t g = GID;\n"
    "    global uint *o = out + g * 40;\n"
    "    if (ACTIVE) {\n"
    "        uint4 b = sub_group_ballot(in[g]), w = (uint4)(v, 0xffffffffu, 5u, 7u);\n"
    "        MASK(o, b);\n"
    "        o[4] = sub_group_inverse_ballot(b);\n"
    "        o[5] = sub_group_ballot_bit_extract(b, bit);\n"
    "        o[6] = sub_group_ballot_bit_extract(b, get_sub_group_local_id());\n"
    "        o[7] = sub_group_ballot_bit_count(b);\n"
    "        o[8] = sub_group_ballot_inclusive_scan(b);\n"
    "        o[9] = sub_group_ballot_exclusive_scan(b);\n"
    "        o[10] = sub_group_ballot_find_lsb(b);\n"
    "        o[11] = sub_group_ballot_find_msb(b);\n"
    "        MASK((o + 12), get_sub_group_eq_mask()); MASK((o + 16), get_sub_group_ge_mask());\n"
    "        MASK((o + 20), get_sub_group_gt_mask()); MASK((o + 24), get_sub_group_le_mask());\n"
    "        MASK((o + 28), get_sub_group_lt_mask());\n"
    "        o[32] = sub_group_inverse_ballot(w);\n"
    "        o[33] = sub_group_ballot_bit_count(w);\n"
    "        o[34] = sub_group_ballot_inclusive_scan(w);\n"
    "        o[35] = sub_group_ballot_exclusive_scan(w);\n"
    "        o[36] = sub_group_ballot_find_lsb(w);\n"
    "        o[37] = sub_group_ballot_find_msb(w);\n"
    "        o[38] = get_sub_group_local_id();\n"
    "        o[39] = get_sub_group_size();\n"
    "    }\n"
    "}\n"
    "#define SPLIT o[0] = sub_group_broadcast_first(x); o[1] = "
    "sub_group_non_uniform_reduce_add(x);\\\n"
    "    o[2] = sub_group_ballot(1).x; o[3] = sub_group_elect()\n"
    "kernel void split(global const int *in, global int *out) {\n"
    "    size_t g = GID;\n"
    "    int x = in[g];\n"
    "    global int *o = out + g * 4;\n"
    "    if (get_sub_group_local_id() < get_sub_group_size() / 2) {\n"
    "        SPLIT;\n"
    "    } else {\n"
    "        SPLIT;\n"
    "    }\n"
    "}\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define HB(f, n, at, idx)\\\n"
    "    CAT(vstore, n)(CAT(as_ushort, n)(f(CAT(as_half, n)(CAT(vload, n)(0, i + at)), idx)), 0, o "
    "+ at)\n"
    "#define HALF(f, a) as_ushort(f(as_half(i[0]), a))\n"
    "kernel void half_moves(global const ushort *in, global ushort *out, global const uint *src,\n"
    "                       uint idx, uint pattern, uint first, uint xmask, uint delta) {\n"
    "    size_t g = GID;\n"
    "    global const ushort *i = in + g * 34;\n"
    "    global ushort *o = out + g * 73;\n"
    "    o[0] = HALF(sub_group_broadcast, idx);\n"
    "    HB(sub_group_broadcast, 2, 1, idx); HB(sub_group_broadcast, 3, 3, idx);\n"
    "    HB(sub_group_broadcast, 4, 6, idx); HB(sub_group_broadcast, 8, 10, idx);\n"
    "    HB(sub_group_broadcast, 16, 18, idx);\n"
    "    if (ACTIVE) {\n"
    "        o += 34;\n"
    "        o[0] = HALF(sub_group_non_uniform_broadcast, first);\n"
    "        HB(sub_group_non_uniform_broadcast, 2, 1, first);\n"
    "        HB(sub_group_non_uniform_broadcast, 3, 3, first);\n"
    "        HB(sub_group_non_uniform_broadcast, 4, 6, first);\n"
    "        HB(sub_group_non_uniform_broadcast, 8, 10, first);\n"
    "        HB(sub_group_non_uniform_broadcast, 16, 18, first);\n"
    "        o[34] = HALF(sub_group_shuffle, src[g]);\n"
    "        o[35] = HALF(sub_group_shuffle_xor, xmask);\n"
    "        o[36] = HALF(sub_group_shuffle_up, delta);\n"
    "        o[37] = HALF(sub_group_shuffle_down, delta);\n"
    "        o[38] = as_ushort(sub_group_broadcast_first(as_half(i[0])));\n"
    "    }\n"
    "}\n";

/* Every type. */
static const char *body_all =
    "kernel void S(shuffle)(global const T *in, global T *out, global const uint *src,\n"
    "                       uint pattern, uint xmask, uint delta, uint first) {\n"
    "    size_t g = GID;\n"
    "    T x = in[g];\n"
    "    global T *o = out + g * 6;\n"
    "    if (ACTIVE) {\n"
    "        o[0] = sub_group_shuffle(x, src[g]);\n"
    "        o[1] = sub_group_shuffle_xor(x, xmask);\n"
    "        o[2] = sub_group_shuffle_up(x, delta);\n"
    "        o[3] = sub_group_shuffle_down(x, delta);\n"
    "        o[4] = sub_group_non_uniform_broadcast(x, first);\n"
    "        o[5] = sub_group_broadcast_first(x);\n"
    "    }\n"
    "}\n"
    "#define VB(f, n, at, idx) CAT(vstore, n)(f(CAT(vload, n)(0, i + at), idx), 0, o + at)\n"
    "kernel void S(bcast)(global const T *in, global T *out, uint idx, uint pattern,\n"
    "                     uint first) {\n"
    "    size_t g = GID;\n"
    "    global const T *i = in + g * 34;\n"
    "    global T *o = out + g * 68;\n"
    "    o[0] = sub_group_broadcast(i[0], idx);\n"
    "    VB(sub_group_broadcast, 2, 1, idx); VB(sub_group_broadcast, 3, 3, idx);\n"
    "    VB(sub_group_broadcast, 4, 6, idx); VB(sub_group_broadcast, 8, 10, idx);\n"
    "    VB(sub_group_broadcast, 16, 18, idx);\n"
    "    if (ACTIVE) {\n"
    "        o += 34;\n"
    "        o[0] = sub_group_non_uniform_broadcast(i[0], first);\n"
    "        VB(sub_group_non_uniform_broadcast, 2, 1, first);\n"
    "        VB(sub_group_non_uniform_broadcast, 3, 3, first);\n"
    "        VB(sub_group_non_uniform_broadcast, 4, 6, first);\n"
    "        VB(sub_group_non_uniform_broadcast, 8, 10, first);\n"
    "        VB(sub_group_non_uniform_broadcast, 16, 18, first);\n"
    "    }\n"
    "}\n"
    "#undef VB\n"
    "kernel void S(arith)(global const T *in, global T *out, uint pattern) {\n"
    "    size_t g = GID;\n"
    "    T x = in[g];\n"
    "    global T *o = out + g * 12;\n"
    "    if (ACTIVE) {\n"
    "        o[0] = sub_group_non_uniform_reduce_add(x);\n"
    "        o[1] = sub_group_non_uniform_reduce_mul(x);\n"
    "        o[2] = sub_group_non_uniform_reduce_min(x);\n"
    "        o[3] = sub_group_non_uniform_reduce_max(x);\n"
    "        o[4] = sub_group_non_uniform_scan_inclusive_add(x);\n"
    "        o[5] = sub_group_non_uniform_scan_inclusive_mul(x);\n"
    "        o[6] = sub_group_non_uniform_scan_inclusive_min(x);\n"
    "        o[7] = sub_group_non_uniform_scan_inclusive_max(x);\n"
    "        o[8] = sub_group_non_uniform_scan_exclusive_add(x);\n"
    "        o[9] = sub_group_non_uniform_scan_exclusive_mul(x);\n"
    "        o[10] = sub_group_non_uniform_scan_exclusive_min(x);\n"
    "        o[11] = sub_group_non_uniform_scan_exclusive_max(x);\n"
    "    }\n"
    "}\n"
    "#define CL(o, n) o[0] = sub_group_clustered_reduce_add(x, n);\\\n"
    "    o[1] = sub_group_clustered_reduce_mul(x, n);\\\n"
    "    o[2] = sub_group_clustered_reduce_min(x, n);\\\n"
    "    o[3] = sub_group_clustered_reduce_max(x, n)\n"
    "kernel void S(clustered)(global const T *in, global T *out, uint pattern) {\n"
    "    size_t g = GID;\n"
    "    T x = in[g];\n"
    "    global T *o = out + g * 24;\n"
    "    if (ACTIVE) {\n"
    "        CL((o + 0), 1u); CL((o + 4), 2u); CL((o + 8), 4u);\n"
    "        CL((o + 12), 8u); CL((o + 16), 16u); CL((o + 20), 32u);\n"
    "    }\n"
    "}\n"
    "#undef CL\n"
    "kernel void S(alleq)(global const T *in, global int *out, uint pattern) {\n"
    "    size_t g = GID;\n"
    "    if (ACTIVE)\n"
    "        out[g] = sub_group_non_uniform_all_equal(in[g]);\n"
    "}\n";

/* Integer types: the bitwise operations. */
static const char *body_int =
    "#define CL(o, n) o[0] = sub_group_clustered_reduce_and(x, n);\\\n"
    "    o[1] = sub_group_clustered_reduce_or(x, n);\\\n"
    "    o[2] = sub_group_clustered_reduce_xor(x, n)\n"
    "kernel void S(bits)(global const T *in, global T *out, uint pattern) {\n"
    "    size_t g = GID;\n"
    "    T x = in[g];\n"
    "    global T *o = out + g * 27;\n"
    "    if (ACTIVE) {\n"
    "        o[0] = sub_group_non_uniform_reduce_and(x);\n"
    "        o[1] = sub_group_non_uniform_reduce_or(x);\n"
    "        o[2] = sub_group_non_uniform_reduce_xor(x);\n"
    "        o[3] = sub_group_non_uniform_scan_inclusive_and(x);\n"
    "        o[4] = sub_group_non_uniform_scan_inclusive_or(x);\n"
    "        o[5] = sub_group_non_uniform_scan_inclusive_xor(x);\n"
    "        o[6] = sub_group_non_uniform_scan_exclusive_and(x);\n"
    "        o[7] = sub_group_non_uniform_scan_exclusive_or(x);\n"
    "        o[8] = sub_group_non_uniform_scan_exclusive_xor(x);\n"
    "        CL((o + 9), 1u); CL((o + 12), 2u); CL((o + 15), 4u);\n"
    "        CL((o + 18), 8u); CL((o + 21), 16u); CL((o + 24), 32u);\n"
    "    }\n"
    "}\n"
    "#undef CL\n";

/* char, uchar, short, ushort: cl_khr_subgroup_extended_types' uniform reductions and scans. */
static const char *body_small = "kernel void S(ext)(global const T *in, global T *out) {\n"
                                "    size_t g = GID;\n"
                                "    T x = in[g];\n"
                                "    global T *o = out + g * 9;\n"
                                "    o[0] = sub_group_reduce_add(x);\n"
                                "    o[1] = sub_group_reduce_min(x);\n"
                                "    o[2] = sub_group_reduce_max(x);\n"
                                "    o[3] = sub_group_scan_inclusive_add(x);\n"
                                "    o[4] = sub_group_scan_inclusive_min(x);\n"
                                "    o[5] = sub_group_scan_inclusive_max(x);\n"
                                "    o[6] = sub_group_scan_exclusive_add(x);\n"
                                "    o[7] = sub_group_scan_exclusive_min(x);\n"
                                "    o[8] = sub_group_scan_exclusive_max(x);\n"
                                "}\n";

static char *program_source(void) {
    size_t cap = 1 << 20, len = 0;
    char *s = malloc(cap);
    REQUIRE(s != NULL);
    len += (size_t)snprintf(s + len, cap - len, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n%s",
                            prelude);
    for (size_t t = 0; t < NTYPES; t++) {
        const ty *y = &types[t];
        len += (size_t)snprintf(s + len, cap - len, "#define T %s\n#define S(x) x##_%s\n%s%s%s",
                                y->name, y->name, body_all, y->kind != 'f' ? body_int : "",
                                y->size <= 2 ? body_small : "");
        len += (size_t)snprintf(s + len, cap - len, "#undef T\n#undef S\n");
        REQUIRE(len < cap);
    }
    return s;
}

/* ---- the CPU model ---- */
/* A value of one of the types: integers normalized (sign- or zero-extended) into u. */
typedef struct val {
    uint64_t u;
    double f;
} val;

static uint64_t norm(const ty *t, uint64_t v) {
    unsigned bits = t->size * 8;
    if (bits < 64) {
        v &= (1ull << bits) - 1;
        if (t->kind == 's' && (v >> (bits - 1)) & 1)
            v |= ~0ull << bits;
    }
    return v;
}

static val load(const ty *t, const void *buf, size_t i) {
    const unsigned char *p = (const unsigned char *)buf + i * t->size;
    val v = {0, 0};
    if (t->kind == 'f' && t->size == 4) {
        float f;
        memcpy(&f, p, 4);
        v.f = f;
    } else if (t->kind == 'f') {
        memcpy(&v.f, p, 8);
    } else {
        memcpy(&v.u, p, t->size); /* little-endian host and device */
        v.u = norm(t, v.u);
    }
    return v;
}

static void store(const ty *t, void *buf, size_t i, val v) {
    unsigned char *p = (unsigned char *)buf + i * t->size;
    if (t->kind == 'f' && t->size == 4) {
        float f = (float)v.f;
        memcpy(p, &f, 4);
    } else if (t->kind == 'f') {
        memcpy(p, &v.f, 8);
    } else {
        memcpy(p, &v.u, t->size);
    }
}

static val ival(const ty *t, uint64_t u) {
    val v = {norm(t, u), (double)(int64_t)u};
    return v;
}

static val fval(double f) {
    val v = {0, f};
    return v;
}

static bool same(const ty *t, val a, val b) {
    return t->kind == 'f' ? a.f == b.f : a.u == b.u;
}

static bool less(const ty *t, val a, val b) {
    return t->kind == 'f' ? a.f < b.f : t->kind == 's' ? (int64_t)a.u < (int64_t)b.u : a.u < b.u;
}

enum { ADD, MUL, MIN, MAX, AND, OR, XOR, LAND, LOR, LXOR };
static const char *op_names[] = {"add", "mul", "min",         "max",        "and",
                                 "or",  "xor", "logical_and", "logical_or", "logical_xor"};

static val apply(const ty *t, int op, val a, val b) {
    if (t->kind == 'f') {
        double r = op == ADD   ? a.f + b.f
                   : op == MUL ? a.f * b.f
                   : op == MIN ? fmin(a.f, b.f)
                               : fmax(a.f, b.f);
        return fval(t->size == 4 ? (double)(float)r : r);
    }
    switch (op) {
    case ADD:
        return ival(t, a.u + b.u);
    case MUL:
        return ival(t, a.u * b.u);
    case MIN:
        return less(t, a, b) ? a : b;
    case MAX:
        return less(t, a, b) ? b : a;
    case AND:
        return ival(t, a.u & b.u);
    case OR:
        return ival(t, a.u | b.u);
    case XOR:
        return ival(t, a.u ^ b.u);
    case LAND:
        return ival(t, (a.u != 0) && (b.u != 0));
    case LOR:
        return ival(t, (a.u != 0) || (b.u != 0));
    default:
        return ival(t, (a.u != 0) != (b.u != 0));
    }
}

static val identity(const ty *t, int op) {
    unsigned bits = t->size * 8;
    switch (op) {
    case MUL:
    case LAND:
        return t->kind == 'f' ? fval(1) : ival(t, 1);
    case AND:
        return ival(t, ~0ull);
    case MIN:
        return t->kind == 'f'   ? fval(INFINITY)
               : t->kind == 's' ? ival(t, (1ull << (bits - 1)) - 1)
                                : ival(t, ~0ull);
    case MAX:
        return t->kind == 'f'   ? fval(-INFINITY)
               : t->kind == 's' ? ival(t, 1ull << (bits - 1))
                                : ival(t, 0);
    default:
        return t->kind == 'f' ? fval(0) : ival(t, 0);
    }
}

static void show(const ty *t, val v, char *s, size_t n) {
    if (t->kind == 'f')
        snprintf(s, n, "%g", v.f);
    else if (t->kind == 's')
        snprintf(s, n, "%lld", (long long)(int64_t)v.u);
    else
        snprintf(s, n, "%llu", (unsigned long long)v.u);
}

/* The launch shape and what it makes of every work-item: its sub-group (key) and lane. */
typedef struct shape {
    size_t gx, gy, lx, ly;
} shape;
static const shape shapes[] = {
    {64, 1, 32, 1}, {96, 1, 48, 1}, {200, 1, 100, 1}, {512, 1, 256, 1}, {16, 10, 8, 5}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])
enum { MAXN = 512, MAXKEYS = 64 };

typedef struct layout {
    int n;
    int key[MAXN], lane[MAXN], size[MAXN];
    int at[MAXKEYS][32]; /* item of each lane of a sub-group, -1 where none */
} layout;

static void make_layout(const shape *s, layout *l) {
    l->n = (int)(s->gx * s->gy);
    memset(l->at, -1, sizeof l->at);
    size_t groups_x = s->gx / s->lx, lsize = s->lx * s->ly;
    for (size_t y = 0; y < s->gy; y++)
        for (size_t x = 0; x < s->gx; x++) {
            size_t g = y * s->gx + x, lid = (y % s->ly) * s->lx + x % s->lx;
            size_t group = (y / s->ly) * groups_x + x / s->lx, sg = lid / 32;
            int key = (int)(group * ((lsize + 31) / 32) + sg);
            REQUIRE(key < MAXKEYS);
            l->key[g] = key;
            l->lane[g] = (int)(lid % 32);
            l->size[g] = (int)(lsize - sg * 32 < 32 ? lsize - sg * 32 : 32);
            l->at[key][lid % 32] = (int)g;
        }
}

static const cl_uint patterns[] = {0xffffffffu, 0x0000ffffu, 0xaaaaaaaau,
                                   0x80000001u, 0x12345678u, 0x00000100u};
#define NPATTERNS (sizeof patterns / sizeof patterns[0])

static bool active(const layout *l, cl_uint pattern, int g) {
    return g >= 0 && (pattern >> l->lane[g]) & 1;
}

/* The active items of g's sub-group, by lane. */
static int members(const layout *l, cl_uint pattern, int g, int *out) {
    int n = 0;
    for (int lane = 0; lane < 32; lane++) {
        int j = l->at[l->key[g]][lane];
        if (j >= 0 && active(l, pattern, j))
            out[n++] = j;
    }
    return n;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    return cv_test_xorshift(&rng_state);
}

/* Inputs: integers over their whole range; floats from ±{0.5, 1, 2, 4}, so sums and products
 * of 32 of them are exact whatever the order. */
static val random_val(const ty *t) {
    static const double f[] = {0.5, 1, 2, 4, -0.5, -1, -2, -4};
    return t->kind == 'f' ? fval(f[rnd() % 8]) : ival(t, rnd());
}

static void report(const char *what, const ty *t, int shape_i, cl_uint pattern, int g, int slot,
                   val got, val want) {
    if (bad++ < 12) {
        char a[64], b[64];
        show(t, got, a, sizeof a);
        show(t, want, b, sizeof b);
        fprintf(stderr, "%s %s: shape %d pattern %08x item %d slot %d: got %s, want %s\n", what,
                t->name, shape_i, pattern, g, slot, a, b);
    }
}

static void check(const char *what, const ty *t, int shape_i, cl_uint pattern, int g, int slot,
                  val got, val want) {
    cv_test_checks++;
    if (!same(t, got, want))
        report(what, t, shape_i, pattern, g, slot, got, want);
}

/* ---- running kernels ---- */
static cl_mem buffer(size_t size, const void *init) {
    cl_int err;
    cl_mem m =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, (void *)init, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
}

typedef struct arg {
    size_t size;
    const void *value;
} arg;

/* Runs kernel name_T (T NULL: name) on shape s with the arguments, reads buffer `result` back. */
static void launch(const char *name, const ty *t, const shape *s, const arg *args, int nargs,
                   cl_mem result, void *out, size_t out_size) {
    char full[64];
    snprintf(full, sizeof full, t ? "%s_%s" : "%s", name, t ? t->name : "");
    cl_int err;
    cl_kernel k = clCreateKernel(prog, full, &err);
    CHECK_ERR(CL_SUCCESS, err);
    if (err != CL_SUCCESS)
        return;
    for (int i = 0; i < nargs; i++)
        CHECK_ERR(CL_SUCCESS, clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value));
    size_t global[2] = {s->gx, s->gy}, local[2] = {s->lx, s->ly};
    CHECK_ERR(CL_SUCCESS, clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueReadBuffer(queue, result, CL_TRUE, 0, out_size, out, 0, NULL, NULL));
    clReleaseKernel(k);
}

/* The sentinel an output slot keeps when its work-item does not run the call. */
static val sentinel(const ty *t) {
    return t->kind == 'f' ? fval(-1234.5) : ival(t, 0x5a5a5a5a5a5a5a5aull);
}

static void fill(const ty *t, void *buf, size_t n, val v) {
    for (size_t i = 0; i < n; i++)
        store(t, buf, i, v);
}

/* A fold of op over the items m[0..n) of a sub-group whose lanes satisfy keep(lane). */
static val fold(const ty *t, const layout *l, const void *in, int op, const int *m, int n, int lo,
                int hi) {
    val acc = identity(t, op);
    for (int i = 0; i < n; i++)
        if (l->lane[m[i]] >= lo && l->lane[m[i]] < hi)
            acc = apply(t, op, acc, load(t, in, (size_t)m[i]));
    return acc;
}

/* Checks that an inactive item's slots kept the sentinel. */
static void check_untouched(const char *what, const ty *t, int si, cl_uint pattern, int g,
                            const void *out, int slots) {
    for (int k = 0; k < slots; k++)
        check(what, t, si, pattern, g, k, load(t, out, (size_t)(g * slots + k)), sentinel(t));
}

/* The items sub_group_shuffle(x, src_lane), _xor(x, xmask), _up(x, delta) and _down(x, delta)
 * read for item g (-1: no such lane), into from[0..3]. */
static void shuffle_sources(const layout *l, int g, cl_uint src_lane, cl_uint xmask, cl_uint delta,
                            int *from) {
    const int *at = l->at[l->key[g]];
    int lane = l->lane[g];
    from[0] = at[src_lane];
    from[1] = (lane ^ (int)xmask) < 32 ? at[lane ^ (int)xmask] : -1;
    from[2] = lane - (int)delta >= 0 ? at[lane - (int)delta] : -1;
    from[3] = lane + (int)delta < 32 ? at[lane + (int)delta] : -1;
}

static void test_shuffle(const ty *t, int si, const layout *l, cl_uint pattern) {
    int n = l->n, m[32];
    void *in = malloc((size_t)n * t->size), *out = malloc((size_t)n * 6 * t->size);
    cl_uint *src = malloc((size_t)n * sizeof(cl_uint));
    REQUIRE(in && out && src);
    for (int g = 0; g < n; g++) {
        store(t, in, (size_t)g, random_val(t));
        int c = members(l, pattern, g, m);
        src[g] = c ? (cl_uint)l->lane[m[rnd() % (size_t)c]] : 0; /* an active lane */
    }
    fill(t, out, (size_t)n * 6, sentinel(t));
    cl_uint xmask = (cl_uint)(rnd() % 31) + 1, delta = (cl_uint)(rnd() % 5) + 1;
    cl_uint first = 0;
    while (!((pattern >> first) & 1))
        first++;
    cl_mem bi = buffer((size_t)n * t->size, in), bo = buffer((size_t)n * 6 * t->size, out);
    cl_mem bs = buffer((size_t)n * sizeof(cl_uint), src);
    arg args[] = {{sizeof bi, &bi},           {sizeof bo, &bo},       {sizeof bs, &bs},
                  {sizeof pattern, &pattern}, {sizeof xmask, &xmask}, {sizeof delta, &delta},
                  {sizeof first, &first}};
    launch("shuffle", t, &shapes[si], args, 7, bo, out, (size_t)n * 6 * t->size);
    for (int g = 0; g < n; g++) {
        if (!active(l, pattern, g)) {
            check_untouched("shuffle (inactive)", t, si, pattern, g, out, 6);
            continue;
        }
        int c = members(l, pattern, g, m), from[6];
        shuffle_sources(l, g, src[g], xmask, delta, from);
        from[4] = l->at[l->key[g]][first];
        from[5] = m[0];
        static const char *what[6] = {"sub_group_shuffle",
                                      "sub_group_shuffle_xor",
                                      "sub_group_shuffle_up",
                                      "sub_group_shuffle_down",
                                      "sub_group_non_uniform_broadcast",
                                      "sub_group_broadcast_first"};
        (void)c;
        for (int k = 0; k < 6; k++)
            if (active(l, pattern, from[k])) /* else undefined */
                check(what[k], t, si, pattern, g, k, load(t, out, (size_t)(g * 6 + k)),
                      load(t, in, (size_t)from[k]));
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseMemObject(bs);
    free(in);
    free(out);
    free(src);
}

static void test_bcast(const ty *t, int si, const layout *l, cl_uint pattern) {
    int n = l->n, smallest = 32;
    void *in = malloc((size_t)n * 34 * t->size), *out = malloc((size_t)n * 68 * t->size);
    REQUIRE(in && out);
    for (int g = 0; g < n * 34; g++)
        store(t, in, (size_t)g, random_val(t));
    for (int g = 0; g < n; g++)
        smallest = l->size[g] < smallest ? l->size[g] : smallest;
    fill(t, out, (size_t)n * 68, sentinel(t));
    cl_uint idx = (cl_uint)smallest - 1, first = 0;
    while (!((pattern >> first) & 1))
        first++;
    cl_mem bi = buffer((size_t)n * 34 * t->size, in), bo = buffer((size_t)n * 68 * t->size, out);
    arg args[] = {{sizeof bi, &bi},
                  {sizeof bo, &bo},
                  {sizeof idx, &idx},
                  {sizeof pattern, &pattern},
                  {sizeof first, &first}};
    launch("bcast", t, &shapes[si], args, 5, bo, out, (size_t)n * 68 * t->size);
    for (int g = 0; g < n; g++) {
        const int *at = l->at[l->key[g]];
        for (int k = 0; k < 34; k++)
            check("sub_group_broadcast (scalar, vectors 2 3 4 8 16)", t, si, pattern, g, k,
                  load(t, out, (size_t)(g * 68 + k)), load(t, in, (size_t)(at[idx] * 34 + k)));
        for (int k = 0; k < 34; k++)
            check("sub_group_non_uniform_broadcast (scalar, vectors 2 3 4 8 16)", t, si, pattern, g,
                  34 + k, load(t, out, (size_t)(g * 68 + 34 + k)),
                  active(l, pattern, g) ? load(t, in, (size_t)(at[first] * 34 + k)) : sentinel(t));
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
}

/* Reductions and scans: `slots` outputs per item; ops[k] and kinds[k] (0 reduce, 1 inclusive,
 * 2 exclusive, 3 + log2(cluster size) clustered) describe slot k. */
static void test_collective(const char *kernel, const ty *t, int si, const layout *l,
                            cl_uint pattern, int slots, const int *ops, const int *kinds,
                            bool uniform) {
    bool logical = ops[0] >= LAND; /* kernel "logical", of int predicates */
    int n = l->n, m[32];
    void *in = malloc((size_t)n * t->size), *out = malloc((size_t)n * slots * t->size);
    REQUIRE(in && out);
    for (int g = 0; g < n; g++)
        store(t, in, (size_t)g, logical && rnd() % 3 ? ival(t, rnd() % 3) : random_val(t));
    fill(t, out, (size_t)n * slots, sentinel(t));
    cl_mem bi = buffer((size_t)n * t->size, in), bo = buffer((size_t)n * slots * t->size, out);
    arg args[] = {{sizeof bi, &bi}, {sizeof bo, &bo}, {sizeof pattern, &pattern}};
    launch(kernel, logical ? NULL : t, &shapes[si], args, uniform ? 2 : 3, bo, out,
           (size_t)n * slots * t->size);
    cl_uint p = uniform ? 0xffffffffu : pattern;
    for (int g = 0; g < n; g++) {
        if (!active(l, p, g)) {
            check_untouched(kernel, t, si, p, g, out, slots);
            continue;
        }
        int c = members(l, p, g, m), lane = l->lane[g];
        for (int k = 0; k < slots; k++) {
            int lo = 0, hi = 32;
            if (kinds[k] == 1)
                hi = lane + 1;
            else if (kinds[k] == 2)
                hi = lane;
            else if (kinds[k] >= 3) {
                int cs = 1 << (kinds[k] - 3);
                lo = lane & ~(cs - 1);
                hi = lo + cs;
            }
            val want = fold(t, l, in, ops[k], m, c, lo, hi);
            if (logical) { /* any non-zero value is true */
                val got = load(t, out, (size_t)(g * slots + k));
                got.u = got.u != 0;
                check(op_names[ops[k]], t, si, p, g, k, got, want);
            } else {
                check(op_names[ops[k]], t, si, p, g, k, load(t, out, (size_t)(g * slots + k)),
                      want);
            }
        }
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
}

static void test_all_equal(const ty *t, int si, const layout *l, cl_uint pattern) {
    int n = l->n, m[32];
    const ty *it = &types[4];
    void *in = malloc((size_t)n * t->size);
    cl_int *out = malloc((size_t)n * sizeof(cl_int));
    REQUIRE(in && out);
    /* Even sub-groups hold one value (the odd ones too, now and then), odd ones random values. */
    val common = random_val(t);
    for (int g = 0; g < n; g++)
        store(t, in, (size_t)g, l->key[g] % 2 == 0 || rnd() % 16 == 0 ? common : random_val(t));
    for (int g = 0; g < n; g++)
        out[g] = -7;
    cl_mem bi = buffer((size_t)n * t->size, in), bo = buffer((size_t)n * sizeof(cl_int), out);
    arg args[] = {{sizeof bi, &bi}, {sizeof bo, &bo}, {sizeof pattern, &pattern}};
    launch("alleq", t, &shapes[si], args, 3, bo, out, (size_t)n * sizeof(cl_int));
    for (int g = 0; g < n; g++) {
        if (!active(l, pattern, g)) {
            check("sub_group_non_uniform_all_equal (inactive)", it, si, pattern, g, 0,
                  ival(it, (uint64_t)out[g]), ival(it, (uint64_t)-7));
            continue;
        }
        int c = members(l, pattern, g, m), eq = 1;
        for (int i = 1; i < c; i++)
            eq &= same(t, load(t, in, (size_t)m[i]), load(t, in, (size_t)m[0]));
        check("sub_group_non_uniform_all_equal", t, si, pattern, g, 0, ival(it, out[g] != 0),
              ival(it, (uint64_t)eq));
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
}

static void test_vote(int si, const layout *l, cl_uint pattern) {
    const ty *t = &types[4];
    int n = l->n, m[32];
    cl_int in[MAXN] = {0}, out[MAXN * 3];
    for (int g = 0; g < n; g++) /* sub-groups of even key: no zero */
        in[g] = l->key[g] % 2 == 0 ? (int)(rnd() % 5) + 1 : (int)(rnd() % 3);
    for (int g = 0; g < n * 3; g++)
        out[g] = -7;
    cl_mem bi = buffer(sizeof in, in), bo = buffer(sizeof out, out);
    arg args[] = {{sizeof bi, &bi}, {sizeof bo, &bo}, {sizeof pattern, &pattern}};
    launch("vote", NULL, &shapes[si], args, 3, bo, out, sizeof out);
    for (int g = 0; g < n; g++) {
        if (!active(l, pattern, g)) {
            for (int k = 0; k < 3; k++)
                check("vote (inactive)", t, si, pattern, g, k, ival(t, (uint64_t)out[g * 3 + k]),
                      ival(t, (uint64_t)-7));
            continue;
        }
        int c = members(l, pattern, g, m), all = 1, any = 0;
        for (int i = 0; i < c; i++) {
            all &= in[m[i]] != 0;
            any |= in[m[i]] != 0;
        }
        check("sub_group_elect", t, si, pattern, g, 0, ival(t, out[g * 3] != 0),
              ival(t, m[0] == g));
        check("sub_group_non_uniform_all", t, si, pattern, g, 1, ival(t, out[g * 3 + 1] != 0),
              ival(t, (uint64_t)all));
        check("sub_group_non_uniform_any", t, si, pattern, g, 2, ival(t, out[g * 3 + 2] != 0),
              ival(t, (uint64_t)any));
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

/* Calls written alike on both sides of a branch: each side's lanes are their own group. */
static void test_split(int si, const layout *l) {
    const ty *t = &types[4];
    int n = l->n;
    cl_int in[MAXN] = {0}, out[MAXN * 4];
    for (int g = 0; g < n; g++)
        in[g] = (cl_int)(rnd() % 1000);
    for (int g = 0; g < n * 4; g++)
        out[g] = -7;
    cl_mem bi = buffer(sizeof in, in), bo = buffer(sizeof out, out);
    arg args[] = {{sizeof bi, &bi}, {sizeof bo, &bo}};
    launch("split", NULL, &shapes[si], args, 2, bo, out, sizeof out);
    static const char *what[4] = {"sub_group_broadcast_first (split)",
                                  "sub_group_non_uniform_reduce_add (split)",
                                  "sub_group_ballot (split)", "sub_group_elect (split)"};
    for (int g = 0; g < n; g++) {
        int lane = l->lane[g], half = l->size[g] / 2;
        int lo = lane < half ? 0 : half, hi = lane < half ? half : l->size[g];
        const int *at = l->at[l->key[g]];
        cl_uint sum = 0, bits = 0;
        for (int k = lo; k < hi; k++) {
            sum += (cl_uint)in[at[k]];
            bits |= 1u << k;
        }
        cl_int want[4] = {in[at[lo]], (cl_int)sum, (cl_int)bits, lane == lo};
        for (int k = 0; k < 4; k++)
            check(what[k], t, si, 0xffffffffu, g, k, ival(t, (uint64_t)out[g * 4 + k]),
                  ival(t, (uint64_t)want[k]));
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

/* Half values moved between lanes keep their bits: NaNs with payloads and signs among them. */
static void test_half_moves(int si, const layout *l, cl_uint pattern) {
    const ty *t = &types[3]; /* the bits as ushort */
    int n = l->n, smallest = 32, m[32];
    static const cl_ushort nans[] = {0x7e00, 0x7fff, 0x7c01, 0xfe83, 0x7d55, 0xffff};
    cl_ushort *in = malloc((size_t)n * 34 * 2), *out = malloc((size_t)n * 73 * 2);
    cl_uint *src = malloc((size_t)n * sizeof(cl_uint));
    REQUIRE(in && out && src);
    for (int g = 0; g < n * 34; g++)
        in[g] = rnd() % 2 ? nans[rnd() % 6] : (cl_ushort)rnd();
    for (int g = 0; g < n * 73; g++)
        out[g] = 0x5a5a;
    for (int g = 0; g < n; g++) {
        smallest = l->size[g] < smallest ? l->size[g] : smallest;
        int c = members(l, pattern, g, m);
        src[g] = c ? (cl_uint)l->lane[m[rnd() % (size_t)c]] : 0;
    }
    cl_uint idx = (cl_uint)smallest - 1, first = 0, xmask = (cl_uint)(rnd() % 31) + 1;
    cl_uint delta = (cl_uint)(rnd() % 5) + 1;
    while (!((pattern >> first) & 1))
        first++;
    cl_mem bi = buffer((size_t)n * 34 * 2, in), bo = buffer((size_t)n * 73 * 2, out);
    cl_mem bs = buffer((size_t)n * sizeof(cl_uint), src);
    arg args[] = {{sizeof bi, &bi},       {sizeof bo, &bo},           {sizeof bs, &bs},
                  {sizeof idx, &idx},     {sizeof pattern, &pattern}, {sizeof first, &first},
                  {sizeof xmask, &xmask}, {sizeof delta, &delta}};
    launch("half_moves", NULL, &shapes[si], args, 8, bo, out, (size_t)n * 73 * 2);
    for (int g = 0; g < n; g++) {
        const int *at = l->at[l->key[g]];
        const cl_ushort *o = out + g * 73;
        int c = members(l, pattern, g, m);
        for (int k = 0; k < 34; k++)
            check("sub_group_broadcast (half bits)", t, si, pattern, g, k, ival(t, o[k]),
                  ival(t, in[at[idx] * 34 + k]));
        if (!active(l, pattern, g)) {
            for (int k = 34; k < 73; k++)
                check("half moves (inactive)", t, si, pattern, g, k, ival(t, o[k]),
                      ival(t, 0x5a5a));
            continue;
        }
        for (int k = 0; k < 34; k++)
            check("sub_group_non_uniform_broadcast (half bits)", t, si, pattern, g, 34 + k,
                  ival(t, o[34 + k]), ival(t, in[at[first] * 34 + k]));
        int from[5];
        shuffle_sources(l, g, src[g], xmask, delta, from);
        from[4] = c ? m[0] : -1;
        static const char *what[5] = {
            "sub_group_shuffle (half bits)", "sub_group_shuffle_xor (half bits)",
            "sub_group_shuffle_up (half bits)", "sub_group_shuffle_down (half bits)",
            "sub_group_broadcast_first (half bits)"};
        for (int k = 0; k < 5; k++)
            if (active(l, pattern, from[k])) /* else undefined */
                check(what[k], t, si, pattern, g, 68 + k, ival(t, o[68 + k]),
                      ival(t, in[from[k] * 34]));
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseMemObject(bs);
    free(in);
    free(out);
    free(src);
}

static cl_uint popc(cl_uint x) {
    cl_uint c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

static void test_ballot(int si, const layout *l, cl_uint pattern) {
    const ty *t = &types[5];
    int n = l->n, m[32];
    cl_int in[MAXN] = {0};
    static cl_uint out[MAXN * 40];
    for (int g = 0; g < n; g++)
        in[g] = (int)(rnd() % 3) - 1; /* -1, 0, 1: two of three true */
    for (int g = 0; g < n * 40; g++)
        out[g] = 0xdeadbeefu;
    cl_uint bit = (cl_uint)(rnd() % 32), v = (cl_uint)rnd();
    cl_mem bi = buffer(sizeof in, in), bo = buffer(sizeof out, out);
    arg args[] = {{sizeof bi, &bi},
                  {sizeof bo, &bo},
                  {sizeof pattern, &pattern},
                  {sizeof bit, &bit},
                  {sizeof v, &v}};
    launch("ballot", NULL, &shapes[si], args, 5, bo, out, sizeof out);
    for (int g = 0; g < n; g++) {
        const cl_uint *o = out + g * 40;
        if (!active(l, pattern, g)) {
            for (int k = 0; k < 40; k++)
                check("ballot (inactive)", t, si, pattern, g, k, ival(t, o[k]),
                      ival(t, 0xdeadbeefu));
            continue;
        }
        int c = members(l, pattern, g, m), lane = l->lane[g], size = l->size[g];
        size_t lsize = shapes[si].lx * shapes[si].ly; /* the largest sub-group: min(32, it) */
        cl_uint b = 0, sizemask = size == 32 ? 0xffffffffu : (1u << size) - 1;
        cl_uint maxmask = lsize >= 32 ? 0xffffffffu : (1u << lsize) - 1;
        for (int i = 0; i < c; i++)
            if (in[m[i]])
                b |= 1u << l->lane[m[i]];
        cl_uint eq = 1u << lane, le = eq | (eq - 1), lt = eq - 1;
        cl_uint ge = ~lt & sizemask, gt = ~le & sizemask, vb = v & maxmask;
        cl_uint want[40] = {b,
                            0,
                            0,
                            0,
                            (b >> lane) & 1,
                            (b >> bit) & 1,
                            (b >> lane) & 1,
                            popc(b),
                            popc(b & le),
                            popc(b & lt),
                            0,
                            0,
                            eq,
                            0,
                            0,
                            0,
                            ge,
                            0,
                            0,
                            0,
                            gt,
                            0,
                            0,
                            0,
                            le,
                            0,
                            0,
                            0,
                            lt,
                            0,
                            0,
                            0,
                            (v >> lane) & 1,
                            popc(vb),
                            popc(vb & le),
                            popc(vb & lt),
                            0,
                            0,
                            (cl_uint)lane,
                            (cl_uint)size};
        bool check_find[2] = {b != 0, vb != 0};
        for (int k = 0; k < 32 && check_find[0]; k++)
            if ((b >> k) & 1) {
                want[10] = (cl_uint)k;
                break;
            }
        for (int k = 31; k >= 0 && check_find[0]; k--)
            if ((b >> k) & 1) {
                want[11] = (cl_uint)k;
                break;
            }
        for (int k = 0; k < 32 && check_find[1]; k++)
            if ((vb >> k) & 1) {
                want[36] = (cl_uint)k;
                break;
            }
        for (int k = 31; k >= 0 && check_find[1]; k--)
            if ((vb >> k) & 1) {
                want[37] = (cl_uint)k;
                break;
            }
        static const char *what[40] = {"sub_group_ballot .x",
                                       "sub_group_ballot .y",
                                       "sub_group_ballot .z",
                                       "sub_group_ballot .w",
                                       "sub_group_inverse_ballot",
                                       "sub_group_ballot_bit_extract",
                                       "sub_group_ballot_bit_extract (own lane)",
                                       "sub_group_ballot_bit_count",
                                       "sub_group_ballot_inclusive_scan",
                                       "sub_group_ballot_exclusive_scan",
                                       "sub_group_ballot_find_lsb",
                                       "sub_group_ballot_find_msb",
                                       "get_sub_group_eq_mask .x",
                                       "eq .y",
                                       "eq .z",
                                       "eq .w",
                                       "get_sub_group_ge_mask .x",
                                       "ge .y",
                                       "ge .z",
                                       "ge .w",
                                       "get_sub_group_gt_mask .x",
                                       "gt .y",
                                       "gt .z",
                                       "gt .w",
                                       "get_sub_group_le_mask .x",
                                       "le .y",
                                       "le .z",
                                       "le .w",
                                       "get_sub_group_lt_mask .x",
                                       "lt .y",
                                       "lt .z",
                                       "lt .w",
                                       "sub_group_inverse_ballot (argument)",
                                       "sub_group_ballot_bit_count (argument)",
                                       "sub_group_ballot_inclusive_scan (argument)",
                                       "sub_group_ballot_exclusive_scan (argument)",
                                       "sub_group_ballot_find_lsb (argument)",
                                       "sub_group_ballot_find_msb (argument)",
                                       "get_sub_group_local_id",
                                       "get_sub_group_size"};
        for (int k = 0; k < 40; k++) {
            if ((k == 10 || k == 11) && !check_find[0])
                continue; /* no bit set: undefined */
            if ((k == 36 || k == 37) && !check_find[1])
                continue;
            check(what[k], t, si, pattern, g, k, ival(t, o[k]), ival(t, want[k]));
        }
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

int main(void) {
    cl_platform_id platform;
    dev = cv_test_gpu_device_or_skip(&platform);
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL);
    if (!compiler) {
        printf("no OpenCL C compiler: skipped\n");
        return CV_TEST_SKIP;
    }
    /* culvert claims every one of them whenever its compiler is there. */
    static const char *exts[] = {"cl_khr_subgroups",
                                 "cl_khr_subgroup_extended_types",
                                 "cl_khr_subgroup_shuffle",
                                 "cl_khr_subgroup_shuffle_relative",
                                 "cl_khr_subgroup_ballot",
                                 "cl_khr_subgroup_non_uniform_vote",
                                 "cl_khr_subgroup_non_uniform_arithmetic",
                                 "cl_khr_subgroup_clustered_reduce"};
    size_t len = 0;
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len);
    char *ext = calloc(1, len + 1);
    REQUIRE(ext != NULL);
    clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, ext, NULL);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t n = strlen(exts[i]);
        bool found = false;
        for (const char *p = strstr(ext, exts[i]); p && !found; p = strstr(p + 1, exts[i]))
            found = (p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0);
        if (!found)
            fprintf(stderr, "%s is not claimed\n", exts[i]);
        CHECK(found);
    }
    free(ext);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    char *src = program_source();
    /* Written out, not cv_test_build: tests/warp_emu builds this file against its own OpenCL
     * functions (macros that test_util.c would not see). */
    prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
    REQUIRE(err == CL_SUCCESS);
    err = clBuildProgram(prog, 1, &dev, "-cl-std=CL3.0", NULL, NULL);
    if (err != CL_SUCCESS) {
        static char log[1 << 16];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
    }
    REQUIRE(err == CL_SUCCESS);
    free(src);

    /* Slot tables of the collective kernels (see the kernel source). */
    int arith_ops[12], arith_kinds[12], cl_ops[24], cl_kinds[24], bit_ops[27], bit_kinds[27];
    int log_ops[27], ext_ops[9], ext_kinds[9];
    for (int k = 0; k < 12; k++) {
        arith_ops[k] = ADD + k % 4;
        arith_kinds[k] = k / 4;
    }
    for (int k = 0; k < 24; k++) {
        cl_ops[k] = ADD + k % 4;
        cl_kinds[k] = 3 + k / 4;
    }
    for (int k = 0; k < 27; k++) {
        bit_ops[k] = AND + k % 3;
        log_ops[k] = LAND + k % 3;
        bit_kinds[k] = k < 9 ? k / 3 : 3 + (k - 9) / 3;
    }
    for (int k = 0; k < 9; k++) {
        ext_ops[k] = k % 3 == 0 ? ADD : k % 3 == 1 ? MIN : MAX;
        ext_kinds[k] = k / 3;
    }

    static layout l;
    for (int si = 0; si < (int)NSHAPES; si++) {
        make_layout(&shapes[si], &l);
        for (size_t t = 0; t < NTYPES; t++) {
            const ty *y = &types[t];
            if (y->size <= 2)
                test_collective("ext", y, si, &l, 0xffffffffu, 9, ext_ops, ext_kinds, true);
            test_bcast(y, si, &l, patterns[(size_t)si % NPATTERNS]);
        }
        for (size_t pi = 0; pi < NPATTERNS; pi++) {
            cl_uint p = patterns[pi];
            for (size_t t = 0; t < NTYPES; t++) {
                const ty *y = &types[t];
                test_shuffle(y, si, &l, p);
                test_bcast(y, si, &l, p);
                test_collective("arith", y, si, &l, p, 12, arith_ops, arith_kinds, false);
                test_collective("clustered", y, si, &l, p, 24, cl_ops, cl_kinds, false);
                if (y->kind != 'f')
                    test_collective("bits", y, si, &l, p, 27, bit_ops, bit_kinds, false);
                test_all_equal(y, si, &l, p);
            }
            test_collective("logical", &types[4], si, &l, p, 27, log_ops, bit_kinds, false);
            test_vote(si, &l, p);
            test_ballot(si, &l, p);
            test_half_moves(si, &l, p);
        }
        test_split(si, &l);
    }
    if (bad)
        fprintf(stderr, "%d mismatches\n", bad);
    CHECK(bad == 0);
    clReleaseProgram(prog);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return cv_test_report("subgroup_ext");
}
