/* cl_kernel objects: creation from a built program, arguments, clones, info queries. */
#include "core/kernel.h"
#include "core/image.h"
#include "core/sampler.h"
#include "core/usm.h"
#include "core/mem.h"
#include "core/backend.h"
#include "core/program_function.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

static void cv_kernel_destroy(cv_object *obj) {
    cl_kernel k = (cl_kernel)obj;
    cl_context ctx = k->context;
    atomic_fetch_sub(&k->program->kernel_objects, 1);
    cv_unhold(&k->program->obj);
    free(k->fns);
    free(k->args);
    free(k->values);
    free(k->params);
    free(k);
    cv_context_unhold(ctx, CV_PART_KERNEL);
}

static uint32_t cv_align_up32(uint32_t v, uint32_t a) {
    return (v + a - 1) / a * a;
}

static size_t cv_align_up(size_t v, size_t a) {
    return (v + a - 1) / a * a;
}

/* Lays the __local slices out after the extra shared memory and writes each slice's offset as
 * its argument's value (docs/kernel-abi.md). */
static void cv_kernel_layout_local(cl_kernel k) {
    size_t off = cv_align_up(k->extra_smem, 16);
    for (uint32_t i = 0; k->has_local && i < k->num_args; i++) {
        cv_kernel_arg *a = &k->args[i];
        if (a->kind != CV_ARG_LOCAL)
            continue;
        off = cv_align_up(off, a->slice_align);
        if (a->size == 4) {
            uint32_t v = (uint32_t)off;
            memcpy(k->values + a->offset, &v, 4);
        } else {
            uint64_t v = off;
            memcpy(k->values + a->offset, &v, 8);
        }
        off += a->local_size;
    }
    k->smem = k->has_local ? off : k->extra_smem;
}

/* The argument kinds from the signature: PTX address spaces, then //cv:arg lines. */
static cv_arg_kind cv_arg_kind_of(const cv_ptx_kernel *sig, uint32_t i) {
    const cv_ptx_param *p = &sig->params[i];
    cv_arg_kind kind = CV_ARG_VALUE;
    const char *type = sig->arg_info ? sig->arg_info[i].type_name : NULL;
    /* An access qualifier is an image's (or a pipe's, which no culvert device has), whatever the
     * type's name: a typedef's, or a struct's that starts like an image type's. */
    cl_kernel_arg_access_qualifier access = sig->arg_info ? sig->arg_info[i].access : 0;
    bool qualified = access == CL_KERNEL_ARG_ACCESS_READ_ONLY ||
                     access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY ||
                     access == CL_KERNEL_ARG_ACCESS_READ_WRITE;
    if (qualified && p->size == sizeof(uint64_t))
        kind = CV_ARG_IMAGE;
    else if (type && strcmp(type, "sampler_t") == 0 && p->size == sizeof(uint64_t))
        kind = CV_ARG_SAMPLER;
    else if (p->space == CV_PTX_PTR_SHARED)
        kind = CV_ARG_LOCAL;
    else if (p->space != CV_PTX_NOT_PTR)
        kind = CV_ARG_MEM;
    else if (sig->arg_info && (sig->arg_info[i].address == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
                               sig->arg_info[i].address == CL_KERNEL_ARG_ADDRESS_CONSTANT))
        kind = CV_ARG_MEM;
    else if (!sig->arg_info && p->size == sizeof(cl_mem))
        kind = CV_ARG_MAYBE_MEM;
    return kind;
}

