/* cv-bench: measures, in one run, culvert beside the raw CUDA driver API and every other OpenCL
 * platform present, and prints a markdown table of absolute figures with the ratios
 * culvert/raw and culvert/NVIDIA.
 *   cv-bench [--quick] [--out FILE] [--reps N] [--rounds R] [--timeout SECONDS] [--only PARTS]
 * --rounds R measures every figure R times, the backends taking turns each time, and reports
 * the median of the R results: latencies move 10-40 % from one measurement to the next on the
 * GPU machine, so ratios near 1.1x need several rounds. --only measures and reports only the
 * figures whose label contains one of the comma-separated parts.
 * A figure that a backend lacks, or that fails there, prints "-"; a figure that hangs past the
 * timeout marks that backend as hung and its remaining figures "-"; the run goes on. */
#include "bench.h"

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

bench_opts g_opts;

double bench_timer_us(uint64_t globaltimer) {
    return g_opts.timer_known && globaltimer
               ? (double)((int64_t)globaltimer + g_opts.timer_offset_ns) * 1e-3
               : NAN;
}

typedef struct figure_info {
    const char *label;
    const char *unit;
    bool higher_better;
} figure_info;

static const figure_info figures[F_COUNT] = {
    [F_ENQ_NOEVENT] = {"enqueue of an empty kernel, no event (burst of 256)", "µs", false},
    [F_ENQ_EVENT] = {"enqueue of an empty kernel, returning an event", "µs", false},
    [F_ENQ_PROFILING] = {"enqueue of an empty kernel, profiling queue", "µs", false},
    [F_ENQ_ARGS8] = {"enqueue of a kernel with 8 arguments set before each enqueue", "µs", false},
    [F_CB_ENQUEUE_100] = {"100 empty kernels enqueued one by one: host time", "µs", false},
    [F_CB_REPLAY_100] = {"replay of a command buffer of the same 100 kernels: host time (CUDA: "
                         "cuGraphLaunch)",
                         "µs", false},
    [F_ROUNDTRIP_FINISH] = {"enqueue + clFinish round trip", "µs", false},
    [F_ROUNDTRIP_WAIT] = {"enqueue + wait on its event", "µs", false},
    [F_USER_EVENT_GATE] = {"user event released → dependent kernel complete", "µs", false},
    [F_CROSS_QUEUE] = {"kernel on queue A → dependent kernel on queue B complete", "µs", false},
    [F_HOST_VALUE_GATE] = {"host value signalled → gated kernel complete", "µs", false},
    [F_HOST_VALUE_GATE_GRAPH] = {"the same, the wait inside a replayed command buffer (CUDA: a "
                                 "graph's wait node)",
                                 "µs", false},
    [F_USER_EVENT_LATE] = {"user event released 5 ms after a thread began waiting → its "
                           "clWaitForEvents on the dependent kernel returns",
                           "µs", false},
    [F_HOST_VALUE_LATE] = {"host value signalled 5 ms after a thread began waiting → its "
                           "clWaitForEvents on the gated kernel returns",
                           "µs", false},
    [F_KERNEL_END_FINISH] = {"5 ms kernel: its end (%globaltimer) → clFinish returns", "µs", false},
    [F_KERNEL_END_WAIT] = {"5 ms kernel: its end (%globaltimer) → clWaitForEvents returns", "µs",
                           false},
    [F_KERNEL_END_READ] = {"5 ms kernel: its end (%globaltimer) → a blocking 4-byte read behind "
                           "it returns",
                           "µs", false},
    [F_SPIN_100US] = {"END − START of a kernel spinning 100 µs on %globaltimer", "µs", false},
    [F_EMPTY_PROFILED] = {"END − START of an empty kernel (one work-group of 32)", "µs", false},
    [F_PROFILING_COST_20US] = {"profiling's cost on a ~20 µs FMA kernel, back to back "
                               "(work-groups of 256)",
                               "% of kernel", false},
    [F_PROFILING_COST_5MS] = {"profiling's cost on a ~5 ms FMA kernel, back to back", "% of kernel",
                              false},
    [F_CPU_DURING_FINISH] = {"CPU time during clFinish on a 100 ms kernel", "% core", false},
    [F_CPU_8_THREADS] = {"CPU time of 8 threads in clFinish, each on its own queue's 100 ms "
                         "kernel",
                         "% core", false},
    [F_H2D_PINNED] = {"H2D from pinned memory (ALLOC_HOST_PTR, mapped)", "GB/s", true},
    [F_D2H_PINNED] = {"D2H to pinned memory (ALLOC_HOST_PTR, mapped)", "GB/s", true},
    [F_H2D_PAGEABLE] = {"H2D from pageable memory", "GB/s", true},
    [F_D2H_PAGEABLE] = {"D2H to pageable memory", "GB/s", true},
    [F_WRITE_4B] = {"blocking write of 4 B (pageable)", "µs", false},
    [F_WRITE_4K] = {"blocking write of 4 KiB (pageable)", "µs", false},
    [F_WRITE_64K] = {"blocking write of 64 KiB (pageable)", "µs", false},
    [F_READ_4B_AFTER_KERNEL] = {"empty kernel then blocking 4-byte read", "µs", false},
    [F_COPY_D2D] = {"device-to-device copy (read+write)", "GB/s", true},
    [F_FILL] = {"fill (4-byte pattern; CUDA: cuMemsetD32)", "GB/s", true},
    [F_K_COPY4] = {"kernel: float4 copy (read+write)", "GB/s", true},
    [F_K_FMA] = {"kernel: fp32 FMA loop", "GFLOP/s", true},
    [F_K_HALF_FMA] = {"kernel: half2 FMA loop (cl_khr_fp16)", "TFLOP/s", true},
    [F_K_HASH] = {"kernel: integer hash rounds", "Grounds/s", true},
    [F_K_MAD_INT] = {"kernel: int multiply-add chains (x = y*x + y) on int", "GIOP/s", true},
    [F_K_MAD_INT4] = {"kernel: int multiply-add chains (x = y*x + y) on int4", "GIOP/s", true},
    [F_K_MAD24] = {"kernel: mad24 chains", "GIOP/s", true},
    [F_K_MAD_FLOAT2] = {"kernel: float2 FMA chains", "GFLOP/s", true},
    [F_K_SHA256] = {"kernel: SHA-256 compression rounds", "Grounds/s (64 a block)", true},
    [F_K_BLOWFISH] = {"kernel: Blowfish-style S-box rounds", "Grounds/s", true},
    [F_K_SGEMM] = {"kernel: tiled SGEMM", "GFLOP/s", true},
    [F_K_REDUCE] = {"kernel: parallel reduction (input read)", "GB/s", true},
    [F_K_MATH] = {"kernel: sin/exp/log/pow", "Gelem/s", true},
    [F_K_MATH_PLAIN] = {"kernel: sin/exp/log/pow, 20 launches back to back on a queue without "
                        "profiling (host clock)",
                        "Gelem/s", true},
    [F_K_MATH_DOUBLE] = {"kernel: sin/exp/log/pow on double (cl_khr_fp64)", "Gelem/s", true},
    [F_K_IMAGE_BILINEAR] = {"kernel: 2D image reads, bilinear, normalized (RGBA8)", "Gsamples/s",
                            true},
    [F_K_IMAGE_WRITE] = {"kernel: 2D image writes (RGBA8)", "Gpixels/s", true},
    [F_K_IMAGE_WRITE_PLAIN] = {"kernel: 2D image writes (RGBA8), 20 launches back to back on a "
                               "queue without profiling (host clock)",
                               "Gpixels/s", true},
    [F_IMAGE_UPLOAD] = {"clEnqueueWriteImage of a 4096 × 4096 RGBA8 image, from pageable memory",
                        "GB/s", true},
    [F_IMAGE_DOWNLOAD] = {"clEnqueueReadImage of a 4096 × 4096 RGBA8 image, to pageable memory",
                          "GB/s", true},
    [F_IMAGE_CHURN] = {"a new 64 × 64 RGBA8 image (COPY_HOST_PTR) sampled by one kernel, then "
                       "released: host time of the round",
                       "µs", false},
    [F_K_COPY4_SVM] = {"kernel: float4 copy on fine-grained SVM buffers (moved to the GPU "
                       "first) ÷ the same on cl_mem buffers",
                       "×", true},
    [F_BUILD_FIRST] = {"clBuildProgram of three small kernels, cold, first of a new process", "ms",
                       false},
    [F_BUILD_COLD] = {"clBuildProgram of three small kernels, cold", "ms", false},
    [F_BUILD_CACHED] = {"clBuildProgram of the same source again (cached)", "ms", false},
    [F_BUILD_IL_COLD] = {"clBuildProgram of a one-kernel SPIR-V module (clCreateProgramWithIL), "
                         "cold: a specialization value new to every cache",
                         "ms", false},
    [F_BUILD_IL_CACHED] = {"clBuildProgram of that SPIR-V module again (cached)", "ms", false},
    [F_BUILD_IL_SOURCE_COLD] = {"clBuildProgram of the same kernel from OpenCL C, cold", "ms",
                                false},
    [F_BUILD_IL_SOURCE_CACHED] = {"clBuildProgram of the same kernel from OpenCL C again (cached)",
                                  "ms", false},
    [F_BUILD_MANY] = {"100 distinct small kernels, cold: clBuildProgram and clCreateKernel of "
                      "each, one after the other, in a new process (all 100)",
                      "ms", false},
    [F_BUILD_MANY_CPU] = {"100 distinct small kernels, cold: CPU time of those builds (the "
                          "process and every process it started)",
                          "ms", false},
};

