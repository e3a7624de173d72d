/* unit.subgroup_emu: tests/gpu/subgroup_ext.c, unchanged, on the warp emulator: its kernels
 * (built for the host with culvert's sub-group builtins by kernels.cmake) run on warp_emu.c
 * through fake_cl.c, and its CPU model checks every result. */
#include "fake_cl.h"

#include "../gpu/subgroup_ext.c"
