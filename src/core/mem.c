/* Buffers and sub-buffers: where their bytes live, maps, destructor callbacks, queries.
 *
 * A buffer owns a backing: one device allocation per device of its context, made on first use
 * (the first device's at creation, so mem->device_address is always valid for single-device
 * contexts and for device 0), and a mask of the devices whose copy holds the latest contents.
 * A command on another device allocates there and copies the contents over first
 * (cv_mem_locate). Sub-buffers have no backing: they view their parent's at an offset. */
#include "core/mem.h"
#include "core/image.h"
#include "core/command.h"
#include "core/usm.h"
#include "util/log.h"
#include "core/backend.h"

#include <stdlib.h>
#include <string.h>

typedef struct cv_mem_backing {
    cl_ulong *address; /* per device of the context; 0 until allocated there */
    uint64_t valid;    /* bit i: device i's copy holds the latest contents */
    void *shadow;      /* host copy that maps return (not for USE_HOST_PTR), made on first map */
    bool shadow_pinned;
    bool registered; /* USE_HOST_PTR memory registered with CUDA (pinned speed) */
    bool retired;    /* ... and given up by the application (cvcu_host_retire) */
} cv_mem_backing;

typedef struct cv_mapping {
    void *ptr;
    size_t offset, size; /* within the mapped object */
    bool write;          /* the unmap writes the region back */
    struct cv_mapping *next;
} cv_mapping;

/* Guards backings (allocation, validity), mapping lists and destructor lists: none of them is
 * on a hot path that a per-object lock would speed up. */
static pthread_mutex_t cv_mem_lock = PTHREAD_MUTEX_INITIALIZER;

/* Contexts of more devices than this keep buffers on the first 64 only. */
#define CV_MEM_MAX_DEVICES 64

static void cv_mem_free_parts(cl_mem m) {
    cv_mem_backing *b = m->backing;
    if (m->image)
        cv_image_free(m->image);
    if (b) {
        for (cl_uint i = 0; i < m->context->num_devices && b->address; i++)
            cvcu_mem_free(m->context->devices[i]->cu, b->address[i]);
        if (b->registered || b->shadow_pinned)
            cvcu_device_bind(m->context->devices[0]->cu);
        if (b->registered && !b->retired)
            cvcu_host_retire(m->host_ptr, m->size);
        if (b->registered)
            cvcu_host_unregister(m->host_ptr);
        if (b->shadow_pinned)
            cvcu_host_free(b->shadow);
        else
            free(b->shadow);
        free(b->address);
        free(b);
    }
    for (cv_mapping *p = m->mappings, *next; p; p = next) {
        next = p->next;
        free(p);
    }
    free(m->properties);
}

void cv_mem_release(cl_mem m) {
    if (!cv_release_last(&m->obj))
        return;
    /* The application's memory is its own again at once, though commands in flight may hold
     * the buffer a while longer: no copy DMAs it through the buffer's registration any more. */
    cv_mem_backing *b = m->backing;
    if (b && b->registered) {
        b->retired = true;
        cvcu_host_retire(m->host_ptr, m->size);
    }
    cv_unhold(&m->obj);
}

/* The kind destroy of buffers, sub-buffers and images. */
static void cv_buffer_destroy(cv_object *obj) {
    cl_mem m = (cl_mem)obj;
    cl_context ctx = m->context;
    cv_mem_free_parts(m);
    free(m);
    cv_context_unhold(ctx, CV_PART_MEM);
}

/* obj.destroy of every cl_mem with destructor callbacks: "the registered user callback functions
 * are called in the reverse order in which they were registered", after the memory is freed.
 * The handle passed to them is no longer valid, as the spec expects. */
static void cv_mem_destroy(cv_object *obj) {
    cl_mem m = (cl_mem)obj;
    cv_mem_destructor *list = m->destructors;
    cv_destroy_fn kind_destroy = m->kind_destroy;
    /* A sub-buffer's parent goes after the sub-buffer's own callbacks. */
    cl_mem parent = m->kind == CV_MEM_SUB_BUFFER ? m->parent : NULL;
    m->destructors = NULL;
    kind_destroy(obj);
    for (cv_mem_destructor *d = list, *next; d; d = next) {
        next = d->next;
        d->fn(m, d->user_data);
        free(d);
    }
    if (parent)
        cv_unhold(&parent->obj);
}

