/* Recovery of a lost device (cuda/cu_device.h): the context of the fault goes, and a context that
 * works takes its place.
 *
 * First the primary context is reset (cuDevicePrimaryCtxReset), retained again and checked. CUDA
 * documents sticky errors as fatal to the process, and whether a reset clears one depends on the
 * driver; where the reset does not give a working context, culvert creates a context of its own on
 * the device (cuCtxCreate) and checks that instead. From then on new cl_contexts of the device
 * use that context: CL_CONTEXT_CUDA_CONTEXT_CULVERT returns it, a stream wrapped with
 * CL_QUEUE_CUDA_STREAM_CULVERT must belong to it, and the CUDA runtime's work (on the primary
 * context) no longer shares culvert's context. A later recovery destroys culvert's context and
 * tries the primary context's reset again first. A try that fails is made again after a pause,
 * three tries in all (a driver still tearing the faulted context down may refuse an early one).
 * Each step is logged (CULVERT_LOG=info): which path worked, and why the other did not; a try
 * that failed is logged at CULVERT_LOG=error with both paths' reasons (the CUDA call and its
 * error), so that a run that fails says why. */
#include "cuda/cu_device.h"
#include "util/log.h"
#include "cuda/cu_driver.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The check's kernel: out[0] = value. */
static const char cvcu_check_ptx[] = ".version 6.0\n"
                                     ".target sm_50\n"
                                     ".address_size 64\n"
                                     ".visible .entry __cv_context_check(\n"
                                     "\t.param .u64 out,\n"
                                     "\t.param .u32 value\n"
                                     ")\n"
                                     "{\n"
                                     "\t.reg .b64 %a;\n"
                                     "\t.reg .b32 %v;\n"
                                     "\tld.param.u64 %a, [out];\n"
                                     "\tld.param.u32 %v, [value];\n"
                                     "\tst.global.u32 [%a], %v;\n"
                                     "\tret;\n"
                                     "}\n";

#define CVCU_CHECK_VALUE   0x5afec0deu /* the kernel writes it into the first word */
#define CVCU_CHECK_PATTERN 0xa5a5a5a5u /* the fill before it, left in the second */

/* r, with a failure described into why ("cuMemAlloc answered CUDA_ERROR_ILLEGAL_ADDRESS (700)"). */
static CUresult cvcu_step(CUresult r, const char *call, char *why, size_t n) {
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        cvcu.cuGetErrorName(r, &name);
        snprintf(why, n, "%s answered %s (%d)", call, name ? name : "an unknown error", (int)r);
    }
    return r;
}

/* Whether the calling thread's current context works: an allocation filled, a kernel of a module
 * loaded in the context writing into it, both results read back, the context synchronized. Its
 * objects are released again. CUDA_SUCCESS, or the first failure (described into why). */
static CUresult cvcu_context_check(char *why, size_t n) {
    CUdeviceptr p = 0;
    CUmodule m = NULL;
    CUfunction f = NULL;
    uint32_t got[2] = {0, 0}, value = CVCU_CHECK_VALUE;
    CUresult r = cvcu_step(cvcu.cuMemAlloc(&p, sizeof got), "cuMemAlloc", why, n);
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuMemsetD32Async(p, CVCU_CHECK_PATTERN, 2, NULL), "cuMemsetD32Async",
                      why, n);
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuModuleLoadDataEx(&m, cvcu_check_ptx, 0, NULL, NULL),
                      "cuModuleLoadDataEx", why, n);
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuModuleGetFunction(&f, m, "__cv_context_check"), "cuModuleGetFunction",
                      why, n);
    if (r == CUDA_SUCCESS) {
        void *params[] = {&p, &value};
        r = cvcu_step(cvcu.cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL),
                      "cuLaunchKernel", why, n);
    }
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuMemcpyDtoH(got, p + 0, sizeof got), "cuMemcpyDtoH", why, n);
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuCtxSynchronize(), "cuCtxSynchronize", why, n);
    if (r == CUDA_SUCCESS && (got[0] != value || got[1] != CVCU_CHECK_PATTERN)) {
        snprintf(why, n, "the check read %08x %08x back, not %08x %08x", got[0], got[1], value,
                 CVCU_CHECK_PATTERN);
        r = CUDA_ERROR_UNKNOWN;
    }
    if (m)
        cvcu.cuModuleUnload(m);
    if (p)
        cvcu.cuMemFree(p);
    return r;
}

