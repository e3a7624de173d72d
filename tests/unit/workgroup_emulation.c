/* The work-group collective builtins (src/compiler/builtins/workgroup.ll) run on the CPU. The
 * build renames the NVPTX intrinsics the IR calls (tests/workgroup_host.cmake) to the functions
 * below, which emulate one CUDA block: a thread per live work-item; `bar.sync`/`bar.red` wait
 * for the live threads only (exited threads do not hold a barrier back, as in PTX); a shuffle
 * waits for the lanes of its membermask and fails the test when the mask names a lane that is
 * not live or leaves out the caller (undefined on the GPU), and reading a lane outside the mask
 * gives garbage. Blocks of every shape the GPU test uses, with the live part smaller (non-uniform
 * groups: holes in warps, whole warps retired), each function and type against a reference in
 * local linear id order. What the GPU adds (llc, ptxas, the hardware) is
 * gpu.work_group_collectives. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef CV_WG_NO_CLANG
int main(void) {
    printf("no clang to build the host copy of workgroup.ll: skipped\n");
    return 77;
}
#else

/* The block (CUDA's ntid), the live part (get_local_size), and this thread's tid. */
static int nx, ny, nz, lx, ly, lz, live;
static uint32_t live_lanes[32];
static _Thread_local int tx, ty, tz;

static int hw_id(void) {
    return (tz * ny + ty) * nx + tx;
}

#define SREG_DOT(reg, d, value)                                                                    \
    int emu_##reg##_##d(void) __asm__("cv_emu.nvvm.read.ptx.sreg." #reg "." #d);                   \
    int emu_##reg##_##d(void) {                                                                    \
        return value;                                                                              \
    }
SREG_DOT(tid, x, tx)
SREG_DOT(tid, y, ty)
SREG_DOT(tid, z, tz)
SREG_DOT(ntid, x, nx)
SREG_DOT(ntid, y, ny)
SREG_DOT(ntid, z, nz)

int64_t _Z14get_local_sizej(int d) {
    return d == 0 ? lx : d == 1 ? ly : d == 2 ? lz : 1;
}
int64_t _Z19get_local_linear_idv(void) {
    return ((int64_t)tz * ly + ty) * lx + tx;
}

static void wait_on(pthread_cond_t *c, pthread_mutex_t *m, const char *what) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 60;
    if (pthread_cond_timedwait(c, m, &ts) == ETIMEDOUT) {
        fprintf(stderr, "FAIL: %s never completes (work-item %d)\n", what, hw_id());
        exit(1);
    }
}

/* bar.sync / bar.red.and / bar.red.or over the live threads. */
static pthread_mutex_t bar_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bar_cond = PTHREAD_COND_INITIALIZER;
static int bar_arrived, bar_generation, bar_and = 1, bar_or, bar_and_result, bar_or_result;

static int barrier_reduce(int p, int want_or) {
    pthread_mutex_lock(&bar_mutex);
    int generation = bar_generation;
    bar_and &= p != 0;
    bar_or |= p != 0;
    if (++bar_arrived == live) {
        bar_and_result = bar_and;
        bar_or_result = bar_or;
        bar_and = 1;
        bar_or = 0;
        bar_arrived = 0;
        bar_generation++;
        pthread_cond_broadcast(&bar_cond);
    } else {
        while (generation == bar_generation)
            wait_on(&bar_cond, &bar_mutex, "bar.sync");
    }
    int r = want_or ? bar_or_result : bar_and_result;
    pthread_mutex_unlock(&bar_mutex);
    return r;
}
void emu_barrier0(void) __asm__("cv_emu.nvvm.barrier0");
void emu_barrier0(void) {
    barrier_reduce(1, 0);
}
int emu_barrier0_and(int p) __asm__("cv_emu.nvvm.barrier0.and");
int emu_barrier0_and(int p) {
    return barrier_reduce(p, 0);
}
int emu_barrier0_or(int p) __asm__("cv_emu.nvvm.barrier0.or");
int emu_barrier0_or(int p) {
    return barrier_reduce(p, 1);
}

/* shfl.sync: the lanes of the mask deposit their values, the last one publishes them. */
typedef struct warp {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int arrived, generation;
    uint32_t mask, values[32], published[32];
} warp;
static warp warps[32];