/* Allocates the argument tables for a signature. */
static cl_int cv_kernel_alloc_args(cl_kernel k, const cv_ptx_kernel *sig, bool launch_info) {
    uint32_t n = sig->num_params, size = 0;
    k->num_args = n;
    k->args = calloc(n ? n : 1, sizeof *k->args);
    k->params = calloc(n + 1, sizeof *k->params);
    for (uint32_t i = 0; k->args && i < n; i++) {
        cv_kernel_arg *a = &k->args[i];
        const cv_ptx_param *p = &sig->params[i];
        a->kind = cv_arg_kind_of(sig, i);
        a->access = sig->arg_info ? sig->arg_info[i].access : CL_KERNEL_ARG_ACCESS_NONE;
        a->size = p->size;
        a->offset = cv_align_up32(size, p->align ? p->align : 1);
        a->slice_align = p->ptr_align > 16 ? p->ptr_align : 16;
        size = a->offset + p->size;
        k->has_local |= a->kind == CV_ARG_LOCAL;
        k->ro_images += a->kind == CV_ARG_IMAGE && a->access == CL_KERNEL_ARG_ACCESS_READ_ONLY;
    }
    k->ro_untextured = k->ro_images;
    k->values = calloc(1, size ? size : 1);
    if (!k->args || !k->params || !k->values)
        return CL_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; i++)
        k->params[i] = k->values + k->args[i].offset;
    k->unset = n;
    k->launch_info = launch_info;
    return CL_SUCCESS;
}

