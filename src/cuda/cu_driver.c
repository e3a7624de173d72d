#include "cuda/cu_driver.h"
#include "util/log.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

cvcu_driver cvcu;

static pthread_once_t cvcu_once = PTHREAD_ONCE_INIT;
static bool cvcu_loaded;
static char cvcu_why[256] = "not loaded";

#define CVCU_STR2(x) #x
#define CVCU_STR(x)  CVCU_STR2(x)

static bool cvcu_resolve(void *lib) {
#define CU_SYM(name)                                                                               \
    cvcu.name = (__typeof__(cvcu.name))dlsym(lib, CVCU_STR(name));                                 \
    if (!cvcu.name) {                                                                              \
        snprintf(cvcu_why, sizeof cvcu_why, "libcuda.so.1 lacks %s", CVCU_STR(name));              \
        return false;                                                                              \
    }
#define CU_SYM_OPTIONAL(name) cvcu.name = (__typeof__(cvcu.name))dlsym(lib, CVCU_STR(name));
#include "cuda/cu_symbols.def"
#undef CU_SYM
#undef CU_SYM_OPTIONAL
    return true;
}

static void cvcu_load_once(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(cvcu_why, sizeof cvcu_why, "cannot load libcuda.so.1: %s", dlerror());
    } else if (cvcu_resolve(lib)) {
        CUresult r = cvcu.cuInit(0);
        if (r == CUDA_SUCCESS) {
            cvcu_loaded = true;
            return;
        }
        const char *name = "?";
        cvcu.cuGetErrorName(r, &name);
        snprintf(cvcu_why, sizeof cvcu_why, "cuInit failed: %s (%d)", name, (int)r);
    }
    /* Keep the library mapped: unloading a half-initialised driver is not worth the risk. */
    cvu_log(CVU_LOG_INFO, "no CUDA devices: %s", cvcu_why);
}

bool cvcu_load(void) {
    pthread_once(&cvcu_once, cvcu_load_once);
    return cvcu_loaded;
}

const char *cvcu_load_error(void) {
    return cvcu_why;
}
