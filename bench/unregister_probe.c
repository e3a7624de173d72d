/* unregister_probe: does cuMemHostUnregister on one thread order itself after DMAs of the
 * registered range that another thread puts on a stream? (issue 17: a suspected cause of the
 * sticky CL_OUT_OF_RESOURCES of the CTS buffer tests is culvert's reaper thread unregistering a
 * USE_HOST_PTR range while the application thread copied from the same range.) Raw CUDA driver
 * API only (libcuda.so.1 dlopen'ed), primary context of device 0; not a test, a diagnostic:
 *
 *   unregister_probe [MiB] [rounds] [queued|race|reuse]   (default 8 MiB, 200 rounds, all three)
 *
 * queued: a copy from the registered range waits behind a 2 ms kernel; another thread then
 *   unregisters it. Prints how long the unregister blocked (about 2 ms: it waits for the queued
 *   DMA) and whether the copy failed.
 * race: thread A, as culvert's copies did, asks whether the range is pinned
 *   (cuPointerGetAttribute) and, if so, copies from it (cuMemcpyHtoDAsync behind a short kernel,
 *   then cuStreamSynchronize), in a loop; thread B, as culvert's reaper did, unregisters the range
 *   at a random moment of each round. Prints the copies that saw the range pinned while the
 *   unregister ran, and any error.
 * reuse: the application frees registered memory before the registration goes (the CTS frees
 *   a USE_HOST_PTR buffer's memory, then releases the buffer; culvert's reaper unregisters later),
 *   and the addresses come back: (a) as the application's memory again (mmap at the same place):
 *   does a copy from it still go through the old registration, i.e. read the old pages (prints
 *   the copies that read stale bytes); (b) as pinned memory of cuMemHostAlloc: does the
 *   unregister of the old registration then break the new allocation (a copy from it after the
 *   unregister faults)? Prints how often each address came back and what CUDA answered.
 * A sticky error (e.g. CUDA_ERROR_ILLEGAL_ADDRESS) poisons the context: the probe reports it and
 * stops (exit 2). Exit 0: no error seen. */
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

/* The driver entry points, by the names cuda.h maps them to (cuMemAlloc: cuMemAlloc_v2). */
#define FUNCS(X)                                                                                   \
    X(cuInit)                                                                                      \
    X(cuDeviceGet)                                                                                 \
    X(cuDevicePrimaryCtxRetain)                                                                    \
    X(cuCtxSetCurrent)                                                                             \
    X(cuGetErrorName)                                                                              \
    X(cuMemAlloc)                                                                                  \
    X(cuMemHostRegister)                                                                           \
    X(cuMemHostAlloc)                                                                              \
    X(cuMemFreeHost)                                                                               \
    X(cuMemcpyDtoH)                                                                                \
    X(cuMemHostUnregister)                                                                         \
    X(cuPointerGetAttribute)                                                                       \
    X(cuMemcpyHtoDAsync)                                                                           \
    X(cuStreamCreate)                                                                              \
    X(cuStreamSynchronize)                                                                         \
    X(cuModuleLoadData)                                                                            \
    X(cuModuleGetFunction)                                                                         \
    X(cuLaunchKernel)

static struct {
#define F(name) __typeof__(name) *name;
    FUNCS(F)
#undef F
} cu;

#define STR2(x) #x
#define STR(x)  STR2(x)

static const char spin_ptx[] = ".version 7.0\n"
                               ".target sm_70\n"
                               ".address_size 64\n"
                               ".visible .entry spin(.param .u64 ns)\n"
                               "{\n"
                               "  .reg .pred p;\n"
                               "  .reg .u64 t0, t1, d, lim;\n"
                               "  ld.param.u64 lim, [ns];\n"
                               "  mov.u64 t0, %globaltimer;\n"
                               "LOOP:\n"
                               "  mov.u64 t1, %globaltimer;\n"
                               "  sub.u64 d, t1, t0;\n"
                               "  setp.lt.u64 p, d, lim;\n"
                               "  @p bra LOOP;\n"
                               "  ret;\n"
                               "}\n";

