/* A CPU emulation of NVIDIA warps for culvert's sub-group builtins (tests/warp_emu/README in
 * warp_emu.c). */
#ifndef WARP_EMU_H
#define WARP_EMU_H

#include <stddef.h>
#include <stdint.h>

/* The launch the lanes see (get_global_size, get_local_size, %ntid). */
extern size_t emu_global[2], emu_local[2];
/* Errors found in the way the code uses warp instructions (a lane outside its membermask,
 * lanes of one instruction with different masks); a deadlock exits the process. */
extern int emu_errors;

/* Runs fn on n lanes (1..32) of one warp; setup(lane, gid, lid) gives each lane its ids. */
void emu_run_warp(int n, void (*fn)(void), void (*setup)(int lane, size_t *gid, size_t *lid));

#endif
