/* cl_program objects: creation, info queries, release. Builds are in program_build.c. */
#include "core/program.h"
#include "compiler/compiler.h"
#include "util/log.h"
#include "core/backend.h"
#include "core/program_function.h"

#include <stdlib.h>
#include <string.h>

/* A device's loaded module, its functions and the parsed PTX they point into. */
typedef struct cv_program_retired {
    cl_device_id device;
    struct cvcu_module *module;
    cv_program_function *functions;
    cv_ptx_module ptx;
    struct cv_program_retired *next;
    struct cv_program_twins *twins;
} cv_program_retired;

static void cv_program_module_free(cv_program_retired *m) {
    cv_program_twins_free(m->twins);
    if (m->module) {
        cvcu_device_bind(m->device->cu);
        cvcu_module_unload(m->module);
    }
    /* PTX: the parsed module; cubin/fatbin: the signatures read from the driver. */
    cv_ptx_free(&m->ptx);
    free(m->functions);
}

static void cv_program_free_retired(cl_program p) {
    for (cv_program_retired *r = p->retired, *next; r; r = next) {
        next = r->next;
        cv_program_module_free(r);
        free(r);
    }
    p->retired = NULL;
}

void cv_program_device_unload(cl_program p, cv_program_device *pd, bool keep_ptx) {
    cv_program_retired m = {pd->device, pd->module, pd->functions, {0}, NULL, pd->twins};
    if (!keep_ptx) {
        m.ptx = pd->ptx;
        memset(&pd->ptx, 0, sizeof pd->ptx);
        pd->binary_is_ptx = false;
    }
    pd->module = NULL;
    pd->functions = NULL;
    pd->num_functions = 0;
    pd->twins = NULL;
    /* Kernel objects are made only between builds: their count only falls meanwhile. */
    bool in_use = atomic_load(&p->kernel_objects) > 0;
    if (!in_use)
        cv_program_free_retired(p);
    cv_program_retired *keep = in_use && m.module ? malloc(sizeof *keep) : NULL;
    if (keep) {
        *keep = m;
        keep->next = p->retired;
        p->retired = keep;
    } else {
        cv_program_module_free(&m); /* (unused, or no memory to keep it) */
    }
}

static void cv_program_device_clear(cv_program_device *pd) {
    cv_program_retired m = {pd->device, pd->module, pd->functions, pd->ptx, NULL, pd->twins};
    cv_program_module_free(&m);
    pd->twins = NULL;
    free(pd->binary);
    free(pd->log);
    free(pd->options);
    memset(&pd->ptx, 0, sizeof pd->ptx);
    pd->module = NULL;
    pd->functions = NULL;
    pd->num_functions = 0;
    pd->binary = NULL;
    pd->log = NULL;
    pd->options = NULL;
}

static void cv_program_destroy(cv_object *obj) {
    cl_program p = (cl_program)obj;
    for (cl_uint i = 0; i < p->num_devices; i++)
        cv_program_device_clear(&p->devs[i]);
    cv_program_free_retired(p);
    free(p->devs);
    free(p->source);
    free(p->il);
    free(p->spec);
    free(p->spec_values);
    free(p->spec_set);
    free(p->kernel_names);
    pthread_mutex_destroy(&p->lock);
    cv_context_unhold(p->context, CV_PART_PROGRAM);
    free(p);
}

