/* Property lists of bitfield properties (command-buffer creation, recorded commands). */
#ifndef CV_API_COMMAND_BUFFER_PROPS_H
#define CV_API_COMMAND_BUFFER_PROPS_H

#include "util/cl_headers.h"

#include <stdbool.h>
#include <stddef.h>

/* A property whose value is a bitfield: its name and the bits defined for it; reading fills in
 * the value and whether it was given. */
typedef struct cv_bits_property {
    cl_properties name;
    cl_bitfield known;
    cl_bitfield value;
    bool given;
} cv_bits_property;

/* Reads a 0-terminated list (NULL: none) against n properties. *len receives its entries with
 * the terminator (0 for NULL). "CL_INVALID_VALUE if values specified in properties are not valid,
 * or if the same property name is specified more than once." (an unknown name, or bits outside
 * the known ones) */
cl_int cv_read_bits_properties(const cl_properties *list, cv_bits_property *props, size_t n,
                               size_t *len);

#endif
