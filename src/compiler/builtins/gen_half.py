#!/usr/bin/env python3
"""Writes half.ll: the OpenCL C builtins of cl_khr_fp16 (half, half2 ... half16). libclc 16 has
none of them but vload_half/vstore_half.

Which functions exist, with their mangled names, comes from clang itself: this script dumps the
declarations of clang's opencl-c.h for OpenCL C 1.2 and 3.0 with culvert's extensions (argument
1: clang's path) and defines every one that mentions half and that no other library has:

* math, common, geometric, relational-by-value and sub-group functions: the arguments are
  widened to float (exact), the float builtin of the same name is called (libdevice's or
  libclc's, linked after this library), and the result is rounded once to half (round to
  nearest even). A float result within a few float ulp (2^-13 half ulp each) of the true value
  rounds to within 0.5 half ulp plus that, far inside the half limits of the OpenCL C spec.
  For +, -, *, /, sqrt the float result is correctly rounded and float has more than twice
  half's precision plus two bits, so rounding it again to half is correct rounding: the
  functions the spec wants exact (fdim, fmod, remainder, ldexp, frexp, rint ...) are exact.
* fma/mad are native f16 fma (gen_fma.py): a float fma rounded again would round twice.
* done on half bits: nextafter (the next half, not the next float), nan, bitselect, select,
  fabs, copysign, signbit, isnormal (a half denormal is a normal float), fract's clamp to
  0x1.ffcp-1.
* conversions: fptrunc/fpext/sitofp/fptosi where LLVM's rounding is the one asked for, else PTX
  cvt with the rounding mode (cvt.rz.f16.f32, cvt.rmi.s32.f16 ...; .sat for _sat: PTX float to
  integer conversions saturate and turn NaN into 0, which is what OpenCL's _sat asks; to 64
  bits the H100 does not, so NaN is picked out there).
* vloadN/vstoreN, shuffle/shuffle2: loads, stores and element moves.
* async copies and prefetch: the ushort functions of the same shape (libclc's; half3 as
  ushort4, its size in memory).
Output committed; rerun after changing the script."""
import json, os, re, subprocess, sys, tempfile

clang = sys.argv[1] if len(sys.argv) > 1 else "clang-16"
EXT = ("-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_subgroups,"
       "+__opencl_c_subgroups,+cl_khr_fp16,+__opencl_c_fp16,+__opencl_c_images,"
       "+__opencl_c_read_write_images")


# The sub-group extensions' and the work-group functions' macros, as culvert passes them for
# OpenCL C 3.0 (compiler.c): their half overloads (shuffles, broadcasts, reductions, scans) widen
# to float too.
SUBGROUP_EXT = ["-Dcl_khr_subgroup_%s=1" % e for e in (
    "extended_types", "shuffle", "shuffle_relative", "ballot", "non_uniform_vote",
    "non_uniform_arithmetic", "clustered_reduce")] + [
    "-D__opencl_c_work_group_collective_functions=1"]  # and the work-group functions


def declarations():
    """{mangled: (name, type string)} of every opencl-c.h function mentioning half."""
    found = {}
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "e.cl")
        open(src, "w").write("kernel void k(void) {}\n")
        for std in ("CL1.2", "CL3.0"):
            r = subprocess.run([clang, "-cc1", "-triple", "nvptx64-nvidia-nvcl", "-target-cpu",
                                "sm_90", "-x", "cl", "-cl-std=" + std,
                                "-finclude-default-header", EXT] +
                               (SUBGROUP_EXT if std == "CL3.0" else []) + ["-ast-dump=json", src],
                               stdout=subprocess.PIPE, check=True)
            for n in json.loads(r.stdout).get("inner", []):
                t = n.get("type", {}).get("qualType", "")
                m = n.get("mangledName", "")
                if n.get("kind") == "FunctionDecl" and ("half" in t or "Dh" in m):
                    found[m] = (n["name"], t)
    return found


