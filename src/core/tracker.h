/* The tracker: one culvert thread per process that advances commands in the background. It
 * polls the CUDA events of outstanding commands (every few microseconds, backing off to 0.5 ms,
 * while one has a callback; every millisecond otherwise), sleeps on a condition variable when
 * nothing is outstanding,
 * and on completion converts profiling timestamps, releases what the command held, reports
 * failures and calls event callbacks, always on its own thread. It stops, in one place, at
 * process exit (atexit, registered after cuInit), before libcuda is torn down. */
#ifndef CV_CORE_TRACKER_H
#define CV_CORE_TRACKER_H

#include "core/event.h"

/* Holds e until it completed and its completion work was done. e was submitted. */
void cv_tracker_track(cl_event e);
/* e completed and has no application reference (so no callback either): takes the outstanding
 * commands off the list from the oldest up to e, if every one of them is done in the same way
 * (cv_event_done_unreferenced), so that the caller does their completion work (and drops the
 * tracker's holds: cv_tracker_finish_taken) now instead of at the next pass, up to a millisecond
 * later. Returns them (a list through tracker_next), or NULL where some command before e is not
 * done, or a pass has the list. */
cl_event cv_tracker_take_done(cl_event e);
/* Completion work and the tracker's hold, for what cv_tracker_take_done returned. */
void cv_tracker_finish_taken(cl_event list);
/* A callback was added to a command not yet complete: passes come soon from now on. */
void cv_tracker_hurry_up(void);
/* Calls e's due callbacks soon, on the tracker thread. */
void cv_tracker_notify(cl_event e);
/* A device was lost (the backend's fault handler: any thread, possibly under the backend's
 * locks): the tracker tells the contexts on it soon (cv_contexts_report_faults). */
void cv_tracker_fault(void);
/* Is the calling thread the tracker's (an event callback)? */
bool cv_tracker_on_thread(void);
/* For the logs: the commands and callback notes of ctx the tracker holds, not counting those of a
 * pass in progress (*passing: one is, with the commands it took off the list). */
unsigned cv_tracker_holds(cl_context ctx, bool *passing);

#endif
