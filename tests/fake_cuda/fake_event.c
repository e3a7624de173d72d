/* Events: a record is an operation of its stream (fake_stream.c) that stamps the host time and
 * completes the record's sequence number; a wait waits for the event's latest record. Destroyed
 * events are leaked (queued operations may still point at them); using one aborts. */
#include "fake_internal.h"

#include <stdlib.h>

#pragma GCC visibility push(default)

CUresult cuEventCreate(CUevent *e, unsigned f) {
    FAKE_CALL;
    if (fake_need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    *e = calloc(1, sizeof **e);
    if (!*e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    (*e)->flags = f;
    return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) {
    FAKE_CALL;
    e->destroyed = 1;
    return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
    FAKE_CALL;
    if (fake_need_ctx())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (e->destroyed)
        abort();
    return fake_enqueue(s, (fake_op){.kind = OP_RECORD, .ev = e});
}
CUresult cuEventQuery(CUevent e) {
    FAKE_CALL;
    if (e->destroyed)
        abort();
    LOCK;
    bool done = e->done >= e->recorded;
    UNLOCK;
    return fake_query_answer(done);
}
CUresult cuEventSynchronize(CUevent e) {
    FAKE_CALL;
    LOCK;
    while (e->done < e->recorded && !fake_state.sticky_error)
        pthread_cond_wait(&fake_C, &fake_L);
    CUresult r = (CUresult)fake_state.sticky_error;
    UNLOCK;
    return r;
}
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
    FAKE_CALL;
    if ((a->flags & CU_EVENT_DISABLE_TIMING) || (b->flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_HANDLE;
    LOCK;
    bool ok = a->done >= a->recorded && b->done >= b->recorded && a->recorded && b->recorded;
    *ms = (float)(b->t - a->t);
    UNLOCK;
    return ok ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

#pragma GCC visibility pop
