/* The code generator of an llc server (CVC_SERVER_CODEGEN, cvc_server_proto.h): textual IR in,
 * PTX out, module after module in one process.
 *
 * Why: an llc run, even forked from a loaded llc, spends most of its time faulting in pages and
 * setting itself up (~10 ms of CPU for a small module on the build machine) where the code
 * generation itself takes under a millisecond. This run stays: it compiles every module it is
 * sent through LLVM's C API, on the libLLVM of the llc it was forked from (found with dlsym in
 * the process: never another LLVM than llc's), and does what llc does with it: the module's
 * triple picks the target; every function gets llc's -mcpu as "target-cpu" unless it has one,
 * and -mattr appended to its "target-features" (llc's codegen::setFunctionAttributes); the
 * module is verified; a target machine with llc's options (default relocation and code model,
 * -O level, verbose assembly) emits the assembly. The PTX is llc's, byte for byte
 * (tests/unit/compiler_server.c and the corpus compare them). Anything else — a module LLVM
 * rejects, a message — is answered with status 1, and culvert runs llc itself for its exact output.
 * LLVM's fatal errors end the process: culvert sees the socket close and runs llc. */
#include "compiler/server/codegen.h"
#include "compiler/cvc_io.h"
#include "compiler/cvc_server_proto.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct llvm_opaque *ref;

/* The functions of LLVM's C API used, resolved in the process (libLLVM is llc's). */
typedef struct llvm_api {
    ref (*ContextCreate)(void);
    void (*ContextDispose)(ref);
    ref (*CreateMemoryBufferWithMemoryRange)(const char *, size_t, const char *, int);
    int (*ParseIRInContext)(ref, ref, ref *, char **);
    int (*VerifyModule)(ref, int, char **);
    const char *(*GetTarget)(ref);
    ref (*GetFirstFunction)(ref);
    ref (*GetNextFunction)(ref);
    ref (*GetStringAttributeAtIndex)(ref, unsigned, const char *, unsigned);
    const char *(*GetStringAttributeValue)(ref, unsigned *);
    ref (*CreateStringAttribute)(ref, const char *, unsigned, const char *, unsigned);
    void (*AddAttributeAtIndex)(ref, unsigned, ref);
    int (*GetTargetFromTriple)(const char *, ref *, char **);
    ref (*CreateTargetMachine)(ref, const char *, const char *, const char *, int, int, int);
    void (*SetTargetMachineAsmVerbosity)(ref, int);
    int (*TargetMachineEmitToMemoryBuffer)(ref, ref, int, char **, ref *);
    const char *(*GetBufferStart)(ref);
    size_t (*GetBufferSize)(ref);
    void (*DisposeMemoryBuffer)(ref);
    void (*DisposeModule)(ref);
    void (*DisposeMessage)(char *);
    void (*InitializeNVPTXTargetInfo)(void);
    void (*InitializeNVPTXTarget)(void);
    void (*InitializeNVPTXTargetMC)(void);
    void (*InitializeNVPTXAsmPrinter)(void);
} llvm_api;
static llvm_api llvm;

