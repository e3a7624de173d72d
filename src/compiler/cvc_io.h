/* Whole transfers on a socket, shared by culvert (cvc_codegen.c) and the tool server
 * (server/codegen.c): true when all n bytes went or came; false on an error or the end of the
 * stream. send() with MSG_NOSIGNAL: a peer gone is an error, never a SIGPIPE. */
#ifndef CV_COMPILER_IO_H
#define CV_COMPILER_IO_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

static inline bool cvc_io_full(int fd, void *p, size_t n, bool out) {
    char *c = p;
    while (n > 0) {
        ssize_t k = out ? send(fd, c, n, MSG_NOSIGNAL) : recv(fd, c, n, 0);
        if (k > 0) {
            c += k;
            n -= (size_t)k;
        } else if (k == 0 || errno != EINTR) {
            return false;
        }
    }
    return true;
}

#endif