cl_program cv_program_alloc(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
                            cl_int *err) {
    cl_program p = calloc(1, sizeof *p);
    if (p)
        p->devs = calloc(num_devices ? num_devices : 1, sizeof *p->devs);
    if (!p || !p->devs) {
        free(p);
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    cv_object_init(&p->obj, CV_TAG_PROGRAM, cv_program_destroy);
    pthread_mutex_init(&p->lock, NULL);
    p->context = ctx;
    cv_context_hold(ctx, CV_PART_PROGRAM);
    p->num_devices = num_devices;
    for (cl_uint i = 0; i < num_devices; i++) {
        p->devs[i].device = devices[i];
        p->devs[i].status = CL_BUILD_NONE;
        p->devs[i].binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    }
    *err = CL_SUCCESS;
    return p;
}

cl_program cv_program_create_with_source(cl_context ctx, cl_uint count, const char **strings,
                                         const size_t *lengths, cl_int *err) {
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++)
        total += (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    char *src = malloc(total + 1);
    cl_program p = src ? cv_program_alloc(ctx, ctx->num_devices, ctx->devices, err) : NULL;
    if (!p) {
        *err = CL_OUT_OF_HOST_MEMORY;
        free(src);
        return NULL;
    }
    size_t o = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t l = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
        memcpy(src + o, strings[i], l);
        o += l;
    }
    src[o] = '\0';
    p->source = src;
    p->source_len = o;
    return p;
}

bool cv_program_il_supported(void) {
    return cvc_il_available();
}

cl_program cv_program_create_with_il(cl_context ctx, const void *il, size_t length, cl_int *err) {
    unsigned char *copy = malloc(length);
    cvc_spec_constant *spec = NULL;
    size_t n = 0;
    *err = copy ? cvc_spirv_spec_constants(il, length, &spec, &n) : CL_OUT_OF_HOST_MEMORY;
    uint64_t *values = *err == CL_SUCCESS ? calloc(n ? n : 1, sizeof *values) : NULL;
    bool *set = values ? calloc(n ? n : 1, sizeof *set) : NULL;
    if (*err == CL_SUCCESS && !set)
        *err = CL_OUT_OF_HOST_MEMORY;
    cl_program p =
        *err == CL_SUCCESS ? cv_program_alloc(ctx, ctx->num_devices, ctx->devices, err) : NULL;
    if (!p) {
        free(copy);
        free(spec);
        free(values);
        free(set);
        return NULL;
    }
    memcpy(copy, il, length);
    p->il = copy;
    p->il_len = length;
    p->spec = spec;
    p->spec_values = values;
    p->spec_set = set;
    p->num_spec = n;
    return p;
}

cl_int cv_program_set_spec_constant(cl_program p, cl_uint id, size_t size, const void *value) {
    cl_int err = CL_INVALID_SPEC_ID;
    pthread_mutex_lock(&p->lock);
    for (size_t i = 0; i < p->num_spec; i++) {
        if (p->spec[i].id != id)
            continue;
        /* "CL_INVALID_VALUE if spec_size does not match the size of the specialization
         * constant in the module" */
        err = size == p->spec[i].size ? CL_SUCCESS : CL_INVALID_VALUE;
        if (err == CL_SUCCESS) {
            uint64_t v = 0;
            memcpy(&v, value, size); /* little endian: the low bytes */
            p->spec_values[i] = v;
            p->spec_set[i] = true;
        }
        break;
    }
    pthread_mutex_unlock(&p->lock);
    return err;
}

/* What kind of binary this is: PTX, a CUDA image, an LLVM bitcode object, or none. */
typedef enum { CV_BIN_INVALID, CV_BIN_PTX, CV_BIN_CUDA, CV_BIN_OBJECT } cv_bin_kind;

static cv_bin_kind cv_binary_kind(const unsigned char *b, size_t n) {
    static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'};
    static const unsigned char fatbin[4] = {0x50, 0xed, 0x55, 0xba};
    static const unsigned char bitcode[4] = {'B', 'C', 0xc0, 0xde};
    static const unsigned char wrapper[4] = {0xde, 0xc0, 0x17, 0x0b};
    cv_bin_kind k = CV_BIN_INVALID;
    if (n >= 4 && (memcmp(b, elf, 4) == 0 || memcmp(b, fatbin, 4) == 0))
        k = CV_BIN_CUDA;
    else if (n >= 4 && (memcmp(b, bitcode, 4) == 0 || memcmp(b, wrapper, 4) == 0))
        k = CV_BIN_OBJECT;
    else if (cv_ptx_is_text(b, n))
        k = CV_BIN_PTX;
    return k;
}