static cl_kernel cv_kernel_alloc(cl_program p, cl_int *err) {
    cl_kernel k = calloc(1, sizeof *k);
    if (k)
        k->fns = calloc(p->num_devices ? p->num_devices : 1, sizeof *k->fns);
    if (!k || !k->fns) {
        free(k);
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    cv_object_init(&k->obj, CV_TAG_KERNEL, cv_kernel_destroy);
    k->program = p;
    k->context = p->context;
    cv_context_hold(k->context, CV_PART_KERNEL);
    cv_hold(&p->obj);
    atomic_fetch_add(&p->kernels, 1);
    atomic_fetch_add(&p->kernel_objects, 1);
    *err = CL_SUCCESS;
    return k;
}

void cv_kernel_release(cl_kernel k) {
    if (cv_release_last(&k->obj)) {
        /* Detached from its program (which may now be built again), though a launch in flight
         * may still hold it. */
        atomic_fetch_sub(&k->program->kernels, 1);
        cv_unhold(&k->obj);
    }
}

cl_kernel cv_kernel_create(cl_program p, const char *name, cl_int *err) {
    const cv_program_device *first = NULL;
    cl_kernel k = NULL;
    pthread_mutex_lock(&p->lock);
    /* "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program." */
    *err =
        cv_program_has_executable(p) && !p->building ? CL_SUCCESS : CL_INVALID_PROGRAM_EXECUTABLE;
    if (*err == CL_SUCCESS)
        k = cv_kernel_alloc(p, err);
    for (cl_uint i = 0; k && *err == CL_SUCCESS && i < p->num_devices; i++) {
        cv_program_device *pd = &p->devs[i];
        if (!pd->module)
            continue;
        cv_program_function *f = cv_program_function_of(pd, name);
        /* "CL_INVALID_KERNEL_NAME if kernel_name is not found in program." */
        if (!f)
            *err = CL_INVALID_KERNEL_NAME;
        /* "CL_INVALID_KERNEL_DEFINITION if the function definition for __kernel function given
         * by kernel_name such as the number of arguments, the argument types are not the same
         * for all devices for which the program executable has been built." */
        else if (first && f->sig->num_params != k->sig->num_params)
            *err = CL_INVALID_KERNEL_DEFINITION;
        if (*err == CL_SUCCESS && !first) {
            first = pd;
            k->sig = f->sig;
            *err = cv_kernel_alloc_args(k, f->sig, pd->ptx.launch_info);
        }
        k->fns[i] = f;
    }
    pthread_mutex_unlock(&p->lock);
    if (k && *err != CL_SUCCESS) {
        cv_kernel_release(k);
        k = NULL;
    }
    return k;
}

cl_kernel cv_kernel_clone(cl_kernel src, cl_int *err) {
    cl_program p = src->program;
    cl_kernel k = cv_kernel_alloc(p, err);
    if (k) {
        memcpy(k->fns, src->fns, p->num_devices * sizeof *k->fns);
        k->sig = src->sig;
        *err = cv_kernel_alloc_args(k, src->sig, src->launch_info);
    }
    if (k && *err == CL_SUCCESS) {
        /* "... a copy of the source kernel, including the arguments set" and its exec info. */
        memcpy(k->args, src->args, src->num_args * sizeof *k->args);
        uint32_t size = 0;
        for (uint32_t i = 0; i < k->num_args; i++)
            size = k->args[i].offset + k->args[i].size;
        memcpy(k->values, src->values, size);
        k->unset = src->unset;
        k->ro_untextured = src->ro_untextured;
        k->has_local = src->has_local;
        k->smem = src->smem;
        k->extra_smem = src->extra_smem;
        memcpy(k->cluster, src->cluster, sizeof k->cluster);
        k->cooperative = src->cooperative;
    } else if (k) {
        cv_kernel_release(k);
        k = NULL;
    }
    return k;
}

cl_kernel cv_kernel_snapshot(cl_kernel src, cl_int *err) {
    cl_kernel k = cv_kernel_clone(src, err);
    if (k) {
        cv_hold(&k->obj);
        cv_kernel_release(k);
    }
    return k;
}

cv_program_function *cv_kernel_function(cl_kernel k, cl_device_id d) {
    cl_program p = k->program;
    for (cl_uint i = 0; i < p->num_devices; i++)
        if (p->devs[i].device == d)
            return k->fns[i];
    return NULL;
}

/* Is v the address of a live culvert cl_mem? An nvcc pointer parameter is a plain 64-bit value:
 * the 8 bytes given are either a cl_mem handle or a number, and a number must never be
 * dereferenced. The object header is read through process_vm_readv, which fails (instead of
 * faulting) on unmapped addresses. */
static bool cv_probe_mem(uint64_t v) {
    if (v < 4096 || (v & 7) || v >= (1ull << 56))
        return false;
    cv_object head;
    struct iovec local = {&head, sizeof head}, remote = {(void *)(uintptr_t)v, sizeof head};
    ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (got < 0 && errno != EFAULT) {
        /* No process_vm_readv here (seccomp): ask whether the page is mapped instead. */
        long page = sysconf(_SC_PAGESIZE);
        unsigned char vec;
        uintptr_t base = (uintptr_t)v & ~(uintptr_t)(page - 1);
        bool mapped = mincore((void *)base, 1, &vec) == 0;
        if (mapped && ((uintptr_t)v + sizeof head - 1) / page == base / page) {
            memcpy(&head, (const void *)(uintptr_t)v, sizeof head);
            got = sizeof head;
        }
    }
    return got == (ssize_t)sizeof head && head.dispatch == &cv_dispatch && head.tag == CV_TAG_MEM &&
           atomic_load(&head.refcount) > 0;
}

cl_int cv_kernel_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." */
    if (index >= k->num_args)
        return CL_INVALID_ARG_INDEX;
    cv_kernel_arg *a = &k->args[index];
    cv_arg_kind kind = a->kind;
    cl_mem mem = NULL;
    if (kind == CV_ARG_MAYBE_MEM && size == sizeof(cl_mem)) {
        uint64_t v = 0;
        if (value)
            memcpy(&v, value, sizeof v);
        /* A NULL arg_value is a NULL buffer; a live cl_mem is a buffer; anything else a value.
         * The handle this argument had before is a handle like any other (no probe needed). */
        bool same = a->mem && (uint64_t)(uintptr_t)a->mem == v && cv_is_mem(a->mem);
        kind = (!value || same || cv_probe_mem(v)) ? CV_ARG_MEM : CV_ARG_VALUE;
    }
    switch (kind) {
    case CV_ARG_LOCAL:
        /* "CL_INVALID_ARG_VALUE if arg_value specified is not NULL for an argument declared with
         * the __local qualifier." */
        if (value)
            err = CL_INVALID_ARG_VALUE;
        /* "CL_INVALID_ARG_SIZE if ... the argument is declared with the __local qualifier and
         * arg_size is zero." */
        else if (size == 0)
            err = CL_INVALID_ARG_SIZE;
        else {
            a->local_size = size;
            cv_kernel_layout_local(k);
        }
        break;
    case CV_ARG_MEM:
        /* "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an
         * argument that is not a memory object or if the argument is a memory object and
         * arg_size != sizeof(cl_mem)" */
        if (size != sizeof(cl_mem))
            err = CL_INVALID_ARG_SIZE;
        else if (value)
            mem = *(const cl_mem *)value;
        /* "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
         * specified arg_value is not a valid memory object" (nor one of this context). A NULL
         * buffer is allowed: "If the argument is a buffer object, the arg_value pointer can be
         * NULL or point to a NULL value". */
        if (err == CL_SUCCESS && mem &&
            (!cv_is_mem(mem) || mem->context != k->context || mem->kind == CV_MEM_IMAGE))
            err = CL_INVALID_MEM_OBJECT;
        if (err == CL_SUCCESS) {
            uint64_t addr = mem ? mem->device_address : 0;
            memcpy(k->values + a->offset, &addr, sizeof addr);
        }
        break;
    case CV_ARG_IMAGE:
        /* "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
         * sizeof(cl_mem)" */
        if (size != sizeof(cl_mem))
            err = CL_INVALID_ARG_SIZE;
        /* "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value": an image argument
         * needs an image. */
        else if (!value)
            err = CL_INVALID_ARG_VALUE;
        else
            mem = *(const cl_mem *)value;
        /* "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
         * specified arg_value is not a valid memory object" (an image of this context) */
        if (err == CL_SUCCESS &&
            (!cv_is_mem(mem) || mem->context != k->context || mem->kind != CV_MEM_IMAGE))
            err = CL_INVALID_MEM_OBJECT;
        /* "CL_INVALID_ARG_VALUE if the argument is an image declared with the read_only
         * qualifier and arg_value refers to an image object created with cl_mem_flags of
         * CL_MEM_WRITE_ONLY or if the image argument is declared with the write_only qualifier
         * and arg_value refers to an image object created with cl_mem_flags of
         * CL_MEM_READ_ONLY." */
        else if (err == CL_SUCCESS && ((a->access == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
                                        (mem->flags & CL_MEM_WRITE_ONLY)) ||
                                       (a->access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
                                        (mem->flags & CL_MEM_READ_ONLY))))
            err = CL_INVALID_ARG_VALUE;
        /* "CL_OUT_OF_RESOURCES if there is a failure to allocate resources required by the
         * OpenCL implementation on the device": the image's descriptor, made at its first
         * binding. */
        if (err == CL_SUCCESS)
            err = cv_image_bind(mem, a->access == CL_KERNEL_ARG_ACCESS_READ_ONLY);
        if (err == CL_SUCCESS && a->access == CL_KERNEL_ARG_ACCESS_READ_ONLY) {
            bool textured = mem->image->texture[0] != 0;
            if (textured != a->textured)
                k->ro_untextured += textured ? (uint32_t)-1 : 1;
            a->textured = textured;
        }
        if (err == CL_SUCCESS)
            memcpy(k->values + a->offset, &mem->device_address, sizeof(uint64_t));
        break;
    case CV_ARG_SAMPLER: {
        cl_sampler s = NULL;
        /* "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an
         * argument that is not a memory object" (a sampler_t's is sizeof(cl_sampler)) */
        if (size != sizeof(cl_sampler))
            err = CL_INVALID_ARG_SIZE;
        else if (value)
            s = *(const cl_sampler *)value;
        /* "CL_INVALID_SAMPLER for an argument declared to be of type sampler_t when the
         * specified arg_value is not a valid sampler object." */
        if (err == CL_SUCCESS && (!cv_is_sampler(s) || s->context != k->context))
            err = CL_INVALID_SAMPLER;
        if (err == CL_SUCCESS)
            memcpy(k->values + a->offset, &s->bits, sizeof s->bits);
        break;
    }
    default:
        /* "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type" */
        if (size != a->size)
            err = CL_INVALID_ARG_SIZE;
        /* "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value." */
        else if (!value)
            err = CL_INVALID_ARG_VALUE;
        else
            memcpy(k->values + a->offset, value, size);
        break;
    }
    if (err == CL_SUCCESS) {
        a->mem = mem;
        if (!a->set)
            k->unset--;
        a->set = true;
    }
    return err;
}

