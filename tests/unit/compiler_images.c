/* Image support in the compiler (cvc_target.images, builtins/images.ll): a kernel per image type
 * calling every overload family of the image builtins (read_imagef/i/ui/h with a sampler and
 * float or integer coordinates and samplerless, on read_only and read_write images; write_image*
 * on write_only and read_write ones; every get_image_* query; a sampler declared in the program)
 * builds for an image target to PTX that ptxas takes, with OpenCL C 3.0 and 1.2, optimized and
 * not, from source and through compile + link, with no texture or surface instruction but the
 * read-only 2D reads' tex.2d (the builtins are software, the texture units sampling only where a
 * read-only 2D image has texture objects); calls the source scan cannot see (macro pasting) still
 * build. Without images an image kernel does not build, a kernel without images builds to the
 * same PTX either way, and __IMAGE_SUPPORT__ is defined only with images, whatever the cache
 * holds. */
#include "compiler_util.h"
#include "core/ptx_textured.h"

static const cvc_target sm90_images = {.cc_major = 9, .cc_minor = 0, .images = true};

typedef struct image_type {
    const char *name, *fcoord, *icoord; /* fcoord NULL: no sampler reads (image1d_buffer_t) */
    bool depth, height, depth_query, dim, array;
} image_type;

static const image_type types[] = {
    {"image1d_t", "float", "int", false, false, false, false, false},
    {"image1d_buffer_t", NULL, "int", false, false, false, false, false},
    {"image1d_array_t", "float2", "int2", false, false, false, false, true},
    {"image2d_t", "float2", "int2", false, true, false, true, false},
    {"image2d_array_t", "float4", "int4", false, true, false, true, true},
    {"image3d_t", "float4", "int4", false, true, true, true, false},
    {"image2d_depth_t", "float2", "int2", true, true, false, true, false},
    {"image2d_array_depth_t", "float4", "int4", true, true, false, true, true},
};

/* Every builtin of one image type and access qualifier: appended to b. */
static void calls(char *b, size_t size, const image_type *t, const char *img, bool ro, bool wo) {
    size_t n = strlen(b);
    const char *cf = t->fcoord, *ci = t->icoord;
#define ADD(...) (n += (size_t)snprintf(b + n, size - n, __VA_ARGS__))
    if (!wo) {
        if (t->depth) {
            if (ro && cf)
                ADD("    f.x += read_imagef(%s, s, (%s)(0.5f)) + read_imagef(%s, s, (%s)(1)) +"
                    " read_imagef(%s, cs, (%s)(0.25f));\n",
                    img, cf, img, ci, img, cf);
            ADD("    f.y += read_imagef(%s, (%s)(2));\n", img, ci);
        } else {
            if (ro && cf) {
                ADD("    f += read_imagef(%s, s, (%s)(0.5f)) + read_imagef(%s, s, (%s)(1)) +"
                    " read_imagef(%s, cs, (%s)(0.25f));\n",
                    img, cf, img, ci, img, cf);
                ADD("    i += read_imagei(%s, s, (%s)(0.5f)) + read_imagei(%s, s, (%s)(1));\n", img,
                    cf, img, ci);
                ADD("    i += as_int4(read_imageui(%s, s, (%s)(0.5f)) + read_imageui(%s, s, "
                    "(%s)(1)));\n",
                    img, cf, img, ci);
                ADD("    f += convert_float4(read_imageh(%s, s, (%s)(0.5f)) + read_imageh(%s, s, "
                    "(%s)(1)));\n",
                    img, cf, img, ci);
            }
            ADD("    f += read_imagef(%s, (%s)(2)) + convert_float4(read_imageh(%s, (%s)(3)));\n",
                img, ci, img, ci);
            ADD("    i += read_imagei(%s, (%s)(2)) + as_int4(read_imageui(%s, (%s)(3)));\n", img,
                ci, img, ci);
        }
    }
    if (!ro) {
        if (t->depth) {
            ADD("    write_imagef(%s, (%s)(4), f.x);\n", img, ci);
        } else {
            ADD("    write_imagef(%s, (%s)(4), f);\n    write_imagei(%s, (%s)(5), i);\n", img, ci,
                img, ci);
            ADD("    write_imageui(%s, (%s)(6), as_uint4(i));\n", img, ci);
            ADD("    write_imageh(%s, (%s)(7), convert_half4(f));\n", img, ci);
        }
    }
    ADD("    i.x += get_image_width(%s) + get_image_channel_data_type(%s) + "
        "get_image_channel_order(%s);\n",
        img, img, img);
    if (t->height)
        ADD("    i.y += get_image_height(%s);\n", img);
    if (t->depth_query)
        ADD("    i.z += get_image_depth(%s) + get_image_dim(%s).z;\n", img, img);
    else if (t->dim)
        ADD("    i.z += get_image_dim(%s).y;\n", img);
    if (t->array)
        ADD("    i.w += (int)get_image_array_size(%s);\n", img);
#undef ADD
}