cl_int cv_mem_add_destructor(cl_mem m, cv_mem_destructor_fn fn, void *user_data) {
    cv_mem_destructor *d = malloc(sizeof *d);
    cl_int err = d ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (d) {
        d->fn = fn;
        d->user_data = user_data;
        pthread_mutex_lock(&cv_mem_lock);
        /* Host values come with their own destroy: wrap it (safe: the caller's reference
         * keeps the object from being destroyed meanwhile). */
        if (m->obj.destroy != cv_mem_destroy) {
            m->kind_destroy = m->obj.destroy;
            m->obj.destroy = cv_mem_destroy;
        }
        d->next = m->destructors;
        m->destructors = d;
        pthread_mutex_unlock(&cv_mem_lock);
    }
    return err;
}

cl_mem cv_mem_new(cl_context ctx, cv_mem_kind kind, cl_mem_flags flags, size_t size) {
    cl_mem m = calloc(1, sizeof *m);
    if (m) {
        cv_object_init(&m->obj, CV_TAG_MEM, cv_mem_destroy);
        m->kind_destroy = cv_buffer_destroy;
        m->context = ctx;
        cv_context_hold(ctx, CV_PART_MEM);
        m->kind = kind;
        m->flags = flags;
        m->size = size;
    }
    return m;
}

/* Copies host_ptr into the new buffer's first device copy, synchronously (the buffer is not
 * visible to anyone yet), through the same fast paths as a blocking write. */
cl_int cv_mem_upload(cl_mem m, const void *src) {
    cl_device_id dev = m->context->devices[0];
    cvcu_host_copy c = {.dev = dev->cu, .blocking = true};
    cl_int err = cvcu_copy_to_device(&c, m->device_address, src, m->size);
    if (err == CL_SUCCESS)
        err = cvcu_stream_sync(NULL);
    return err;
}

/* CL_MEM_USE_HOST_PTR of an SVM or USM pointer: "If host_ptr is a pointer returned by clSVMAlloc
 * ... the memory object uses it" (OpenCL 2.0+): the allocation's bytes are the buffer's, on the
 * host and every device alike (one address). */
static cl_mem cv_buffer_on_usm(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                               const cl_mem_properties *props, size_t num_props, cl_int *err) {
    cl_mem m = cv_mem_new(ctx, CV_MEM_BUFFER, flags, size);
    *err = m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (m) {
        m->usm = true;
        m->host_ptr = host_ptr;
        m->device_address = (cl_ulong)(uintptr_t)host_ptr;
        m->properties = num_props ? calloc(num_props, sizeof *props) : NULL;
        if (num_props && !m->properties)
            *err = CL_OUT_OF_HOST_MEMORY;
    }
    if (*err == CL_SUCCESS && num_props) {
        memcpy(m->properties, props, num_props * sizeof *props);
        m->num_properties = num_props;
    }
    if (*err != CL_SUCCESS && m) {
        cv_release(&m->obj);
        m = NULL;
    }
    return m;
}