SCALAR = {"half": "half", "float": "float", "double": "double", "char": "i8", "uchar": "i8",
          "short": "i16", "ushort": "i16", "int": "i32", "uint": "i32", "long": "i64",
          "ulong": "i64", "size_t": "i64"}
AS = {"__private": 0, "__global": 1, "__constant": 4, "__local": 3}


class Ty:
    """A parameter or return type: base (OpenCL scalar name), width, pointer address space."""

    def __init__(self, text):
        text = text.strip()
        self.ptr = None
        if text.endswith("*__private"):
            text = text[: -len("*__private")].strip()
            self.ptr = 0
        words = [w for w in text.split() if w != "const"]
        for w in list(words):
            if w in AS:
                if self.ptr is not None:
                    self.ptr = AS[w]
                words.remove(w)
        m = re.fullmatch(r"([a-z_]+?)(\d*)", words[0])
        self.base, self.n = m.group(1), int(m.group(2) or 1)

    def elem(self, base=None):
        return SCALAR[base or self.base]

    def ir(self, base=None):
        """The IR type of the value (or of the pointee for a pointer)."""
        if self.base in ("event_t", "ocl_event"):
            return "ptr"
        e = self.elem(base)
        return e if self.n == 1 else "<%d x %s>" % (self.n, e)

    def arg(self):
        return "ptr addrspace(%d)" % self.ptr if self.ptr is not None else self.ir()


def signature(t):
    ret, params = re.fullmatch(r"(.*?) \((.*)\)", t).groups()
    return Ty(ret) if ret != "void" else None, [Ty(p) for p in params.split(", ") if p]


def const(ty, ir_scalar, value):
    """A constant of scalar type `ir_scalar`, splat to ty's width."""
    if ty.n == 1:
        return value
    return "<" + ", ".join("%s %s" % (ir_scalar, value) for _ in range(ty.n)) + ">"


out = ["; Generated by gen_half.py: the cl_khr_fp16 builtins (see the script for how).",
       'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"',
       'target triple = "nvptx64-nvidia-nvcl"', ""]
declared = {}


def declare(name, ret_ir, arg_irs):
    declared.setdefault(name, "declare %s @%s(%s)" % (ret_ir, name, ", ".join(arg_irs)))


def define(mangled, ret, params, body):
    ps = ", ".join("%s %%p%d" % (p.arg(), i) for i, p in enumerate(params))
    out.append("define %s @%s(%s) alwaysinline {" % (ret.ir() if ret else "void", mangled, ps))
    out.extend("  " + line for line in body)
    out.extend(["}", ""])


def float_name(mangled):
    """The float function of the same shape: half -> float, pointers to private temporaries."""
    return re.sub(r"PU3AS\d", "P", mangled.replace("Dh", "f"))


def forward(ret, params, target):
    """Calls `target` with the same arguments (the ushort function of the same shape)."""
    declare(target, ret.ir() if ret else "void", [p.arg() for p in params])
    call = "call %s @%s(%s)" % (ret.ir() if ret else "void", target,
                                ", ".join("%s %%p%d" % (p.arg(), i) for i, p in enumerate(params)))
    return ["%r = " + call, "ret %s %%r" % ret.ir()] if ret else [call, "ret void"]