/* Takes one device's binary; CL_INVALID_BINARY when it is none culvert loads. */
static cl_int cv_program_set_binary(cv_program_device *pd, const unsigned char *b, size_t n) {
    cv_bin_kind kind = cv_binary_kind(b, n);
    cl_int err = kind == CV_BIN_INVALID ? CL_INVALID_BINARY : CL_SUCCESS;
    if (kind == CV_BIN_PTX) {
        while (n && b[n - 1] == '\0')
            n--;
        char msg[256];
        err = cv_ptx_parse((const char *)b, n, &pd->ptx, msg, sizeof msg);
        if (err != CL_SUCCESS)
            cvu_log(CVU_LOG_ERROR, "invalid PTX binary: %s", msg);
        pd->binary_is_ptx = err == CL_SUCCESS;
    }
    if (err == CL_SUCCESS) {
        /* PTX keeps a terminator: applications print saved binaries as strings. */
        pd->binary = malloc(n + 1);
        if (!pd->binary)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS) {
        memcpy(pd->binary, b, n);
        pd->binary[n] = '\0';
        pd->binary_size = kind == CV_BIN_PTX ? n + 1 : n;
        /* An object says whether it is a library (compiler.h). */
        pd->binary_type = kind != CV_BIN_OBJECT  ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                          : cvc_is_library(b, n) ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                                 : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    } else if (pd->binary_is_ptx) {
        cv_ptx_free(&pd->ptx);
        pd->binary_is_ptx = false;
    }
    return err;
}

cl_program cv_program_create_with_binary(cl_context ctx, cl_uint num_devices,
                                         const cl_device_id *devices, const size_t *lengths,
                                         const unsigned char **binaries, cl_int *binary_status,
                                         cl_int *err) {
    cl_program p = cv_program_alloc(ctx, num_devices, devices, err);
    for (cl_uint i = 0; p && i < num_devices; i++) {
        cl_int e;
        /* "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero
         * or binaries[i] is NULL." */
        if (!lengths[i] || !binaries[i])
            e = CL_INVALID_VALUE;
        else
            e = cv_program_set_binary(&p->devs[i], binaries[i], lengths[i]);
        if (binary_status)
            binary_status[i] = e;
        if (*err == CL_SUCCESS && e != CL_SUCCESS)
            *err = e;
    }
    if (p && *err != CL_SUCCESS) {
        cv_release(&p->obj);
        p = NULL;
    }
    return p;
}

cv_program_device *cv_program_device_of(cl_program p, cl_device_id d) {
    for (cl_uint i = 0; i < p->num_devices; i++)
        if (p->devs[i].device == d)
            return &p->devs[i];
    return NULL;
}

bool cv_program_has_executable(cl_program p) {
    for (cl_uint i = 0; i < p->num_devices; i++)
        if (p->devs[i].module)
            return true;
    return false;
}

cv_program_function *cv_program_function_of(cv_program_device *pd, const char *name) {
    for (uint32_t i = 0; i < pd->num_functions; i++)
        if (strcmp(pd->functions[i].sig->name, name) == 0)
            return &pd->functions[i];
    return NULL;
}

const char *cv_program_kernel_name(cl_program p, size_t i) {
    const cv_program_device *pd = NULL;
    for (cl_uint d = 0; d < p->num_devices && !pd; d++)
        if (p->devs[d].module)
            pd = &p->devs[d];
    return pd && i < pd->num_functions ? pd->functions[i].sig->name : NULL;
}

static cl_int cv_program_binaries(cl_program p, const cv_info *out) {
    size_t n = p->num_devices * sizeof(unsigned char *);
    cl_int err = CL_SUCCESS;
    /* param_value is an array of pointers the application allocated, one per device. */
    if (out->value && out->size < n)
        err = CL_INVALID_VALUE;
    for (cl_uint i = 0; err == CL_SUCCESS && out->value && i < p->num_devices; i++) {
        unsigned char *dst = ((unsigned char **)out->value)[i];
        if (dst && p->devs[i].binary)
            memcpy(dst, p->devs[i].binary, p->devs[i].binary_size);
    }
    if (err == CL_SUCCESS && out->size_ret)
        *out->size_ret = n;
    return err;
}