/* One kernel per image type; read_write images with OpenCL C 3.0 only. */
static char *all_builtins(bool rw) {
    size_t size = 1 << 17;
    char *b = calloc(1, size);
    snprintf(b, size,
             "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
             "constant sampler_t cs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | "
             "CLK_FILTER_LINEAR;\n");
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        const image_type *t = &types[k];
        size_t n = strlen(b);
        snprintf(b + n, size - n,
                 "kernel void k_%s(read_only %s ro, write_only %s wo, %s%s%s sampler_t s,\n"
                 "                 global float4 *of, global int4 *oi) {\n"
                 "    float4 f = of[0];\n    int4 i = oi[0];\n",
                 t->name, t->name, t->name, rw ? "read_write " : "", rw ? t->name : "",
                 rw ? " rw," : "");
        calls(b, size, t, "ro", true, false);
        calls(b, size, t, "wo", false, true);
        if (rw)
            calls(b, size, t, "rw", false, false);
        n = strlen(b);
        snprintf(b + n, size - n, "    of[1] = f;\n    oi[1] = i;\n}\n");
    }
    return b;
}

/* PTX that ptxas takes, one entry per image type, in unified texture mode (the texture objects
 * of read-only 2D images hold their sampling state): the read-only 2D reads with a sampler and
 * float coordinates are the texture path's tex.2d, and no other texture or surface instruction
 * is there. */
static void check_ptx(const char *ptx, const char *what, int opt) {
    CVT_CHECK(cvt_ptxas_at(ptx, what, opt) == 0, "%s: ptxas", what);
    int entries = 0;
    for (const char *p = ptx; (p = strstr(p, ".entry ")) != NULL; p++)
        entries++;
    CVT_CHECK(entries == (int)(sizeof types / sizeof *types), "%s: %d entries", what, entries);
    CVT_CHECK(!strstr(ptx, "texmode_independent"), "%s: independent texture mode", what);
    CVT_CHECK(strstr(ptx, "\ttex.2d.v4.f32.f32") != NULL, "%s: no tex.2d", what);
    static const char tex2d[] = "\ttex.2d.v4.f32.f32 ";
    int tex = 0;
    for (const char *p = ptx; (p = strstr(p, "\ttex.")) != NULL; p++)
        tex += strncmp(p, tex2d, sizeof tex2d - 1) != 0;
    CVT_CHECK(tex == 0, "%s: %d other tex instructions", what, tex);
    static const char *const hw[] = {"\ttld4.", "\tsuld.", "\tsust.", "\ttxq.", "\tsuq."};
    for (size_t i = 0; i < sizeof hw / sizeof *hw; i++)
        CVT_CHECK(!strstr(ptx, hw[i]), "%s: %s in the PTX", what, hw[i] + 1);
}

static cl_int build(const char *src, const char *options, const cvc_target *t, cvc_output *out) {
    memset(out, 0, sizeof *out);
    return cvc_build(src, strlen(src), options, t, out);
}

/* The registers ptxas -O3 gives the entry (ptxas -v), -1 when it fails. */
static int entry_registers(const char *ptx, const char *entry) {
    char dir[256], path[512], cmd[2048];
    cvt_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/k.ptx", dir);
    cvt_write(path, ptx);
    snprintf(cmd, sizeof cmd, "'%s' -O3 -v -arch=sm_90 '%s' -o '%s/k.cubin' > '%s/log' 2>&1",
             CV_PTXAS, path, dir, dir);
    int regs = -1;
    if (system(cmd) == 0) {
        snprintf(path, sizeof path, "%s/log", dir);
        FILE *f = fopen(path, "r");
        char line[512];
        bool in_entry = false;
        while (f && regs < 0 && fgets(line, sizeof line, f)) {
            if (strstr(line, "Compiling entry function"))
                in_entry = strstr(line, entry) != NULL;
            const char *used = in_entry ? strstr(line, "Used ") : NULL;
            if (used)
                regs = atoi(used + 5);
        }
        if (f)
            fclose(f);
    }
    cvt_rmdir(dir);
    return regs;
}

