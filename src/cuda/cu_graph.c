/* Command buffers as CUDA graphs: nodes added in dependency order, one instance made at finalize
 * and launched on a queue's stream per enqueue; kernel nodes of the instance are updated in place
 * (cuGraphExecKernelNodeSetParams) for mutable dispatches.
 *
 * Every add returns one node that completes when its operation has: an operation of several CUDA
 * nodes (a copy past CUDA's pitch limit, an NDRange split in chunks by core, a fill of a long
 * pattern) hangs its last nodes on an empty node. Wait nodes (memory operations waiting for a
 * host value) make each launch a gate of cu_gates.c, as cuStreamWaitValue64 does: the launch goes
 * through cvcu_gates_issue, so the frees that wait for the whole device keep out of its way. */
#include "core/backend.h"
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"
#include "cuda/cu_memory.h"

#include <stdlib.h>
#include <string.h>

/* A copy node moves at most this much: memcpy nodes take a pitch, and CUDA refuses pitches past
 * CU_DEVICE_ATTRIBUTE_MAX_PITCH (2^31 - 1 on current GPUs). */
#define CVCU_GRAPH_COPY_CHUNK ((size_t)1 << 30)

struct cvcu_graph {
    CUgraph graph;
    CUgraphExec exec;
    CUcontext ctx;
    struct cvcu_device *dev;
    unsigned generation;   /* dev's when the graph was made */
    cvcu_gate_spec *gates; /* one per wait node */
    size_t num_gates, cap_gates;
};

#define CVCU_NODE(n)     ((CUgraphNode)(n))
#define CVCU_NODES(d)    ((const CUgraphNode *)(d).nodes)
#define CVCU_OUT(o)      ((CUgraphNode *)(o))
#define CVCU_DEPS_ONE(n) ((cvcu_graph_deps){(cvcu_graph_node *const *)&(n), 1})

cl_int cvcu_graph_create(cvcu_device *dev, cvcu_graph **out) {
    cvcu_graph *g = calloc(1, sizeof *g);
    cl_int err = g ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS) {
        g->ctx = cvcu_device_context(dev);
        g->dev = dev;
        g->generation = cvcu_device_generation(dev);
        err = CVCU_CALL(cvcu.cuGraphCreate(&g->graph, 0), CL_OUT_OF_RESOURCES);
    }
    if (err != CL_SUCCESS) {
        free(g);
        g = NULL;
    }
    *out = g;
    return err;
}

/* An instance still in flight is freed by the driver once it completed. live: the graph's
 * context was neither lost nor reset since (a reset destroyed the graph with the rest). */
static void cvcu_graph_free(void *arg, bool live) {
    cvcu_graph *g = arg;
    if (live && g->exec)
        cvcu.cuGraphExecDestroy(g->exec);
    if (live)
        cvcu.cuGraphDestroy(g->graph);
    free(g->gates);
    free(g);
}

void cvcu_graph_destroy(cvcu_graph *g) {
    /* On the reaper thread, as the frees: whether these calls wait for the device, as
     * cuMemFree does, is not known. */
    if (g)
        cvcu_reap_call_later(cvcu_graph_free, g, g->dev, g->generation);
}

cl_int cvcu_graph_add_empty(cvcu_graph *g, cvcu_graph_deps deps, cvcu_graph_node **out) {
    return CVCU_CALL(cvcu.cuGraphAddEmptyNode(CVCU_OUT(out), g->graph, CVCU_NODES(deps), deps.n),
                     CL_OUT_OF_RESOURCES);
}

/* Several nodes as one: an empty node after them (one node is itself). */
static cl_int cvcu_graph_join(cvcu_graph *g, cvcu_graph_node **nodes, size_t n,
                              cvcu_graph_node **out) {
    if (n == 1) {
        *out = nodes[0];
        return CL_SUCCESS;
    }
    return cvcu_graph_add_empty(g, (cvcu_graph_deps){nodes, n}, out);
}

static CUDA_KERNEL_NODE_PARAMS cvcu_kernel_params(const cvcu_launch *l, void **params) {
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.func = (CUfunction)l->func;
    p.gridDimX = l->grid[0];
    p.gridDimY = l->grid[1];
    p.gridDimZ = l->grid[2];
    p.blockDimX = l->block[0];
    p.blockDimY = l->block[1];
    p.blockDimZ = l->block[2];
    p.sharedMemBytes = l->smem;
    p.kernelParams = params;
    return p;
}