cl_int cv_kernel_set_arg_pointer(cl_kernel k, cl_uint index, const void *ptr) {
    cl_int err = CL_SUCCESS;
    cv_kernel_arg *a = index < k->num_args ? &k->args[index] : NULL;
    uint64_t v = (uint64_t)(uintptr_t)ptr;
    /* "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index." */
    if (!a)
        err = CL_INVALID_ARG_INDEX;
    /* "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value": the argument is no
     * global or constant pointer (a __local one, an image, a sampler, or a value of another
     * size). */
    else if (a->kind == CV_ARG_LOCAL || a->kind == CV_ARG_IMAGE || a->kind == CV_ARG_SAMPLER ||
             a->size != sizeof v)
        err = CL_INVALID_ARG_VALUE;
    if (err == CL_SUCCESS) {
        /* The pointer itself, valid on every device (one address: core/usm.h); no buffer. */
        memcpy(k->values + a->offset, &v, sizeof v);
        a->mem = NULL;
        if (!a->set)
            k->unset--;
        a->set = true;
    }
    return err;
}

cl_int cv_kernel_info(cl_kernel k, cl_kernel_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_KERNEL_FUNCTION_NAME:
        err = cv_info_str(out, k->sig->name);
        break;
    case CL_KERNEL_NUM_ARGS:
        err = cv_info_uint(out, k->num_args);
        break;
    case CL_KERNEL_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&k->obj));
        break;
    case CL_KERNEL_CONTEXT:
        err = cv_info_ptr(out, k->context);
        break;
    case CL_KERNEL_PROGRAM:
        err = cv_info_ptr(out, k->program);
        break;
    case CL_KERNEL_ATTRIBUTES:
        err = cv_info_str(out, k->sig->attributes ? k->sig->attributes : "");
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