/* The textured variant (core/ptx_textured.h) of a bilinear kernel: ptxas takes it, and without
 * the software fallback's body the kernel needs fewer registers, few enough for 8 groups of 256
 * on an SM (32); the variant's flag is 1 in it and 0 in the module (else the fetches stay apart,
 * each behind its test: the H100's bilinear kernel 0.95x NVIDIA's, 1.00x with the flag); a
 * module without read-only 2D sampling has no variant. */
static void textured_variant(void) {
    static const char src[] =
        "constant sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
        "                         CLK_FILTER_LINEAR;\n"
        "kernel void bil(read_only image2d_t in, global float4 *out, float2 step) {\n"
        "    int x = get_global_id(0), y = get_global_id(1);\n"
        "    float2 c = ((float2)(x, y) + 0.37f) * step;\n"
        "    out[y * get_global_size(0) + x] = read_imagef(in, lin, c) +\n"
        "        read_imagef(in, lin, c + step * 0.5f) + read_imagef(in, lin, c + step);\n"
        "}\n";
    cvc_output out;
    cl_int err = build(src, "", &sm90_images, &out);
    CVT_CHECK(err == CL_SUCCESS, "bilinear: %d\n%s", err, out.log ? out.log : "");
    if (err == CL_SUCCESS) {
        const char *ptx = (const char *)out.data;
        size_t len = 0;
        char *tex = cv_ptx_textured(ptx, strlen(ptx), &len);
        CVT_CHECK(tex && len == strlen(tex), "no textured variant");
        static const char flag0[] = " 0; // cv:textured-variant",
                          flag1[] = " 1; // cv:textured-variant";
        CVT_CHECK(strstr(ptx, flag0) && !strstr(ptx, flag1), "the module's flag is not 0");
        CVT_CHECK(!tex || (strstr(tex, flag1) && !strstr(tex, flag0)),
                  "the variant's flag is not 1");
        if (tex) {
            int plain = entry_registers(ptx, "bil"), textured = entry_registers(tex, "bil");
            printf("bilinear kernel: %d registers, textured variant %d\n", plain, textured);
            CVT_CHECK(plain > 0 && textured > 0 && textured < plain && textured <= 32,
                      "registers: %d, textured %d", plain, textured);
        }
        free(tex);
    }
    cvc_output_free(&out);
    static const char plain_src[] =
        "kernel void w(write_only image2d_t o) { write_imagef(o, (int2)(0, 0), (float4)(1)); }\n";
    err = build(plain_src, "", &sm90_images, &out);
    CVT_CHECK(err == CL_SUCCESS, "write: %d", err);
    size_t len = 0;
    CVT_CHECK(err != CL_SUCCESS ||
                  !cv_ptx_textured((const char *)out.data, strlen((const char *)out.data), &len),
              "a variant without read-only sampling");
    cvc_output_free(&out);
    /* Normalized channels are written by PTX's float-to-integer conversion, which clamps and
     * gives 0 for NaN (cv_norm): no rint, clamps and NaN select before it (the H100's image
     * write kernel: 48.3 -> 42.9 us). */
    static const char write_src[] =
        "kernel void w(write_only image2d_t o, float k) {\n"
        "    int x = get_global_id(0);\n"
        "    write_imagef(o, (int2)(x, 0), (float4)(x * k, k, -k, 1.0f));\n}\n";
    err = build(write_src, "", &sm90_images, &out);
    const char *ptx = err == CL_SUCCESS ? (const char *)out.data : "";
    CVT_CHECK(err == CL_SUCCESS, "normalized write: %d", err);
    CVT_CHECK(strstr(ptx, "cvt.rni.u32.f32") && strstr(ptx, "cvt.rni.s32.f32") &&
                  !strstr(ptx, "cvt.rni.f32.f32") && !strstr(ptx, "setp.nan.f32"),
              "normalized write: not by the clamping conversion");
    cvc_output_free(&out);
}