static uint32_t shuffle(int up, uint32_t mask, uint32_t v, uint32_t b) {
    int w = hw_id() >> 5, lane = hw_id() & 31;
    if (!(mask >> lane & 1) || (mask & ~live_lanes[w])) {
        fprintf(stderr, "FAIL: warp %d lane %d: membermask %08x, live lanes %08x\n", w, lane, mask,
                live_lanes[w]);
        exit(1);
    }
    warp *W = &warps[w];
    pthread_mutex_lock(&W->mutex);
    int generation = W->generation;
    if (W->arrived == 0)
        W->mask = mask;
    if (W->mask != mask) {
        fprintf(stderr, "FAIL: warp %d: shuffles with masks %08x and %08x meet\n", w, W->mask,
                mask);
        exit(1);
    }
    W->values[lane] = v;
    if (++W->arrived == __builtin_popcount(mask)) {
        W->arrived = 0;
        W->generation++;
        memcpy(W->published, W->values, sizeof W->published);
        pthread_cond_broadcast(&W->cond);
    } else {
        while (generation == W->generation)
            wait_on(&W->cond, &W->mutex, "shfl.sync");
    }
    int src = up ? lane - (int)b : (int)(b & 31);
    uint32_t r = src < 0 ? v : (mask >> src & 1) ? W->published[src] : 0xdeadbeefu;
    pthread_mutex_unlock(&W->mutex);
    return r;
}
int emu_shfl_idx(int m, int v, int b, int c) __asm__("cv_emu.nvvm.shfl.sync.idx.i32");
int emu_shfl_idx(int m, int v, int b, int c) {
    (void)c;
    return (int)shuffle(0, (uint32_t)m, (uint32_t)v, (uint32_t)b);
}
int emu_shfl_up(int m, int v, int b, int c) __asm__("cv_emu.nvvm.shfl.sync.up.i32");
int emu_shfl_up(int m, int v, int b, int c) {
    (void)c;
    return (int)shuffle(1, (uint32_t)m, (uint32_t)v, (uint32_t)b);
}

/* The functions under test (workgroup.ll), by their OpenCL C names' manglings. */
#define DECLARE(T, c)                                                                              \
    T _Z21work_group_reduce_add##c(T);                                                             \
    T _Z21work_group_reduce_min##c(T);                                                             \
    T _Z21work_group_reduce_max##c(T);                                                             \
    T _Z29work_group_scan_inclusive_add##c(T);                                                     \
    T _Z29work_group_scan_inclusive_min##c(T);                                                     \
    T _Z29work_group_scan_inclusive_max##c(T);                                                     \
    T _Z29work_group_scan_exclusive_add##c(T);                                                     \
    T _Z29work_group_scan_exclusive_min##c(T);                                                     \
    T _Z29work_group_scan_exclusive_max##c(T);                                                     \
    T _Z20work_group_broadcast##c##m(T, uint64_t);                                                 \
    T _Z20work_group_broadcast##c##mm(T, uint64_t, uint64_t);                                      \
    T _Z20work_group_broadcast##c##mmm(T, uint64_t, uint64_t, uint64_t);
DECLARE(int32_t, i)
DECLARE(uint32_t, j)
DECLARE(int64_t, l)
DECLARE(uint64_t, m)
DECLARE(float, f)
DECLARE(double, d)
int _Z14work_group_alli(int);
int _Z14work_group_anyi(int);

enum { NF = 14, MAX_ITEMS = 1024 };
static int dim;
static double in_f[MAX_ITEMS], out_f[MAX_ITEMS][NF];   /* float and double */
static uint64_t in_u[MAX_ITEMS], out_u[MAX_ITEMS][NF]; /* the integer types */

/* Every function once, in one order for every work-item; broadcast from the last x, y = 1 and the
 * last z (modulo the group's size). */
#define BODY(T, c, in, out, i)                                                                     \
    do {                                                                                           \
        T v = (T)in[i];                                                                            \
        out[i][0] = _Z21work_group_reduce_add##c(v);                                               \
        out[i][1] = _Z21work_group_reduce_min##c(v);                                               \
        out[i][2] = _Z21work_group_reduce_max##c(v);                                               \
        out[i][3] = _Z29work_group_scan_inclusive_add##c(v);                                       \
        out[i][4] = _Z29work_group_scan_inclusive_min##c(v);                                       \
        out[i][5] = _Z29work_group_scan_inclusive_max##c(v);                                       \
        out[i][6] = _Z29work_group_scan_exclusive_add##c(v);                                       \
        out[i][7] = _Z29work_group_scan_exclusive_min##c(v);                                       \
        out[i][8] = _Z29work_group_scan_exclusive_max##c(v);                                       \
        out[i][9] = dim == 1   ? _Z20work_group_broadcast##c##m(v, lx - 1)                         \
                    : dim == 2 ? _Z20work_group_broadcast##c##mm(v, lx - 1, 1 % ly)                \
                               : _Z20work_group_broadcast##c##mmm(v, lx - 1, 1 % ly, lz - 1);      \
        out[i][10] = (T)_Z14work_group_alli(i != 5);                                               \
        out[i][11] = (T)_Z14work_group_anyi(i == 3);                                               \
        out[i][12] = _Z29work_group_scan_exclusive_add##c(_Z21work_group_reduce_max##c(v));        \
        out[i][13] = _Z21work_group_reduce_add##c(v);                                              \
    } while (0)