def via(ret, params, target):
    """Calls `target` with half values widened to float and pointers to private temporaries,
    then narrows the result and what the callee stored."""
    body, args, arg_irs, after = [], [], [], []
    for i, p in enumerate(params):
        if p.ptr is not None:
            fty = p.ir("float" if p.base == "half" else None)
            body.append("%%t%d = alloca %s, align 16" % (i, fty))
            args.append("ptr %%t%d" % i)
            arg_irs.append("ptr")
            after.append("%%l%d = load %s, ptr %%t%d, align 16" % (i, fty, i))
            v = "%%l%d" % i
            if p.base == "half":
                after.append("%%n%d = fptrunc %s %s to %s" % (i, fty, v, p.ir()))
                v = "%%n%d" % i
            after.append("store %s %s, ptr addrspace(%d) %%p%d, align 2" % (p.ir(), v, p.ptr, i))
        elif p.base == "half":
            fty = p.ir("float")
            body.append("%%w%d = fpext %s %%p%d to %s" % (i, p.ir(), i, fty))
            args.append("%s %%w%d" % (fty, i))
            arg_irs.append(fty)
        else:
            args.append("%s %%p%d" % (p.ir(), i))
            arg_irs.append(p.ir())
    if ret is None:
        fret = "void"
    elif ret.base == "half":
        fret = ret.ir("float")
    elif ret.base == "short" and ret.n > 1:  # relational: float's answer is intN
        fret = ret.ir("int")
    else:
        fret = ret.ir()
    declare(target, fret, arg_irs)
    call = "call %s @%s(%s)" % (fret, target, ", ".join(args))
    body.append(call if ret is None else "%r0 = " + call)
    body += after
    if ret is None:
        body.append("ret void")
    elif fret == ret.ir():
        body.append("ret %s %%r0" % fret)
    else:
        body.append("%%r = %s %s %%r0 to %s" %
                    ("fptrunc" if ret.base == "half" else "trunc", fret, ret.ir()))
        body.append("ret %s %%r" % ret.ir())
    return body


def elementwise(ret, params, scalar_body):
    """A vector function as its scalar body on each element. scalar_body(args) -> (lines,
    result) for scalar argument names."""
    n = ret.n if ret else params[0].n
    body, prev = [], "undef"
    for k in range(n):
        names = []
        for i, p in enumerate(params):
            if p.n == 1:
                names.append("%%p%d" % i)
            else:
                body.append("%%e%d_%d = extractelement %s %%p%d, i32 %d" % (i, k, p.ir(), i, k))
                names.append("%%e%d_%d" % (i, k))
        lines, res = scalar_body(names, k)
        body += lines
        body.append("%%v%d = insertelement %s %s, %s %s, i32 %d" %
                    (k, ret.ir(), prev, ret.elem(), res, k))
        prev = "%%v%d" % k
    return body + ["ret %s %s" % (ret.ir(), prev)]


def scalar(ret, params, fn):
    """Scalar or element-wise vector body from fn(args, k) -> (lines, result)."""
    if ret.n == 1:
        lines, res = fn(["%%p%d" % i for i in range(len(params))], 0)
        return lines + ["ret %s %s" % (ret.ir(), res)]
    return elementwise(ret, params, fn)


def nextafter(a, k):
    x, y = a
    s = "_%d" % k
    return ["%%xb%s = bitcast half %s to i16" % (s, x), "%%yb%s = bitcast half %s to i16" % (s, y),
            "%%un%s = fcmp uno half %s, %s" % (s, x, y), "%%eq%s = fcmp oeq half %s, %s" % (s, x, y),
            "%%xz%s = fcmp oeq half %s, 0xH0000" % (s, x),
            "%%ys%s = and i16 %%yb%s, -32768" % (s, s), "%%tiny%s = or i16 %%ys%s, 1" % (s, s),
            "%%lt%s = fcmp olt half %s, %s" % (s, x, y),
            "%%pos%s = fcmp ogt half %s, 0xH0000" % (s, x),
            "%%up%s = icmp eq i1 %%lt%s, %%pos%s" % (s, s, s),
            "%%inc%s = add i16 %%xb%s, 1" % (s, s), "%%dec%s = sub i16 %%xb%s, 1" % (s, s),
            "%%st%s = select i1 %%up%s, i16 %%inc%s, i16 %%dec%s" % (s, s, s, s),
            "%%r1%s = select i1 %%xz%s, i16 %%tiny%s, i16 %%st%s" % (s, s, s, s),
            "%%r1h%s = bitcast i16 %%r1%s to half" % (s, s),
            "%%r2%s = select i1 %%eq%s, half %s, half %%r1h%s" % (s, s, y, s),
            "%%nan%s = fadd half %s, %s" % (s, x, y),
            "%%r%s = select i1 %%un%s, half %%nan%s, half %%r2%s" % (s, s, s, s)], "%r" + s