/* The primary context reset, retained and checked; d->ctx is its handle afterwards. The reset
 * keeps culvert's earlier retain, yet drivers differ in what a release after a reset does (one
 * that counts the reset as the last release would deactivate the context again), so the new
 * retain is kept: culvert never releases the primary context of an open device. */
static CUresult cvcu_recover_primary(struct cvcu_device *d, char *why, size_t n) {
    CUcontext ctx = NULL;
    CUresult r = cvcu_step(cvcu.cuDevicePrimaryCtxReset(d->dev), "cuDevicePrimaryCtxReset", why, n);
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuDevicePrimaryCtxRetain(&ctx, d->dev), "cuDevicePrimaryCtxRetain", why,
                      n);
    if (r == CUDA_SUCCESS) {
        if (ctx != d->primary)
            cvu_log(CVU_LOG_INFO, "device %d: the primary context's handle changed (%p -> %p)",
                    d->props.ordinal, (void *)d->primary, (void *)ctx);
        d->primary = ctx;
        atomic_store_explicit(&d->ctx, ctx, memory_order_release);
        r = cvcu_step(cvcu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent", why, n);
    }
    return r == CUDA_SUCCESS ? cvcu_context_check(why, n) : r;
}

/* A context of culvert's own, created and checked; d->ctx is it where it works (else it is
 * destroyed again and d->ctx is the primary context). */
static CUresult cvcu_recover_own(struct cvcu_device *d, char *why, size_t n) {
    CUcontext own = NULL;
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    if (!cvcu.cuCtxCreate_v2 || !cvcu.cuCtxDestroy)
        snprintf(why, n, "the driver lacks cuCtxCreate_v2 or cuCtxDestroy");
    else
        r = cvcu_step(cvcu.cuCtxCreate_v2(&own, CU_CTX_MAP_HOST, d->dev), "cuCtxCreate", why, n);
    /* cuCtxCreate made it current; the check runs in it. */
    if (r == CUDA_SUCCESS)
        r = cvcu_step(cvcu.cuCtxSetCurrent(own), "cuCtxSetCurrent", why, n);
    if (r == CUDA_SUCCESS)
        r = cvcu_context_check(why, n);
    if (r == CUDA_SUCCESS) {
        atomic_store_explicit(&d->ctx, own, memory_order_release);
        d->own_ctx = true;
    } else if (own) {
        cvcu.cuCtxDestroy(own);
    }
    return r;
}

/* Why each path of a try failed ("" where it was not tried or worked). */
typedef struct cvcu_recover_why {
    char primary[192], own[192];
} cvcu_recover_why;

/* One try at recovering d: a new generation, the primary context reset and checked, else a
 * context of culvert's own. Returns the CUresult of the path that decided; *path names it. */
