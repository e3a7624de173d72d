#include "core/backend.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"

#define CVCU_STREAM(s) ((CUstream)(s))
#define CVCU_EVENT(e)  ((CUevent)(e))

cl_int cvcu_stream_create(int priority, cvcu_stream **out) {
    CUstream s = NULL;
    /* Non-blocking: never serialised with the legacy default stream other libraries may use. */
    cl_int err = CVCU_CALL(cvcu.cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, priority),
                           CL_OUT_OF_RESOURCES);
    *out = (cvcu_stream *)s;
    return err;
}

void cvcu_stream_release(cvcu_stream *s, bool owned) {
    cvcu_gates_forget_stream(CVCU_STREAM(s));
    if (s && owned)
        CVCU_CALL(cvcu.cuStreamDestroy(CVCU_STREAM(s)), CL_OUT_OF_RESOURCES);
}

cl_int cvcu_stream_sync(cvcu_stream *s) {
    return CVCU_CALL(cvcu.cuStreamSynchronize(CVCU_STREAM(s)), CL_OUT_OF_RESOURCES);
}

cl_int cvcu_stream_query(cvcu_stream *s) {
    CUresult r = cvcu.cuStreamQuery(CVCU_STREAM(s));
    return r == CUDA_ERROR_NOT_READY ? CL_SUBMITTED
                                     : cvcu_error(r, CL_OUT_OF_RESOURCES, "cuStreamQuery");
}

cl_int cvcu_stream_wait_event(cvcu_stream *s, cvcu_event *e) {
    return CVCU_CALL(cvcu.cuStreamWaitEvent(CVCU_STREAM(s), CVCU_EVENT(e), 0), CL_OUT_OF_RESOURCES);
}

cl_int cvcu_stream_check_foreign(void *handle, struct cvcu_device *dev) {
    CUcontext ctx = NULL;
    /* CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are handles of no particular context. */
    cl_int err = handle && handle != CU_STREAM_LEGACY && handle != CU_STREAM_PER_THREAD
                     ? CVCU_CALL(cvcu.cuStreamGetCtx(CVCU_STREAM(handle), &ctx), CL_INVALID_VALUE)
                     : CL_INVALID_VALUE;
    if (err == CL_SUCCESS && ctx != cvcu_device_context(dev))
        err = CL_INVALID_VALUE;
    return err;
}

cl_int cvcu_event_create(bool timing, cvcu_event **out) {
    CUevent e = NULL;
    cl_int err = CVCU_CALL(cvcu.cuEventCreate(&e, timing ? 0 : CU_EVENT_DISABLE_TIMING),
                           CL_OUT_OF_RESOURCES);
    *out = (cvcu_event *)e;
    return err;
}

void cvcu_event_destroy(cvcu_event *e) {
    if (e)
        CVCU_CALL(cvcu.cuEventDestroy(CVCU_EVENT(e)), CL_OUT_OF_RESOURCES);
}

cl_int cvcu_event_record(cvcu_event *e, cvcu_stream *s) {
    return CVCU_CALL(cvcu.cuEventRecord(CVCU_EVENT(e), CVCU_STREAM(s)), CL_OUT_OF_RESOURCES);
}

cl_int cvcu_event_query(cvcu_event *e) {
    CUresult r = cvcu.cuEventQuery(CVCU_EVENT(e));
    return r == CUDA_ERROR_NOT_READY ? CL_SUBMITTED
                                     : cvcu_error(r, CL_OUT_OF_RESOURCES, "cuEventQuery");
}

cl_int cvcu_event_sync(cvcu_event *e) {
    return CVCU_CALL(cvcu.cuEventSynchronize(CVCU_EVENT(e)), CL_OUT_OF_RESOURCES);
}
