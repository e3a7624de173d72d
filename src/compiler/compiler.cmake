# culvert_compiler: OpenCL C -> PTX (see src/compiler/README.md). Included from src/CMakeLists.txt.
set(CULVERT_LLVM_MAJOR 16 CACHE STRING "LLVM major version of clang/llc/libclc culvert uses")
set(_llvm_hints /usr/lib/llvm-${CULVERT_LLVM_MAJOR}/bin)
find_program(CULVERT_CLANG NAMES clang-${CULVERT_LLVM_MAJOR} clang HINTS ${_llvm_hints}
             DOC "clang used to compile OpenCL C (default; CULVERT_CLANG overrides at run time)")
find_program(CULVERT_LLVM_LINK NAMES llvm-link-${CULVERT_LLVM_MAJOR} llvm-link HINTS ${_llvm_hints})
find_path(CULVERT_LIBCLC_DIR NAMES nvptx64--nvidiacl.bc nvptx64--.bc
          PATHS /usr/lib/clc /usr/share/clc /usr/lib/llvm-${CULVERT_LLVM_MAJOR}/lib/clc
          DOC "libclc's directory (default; CULVERT_LIBCLC_DIR overrides at run time)")

set(_builtins_dir ${CMAKE_CURRENT_SOURCE_DIR}/compiler/builtins)
set(_builtins_ll ${_builtins_dir}/launch_info.ll ${_builtins_dir}/atomics64.ll
                 ${_builtins_dir}/native.ll ${_builtins_dir}/c11_atomics.ll
                 ${_builtins_dir}/core20.ll ${_builtins_dir}/subgroups.ll
                 ${_builtins_dir}/subgroup_ext.ll ${_builtins_dir}/fma.ll
                 ${_builtins_dir}/workgroup.ll ${_builtins_dir}/generic.ll
                 ${_builtins_dir}/clc_gaps.ll)
set(_builtins_c ${CMAKE_CURRENT_BINARY_DIR}/cvc_builtins_data.c)
# An LLVM IR library assembled into one bitcode file and embedded in libculvert as the C array
# NAME (and NAME_size), generated into OUT_C.
function(culvert_embed_ir NAME OUT_C COMMENT)
  set(_bc ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.bc)
  add_custom_command(OUTPUT ${OUT_C}
    COMMAND ${CULVERT_LLVM_LINK} ${ARGN} -o ${_bc}
    COMMAND ${CMAKE_COMMAND} -DIN=${_bc} -DOUT=${OUT_C} -DNAME=${NAME}
            -P ${_builtins_dir}/embed.cmake
    DEPENDS ${ARGN} ${_builtins_dir}/embed.cmake
    COMMENT ${COMMENT})
endfunction()

if(CULVERT_LLVM_LINK)
  # culvert's builtins library, embedded in the library.
  culvert_embed_ir(cvc_builtins_bc ${_builtins_c} "Building culvert's OpenCL C builtins"
                   ${_builtins_ll})
  # The math builtins on CUDA's libdevice: a second library, linked only when libdevice is there.
  set(_libdevice_c ${CMAKE_CURRENT_BINARY_DIR}/cvc_libdevice_data.c)
  culvert_embed_ir(cvc_libdevice_bc ${_libdevice_c} "Building culvert's libdevice math wrappers"
                   ${_builtins_dir}/libdevice.ll)
  set(_libdevice_fast_c ${CMAKE_CURRENT_BINARY_DIR}/cvc_libdevice_fast_data.c)
  culvert_embed_ir(cvc_libdevice_fast_bc ${_libdevice_fast_c}
                   "Building culvert's relaxed-math wrappers" ${_builtins_dir}/libdevice_fast.ll)
  # The half builtins: their own library, linked only for sources that name half (cvc_link_plan.c).
  set(_half_c ${CMAKE_CURRENT_BINARY_DIR}/cvc_half_data.c)
  culvert_embed_ir(cvc_half_bc ${_half_c} "Building culvert's half-precision builtins"
                   ${_builtins_dir}/half.ll)
  # The image builtins: their own library, linked only for image targets' sources that name images.
  set(_images_c ${CMAKE_CURRENT_BINARY_DIR}/cvc_images_data.c)
  culvert_embed_ir(cvc_images_bc ${_images_c} "Building culvert's image builtins"
                   ${_builtins_dir}/images.ll)
  # The empty module: fills unused library places of a stage started ahead (cvc_spare.c).
  set(_empty_c ${CMAKE_CURRENT_BINARY_DIR}/cvc_empty_data.c)
  culvert_embed_ir(cvc_empty_bc ${_empty_c} "Building the empty module" ${_builtins_dir}/empty.ll)
  list(APPEND _builtins_c ${_half_c} ${_images_c} ${_libdevice_c} ${_libdevice_fast_c} ${_empty_c})