cl_int cv_kernel_arg_info(cl_kernel k, cl_uint index, cl_kernel_arg_info param,
                          const cv_info *out) {
    cl_int err;
    /* "CL_INVALID_ARG_INDEX if arg_indx is not a valid argument index." */
    if (index >= k->num_args)
        return CL_INVALID_ARG_INDEX;
    /* "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available for
     * kernel." A SPIR-V module's kernels name no parameters: their qualifiers only classify
     * arguments. */
    if (!k->sig->arg_info_named)
        return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    const cv_ptx_arg_info *a = &k->sig->arg_info[index];
    switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        err = cv_info_uint(out, a->address);
        break;
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        err = cv_info_uint(out, a->access);
        break;
    case CL_KERNEL_ARG_TYPE_NAME:
        err = cv_info_str(out, a->type_name);
        break;
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        err = cv_info_ulong(out, a->type_qualifier);
        break;
    case CL_KERNEL_ARG_NAME:
        err = cv_info_str(out, a->name);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

/* The kernel's function on `device`, or on its only device when device is NULL. */
static cl_int cv_kernel_device_function(cl_kernel k, cl_device_id *device,
                                        cv_program_function **f) {
    cl_program p = k->program;
    *f = NULL;
    if (!*device && p->num_devices == 1)
        *device = p->devs[0].device;
    /* "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or if
     * device is NULL but there is more than one device associated with kernel." */
    if (!*device || !cv_program_device_of(p, *device))
        return CL_INVALID_DEVICE;
    *f = cv_kernel_function(k, *device);
    return *f ? CL_SUCCESS : CL_INVALID_PROGRAM_EXECUTABLE;
}

cl_int cv_kernel_work_group_info(cl_kernel k, cl_device_id device, cl_kernel_work_group_info param,
                                 const cv_info *out) {
    cv_program_function *f;
    cl_int err = cv_kernel_device_function(k, &device, &f);
    if (err != CL_SUCCESS)
        return err;
    switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE:
        err = cv_info_size(out, (size_t)f->attrs.max_threads);
        break;
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        err = cv_info_bytes(out, k->sig->reqd_work_group_size, sizeof k->sig->reqd_work_group_size);
        break;
    case CL_KERNEL_LOCAL_MEM_SIZE:
        /* static __local variables plus the __local arguments' slices set so far */
        err = cv_info_ulong(out, (cl_ulong)f->attrs.static_smem + k->smem);
        break;
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        err = cv_info_size(out, device->props->warp_size ? device->props->warp_size : 32);
        break;
    case CL_KERNEL_PRIVATE_MEM_SIZE:
        err = cv_info_ulong(out, (cl_ulong)f->attrs.local_bytes);
        break;
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        /* "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a
         * custom device and kernel is not a built-in kernel." */
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

cl_int cv_kernel_sub_group_info(cl_kernel k, cl_device_id device, cl_kernel_sub_group_info param,
                                size_t in_size, const void *in, const cv_info *out) {
    cv_program_function *f;
    cl_int err = cv_kernel_device_function(k, &device, &f);
    cl_uint max_sub_groups = 0;
    if (err == CL_SUCCESS)
        err = cv_device_info(device, CL_DEVICE_MAX_NUM_SUB_GROUPS,
                             &CV_INFO(sizeof max_sub_groups, &max_sub_groups, NULL));
    /* "CL_INVALID_OPERATION if device does not support subgroups." */
    if (err == CL_SUCCESS && max_sub_groups == 0)
        err = CL_INVALID_OPERATION;
    if (err != CL_SUCCESS)
        return err;
    size_t warp = device->props->warp_size ? device->props->warp_size : 32;
    size_t max_wg = (size_t)f->attrs.max_threads;
    size_t local_total = 1;
    switch (param) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
        /* "CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
         * CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE ... and the size in bytes specified by
         * input_value_size is not valid or if input_value is NULL." */
        if (!in || in_size == 0 || in_size % sizeof(size_t) || in_size > 3 * sizeof(size_t)) {
            err = CL_INVALID_VALUE;
            break;
        }
        for (size_t i = 0; i < in_size / sizeof(size_t); i++)
            local_total *= ((const size_t *)in)[i];
        if (param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
            err = cv_info_size(out, local_total < warp ? local_total : warp);
        else
            err = cv_info_size(out, (local_total + warp - 1) / warp);
        break;
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        if (!in || in_size != sizeof(size_t)) {
            err = CL_INVALID_VALUE;
            break;
        }
        /* The local size is an array of param_value_size / sizeof(size_t) dimensions. */
        size_t dims = out->size / sizeof(size_t), count = *(const size_t *)in;
        size_t local[3] = {count * warp, 1, 1};
        if (count == 0 || count * warp > max_wg)
            local[0] = local[1] = local[2] = 0;
        if (dims == 0 || dims > 3)
            err = out->value ? CL_INVALID_VALUE : cv_info_bytes(out, local, sizeof(size_t));
        else
            err = cv_info_bytes(out, local, dims * sizeof(size_t));
        break;
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
        err = cv_info_size(out, (max_wg + warp - 1) / warp);
        break;
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
        err = cv_info_size(out, 0);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

cl_int cv_kernel_exec_info(cl_kernel k, cl_kernel_exec_info param, size_t size, const void *value) {
    cl_int err = CL_SUCCESS;
    cl_context ctx = k->context;
    bool clusters = true, cooperative = true;
    bool svm = cv_usm_context_svm_caps(ctx) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    for (cl_uint i = 0; i < ctx->num_devices; i++) {
        clusters &= ctx->devices[i]->props->cluster_launch;
        cooperative &= ctx->devices[i]->props->cooperative_launch;
    }
    switch (param) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
        /* "CL_INVALID_OPERATION if no devices in the context associated with kernel support
         * SVM." / "CL_INVALID_VALUE if ... param_value is NULL or if the size specified by
         * param_value_size is not valid." Every SVM allocation is reachable from every kernel
         * as it is (one address, managed memory): the list needs no keeping. */
        if (!svm)
            err = CL_INVALID_OPERATION;
        else if ((size && !value) || size % sizeof(void *))
            err = CL_INVALID_VALUE;
        break;
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        /* Fine-grained system SVM (any malloc'ed pointer) is not claimed: "CL_INVALID_OPERATION
         * if param_name is CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM and param_value is CL_TRUE
         * but no devices in context associated with kernel support fine-grain system SVM
         * allocations." */
        if (!svm)
            err = CL_INVALID_OPERATION;
        else if (!value || size != sizeof(cl_bool))
            err = CL_INVALID_VALUE;
        else if (*(const cl_bool *)value)
            err = CL_INVALID_OPERATION;
        break;
    case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL:
    case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
    case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
    case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL: {
        /* USM: every allocation is reachable from every kernel as it is (one address), so the
         * lists and the indirect-access switches need no keeping. "CL_INVALID_OPERATION if ...
         * no devices in the context associated with kernel support [that kind of] Unified
         * Shared Memory" / "CL_INVALID_VALUE if ... param_value is NULL or if the size specified
         * by param_value_size is not valid." */
        cv_usm_type type = param == CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL ? CV_USM_HOST
                           : param == CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL
                               ? CV_USM_SHARED
                               : CV_USM_DEVICE;
        bool any = false;
        for (cl_uint i = 0; i < ctx->num_devices; i++)
            any |= cv_usm_caps(ctx->devices[i], type) != 0;
        if (!any)
            err = CL_INVALID_OPERATION;
        else if (param == CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL)
            err = (size && !value) || size % sizeof(void *) ? CL_INVALID_VALUE : CL_SUCCESS;
        else
            err = !value || size != sizeof(cl_bool) ? CL_INVALID_VALUE : CL_SUCCESS;
        break;
    }
    case CL_KERNEL_EXEC_INFO_CLUSTER_DIMS_CULVERT: {
        /* "CL_INVALID_VALUE if ... param_value_size is not valid" */
        if (!value || size != 3 * sizeof(size_t)) {
            err = CL_INVALID_VALUE;
            break;
        }
        const size_t *d = value;
        bool none = (d[0] | d[1] | d[2]) == 0 || (d[0] == 1 && d[1] == 1 && d[2] == 1);
        size_t blocks = d[0] * d[1] * d[2];
        if (!none && !clusters)
            err = CL_INVALID_OPERATION;
        /* Hopper: up to 8 blocks portably, 16 with the non-portable opt-in. */
        else if (!none && (d[0] == 0 || d[1] == 0 || d[2] == 0 || blocks > 16))
            err = CL_INVALID_VALUE;
        /* A kernel compiled with cluster dimensions takes no others. */
        else if (!none && k->sig->cluster_dims[0] &&
                 (d[0] != k->sig->cluster_dims[0] || d[1] != k->sig->cluster_dims[1] ||
                  d[2] != k->sig->cluster_dims[2]))
            err = CL_INVALID_VALUE;
        for (cl_uint i = 0; err == CL_SUCCESS && !none && blocks > 8 && i < k->program->num_devices;
             i++)
            if (k->fns[i]) {
                err = cvcu_device_bind(k->program->devs[i].device->cu);
                if (err == CL_SUCCESS)
                    err = cvcu_function_allow_large_clusters(k->fns[i]->func);
            }
        if (err == CL_SUCCESS)
            for (int i = 0; i < 3; i++)
                k->cluster[i] = none ? 0 : (uint32_t)d[i];
        break;
    }
    case CL_KERNEL_EXEC_INFO_EXTRA_SHARED_MEMORY_CULVERT:
        if (!value || size != sizeof(size_t) || *(const size_t *)value > UINT32_MAX) {
            err = CL_INVALID_VALUE;
        } else {
            k->extra_smem = *(const size_t *)value;
            cv_kernel_layout_local(k);
        }
        break;
    case CL_KERNEL_EXEC_INFO_COOPERATIVE_CULVERT:
        if (!value || size != sizeof(cl_bool))
            err = CL_INVALID_VALUE;
        else if (*(const cl_bool *)value && !cooperative)
            err = CL_INVALID_OPERATION;
        else
            k->cooperative = *(const cl_bool *)value != CL_FALSE;
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}
