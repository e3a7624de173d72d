/* The dispatch table the ICD loaders call through, generated from icd/entry_points.def. */
#include "api/entry_points.h"
#include "core/object.h"

const cl_icd_dispatch cv_dispatch = {
#define CV_EP(kind, ret, name, params) CV_EP_##kind(name)
#define CV_EP_D(name)                  .name = name,
#define CV_EP_DX(name)                 .name = name,
#define CV_EP_DN(name)                 .name = name,
#define CV_EP_N(name)
#define CV_EP_NX(name)
#include "entry_points.def"
};
