# cmake -DCLANG= -DLLVM_LINK= -DOPT= -DLLC= -DSOURCE=<kernels.cl> -DBUILTINS=<a.ll;b.ll>
#       -DNEEDED=<c.ll> -DSHIM=<shim.ll> -DWORK=<dir> -DOUT=<kernels.o> -P kernels.cmake
# Builds the OpenCL C kernels and culvert's sub-group builtins for the host, for warp_emu.c:
# the kernels compile as culvert compiles them (nvptx64-nvidia-nvcl, so the IR has the same
# calls and types), then both are retargeted: the NVPTX data layout and address spaces go,
# llvm.nvvm.* become emu.* (shim.ll) and the activemask inline asm a call of emu.activemask
# (call-site attributes such as nomerge kept). Of NEEDED (half.ll, whose other functions call
# math that is not here) only what the rest calls is linked.
execute_process(COMMAND ${CLANG} -print-resource-dir OUTPUT_VARIABLE resource
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CLANG} -print-resource-dir failed")
endif()
set(defines "")
foreach(e extended_types shuffle shuffle_relative ballot non_uniform_vote non_uniform_arithmetic
          clustered_reduce)
  list(APPEND defines -Dcl_khr_subgroup_${e}=1)
endforeach()
execute_process(COMMAND ${CLANG} -cc1 -triple nvptx64-nvidia-nvcl -internal-isystem
                        ${resource}/include -x cl -cl-std=CL3.0 -finclude-default-header
                        -fdeclare-opencl-builtins -Wno-everything
                        -cl-ext=+cl_khr_subgroups,+__opencl_c_subgroups,+cl_khr_fp64,+__opencl_c_fp64,+cl_khr_fp16,+__opencl_c_fp16
                        ${defines} -O3 -disable-llvm-passes -emit-llvm -o ${WORK}/kernels.nvptx.ll
                        ${SOURCE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang failed on ${SOURCE}")
endif()

set(parts ${SHIM})
set(needed "")
foreach(f ${WORK}/kernels.nvptx.ll ${BUILTINS} ${NEEDED})
  file(READ ${f} ir)
  string(REGEX REPLACE "target datalayout = \"[^\"]*\"" "" ir "${ir}")
  string(REGEX REPLACE "target triple = \"[^\"]*\"" "target triple = \"x86_64-pc-linux-gnu\""
         ir "${ir}")
  string(REGEX REPLACE " addrspace\\([0-9]+\\)" "" ir "${ir}")
  string(REPLACE "@llvm.nvvm." "@emu." ir "${ir}")
  string(REPLACE "asm sideeffect \"activemask.b32 $0;\", \"=r\"()" "@emu.activemask()" ir "${ir}")
  get_filename_component(name ${f} NAME_WE)
  file(WRITE ${WORK}/${name}.host.ll "${ir}\ndeclare i32 @emu.activemask()\n")
  list(FIND NEEDED ${f} in_needed)
  if(in_needed GREATER -1)
    list(APPEND needed ${WORK}/${name}.host.ll)
  else()
    list(APPEND parts ${WORK}/${name}.host.ll)
  endif()
endforeach()
foreach(step
        "${LLVM_LINK};${parts};-o;${WORK}/all0.bc"
        "${LLVM_LINK};${WORK}/all0.bc;--only-needed;${needed};-o;${WORK}/all.bc"
        "${OPT};-passes=always-inline,default<O3>;${WORK}/all.bc;-o;${WORK}/all.opt.bc"
        "${LLC};-O1;-filetype=obj;-relocation-model=pic;${WORK}/all.opt.bc;-o;${OUT}")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${step}: ${err}")
  endif()
endforeach()