/* Clusters and cooperative launch are node attributes (the instance keeps those it was made
 * with: core makes a new instance when they change). */
static cl_int cvcu_kernel_attributes(CUgraphNode node, const cvcu_launch *l) {
    bool cluster = l->cluster[0] | l->cluster[1] | l->cluster[2];
    CUresult r = CUDA_SUCCESS;
    CUkernelNodeAttrValue v;
    if ((cluster || l->cooperative) && !cvcu.cuGraphKernelNodeSetAttribute)
        r = CUDA_ERROR_NOT_SUPPORTED;
    if (r == CUDA_SUCCESS && cluster) {
        memset(&v, 0, sizeof v);
        v.clusterDim.x = l->cluster[0] ? l->cluster[0] : 1;
        v.clusterDim.y = l->cluster[1] ? l->cluster[1] : 1;
        v.clusterDim.z = l->cluster[2] ? l->cluster[2] : 1;
        r = cvcu.cuGraphKernelNodeSetAttribute(node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v);
    }
    if (r == CUDA_SUCCESS && l->cooperative) {
        memset(&v, 0, sizeof v);
        v.cooperative = 1;
        r = cvcu.cuGraphKernelNodeSetAttribute(node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v);
    }
    return r == CUDA_SUCCESS ? CL_SUCCESS : CVCU_CALL(r, CL_OUT_OF_RESOURCES);
}

cl_int cvcu_graph_add_kernel(cvcu_graph *g, const cvcu_launch *l, void **params,
                             cvcu_graph_deps deps, cvcu_graph_node **out) {
    CUDA_KERNEL_NODE_PARAMS p = cvcu_kernel_params(l, params);
    cl_int err =
        CVCU_CALL(cvcu.cuGraphAddKernelNode(CVCU_OUT(out), g->graph, CVCU_NODES(deps), deps.n, &p),
                  CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS)
        err = cvcu_kernel_attributes(CVCU_NODE(*out), l);
    return err;
}

cl_int cvcu_graph_update_kernel(cvcu_graph *g, cvcu_graph_node *node, const cvcu_launch *l,
                                void **params) {
    CUDA_KERNEL_NODE_PARAMS p = cvcu_kernel_params(l, params);
    return CVCU_CALL(cvcu.cuGraphExecKernelNodeSetParams(g->exec, CVCU_NODE(node), &p),
                     CL_OUT_OF_RESOURCES);
}

static cl_int cvcu_graph_add_memcpy(cvcu_graph *g, const CUDA_MEMCPY3D *m, cvcu_graph_deps deps,
                                    cvcu_graph_node **out) {
    return CVCU_CALL(
        cvcu.cuGraphAddMemcpyNode(CVCU_OUT(out), g->graph, CVCU_NODES(deps), deps.n, m, g->ctx),
        CL_OUT_OF_RESOURCES);
}

/* One row of bytes, device to device. */
static cl_int cvcu_graph_add_row(cvcu_graph *g, cl_ulong dst, cl_ulong src, size_t n,
                                 cvcu_graph_deps deps, cvcu_graph_node **out) {
    cvcu_rect_side d = {dst, NULL, {0, 0, 0}, n, n}, s = {src, NULL, {0, 0, 0}, n, n};
    const size_t region[3] = {n, 1, 1};
    CUDA_MEMCPY3D m;
    cvcu_rect_params(&m, &d, &s, region);
    return cvcu_graph_add_memcpy(g, &m, deps, out);
}

/* Operations of several nodes gather them here before the join. */
typedef struct cvcu_node_list {
    cvcu_graph_node **nodes;
    size_t n, cap;
} cvcu_node_list;

static cl_int cvcu_node_list_add(cvcu_node_list *list, cvcu_graph_node *node) {
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        cvcu_graph_node **grown = realloc(list->nodes, cap * sizeof *grown);
        if (!grown)
            return CL_OUT_OF_HOST_MEMORY;
        list->nodes = grown;
        list->cap = cap;
    }
    list->nodes[list->n++] = node;
    return CL_SUCCESS;
}

/* Joins the list (nothing in it: an empty node after deps) and frees it. */
static cl_int cvcu_node_list_join(cvcu_graph *g, cvcu_node_list *list, cl_int err,
                                  cvcu_graph_deps deps, cvcu_graph_node **out) {
    if (err == CL_SUCCESS && list->n == 0)
        err = cvcu_graph_add_empty(g, deps, out);
    else if (err == CL_SUCCESS)
        err = cvcu_graph_join(g, list->nodes, list->n, out);
    free(list->nodes);
    return err;
}

