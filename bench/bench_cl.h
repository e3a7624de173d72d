/* cv-bench: the OpenCL backend's state, shared by bench_cl.c and bench_cl_graph.c (the
 * command-buffer figures). */
#ifndef BENCH_CL_H
#define BENCH_CL_H

/* First: cl_khr_command_buffer 0.9.8 as culvert declares it (it reads CL/cl_ext.h itself). */
#include "util/cl_khr_command_buffer.h"

#include "bench.h"

typedef struct clb_command_buffers {
    clCreateCommandBufferKHR_fn create;
    clCommandNDRangeKernelKHR_fn ndrange;
    clFinalizeCommandBufferKHR_fn finalize;
    clEnqueueCommandBufferKHR_fn enqueue;
    clReleaseCommandBufferKHR_fn release;
    clCommandWaitHostValueCULVERT_fn wait_value;
} clb_command_buffers;

struct cl_backend {
    char name[96], device_name[224]; /* room for the device name and the driver version */
    cl_platform_id platform;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q, q2, qp;         /* in-order, a second in-order, profiling */
    cl_command_queue lane[BENCH_LANES]; /* lane[0] is q; the others made for the CPU rows */
    cl_program prog;
    cl_kernel k_empty, k_args8, k_spin, k_copy4, k_fma, k_hash, k_sgemm, k_reduce, k_math;
    cl_kernel k_spin_end;
    /* The multiply-add chains (clpeak's pattern). */
    cl_kernel k_mad_int, k_mad_int4, k_mad24, k_mad_float2;
    /* Hash-style kernels: SHA-256 compression, Blowfish's F on local S-boxes. */
    cl_kernel k_sha256, k_blowfish;
    bool fp16;            /* the device lists cl_khr_fp16 */
    bool il_version;      /* the device takes SPIR-V (CL_DEVICE_IL_VERSION not empty) */
    cl_program half_prog; /* bench/kernels/half_fma.cl, only with cl_khr_fp16 */
    cl_kernel k_half_fma;
    cl_program double_prog; /* bench/kernels/math_double.cl, only with cl_khr_fp64 */
    cl_kernel k_math_double;
    bool fp64;
    bool nv;
    bool timer;          /* bench_spin reads %globaltimer */
    double turns_per_ns; /* without the timer: bench_spin's loop turns per ns, once measured */
    clCreateHostValue_fn hv_create;
    clSignalHostValue_fn hv_signal;
    clEnqueueWaitHostValue_fn hv_wait;
    /* Only where the device lists cl_khr_command_buffer 0.9.8 (other revisions take other
     * arguments); wait_value only with cl_culvert_host_value too. */
    clb_command_buffers cb;
};

/* An empty kernel of 32 work-items on q. */
cl_int clb_launch_empty(cl_backend *b, cl_command_queue q, cl_uint nw, const cl_event *w,
                        cl_event *ev);

/* bench_cl_graph.c: the command-buffer functions, where the device has them; the figures. */
void clb_open_command_buffers(cl_backend *b);
double clb_enqueue_100(cl_backend *b);
double clb_replay_100(cl_backend *b);
double clb_host_value_gate_graph(cl_backend *b);

/* Median of reps profiled END - START of the kernel (after one warm-up launch), in µs. */
/* Time per kernel of 20 launches back to back on the plain queue, host clock (µs). */
double clb_median_plain(cl_backend *b, cl_kernel k, cl_uint dims, const size_t *g, const size_t *l);
double clb_median_profiled(cl_backend *b, cl_kernel k, cl_uint dims, const size_t *g,
                           const size_t *l);
/* The image figures (bench_cl_image.c): a kernel's rate (bilinear: Gsamples/s of 2D bilinear
 * reads; else Gpixels/s of writes), a blocking image upload or download (GB/s, pageable memory);
 * BENCH_NOT_CLAIMED on a device without images. */
double clb_image_kernel(cl_backend *b, bool bilinear, bool plain);
double clb_image_transfer(cl_backend *b, bool upload);
double clb_image_churn(cl_backend *b);

#endif
