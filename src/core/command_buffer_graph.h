/* What the command-buffer files share of the graph: building it from the recorded commands,
 * launching it, updating a kernel command's launches. Core-private: it holds backend types. */
#ifndef CV_CORE_COMMAND_BUFFER_GRAPH_H
#define CV_CORE_COMMAND_BUFFER_GRAPH_H

#include "core/backend.h"
#include "core/command.h"
#include "core/command_buffer.h"

/* A kernel command's NDRange: stored as given, and whether given local sizes divide the global
 * ones (an update must not change that). */
void cv_cb_range_set(cv_cb_range *r, cl_uint dim, const size_t *offset, const size_t *global,
                     const size_t *local);
bool cv_cb_range_uniform(const cv_cb_range *r);

/* Builds cb's graph from its commands and instantiates it, replacing the one before only on
 * success (an empty command buffer has none); cb->lock held. */
cl_int cv_cb_graph_build(cl_command_buffer_khr cb);
/* Destroys the graph (launches in flight finish first). */
void cv_cb_graph_drop(cl_command_buffer_khr cb);
/* Launches the graph for cmd (begun on its queue), which takes the graph's wait key and, where
 * the graph waits for host values, marks its stream gated (core/wait.h); cb->lock held. */
cl_int cv_cb_graph_launch(cl_command_buffer_khr cb, cv_command *cmd);
/* Updates a kernel command's launches in the instance from its state, in place; *rebuild is set
 * (and nothing changed) when the NDRange's launches no longer fit the graph. */
cl_int cv_cb_graph_update_kernel(cl_command_buffer_khr cb, cl_mutable_command_khr c, bool *rebuild);

#endif