static const struct {
    const char *name;
    size_t offset;
} llvm_symbols[] = {
#define SYM(n)                                                                                     \
    { "LLVM" #n, offsetof(llvm_api, n) }
    SYM(ContextCreate),
    SYM(ContextDispose),
    SYM(CreateMemoryBufferWithMemoryRange),
    SYM(ParseIRInContext),
    SYM(VerifyModule),
    SYM(GetTarget),
    SYM(GetFirstFunction),
    SYM(GetNextFunction),
    SYM(GetStringAttributeAtIndex),
    SYM(GetStringAttributeValue),
    SYM(CreateStringAttribute),
    SYM(AddAttributeAtIndex),
    SYM(GetTargetFromTriple),
    SYM(CreateTargetMachine),
    SYM(SetTargetMachineAsmVerbosity),
    SYM(TargetMachineEmitToMemoryBuffer),
    SYM(GetBufferStart),
    SYM(GetBufferSize),
    SYM(DisposeMemoryBuffer),
    SYM(DisposeModule),
    SYM(DisposeMessage),
    SYM(InitializeNVPTXTargetInfo),
    SYM(InitializeNVPTXTarget),
    SYM(InitializeNVPTXTargetMC),
    SYM(InitializeNVPTXAsmPrinter),
#undef SYM
};

enum {
    FUNCTION_INDEX = ~0u, /* LLVMAttributeFunctionIndex */
    RETURN_STATUS = 2,    /* LLVMReturnStatusAction */
    ASSEMBLY_FILE = 0,    /* LLVMAssemblyFile */
    DEFAULT_MODEL = 0,    /* LLVMRelocDefault, LLVMCodeModelDefault */
    MAX_MACHINES = 8,     /* (triple, cpu, features, level) sets kept */
    MAX_NAME = 256,
};

static bool resolve(void) {
    for (size_t i = 0; i < sizeof llvm_symbols / sizeof llvm_symbols[0]; i++) {
        void *f = dlsym(RTLD_DEFAULT, llvm_symbols[i].name);
        if (!f)
            return false;
        memcpy((char *)&llvm + llvm_symbols[i].offset, &f, sizeof f);
    }
    return true;
}

static bool read_full(int fd, void *p, size_t n) {
    return cvc_io_full(fd, p, n, false);
}

static bool write_full(int fd, const void *p, size_t n) {
    return cvc_io_full(fd, (void *)p, n, true);
}

static bool answer(int fd, uint32_t status, const char *data, size_t len) {
    cvc_codegen_reply r = {CVC_SERVER_MAGIC, status, len};
    return write_full(fd, &r, sizeof r) && write_full(fd, data, len);
}

/* A target machine per (triple, cpu, features, level): made once, kept. */
typedef struct machine {
    char key[4 * MAX_NAME];
    ref tm;
} machine;
static machine machines[MAX_MACHINES];

static ref target_machine(const char *triple, const char *cpu, const char *features, int level,
                          char **err) {
    char key[sizeof machines[0].key];
    snprintf(key, sizeof key, "%s|%s|%s|%d", triple, cpu, features, level);
    size_t free_slot = MAX_MACHINES;
    for (size_t i = 0; i < MAX_MACHINES; i++) {
        if (machines[i].tm && !strcmp(machines[i].key, key))
            return machines[i].tm;
        if (!machines[i].tm && free_slot == MAX_MACHINES)
            free_slot = i;
    }
    ref target = NULL;
    if (llvm.GetTargetFromTriple(triple, &target, err))
        return NULL;
    ref tm = llvm.CreateTargetMachine(target, triple, cpu, features, level, DEFAULT_MODEL,
                                      DEFAULT_MODEL);
    /* llc's -asm-verbose is on: the comments of its PTX. */
    if (tm)
        llvm.SetTargetMachineAsmVerbosity(tm, 1);
    if (tm && free_slot < MAX_MACHINES) {
        snprintf(machines[free_slot].key, sizeof machines[0].key, "%s", key);
        machines[free_slot].tm = tm;
    }
    /* More sets than places: this one is made again next time (never freed: rare). */
    return tm;
}

/* llc's codegen::setFunctionAttributes for -mcpu and -mattr. */
static void set_function_attributes(ref module, ref ctx, const char *cpu, const char *features) {
    for (ref f = llvm.GetFirstFunction(module); f; f = llvm.GetNextFunction(f)) {
        if (*cpu && !llvm.GetStringAttributeAtIndex(f, FUNCTION_INDEX, "target-cpu", 10))
            llvm.AddAttributeAtIndex(
                f, FUNCTION_INDEX,
                llvm.CreateStringAttribute(ctx, "target-cpu", 10, cpu, (unsigned)strlen(cpu)));
        if (!*features)
            continue;
        ref old = llvm.GetStringAttributeAtIndex(f, FUNCTION_INDEX, "target-features", 15);
        unsigned old_len = 0;
        const char *old_value = old ? llvm.GetStringAttributeValue(old, &old_len) : NULL;
        size_t n = strlen(features);
        char *value = malloc(old_len + 1 + n + 1);
        if (!value)
            continue;
        size_t k = 0;
        if (old_len) {
            memcpy(value, old_value, old_len);
            value[old_len] = ',';
            k = old_len + 1;
        }
        memcpy(value + k, features, n);
        llvm.AddAttributeAtIndex(
            f, FUNCTION_INDEX,
            llvm.CreateStringAttribute(ctx, "target-features", 15, value, (unsigned)(k + n)));
        free(value);
    }
}

/* One module: the PTX, or LLVM's message. */
static bool compile(int fd, const char *cpu, const char *features, int level, char *ir,
                    size_t ir_len) {
    ref ctx = llvm.ContextCreate();
    ref buf = llvm.CreateMemoryBufferWithMemoryRange(ir, ir_len, "<stdin>", 1);
    ref module = NULL, out = NULL;
    char *err = NULL;
    bool ok;
    if (llvm.ParseIRInContext(ctx, buf, &module, &err) ||
        llvm.VerifyModule(module, RETURN_STATUS, &err)) {
        ok = answer(fd, 1, err ? err : "", err ? strlen(err) : 0);
    } else {
        if (err)
            llvm.DisposeMessage(err);
        err = NULL;
        set_function_attributes(module, ctx, cpu, features);
        const char *triple = llvm.GetTarget(module);
        char t[MAX_NAME];
        snprintf(t, sizeof t, "%s", triple ? triple : "");
        ref tm = target_machine(t, cpu, features, level, &err);
        if (!tm || llvm.TargetMachineEmitToMemoryBuffer(tm, module, ASSEMBLY_FILE, &err, &out))
            ok = answer(fd, 1, err ? err : "", err ? strlen(err) : 0);
        else
            ok = answer(fd, 0, llvm.GetBufferStart(out), llvm.GetBufferSize(out));
    }
    if (err)
        llvm.DisposeMessage(err);
    if (out)
        llvm.DisposeMemoryBuffer(out);
    if (module)
        llvm.DisposeModule(module);
    llvm.ContextDispose(ctx);
    return ok;
}

int cvc_codegen_serve(int fd) {
    /* LLVM may print; nobody reads it (culvert runs llc for the words). */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    if (!resolve())
        return 3;
    llvm.InitializeNVPTXTargetInfo();
    llvm.InitializeNVPTXTarget();
    llvm.InitializeNVPTXTargetMC();
    llvm.InitializeNVPTXAsmPrinter();
    for (;;) {
        cvc_codegen_request h;
        if (!read_full(fd, &h, sizeof h))
            return 0; /* culvert let it go */
        if (h.magic != CVC_SERVER_MAGIC || h.cpu_len >= MAX_NAME || h.features_len >= MAX_NAME ||
            h.ir_len > CVC_CODEGEN_MAX_IR || h.opt_level > 3)
            return 2;
        char cpu[MAX_NAME], features[MAX_NAME];
        char *ir = malloc(h.ir_len + 1);
        if (!ir || !read_full(fd, cpu, h.cpu_len) || !read_full(fd, features, h.features_len) ||
            !read_full(fd, ir, h.ir_len))
            return 2;
        cpu[h.cpu_len] = 0;
        features[h.features_len] = 0;
        ir[h.ir_len] = 0;
        /* The buffer is read in place (LLVM wants the 0 after it): freed after the module. */
        bool ok = compile(fd, cpu, features, (int)h.opt_level, ir, h.ir_len);
        free(ir);
        if (!ok)
            return 2;
    }
}