cl_int cvcu_graph_add_copy(cvcu_graph *g, cl_ulong dst, cl_ulong src, size_t n,
                           cvcu_graph_deps deps, cvcu_graph_node **out) {
    cvcu_node_list list = {0};
    cl_int err = CL_SUCCESS;
    for (size_t off = 0; off < n && err == CL_SUCCESS; off += CVCU_GRAPH_COPY_CHUNK) {
        size_t len = n - off < CVCU_GRAPH_COPY_CHUNK ? n - off : CVCU_GRAPH_COPY_CHUNK;
        cvcu_graph_node *node = NULL;
        err = cvcu_graph_add_row(g, dst + off, src + off, len, deps, &node);
        if (err == CL_SUCCESS)
            err = cvcu_node_list_add(&list, node);
    }
    return cvcu_node_list_join(g, &list, err, deps, out);
}

cl_int cvcu_graph_add_copy_rect(cvcu_graph *g, const cvcu_rect_side *dst, const cvcu_rect_side *src,
                                const size_t region[3], cvcu_graph_deps deps,
                                cvcu_graph_node **out) {
    CUDA_MEMCPY3D m;
    cvcu_rect_params(&m, dst, src, region);
    if (cvcu.cuGraphAddMemcpyNode(CVCU_OUT(out), g->graph, CVCU_NODES(deps), deps.n, &m, g->ctx) ==
        CUDA_SUCCESS)
        return CL_SUCCESS;
    /* Pitches CUDA refuses: row by row, as the stream's copy does. */
    cvcu_node_list list = {0};
    cl_int err = CL_SUCCESS;
    for (size_t z = 0; z < region[2] && err == CL_SUCCESS; z++)
        for (size_t y = 0; y < region[1] && err == CL_SUCCESS; y++) {
            cvcu_graph_node *node = NULL;
            err = cvcu_graph_add_row(g, dst->device + cvcu_rect_row_offset(dst, y, z),
                                     src->device + cvcu_rect_row_offset(src, y, z), region[0], deps,
                                     &node);
            if (err == CL_SUCCESS)
                err = cvcu_node_list_add(&list, node);
        }
    return cvcu_node_list_join(g, &list, err, deps, out);
}

static cl_int cvcu_graph_add_memset(cvcu_graph *g, const CUDA_MEMSET_NODE_PARAMS *p,
                                    cvcu_graph_deps deps, cvcu_graph_node **out) {
    return CVCU_CALL(
        cvcu.cuGraphAddMemsetNode(CVCU_OUT(out), g->graph, CVCU_NODES(deps), deps.n, p, g->ctx),
        CL_OUT_OF_RESOURCES);
}

cl_int cvcu_graph_add_fill(cvcu_graph *g, cl_ulong dst, const void *pattern, size_t pattern_size,
                           size_t n, cvcu_graph_deps deps, cvcu_graph_node **out) {
    const unsigned char *p = pattern;
    size_t size = cvcu_pattern_period(p, pattern_size);
    CUDA_MEMSET_NODE_PARAMS m;
    memset(&m, 0, sizeof m);
    m.dst = (CUdeviceptr)dst;
    if (n == 0)
        return cvcu_graph_add_empty(g, deps, out);
    if (size <= 4) {
        /* One memset of 1, 2 or 4-byte elements (the value's low bytes). */
        uint32_t v = 0;
        memcpy(&v, p, size);
        m.value = v;
        m.elementSize = (unsigned)size;
        m.width = n / size;
        m.height = 1;
        m.pitch = n;
        return cvcu_graph_add_memset(g, &m, deps, out);
    }
    /* 8 to 128 bytes, as cvcu_fill: each 32-bit word a 2D memset with the pattern as pitch over
     * a head, the head then doubled by copies, each after the one before. */
    size_t reps = n / size, head = cvcu_fill_head(reps, size);
    cvcu_node_list words = {0};
    cl_int err = CL_SUCCESS;
    for (size_t w = 0; w < size / 4 && err == CL_SUCCESS; w++) {
        uint32_t v;
        memcpy(&v, p + 4 * w, 4);
        m.dst = (CUdeviceptr)(dst + 4 * w);
        m.value = v;
        m.elementSize = 4;
        m.width = 1;
        m.height = head;
        m.pitch = size;
        cvcu_graph_node *node = NULL;
        err = cvcu_graph_add_memset(g, &m, deps, &node);
        if (err == CL_SUCCESS)
            err = cvcu_node_list_add(&words, node);
    }
    cvcu_graph_node *last = NULL;
    err = cvcu_node_list_join(g, &words, err, deps, &last);
    for (size_t done = head * size; done < n && err == CL_SUCCESS;) {
        size_t len = done < n - done ? done : n - done;
        cvcu_graph_node *prev = last;
        err = cvcu_graph_add_copy(g, dst + done, dst, len, CVCU_DEPS_ONE(prev), &last);
        done += len;
    }
    if (err == CL_SUCCESS)
        *out = last;
    return err;
}

