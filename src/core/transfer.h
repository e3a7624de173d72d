/* What the transfer commands share (core/mem_transfer.c defines it; core/usm.c uses it too).
 * Core only: it names backend types. */
#ifndef CV_CORE_TRANSFER_H
#define CV_CORE_TRANSFER_H

#include "core/backend.h"
#include "core/command.h"

/* Locates m on the command's device and keeps it alive until the command is done (lean
 * commands: the caller's reference does). */
cl_int cv_transfer_use(cv_command *cmd, cl_mem m, bool will_write, bool lean, cl_ulong *address);
/* The backend's description of the command's host copies. done: set when the backend finished
 * the copy within the call. */
cvcu_host_copy cv_transfer_host_copy(cv_command *cmd, bool blocking, bool *done);
/* A blocking command that hands out no event and has nothing of its wait list pending is
 * "lean": it waits for its stream itself, and what it uses needs no hold. */
bool cv_transfer_lean(const cv_command *cmd, bool blocking);
/* cv_command_end, for lean commands through a wait of their own that spins for about as long as
 * `bytes` should take, then sleeps. */
cl_int cv_transfer_end(cv_command *cmd, cl_int status, bool blocking, bool lean, bool done,
                       cl_command_type type, size_t bytes, cl_event *event_ret);

#endif
