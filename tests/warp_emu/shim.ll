; Defines the special-register emu.* functions the retargeted builtins call (kernels.cmake
; renames llvm.nvvm.* to emu.*) on warp_emu.c; the warp instructions' emu.* names are
; warp_emu.c's own functions, called directly.
target triple = "x86_64-pc-linux-gnu"
declare i32 @emu_sreg(i32)
define i32 @emu.read.ptx.sreg.tid.x() alwaysinline { %r = call i32 @emu_sreg(i32 0)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.tid.y() alwaysinline { %r = call i32 @emu_sreg(i32 1)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.tid.z() alwaysinline { %r = call i32 @emu_sreg(i32 2)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.ntid.x() alwaysinline { %r = call i32 @emu_sreg(i32 3)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.ntid.y() alwaysinline { %r = call i32 @emu_sreg(i32 4)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.ntid.z() alwaysinline { %r = call i32 @emu_sreg(i32 5)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.laneid() alwaysinline { %r = call i32 @emu_sreg(i32 6)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.lanemask.eq() alwaysinline { %r = call i32 @emu_sreg(i32 7)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.lanemask.le() alwaysinline { %r = call i32 @emu_sreg(i32 8)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.lanemask.lt() alwaysinline { %r = call i32 @emu_sreg(i32 9)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.lanemask.ge() alwaysinline { %r = call i32 @emu_sreg(i32 10)
 ret i32 %r }
define i32 @emu.read.ptx.sreg.lanemask.gt() alwaysinline { %r = call i32 @emu_sreg(i32 11)
 ret i32 %r }
