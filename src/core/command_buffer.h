/* cl_command_buffer_khr (cl_khr_command_buffer 0.9.8, cl_khr_command_buffer_mutable_dispatch
 * 0.9.5): commands recorded once, with sync points between them, made a CUDA graph at finalize
 * (one instance), launched on a queue's stream per enqueue. Kernel commands keep a clone of their
 * kernel (the arguments as recorded), which mutable dispatches update; the instance's kernel
 * nodes are updated in place, and the graph is built anew only when a launch's shape changes
 * (core/command_buffer_graph.c). docs/command-buffers.md has the whole story. */
#ifndef CV_CORE_COMMAND_BUFFER_H
#define CV_CORE_COMMAND_BUFFER_H

#include "core/kernel.h"
#include "core/mem.h"
#include "core/mem_transfer.h"
#include "core/queue.h"

#ifndef CVU_CL_KHR_COMMAND_BUFFER_FULL
#error "core/command_buffer.h needs util/cl_headers.h before any other CL/cl_ext.h"
#endif

struct cvcu_graph;
struct cvcu_graph_node;

typedef enum cv_cb_kind {
    CV_CB_BARRIER,
    CV_CB_KERNEL,
    CV_CB_COPY,
    CV_CB_COPY_RECT,
    CV_CB_FILL,
    CV_CB_WAIT_VALUE,
    CV_CB_WRITE_VALUE,
    CV_CB_SVM_COPY, /* SVM pointers: one address on every device, nothing held */
    CV_CB_SVM_FILL,
} cv_cb_kind;

/* The updatable parts of a kernel command: the NDRange as last set. */
typedef struct cv_cb_range {
    cl_uint dim;
    size_t offset[3], global[3], local[3]; /* zero where not given */
    bool has_global, has_local;
} cv_cb_range;

typedef struct cv_cb_kernel {
    cl_kernel kernel; /* the application's (held): CL_MUTABLE_DISPATCH_KERNEL_KHR */
    cl_kernel state;  /* a clone: the arguments and exec info as recorded, then as updated */
    cv_cb_range range;
    cl_mutable_dispatch_fields_khr updatable;
    bool no_additional_groups; /* CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR */
    bool uniform;              /* given local sizes divide the global ones */
} cv_cb_kernel;

/* A recorded command; its handle is also its cl_mutable_command_khr (only kernel commands are
 * handed out). It lives as long as its command buffer. */
struct _cl_mutable_command_khr {
    cv_object obj; /* CV_TAG_MUTABLE_COMMAND; counts nothing: the command buffer owns it */
    cl_command_buffer_khr cb;
    cv_cb_kind kind;
    cl_command_type type;
    cl_uint index; /* in the command buffer; its sync point is index + 1 */
    cl_uint *deps; /* indices of the commands it waits for */
    cl_uint num_deps;
    cl_command_properties_khr *props; /* as given, 0-terminated; NULL when none were */
    size_t num_props;
    /* In the current graph: the node that completes with the command, and a kernel command's
     * launches (one per chunk of the NDRange). */
    struct cvcu_graph_node *node;
    struct cvcu_graph_node **launches;
    unsigned num_launches;
    /* The attributes the launches were built with: the instance keeps them, so an update that
     * changes them (or the number of launches) takes a new graph. */
    unsigned launch_cluster[3];
    bool launch_cooperative;
    union {
        cv_cb_kernel kernel;
        struct {
            cl_mem src, dst; /* held */
            size_t src_offset, dst_offset, size;
        } copy;
        struct {
            cl_mem src, dst; /* held */
            cv_rect s, d;
            size_t region[3];
        } rect;
        struct {
            cl_mem mem; /* held */
            unsigned char pattern[128];
            size_t pattern_size, offset, size;
        } fill;
        struct {
            cl_mem hv; /* held */
            cl_ulong value;
            cl_host_value_condition cond;
        } value;
        struct {
            cl_ulong dst, src; /* src: copies only */
            size_t size;
            unsigned char pattern[128]; /* fills only */
            size_t pattern_size;
        } svm;
    } u;
};

struct _cl_command_buffer_khr {
    cv_object obj;
    cl_context context;
    cl_command_queue queue; /* held */
    cl_device_id device;
    cl_command_buffer_properties_khr *props; /* as given, 0-terminated; NULL when none were */
    size_t num_props;
    cl_command_buffer_flags_khr flags;
    bool no_additional_groups; /* CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR */
    pthread_mutex_t lock;      /* recording, finalize, updates and enqueues */
    bool finalized;
    _Atomic cl_uint num_commands;
    cl_mutable_command_khr *commands;
    cl_uint cap_commands;
    cl_uint last_barrier;   /* index + 1 of the last barrier; 0: none */
    cl_uint unset_commands; /* kernel commands with arguments not set yet */
    bool prints;            /* a kernel calls printf */
    struct cvcu_graph *graph;
    /* The graph waits for a host value (a gate): host waits behind a replay listen for
     * releases (core/wait.h). */
    bool gated;
    /* The history of host waits learns a replay's length under this key (core/wait.h): of its
     * own kind, never a kernel's, and new with every graph and update. */
    uint64_t wait_key;
};

static inline bool cv_is_command_buffer(const void *h) {
    return cv_object_valid(h, CV_TAG_COMMAND_BUFFER);
}

