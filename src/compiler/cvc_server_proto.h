/* The messages between culvert (cvc_server.c) and a tool server (server/tool_server.c): a clang,
 * llc, llvm-link or llvm-nm process loaded once, which forks a copy of itself for every run.
 *
 * The control socket (SOCK_SEQPACKET, one per server) carries one packet per run: the header,
 * then the working directory and the arguments, each 0-terminated, and three descriptors
 * (SCM_RIGHTS): the run's own socket, its stdin, its stdout (also its stderr). The server answers
 * on the run's socket with one cvc_server_reply when the run ends. Closing the run's socket
 * before that stops the run. The server's first packet on the control socket is a reply of kind
 * CVC_SERVER_READY: it is loaded and serving. */
#ifndef CV_COMPILER_SERVER_PROTO_H
#define CV_COMPILER_SERVER_PROTO_H

#include <stdint.h>

/* The environment of a tool started as a server: the control socket's descriptor, and the
 * LD_PRELOAD the tool's runs get back ("" when there was none). */
#define CVC_SERVER_ENV_FD      "CULVERT_TOOL_SERVER_FD"
#define CVC_SERVER_ENV_PRELOAD "CULVERT_TOOL_SERVER_PRELOAD"
/* Set (to 1) with LD_BIND_NOW=1 when culvert added LD_BIND_NOW: the runs get it unset. */
#define CVC_SERVER_ENV_BIND_NOW "CULVERT_TOOL_SERVER_BIND_NOW"

#define CVC_SERVER_MAGIC 0x43565453u /* "CVTS" */
/* A run's packet is at most this large (larger command lines run without the server). */
#define CVC_SERVER_MAX_PACKET (128 * 1024)

typedef struct cvc_server_request {
    uint32_t magic;
    uint32_t argc;
    uint32_t flags; /* CVC_SERVER_* below */
} cvc_server_request;

/* The run's outputs are files (-o path): when the tool's main() returns, the run ends with
 * stdio flushed but without the static destructors of LLVM's libraries (thousands of objects,
 * each a page to fault in: a third of a small run's page faults). */
#define CVC_SERVER_QUICK_EXIT 1u
/* Not the tool's main(): the run is a code generator (server/codegen.c) serving on its stdin,
 * a socket, one cvc_codegen_request after another, each answered there with a
 * cvc_codegen_reply — llc's work on the LLVM of the llc process it was forked from, without a
 * process per module. Only for an llc server. */
#define CVC_SERVER_CODEGEN 2u

/* A module to compile: the header, then the CPU (sm_XY), the features (+ptxNN) and the textual
 * IR, as many bytes as the header says, without terminators. */
typedef struct cvc_codegen_request {
    uint32_t magic;
    uint32_t opt_level; /* 0..3, as llc -O */
    uint32_t cpu_len, features_len;
    uint64_t ir_len;
} cvc_codegen_request;

/* The answer: status 0 and the PTX, or status 1 and LLVM's message (llc would have failed or
 * said something: the caller runs llc for its exact words). */
typedef struct cvc_codegen_reply {
    uint32_t magic;
    uint32_t status;
    uint64_t len;
} cvc_codegen_reply;

/* A module larger than this goes to llc. */
#define CVC_CODEGEN_MAX_IR ((uint64_t)1 << 30)

enum {
    CVC_SERVER_READY = 1,  /* value: the server's process id */
    CVC_SERVER_EXITED = 2, /* value: the run's wait status (waitpid) */
    CVC_SERVER_FAILED = 3, /* value: errno of the fork (the run never started) */
};

typedef struct cvc_server_reply {
    uint32_t magic;
    int32_t kind;
    int32_t value;
} cvc_server_reply;

#endif