/* Hang guard: a figure past the timeout jumps back here; that backend is then skipped. */
static sigjmp_buf guard_jmp;
static unsigned guard_timeout_s = 120;

static void on_alarm(int sig) {
    (void)sig;
    siglongjmp(guard_jmp, 1);
}

typedef struct column {
    char name[96];
    char device[160];
    cl_backend *cl; /* NULL for the raw column */
    raw_backend *raw;
    bool hung;
    bool absent; /* the backend could not be opened */
    bool is_culvert, is_nvidia;
    bool raw_blocking;  /* the raw column of blocking-sync events */
    bool cpu_here;      /* the CPU row is measured in this process (no ICD found, or no child) */
    char icd[PATH_MAX]; /* an OpenCL column's ICD library, for the CPU row's child */
    double v[F_COUNT];
} column;

/* The CPU rows and the first build come from a child process that loads this backend alone
 * (bench_cpu.c); the other figures, and the CPU row where no child can be started, from this
 * process (where a build is never the first). */
static bool in_new_process(int f) {
    return f == F_BUILD_FIRST || f == F_BUILD_MANY || f == F_BUILD_MANY_CPU;
}

static double figure(column *c, int f) {
    if (in_new_process(f) && (!c->cl || c->cpu_here))
        return NAN;
    if ((f == F_CPU_DURING_FINISH || f == F_CPU_8_THREADS || in_new_process(f)) && !c->cpu_here) {
        bool spawned = false;
        double v = cpu_probe_run(c->cl ? c->icd : NULL, c->raw_blocking, f, &spawned);
        if (spawned)
            return v;
        c->cpu_here = true;
    }
    return c->cl ? clb_figure(c->cl, f) : raw_figure(c->raw, f);
}

