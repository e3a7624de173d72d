/* Image commands in command buffers (images claimed: CULVERT_IMAGES not 0): a fill of a sub-region,
 * a copy between images, copies to and from a buffer, recorded once and replayed twice with new
 * source pixels; and the checks of their clEnqueue counterparts. On the GPU
 * (gpu.command_buffer_images) and the fake driver (fake.command_buffer_images). */
#include "command_buffer_common.h"

#include <stdlib.h>

enum { W = 24, H = 10, E = 4 };

static cl_mem rgba8(size_t w, size_t h) {
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(cbt_context, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
    CHECK_ERR(CL_SUCCESS, err);
    REQUIRE(m);
    return m;
}

static unsigned char px(size_t x, size_t y, size_t c, int round) {
    return (unsigned char)(x * 5 + y * 17 + c * 3 + round * 41);
}

int main(void) {
    cbt_setup();
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(cbt_device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    CHECK(images == CL_TRUE);
    cl_mem src = rgba8(W, H), dst = rgba8(W, H), filled = rgba8(W, H), back = rgba8(W, H);
    cl_mem buf = cv_test_buffer(cbt_context, W * H * E, NULL);
    size_t o[3] = {0, 0, 0}, all[3] = {W, H, 1};
    size_t so[3] = {2, 1, 0}, dof[3] = {5, 3, 0}, reg[3] = {12, 6, 1};
    size_t fo[3] = {3, 2, 0}, fr[3] = {7, 4, 1};
    cl_uint color[4] = {9, 300, 7, 255}; /* 300 saturates to 255 */
    unsigned char zero[W * H * E] = {0}, host[W * H * E], got[W * H * E];
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteImage(cbt_queue, dst, CL_TRUE, o, all, 0, 0, zero, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              clEnqueueWriteImage(cbt_queue, filled, CL_TRUE, o, all, 0, 0, zero, 0, NULL, NULL));
    cl_command_buffer_khr cb = cbt_new(cbt_queue, 0);
    CHECK_ERR(CL_SUCCESS,
              cbt.copy_image(cb, NULL, NULL, src, dst, so, dof, reg, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.copy_from_image(cb, NULL, NULL, src, buf, o, all, 0, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.copy_to_image(cb, NULL, NULL, buf, back, 0, o, all, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              cbt.fill_image(cb, NULL, NULL, filled, color, fo, fr, 0, NULL, NULL, NULL));
    /* The enqueue commands' checks. */
    size_t past[3] = {W, 1, 1};
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.copy_image(cb, NULL, NULL, src, dst, so, so, past, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_MEM_COPY_OVERLAP,
              cbt.copy_image(cb, NULL, NULL, src, src, o, so, reg, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_MEM_OBJECT,
              cbt.copy_image(cb, NULL, NULL, buf, dst, o, o, reg, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.fill_image(cb, NULL, NULL, filled, NULL, fo, fr, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_INVALID_VALUE,
              cbt.copy_from_image(cb, NULL, NULL, src, buf, o, all, 4, 0, NULL, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, cbt.finalize(cb));
    for (int round = 1; round <= 2; round++) {
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++)
                for (size_t c = 0; c < E; c++)
                    host[(y * W + x) * E + c] = px(x, y, c, round);
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueWriteImage(cbt_queue, src, CL_TRUE, o, all, 0, 0, host, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadImage(cbt_queue, dst, CL_TRUE, o, all, 0, 0, got, 0, NULL, NULL));
        size_t bad = 0;
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++)
                for (size_t c = 0; c < E; c++) {
                    bool in =
                        x >= dof[0] && x < dof[0] + reg[0] && y >= dof[1] && y < dof[1] + reg[1];
                    unsigned char want =
                        in ? px(x - dof[0] + so[0], y - dof[1] + so[1], c, round) : 0;
                    bad += got[(y * W + x) * E + c] != want;
                }
        CHECK(bad == 0);
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadBuffer(cbt_queue, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
        CHECK(memcmp(got, host, sizeof got) == 0);
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadImage(cbt_queue, back, CL_TRUE, o, all, 0, 0, got, 0, NULL, NULL));
        CHECK(memcmp(got, host, sizeof got) == 0);
        CHECK_ERR(CL_SUCCESS,
                  clEnqueueReadImage(cbt_queue, filled, CL_TRUE, o, all, 0, 0, got, 0, NULL, NULL));
        bad = 0;
        const unsigned char want[E] = {9, 255, 7, 255};
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++) {
                bool in = x >= fo[0] && x < fo[0] + fr[0] && y >= fo[1] && y < fo[1] + fr[1];
                bad += memcmp(got + (y * W + x) * E, in ? want : zero, E) != 0;
            }
        CHECK(bad == 0);
    }
    /* The images go while the command buffer still holds their pixels. */
    clReleaseMemObject(src);
    clReleaseMemObject(filled);
    CHECK_ERR(CL_SUCCESS, cbt.enqueue(0, NULL, cb, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS, clFinish(cbt_queue));
    CHECK_ERR(CL_SUCCESS, cbt.release(cb));
    clReleaseMemObject(dst);
    clReleaseMemObject(back);
    clReleaseMemObject(buf);
    cbt_teardown();
    return cv_test_report("command_buffer_images");
}
