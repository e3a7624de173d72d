/* cl_khr_command_buffer_mutable_dispatch 0.9.5 entry points: the checks of the call itself;
 * each config's own checks are core's (core/command_buffer_mutable.c), which applies all of them
 * or none. */
#include "api/entry_points.h"
#include "core/command_buffer.h"
#include "util/log.h"

cl_int CL_API_CALL clUpdateMutableCommandsKHR(cl_command_buffer_khr command_buffer,
                                              cl_uint num_configs,
                                              const cl_command_buffer_update_type_khr *config_types,
                                              const void **configs) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid command-buffer." */
    if (!cv_is_command_buffer(command_buffer))
        err = CL_INVALID_COMMAND_BUFFER_KHR;
    /* "CL_INVALID_OPERATION if command_buffer has not been finalized." (again in core, under
     * the command buffer's lock) */
    else if (cv_command_buffer_state(command_buffer) == CL_COMMAND_BUFFER_STATE_RECORDING_KHR)
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_OPERATION if command_buffer was not created with the
     * CL_COMMAND_BUFFER_MUTABLE_KHR flag." */
    else if (!(command_buffer->flags & CL_COMMAND_BUFFER_MUTABLE_KHR))
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE if config_types is NULL and num_configs > 0, or config_types is not NULL
     * and num_configs is 0." / "CL_INVALID_VALUE if configs is NULL and num_configs > 0, or
     * configs is not NULL and num_configs is 0." */
    else if (!config_types != !num_configs || !configs != !num_configs)
        err = CL_INVALID_VALUE;
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_configs; i++) {
        /* "CL_INVALID_VALUE if any element of config_types is not a valid
         * cl_command_buffer_update_type_khr enum." */
        if (config_types[i] != CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR)
            err = CL_INVALID_VALUE;
        /* "CL_INVALID_VALUE if any element of configs is NULL." */
        else if (!configs[i])
            err = CL_INVALID_VALUE;
    }
    if (err == CL_SUCCESS)
        err = cv_command_buffer_update(command_buffer, num_configs,
                                       (const cl_mutable_dispatch_config_khr *const *)configs);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetMutableCommandInfoKHR(cl_mutable_command_khr command,
                                              cl_mutable_command_info_khr param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable command object." */
    if (!cv_is_mutable_command(command))
        err = CL_INVALID_MUTABLE_COMMAND_KHR;
    else
        err = cv_mutable_command_info(
            command, param_name, &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}