static CUcontext ctx;
static CUfunction spin;
static CUstream stream;
static CUdeviceptr dst;
static char *host;
static size_t bytes;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static const char *name(CUresult r) {
    const char *s = "?";
    cu.cuGetErrorName(r, &s);
    return s;
}

/* Stops at an error that is not one of the expected refusals. */
static void check(CUresult r, const char *what) {
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED &&
        r != CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) {
        printf("%s: %s (%d): the context is poisoned\n", what, name(r), (int)r);
        exit(2);
    }
}

static CUresult launch_spin(unsigned long long ns) {
    void *args[] = {&ns};
    return cu.cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, stream, args, NULL);
}

static bool pinned(void) {
    unsigned type = 0;
    return cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                    (CUdeviceptr)(uintptr_t)host) == CUDA_SUCCESS &&
           type == CU_MEMORYTYPE_HOST;
}

/* The other thread: unregisters after delay_us, timing the call. */
typedef struct unregister_job {
    unsigned delay_us;
    double blocked_ms;
    CUresult result;
    atomic_bool done;
} unregister_job;

static void *unregister_main(void *arg) {
    unregister_job *job = arg;
    cu.cuCtxSetCurrent(ctx);
    if (job->delay_us)
        usleep(job->delay_us);
    double t0 = now_ms();
    job->result = cu.cuMemHostUnregister(host);
    job->blocked_ms = now_ms() - t0;
    atomic_store(&job->done, true);
    return NULL;
}

static void queued(unsigned rounds) {
    double most = 0, sum = 0;
    for (unsigned r = 0; r < rounds; r++) {
        check(cu.cuMemHostRegister(host, bytes, CU_MEMHOSTREGISTER_PORTABLE), "register");
        check(launch_spin(2000000), "spin");
        check(cu.cuMemcpyHtoDAsync(dst, host, bytes, stream), "copy");
        unregister_job job = {0};
        pthread_t t;
        pthread_create(&t, NULL, unregister_main, &job);
        pthread_join(t, NULL);
        check(job.result, "unregister");
        check(cu.cuStreamSynchronize(stream), "synchronize");
        sum += job.blocked_ms;
        most = job.blocked_ms > most ? job.blocked_ms : most;
    }
    printf("queued: %u rounds, no error; the unregister blocked %.3f ms on average, %.3f at most "
           "(about 2: it waited for the queued DMA)\n",
           rounds, sum / rounds, most);
}

static void race(unsigned rounds) {
    unsigned long overlapped = 0, copies = 0;
    for (unsigned r = 0; r < rounds; r++) {
        check(cu.cuMemHostRegister(host, bytes, CU_MEMHOSTREGISTER_PORTABLE), "register");
        unregister_job job = {.delay_us = (unsigned)(rand() % 200)};
        pthread_t t;
        pthread_create(&t, NULL, unregister_main, &job);
        /* As culvert's copies did: a DMA straight from the range while CUDA calls it pinned. */
        while (!atomic_load(&job.done) && pinned()) {
            check(launch_spin(20000), "spin");
            check(cu.cuMemcpyHtoDAsync(dst, host, bytes, stream), "copy");
            check(cu.cuStreamSynchronize(stream), "synchronize");
            copies++;
            overlapped += !atomic_load(&job.done) ? 0 : 1;
        }
        pthread_join(t, NULL);
        check(job.result, "unregister");
        check(cu.cuStreamSynchronize(stream), "synchronize");
    }
    printf("race: %u rounds, %lu copies from the range, %lu of them ended after the unregister "
           "returned; no error\n",
           rounds, copies, overlapped);
}

