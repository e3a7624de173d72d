#include "api/command_buffer_props.h"

cl_int cv_read_bits_properties(const cl_properties *list, cv_bits_property *props, size_t n,
                               size_t *len) {
    cl_int err = CL_SUCCESS;
    size_t i = 0;
    /* The error first: after a bad name the list may end, unterminated, right after it. */
    for (; err == CL_SUCCESS && list && list[i] != 0; i += 2) {
        cv_bits_property *p = NULL;
        for (size_t j = 0; j < n && !p; j++)
            if (props[j].name == list[i])
                p = &props[j];
        /* No value read after a name found wanting. */
        if (!p || p->given || (list[i + 1] & ~p->known))
            err = CL_INVALID_VALUE;
        else {
            p->value = list[i + 1];
            p->given = true;
        }
    }
    *len = list && err == CL_SUCCESS ? i + 1 : 0;
    return err;
}