static CUresult cvcu_recover_try(struct cvcu_device *d, cvcu_recover_why *why, const char **path) {
    int ordinal = d->props.ordinal;
    why->primary[0] = why->own[0] = '\0';
    /* Nothing of the lost context is used from here on: the reaper's releases wait and are then
     * dropped by their generation, the slot pages are forgotten with their gates. */
    cvcu_reap_pause();
    atomic_fetch_add_explicit(&d->generation, 1, memory_order_acq_rel);
    cvcu_slots_forget_device(d);
    if (d->own_ctx) {
        CUcontext lost = atomic_load_explicit(&d->ctx, memory_order_acquire);
        CUresult r = cvcu.cuCtxDestroy(lost);
        cvu_log(CVU_LOG_INFO, "device %d: culvert's own context of the fault destroyed (%s)",
                ordinal, r == CUDA_SUCCESS ? "done" : "it refused");
        d->own_ctx = false;
        atomic_store_explicit(&d->ctx, d->primary, memory_order_release);
    }
    *path = "the primary context, reset (cuDevicePrimaryCtxReset)";
    char *decided = why->primary;
    CUresult r = cvcu_recover_primary(d, why->primary, sizeof why->primary);
    if (r != CUDA_SUCCESS) {
        cvu_log(CVU_LOG_INFO, "device %d: the primary context's reset did not recover it: %s",
                ordinal, why->primary);
        *path = "a context of culvert's own (cuCtxCreate): the primary context stays unusable";
        decided = why->own;
        r = cvcu_recover_own(d, why->own, sizeof why->own);
        if (r != CUDA_SUCCESS)
            cvu_log(CVU_LOG_INFO, "device %d: a context of culvert's own does not work either: %s",
                    ordinal, why->own);
    }
    /* The calling thread is bound to the context now used (the generation moved on): the new
     * one, or, still lost, the primary one, where everything fails until the next try. */
    CUresult bound = cvcu_device_set_current(d);
    if (r == CUDA_SUCCESS)
        r = cvcu_step(bound, "cuCtxSetCurrent", decided, sizeof why->own);
    if (r == CUDA_SUCCESS)
        atomic_store(&d->fault, 0);
    cvcu_reap_resume();
    return r;
}

/* Tries, and the pause before each: a driver still tearing the faulted context down (its
 * channels' recovery) may refuse an early try that a later one gets through. */
static const unsigned cvcu_recover_pause_ms[] = {0, 100, 400};
#define CVCU_RECOVER_TRIES (sizeof cvcu_recover_pause_ms / sizeof cvcu_recover_pause_ms[0])

cl_int cvcu_device_recover(struct cvcu_device *d) {
    char what[sizeof d->fault_what];
    int ordinal = d->props.ordinal;
    cvcu_recover_why why;
    const char *path = "";
    CUresult r = CUDA_ERROR_UNKNOWN;
    cvcu_device_fault(d, what, sizeof what);
    cvu_log(CVU_LOG_INFO, "device %d: recovering from the fault (%s)", ordinal, what);
    unsigned tries = 0;
    while (r != CUDA_SUCCESS && tries < CVCU_RECOVER_TRIES) {
        unsigned pause = cvcu_recover_pause_ms[tries++];
        struct timespec ts = {pause / 1000, (long)(pause % 1000) * 1000000L};
        if (pause)
            nanosleep(&ts, NULL);
        r = cvcu_recover_try(d, &why, &path);
        /* Every failed try at error level: the log of a run that failed says why. */
        if (r != CUDA_SUCCESS)
            cvu_log(CVU_LOG_ERROR,
                    "device %d: recovery try %u of %u failed: the primary context's reset: %s; "
                    "a context of culvert's own: %s",
                    ordinal, tries, (unsigned)CVCU_RECOVER_TRIES, why.primary,
                    why.own[0] ? why.own : "not tried");
    }
    if (r == CUDA_SUCCESS)
        cvu_log(CVU_LOG_INFO, "device %d recovered on %s (context %p checked, try %u)", ordinal,
                path, cvcu_device_context(d), tries);
    else
        cvu_log(CVU_LOG_ERROR,
                "device %d did not recover from the fault (%s) in %u tries: it stays lost, and "
                "clCreateContext answers CL_DEVICE_NOT_AVAILABLE",
                ordinal, what, tries);
    /* Where even the last try's new context answered a sticky error, the driver keeps the
     * fault for the process (CUDA documents that such errors need a new process): no later
     * clCreateContext tries again. */
    if (r != CUDA_SUCCESS && cvcu_sticky(r))
        d->unrecoverable = true;
    return r == CUDA_SUCCESS ? CL_SUCCESS : CL_DEVICE_NOT_AVAILABLE;
}
