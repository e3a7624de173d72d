/* cv-bench: shared declarations. A figure is measured once per backend (the raw CUDA driver API,
 * each OpenCL platform); NAN means "not available there" and prints as "-". */
#ifndef BENCH_H
#define BENCH_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_culvert.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bench_opts {
    bool quick;
    /* %globaltimer + timer_offset_ns = CLOCK_MONOTONIC (bench_now_us) of the same instant,
     * within ~1 us (raw_calibrate_timer), where timer_known. */
    int64_t timer_offset_ns;
    bool timer_known;
    int reps;         /* repetitions a median is taken over */
    size_t big;       /* bytes of the bandwidth transfers (256 MiB, quick 16 MiB) */
    size_t fma_items; /* work-items of the compute kernels */
    int chain_turns;  /* CHAIN_64 turns of the scalar multiply-add chain kernels (n-vectors: / n) */
    int sgemm_n;      /* SGEMM size */
    size_t reduce_n;  /* floats summed */
    size_t math_n;    /* elements of the math kernel */
} bench_opts;

extern bench_opts g_opts;

double bench_now_us(void);
void bench_sleep_us(long us);
double bench_median(double *v, int n);
/* A %globaltimer value as bench_now_us() (g_opts.timer_offset_ns), NaN where it is unknown. */
double bench_timer_us(uint64_t globaltimer);
/* CPU time (user + system) of the process, in microseconds. */
double bench_cpu_us(void);

/* A backend's spin kernel, for the CPU rows: start(ctx, lane, ns) queues a kernel that spins ns
 * nanoseconds on the lane's queue or stream, wait(ctx, lane) blocks until it is done (clFinish,
 * cuStreamSynchronize); each returns nonzero on failure. */
#define BENCH_LANES 8
typedef struct bench_spinner {
    int (*start)(void *ctx, int lane, uint64_t ns);
    int (*wait)(void *ctx, int lane);
    void *ctx;
    int lanes; /* 1: the calling thread waits; more: a thread per lane, all at once */
} bench_spinner;
/* After a 1 ms warm-up per lane, CPU time of the process while every lane waits on a 100 ms spin,
 * in % of one core; the CPU time of each thread goes to stderr. */
double bench_cpu_during_wait(const bench_spinner *s);

/* The rows that wait for the GPU, with the same shape on every backend. */
enum { BENCH_GATE_DELAY_US = 5000, BENCH_KERNEL_NS = 5000000 };
/* A thread that runs fn(arg) once started, and the time (bench_now_us) it returned. */
typedef struct bench_waiter bench_waiter;
bench_waiter *bench_waiter_start(int (*fn)(void *arg), void *arg);
/* Joins it: its return time, NaN where fn failed. */
double bench_waiter_join(bench_waiter *w);

/* The rows measured in a child process that loads one backend only (bench_cpu.c): the CPU rows
 * and the first build of a process. cpu_probe_icd: the ICD library that holds a platform;
 * cpu_probe_run: runs cv-bench again for figure f and icd (NULL: raw CUDA, blocking-sync events
 * where raw_blocking) and returns the child's figure, *spawned false when no child could be
 * started; cpu_probe_kill: kills the running child, if any (the hang guard), true if there was
 * one; cpu_probe_main: the child. */
bool cpu_probe_icd(cl_platform_id platform, char *path, size_t size);
double cpu_probe_run(const char *icd, bool raw_blocking, int f, bool *spawned);
bool cpu_probe_kill(void);
int cpu_probe_main(const char *icd, bool raw_blocking, int f);
/* The first clBuildProgram of a process (the three small kernels, new to every cache), in ms:
 * context creation not counted. */
double clb_first_build_ms(cl_platform_id platform);
/* 100 distinct small programs built one after the other in this (new) process, each new to every
 * cache: the wall time in ms, or (cpu) the CPU time of the process and of every process started
 * for it (bench_tree_cpu_us). */