static cl_int cvcu_graph_add_mem_op(cvcu_graph *g, CUstreamBatchMemOpParams *op,
                                    cvcu_graph_deps deps, cvcu_graph_node **out) {
    CUDA_BATCH_MEM_OP_NODE_PARAMS p = {g->ctx, 1, op, 0};
    if (!cvcu.cuGraphAddBatchMemOpNode)
        return CL_INVALID_OPERATION;
    return CVCU_CALL(
        cvcu.cuGraphAddBatchMemOpNode(CVCU_OUT(out), g->graph, CVCU_NODES(deps), deps.n, &p),
        CL_OUT_OF_RESOURCES);
}

cl_int cvcu_graph_add_wait_value(cvcu_graph *g, const cvcu_slot *slot, cl_ulong value,
                                 cvcu_wait_condition cond, const void *watch, cvcu_graph_deps deps,
                                 cvcu_graph_node **out) {
    if (g->num_gates == g->cap_gates) {
        size_t cap = g->cap_gates ? g->cap_gates * 2 : 4;
        cvcu_gate_spec *grown = realloc(g->gates, cap * sizeof *grown);
        if (!grown)
            return CL_OUT_OF_HOST_MEMORY;
        g->gates = grown;
        g->cap_gates = cap;
    }
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    op.waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
    op.waitValue.address = (CUdeviceptr)slot->device;
    op.waitValue.value64 = value;
    op.waitValue.flags = (unsigned)cond;
    cl_int err = cvcu_graph_add_mem_op(g, &op, deps, out);
    if (err == CL_SUCCESS)
        g->gates[g->num_gates++] = (cvcu_gate_spec){slot, value, cond, watch};
    return err;
}

cl_int cvcu_graph_add_write_value(cvcu_graph *g, cl_ulong address, cl_ulong value,
                                  cvcu_graph_deps deps, cvcu_graph_node **out) {
    CUstreamBatchMemOpParams op;
    memset(&op, 0, sizeof op);
    /* Flags 0: a memory fence before the write, as cuStreamWriteValue64 makes. */
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
    op.writeValue.address = (CUdeviceptr)address;
    op.writeValue.value64 = value;
    return cvcu_graph_add_mem_op(g, &op, deps, out);
}

cl_int cvcu_graph_instantiate(cvcu_graph *g) {
    CUgraphExec exec = NULL;
    cl_int err =
        CVCU_CALL(cvcu.cuGraphInstantiateWithFlags(&exec, g->graph, 0), CL_OUT_OF_RESOURCES);
    if (err == CL_SUCCESS) {
        if (g->exec)
            cvcu.cuGraphExecDestroy(g->exec);
        g->exec = exec;
    }
    return err;
}

typedef struct cvcu_launch_call {
    CUgraphExec exec;
    CUstream stream;
} cvcu_launch_call;

static CUresult cvcu_graph_launch_call(void *arg) {
    const cvcu_launch_call *c = arg;
    return cvcu.cuGraphLaunch(c->exec, c->stream);
}

cl_int cvcu_graph_launch(cvcu_graph *g, cvcu_stream *s, const void *queue) {
    cvcu_launch_call c = {g->exec, (CUstream)s};
    if (g->num_gates == 0)
        return CVCU_CALL(cvcu_graph_launch_call(&c), CL_OUT_OF_RESOURCES);
    return cvcu_gates_issue(c.stream, g->gates, g->num_gates, queue, cvcu_graph_launch_call, &c,
                            "cuGraphLaunch");
}
