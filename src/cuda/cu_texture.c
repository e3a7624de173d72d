/* Texture objects over pitched linear memory (core/backend.h). The texture units need the first
 * pixel aligned to CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, rows to TEXTURE_PITCH_ALIGNMENT, and
 * sizes within MAXIMUM_TEXTURE2D_LINEAR_* (the device's properties): memory that does not meet
 * them gets no texture. */
#include "core/backend.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Are the memory's alignment and size what the texture units take (read at cvcu_device_open)? */
static bool cvcu_tex_fits(const cvcu_device_props *p, const cvcu_texture_desc *d, size_t pixel) {
    return p->texture_align && p->texture_pitch_align && d->address % p->texture_align == 0 &&
           d->row_pitch % p->texture_pitch_align == 0 && d->width <= p->texture2d_linear_max[0] &&
           d->height <= p->texture2d_linear_max[1] && d->row_pitch <= p->texture2d_linear_max[2] &&
           d->row_pitch >= d->width * pixel;
}

cl_int cvcu_texture_create(cvcu_device *dev, const cvcu_texture_desc *d, uint64_t *handle) {
    static const CUarray_format formats[] = {
        [CVCU_TEX_U8] = CU_AD_FORMAT_UNSIGNED_INT8,
        [CVCU_TEX_U16] = CU_AD_FORMAT_UNSIGNED_INT16,
        [CVCU_TEX_HALF] = CU_AD_FORMAT_HALF,
        [CVCU_TEX_FLOAT] = CU_AD_FORMAT_FLOAT,
    };
    static const size_t sizes[] = {1, 2, 2, 4};
    static const CUaddress_mode modes[] = {
        [CVCU_TEX_WRAP] = CU_TR_ADDRESS_MODE_WRAP,
        [CVCU_TEX_CLAMP] = CU_TR_ADDRESS_MODE_CLAMP,
        [CVCU_TEX_MIRROR] = CU_TR_ADDRESS_MODE_MIRROR,
        [CVCU_TEX_BORDER] = CU_TR_ADDRESS_MODE_BORDER,
    };
    *handle = 0;
    if (!cvcu.cuTexObjectCreate || !cvcu.cuTexObjectDestroy ||
        !cvcu_tex_fits(&dev->props, d, sizes[d->format] * d->channels))
        return CL_INVALID_OPERATION;
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_PITCH2D;
    res.res.pitch2D.devPtr = (CUdeviceptr)d->address;
    res.res.pitch2D.format = formats[d->format];
    res.res.pitch2D.numChannels = d->channels;
    res.res.pitch2D.width = d->width;
    res.res.pitch2D.height = d->height;
    res.res.pitch2D.pitchInBytes = d->row_pitch;
    CUDA_TEXTURE_DESC tex;
    memset(&tex, 0, sizeof tex);
    for (int i = 0; i < 3; i++)
        tex.addressMode[i] = modes[d->address_mode];
    tex.filterMode = d->linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    /* Integers of 8 and 16 bits read as floats in [0, 1] (CL_UNORM_INT8/16), and coordinates
     * as the sampler says. */
    tex.flags = d->normalized_coords ? CU_TRSF_NORMALIZED_COORDINATES : 0;
    memcpy(tex.borderColor, d->border, sizeof tex.borderColor);
    CUtexObject obj = 0;
    CUresult r = cvcu.cuTexObjectCreate(&obj, &res, &tex, NULL);
    if (r == CUDA_SUCCESS)
        *handle = (uint64_t)obj;
    /* A refusal is no error of the application's: the image is sampled in software. */
    return r == CUDA_SUCCESS ? CL_SUCCESS : CL_INVALID_OPERATION;
}

static void cvcu_texture_free(void *ptr, bool live) {
    if (live)
        cvcu.cuTexObjectDestroy((CUtexObject)(uintptr_t)ptr);
}

void cvcu_texture_destroy(cvcu_device *dev, uint64_t handle) {
    if (handle)
        cvcu_reap_call_later(cvcu_texture_free, (void *)(uintptr_t)handle, dev,
                             atomic_load(&dev->generation));
}
