/* Optional features culvert does not claim (pipes, native and built-in
 * kernels, device-side queues, GL/EGL sharing). Each entry point checks the handles
 * it is given, then answers the error the spec gives for a device without the feature: the
 * application learns why, and takes its fallback path. */
#include "api/entry_points.h"
#include "util/log.h"
#include "core/mem.h"
#include "core/program.h"
#include "core/queue.h"

/* These entry points never need most of their arguments. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* "CL_INVALID_CONTEXT if context is not a valid context." Otherwise the feature's error. */
static cl_int cv_in_context(cl_context context, cl_int feature_error) {
    cl_int err = cv_is_context(context) ? feature_error : CL_INVALID_CONTEXT;
    CV_API_ERROR(err);
    return err;
}

/* "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue." Otherwise the
 * feature's error. */
static cl_int cv_on_queue(cl_command_queue queue, cl_int feature_error) {
    cl_int err = cv_is_queue(queue) ? feature_error : CL_INVALID_COMMAND_QUEUE;
    CV_API_ERROR(err);
    return err;
}

/* For calls that return an object: the error goes to errcode_ret, the object is NULL. */
static void *cv_no_object(cl_int err, cl_int *errcode_ret) {
    if (errcode_ret)
        *errcode_ret = err;
    return NULL;
}

/* "CL_INVALID_OPERATION if the device associated with command_queue cannot execute the native
 * kernel." A GPU cannot. */
cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                         void(CL_CALLBACK *user_func)(void *), void *args,
                                         size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem *mem_list, const void **args_mem_loc,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event) {
    return cv_on_queue(command_queue, CL_INVALID_OPERATION);
}

/* "CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a kernel name that is not
 * supported by any of the devices in device_list." culvert has no built-in kernels. */
cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *device_list,
                                                         const char *kernel_names,
                                                         cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_VALUE), errcode_ret);
}

/* "CL_INVALID_OPERATION if device does not support a replaceable default on-device queue." */
cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
    return cv_in_context(context, CL_INVALID_OPERATION);
}

/* Pipes: "CL_INVALID_OPERATION if no devices in context support pipes." */
cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_OPERATION), errcode_ret);
}

/* "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object." None can be. */
cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret) {
    CV_API_ERROR(CL_INVALID_MEM_OBJECT);
    return CL_INVALID_MEM_OBJECT;
}

/* GL and EGL sharing (cl_khr_gl_sharing, cl_khr_egl_image, cl_khr_egl_event are not claimed):
 * "CL_INVALID_CONTEXT if context is not a valid context or was not created from a GL context."
 * No culvert context is. */
cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj,
                                        int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_CONTEXT), errcode_ret);
}

cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                                           cl_GLint miplevel, cl_GLuint texture,
                                           cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_CONTEXT), errcode_ret);
}

cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                                           cl_GLint miplevel, cl_GLuint texture,
                                           cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_CONTEXT), errcode_ret);
}

cl_mem CL_API_CALL clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target,
                                         cl_GLint miplevel, cl_GLuint texture,
                                         cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_CONTEXT), errcode_ret);
}

cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags,
                                              cl_GLuint renderbuffer, cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_CONTEXT), errcode_ret);
}

/* "CL_INVALID_GL_OBJECT if there is no GL object associated with memobj." */
cl_int CL_API_CALL clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type,
                                     cl_GLuint *gl_object_name) {
    cl_int err = cv_is_mem(memobj) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
    CV_API_ERROR(err);
    return err;
}

cl_int CL_API_CALL clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
    cl_int err = cv_is_mem(memobj) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
    CV_API_ERROR(err);
    return err;
}

/* "CL_INVALID_CONTEXT if context associated with command_queue was not created from an OpenGL
 * context" */
cl_int CL_API_CALL clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                             const cl_mem *mem_objects,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event) {
    return cv_on_queue(command_queue, CL_INVALID_CONTEXT);
}

cl_int CL_API_CALL clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                             const cl_mem *mem_objects,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event *event_wait_list, cl_event *event) {
    return cv_on_queue(command_queue, CL_INVALID_CONTEXT);
}

/* cl_khr_gl_sharing is not claimed: "CL_INVALID_OPERATION if ... the GL context ... cannot be
 * used". */
cl_int CL_API_CALL clGetGLContextInfoKHR(const cl_context_properties *properties,
                                         cl_gl_context_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
    CV_API_ERROR(CL_INVALID_OPERATION);
    return CL_INVALID_OPERATION;
}

cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync,
                                                cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_CONTEXT), errcode_ret);
}

cl_mem CL_API_CALL clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR display,
                                           CLeglImageKHR image, cl_mem_flags flags,
                                           const cl_egl_image_properties_khr *properties,
                                           cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_OPERATION), errcode_ret);
}

cl_int CL_API_CALL clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue,
                                                 cl_uint num_objects, const cl_mem *mem_objects,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event) {
    return cv_on_queue(command_queue, CL_INVALID_OPERATION);
}

cl_int CL_API_CALL clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue,
                                                 cl_uint num_objects, const cl_mem *mem_objects,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event) {
    return cv_on_queue(command_queue, CL_INVALID_OPERATION);
}

cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync,
                                                 CLeglDisplayKHR display, cl_int *errcode_ret) {
    return cv_no_object(cv_in_context(context, CL_INVALID_OPERATION), errcode_ret);
}