def nan(a, k):
    s = "_%d" % k
    return ["%%c%s = and i16 %s, 1023" % (s, a[0]), "%%b%s = or i16 %%c%s, 32256" % (s, s),
            "%%r%s = bitcast i16 %%b%s to half" % (s, s)], "%r" + s


RND_F = {"": "rn", "_rte": "rn", "_rtz": "rz", "_rtn": "rm", "_rtp": "rp"}
RND_I = {"": "rzi", "_rte": "rni", "_rtz": "rzi", "_rtn": "rmi", "_rtp": "rpi"}
INT_PTX = {"char": "s8", "uchar": "u8", "short": "s16", "ushort": "u16", "int": "s32",
           "uint": "u32", "long": "s64", "ulong": "u64"}
REG = {"i8": "h", "i16": "h", "i32": "r", "i64": "l", "float": "f", "double": "d"}


def convert(mangled, name, ret, params):
    m = re.fullmatch(r"convert_([a-z]+)\d*(_sat)?(_rt[enpz])?", name)
    dst, sat, rnd = m.group(1), m.group(2) or "", m.group(3) or ""
    src = params[0]
    if dst == src.base:
        return ["ret %s %%p0" % ret.ir()]
    if dst in ("float", "double"):  # exact
        return ["%%r = fpext %s %%p0 to %s" % (src.ir(), ret.ir()), "ret %s %%r" % ret.ir()]
    if dst == "half" and rnd in ("", "_rte") and src.base in ("float", "double"):
        return ["%%r = fptrunc %s %%p0 to %s" % (src.ir(), ret.ir()), "ret %s %%r" % ret.ir()]
    if dst == "half" and rnd in ("", "_rte"):
        op = "uitofp" if src.base.startswith("u") else "sitofp"
        return ["%%r = %s %s %%p0 to %s" % (op, src.ir(), ret.ir()), "ret %s %%r" % ret.ir()]
    if dst != "half" and not sat and not rnd:  # OpenCL's default: toward zero
        op = "fptoui" if dst.startswith("u") else "fptosi"
        return ["%%r = %s %s %%p0 to %s" % (op, src.ir(), ret.ir()), "ret %s %%r" % ret.ir()]

    def cvt(a, k):
        s = "_%d" % k
        if dst == "half":
            e = src.elem()
            lines, v = [], a[0]
            if e == "i8":  # 8-bit integers go through 16-bit registers, exactly
                lines.append("%%x%s = %s i8 %s to i16" %
                             (s, "zext" if src.base == "uchar" else "sext", v, ))
                v, e = "%x" + s, "i16"
            ptx_src = INT_PTX.get(src.base, {"float": "f32", "double": "f64"}.get(src.base))
            if src.base in ("char", "uchar"):
                ptx_src = ptx_src[0] + "16"
            lines += ['%%b%s = call i16 asm "cvt.%s.f16.%s $0, $1;", "=h,%s"(%s %s)' %
                      (s, RND_F[rnd], ptx_src, REG[e], e, v),
                      "%%r%s = bitcast i16 %%b%s to half" % (s, s)]
            return lines, "%r" + s
        e = ret.elem()
        body = "cvt.%s%s.%s.f16 $0, $1;" % (RND_I[rnd], ".sat" if sat else "", INT_PTX[dst])
        if sat and e == "i64":
            # The H100 turns NaN into the 64-bit minimum (s64) or 2^63 (u64) despite .sat:
            # OpenCL's _sat asks 0, so NaN is picked out.
            body = ("{ .reg .pred %%n; .reg .b64 %%t; cvt.%s.sat.%s.f16 %%t, $1; "
                    "setp.nan.f16 %%n, $1, $1; selp.b64 $0, 0, %%t, %%n; }"
                    % (RND_I[rnd], INT_PTX[dst]))
        return ["%%h%s = bitcast half %s to i16" % (s, a[0]),
                '%%r%s = call %s asm "%s", "=%s,h"(i16 %%h%s)' %
                (s, e, body, REG[e], s)], "%r" + s
    return scalar(ret, params, cvt)


