# The Debian package: `cpack -G DEB` in the build folder writes culvert_VERSION_ARCH.deb with
# everything `cmake --install` installs (libculvert, CL/cl_culvert.h, culvert-clc, culvert-demo,
# the .icd file). It installs under CMAKE_INSTALL_PREFIX: configure with
# -DCMAKE_INSTALL_PREFIX=/usr for a package that installs as distribution packages do.
# The .icd file is a plain file, not a conffile, so removing the package removes it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME culvert)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "culvert maintainers <maintainers@users.noreply.a-seed-402f14f8.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL 3.0 ICD for NVIDIA GPUs on the CUDA driver API")
set(CPACK_PACKAGE_DESCRIPTION
    "culvert registers with the OpenCL ICD loader and runs OpenCL programs on NVIDIA GPUs through \
the CUDA driver API (libcuda.so.1, loaded at run time). OpenCL C is compiled to PTX by clang and \
libclc ${CULVERT_LLVM_MAJOR} in helper processes. Includes the offline compiler culvert-clc and \
the demo culvert-demo.")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES TRUE)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# The compiler's tools are run as programs (never linked), so dpkg-shlibdeps cannot see them.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "ocl-icd-libopencl1, clang-${CULVERT_LLVM_MAJOR}, llvm-${CULVERT_LLVM_MAJOR}, \
libclc-${CULVERT_LLVM_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)       # libc6, and libOpenCL for culvert-demo
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON) # shlibs, and ldconfig in postinst/postrm
set(CPACK_DEBIAN_PACKAGE_PROVIDES opencl-icd)
# The header includes CL/cl.h; libcuda1 (the NVIDIA driver) may come from outside Debian.
# llvm-spirv-15 is run for SPIR-V programs (clCreateProgramWithIL): without it none are claimed.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "opencl-c-headers, llvm-spirv-15")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libcuda1, clinfo")
include(CPack)
