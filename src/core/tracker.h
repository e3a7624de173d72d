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
/* e completed, has no application reference (so no callback either) and is the oldest command
 * outstanding: takes it off the list, so that the caller does its completion work (and drops
 * the tracker's hold) now instead of the next pass, up to a millisecond later. False where it is
 * not first, or a pass has the list. */
bool cv_tracker_take_first(cl_event e);
/* A callback was added to a command not yet complete: passes come soon from now on. */
void cv_tracker_hurry_up(void);
/* Calls e's due callbacks soon, on the tracker thread. */
void cv_tracker_notify(cl_event e);

#endif