static inline bool cv_is_mutable_command(const void *h) {
    return cv_object_valid(h, CV_TAG_MUTABLE_COMMAND);
}

/* What the API validated of a creation. props: as given (num_props entries with the 0). */
typedef struct cv_cb_config {
    cl_command_buffer_flags_khr flags;
    bool no_additional_groups;
    const cl_command_buffer_properties_khr *props;
    size_t num_props;
} cv_cb_config;

/* What every recording call shares: its properties (validated, num_props entries with the 0, or
 * none), its sync points (validated) and where its own sync point and handle go. */
typedef struct cv_cb_record {
    const cl_command_properties_khr *props;
    size_t num_props;
    cl_uint num_sync;
    const cl_sync_point_khr *sync;
    cl_sync_point_khr *sync_out;
    cl_mutable_command_khr *handle_out;
} cv_cb_record;

/* The capabilities a device reports (device queries and the checks of the API). */
cl_device_command_buffer_capabilities_khr cv_command_buffer_capabilities(cl_device_id dev);
cl_command_queue_properties cv_command_buffer_queue_properties(cl_device_id dev);
cl_mutable_dispatch_fields_khr cv_mutable_dispatch_capabilities(cl_device_id dev);
/* Whether the device records and runs command buffers (the extension is listed). */
bool cv_command_buffer_supported(cl_device_id dev);
/* Whether its command buffers take host-value commands (memory-operation graph nodes). */
bool cv_command_buffer_host_values(cl_device_id dev);

cl_command_buffer_khr cv_command_buffer_create(cl_command_queue q, const cv_cb_config *cfg,
                                               cl_int *err);
cl_int cv_command_buffer_info(cl_command_buffer_khr cb, cl_command_buffer_info_khr param,
                              const cv_info *out);
cl_command_buffer_state_khr cv_command_buffer_state(cl_command_buffer_khr cb);
/* Builds the graph and its instance. CL_INVALID_OPERATION if finalized already. */
cl_int cv_command_buffer_finalize(cl_command_buffer_khr cb);
/* One launch on q (validated: executable, compatible queue). */
cl_int cv_command_buffer_enqueue(cl_command_buffer_khr cb, cl_command_queue q, cl_uint num_wait,
                                 const cl_event *wait_list, cl_event *event);
/* Is every sync point of the list one of cb's? */
bool cv_command_buffer_sync_points_valid(cl_command_buffer_khr cb, cl_uint n,
                                         const cl_sync_point_khr *list);

/* Recording (arguments validated by the API). CL_INVALID_OPERATION once finalized. */
cl_int cv_cb_record_barrier(cl_command_buffer_khr cb, const cv_cb_record *rec);
cl_int cv_cb_record_copy(cl_command_buffer_khr cb, const cv_cb_record *rec, cl_mem src, cl_mem dst,
                         size_t src_offset, size_t dst_offset, size_t size);
/* Buffer rectangles, and the image copies and fills, which are rectangles of the pixels' buffers
 * (type: the command's, CL_COMMAND_COPY_BUFFER_RECT, CL_COMMAND_COPY_IMAGE ...). */
cl_int cv_cb_record_copy_rect(cl_command_buffer_khr cb, const cv_cb_record *rec,
                              cl_command_type type, cl_mem src, cl_mem dst, const cv_rect *s,
                              const cv_rect *d, const size_t region[3]);
/* SVM copies and fills (pointers checked by the API). */
cl_int cv_cb_record_svm_copy(cl_command_buffer_khr cb, const cv_cb_record *rec, void *dst,
                             const void *src, size_t size);
cl_int cv_cb_record_svm_fill(cl_command_buffer_khr cb, const cv_cb_record *rec, void *dst,
                             const void *pattern, size_t pattern_size, size_t size);
cl_int cv_cb_record_fill(cl_command_buffer_khr cb, const cv_cb_record *rec, cl_mem m,
                         const void *pattern, size_t pattern_size, size_t offset, size_t size);
/* The NDRange is checked here (the errors of clEnqueueNDRangeKernel). */
cl_int cv_cb_record_kernel(cl_command_buffer_khr cb, const cv_cb_record *rec, cl_kernel k,
                           cl_uint dim, const size_t *offset, const size_t *global,
                           const size_t *local, cl_mutable_dispatch_fields_khr updatable,
                           bool no_additional_groups);
/* type: CL_COMMAND_WAIT_HOST_VALUE_CULVERT (with cond) or CL_COMMAND_WRITE_HOST_VALUE_CULVERT. */
cl_int cv_cb_record_host_value(cl_command_buffer_khr cb, const cv_cb_record *rec,
                               cl_command_type type, cl_mem hv, cl_ulong value,
                               cl_host_value_condition cond);

/* clUpdateMutableCommandsKHR after the API's checks of the call itself (a finalized, mutable
 * command buffer; arrays present): each config is checked, and either all are applied or
 * none. */
cl_int cv_command_buffer_update(cl_command_buffer_khr cb, cl_uint n,
                                const cl_mutable_dispatch_config_khr *const *configs);
cl_int cv_mutable_command_info(cl_mutable_command_khr cmd, cl_mutable_command_info_khr param,
                               const cv_info *out);

#endif
