/* cv-bench: the image figures through OpenCL (a device without images: not claimed). RGBA8
 * images of 4096 x 4096 pixels (1024 x 1024 quick); kernels timed by their profiled END - START,
 * transfers by the host clock around blocking calls. */
#include "bench_cl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Four bilinear samples a work-item, at normalized coordinates between pixel centres, summed
 * into one float4; the write kernel stores one computed pixel a work-item. */
static const char *image_src =
    "constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                              CLK_FILTER_LINEAR;\n"
    "kernel void img_bilinear(read_only image2d_t in, global float4 *out, float2 step) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    float2 c = ((float2)(x, y) + 0.37f) * step;\n"
    "    float4 s = read_imagef(in, bilinear, c) + read_imagef(in, bilinear, c + step * 0.5f) +\n"
    "               read_imagef(in, bilinear, c + (float2)(step.x * 0.25f, step.y)) +\n"
    "               read_imagef(in, bilinear, c + (float2)(step.x, step.y * 0.75f));\n"
    "    out[y * get_global_size(0) + x] = s;\n"
    "}\n"
    "kernel void img_write(write_only image2d_t out, float k) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    write_imagef(out, (int2)(x, y), (float4)(x * k, y * k, (x ^ y) * k, 1.0f));\n"
    "}\n";

static size_t image_side(void) {
    return g_opts.quick ? 1024 : 4096;
}

static cl_mem rgba8_image(cl_backend *b, cl_mem_flags flags, void *host) {
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                       .image_width = image_side(),
                       .image_height = image_side()};
    return clCreateImage(b->ctx, flags, &f, &d, host, NULL);
}

static bool has_images(cl_backend *b) {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(b->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    return images == CL_TRUE;
}

double clb_image_kernel(cl_backend *b, bool bilinear, bool plain) {
    if (!has_images(b))
        return BENCH_NOT_CLAIMED;
    cl_int e = CL_SUCCESS;
    size_t n = image_side() * image_side();
    unsigned char *px = malloc(n * 4);
    for (size_t i = 0; px && i < n * 4; i++)
        px[i] = (unsigned char)(i * 2654435761u >> 24);
    cl_program p = clCreateProgramWithSource(b->ctx, 1, &image_src, NULL, &e);
    cl_kernel k = NULL;
    if (p && clBuildProgram(p, 1, &b->dev, NULL, NULL, NULL) == CL_SUCCESS)
        k = clCreateKernel(p, bilinear ? "img_bilinear" : "img_write", NULL);
    cl_mem img = px ? rgba8_image(b, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, px) : NULL;
    cl_mem out = bilinear ? clCreateBuffer(b->ctx, CL_MEM_WRITE_ONLY, n * 16, NULL, &e) : NULL;
    double res = NAN;
    if (k && img && (out || !bilinear)) {
        float step[2] = {1.0f / (float)image_side(), 1.0f / (float)image_side()}, scale = 1e-4f;
        clSetKernelArg(k, 0, sizeof img, &img);
        if (bilinear) {
            clSetKernelArg(k, 1, sizeof out, &out);
            clSetKernelArg(k, 2, sizeof step, step);
        } else {
            clSetKernelArg(k, 1, sizeof scale, &scale);
        }
        size_t g[2] = {image_side(), image_side()}, l[2] = {32, 8};
        double us = plain ? clb_median_plain(b, k, 2, g, l) : clb_median_profiled(b, k, 2, g, l);
        /* Gsamples/s (four a work-item) or Gpixels/s */
        res = (double)n * (bilinear ? 4.0 : 1.0) / us / 1e3;
    } else {
        fprintf(stderr,
                "cv-bench: %s: the image kernel did not build or its images were not "
                "made\n",
                b->name);
    }
    if (out)
        clReleaseMemObject(out);
    if (img)
        clReleaseMemObject(img);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    free(px);
    return res;
}

double clb_image_transfer(cl_backend *b, bool upload) {
    if (!has_images(b))
        return BENCH_NOT_CLAIMED;
    size_t side = image_side(), bytes = side * side * 4;
    size_t origin[3] = {0, 0, 0}, region[3] = {side, side, 1};
    unsigned char *host = malloc(bytes);
    cl_mem img = rgba8_image(b, CL_MEM_READ_WRITE, NULL);
    double v[64], res = NAN;
    if (host && img) {
        memset(host, 3, bytes);
        cl_int e = CL_SUCCESS;
        for (int r = -1; r < g_opts.reps && e == CL_SUCCESS; r++) { /* r = -1: warm-up */
            double t0 = bench_now_us();
            e = upload ? clEnqueueWriteImage(b->q, img, CL_TRUE, origin, region, 0, 0, host, 0,
                                             NULL, NULL)
                       : clEnqueueReadImage(b->q, img, CL_TRUE, origin, region, 0, 0, host, 0, NULL,
                                            NULL);
            if (r >= 0)
                v[r] = e ? NAN : (double)bytes / (bench_now_us() - t0) / 1e3;
        }
        res = e ? NAN : bench_median(v, g_opts.reps);
    }
    if (img)
        clReleaseMemObject(img);
    free(host);
    return res;
}

/* Images made and let go as applications with many small images do (and as the CTS image suites
 * do): each round creates a 64 x 64 image from host pixels, samples it in one kernel, waits, and
 * releases it. Drivers that defer an image's storage until first use pay it in the kernel. */
double clb_image_churn(cl_backend *b) {
    if (!has_images(b))
        return BENCH_NOT_CLAIMED;
    enum { SIDE = 64 };
    static unsigned char px[SIDE * SIDE * 4];
    cl_int e = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(b->ctx, 1, &image_src, NULL, &e);
    cl_kernel k = NULL;
    if (p && clBuildProgram(p, 1, &b->dev, NULL, NULL, NULL) == CL_SUCCESS)
        k = clCreateKernel(p, "img_bilinear", NULL);
    cl_mem out = clCreateBuffer(b->ctx, CL_MEM_WRITE_ONLY, SIDE * SIDE * 16, NULL, &e);
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc d = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = SIDE, .image_height = SIDE};
    float step[2] = {1.0f / SIDE, 1.0f / SIDE};
    size_t g[2] = {SIDE, SIDE}, l[2] = {32, 8};
    double v[64], res = NAN;
    if (k && out) {
        clSetKernelArg(k, 1, sizeof out, &out);
        clSetKernelArg(k, 2, sizeof step, step);
        for (int r = -1; r < g_opts.reps && e == CL_SUCCESS; r++) { /* r = -1: warm-up */
            double t0 = bench_now_us();
            for (int i = 0; i < 100 && e == CL_SUCCESS; i++) {
                cl_mem img =
                    clCreateImage(b->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, px, &e);
                if (e == CL_SUCCESS)
                    e = clSetKernelArg(k, 0, sizeof img, &img);
                if (e == CL_SUCCESS)
                    e = clEnqueueNDRangeKernel(b->q, k, 2, NULL, g, l, 0, NULL, NULL);
                if (e == CL_SUCCESS)
                    e = clFinish(b->q);
                if (img)
                    clReleaseMemObject(img);
            }
            if (r >= 0)
                v[r] = (bench_now_us() - t0) / 100;
        }
        res = e ? NAN : bench_median(v, g_opts.reps);
    }
    if (out)
        clReleaseMemObject(out);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return res;
}
