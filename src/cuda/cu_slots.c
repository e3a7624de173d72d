/* The host flags' slots (core/backend.h: cvcu_slot) and the GPU's writes to them. The GPU's
 * waits on them, the gates, are cu_gates.c's.
 *
 * Each device has a pool of slots carved from pinned pages allocated in its context. The
 * device's recovery (cuda/cu_device.h) frees the pages: the pool forgets them first, their nodes
 * stay allocated (a slot freed afterwards is dropped), and their gates are forgotten. */
#include "cuda/cu_device.h"
#include "cuda/cu_driver.h"
#include "cuda/cu_gates.h"

#include <pthread.h>
#include <stdlib.h>

/* One pinned page holds this many slots, each with a node of its own (the free ones listed). */
#define CVCU_SLOT_PAGE  4096
#define CVCU_SLOTS_PAGE (CVCU_SLOT_PAGE / sizeof(uint64_t))

typedef struct cvcu_slot_page {
    uint64_t *host;
    CUdeviceptr device;
    struct cvcu_slot_pool *pool;
    bool retired; /* freed by a reset of the pool's device */
    struct cvcu_slot_page *next;
} cvcu_slot_page;

/* A slot's node: the slot handed out while in use, linked into the free list while not. */
typedef struct cvcu_slot_node {
    cvcu_slot slot;
    cvcu_slot_page *page;
    struct cvcu_slot_node *next;
} cvcu_slot_node;

struct cvcu_slot_pool {
    cvcu_slot_page *pages;
    cvcu_slot_node *free;
};

static pthread_mutex_t cvcu_slot_lock = PTHREAD_MUTEX_INITIALIZER;

static cl_int cvcu_slot_grow(struct cvcu_slot_pool *pool) {
    void *host = NULL;
    CUdeviceptr dev = 0;
    cvcu_slot_page *page = calloc(1, sizeof *page);
    cvcu_slot_node *list = calloc(CVCU_SLOTS_PAGE, sizeof *list);
    cl_int err = page && list ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = CVCU_CALL(cvcu.cuMemHostAlloc(&host, CVCU_SLOT_PAGE,
                                            CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE),
                        CL_OUT_OF_HOST_MEMORY);
    if (err == CL_SUCCESS) {
        err = CVCU_CALL(cvcu.cuMemHostGetDevicePointer(&dev, host, 0), CL_OUT_OF_RESOURCES);
        if (err != CL_SUCCESS)
            cvcu.cuMemFreeHost(host);
    }
    if (err != CL_SUCCESS) {
        free(page);
        free(list);
        return err;
    }
    page->host = host;
    page->device = dev;
    page->pool = pool;
    page->next = pool->pages;
    pool->pages = page;
    /* The nodes live as long as the page. */
    for (size_t i = 0; i < CVCU_SLOTS_PAGE; i++) {
        list[i].slot.host = (_Atomic uint64_t *)&page->host[i];
        list[i].slot.device = (cl_ulong)(dev + i * sizeof(uint64_t));
        list[i].page = page;
        list[i].next = i + 1 < CVCU_SLOTS_PAGE ? &list[i + 1] : pool->free;
    }
    pool->free = list;
    return CL_SUCCESS;
}

cl_int cvcu_slot_alloc(cvcu_device *dev, cvcu_slot **out) {
    cl_int err = CL_SUCCESS;
    *out = NULL;
    pthread_mutex_lock(&cvcu_slot_lock);
    if (!dev->slots) {
        dev->slots = calloc(1, sizeof *dev->slots);
        err = dev->slots ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    struct cvcu_slot_pool *pool = dev->slots;
    if (err == CL_SUCCESS && !pool->free)
        err = cvcu_slot_grow(pool);
    if (err == CL_SUCCESS) {
        cvcu_slot_node *n = pool->free;
        pool->free = n->next;
        n->next = NULL;
        *out = &n->slot;
        atomic_store_explicit(n->slot.host, 0, memory_order_release);
    }
    pthread_mutex_unlock(&cvcu_slot_lock);
    return err;
}

void cvcu_slot_free(cvcu_slot *slot) {
    if (!slot)
        return;
    cvcu_gates_forget_slot(slot);
    /* slot is the first member of its node. */
    cvcu_slot_node *n = (cvcu_slot_node *)slot;
    pthread_mutex_lock(&cvcu_slot_lock);
    if (!n->page->retired) {
        n->next = n->page->pool->free;
        n->page->pool->free = n;
    }
    pthread_mutex_unlock(&cvcu_slot_lock);
}

void cvcu_slots_forget_device(struct cvcu_device *dev) {
    pthread_mutex_lock(&cvcu_slot_lock);
    struct cvcu_slot_pool *pool = dev->slots;
    for (cvcu_slot_page *p = pool ? pool->pages : NULL; p; p = p->next) {
        p->retired = true;
        cvcu_gates_forget_range(p->host, CVCU_SLOT_PAGE);
    }
    if (pool) {
        pool->pages = NULL;
        pool->free = NULL;
    }
    pthread_mutex_unlock(&cvcu_slot_lock);
}

cl_int cvcu_stream_write_value(cvcu_stream *s, cl_ulong address, cl_ulong value) {
    return CVCU_CALL(cvcu.cuStreamWriteValue64((CUstream)s, (CUdeviceptr)address, value, 0),
                     CL_OUT_OF_RESOURCES);
}
