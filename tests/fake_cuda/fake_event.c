/* Events: a record is an operation of its stream (fake_stream.c) that stamps the host time and
 * completes the record's sequence number; a wait waits for the event's latest record. Destroyed
 * events are leaked (queued operations may still point at them); using one aborts, as does using
 * one made before a reset of the context. After a fault a record never completes: queries and
 * waits answer the sticky error. */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>

#pragma GCC visibility push(default)

CUresult cuEventCreate(CUevent *e, unsigned f) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    *e = calloc(1, sizeof **e);
    if (!*e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    (*e)->flags = f;
    (*e)->generation = fake_generation;
    return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) {
    FAKE_CALL;
    if (e->generation != fake_generation) {
        fprintf(stderr, "fake: event %p destroyed after the context was reset\n", (void *)e);
        abort();
    }
    e->destroyed = 1;
    return fake_lost_teardown((CUresult)fake_sticky);
}
CUresult cuEventRecord(CUevent e, CUstream s) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    fake_check_event(e);
    if (!(e->flags & CU_EVENT_DISABLE_TIMING))
        fake_state.timing_records++;
    return fake_enqueue(s, (fake_op){.kind = OP_RECORD, .ev = e});
}
CUresult cuEventQuery(CUevent e) {
    FAKE_CALL;
    fake_check_event(e);
    LOCK;
    bool done = e->done >= e->recorded;
    UNLOCK;
    return fake_query_answer(done);
}
CUresult cuEventSynchronize(CUevent e) {
    FAKE_CALL;
    fake_check_event(e);
    LOCK;
    while (e->done < e->recorded && !fake_sticky)
        pthread_cond_wait(&fake_C, &fake_L);
    UNLOCK;
    return (CUresult)fake_sticky;
}
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
    FAKE_CALL;
    fake_check_event(a);
    fake_check_event(b);
    if (fake_sticky)
        return (CUresult)fake_sticky;
    if ((a->flags & CU_EVENT_DISABLE_TIMING) || (b->flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_HANDLE;
    LOCK;
    bool ok = a->done >= a->recorded && b->done >= b->recorded && a->recorded && b->recorded;
    *ms = (float)(b->t - a->t);
    UNLOCK;
    return ok ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

#pragma GCC visibility pop