double clb_many_builds(cl_platform_id platform, bool cpu);
/* CPU time of the process and of its descendants that ended, in microseconds. The probe child
 * is a subreaper (cpu_probe_main), so a helper process a driver leaves running (culvert's tool
 * servers) is reaped, and counted, when it ends. */
double bench_tree_cpu_us(void);

/* Figure identifiers, in report order. */
enum {
    F_ENQ_NOEVENT,
    F_ENQ_EVENT,
    F_ENQ_PROFILING,
    F_ENQ_ARGS8,
    F_CB_ENQUEUE_100,
    F_CB_REPLAY_100,
    F_ROUNDTRIP_FINISH,
    F_ROUNDTRIP_WAIT,
    F_USER_EVENT_GATE,
    F_CROSS_QUEUE,
    F_HOST_VALUE_GATE,
    F_HOST_VALUE_GATE_GRAPH,
    F_USER_EVENT_LATE,
    F_HOST_VALUE_LATE,
    F_KERNEL_END_FINISH,
    F_KERNEL_END_WAIT,
    F_KERNEL_END_READ,
    F_SPIN_100US,
    F_EMPTY_PROFILED,
    F_PROFILING_COST_20US,
    F_PROFILING_COST_5MS,
    F_CPU_DURING_FINISH,
    F_CPU_8_THREADS,
    F_H2D_PINNED,
    F_D2H_PINNED,
    F_H2D_PAGEABLE,
    F_D2H_PAGEABLE,
    F_WRITE_4B,
    F_WRITE_4K,
    F_WRITE_64K,
    F_READ_4B_AFTER_KERNEL,
    F_COPY_D2D,
    F_FILL,
    F_K_COPY4,
    F_K_FMA,
    F_K_HALF_FMA,
    F_K_HASH,
    F_K_MAD_INT,
    F_K_MAD_INT4,
    F_K_MAD24,
    F_K_MAD_FLOAT2,
    F_K_SHA256,
    F_K_BLOWFISH,
    F_K_SGEMM,
    F_K_REDUCE,
    F_K_MATH,
    F_K_MATH_PLAIN,
    F_K_MATH_DOUBLE,
    F_K_IMAGE_BILINEAR,
    F_K_IMAGE_WRITE,
    F_K_IMAGE_WRITE_PLAIN,
    F_IMAGE_UPLOAD,
    F_IMAGE_DOWNLOAD,
    F_IMAGE_CHURN,
    F_K_COPY4_SVM,
    F_BUILD_FIRST,
    F_BUILD_COLD,
    F_BUILD_CACHED,
    F_BUILD_IL_COLD,
    F_BUILD_IL_CACHED,
    F_BUILD_IL_SOURCE_COLD,
    F_BUILD_IL_SOURCE_CACHED,
    F_BUILD_MANY,
    F_BUILD_MANY_CPU,
    F_COUNT
};

/* A figure the backend does not claim (e.g. half FMA without cl_khr_fp16): reported "n/a",
 * unlike NaN ("-"), which is a failed measurement. */
#define BENCH_NOT_CLAIMED (-INFINITY)

/* OpenCL backend: one platform's device. */
typedef struct cl_backend cl_backend;
cl_backend *clb_open(cl_platform_id platform, char *err, size_t err_size);
const char *clb_name(const cl_backend *b);
const char *clb_device(const cl_backend *b);
double clb_figure(cl_backend *b, int figure);

/* Raw CUDA backend. blocking: the column of blocking-sync events (CU_EVENT_BLOCKING_SYNC), which
 * measures only the rows that wait for the GPU (the others NaN). */
typedef struct raw_backend raw_backend;
raw_backend *raw_open(bool blocking, char *err, size_t err_size);
/* Measures g_opts.timer_offset_ns: a kernel writes %globaltimer into mapped host memory while the
 * host reads it beside its clock (the smallest difference; the PCIe write's ~1 us included). */
void raw_calibrate_timer(raw_backend *b);
const char *raw_device(const raw_backend *b);
double raw_figure(raw_backend *b, int figure);

#endif