cl_int cv_program_info(cl_program p, cl_program_info param, const cv_info *out) {
    cl_int err;
    switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT:
        err = cv_info_uint(out, cv_refcount(&p->obj));
        break;
    case CL_PROGRAM_CONTEXT:
        err = cv_info_ptr(out, p->context);
        break;
    case CL_PROGRAM_NUM_DEVICES:
        err = cv_info_uint(out, p->num_devices);
        break;
    case CL_PROGRAM_DEVICES:
    case CL_PROGRAM_BINARY_SIZES: {
        /* One entry per device, from the per-device table. */
        size_t *vals = calloc(p->num_devices ? p->num_devices : 1, sizeof(size_t));
        pthread_mutex_lock(&p->lock);
        for (cl_uint i = 0; vals && i < p->num_devices; i++) {
            const cv_program_device *pd = &p->devs[i];
            vals[i] = param == CL_PROGRAM_DEVICES ? (size_t)pd->device
                                                  : (pd->binary ? pd->binary_size : 0);
        }
        pthread_mutex_unlock(&p->lock);
        err =
            vals ? cv_info_bytes(out, vals, p->num_devices * sizeof *vals) : CL_OUT_OF_HOST_MEMORY;
        free(vals);
        break;
    }
    case CL_PROGRAM_SOURCE:
        err = cv_info_str(out, p->source ? p->source : "");
        break;
    case CL_PROGRAM_IL:
        /* "If program is created with clCreateProgramWithSource, clCreateProgramWithBinary or
         * clCreateProgramWithBuiltInKernels the memory pointed to by param_value will be
         * unchanged and param_value_size_ret will be set to 0." */
        err = cv_info_bytes(out, p->il, p->il ? p->il_len : 0);
        break;
    case CL_PROGRAM_BINARIES:
        pthread_mutex_lock(&p->lock);
        err = cv_program_binaries(p, out);
        pthread_mutex_unlock(&p->lock);
        break;
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES:
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
        pthread_mutex_lock(&p->lock);
        /* "CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS,
         * CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
         * CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program executable has not been
         * built for at least one device in the list of devices associated with program." */
        if (!cv_program_has_executable(p) || !p->kernel_names)
            err = CL_INVALID_PROGRAM_EXECUTABLE;
        else if (param == CL_PROGRAM_NUM_KERNELS)
            err = cv_info_size(out, p->num_kernels);
        else if (param == CL_PROGRAM_KERNEL_NAMES)
            err = cv_info_str(out, p->kernel_names);
        else
            err = cv_info_bool(out, CL_FALSE);
        pthread_mutex_unlock(&p->lock);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    return err;
}

cl_int cv_program_build_info(cl_program p, cl_device_id d, cl_program_build_info param,
                             const cv_info *out) {
    cv_program_device *pd = cv_program_device_of(p, d);
    cl_int err;
    pthread_mutex_lock(&p->lock);
    switch (param) {
    case CL_PROGRAM_BUILD_STATUS:
        err = cv_info_int(out, pd->status);
        break;
    case CL_PROGRAM_BUILD_OPTIONS:
        err = cv_info_str(out, pd->options ? pd->options : "");
        break;
    case CL_PROGRAM_BUILD_LOG:
        err = cv_info_str(out, pd->log ? pd->log : "");
        break;
    case CL_PROGRAM_BINARY_TYPE:
        err = cv_info_uint(out, pd->binary_type);
        break;
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
        err = cv_info_size(out, pd->module ? pd->ptx.global_bytes : 0);
        break;
    default:
        err = CL_INVALID_VALUE;
        break;
    }
    pthread_mutex_unlock(&p->lock);
    return err;
}