/* n bytes of fresh anonymous memory, at `at` if the kernel agrees (NULL: anywhere). */
static char *map_at(void *at, size_t n) {
    void *p = mmap(at, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Does the device copy of a host-to-device copy from p hold `value` in every byte? */
static bool copied(const char *p, unsigned char value, char *back) {
    check(cu.cuMemcpyHtoDAsync(dst, p, bytes, stream), "copy");
    check(cu.cuStreamSynchronize(stream), "synchronize");
    check(cu.cuMemcpyDtoH(back, dst, bytes), "copy back");
    for (size_t i = 0; i < bytes; i++)
        if ((unsigned char)back[i] != value)
            return false;
    return true;
}

static void reuse(unsigned rounds) {
    unsigned same_app = 0, stale = 0, same_pinned = 0, alloc_failed = 0;
    char *back = malloc(bytes);
    for (unsigned r = 0; r < rounds && back; r++) {
        /* (a) registered, freed, mapped again at the same place with other bytes. */
        char *app = map_at(NULL, bytes);
        if (!app)
            break;
        memset(app, 1, bytes);
        check(cu.cuMemHostRegister(app, bytes, CU_MEMHOSTREGISTER_PORTABLE), "register");
        munmap(app, bytes);
        char *again = map_at(app, bytes);
        if (again == app) {
            same_app++;
            memset(again, 2, bytes);
            stale += !copied(again, 2, back);
        }
        check(cu.cuMemHostUnregister(app), "unregister");
        if (again)
            munmap(again, bytes);

        /* (b) registered, freed, then cuMemHostAlloc: the old registration goes while the new
         * allocation may lie at its addresses. */
        app = map_at(NULL, bytes);
        if (!app)
            break;
        check(cu.cuMemHostRegister(app, bytes, CU_MEMHOSTREGISTER_PORTABLE), "register");
        munmap(app, bytes);
        void *pinned = NULL;
        CUresult a = cu.cuMemHostAlloc(&pinned, bytes, CU_MEMHOSTALLOC_PORTABLE);
        if (a != CUDA_SUCCESS) {
            alloc_failed++;
            printf("round %u: cuMemHostAlloc after the free of registered memory: %s (%d)\n", r,
                   name(a), (int)a);
            check(cu.cuMemHostUnregister(app), "unregister");
            continue;
        }
        same_pinned += pinned == (void *)app;
        memset(pinned, 3, bytes);
        bool before = copied(pinned, 3, back);
        check(cu.cuMemHostUnregister(app), "unregister");
        bool after = copied(pinned, 3, back);
        if (!before || !after)
            printf("round %u: pinned memory %s the freed registration's addresses: copy %s "
                   "before the unregister, %s after\n",
                   r, pinned == (void *)app ? "at" : "apart from", before ? "right" : "WRONG",
                   after ? "right" : "WRONG");
        check(cu.cuMemFreeHost(pinned), "free host");
    }
    free(back);
    printf("reuse: %u rounds; (a) the freed registered memory mapped again at its place %u "
           "times, %u copies from it read the old pages; (b) cuMemHostAlloc gave the freed "
           "registration's addresses %u times, failed %u times; no error\n",
           rounds, same_app, stale, same_pinned, alloc_failed);
}

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
    unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 200;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        printf("libcuda.so.1 not loadable\n");
        return 0;
    }
#define L(name) *(void **)&cu.name = dlsym(lib, STR(name));
    FUNCS(L)
#undef L
    CUdevice dev;
    CUmodule mod;
    bytes = (mib ? mib : 1) << 20;
    host = aligned_alloc(4096, bytes);
    if (!host || cu.cuInit(0) || cu.cuDeviceGet(&dev, 0) ||
        cu.cuDevicePrimaryCtxRetain(&ctx, dev) || cu.cuCtxSetCurrent(ctx) ||
        cu.cuModuleLoadData(&mod, spin_ptx) || cu.cuModuleGetFunction(&spin, mod, "spin") ||
        cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) || cu.cuMemAlloc(&dst, bytes)) {
        printf("set-up failed (no GPU?)\n");
        return 1;
    }
    memset(host, 1, bytes);
    srand(17);
    const char *only = argc > 3 ? argv[3] : NULL;
    if (!only || !strcmp(only, "queued"))
        queued(rounds / 10 ? rounds / 10 : 1);
    if (!only || !strcmp(only, "race"))
        race(rounds);
    if (!only || !strcmp(only, "reuse"))
        reuse(rounds / 10 ? rounds / 10 : 1);
    return 0;
}
