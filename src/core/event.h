/* cl_event: the state of one command (or a user event). */
#ifndef CV_CORE_EVENT_H
#define CV_CORE_EVENT_H

#include "core/context.h"
#include "cuda/cu_stream.h"

struct _cl_event {
    cv_object obj;
    cl_context context;
    cl_command_queue queue; /* NULL for user events */
    cl_command_type type;
    _Atomic cl_int status; /* the last status seen; CL_COMPLETE or negative are final */
    cvcu_event *done;      /* recorded after the command; NULL for user events */
};

static inline bool cv_is_event(const void *h) {
    return cv_object_valid(h, CV_TAG_EVENT);
}

cl_event cv_event_create(cl_context ctx, cl_command_queue q, cl_command_type type, cl_int *err);
/* Current execution status, without blocking. */
cl_int cv_event_status(cl_event e);
cl_int cv_event_wait(cl_event e);
cl_int cv_event_info(cl_event e, cl_event_info param, const cv_info *out);

/* "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0, or
 * event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
 * event_wait_list are not valid events." / "CL_INVALID_CONTEXT if the context associated with
 * command_queue and events in event_wait_list are not the same." */
cl_int cv_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);

#endif