static double measure(column *c, int f) {
    if (c->hung)
        return NAN;
    volatile double v = NAN;
    if (sigsetjmp(guard_jmp, 1) == 0) {
        alarm(guard_timeout_s);
        v = figure(c, f);
        alarm(0);
    } else {
        /* A child that hangs is killed; this process's backend is not stuck. */
        bool child = cpu_probe_kill();
        fprintf(stderr, "cv-bench: %s: \"%s\" did not finish in %u s; %s\n", c->name,
                figures[f].label, guard_timeout_s,
                child ? "its child process was killed" : "skipping this backend");
        c->hung = !child;
    }
    return v;
}

static void fmt(char *buf, size_t size, double v) {
    if (v == BENCH_NOT_CLAIMED)
        snprintf(buf, size, "n/a");
    else if (isnan(v))
        snprintf(buf, size, "-");
    else if (fabs(v) >= 100)
        snprintf(buf, size, "%.0f", v);
    else if (fabs(v) >= 10)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.2f", v);
}

static void ratio(char *buf, size_t size, double a, double b) {
    if (isnan(a) || isnan(b) || isinf(a) || isinf(b) || b == 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.2f×", a / b);
}

static int g_rounds = 1;
/* --only: comma-separated parts of figure labels; NULL: every figure. */
static const char *g_only;

static bool selected(int f) {
    if (!g_only)
        return true;
    const char *part = g_only;
    while (*part) {
        size_t n = strcspn(part, ",");
        char want[128];
        snprintf(want, sizeof want, "%.*s", (int)(n < sizeof want ? n : sizeof want - 1), part);
        if (n && strstr(figures[f].label, want))
            return true;
        part += n + (part[n] == ',');
    }
    return false;
}

static void report(FILE *out, column *cols, int ncols) {
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(out, "# cv-bench report, %s%s\n\n", date,
            g_opts.quick ? " (--quick: small sizes)" : "");
    fprintf(out, "Medians of %d runs", g_opts.reps);
    if (g_rounds > 1)
        fprintf(out, ", then the median of %d rounds (backends taking turns)", g_rounds);
    fprintf(out, "; transfers of %zu MiB. Columns:\n\n", g_opts.big >> 20);
    for (int i = 0; i < ncols; i++)
        fprintf(out, "- %s: %s%s%s\n", cols[i].name, cols[i].device,
                cols[i].hung && !cols[i].absent ? " (a figure hung: the rest was skipped)" : "",
                cols[i].cpu_here ? " (CPU row measured in cv-bench's own process)" : "");
    fprintf(out, "\nRatios are culvert's figure divided by the other's: for times (µs, ms, %%) "
                 "lower is better, for rates (GB/s, GFLOP/s...) higher is better.\n\n");
    fprintf(out, "| figure | unit |");
    for (int i = 0; i < ncols; i++)
        fprintf(out, " %s |", cols[i].name);
    fprintf(out, " culvert/raw | culvert/NVIDIA |\n|---|---|");
    for (int i = 0; i < ncols; i++)
        fprintf(out, "---:|");
    fprintf(out, "---:|---:|\n");
    column *raw = NULL, *cv = NULL, *nv = NULL;
    char buf_cb[32];
    for (int i = 0; i < ncols; i++) {
        if (!cols[i].cl && !cols[i].raw_blocking)
            raw = &cols[i];
        if (cols[i].is_culvert)
            cv = &cols[i];
        if (cols[i].is_nvidia)
            nv = &cols[i];
    }
    for (int f = 0; f < F_COUNT; f++) {
        if (!selected(f))
            continue;
        fprintf(out, "| %s | %s |", figures[f].label, figures[f].unit);
        char buf[32];
        for (int i = 0; i < ncols; i++) {
            fmt(buf, sizeof(buf), cols[i].v[f]);
            fprintf(out, " %s |", buf);
        }
        ratio(buf, sizeof(buf), cv ? cv->v[f] : NAN, raw ? raw->v[f] : NAN);
        fprintf(out, " %s |", buf);
        ratio(buf, sizeof(buf), cv ? cv->v[f] : NAN, nv ? nv->v[f] : NAN);
        fprintf(out, " %s |\n", buf);
    }
    /* The command-buffer targets compare two rows of one column. */
    fprintf(out, "\nCommand buffers, culvert: 100 kernels one by one ÷ replay (host time) ");
    fmt(buf_cb, sizeof buf_cb, cv ? cv->v[F_CB_ENQUEUE_100] / cv->v[F_CB_REPLAY_100] : NAN);
    fprintf(out, "%s× (target ≥ 3); host-value wait in a replay ÷ on a stream ", buf_cb);
    fmt(buf_cb, sizeof buf_cb,
        cv ? cv->v[F_HOST_VALUE_GATE_GRAPH] / cv->v[F_HOST_VALUE_GATE] : NAN);
    fprintf(out,
            "%s× (target ≤ 1.10); replay ÷ raw cuGraphLaunch: the culvert/raw column "
            "(target ≤ 1.10).\n",
            buf_cb);
    fprintf(out,
            "\nNotes: the raw column is the CUDA driver API (dlopen'ed libcuda.so.1, "
            "hand-written PTX); its user-event and host-value rows are the same path "
            "(cuStreamWaitValue64 on mapped pinned memory released by a host store). "
            "Gates are released by the measuring thread after the gated work is queued "
            "and flushed. Where OpenCL waits on a command's event (round trip with an "
            "event, gates, queue A → B), raw CUDA records an event after the command and "
            "waits with cuEventSynchronize. Kernel, device copy and fill rates use profiling "
            "END − START (CUDA: "
            "event pairs); culvert's kernels record START and END themselves from "
            "%%globaltimer (the kernel alone), but for grids of more than 20 turns of the "
            "blocks the GPU holds at once (the sin/exp/log/pow and image-write grids: CUDA "
            "events, which cost those less), copies and fills by CUDA events, NVIDIA's "
            "OpenCL around the command. The multiply-add chain rows are clpeak's compute "
            "kernels (x = y*x + y; y = x*y + x, or mad24, mad), each multiply-add 2 operations "
            "per vector component, as clpeak counts them. The SHA-256 row runs the real "
            "compression function (rotate, bitselect for Ch and Maj), 8 blocks chained a "
            "work-item, 64 rounds a block; the Blowfish-style row loads four 256-entry S-boxes "
            "into local memory per work-group of 256, then runs 16 x 16 Feistel rounds of "
            "Blowfish's F a work-item (raw CUDA: no PTX for these: -). "
            "Profiling's cost: the time per kernel of a stream "
            "of kernels each returning an event, on a profiling queue against a plain one "
            "(CUDA: a timing event pair around each launch against one event after it), "
            "the kernel's turns chosen on the plain queue to take about 20 µs or 5 ms. "
            "The CPU rows are measured in a separate process per backend (cv-bench runs "
            "itself again with only libcuda, or only that platform's ICD library, loaded), "
            "so other drivers' threads do not count; stderr lists each thread's CPU time. "
            "The first-build row is measured the same way: the first clBuildProgram of that "
            "new process (its context already made); the cold row builds in cv-bench's "
            "process, after other builds, each source new to every cache. "
            "The 100-kernel rows build 100 small programs (25 integer builtins on int, "
            "uint, long and ulong, each with a constant new to the run, so no cache of "
            "sources, binaries or PTX holds them) in a new process of that backend alone; "
            "their CPU time counts that process and the processes it started (it reaps "
            "them: culvert's tool servers end at clUnloadPlatformCompiler). "
            "On a device without %%globaltimer (a CPU device) its 100 ms kernel is a loop "
            "timed beforehand, and the threads running it count. "
            "The rows that wait for the GPU wait as a pipeline does: a thread blocks in "
            "clWaitForEvents first and the gate opens 5 ms later (raw: cuEventSynchronize "
            "on an event recorded after the kernel); or a 5 ms kernel stores the "
            "%%globaltimer it ends at, mapped to the host clock by a calibration (a kernel "
            "writes %%globaltimer into mapped host memory while the host reads it beside "
            "its clock; the smallest difference, ~1 us of PCIe write included, the same "
            "for every column%s), and the figure is from that end to the call's return "
            "(raw: cuStreamSynchronize, an event and cuEventSynchronize, a copy to pageable "
            "memory). The raw column with blocking-sync events measures only those rows "
            "and the CPU rows, its waits sleeping in cuEventSynchronize (a read goes to "
            "pinned memory, then an event).\n",
            g_opts.timer_known ? "" : "; not measured in this run, so those rows are -");
}

static void usage(void) {
    fprintf(stderr, "usage: cv-bench [--quick] [--out FILE] [--reps N] [--rounds R] "
                    "[--timeout SECONDS] [--only PART[,PART...]]\n");
}

int main(int argc, char **argv) {
    const char *out_path = NULL, *probe = NULL, *probe_icd = NULL;
    bool probe_raw_blocking = false;
    int probe_figure = F_CPU_DURING_FINISH;
    int reps = 0, rounds = 1;
    g_opts.quick = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            g_opts.quick = true;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
            rounds = rounds < 1 ? 1 : rounds > 15 ? 15 : rounds;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            g_only = argv[++i];
        } else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
            guard_timeout_s = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--cpu-probe") && i + 1 < argc &&
                   (!strcmp(argv[i + 1], "raw") ||
                    !strcmp(argv[i + 1], "raw-blocking"))) { /* hidden: the child */
            probe = argv[++i];
            probe_raw_blocking = !strcmp(probe, "raw-blocking");
        } else if (!strcmp(argv[i], "--cpu-probe-icd") && i + 1 < argc) {
            probe = probe_icd = argv[++i];
        } else if (!strcmp(argv[i], "--probe-figure") && i + 1 < argc) {
            probe_figure = atoi(argv[++i]);
        } else {
            usage();
            return 2;
        }
    }
    if (g_opts.quick) {
        g_opts.reps = 5;
        g_opts.big = 16u << 20;
        g_opts.fma_items = 1 << 14;
        g_opts.chain_turns = 8;
        g_opts.sgemm_n = 128;
        g_opts.reduce_n = 1 << 20;
        g_opts.math_n = 1 << 16;
    } else {
        g_opts.reps = 11;
        g_opts.big = 256u << 20;
        g_opts.fma_items = 1 << 22;
        g_opts.chain_turns = 128; /* 34 G multiply-adds a launch: ~2 ms of int32 IMAD on an H100 */
        g_opts.sgemm_n = 2048;
        g_opts.reduce_n = (size_t)1 << 26;
        g_opts.math_n = 1 << 24;
    }
    if (reps > 0)
        g_opts.reps = reps;
    if (probe)
        return cpu_probe_main(probe_icd, probe_raw_blocking, probe_figure);
    struct sigaction sa = {0};
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);

    column cols[16];
    int ncols = 0;
    char err[256] = "";
    /* Two raw columns: waits that spin (the driver's default), and waits on blocking-sync
     * events. */
    for (int k = 0; k < 2; k++) {
        raw_backend *raw = raw_open(k == 1, err, sizeof(err));
        column *c = &cols[ncols++];
        memset(c, 0, sizeof(*c));
        snprintf(c->name, sizeof(c->name), k ? "raw CUDA, blocking sync" : "raw CUDA");
        /* Cut to the column's width: "%.*s" says the truncation is meant. */
        snprintf(c->device, sizeof(c->device), "%.*s", (int)sizeof(c->device) - 1,
                 raw ? raw_device(raw) : err);
        c->raw = raw;
        c->raw_blocking = k == 1;
        c->hung = raw == NULL;
        c->absent = raw == NULL;
        if (!raw)
            fprintf(stderr, "cv-bench: %s column empty: %s\n", c->name, err);
        if (raw && k == 0)
            raw_calibrate_timer(raw);
    }
    if (g_opts.timer_known)
        fprintf(stderr, "cv-bench: %%globaltimer + %lld ns = CLOCK_MONOTONIC\n",
                (long long)g_opts.timer_offset_ns);

    cl_uint np = 0;
    cl_platform_id plats[15];
    if (clGetPlatformIDs(15, plats, &np) != CL_SUCCESS)
        np = 0;
    if (np > 15)
        np = 15;
    for (cl_uint p = 0; p < np && ncols < 16; p++) {
        cl_backend *b = clb_open(plats[p], err, sizeof(err));
        if (!b) {
            fprintf(stderr, "cv-bench: platform %u skipped: %s\n", p, err);
            continue;
        }
        column *c = &cols[ncols++];
        memset(c, 0, sizeof(*c));
        c->cl = b;
        snprintf(c->name, sizeof(c->name), "%s", clb_name(b));
        snprintf(c->device, sizeof(c->device), "%s", clb_device(b));
        c->is_culvert = strstr(c->name, "culvert") != NULL;
        c->is_nvidia = strstr(c->name, "NVIDIA") != NULL;
        c->cpu_here = !cpu_probe_icd(plats[p], c->icd, sizeof(c->icd));
        if (c->cpu_here)
            fprintf(stderr,
                    "cv-bench: %s: no ICD library found (dladdr); its CPU row is "
                    "measured in this process\n",
                    c->name);
    }
    g_rounds = rounds;
    for (int f = 0; f < F_COUNT; f++) {
        if (!selected(f))
            continue;
        double got[16][16]; /* [column][round] */
        for (int r = 0; r < rounds; r++)
            for (int i = 0; i < ncols && i < 16; i++) {
                got[i][r] = measure(&cols[i], f);
                fprintf(stderr, "cv-bench: %-20s %-60s %g\n", cols[i].name, figures[f].label,
                        got[i][r]);
            }
        for (int i = 0; i < ncols && i < 16; i++) {
            /* A round that failed (NaN) does not count; none left: NaN. */
            double ok[16];
            int n = 0;
            for (int r = 0; r < rounds; r++)
                if (!isnan(got[i][r]))
                    ok[n++] = got[i][r];
            cols[i].v[f] = n ? bench_median(ok, n) : NAN;
        }
    }
    report(stdout, cols, ncols);
    if (out_path) {
        FILE *f = fopen(out_path, "w");
        if (!f) {
            perror(out_path);
            return 1;
        }
        report(f, cols, ncols);
        fclose(f);
    }
    return 0;
}
