# workgroup.ll for the host, for unit.workgroup_emulation: no NVPTX target, __local is plain
# memory, and the NVPTX intrinsics (@llvm.nvvm.*) become functions the test defines
# (@cv_emu.nvvm.*). Run as cmake -DIN=workgroup.ll -DOUT=host.ll -P workgroup_host.cmake.
file(READ ${IN} ir)
string(REGEX REPLACE "target (datalayout|triple) = \"[^\"]*\"" "" ir "${ir}")
string(REPLACE " addrspace(3)" "" ir "${ir}")
string(REPLACE "@llvm.nvvm." "@cv_emu.nvvm." ir "${ir}")
file(WRITE ${OUT} "${ir}")
