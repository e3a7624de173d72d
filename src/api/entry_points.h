/* Declares every entry point of icd/entry_points.def with its visibility: only the loader-facing
 * ones are exported; the rest stay hidden so an application's libOpenCL never captures culvert's
 * internal calls. */
#ifndef CV_API_ENTRY_POINTS_H
#define CV_API_ENTRY_POINTS_H

#include "util/cl_headers.h"
#include "util/log.h"

#define CV_EP(kind, ret, name, params) CV_EP_##kind(ret, name, params)
#define CV_EP_HIDDEN(ret, name, params)                                                            \
    __attribute__((visibility("hidden"))) ret CL_API_CALL name params;
#define CV_EP_EXPORTED(ret, name, params)                                                          \
    __attribute__((visibility("default"))) ret CL_API_CALL name params;
#define CV_EP_D  CV_EP_HIDDEN
#define CV_EP_DN CV_EP_HIDDEN
#define CV_EP_N  CV_EP_HIDDEN
#define CV_EP_DX CV_EP_EXPORTED
#define CV_EP_NX CV_EP_EXPORTED
#include "entry_points.def"
#undef CV_EP
#undef CV_EP_D
#undef CV_EP_DN
#undef CV_EP_N
#undef CV_EP_DX
#undef CV_EP_NX

/* API entry points log the error they return, with the function's name. */
#define CV_API_ERROR(err)                                                                          \
    do {                                                                                           \
        if ((err) != CL_SUCCESS)                                                                   \
            cvu_log(CVU_LOG_ERROR, "%s returns %d", __func__, (int)(err));                         \
    } while (0)

#endif
