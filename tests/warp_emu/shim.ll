; Defines the emu.* functions the retargeted builtins call (kernels.cmake renames llvm.nvvm.*
; to emu.*) on warp_emu.c. alwaysinline: each inlined call keeps its own call site.
target triple = "x86_64-pc-linux-gnu"
declare i32 @emu_shfl(i32, i32, i32, i32, i32)
declare i32 @emu_vote(i32, i32, i32)
declare i32 @emu_sreg(i32)
declare void @emu_sync(i32)
declare i32 @emu_activemask()
define i32 @emu.shfl.sync.idx.i32(i32 %m, i32 %v, i32 %b, i32 %c) alwaysinline { %r = call i32 @emu_shfl(i32 0, i32 %m, i32 %v, i32 %b, i32 %c)
 ret i32 %r }
define i32 @emu.shfl.sync.up.i32(i32 %m, i32 %v, i32 %b, i32 %c) alwaysinline { %r = call i32 @emu_shfl(i32 1, i32 %m, i32 %v, i32 %b, i32 %c)
 ret i32 %r }
define i32 @emu.shfl.sync.down.i32(i32 %m, i32 %v, i32 %b, i32 %c) alwaysinline { %r = call i32 @emu_shfl(i32 2, i32 %m, i32 %v, i32 %b, i32 %c)
 ret i32 %r }
define i32 @emu.shfl.sync.bfly.i32(i32 %m, i32 %v, i32 %b, i32 %c) alwaysinline { %r = call i32 @emu_shfl(i32 3, i32 %m, i32 %v, i32 %b, i32 %c)
 ret i32 %r }
define i1 @emu.vote.all.sync(i32 %m, i1 %p) alwaysinline { %z = zext i1 %p to i32
 %r = call i32 @emu_vote(i32 0, i32 %m, i32 %z)
 %b = icmp ne i32 %r, 0
 ret i1 %b }
define i1 @emu.vote.any.sync(i32 %m, i1 %p) alwaysinline { %z = zext i1 %p to i32
 %r = call i32 @emu_vote(i32 1, i32 %m, i32 %z)
 %b = icmp ne i32 %r, 0
 ret i1 %b }
define i32 @emu.vote.ballot.sync(i32 %m, i1 %p) alwaysinline { %z = zext i1 %p to i32
 %r = call i32 @emu_vote(i32 2, i32 %m, i32 %z)
 ret i32 %r }
define void @emu.bar.warp.sync(i32 %m) alwaysinline { call void @emu_sync(i32 %m)
 ret void }
define i32 @emu.activemask() alwaysinline { %r = call i32 @emu_activemask()
 ret i32 %r }
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
