/* Declares every entry point of icd/entry_points.def with its visibility: only the loader-facing
 * ones are exported; the rest stay hidden so an application's libOpenCL never captures culvert's
 * internal calls. */
#ifndef CV_API_ENTRY_POINTS_H
#define CV_API_ENTRY_POINTS_H

#include "api/cl_headers.h"

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

#endif
