/* Streams and events of the backend. The opaque handles are the CUDA handles themselves
 * (CUstream, CUevent), so passing them costs nothing. */
#ifndef CV_CUDA_STREAM_H
#define CV_CUDA_STREAM_H

#include "util/cl_headers.h"
#include <stdbool.h>

struct cvcu_device;
typedef struct cvcu_stream cvcu_stream;
typedef struct cvcu_event cvcu_event;

/* priority: CUDA's number (lower is higher priority; 0 is the default). */
cl_int cvcu_stream_create(int priority, cvcu_stream **out);
/* culvert stops using s (its commands finished): forgets its gates (cu_gates.h) and destroys it
 * where culvert owns it. */
void cvcu_stream_release(cvcu_stream *s, bool owned);
cl_int cvcu_stream_sync(cvcu_stream *s);
/* CL_COMPLETE when everything enqueued has finished, CL_SUBMITTED while work is pending. */
cl_int cvcu_stream_query(cvcu_stream *s);
cl_int cvcu_stream_wait_event(cvcu_stream *s, cvcu_event *e);
/* An application's CUstream (interop): CL_SUCCESS when it is a stream of dev's context. culvert
 * never destroys such a stream. */
cl_int cvcu_stream_check_foreign(void *handle, struct cvcu_device *dev);

/* timing: the event can be used for elapsed times (costs a little more to record). blocking: a
 * host wait on it sleeps instead of spinning. */
cl_int cvcu_event_create(bool timing, bool blocking, cvcu_event **out);
void cvcu_event_destroy(cvcu_event *e);
cl_int cvcu_event_record(cvcu_event *e, cvcu_stream *s);
/* CL_COMPLETE, CL_SUBMITTED, or a negative error of the work before it. */
cl_int cvcu_event_query(cvcu_event *e);
cl_int cvcu_event_sync(cvcu_event *e);
/* Milliseconds from start to end, as cuEventElapsedTime. */
cl_int cvcu_event_elapsed_ms(cvcu_event *start, cvcu_event *end, float *ms);

/* Device timestamps on the host clock (cvu_host_time_ns). An anchor, a timing event recorded on an
 * idle stream at a known host time, is renewed every CULVERT_PROFILING_ANCHOR_MS (default 1000)
 * so that float milliseconds from cuEventElapsedTime stay finer than 0.1 us. Testing hook:
 * CULVERT_PROFILING_DRIFT_PPM scales every device interval, as a device clock that runs fast by
 * that many parts per million would; renewal bounds the error to period x drift. ev: a completed
 * timing event of dev's context. */
cl_int cvcu_clock_host_ns(struct cvcu_device *dev, cvcu_event *ev, cl_ulong *ns);
/* Nanoseconds from start to end, with the same drift hook. */
cl_int cvcu_clock_interval_ns(cvcu_event *start, cvcu_event *end, cl_ulong *ns);

#endif