else()
  message(WARNING "llvm-link not found: culvert is built without its OpenCL C compiler")
  file(WRITE ${_builtins_c} "#include <stddef.h>\nconst unsigned char cvc_builtins_bc[1];\n"
       "const size_t cvc_builtins_bc_size = 0;\nconst unsigned char cvc_libdevice_bc[1];\n"
       "const size_t cvc_libdevice_bc_size = 0;\nconst unsigned char cvc_libdevice_fast_bc[1];\n"
       "const size_t cvc_libdevice_fast_bc_size = 0;\n"
       "const unsigned char cvc_half_bc[1];\nconst size_t cvc_half_bc_size = 0;\n"
       "const unsigned char cvc_images_bc[1];\nconst size_t cvc_images_bc_size = 0;\n"
       "const unsigned char cvc_empty_bc[1];\nconst size_t cvc_empty_bc_size = 0;\n")
endif()

# CUDA's libdevice (math functions), from the toolkit found at configure time.
find_file(CULVERT_LIBDEVICE libdevice.10.bc
          PATHS ${CUDAToolkit_LIBRARY_ROOT}/nvvm/libdevice ${CUDAToolkit_BIN_DIR}/../nvvm/libdevice
                /usr/local/cuda/nvvm/libdevice /usr/lib/nvidia-cuda-toolkit/libdevice
          NO_DEFAULT_PATH DOC "CUDA libdevice (default; CULVERT_LIBDEVICE overrides at run time)")

file(GLOB CULVERT_COMPILER_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/compiler/*.c)
add_library(culvert_compiler STATIC ${CULVERT_COMPILER_SOURCES} ${_builtins_c})
target_include_directories(culvert_compiler PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                           ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(culvert_compiler PUBLIC Threads::Threads)
target_compile_definitions(culvert_compiler PRIVATE
  CVC_LLVM_MAJOR=${CULVERT_LLVM_MAJOR}
  CVC_DEFAULT_CLANG="$<$<BOOL:${CULVERT_CLANG}>:${CULVERT_CLANG}>"
  CVC_DEFAULT_LIBCLC_DIR="$<$<BOOL:${CULVERT_LIBCLC_DIR}>:${CULVERT_LIBCLC_DIR}>"
  CVC_DEFAULT_LIBDEVICE="$<$<BOOL:${CULVERT_LIBDEVICE}>:${CULVERT_LIBDEVICE}>")

# The tool server (server/tool_server.c): preloaded into clang, llc, llvm-link and llvm-nm so
# that each loads once per process and forks for every run (cvc_server.c). Beside libculvert as
# culvert/tool-server.so, in the build tree as installed.
add_library(culvert_tool_server MODULE ${CMAKE_CURRENT_SOURCE_DIR}/compiler/server/tool_server.c
            ${CMAKE_CURRENT_SOURCE_DIR}/compiler/server/codegen.c)
target_include_directories(culvert_tool_server PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(culvert_tool_server PRIVATE ${CMAKE_DL_LIBS})
set_target_properties(culvert_tool_server PROPERTIES PREFIX "" OUTPUT_NAME tool-server
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/culvert)
install(TARGETS culvert_tool_server LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/culvert)
add_dependencies(culvert_compiler culvert_tool_server)
target_link_libraries(culvert_compiler PUBLIC ${CMAKE_DL_LIBS})
target_compile_definitions(culvert_compiler PRIVATE
  CVC_TOOL_SERVER_BUILT="$<TARGET_FILE:culvert_tool_server>"
  CVC_TOOL_SERVER_INSTALLED="${CMAKE_INSTALL_FULL_LIBDIR}/culvert/tool-server.so")
