/* Program entry points: creation from source and binaries, build, compile, link, queries. */
#include "api/entry_points.h"
#include "util/log.h"
#include "core/program.h"

typedef void(CL_CALLBACK *cv_notify_fn)(cl_program program, void *user_data);

/* The device-list rules every build step shares. */
static cl_int cv_check_device_list(cl_program p, cl_context ctx, cl_uint num_devices,
                                   const cl_device_id *device_list, cv_notify_fn notify,
                                   void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or if
     * device_list is not NULL and num_devices is zero." */
    if ((device_list == NULL) != (num_devices == 0))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL." */
    else if (!notify && user_data)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_DEVICE if any device in device_list is not in the list of devices associated
     * with program." */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++)
        if (!cv_is_device(device_list[i]) || (p ? !cv_program_device_of(p, device_list[i])
                                                : !cv_context_has_device(ctx, device_list[i])))
            err = CL_INVALID_DEVICE;
    return err;
}

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_program p = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL." */
    else if (count == 0 || !strings)
        err = CL_INVALID_VALUE;
    for (cl_uint i = 0; err == CL_SUCCESS && i < count; i++)
        if (!strings[i])
            err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        p = cv_program_create_with_source(context, count, strings, lengths, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return p;
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_program p = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_OPERATION if no devices in context support intermediate language programs." */
    else if (!cv_program_il_supported())
        err = CL_INVALID_OPERATION;
    /* "CL_INVALID_VALUE if il is NULL or if length is zero." (What is no SPIR-V module gets
     * CL_INVALID_VALUE from the program: "if the length-byte memory pointed to by il does not
     * contain well-formed intermediate language input".) */
    else if (!il || length == 0)
        err = CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        p = cv_program_create_with_il(context, il, length, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return p;
}

cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il, size_t length,
                                                cl_int *errcode_ret) {
    /* cl_khr_il_program's name for the same call. */
    return clCreateProgramWithIL(context, il, length, errcode_ret);
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                      size_t spec_size, const void *spec_value) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_PROGRAM if program is not a valid program object created from an
     * intermediate language (e.g. SPIR-V)." / "CL_INVALID_OPERATION if no devices associated
     * with program support intermediate language programs." (the second for a valid program,
     * as the CTS's consistency_il_programs wants) */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    else if (!cv_program_il_supported())
        err = CL_INVALID_OPERATION;
    else if (!program->il)
        err = CL_INVALID_PROGRAM;
    /* "CL_INVALID_VALUE if ... spec_value is NULL." */
    else if (!spec_value)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier." /
     * "CL_INVALID_VALUE if spec_size does not match the size of the specialization constant in
     * the module" */
    else
        err = cv_program_set_spec_constant(program, spec_id, spec_size, spec_value);
    CV_API_ERROR(err);
    return err;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_program p = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    /* "CL_INVALID_VALUE if device_list is NULL or num_devices is zero." */
    else if (!device_list || num_devices == 0)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_VALUE if lengths or binaries is NULL" (entries are checked per device, with
     * their binary_status). */
    else if (!lengths || !binaries)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_DEVICE if any device in device_list is not in the list of devices associated
     * with context." */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_devices; i++)
        if (!cv_is_device(device_list[i]) || !cv_context_has_device(context, device_list[i]))
            err = CL_INVALID_DEVICE;
    /* "CL_INVALID_BINARY if an invalid program binary was encountered for any device.
     * binary_status will return specific status for each device." */
    if (err == CL_SUCCESS)
        p = cv_program_create_with_binary(context, num_devices, device_list, lengths, binaries,
                                          binary_status, &err);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return p;
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    cl_int err = cv_is_program(program) ? CL_SUCCESS : CL_INVALID_PROGRAM;
    if (err == CL_SUCCESS)
        cv_retain(&program->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    cl_int err = cv_is_program(program) ? CL_SUCCESS : CL_INVALID_PROGRAM;
    /* "The program object is deleted after all kernel objects associated with program have
     * been deleted and the program reference count becomes zero": kernels hold it. */
    if (err == CL_SUCCESS)
        cv_release(&program->obj);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clBuildProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    else
        err = cv_check_device_list(program, NULL, num_devices, device_list, pfn_notify, user_data);
    /* The build is done when this returns; the notification follows it (the spec allows an
     * implementation that does not return before the build completes). */
    bool built = err == CL_SUCCESS;
    if (built)
        err = cv_program_build(program, num_devices, device_list, options);
    if (built && err != CL_INVALID_OPERATION && pfn_notify)
        pfn_notify(program, user_data);
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_PROGRAM if program is a not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    else
        err = cv_program_info(program, param_name,
                              &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
    cl_int err;
    /* "CL_INVALID_PROGRAM if program is a not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    /* "CL_INVALID_DEVICE if device is not in the list of devices associated with program." */
    else if (!cv_is_device(device) || !cv_program_device_of(program, device))
        err = CL_INVALID_DEVICE;
    else
        err = cv_program_build_info(program, device, param_name,
                                    &CV_INFO(param_value_size, param_value, param_value_size_ret));
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data), void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    else
        err = cv_check_device_list(program, NULL, num_devices, device_list, pfn_notify, user_data);
    /* "CL_INVALID_VALUE if num_input_headers is zero and header_include_names or input_headers
     * are not NULL or if num_input_headers is not zero and header_include_names or
     * input_headers are NULL." */
    if (err == CL_SUCCESS && (num_input_headers == 0) != (!input_headers && !header_include_names))
        err = CL_INVALID_VALUE;
    else if (err == CL_SUCCESS && num_input_headers && (!input_headers || !header_include_names))
        err = CL_INVALID_VALUE;
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_input_headers; i++) {
        if (!cv_is_program(input_headers[i]))
            err = CL_INVALID_PROGRAM;
        else if (!header_include_names[i])
            err = CL_INVALID_VALUE;
    }
    /* "CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not been
     * created with clCreateProgramWithSource or clCreateProgramWithIL." */
    if (err == CL_SUCCESS && !program->source && !program->il)
        err = CL_INVALID_OPERATION;
    bool compiled = err == CL_SUCCESS;
    if (compiled)
        err = cv_program_compile(program, num_devices, device_list, options, num_input_headers,
                                 input_headers, header_include_names);
    /* "CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are invalid." */
    if (err == CL_INVALID_BUILD_OPTIONS)
        err = CL_INVALID_COMPILER_OPTIONS;
    if (compiled && err != CL_INVALID_OPERATION && pfn_notify)
        pfn_notify(program, user_data);
    CV_API_ERROR(err);
    return err;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *options,
                                     cl_uint num_input_programs, const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program program,
                                                                   void *user_data),
                                     void *user_data, cl_int *errcode_ret) {
    cl_int err = CL_SUCCESS;
    cl_program p = NULL;
    /* "CL_INVALID_CONTEXT if context is not a valid context." */
    if (!cv_is_context(context))
        err = CL_INVALID_CONTEXT;
    else
        err = cv_check_device_list(NULL, context, num_devices, device_list, pfn_notify, user_data);
    /* "CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL or if
     * num_input_programs is zero and input_programs is not NULL or if num_input_programs is not
     * zero and input_programs is NULL." */
    if (err == CL_SUCCESS && (num_input_programs == 0 || !input_programs))
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_PROGRAM if programs specified in input_programs are not valid program
     * objects." */
    for (cl_uint i = 0; err == CL_SUCCESS && i < num_input_programs; i++)
        if (!cv_is_program(input_programs[i]) || input_programs[i]->context != context)
            err = CL_INVALID_PROGRAM;
    if (err == CL_SUCCESS)
        p = cv_program_link(context, num_devices, device_list, options, num_input_programs,
                            input_programs, &err);
    /* "CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid." */
    if (err == CL_INVALID_BUILD_OPTIONS)
        err = CL_INVALID_LINKER_OPTIONS;
    if (p && pfn_notify)
        pfn_notify(p, user_data);
    if (errcode_ret)
        *errcode_ret = err;
    CV_API_ERROR(err);
    return p;
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK *pfn_notify)(cl_program program,
                                                                             void *user_data),
                                               void *user_data) {
    cl_int err = CL_SUCCESS;
    /* "CL_INVALID_PROGRAM if program is not a valid program object." */
    if (!cv_is_program(program))
        err = CL_INVALID_PROGRAM;
    /* "CL_INVALID_VALUE if pfn_notify is NULL." */
    else if (!pfn_notify)
        err = CL_INVALID_VALUE;
    /* "CL_INVALID_OPERATION if no devices in the context associated with program support
     * destructors for program scope global variables." No culvert device runs program-scope
     * constructors or destructors (CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT is CL_FALSE). */
    else
        err = CL_INVALID_OPERATION;
    (void)user_data;
    CV_API_ERROR(err);
    return err;
}
