/* Graphs: a graph is the list of its nodes in the order they were added (each after its
 * dependencies, so the order is a topological one), an instance a copy of that list, and a launch
 * queues the instance's nodes on the stream one after the other: copies, memsets and value
 * operations run on the stream's thread as the stream functions' do, kernel nodes record their
 * launch there and take a launch's stream time (launch_us), a kernel of FAKECUDA_FAULT_KERNEL
 * faulting after it (kernels do not run). What the driver checks is checked when a node is added
 * (its dependencies belong to the graph, no repeats; launches and value addresses as the stream
 * functions check them; memory nodes name the graph's context); an instance's kernel node takes
 * new parameters for later launches only. A graph belongs to the context current at its creation,
 * which must own the fake's resources (fake_need_ctx); one used after the reset or destruction of
 * its context (which destroyed it) aborts the test. */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MEM_OPS 8

typedef enum { NODE_EMPTY, NODE_KERNEL, NODE_OPS } node_kind;

struct CUgraphNode_st {
    node_kind kind;
    CUgraph graph;
    unsigned index;
    fakecuda_launch launch; /* NODE_KERNEL */
    CUfunction func;
    unsigned num_ops; /* NODE_OPS: stream operations */
    fake_op ops[MAX_MEM_OPS];
};

struct CUgraph_st {
    CUgraphNode *nodes;
    unsigned n, cap;
    unsigned generation; /* fake_generation when made */
    CUcontext ctx;       /* the context current then, the owner */
};

struct CUgraphExec_st {
    struct CUgraphNode_st *nodes; /* copies, by index */
    unsigned n;
    CUgraph graph;
    /* Recorded after each launch, waited for before the next. Never freed: a launch in flight
     * may still use it after cuGraphExecDestroy (the driver frees an instance once its launches
     * completed). */
    CUevent order;
    unsigned generation;
};

/* A graph or instance of a context that was reset since: the test aborts. */
static void check_generation(unsigned generation, const char *what) {
    if (generation != fake_generation) {
        fprintf(stderr, "fake: %s used after the context was reset\n", what);
        abort();
    }
}

#pragma GCC visibility push(default)

CUresult cuGraphCreate(CUgraph *out, unsigned flags) {
    FAKE_CALL;
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return CUDA_ERROR_OUT_OF_MEMORY;
    (*out)->generation = fake_generation;
    (*out)->ctx = (CUcontext)atomic_load(&fake_owner);
    fake_state.graphs_live++;
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph g) {
    FAKE_CALL;
    check_generation(g->generation, "a graph");
    for (unsigned i = 0; i < g->n; i++)
        free(g->nodes[i]);
    free(g->nodes);
    free(g);
    fake_state.graphs_live--;
    return CUDA_SUCCESS;
}

#pragma GCC visibility pop

/* A memory node's context: g's own (its generation checked first). */
static bool graph_context(CUgraph g, CUcontext ctx) {
    check_generation(g->generation, "a graph");
    return ctx == g->ctx;
}

/* A new node after deps: they must be nodes of g, each once. */
static CUresult add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
                         struct CUgraphNode_st *node) {
    check_generation(g->generation, "a graph");
    for (size_t i = 0; i < n; i++) {
        if (!deps[i] || deps[i]->graph != g)
            return CUDA_ERROR_INVALID_VALUE;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                return CUDA_ERROR_INVALID_VALUE;
    }
    if (g->n == g->cap) {
        unsigned cap = g->cap ? g->cap * 2 : 16;
        CUgraphNode *grown = realloc(g->nodes, cap * sizeof *grown);
        if (!grown)
            return CUDA_ERROR_OUT_OF_MEMORY;
        g->nodes = grown;
        g->cap = cap;
    }
    struct CUgraphNode_st *copy = malloc(sizeof *copy);
    if (!copy)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *copy = *node;
    fake_state.graph_edges += (unsigned)n;
    copy->graph = g;
    copy->index = g->n;
    g->nodes[g->n++] = copy;
    *out = copy;
    return CUDA_SUCCESS;
}

