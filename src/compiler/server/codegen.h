/* The code generator run of an llc server (codegen.c). */
#ifndef CV_COMPILER_SERVER_CODEGEN_H
#define CV_COMPILER_SERVER_CODEGEN_H

/* Serves cvc_codegen_request packets on fd until it is closed; the exit status of the run: 0
 * when culvert let it go, 2 on a broken request or socket, 3 when the process has no LLVM C API
 * (a static llc). */
int cvc_codegen_serve(int fd);

#endif