def vload(mangled, name, ret, params):
    n = ret.n
    p = params[1].ptr
    return ["%%o = mul i64 %%p0, %d" % n,
            "%%a = getelementptr half, ptr addrspace(%d) %%p1, i64 %%o" % p,
            "%%r = load %s, ptr addrspace(%d) %%a, align 2" % (ret.ir(), p),
            "ret %s %%r" % ret.ir()]


def vstore(mangled, name, ret, params):
    n, p = params[0].n, params[2].ptr
    return ["%%o = mul i64 %%p1, %d" % n,
            "%%a = getelementptr half, ptr addrspace(%d) %%p2, i64 %%o" % p,
            "store %s %%p0, ptr addrspace(%d) %%a, align 2" % (params[0].ir(), p), "ret void"]


def shuffle(mangled, name, ret, params):
    two = name == "shuffle2"
    x, mask = params[0], params[-1]
    src, body = "%p0", []
    if two:
        idx = ", ".join("i32 %d" % i for i in range(2 * x.n))
        body.append("%%xy = shufflevector %s %%p0, %s %%p1, <%d x i32> <%s>" %
                    (x.ir(), x.ir(), 2 * x.n, idx))
        src = "%xy"
    width = 2 * x.n if two else x.n
    prev = "undef"
    for k in range(ret.n):
        body += ["%%m%d = extractelement %s %%p%d, i32 %d" % (k, mask.ir(), len(params) - 1, k),
                 "%%i%d = and i16 %%m%d, %d" % (k, k, width - 1),
                 "%%e%d = extractelement <%d x half> %s, i16 %%i%d" % (k, width, src, k),
                 "%%v%d = insertelement %s %s, half %%e%d, i32 %d" % (k, ret.ir(), prev, k, k)]
        prev = "%%v%d" % k
    return body + ["ret %s %s" % (ret.ir(), prev)]


def bits(ret, expr):
    """A function of the arguments' bits (i16 elements): expr(b) -> (lines, result)."""
    ity = ret.ir("short")
    lines = ["%%b%d = bitcast %s %%p%d to %s" % (i, ret.ir(), i, ity) for i in range(3)]
    more, res = expr(ity)
    return lines + more + ["%%r = bitcast %s %s to %s" % (ity, res, ret.ir()),
                           "ret %s %%r" % ret.ir()]


def bitselect(mangled, name, ret, params):
    ones = const(ret, "i16", "-1")
    return bits(ret, lambda t: (["%%nc = xor %s %%b2, %s" % (t, ones),
                                 "%%a = and %s %%b0, %%nc" % t, "%%b = and %s %%b1, %%b2" % t,
                                 "%%o = or %s %%a, %%b" % t], "%o"))


def select(mangled, name, ret, params):
    c = params[2]
    pred = "icmp slt %s %%p2, %s" % (c.ir(), const(c, "i16", "0")) if ret.n > 1 else \
        "icmp ne i16 %p2, 0"
    cond = "i1" if ret.n == 1 else "<%d x i1>" % ret.n
    return ["%%c = %s" % pred,
            "%%r = select %s %%c, %s %%p1, %s %%p0" % (cond, ret.ir(), ret.ir()),
            "ret %s %%r" % ret.ir()]


def intrinsic(which):
    def body(mangled, name, ret, params):
        suffix = "f16" if ret.n == 1 else "v%df16" % ret.n
        ins = "@llvm.%s.%s" % (which, suffix)
        declare(ins[1:], ret.ir(), [p.ir() for p in params])
        args = ", ".join("%s %%p%d" % (p.ir(), i) for i, p in enumerate(params))
        return ["%%r = call %s %s(%s)" % (ret.ir(), ins, args), "ret %s %%r" % ret.ir()]
    return body