/* A kernel node's launch from its parameters, checked as cuLaunchKernel checks them. */
static CUresult kernel_launch(struct CUgraphNode_st *node, const CUDA_KERNEL_NODE_PARAMS *p,
                              const unsigned cluster[3], bool coop) {
    const unsigned grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
    const unsigned block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
    if (!p->func || p->extra)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r =
        fake_launch_check(p->func, grid, block, p->sharedMemBytes, p->kernelParams, cluster);
    if (r == CUDA_SUCCESS) {
        fake_launch_fill(&node->launch, p->func, grid, block, p->sharedMemBytes, p->kernelParams,
                         cluster, coop, false);
        node->launch.graph = true;
        node->func = p->func;
    }
    return r;
}

#pragma GCC visibility push(default)

CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n) {
    FAKE_CALL;
    struct CUgraphNode_st node = {.kind = NODE_EMPTY};
    return add_node(out, g, deps, n, &node);
}

CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
                              const CUDA_KERNEL_NODE_PARAMS *p) {
    FAKE_CALL;
    static const unsigned none[3] = {0, 0, 0};
    struct CUgraphNode_st node = {.kind = NODE_KERNEL};
    CUresult r = kernel_launch(&node, p, none, false);
    return r ? r : add_node(out, g, deps, n, &node);
}