cl_mem cv_buffer_create(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                        const cl_mem_properties *props, size_t num_props, cl_int *err) {
    if ((flags & CL_MEM_USE_HOST_PTR) && cv_usm_range(ctx, host_ptr, size, NULL))
        return cv_buffer_on_usm(ctx, flags, size, host_ptr, props, num_props, err);
    cl_mem m = cv_mem_new(ctx, CV_MEM_BUFFER, flags, size);
    cv_mem_backing *b = m ? calloc(1, sizeof *b) : NULL;
    *err = b ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (m)
        m->backing = b;
    if (b) {
        b->address = calloc(ctx->num_devices, sizeof *b->address);
        m->properties = num_props ? calloc(num_props, sizeof *props) : NULL;
        if (!b->address || (num_props && !m->properties))
            *err = CL_OUT_OF_HOST_MEMORY;
    }
    if (*err == CL_SUCCESS && num_props) {
        memcpy(m->properties, props, num_props * sizeof *props);
        m->num_properties = num_props;
    }
    if (*err == CL_SUCCESS)
        *err = cvcu_device_bind(ctx->devices[0]->cu);
    if (*err == CL_SUCCESS)
        *err = cvcu_mem_alloc(size, &b->address[0]);
    if (*err == CL_SUCCESS) {
        m->device_address = b->address[0];
        b->valid = 1;
    }
    if (*err == CL_SUCCESS && (flags & CL_MEM_USE_HOST_PTR)) {
        m->host_ptr = host_ptr;
        /* Pinned where CUDA allows (maps and copies at DMA speed); staged otherwise. */
        b->registered = cvcu_host_register(host_ptr, size) == CL_SUCCESS;
    }
    if (*err == CL_SUCCESS && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        *err = cv_mem_upload(m, host_ptr);
    if (*err != CL_SUCCESS && m) {
        cv_release(&m->obj);
        m = NULL;
    }
    return m;
}

cl_mem cv_sub_buffer_create(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size,
                            cl_int *err) {
    cl_mem m = cv_mem_new(parent->context, CV_MEM_SUB_BUFFER, flags, size);
    *err = m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (m) {
        m->parent = parent;
        cv_hold(&parent->obj);
        m->offset = origin;
        m->device_address = parent->device_address + origin;
        /* "If memobj is created with clCreateSubBuffer ... return host_ptr + origin" */
        m->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + origin : NULL;
    }
    return m;
}

static cl_uint cv_mem_device_index(cl_context ctx, cl_device_id dev) {
    cl_uint i = 0;
    while (i + 1 < ctx->num_devices && ctx->devices[i] != dev)
        i++;
    return i;
}

cl_int cv_mem_locate(cl_mem m, cv_command *cmd, bool will_write, cl_ulong *address) {
    cl_mem root = cv_mem_root(m);
    cv_mem_backing *b = root->backing;
    cl_int err = CL_SUCCESS;
    cl_uint d = cv_mem_device_index(root->context, cmd->queue->device);
    if (!b || d >= CV_MEM_MAX_DEVICES) {
        /* Host values: mapped host memory every device reaches at the same address. */
        *address = m->device_address;
        return err;
    }
    uint64_t bit = (uint64_t)1 << d;
    pthread_mutex_lock(&cv_mem_lock);
    if (!b->address[d])
        err = cvcu_mem_alloc(root->size, &b->address[d]);
    if (err == CL_SUCCESS && !(b->valid & bit)) {
        /* The contents are elsewhere: copy them over, in this command's stream order (the
         * application ordered the other device's writers before it with events). */
        cl_uint src = 0;
        while (src < root->context->num_devices && !(b->valid & ((uint64_t)1 << src)))
            src++;
        if (src < root->context->num_devices)
            err = cvcu_copy_device(cmd->stream, b->address[d], b->address[src], root->size);
        if (err == CL_SUCCESS)
            b->valid |= bit;
    }
    if (err == CL_SUCCESS && will_write)
        b->valid = bit;
    pthread_mutex_unlock(&cv_mem_lock);
    if (err == CL_SUCCESS)
        *address = b->address[d] + cv_mem_root_offset(m);
    return err;
}

cl_int cv_mem_address_on(cl_mem m, cl_device_id dev, cl_ulong *address) {
    cl_mem root = cv_mem_root(m);
    cv_mem_backing *b = root->backing;
    cl_int err = CL_SUCCESS;
    cl_uint d = cv_mem_device_index(root->context, dev);
    if (!b || d >= CV_MEM_MAX_DEVICES) {
        *address = m->device_address;
        return err;
    }
    pthread_mutex_lock(&cv_mem_lock);
    if (!b->address[d])
        err = cvcu_mem_alloc(root->size, &b->address[d]);
    pthread_mutex_unlock(&cv_mem_lock);
    if (err == CL_SUCCESS)
        *address = b->address[d] + cv_mem_root_offset(m);
    return err;
}

cl_int cv_mem_map_begin(cl_mem m, size_t offset, size_t size, cl_map_flags flags, void **ptr) {
    cl_mem root = cv_mem_root(m);
    cv_mem_backing *b = root->backing;
    cv_mapping *map = calloc(1, sizeof *map);
    cl_int err = map ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    char *base = NULL;
    pthread_mutex_lock(&cv_mem_lock);
    if (err == CL_SUCCESS && b && !(root->flags & CL_MEM_USE_HOST_PTR) && !b->shadow) {
        /* Pinned so the map's copies are plain DMA; kept for the next maps. ALLOC_HOST_PTR's
         * too is made here, not at creation: pinning costs tens of microseconds to milliseconds,
         * which buffers and images never mapped (kernels read device memory) would pay, and
         * pinned memory is the host's scarcest. */
        b->shadow_pinned = cvcu_host_alloc(root->size, &b->shadow) == CL_SUCCESS;
        if (!b->shadow_pinned)
            b->shadow = malloc(root->size);
    }
    /* CL_MEM_USE_HOST_PTR: "the pointer value returned by clEnqueueMapBuffer ... will be
     * derived from the host_ptr specified when the buffer object is created" (host values:
     * their memory is host memory already) */
    if (err == CL_SUCCESS)
        base = (root->flags & CL_MEM_USE_HOST_PTR) || !b ? root->host_ptr : b->shadow;
    /* "CL_MAP_FAILURE if there is a failure to map the requested region into the host address
     * space." */
    if (err == CL_SUCCESS && !base)
        err = CL_MAP_FAILURE;
    if (err == CL_SUCCESS) {
        map->ptr = base + cv_mem_root_offset(m) + offset;
        map->offset = offset;
        map->size = size;
        map->write = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
        map->next = m->mappings;
        m->mappings = map;
        m->map_count++;
        *ptr = map->ptr;
    } else {
        free(map);
    }
    pthread_mutex_unlock(&cv_mem_lock);
    return err;
}

/* Unlinks the mapping of ptr (the newest one, when a region is mapped more than once). */
static cv_mapping *cv_mem_unlink_mapping(cl_mem m, void *ptr) {
    cv_mapping **p = &m->mappings;
    while (*p && (*p)->ptr != ptr)
        p = &(*p)->next;
    cv_mapping *found = *p;
    if (found) {
        *p = found->next;
        m->map_count--;
    }
    return found;
}

cl_int cv_mem_map_end(cl_mem m, void *ptr, size_t *offset, size_t *size, bool *write) {
    pthread_mutex_lock(&cv_mem_lock);
    cv_mapping *map = cv_mem_unlink_mapping(m, ptr);
    pthread_mutex_unlock(&cv_mem_lock);
    /* "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer or
     * clEnqueueMapImage for memobj." */
    cl_int err = map ? CL_SUCCESS : CL_INVALID_VALUE;
    if (map) {
        *offset = map->offset;
        *size = map->size;
        *write = map->write;
        free(map);
    }
    return err;
}

void cv_mem_map_cancel(cl_mem m, void *ptr) {
    pthread_mutex_lock(&cv_mem_lock);
    free(cv_mem_unlink_mapping(m, ptr));
    pthread_mutex_unlock(&cv_mem_lock);
}

cl_int cv_mem_info(cl_mem m, cl_mem_info param, const cv_info *out) {
    cl_int err;
    bool host_value = m->kind == CV_MEM_HOST_VALUE;
    switch (param) {
    case CL_MEM_TYPE:
        err = cv_info_uint(out, m->image ? m->image->desc.image_type : CL_MEM_OBJECT_BUFFER);
        break;
    case CL_MEM_FLAGS:
        err = cv_info_ulong(out, m->flags);
        break;
    case CL_MEM_SIZE:
        err = cv_info_size(out, host_value ? sizeof(cl_ulong) : m->size);
        break;
    case CL_MEM_HOST_PTR:
        err = cv_info_ptr(out, m->host_ptr);
        break;
    case CL_MEM_MAP_COUNT:
        pthread_mutex_lock(&cv_mem_lock);
        /* An image's maps are its pixels' (core/image_transfer.c). */
        err = cv_info_uint(out, m->image ? m->image->pixels->map_count : m->map_count);
        pthread_mutex_unlock(&cv_mem_lock);
        break;
    case CL_MEM_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&m->obj));
        break;
    case CL_MEM_CONTEXT:
        err = cv_info_ptr(out, m->context);
        break;
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        /* Sub-buffers: their buffer; images on a buffer: that buffer. */
        err = cv_info_ptr(out, m->kind == CV_MEM_SUB_BUFFER ? m->parent
                               : m->image                   ? m->image->desc.mem_object
                                                            : NULL);
        break;
    case CL_MEM_OFFSET:
        err = cv_info_size(out, m->kind == CV_MEM_SUB_BUFFER ? m->offset : 0);
        break;
    case CL_MEM_USES_SVM_POINTER:
        /* "CL_TRUE if memobj is a buffer object that was created with CL_MEM_USE_HOST_PTR or is
         * a sub-buffer object of a buffer object that was created with CL_MEM_USE_HOST_PTR and
         * the host_ptr specified when the buffer object was created is a SVM pointer" */
        err = cv_info_bool(out, cv_mem_root(m)->usm &&
                                        cv_usm_find(m->context, m->host_ptr).type == CV_USM_SVM
                                    ? CL_TRUE
                                    : CL_FALSE);
        break;
    case CL_MEM_PROPERTIES:
        err = cv_info_bytes(out, m->properties, m->num_properties * sizeof *m->properties);
        break;
    case CL_MEM_IS_HOST_VALUE_CULVERT:
        err = cv_info_bool(out, host_value ? CL_TRUE : CL_FALSE);
        break;
    case CL_MEM_HOST_VALUE_DEVICE_ADDRESS_CULVERT:
        /* "CL_INVALID_VALUE if param_name is not valid" for memory other than host values. */
        err = host_value ? cv_info_ulong(out, m->device_address) : CL_INVALID_VALUE;
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
