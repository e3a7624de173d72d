/* The image builtins as a kernel calls them, built for the host (tests/CMakeLists.txt) with
 * images.ll's wrappers and images.cl: functions of C-callable shape around each builtin family
 * and image type, which tests/unit/image_emulation.c calls on descriptors over host arrays. An
 * image argument is the descriptor's address, a sampler its bits as a pointer, as on the GPU. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define F4(c)        (float4)((c)[0], (c)[1], (c)[2], (c)[3])
#define I4(c)        (int4)((c)[0], (c)[1], (c)[2], (c)[3])
#define U4(c)        (uint4)((c)[0], (c)[1], (c)[2], (c)[3])
#define H4(c)        (half4)((c)[0], (c)[1], (c)[2], (c)[3])
#define STORE4(o, v) ((o)[0] = (v).x, (o)[1] = (v).y, (o)[2] = (v).z, (o)[3] = (v).w)

/* Coordinates of each image type from four numbers. */
#define C1(c)    (c)[0]
#define C2(T, c) (T##2)((c)[0], (c)[1])
#define C4(T, c) (T##4)((c)[0], (c)[1], (c)[2], (c)[3])

/* Reads with a sampler (float and int coordinates), samplerless reads (read_only and read_write)
 * of every result type, writes of every value type (write_only and read_write), and the queries
 * every type has: width, channel data type, channel order (o[0..2]). */
#define COLOUR_IMAGE(T, N, CF, CI)                                                                 \
    void cvh_##N##_rf(read_only T img, sampler_t s, global const float *c, global float *o) {      \
        STORE4(o, read_imagef(img, s, CF));                                                        \
    }                                                                                              \
    void cvh_##N##_rfi(read_only T img, sampler_t s, global const int *c, global float *o) {       \
        STORE4(o, read_imagef(img, s, CI));                                                        \
    }                                                                                              \
    void cvh_##N##_ri(read_only T img, sampler_t s, global const float *c, global int *o) {        \
        STORE4(o, read_imagei(img, s, CF));                                                        \
    }                                                                                              \
    void cvh_##N##_rii(read_only T img, sampler_t s, global const int *c, global int *o) {         \
        STORE4(o, read_imagei(img, s, CI));                                                        \
    }                                                                                              \
    void cvh_##N##_rui(read_only T img, sampler_t s, global const float *c, global uint *o) {      \
        STORE4(o, read_imageui(img, s, CF));                                                       \
    }                                                                                              \
    void cvh_##N##_rh(read_only T img, sampler_t s, global const float *c, global half *o) {       \
        STORE4(o, read_imageh(img, s, CF));                                                        \
    }                                                                                              \
    SAMPLERLESS(T, N, CI)
#define SAMPLERLESS(T, N, CI)                                                                      \
    void cvh_##N##_lf(read_only T img, global const int *c, global float *o) {                     \
        STORE4(o, read_imagef(img, CI));                                                           \
    }                                                                                              \
    void cvh_##N##_lrwf(read_write T img, global const int *c, global float *o) {                  \
        STORE4(o, read_imagef(img, CI));                                                           \
    }                                                                                              \
    void cvh_##N##_li(read_only T img, global const int *c, global int *o) {                       \
        STORE4(o, read_imagei(img, CI));                                                           \
    }                                                                                              \
    void cvh_##N##_lui(read_write T img, global const int *c, global uint *o) {                    \
        STORE4(o, read_imageui(img, CI));                                                          \
    }                                                                                              \
    void cvh_##N##_lh(read_only T img, global const int *c, global half *o) {                      \
        STORE4(o, read_imageh(img, CI));                                                           \
    }                                                                                              \
    void cvh_##N##_wf(write_only T img, global const int *c, global const float *v) {              \
        write_imagef(img, CI, F4(v));                                                              \
    }                                                                                              \
    void cvh_##N##_wrwf(read_write T img, global const int *c, global const float *v) {            \
        write_imagef(img, CI, F4(v));                                                              \
    }                                                                                              \
    void cvh_##N##_wi(write_only T img, global const int *c, global const int *v) {                \
        write_imagei(img, CI, I4(v));                                                              \
    }                                                                                              \
    void cvh_##N##_wui(read_write T img, global const int *c, global const uint *v) {              \
        write_imageui(img, CI, U4(v));                                                             \
    }                                                                                              \
    void cvh_##N##_wh(write_only T img, global const int *c, global const half *v) {               \
        write_imageh(img, CI, H4(v));                                                              \
    }                                                                                              \
    void cvh_##N##_q(write_only T img, global int *o) {                                            \
        o[0] = get_image_width(img);                                                               \
        o[1] = get_image_channel_data_type(img);                                                   \
        o[2] = get_image_channel_order(img);                                                       \
    }