CUresult cuGraphKernelNodeSetAttribute(CUgraphNode node, CUkernelNodeAttrID attr,
                                       const CUkernelNodeAttrValue *v) {
    FAKE_CALL;
    if (node->kind != NODE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    if (attr == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
        const unsigned c[3] = {v->clusterDim.x, v->clusterDim.y, v->clusterDim.z};
        for (int d = 0; d < 3; d++)
            if (!c[d] || node->launch.grid[d] % c[d])
                return CUDA_ERROR_INVALID_CLUSTER_SIZE;
        memcpy(node->launch.cluster, c, sizeof c);
    } else if (attr == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
        node->launch.cooperative = v->cooperative != 0;
    } else {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
                              const CUDA_MEMCPY3D *m, CUcontext ctx) {
    FAKE_CALL;
    if (!graph_context(g, ctx) || m->srcMemoryType != CU_MEMORYTYPE_DEVICE ||
        m->dstMemoryType != CU_MEMORYTYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (m->WidthInBytes > m->srcPitch || m->WidthInBytes > m->dstPitch ||
        m->Height > m->srcHeight || m->Height > m->dstHeight)
        return CUDA_ERROR_INVALID_VALUE;
    size_t last_row = ((m->Depth - 1) * m->srcHeight + m->Height - 1);
    fake_check_range(m->srcDevice, last_row * m->srcPitch + m->WidthInBytes);
    last_row = ((m->Depth - 1) * m->dstHeight + m->Height - 1);
    fake_check_range(m->dstDevice, last_row * m->dstPitch + m->WidthInBytes);
    struct CUgraphNode_st node = {.kind = NODE_OPS, .num_ops = 1};
    node.ops[0] = (fake_op){.kind = OP_COPY3D, .m3 = *m};
    return add_node(out, g, deps, n, &node);
}

CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
                              const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx) {
    FAKE_CALL;
    unsigned e = p->elementSize;
    if (!graph_context(g, ctx) || (e != 1 && e != 2 && e != 4) || !p->width || !p->height ||
        p->dst % e || (p->height > 1 && p->pitch < p->width * e))
        return CUDA_ERROR_INVALID_VALUE;
    fake_check_range(p->dst, (p->height - 1) * p->pitch + p->width * e);
    struct CUgraphNode_st node = {.kind = NODE_OPS, .num_ops = 1};
    node.ops[0] = (fake_op){.kind = OP_SET,
                            .dst = P(p->dst),
                            .value = p->value,
                            .esz = e,
                            .w = p->width,
                            .h = p->height,
                            .pitch = p->height > 1 ? p->pitch : 0};
    return add_node(out, g, deps, n, &node);
}

CUresult cuGraphAddBatchMemOpNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
                                  const CUDA_BATCH_MEM_OP_NODE_PARAMS *p) {
    FAKE_CALL;
    if (!graph_context(g, p->ctx) || !p->count || p->count > MAX_MEM_OPS || p->flags)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUgraphNode_st node = {.kind = NODE_OPS, .num_ops = p->count};
    for (unsigned i = 0; i < p->count; i++) {
        const CUstreamBatchMemOpParams *op = &p->paramArray[i];
        if (op->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64) {
            CUresult r = fake_value_address(op->waitValue.address);
            if (r)
                return r;
            node.ops[i] = (fake_op){.kind = OP_WAIT_VALUE,
                                    .addr = P(op->waitValue.address),
                                    .value = op->waitValue.value64,
                                    .flags = op->waitValue.flags};
        } else if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64) {
            CUresult r = fake_value_address(op->writeValue.address);
            if (r)
                return r;
            node.ops[i] = (fake_op){.kind = OP_WRITE_VALUE,
                                    .addr = P(op->writeValue.address),
                                    .value = op->writeValue.value64};
        } else {
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    return add_node(out, g, deps, n, &node);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph g, unsigned long long flags) {
    FAKE_CALL;
    check_generation(g->generation, "a graph");
    CUresult r = fake_need_ctx();
    if (r)
        return r;
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUgraphExec_st *e = calloc(1, sizeof *e);
    if (e && g->n)
        e->nodes = malloc(g->n * sizeof *e->nodes);
    if (e)
        e->order = calloc(1, sizeof *e->order);
    if (!e || (g->n && !e->nodes) || !e->order) {
        if (e) {
            free(e->nodes);
            free(e->order);
        }
        free(e);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < g->n; i++)
        e->nodes[i] = *g->nodes[i];
    e->n = g->n;
    e->graph = g;
    e->generation = fake_generation;
    e->order->generation = fake_generation;
    *out = e;
    fake_state.graph_execs_live++;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec e, CUgraphNode node,
                                        const CUDA_KERNEL_NODE_PARAMS *p) {
    FAKE_CALL;
    check_generation(e->generation, "a graph instance");
    if (node->graph != e->graph || node->index >= e->n || node->kind != NODE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUgraphNode_st *mine = &e->nodes[node->index];
    /* The instance keeps the node's function (another is refused) and its attributes. */
    if (p->func != mine->func)
        return CUDA_ERROR_INVALID_VALUE;
    return kernel_launch(mine, p, mine->launch.cluster, mine->launch.cooperative);
}

CUresult cuGraphExecDestroy(CUgraphExec e) {
    FAKE_CALL;
    check_generation(e->generation, "a graph instance");
    free(e->nodes);
    free(e);
    fake_state.graph_execs_live--;
    return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec e, CUstream s) {
    FAKE_CALL;
    check_generation(e->generation, "a graph instance");
    CUresult sticky = fake_need_ctx();
    if (sticky)
        return sticky;
    /* after the instance's last launch, and the record for the next; a kernel node: its record,
     * its stream time and its fault */
    size_t count = 2;
    for (unsigned i = 0; i < e->n; i++)
        count += e->nodes[i].kind == NODE_KERNEL ? 3 : e->nodes[i].num_ops;
    unsigned us = fake_launch_us();
    fake_op *ops = calloc(count, sizeof *ops);
    CUresult r = ops ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    size_t k = 0;
    if (ops)
        ops[k++] = (fake_op){.kind = OP_WAIT_EVENT, .ev = e->order};
    for (unsigned i = 0; r == CUDA_SUCCESS && i < e->n; i++) {
        const struct CUgraphNode_st *node = &e->nodes[i];
        if (node->kind == NODE_KERNEL) {
            /* The launch as the instance holds it now: later updates reach later launches. */
            ops[k].kind = OP_LAUNCH;
            ops[k].launch = malloc(sizeof *ops[k].launch);
            r = ops[k].launch ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
            if (ops[k].launch)
                *ops[k++].launch = node->launch;
            if (us)
                ops[k++] = (fake_op){.kind = OP_KERNEL, .n = us};
            if (fake_launch_faults(node->launch.func))
                ops[k++] = (fake_op){.kind = OP_FAULT};
        }
        for (unsigned j = 0; node->kind == NODE_OPS && j < node->num_ops; j++)
            ops[k++] = node->ops[j];
    }
    if (r == CUDA_SUCCESS) {
        ops[k++] = (fake_op){.kind = OP_RECORD, .ev = e->order};
        r = fake_enqueue_all(s, ops, k);
    }
    if (r == CUDA_SUCCESS)
        fake_state.graph_launches++;
    for (size_t i = 0; r != CUDA_SUCCESS && i < k; i++)
        free(ops[i].launch);
    free(ops);
    return r;
}

#pragma GCC visibility pop
