/* Internals of the OpenCL C compiler (src/compiler): tool discovery and child processes, build
 * options, the PTX post-processing, the on-disk cache. Nothing here is seen outside src/compiler
 * and the compiler's tests. */
#ifndef CV_COMPILER_INTERNAL_H
#define CV_COMPILER_INTERNAL_H

#include "compiler/compiler.h"

#include <stdint.h>
#include <string.h>

/* A growing, 0-terminated byte buffer. */
typedef struct cvc_buf {
    char *data;
    size_t len, cap;
    bool failed; /* an allocation failed: the content is incomplete */
} cvc_buf;

void cvc_buf_add(cvc_buf *b, const void *p, size_t n);
void cvc_buf_str(cvc_buf *b, const char *s);
void cvc_buf_printf(cvc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drops what was added after the first len bytes. */
void cvc_buf_truncate(cvc_buf *b, size_t len);
/* Hands the content over (never NULL unless allocation failed) and resets the buffer. */
char *cvc_buf_take(cvc_buf *b);

/* ---- tools (cvc_tools.c) ---- */
typedef struct cvc_tools {
    char clang[4096];
    char llc[4096];
    char llvm_link[4096];
    char llvm_nm[4096]; /* optional: "" when not found (then libclc is always linked whole) */
    char libclc[4096];
    char libdevice[4096]; /* CUDA's libdevice, or "" (not found, or CULVERT_LIBDEVICE=0) */
    int sm_max;           /* the highest sm_XY llc knows (XY as a number), 0 if unknown */
    int ptx_max;          /* the highest PTX ISA version llc knows (e.g. 78) */
    char ident[1024];     /* identifies the tool versions for the cache key */
    bool found;
    char why[512]; /* when !found: what is missing */
} cvc_tools;

/* Found once per process (environment first, then configure-time defaults, then PATH). */
const cvc_tools *cvc_get_tools(void);
/* The same, with sm_max and ptx_max filled (runs llc once per process). */
const cvc_tools *cvc_get_probed_tools(void);

/* A file of the cache directory that depends on the tools only:
 * "<dir>/<what>-<hash of the tools' identity and extra (may be NULL)>.<ext>"; "" without a cache.
 */
void cvc_tools_cache_path(const cvc_tools *t, const char *what, const char *extra, const char *ext,
                          char *out, size_t size);

/* Runs argv[0] (a full path) with argv, no shell; stdin /dev/null, stdout and stderr appended to
 * `log` (may be NULL: discarded). Returns the exit status, or -1 if it could not run (log says). */
int cvc_run(char *const argv[], cvc_buf *log);

/* A child started ahead of its input: its start-up (loading LLVM's libraries, tens of
 * milliseconds) overlaps the step before it, and its input comes on stdin when that step is done.
 */
typedef struct cvc_child {
    int pid;     /* a process of ours; 0: none */
    bool remote; /* a run of a tool server (cvc_server.c): its status comes on conn */
    int conn;
    int input;  /* our end of the child's stdin, -1 when closed */
    int output; /* our end of the child's stdout and stderr */
    const char *name;
} cvc_child;
/* Starts argv like cvc_run; with `input`, its stdin comes from cvc_child_finish. False (log says
 * why) if it cannot run. argv[0] must outlive the child. */
bool cvc_child_start(char *const argv[], bool input, cvc_child *c, cvc_buf *log);
/* Gives the child `input` (NULL: none, the child sees an empty stdin), closes its stdin, collects
 * its output into `log` and waits for it. Returns as cvc_run does. */
int cvc_child_finish(cvc_child *c, const void *input, size_t len, cvc_buf *log);
/* Stops a started child whose input will never come (an earlier step failed). */
void cvc_child_cancel(cvc_child *c);
/* A run of argv[0]'s server that is not the tool's main() but a service (CVC_SERVER_CODEGEN)
 * talking on c->input, a socket both ways; false without a server (nothing is started). */
bool cvc_child_start_service(char *const argv[], unsigned flags, cvc_child *c);
/* Started and not finished (nor cancelled). */
static inline bool cvc_child_started(const cvc_child *c) {
    return c->pid > 0 || c->remote;
}
/* Started, not finished, and still running (not killed, not crashed). */
bool cvc_child_waiting(const cvc_child *c);
/* How many runs lost their status because their tool server stopped (cvc_child_finish then
 * returns 0: the outputs the tool writes only on success decide). */
unsigned long cvc_children_lost(void);

/* ---- code generation in llc servers (cvc_codegen.c) ---- */
/* The PTX `llc -O<opt> -mcpu=sm_<sm> [-mattr=+ptx<ptx>]` writes for textual IR, made by a code
 * generator forked from the llc server (server/codegen.c): malloc'ed and 0-terminated, its length
 * in *len; NULL when none can make it (no server, LLVM rejected the module or had something to
 * say, the generator died): then llc runs, for its exact output and words. */
char *cvc_codegen(const char *llc, const char *ir, size_t ir_len, int sm, int ptx, int opt,
                  size_t *len);
/* Whether code generators work in this process (a build then starts no llc ahead). */
bool cvc_codegen_works(void);
/* Lets the code generators go (clUnloadPlatformCompiler). */
void cvc_codegen_stop(void);

/* ---- tool servers (cvc_server.c) ---- */
/* Starts the servers of these tools without waiting: their start-ups overlap each other's. */
void cvc_servers_prepare(const char *const tools[], size_t n);
/* Runs argv through the server of argv[0] (started if need be): stdin `in` (-1: /dev/null),
 * stdout and stderr `out`; *conn: the socket its end is told on; flags: CVC_SERVER_* of
 * cvc_server_proto.h (a run whose outputs are -o files gets CVC_SERVER_QUICK_EXIT anyway). False
 * when no server can run it: the caller starts the tool as a process. */
bool cvc_server_run(char *const argv[], unsigned flags, int in, int out, int *conn);
/* Waits for the end of a run: 0 and its wait status in *ws; -1 when its server stopped before
 * telling; otherwise the errno of a run that never started. */
int cvc_server_status(int conn, int *ws);
/* Whether the run has not ended (nor its server stopped). */
bool cvc_server_running(int conn);
/* Lets every server go (clUnloadPlatformCompiler); runs in progress finish. */
void cvc_servers_stop(void);
/* The process id of tool's server, 0 when none is up (tests). */
int cvc_server_pid(const char *tool);

/* ---- temporary directory ---- */
typedef struct cvc_tmp {
    char dir[4096];
} cvc_tmp;
bool cvc_tmp_create(cvc_tmp *t);
/* dir/name into out (sizeof cvc_tmp::dir). */
void cvc_tmp_path(const cvc_tmp *t, const char *name, char *out);
bool cvc_write_file(const char *path, const void *data, size_t len);
/* Reads a whole file (0-terminated); NULL on failure. */
unsigned char *cvc_read_file(const char *path, size_t *len);
void cvc_tmp_remove(cvc_tmp *t);

/* ---- options (cvc_options.c) ---- */
typedef enum cvc_mode { CVC_BUILD, CVC_COMPILE, CVC_LINK } cvc_mode;

typedef struct cvc_options {
    char **clang_args; /* for clang -cc1 (defines, include dirs, -cl-* flags, warnings) */
    size_t num_clang_args;
    int cl_std;       /* 100, 110, 120, 200 or 300 */
    int opt_level;    /* llc and clang optimization level, 0..3 */
    int maxrregcount; /* 0: none */
    bool verbose;     /* -cl-nv-verbose */
    bool create_library;
    bool denorms_are_zero;
    bool fast_math;           /* -cl-fast-relaxed-math or -cl-unsafe-math-optimizations */
    bool uniform_work_groups; /* -cl-uniform-work-group-size given */
    bool images;              /* the target claims images (cvc_target.images; not an option) */
} cvc_options;

/* Parses an OpenCL build option string for `mode`. CL_SUCCESS, or CL_INVALID_BUILD_OPTIONS with
 * the reason appended to `log`, or CL_OUT_OF_HOST_MEMORY. */
cl_int cvc_options_parse(const char *options, cvc_mode mode, cvc_options *o, cvc_buf *log);
void cvc_options_free(cvc_options *o);

/* ---- PTX post-processing (cvc_ptx.c) ---- */
/* From optimized textual LLVM IR: the //cv: metadata lines of docs/kernel-abi.md for every
 * kernel. */
char *cvc_kernel_metadata(const char *ll);
/* Functions the IR calls but nothing defines (not intrinsics): a message per function appended to
 * `log` (NULL: none); returns how many. */
int cvc_undefined_functions(const char *ll, cvc_buf *log);
/* printf calls of textual IR -> CUDA's vprintf (cvc_printf.c). NULL when the IR calls no printf
 * (nothing to do); *failed when a call cannot be converted (log says why). */
char *cvc_lower_printf(const char *ll, cvc_buf *log, bool *failed);
/* Kernels called as functions: each called kernel gets a plain internal clone that the calls
 * go to (cvc_ir_calls.c). The new IR, or NULL when nothing calls a kernel (or no memory). */
char *cvc_ir_kernel_calls(const char *ll);
/* A build's own functions that no kernel reaches dropped, the others made internal, in the
 * textual IR of clang's front end (cvc_ir_prune.c). The new IR, or NULL when there is nothing to
 * change, a line is not as expected, or no memory (the IR is then built as it is). */
char *cvc_ir_prune(const char *ll);
/* ---- address-space casts (cvc_ir_casts.c); each returns the new IR, or NULL when there is
 * nothing to change (or no memory) ---- */
/* Casts of null become null (OpenCL C's NULL is NULL in every address space; NVPTX converts
 * shared address 0 to a generic address that is not 0), and casts between two named address
 * spaces go through the generic one (NVPTX cannot select them: llc aborts). */
char *cvc_ir_fix_casts(const char *ll);
/* LLVM 16's NVPTX back end merges two casts of one generic pointer, to global and to shared
 * memory, in a basic block into one cvta.to.shared (its SelectionDAG CSE ignores the target
 * address space). Such casts become NVVM's cvta intrinsics. */
char *cvc_ir_split_casts(const char *ll);
/* The length of an unquoted LLVM identifier at p (0: none), for the textual IR rewrites. */
static inline size_t cvc_ir_ident(const char *p) {
    return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$-");
}
/* Integer multiplies that are a multiply-add in disguise (cvc_ir_mad.c): InstCombine writes
 * y * x + y as y * (x + 1), and reassociation then (a + b) * c where a = b * c; the GPU spends an
 * add and a multiply on each where one mad.lo does. Each becomes the product plus the addend
 * again (y * x + y, a * c + a: the same value in wrapping arithmetic, no flags), which llc fuses;
 * the increments left unused go. NULL when there is none (or no memory). */
char *cvc_ir_mads(const char *ll);
/* In-place fix-ups of textual IR before llc: __constant (NVPTX addrspace 4) moved to global
 * memory, the launch block kept at module scope. */
void cvc_ir_fixups(char *ll);
/* Final PTX: `metadata` inserted after the header, `.maxnreg N` into every entry when N > 0. */
/* uniform: the kernels require uniform work-groups (OpenCL C 1.x, -cl-uniform-work-group-size):
 * a //cv:uniform-work-groups line per kernel says so to the loader. */
char *cvc_ptx_finish(const char *ptx, const char *metadata, int maxnreg, bool uniform);

/* ---- cache (cvc_cache.c) ---- */
typedef struct cvc_hash {
    uint64_t hi, lo;
} cvc_hash;
typedef struct cvc_hasher {
    unsigned __int128 h;
} cvc_hasher;
void cvc_hash_init(cvc_hasher *h);
void cvc_hash_bytes(cvc_hasher *h, const void *p, size_t n);
/* A length-prefixed string (NULL hashes differently from ""). */
void cvc_hash_str(cvc_hasher *h, const char *s);
cvc_hash cvc_hash_final(const cvc_hasher *h);

/* The cache directory ($CULVERT_CACHE_DIR, $XDG_CACHE_HOME/culvert, ~/.cache/culvert) into out;
 * false when caching is off (CULVERT_CACHE=0) or no location is known. */
bool cvc_cache_dir(char *out, size_t size);
/* A temporary name beside path, unique to this call (then renamed over path). */
void cvc_unique_tmp(const char *path, char *out, size_t size);
/* Best effort: data into path (in the cache directory, created if need be) through a unique
 * temporary file and a rename, so readers never see half a file. */
void cvc_cache_write(const char *path, const void *data, size_t len);
/* mkdir -p dir (0700), best effort. */
void cvc_mkdirs(const char *dir);
/* A hit fills out (data and log) and returns true; anything wrong with the entry is a miss. */
bool cvc_cache_load(cvc_hash key, cvc_output *out);
/* Best effort: temp file + rename; failures are ignored. deps: from cvc_deps_text (or NULL). */
void cvc_cache_store(cvc_hash key, const cvc_output *out, const char *deps);

/* ---- one build of a key at a time (cvc_flight.c) ---- */
/* Claims key for a build: true when claimed (then cvc_flight_end once the result is cached).
 * While another thread holds key, waits until it ends it and returns false: the caller looks in
 * the cache again, and builds unclaimed where the result is not there (a failed build, an
 * uncacheable one), so that waiters never queue up one behind the other. Also false when out of
 * memory. */
bool cvc_flight_begin(cvc_hash key);
void cvc_flight_end(cvc_hash key);
/* The files a clang dependency file lists (except those under skip_dir), each with the hash of
 * its content, as the cache keeps them; NULL when one cannot be read (then do not cache). */
char *cvc_deps_text(const char *depfile, const char *skip_dir);

/* The embedded builtins bitcode (generated at build time from builtins/). */
extern const unsigned char cvc_builtins_bc[];
extern const size_t cvc_builtins_bc_size;
/* The math wrappers on CUDA's libdevice (builtins/libdevice.ll), linked when libdevice is found. */
extern const unsigned char cvc_libdevice_bc[];
extern const size_t cvc_libdevice_bc_size;
/* Relaxed-math float functions (builtins/libdevice_fast.ll), ahead of those with
 * -cl-fast-relaxed-math or -cl-unsafe-math-optimizations. */
extern const unsigned char cvc_libdevice_fast_bc[];
extern const size_t cvc_libdevice_fast_bc_size;
/* culvert's half builtins (builtins/half.ll), linked for sources that name half. */
extern const unsigned char cvc_half_bc[];
extern const size_t cvc_half_bc_size;
/* The image builtins (builtins/images.ll), linked for image targets' sources that name images. */
extern const unsigned char cvc_images_bc[];
extern const size_t cvc_images_bc_size;
/* An empty module (builtins/empty.ll): fills a stage's unused library places (cvc_spare.c). */
extern const unsigned char cvc_empty_bc[];
extern const size_t cvc_empty_bc_size;

/* ---- clang and llc started ahead of the next source build (cvc_spare.c) ---- */
/* A source build's two processes and the directory they write in: clang -cc1 (source on stdin,
 * the libraries as dir/libN.bc, IR to dir/program.ll) and llc (IR on stdin, PTX to
 * dir/program.ptx). */
typedef struct cvc_stage {
    cvc_tmp dir;
    cvc_child clang, llc;
    size_t linked; /* lib0.bc .. up to here link a library; the others the empty module */
} cvc_stage;
/* A stage started earlier for this command line (sig, a hash of both) that is still waiting:
 * true and *s is it, now the caller's. */
bool cvc_spare_take(cvc_hash sig, cvc_stage *s);
/* Whether a stage for sig is waiting. */
bool cvc_spare_waiting(cvc_hash sig);
/* Keeps s waiting for the next build with sig (stops s when one already waits; stops the oldest
 * when too many wait). */
void cvc_spare_keep(cvc_hash sig, cvc_stage *s);
/* Stops every waiting stage (clUnloadPlatformCompiler; process exit). */
void cvc_spares_stop(void);
/* Stops a stage: its processes killed and reaped, its directory removed. */
void cvc_stage_stop(cvc_stage *s);
/* How many builds took a stage started ahead (tests). */
unsigned long cvc_spares_used(void);

/* ---- the libraries a build links (cvc_link_plan.c) ---- */
/* In link order: a function the first defines wins (culvert's work-item functions over
 * libclc's, docs/kernel-abi.md; libdevice's math over libclc's). */
typedef enum cvc_lib {
    CVC_LIB_HALF,      /* culvert's half builtins: first, they call the float builtins */
    CVC_LIB_IMAGES,    /* the image builtins (image targets only) */
    CVC_LIB_BUILTINS,  /* culvert's builtins */
    CVC_LIB_FAST,      /* relaxed-math wrappers (with -cl-fast-relaxed-math and the like) */
    CVC_LIB_WRAPPERS,  /* culvert's wrappers of libdevice */
    CVC_LIB_LIBDEVICE, /* CUDA's libdevice; from here on the tools' files, not embedded */
    CVC_LIB_LIBCLC,
    CVC_LIB_COUNT
} cvc_lib;

typedef struct cvc_link_plan {
    const char *list[CVC_LIB_COUNT]; /* what to link, in order */
    size_t count;
    bool partial;     /* a library left out, or a part: an undefined function means again */
    unsigned allowed; /* the libraries this build may link at all (bits of cvc_lib) */
    char lib[CVC_LIB_COUNT][4096]; /* every library this build may link ("": none) */
    unsigned written;              /* the embedded ones written to the temporary directory (bits) */
    cvc_child maker;  /* llvm-link extracting the part for later builds (pid 0: none) */
    char made[4400];  /* where the maker writes */
    char final[4300]; /* where the part is kept */
    char whole[4300]; /* marks a set whose part missed a call: link the libraries whole */
} cvc_link_plan;
/* The plan for a source and its build options (source NULL: every library whole). May start
 * the maker. False when the libraries cannot be written to the temporary directory. */
bool cvc_link_plan_make(cvc_link_plan *p, const char *source, size_t len, const char *options,
                        const cvc_options *o, const cvc_tools *t, const cvc_tmp *tmp);
/* The plan missed a call (or its part could not be read): every library whole from now on, for
 * this set. False as for cvc_link_plan_make. */
bool cvc_link_plan_missed(cvc_link_plan *p);
/* Waits for the maker and keeps what it extracted. */
void cvc_link_plan_end(cvc_link_plan *p);
/* A hash of culvert's embedded libraries (part of every cache key). */
cvc_hash cvc_blobs_hash(void);

/* ---- SPIR-V input (cvc_spirv.c, cvc_tools.c) ---- */
/* llvm-spirv's path, or NULL where none was found. */
const char *cvc_llvm_spirv(void);
/* llvm-spirv's LLVM IR of a SPIR-V module (SPIR's address spaces and calling conventions, as
 * clang disassembled it for NVPTX) as the NVPTX IR clang makes of OpenCL C: constant and generic
 * address spaces renumbered (in intrinsics' names too), spir_func dropped, the kernels in
 * !nvvm.annotations. NULL without memory. */
char *cvc_ir_from_spir(const char *ll);

#endif