int main(void) {
    cvt_require_compiler();
    textured_variant();
    char dir[256];
    cvt_private_cache(dir, sizeof dir);
    cvc_output out;

    /* Every builtin, OpenCL C 3.0 (read_write too) and 1.2, optimized and not. */
    char *src30 = all_builtins(true), *src12 = all_builtins(false);
    static const struct {
        bool cl30;
        const char *options;
        int ptxas_opt;
    } builds[] = {
        {true, "-cl-std=CL3.0", 3}, {false, "", 3}, {true, "-cl-std=CL3.0 -cl-opt-disable", 0}};
    for (size_t i = 0; i < sizeof builds / sizeof *builds; i++) {
        cl_int err = build(builds[i].cl30 ? src30 : src12, builds[i].options, &sm90_images, &out);
        CVT_CHECK(err == CL_SUCCESS, "build '%s': %d\n%s", builds[i].options, err,
                  out.log ? out.log : "");
        if (err == CL_SUCCESS)
            check_ptx((const char *)out.data, builds[i].options, builds[i].ptxas_opt);
        cvc_output_free(&out);
    }

    /* clCompileProgram + clLinkProgram. */
    cvc_output obj;
    memset(&obj, 0, sizeof obj);
    cl_int err = cvc_compile(src30, strlen(src30), "-cl-std=CL3.0", NULL, 0, &sm90_images, &obj);
    CVT_CHECK(err == CL_SUCCESS, "compile: %d\n%s", err, obj.log ? obj.log : "");
    if (err == CL_SUCCESS) {
        const cvc_output *objs[] = {&obj};
        bool lib = true;
        memset(&out, 0, sizeof out);
        err = cvc_link(objs, 1, "", &sm90_images, &lib, &out);
        CVT_CHECK(err == CL_SUCCESS && !lib, "link: %d\n%s", err, out.log ? out.log : "");
        if (err == CL_SUCCESS)
            check_ptx((const char *)out.data, "compile + link", 3);
        cvc_output_free(&out);
    }
    cvc_output_free(&obj);

    /* Without images: OpenCL C 3.0 has no image types, 1.2 no image builtins. */
    err = build(src30, "-cl-std=CL3.0", &cvt_sm90, &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && out.log && strstr(out.log, "__opencl_c_images"),
              "3.0 without images: %d\n%s", err, out.log ? out.log : "");
    cvc_output_free(&out);
    const char *sampled = "kernel void k(read_only image2d_t a, sampler_t s, global float4 *o) {\n"
                          "    o[0] = read_imagef(a, s, (float2)(0.5f, 0.5f));\n}\n";
    err = build(sampled, "", &cvt_sm90, &out);
    CVT_CHECK(err == CL_BUILD_PROGRAM_FAILURE && out.log && strstr(out.log, "read_imagef") &&
                  strstr(out.log, "is called but defined"),
              "1.2 without images: %d\n%s", err, out.log ? out.log : "");
    cvc_output_free(&out);
    free(src30);
    free(src12);

    /* Names the source scan cannot see: the build is done again with every library. */
    const char *pasted =
        "#define IMG(n) image##n##_t\n#define RD(t) read_##t\n#define SMP(x) x##_t\n"
        "kernel void k(read_only IMG(2d) a, SMP(sampler) s, global float4 *o) {\n"
        "    o[0] = RD(imagef)(a, s, (float2)(0.5f, 0.5f));\n}\n";
    err = build(pasted, "", &sm90_images, &out);
    CVT_CHECK(err == CL_SUCCESS, "pasted names: %d\n%s", err, out.log ? out.log : "");
    cvc_output_free(&out);

    /* __IMAGE_SUPPORT__ with images only, the cache keeping the two apart (either order). */
    const char *macro = "kernel void k(global int *o) {\n#ifdef __IMAGE_SUPPORT__\n"
                        "    o[0] = 1234567;\n#else\n    o[0] = 7654321;\n#endif\n}\n";
    for (int round = 0; round < 2; round++)
        for (int images = 0; images < 2; images++) {
            bool on = images != round;
            err = build(macro, "", on ? &sm90_images : &cvt_sm90, &out);
            CVT_CHECK(err == CL_SUCCESS &&
                          strstr((const char *)out.data, on ? "1234567" : "7654321"),
                      "__IMAGE_SUPPORT__ with images %d (round %d)", on, round);
            cvc_output_free(&out);
        }

    /* A kernel without images: the same PTX with and without them. */
    const char *plain = "kernel void k(global float *p) { p[get_global_id(0)] *= 2.0f; }\n";
    cvc_output a, b;
    CVT_CHECK(build(plain, "", &cvt_sm90, &a) == CL_SUCCESS, "plain kernel");
    CVT_CHECK(build(plain, "", &sm90_images, &b) == CL_SUCCESS, "plain kernel, images");
    CVT_CHECK(a.data && b.data && !strcmp((const char *)a.data, (const char *)b.data),
              "a kernel without images builds to other PTX with images");
    cvc_output_free(&a);
    cvc_output_free(&b);

    cvt_rmdir(dir);
    if (cvt_failures)
        fprintf(stderr, "%d failures\n", cvt_failures);
    return cvt_failures ? 1 : 0;
}