COLOUR_IMAGE(image1d_t, 1d, C1(c), C1(c))
SAMPLERLESS(image1d_buffer_t, 1db, C1(c))
COLOUR_IMAGE(image1d_array_t, 1da, C2(float, c), C2(int, c))
COLOUR_IMAGE(image2d_t, 2d, C2(float, c), C2(int, c))
COLOUR_IMAGE(image2d_array_t, 2da, C4(float, c), C4(int, c))
COLOUR_IMAGE(image3d_t, 3d, C4(float, c), C4(int, c))

/* Depth images: read_imagef gives a float, write_imagef takes one. */
#define DEPTH_IMAGE(T, N, CF, CI)                                                                  \
    float cvh_##N##_rf(read_only T img, sampler_t s, global const float *c) {                      \
        return read_imagef(img, s, CF);                                                            \
    }                                                                                              \
    float cvh_##N##_rfi(read_only T img, sampler_t s, global const int *c) {                       \
        return read_imagef(img, s, CI);                                                            \
    }                                                                                              \
    float cvh_##N##_lf(read_only T img, global const int *c) {                                     \
        return read_imagef(img, CI);                                                               \
    }                                                                                              \
    float cvh_##N##_lrwf(read_write T img, global const int *c) {                                  \
        return read_imagef(img, CI);                                                               \
    }                                                                                              \
    void cvh_##N##_wf(write_only T img, global const int *c, float v) {                            \
        write_imagef(img, CI, v);                                                                  \
    }                                                                                              \
    void cvh_##N##_wrwf(read_write T img, global const int *c, float v) {                          \
        write_imagef(img, CI, v);                                                                  \
    }
DEPTH_IMAGE(image2d_depth_t, 2dd, C2(float, c), C2(int, c))
DEPTH_IMAGE(image2d_array_depth_t, 2dad, C4(float, c), C4(int, c))

/* The queries of each type beyond width, type and order: o[0..3]. */
void cvh_q_1da(read_only image1d_array_t i, global long *o) {
    o[0] = get_image_array_size(i);
}
void cvh_q_2d(read_write image2d_t i, global long *o) {
    int2 d = get_image_dim(i);
    o[0] = get_image_height(i), o[1] = d.x, o[2] = d.y;
}
void cvh_q_2da(write_only image2d_array_t i, global long *o) {
    int2 d = get_image_dim(i);
    o[0] = get_image_height(i), o[1] = d.x, o[2] = d.y, o[3] = get_image_array_size(i);
}
void cvh_q_3d(read_only image3d_t i, global long *o) {
    int4 d = get_image_dim(i);
    o[0] = get_image_height(i), o[1] = get_image_depth(i), o[2] = d.x + 1000 * d.y + 1000000 * d.z,
    o[3] = d.w;
}
void cvh_q_2dd(read_only image2d_depth_t i, global long *o) {
    int2 d = get_image_dim(i);
    o[0] = get_image_height(i), o[1] = d.x, o[2] = d.y, o[3] = get_image_channel_order(i);
}
void cvh_q_2dad(read_write image2d_array_depth_t i, global long *o) {
    int2 d = get_image_dim(i);
    o[0] = get_image_height(i), o[1] = d.x + 1000 * d.y, o[2] = get_image_array_size(i),
    o[3] = get_image_channel_data_type(i);
}
void cvh_q_1db(read_only image1d_buffer_t i, global long *o) {
    o[0] = get_image_width(i);
}

/* A sampler declared in the program (clang's __translate_sampler_initializer). */
constant sampler_t cvh_const_sampler =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
void cvh_const_2d(read_only image2d_t img, global const float *c, global float *o) {
    STORE4(o, read_imagef(img, cvh_const_sampler, C2(float, c)));
}
