/* PTX text as culvert loads it (docs/kernel-abi.md): the kernels' signatures, the //cv:
 * metadata, and the rewrite that adds what OpenCL needs (__local pointer arguments in dynamic
 * shared memory, the launch-information parameter). No CUDA here: the parser works on text. */
#ifndef CV_CORE_PTX_H
#define CV_CORE_PTX_H

/* Only the OpenCL types: the unit tests compile this file on its own. */
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The state space a `.ptr` parameter points into. */
typedef enum cv_ptx_space {
    CV_PTX_NOT_PTR = 0, /* a plain value (nvcc's pointers are plain .u64 too) */
    CV_PTX_PTR_GENERIC, /* `.ptr` with no space */
    CV_PTX_PTR_GLOBAL,
    CV_PTX_PTR_SHARED, /* a __local pointer: gets a slice of dynamic shared memory */
    CV_PTX_PTR_CONST,
    CV_PTX_PTR_LOCAL,
} cv_ptx_space;

typedef struct cv_ptx_param {
    char *name;
    uint32_t size;  /* bytes */
    uint32_t align; /* bytes */
    cv_ptx_space space;
    uint32_t ptr_align; /* the pointee's `.align`, 0 when not given */
} cv_ptx_param;

/* One //cv:arg line. */
typedef struct cv_ptx_arg_info {
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_access_qualifier access;
    cl_kernel_arg_type_qualifier type_qualifier;
    char *type_name;
    char *name;
} cv_ptx_arg_info;

/* The launch-information parameter (docs/kernel-abi.md): the 64 bytes the builtins read, then
 * what the prologue reads. */
typedef struct cv_launch_info {
    uint64_t global_offset[3];
    uint64_t global_size[3];
    uint32_t group_offset[3];
    uint32_t work_dim;
    uint32_t group_limit[3]; /* groups of this launch that are part of the NDRange, per dim */
    uint32_t reserved;
} cv_launch_info;

typedef struct cv_ptx_kernel {
    char *name;
    uint32_t num_params;
    cv_ptx_param *params;
    cv_ptx_arg_info
        *arg_info;       /* num_params entries when every //cv:arg line was there, else NULL */
    bool arg_info_named; /* arg_info with every parameter's name: what clGetKernelArgInfo tells */
    size_t reqd_work_group_size[3]; /* //cv:reqd_work_group_size or .reqntid; 0 0 0 when none */
    size_t work_group_size_hint[3];
    bool uniform_work_groups; /* //cv:uniform-work-groups: no smaller last work-group */
    size_t max_threads;       /* .maxntid product, 0 when none */
    uint32_t cluster_dims[3]; /* .reqnctapercluster; 0 0 0 when none */
    char *attributes;         /* //cv:kernel-attributes text, or "" */
    bool has_shared_ptr;      /* a __local pointer parameter */
    /* Offsets in the text, for the rewrite. */
    size_t decl_start;                /* the entry's first token (`.visible`, `.entry`) */
    size_t params_open, params_close; /* '(' and ')'; both just past the name when no list */
    bool no_param_list;
    size_t body_open, body_close; /* '{' and '}' */
} cv_ptx_kernel;

typedef struct cv_ptx_module {
    uint32_t num_kernels;
    cv_ptx_kernel *kernels;
    bool launch_info;      /* declares __cv_launch_info: culvert-compiled PTX */
    bool has_dynamic_smem; /* declares __cv_dynamic_smem itself */
    /* PTX from NVIDIA's OpenCL (`.target ..., texmode_independent`) reads its launch
     * environment from %envreg registers, which mean other things under CUDA (cooperative
     * groups use %envreg1/2): in such modules only, the rewrite replaces the ones it knows.
     * envreg_unknown: the first other one read (-1: none), which culvert cannot provide. */
    bool opencl_abi;
    bool has_envreg;
    int envreg_unknown;
    int target_sm;        /* .target sm_XY -> XY; 0 when unknown */
    bool target_specific; /* sm_90a and the like: arch-specific target */
    size_t global_bytes;  /* module-scope .global variables, each rounded up to its .align */
    unsigned version;     /* .version as major * 100 + minor (8.1 -> 801) */
    /* Offsets in the text, for the rewrite. */
    size_t version_start, version_end;         /* the .version number */
    size_t header_end;                         /* after .version/.target/.address_size */
    size_t launch_decl_start, launch_decl_end; /* the __cv_launch_info declaration */
} cv_ptx_module;

/* Kernel parameter space, bytes: what ptxas allows before PTX ISA 8.1, and from 8.1 on (CUDA
 * 12.1, Volta and newer). The rewrite raises .version to 8.1 for an entry past the first. */
#define CV_PTX_PARAM_SPACE_OLD  4352
#define CV_PTX_PARAM_SPACE_MAX  32764
#define CV_PTX_LARGE_PARAMS_ISA 801
/* The parameter space of an entry as PTX lays it out: its parameters at their alignments, then,
 * with launch information, the launch-information parameter (8-aligned). */
size_t cv_ptx_param_space(const cv_ptx_kernel *k, bool launch_info);

/* Is this binary PTX text (the first directive, after comments, is .version)? */
bool cv_ptx_is_text(const unsigned char *bin, size_t len);
/* Parses PTX text (len bytes, no terminator needed). CL_SUCCESS, CL_INVALID_BINARY (with a
 * reason in msg) or CL_OUT_OF_HOST_MEMORY. */
cl_int cv_ptx_parse(const char *text, size_t len, cv_ptx_module *out, char *msg, size_t msg_size);
/* The text culvert loads: the rewrite for __local pointers and launch information, 0-terminated
 * and malloc'ed. NULL when out of memory. */
char *cv_ptx_rewrite(const char *text, size_t len, const cv_ptx_module *m, size_t *out_len);
const cv_ptx_kernel *cv_ptx_find(const cv_ptx_module *m, const char *name);
/* Does the launch prologue of this kernel (culvert-compiled PTX) exit threads past the NDRange?
 * Kernels that may have non-uniform work-groups, and those compiled with cluster dimensions,
 * whose grids may be padded to whole clusters; a kernel with uniform work-groups and no
 * compiled cluster dimensions has no such check, and its grid is never padded. */
static inline bool cv_ptx_exits_outside(const cv_ptx_kernel *k) {
    return !k->uniform_work_groups || k->cluster_dims[0] != 0;
}
void cv_ptx_free(cv_ptx_module *m);

#endif