/* The types: bits (32 or 64), signed, float. */
typedef struct wg_type {
    const char *name;
    int bits, is_signed, is_float;
} wg_type;
static const wg_type types[] = {{"int", 32, 1, 0},   {"uint", 32, 0, 0},  {"long", 64, 1, 0},
                                {"ulong", 64, 0, 0}, {"float", 32, 1, 1}, {"double", 64, 1, 1}};
static int type_index;

static void *work_item(void *arg) {
    int h = (int)(intptr_t)arg;
    tx = h % nx;
    ty = h / nx % ny;
    tz = h / nx / ny;
    int i = (tz * ly + ty) * lx + tx;
    switch (type_index) {
    case 0:
        BODY(int32_t, i, in_u, out_u, i);
        break;
    case 1:
        BODY(uint32_t, j, in_u, out_u, i);
        break;
    case 2:
        BODY(int64_t, l, in_u, out_u, i);
        break;
    case 3:
        BODY(uint64_t, m, in_u, out_u, i);
        break;
    case 4:
        BODY(float, f, in_f, out_f, i);
        break;
    default:
        BODY(double, d, in_f, out_f, i);
        break;
    }
    return NULL;
}

/* Integers at the type's width: as int64 (signed) or uint64 (unsigned) for comparing. */
static uint64_t trunc_bits(const wg_type *t, uint64_t u) {
    if (t->bits == 64)
        return u;
    return t->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)u : (uint32_t)u;
}
static int less(const wg_type *t, uint64_t a, uint64_t b) {
    return t->is_signed ? (int64_t)a < (int64_t)b : a < b;
}

typedef struct ref {
    uint64_t u[3];
    double f[3];
} ref; /* add, min, max */

static ref identities(const wg_type *t) {
    ref r = {{0, 0, 0}, {0, INFINITY, -INFINITY}};
    if (t->is_signed) {
        r.u[1] = t->bits == 64 ? (uint64_t)INT64_MAX : (uint64_t)INT32_MAX;
        r.u[2] = t->bits == 64 ? (uint64_t)INT64_MIN : (uint64_t)(int64_t)INT32_MIN;
    } else {
        r.u[1] = t->bits == 64 ? UINT64_MAX : UINT32_MAX;
    }
    return r;
}

static void fold(const wg_type *t, ref *r, size_t i) {
    r->f[0] += in_f[i];
    r->f[1] = fmin(r->f[1], in_f[i]);
    r->f[2] = fmax(r->f[2], in_f[i]);
    r->u[0] = trunc_bits(t, r->u[0] + in_u[i]);
    r->u[1] = less(t, in_u[i], r->u[1]) ? in_u[i] : r->u[1];
    r->u[2] = less(t, r->u[2], in_u[i]) ? in_u[i] : r->u[2];
}

static int failures;