def fabs(mangled, name, ret, params):
    """The sign bit cleared (LLVM 16 would widen to float, quieting a signalling NaN)."""
    ity = ret.ir("short")
    return ["%%b = bitcast %s %%p0 to %s" % (ret.ir(), ity),
            "%%a = and %s %%b, %s" % (ity, const(ret, "i16", "32767")),
            "%%r = bitcast %s %%a to %s" % (ity, ret.ir()), "ret %s %%r" % ret.ir()]


def classify(mangled, name, ret, params):
    """signbit and isnormal on the bits: widening to float would make a half denormal normal
    (and a NaN's sign is not kept by every conversion). Scalars 1/0 (int), vectors -1/0."""
    x, ity = params[0], params[0].ir("short")
    cond = "i1" if x.n == 1 else "<%d x i1>" % x.n
    body = ["%%b = bitcast %s %%p0 to %s" % (x.ir(), ity)]
    if name == "signbit":
        body.append("%%c = icmp slt %s %%b, %s" % (ity, const(x, "i16", "0")))
    else:
        body += ["%%e = and %s %%b, %s" % (ity, const(x, "i16", "31744")),
                 "%%nz = icmp ne %s %%e, %s" % (ity, const(x, "i16", "0")),
                 "%%ni = icmp ne %s %%e, %s" % (ity, const(x, "i16", "31744")),
                 "%%c = and %s %%nz, %%ni" % cond]
    return body + ["%%r = %s %s %%c to %s" % ("zext" if x.n == 1 else "sext", cond, ret.ir()),
                   "ret %s %%r" % ret.ir()]


def fract(mangled, name, ret, params):
    """float fract's answer can round up to 1.0 in half; the spec's bound is 0x1.ffcp-1."""
    body = via(ret, params, float_name(mangled))
    last = body.pop()  # ret half %r
    cond = "i1" if ret.n == 1 else "<%d x i1>" % ret.n
    return body + ["%%one = fcmp oeq %s %%r, %s" % (ret.ir(), const(ret, "half", "0xH3C00")),
                   "%%c = select %s %%one, %s %s, %s %%r" %
                   (cond, ret.ir(), const(ret, "half", "0xH3BFF"), ret.ir()),
                   last.replace("%r", "%c")]


NATIVE = {"vload2": vload, "vload3": vload, "vload4": vload, "vload8": vload, "vload16": vload,
          "vstore2": vstore, "vstore3": vstore, "vstore4": vstore, "vstore8": vstore,
          "vstore16": vstore, "shuffle": shuffle, "shuffle2": shuffle, "bitselect": bitselect,
          "select": select, "fabs": fabs, "copysign": intrinsic("copysign"),
          "fract": fract, "signbit": classify, "isnormal": classify,
          "nextafter": lambda m, n, r, p: scalar(r, p, nextafter),
          "nan": lambda m, n, r, p: scalar(r, p, nan)}
ELSEWHERE = {"fma", "mad"}  # fma.ll
USHORT = {"async_work_group_copy", "async_work_group_strided_copy", "prefetch"}

decls = declarations()
for mangled in sorted(decls):
    name, t = decls[mangled]
    if "image" in t or name in ELSEWHERE or name.startswith(("vload_half", "vloada_half",
                                                             "vstore_half", "vstorea_half")):
        continue  # no images; fma.ll; libclc has the vload_half/vstore_half family
    ret, params = signature(t)
    if name.startswith("convert_"):
        body = convert(mangled, name, ret, params)
    elif name in NATIVE:
        body = NATIVE[name](mangled, name, ret, params)
    elif name in USHORT:
        # half3 is 8 bytes in memory, as ushort4: libclc has no 3-element copies
        body = forward(ret, params, mangled.replace("Dh", "t").replace("Dv3_", "Dv4_"))
    else:
        body = via(ret, params, float_name(mangled))
    define(mangled, ret, params, body)
open("half.ll", "w").write("\n".join(out + sorted(declared.values())) + "\n")
