; culvert's work-item builtins, read from the launch information block of docs/kernel-abi.md.
; They replace libclc's versions (linked first, so libclc's are never pulled in).
; The block is filled by the prologue the PTX loader adds to every .entry; the compiler only
; declares it. externally_initialized: the optimizer must not assume the undef initializer.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-nvcl"

@__cv_launch_info = internal addrspace(3) externally_initialized global [64 x i8] undef, align 8
@llvm.used = appending global [1 x ptr] [ptr addrspacecast (ptr addrspace(3) @__cv_launch_info to ptr)], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()

; %ntid.d as i64 (d < 3)
define internal i64 @__cv_ntid(i32 %d) alwaysinline {
  switch i32 %d, label %z [ i32 0, label %x
                            i32 1, label %y ]
x:
  %vx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %done
y:
  %vy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  br label %done
z:
  %vz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  br label %done
done:
  %v = phi i32 [ %vx, %x ], [ %vy, %y ], [ %vz, %z ]
  %r = zext i32 %v to i64
  ret i64 %r
}

define internal i64 @__cv_ctaid(i32 %d) alwaysinline {
  switch i32 %d, label %z [ i32 0, label %x
                            i32 1, label %y ]
x:
  %vx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  br label %done
y:
  %vy = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  br label %done
z:
  %vz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  br label %done
done:
  %v = phi i32 [ %vx, %x ], [ %vy, %y ], [ %vz, %z ]
  %r = zext i32 %v to i64
  ret i64 %r
}

define internal i64 @__cv_tid(i32 %d) alwaysinline {
  switch i32 %d, label %z [ i32 0, label %x
                            i32 1, label %y ]
x:
  %vx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %done
y:
  %vy = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  br label %done
z:
  %vz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  br label %done
done:
  %v = phi i32 [ %vx, %x ], [ %vy, %y ], [ %vz, %z ]
  %r = zext i32 %v to i64
  ret i64 %r
}

; The launch info fields (d < 3).
define internal i64 @__cv_global_offset(i32 %d) alwaysinline {
  %i = zext i32 %d to i64
  %p = getelementptr inbounds [3 x i64], ptr addrspace(3) @__cv_launch_info, i64 0, i64 %i
  %v = load i64, ptr addrspace(3) %p, align 8
  ret i64 %v
}

define internal i64 @__cv_global_size(i32 %d) alwaysinline {
  %i = zext i32 %d to i64
  %b = getelementptr inbounds i8, ptr addrspace(3) @__cv_launch_info, i64 24
  %p = getelementptr inbounds [3 x i64], ptr addrspace(3) %b, i64 0, i64 %i
  %v = load i64, ptr addrspace(3) %p, align 8
  ret i64 %v
}

; %ctaid.d + group_offset[d] in 32 bits: a launch never has more than UINT32_MAX groups in a
; dimension (culvert refuses larger ones), so the sum cannot wrap, and products with %ntid
; become one mul.wide.u32 instead of a 64-bit multiply.
define internal i64 @__cv_group_id(i32 %d) alwaysinline {
  %i = zext i32 %d to i64
  %b = getelementptr inbounds i8, ptr addrspace(3) @__cv_launch_info, i64 48
  %p = getelementptr inbounds [3 x i32], ptr addrspace(3) %b, i64 0, i64 %i
  %o = load i32, ptr addrspace(3) %p, align 4
  %c64 = call i64 @__cv_ctaid(i32 %d)
  %c = trunc i64 %c64 to i32
  %r32 = add nuw i32 %c, %o
  %r = zext i32 %r32 to i64
  ret i64 %r
}

define i32 @_Z12get_work_dimv() alwaysinline {
  %p = getelementptr inbounds i8, ptr addrspace(3) @__cv_launch_info, i64 60
  %v = load i32, ptr addrspace(3) %p, align 4
  ret i32 %v
}

define i64 @_Z17get_global_offsetj(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %v = call i64 @__cv_global_offset(i32 %d)
  ret i64 %v
out:
  ret i64 0
}