/* One block shape (nx, ny, nz) of which lx * ly * lz work-items are live. */
static void run(int d, int bx, int by, int bz, int sx, int sy, int sz) {
    dim = d, nx = bx, ny = by, nz = bz, lx = sx, ly = sy, lz = sz, live = sx * sy * sz;
    memset(live_lanes, 0, sizeof live_lanes);
    for (int h = 0; h < nx * ny * nz; h++)
        if (h % nx < lx && h / nx % ny < ly && h / nx / ny < lz)
            live_lanes[h >> 5] |= 1u << (h & 31);
    for (type_index = 0; type_index < 6; type_index++) {
        const wg_type *t = &types[type_index];
        for (int i = 0; i < live; i++) {
            uint64_t q = (uint64_t)i * 2654435761u + (uint64_t)type_index * 97;
            /* quarters for float (sums exact in any order); other integers wrap in sums */
            in_f[i] = ((double)(q % 2001) - 1000) * 0.25;
            in_u[i] = trunc_bits(t, t->is_signed ? (uint64_t)((int64_t)(q % 2001) - 1000)
                                                 : q * 0x9e3779b97f4a7c15ull);
        }
        pthread_t threads[MAX_ITEMS];
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 256 * 1024);
        int n = 0;
        for (int h = 0; h < nx * ny * nz; h++)
            if (h % nx < lx && h / nx % ny < ly && h / nx / ny < lz &&
                pthread_create(&threads[n++], &attr, work_item, (void *)(intptr_t)h)) {
                perror("pthread_create");
                exit(1);
            }
        for (int i = 0; i < n; i++)
            pthread_join(threads[i], NULL);
        pthread_attr_destroy(&attr);

        ref total = identities(t), incl = identities(t), excl = identities(t);
        for (int i = 0; i < live; i++)
            fold(t, &total, (size_t)i);
        int src = dim == 1   ? lx - 1
                  : dim == 2 ? (1 % ly) * lx + lx - 1
                             : ((lz - 1) * ly + 1 % ly) * lx + lx - 1;
        int bad = 0;
        for (int i = 0; i < live; i++) {
            fold(t, &incl, (size_t)i);
            uint64_t wu[NF] = {total.u[0],
                               total.u[1],
                               total.u[2],
                               incl.u[0],
                               incl.u[1],
                               incl.u[2],
                               excl.u[0],
                               excl.u[1],
                               excl.u[2],
                               in_u[src],
                               live <= 5,
                               live > 3,
                               trunc_bits(t, total.u[2] * (uint64_t)i),
                               total.u[0]};
            double wf[NF] = {total.f[0], total.f[1], total.f[2],     incl.f[0], incl.f[1],
                             incl.f[2],  excl.f[0],  excl.f[1],      excl.f[2], in_f[src],
                             live <= 5,  live > 3,   total.f[2] * i, total.f[0]};
            for (int f = 0; f < NF; f++) {
                int ok;
                if (f == 10 || f == 11) /* all / any: any non-zero value is true */
                    ok = (t->is_float ? out_f[i][f] != 0 : trunc_bits(t, out_u[i][f]) != 0) ==
                         (wu[f] != 0);
                else
                    ok = t->is_float ? out_f[i][f] == wf[f]
                                     : trunc_bits(t, out_u[i][f]) == trunc_bits(t, wu[f]);
                if (!ok && bad++ < 5)
                    fprintf(stderr,
                            "FAIL: %s, block %dx%dx%d, live %dx%dx%d, item %d, field %d: got "
                            "%.17g / 0x%llx, want %.17g / 0x%llx\n",
                            t->name, nx, ny, nz, lx, ly, lz, i, f, out_f[i][f],
                            (unsigned long long)out_u[i][f], wf[f], (unsigned long long)wu[f]);
            }
            fold(t, &excl, (size_t)i);
        }
        failures += bad != 0;
    }
}

int main(void) {
    for (int i = 0; i < 32; i++) {
        pthread_mutex_init(&warps[i].mutex, NULL);
        pthread_cond_init(&warps[i].cond, NULL);
    }
    /* dim, block, live part */
    static const int configs[][7] = {
        {1, 1, 1, 1, 1, 1, 1},   {1, 7, 1, 1, 7, 1, 1},     {1, 32, 1, 1, 32, 1, 1},
        {1, 33, 1, 1, 33, 1, 1}, {1, 100, 1, 1, 100, 1, 1}, {1, 1024, 1, 1, 1024, 1, 1},
        {2, 8, 8, 1, 8, 8, 1},   {2, 16, 3, 1, 16, 3, 1},   {3, 4, 4, 4, 4, 4, 4},
        {1, 7, 1, 1, 4, 1, 1},   {1, 33, 1, 1, 17, 1, 1},   {1, 1024, 1, 1, 452, 1, 1},
        {2, 8, 8, 1, 4, 5, 1},   {2, 8, 8, 1, 8, 4, 1},     {2, 16, 3, 1, 5, 1, 1},
        {2, 16, 3, 1, 5, 3, 1},  {2, 32, 32, 1, 8, 8, 1},   {3, 4, 4, 4, 2, 4, 3},
        {3, 4, 4, 4, 4, 2, 3},   {3, 4, 4, 4, 4, 4, 1},     {3, 4, 4, 4, 1, 1, 1},
    };
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        const int *k = configs[c];
        run(k[0], k[1], k[2], k[3], k[4], k[5], k[6]);
    }
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
#endif
