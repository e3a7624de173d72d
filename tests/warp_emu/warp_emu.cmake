# unit.subgroup_emu (see driver.c): tests/gpu/subgroup_ext.c on a CPU warp emulator, so the
# sub-group builtins are checked without a GPU. Needs clang, llvm-link, opt and llc 16.
set(_llvm_hints /usr/lib/llvm-${CULVERT_LLVM_MAJOR}/bin)
find_program(CV_EMU_OPT NAMES opt-${CULVERT_LLVM_MAJOR} opt HINTS ${_llvm_hints})
find_program(CV_EMU_LLC NAMES llc-${CULVERT_LLVM_MAJOR} llc HINTS ${_llvm_hints})
if(CULVERT_CLANG AND CULVERT_LLVM_LINK AND CV_EMU_OPT AND CV_EMU_LLC)
  set(_emu ${CMAKE_CURRENT_SOURCE_DIR}/warp_emu)
  set(_work ${CMAKE_CURRENT_BINARY_DIR}/warp_emu)
  set(_builtins ${PROJECT_SOURCE_DIR}/src/compiler/builtins)
  file(MAKE_DIRECTORY ${_work})
  add_executable(warp_emu_dump ${_emu}/dump.c ${_emu}/fake_cl.c ${_emu}/warp_emu.c)
  target_include_directories(warp_emu_dump PRIVATE ${_emu})
  target_link_libraries(warp_emu_dump PRIVATE cv_test_util ${CMAKE_DL_LIBS})
  add_custom_command(OUTPUT ${_work}/kernels.o
    COMMAND warp_emu_dump > ${_work}/kernels.cl
    COMMAND ${CMAKE_COMMAND} -DCLANG=${CULVERT_CLANG} -DLLVM_LINK=${CULVERT_LLVM_LINK}
            -DOPT=${CV_EMU_OPT} -DLLC=${CV_EMU_LLC} -DSOURCE=${_work}/kernels.cl
            "-DBUILTINS=${_builtins}/subgroups.ll\;${_builtins}/subgroup_ext.ll"
            -DNEEDED=${_builtins}/half.ll
            -DSHIM=${_emu}/shim.ll -DWORK=${_work} -DOUT=${_work}/kernels.o
            -P ${_emu}/kernels.cmake
    DEPENDS warp_emu_dump ${_emu}/kernels.cmake ${_emu}/shim.ll ${_builtins}/subgroups.ll
            ${_builtins}/subgroup_ext.ll ${_builtins}/half.ll
    COMMENT "Building the sub-group kernels for the warp emulator")
  add_executable(warp_emu_subgroup_ext ${_emu}/driver.c ${_emu}/fake_cl.c ${_emu}/warp_emu.c
                                       ${_work}/kernels.o)
  target_include_directories(warp_emu_subgroup_ext PRIVATE ${_emu})
  target_link_libraries(warp_emu_subgroup_ext PRIVATE cv_test_util ${CMAKE_DL_LIBS})
  set_target_properties(warp_emu_subgroup_ext PROPERTIES ENABLE_EXPORTS ON)
  add_test(NAME unit.subgroup_emu COMMAND warp_emu_subgroup_ext)
  set_tests_properties(unit.subgroup_emu PROPERTIES LABELS unit TIMEOUT 600)
endif()