define i64 @_Z15get_global_sizej(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %v = call i64 @__cv_global_size(i32 %d)
  ret i64 %v
out:
  ret i64 1
}

define i64 @_Z12get_group_idj(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %v = call i64 @__cv_group_id(i32 %d)
  ret i64 %v
out:
  ret i64 0
}

define i64 @_Z23get_enqueued_local_sizej(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %v = call i64 @__cv_ntid(i32 %d)
  ret i64 %v
out:
  ret i64 1
}

; min(%ntid, global_size - group_id * %ntid): the last group of a non-uniform range is smaller.
define i64 @_Z14get_local_sizej(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %n = call i64 @__cv_ntid(i32 %d)
  %g = call i64 @__cv_global_size(i32 %d)
  %id = call i64 @__cv_group_id(i32 %d)
  %start = mul i64 %id, %n
  %left = sub i64 %g, %start
  %lt = icmp ult i64 %left, %n
  %v = select i1 %lt, i64 %left, i64 %n
  ret i64 %v
out:
  ret i64 1
}

; ceil(global_size / %ntid)
define i64 @_Z14get_num_groupsj(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %n = call i64 @__cv_ntid(i32 %d)
  %g = call i64 @__cv_global_size(i32 %d)
  %n1 = sub i64 %n, 1
  %s = add i64 %g, %n1
  %v = udiv i64 %s, %n
  ret i64 %v
out:
  ret i64 1
}

define i64 @_Z13get_global_idj(i32 %d) alwaysinline {
  %ok = icmp ult i32 %d, 3
  br i1 %ok, label %in, label %out
in:
  %n = call i64 @__cv_ntid(i32 %d)
  %id = call i64 @__cv_group_id(i32 %d)
  %t = call i64 @__cv_tid(i32 %d)
  %o = call i64 @__cv_global_offset(i32 %d)
  %a = mul i64 %id, %n
  %b = add i64 %a, %t
  %v = add i64 %b, %o
  ret i64 %v
out:
  ret i64 0
}

; OpenCL C 2.0: (id2 - off2) * size1 * size0 + (id1 - off1) * size0 + (id0 - off0)
define i64 @_Z20get_global_linear_idv() alwaysinline {
  %i0 = call i64 @_Z13get_global_idj(i32 0)
  %i1 = call i64 @_Z13get_global_idj(i32 1)
  %i2 = call i64 @_Z13get_global_idj(i32 2)
  %o0 = call i64 @__cv_global_offset(i32 0)
  %o1 = call i64 @__cv_global_offset(i32 1)
  %o2 = call i64 @__cv_global_offset(i32 2)
  %s0 = call i64 @__cv_global_size(i32 0)
  %s1 = call i64 @__cv_global_size(i32 1)
  %r0 = sub i64 %i0, %o0
  %r1 = sub i64 %i1, %o1
  %r2 = sub i64 %i2, %o2
  %s01 = mul i64 %s0, %s1
  %a = mul i64 %r2, %s01
  %b = mul i64 %r1, %s0
  %c = add i64 %a, %b
  %v = add i64 %c, %r0
  ret i64 %v
}

; lid.z * lsize.y * lsize.x + lid.y * lsize.x + lid.x, with the group's true (non-uniform) sizes
define i64 @_Z19get_local_linear_idv() alwaysinline {
  %t0 = call i64 @__cv_tid(i32 0)
  %t1 = call i64 @__cv_tid(i32 1)
  %t2 = call i64 @__cv_tid(i32 2)
  %n0 = call i64 @_Z14get_local_sizej(i32 0)
  %n1 = call i64 @_Z14get_local_sizej(i32 1)
  %n01 = mul i64 %n0, %n1
  %a = mul i64 %t2, %n01
  %b = mul i64 %t1, %n0
  %c = add i64 %a, %b
  %v = add i64 %c, %t0
  ret i64 %v
}
