/* An image blur: reads a PGM file (P5, 8-bit grey) into a 2D image, blurs it on the GPU with four
 * bilinear taps per pixel (a 3x3 [1 2 1] kernel, edges clamped), writes the result as another PGM
 * and checks every pixel against the same blur on the CPU.
 *
 *   image_blur [-p PLATFORM] [IN.pgm [OUT.pgm]]
 *
 * Without IN it writes a test pattern to image_blur_in.pgm first (in the current folder) and blurs
 * that; OUT defaults to image_blur_out.pgm. PLATFORM is a platform name (default "culvert";
 * culvert claims images unless CULVERT_IMAGES=0). Exit status: 0 when every pixel is right, 1 when
 * not, 77 when the platform or its image support is not there. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sampling at a pixel's corner (x, y) averages the four pixels around it; four such taps weigh
 * the 3x3 neighbourhood 1 2 1 / 2 4 2 / 1 2 1 (sixteenths). */
static const char *source =
    "constant sampler_t corners = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                             CLK_FILTER_LINEAR;\n"
    "kernel void blur(read_only image2d_t in, write_only image2d_t out) {\n"
    "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "    float2 c = convert_float2(p);\n"
    "    float4 sum = read_imagef(in, corners, c) + read_imagef(in, corners, c + (float2)(1, 0)) "
    "+\n"
    "                 read_imagef(in, corners, c + (float2)(0, 1)) +\n"
    "                 read_imagef(in, corners, c + (float2)(1, 1));\n"
    "    write_imagef(out, p, sum * 0.25f);\n"
    "}\n";

typedef struct pgm {
    size_t w, h;
    unsigned char *px;
} pgm;

static int pgm_read(const char *path, pgm *img) {
    FILE *f = fopen(path, "rb");
    unsigned w = 0, h = 0, max = 0;
    int ok =
        f && fscanf(f, "P5 %u %u %u", &w, &h, &max) == 3 && max == 255 && w && h && fgetc(f) != EOF;
    if (ok) {
        img->w = w;
        img->h = h;
        img->px = malloc(img->w * img->h);
        ok = img->px && fread(img->px, 1, img->w * img->h, f) == img->w * img->h;
    }
    if (f)
        fclose(f);
    return ok;
}

static int pgm_write(const char *path, const pgm *img) {
    FILE *f = fopen(path, "wb");
    int ok = f && fprintf(f, "P5\n%zu %zu\n255\n", img->w, img->h) > 0 &&
             fwrite(img->px, 1, img->w * img->h, f) == img->w * img->h;
    if (f)
        ok = fclose(f) == 0 && ok;
    return ok;
}

/* Rings, a diagonal ramp and a hard-edged square: smooth and sharp parts for the blur. */
static pgm pattern(size_t w, size_t h) {
    pgm img = {w, h, malloc(w * h)};
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            long dx = (long)x - (long)w / 2, dy = (long)y - (long)h / 2;
            unsigned v = (unsigned)((dx * dx + dy * dy) / 37 % 256);
            v = (v + (unsigned)(x + y)) / 2;
            if (x > w / 8 && x < w / 4 && y > h / 8 && y < h / 4)
                v = 255;
            img.px[y * w + x] = (unsigned char)v;
        }
    return img;
}

/* The blur on the CPU, in exact sixteenths. */
static double blur_cpu(const pgm *img, size_t x, size_t y) {
    static const int wgt[3] = {1, 2, 1};
    double sum = 0;
    for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++) {
            long xx = (long)x + i, yy = (long)y + j;
            xx = xx < 0 ? 0 : xx >= (long)img->w ? (long)img->w - 1 : xx;
            yy = yy < 0 ? 0 : yy >= (long)img->h ? (long)img->h - 1 : yy;
            sum += wgt[i + 1] * wgt[j + 1] * img->px[yy * (long)img->w + xx];
        }
    return sum / 16.0;
}

static cl_device_id find_device(const char *want) {
    cl_platform_id platforms[16];
    cl_uint n = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        n = 0;
    for (cl_uint i = 0; i < n && i < 16 && !dev; i++) {
        char name[128] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, want) == 0 &&
            clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    }
    return dev;
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "image_blur: %s: error %d\n", #call, e_);                              \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv) {
    const char *platform = "culvert", *in_path = NULL, *out_path = "image_blur_out.pgm";
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "-p") == 0) {
        platform = argv[a + 1];
        a += 2;
    }
    if (a < argc)
        in_path = argv[a++];
    if (a < argc)
        out_path = argv[a++];
    cl_device_id dev = find_device(platform);
    cl_bool images = CL_FALSE;
    if (dev)
        clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (!dev || !images) {
        fprintf(stderr, "image_blur: no device with images on platform \"%s\"\n", platform);
        return 77;
    }
    pgm src;
    if (!in_path) {
        in_path = "image_blur_in.pgm";
        pgm p = pattern(1021, 613);
        if (!pgm_write(in_path, &p)) {
            fprintf(stderr, "image_blur: cannot write %s\n", in_path);
            return 1;
        }
        free(p.px);
    }
    if (!pgm_read(in_path, &src)) {
        fprintf(stderr, "image_blur: %s is no 8-bit binary PGM (P5)\n", in_path);
        return 1;
    }
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    TRY(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    TRY(err);
    cl_image_format grey = {CL_R, CL_UNORM_INT8};
    cl_image_desc desc = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = src.w, .image_height = src.h};
    cl_mem in =
        clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &grey, &desc, src.px, &err);
    TRY(err);
    cl_mem out = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &grey, &desc, NULL, &err);
    TRY(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    TRY(err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "image_blur: build failed (%d):\n%s\n", err, log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "blur", &err);
    TRY(err);
    TRY(clSetKernelArg(k, 0, sizeof in, &in));
    TRY(clSetKernelArg(k, 1, sizeof out, &out));
    size_t global[2] = {src.w, src.h}, origin[3] = {0, 0, 0}, region[3] = {src.w, src.h, 1};
    TRY(clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
    pgm dst = {src.w, src.h, malloc(src.w * src.h)};
    TRY(clEnqueueReadImage(q, out, CL_TRUE, origin, region, 0, 0, dst.px, 0, NULL, NULL));
    /* Within one grey level: the sixteenths round to the nearest level, and filtering may be done
     * with less precision than the CPU's double. */
    size_t bad = 0;
    for (size_t y = 0; y < src.h; y++)
        for (size_t x = 0; x < src.w; x++) {
            double want = blur_cpu(&src, x, y), got = dst.px[y * src.w + x];
            if (got < want - 1.0 || got > want + 1.0) {
                if (bad < 5)
                    fprintf(stderr, "image_blur: (%zu, %zu) is %.0f, the CPU's %.2f\n", x, y, got,
                            want);
                bad++;
            }
        }
    int wrote = pgm_write(out_path, &dst);
    printf("image_blur: %zu x %zu from %s to %s on %s: %zu pixels off\n", src.w, src.h, in_path,
           wrote ? out_path : "(not written)", platform, bad);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src.px);
    free(dst.px);
    return bad == 0 && wrote ? 0 : 1;
}
