#!/usr/bin/env python3
"""Writes c11_atomics.ll: the OpenCL C 3.0 atomic functions with every memory order and scope
(__opencl_c_atomic_order_acq_rel, __opencl_c_atomic_order_seq_cst, __opencl_c_atomic_scope_device,
__opencl_c_atomic_scope_all_devices): atomic_*_explicit(..., order, scope), the forms without the
scope (device scope) and without _explicit (seq_cst, device scope), atomic_init,
atomic_flag_*, atomic_work_item_fence, for int, uint, long, ulong, float, double (and
atomic_uintptr_t with a ptrdiff_t operand) in __global and __local memory and through generic
pointers (__opencl_c_generic_address_space: PTX's generic addressing, no state space on the
instruction); and cl_ext_float_atomics: atomic_fetch_add/sub/min/max for float and double. libclc
16 has none of them.

How orders and scopes become PTX (the PTX ISA memory consistency model and NVIDIA's atomics ABI;
LLVM 16's NVPTX back end cannot select ordered atomics, so they are inline PTX):
  scope   work_item, work_group, sub_group -> .cta; device -> .gpu; all_devices -> .sys
  relaxed (scope below all_devices): LLVM's own atomicrmw / cmpxchg / volatile load and store
          (atom, ld.volatile, st.volatile: every sm)
  otherwise, sm_70 and later:
    load    relaxed ld.relaxed.S; acquire, acq_rel ld.acquire.S; seq_cst fence.sc.S + ld.acquire.S
    store   relaxed st.relaxed.S; release, acq_rel st.release.S; seq_cst fence.sc.S + st.relaxed.S
    rmw     atom.{relaxed,acquire,release,acq_rel}.S; seq_cst fence.sc.S + atom.acquire.S
    cas     as rmw, with the stronger of the success and failure orders (release + acquire: acq_rel)
    fence   acquire, release, acq_rel: fence.acq_rel.S; seq_cst: fence.sc.S; relaxed: nothing
  before sm_70 (no ordered PTX instructions; chosen by __nvvm_reflect("__CUDA_ARCH")): membar
  .cta/.gl/.sys around the relaxed operation.
Float min/max have no PTX atom: a loop of compare-and-swap of the bits (with the caller's order),
fmin/fmax semantics (a NaN operand is missing data, -0 < +0). Float add and sub on global memory
(and through generic pointers, which may lead there) are such a loop too: atom.global.add.f32
flushes subnormal inputs and results to zero whatever the code's mode (measured on the H100 by the
CTS's c11_atomics: 0 + 0x1p-149 gave 0), where culvert claims CL_FP_DENORM; the loop's fadd keeps
the kernel's own denormal mode (-cl-denorms-are-zero flushes). atom.shared.add.f32 keeps
subnormals, and atom.add.f64 everywhere.

The mangled names come from clang itself: this script writes a probe kernel calling every
variant, compiles it with clang (argument 1: clang's path) and reads the names back. Output
committed; rerun after changing the script."""
import re, subprocess, sys, tempfile, os

clang = sys.argv[1] if len(sys.argv) > 1 else "clang-16"
TYPES = {"int": "i32", "uint": "i32", "long": "i64", "ulong": "i64", "float": "float", "double": "double"}
INTS = ["int", "uint", "long", "ulong"]
FLOATS = ["float", "double"]
AS = {"__global": 1, "__local": 3, "__generic": 0}
EXP_AS = {"": 0, "__global": 1, "__local": 3}  # the `expected` pointer of compare_exchange
# With the generic address space clang declares a generic `expected` pointer only.
GENERIC_EXP = {"__generic": 0}
FETCH = ["add", "sub", "or", "xor", "and", "min", "max"]
# The features culvert's compiler enables (src/compiler/compiler.c, CVC_ATOMICS).
FEATURES = ["-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_fp64,"
            "+__opencl_c_fp64,+__opencl_c_atomic_order_acq_rel,+__opencl_c_atomic_order_seq_cst",
            "-D__opencl_c_atomic_scope_device=1", "-D__opencl_c_atomic_scope_all_devices=1",
            "-Dcl_ext_float_atomics=1"] + [
    "-D__opencl_c_ext_fp%d_%s_atomic_%s=1" % (w, a, op)
    for w in (32, 64) for a in ("global", "local") for op in ("add", "min_max")]

# Forms of each function: (suffix of the OpenCL name, order arguments, scope argument).
FORMS = [("full", True, True), ("order", True, False), ("none", False, False)]

variants = []  # (kind, type, as, extra, form, call text)


def add(kind, t, a, e, base, args, norders=1):
    for form, has_o, has_s in FORMS:
        name = base + ("_explicit" if has_o else "")
        extra = (["o"] * norders if has_o else []) + (["s"] if has_s else [])
        variants.append((kind, t, a, e, form, "%s(%s)" % (name, ", ".join(args + extra))))


for a in AS:
    n = a[2:]
    generic = AS[a] == 0
    for t in INTS:
        for op in FETCH:
            add("fetch_" + op, t, a, None, "atomic_fetch_" + op, ["p_%s_%s" % (n, t), "v_" + t])
    for op in ("add", "sub"):  # atomic_uintptr_t with a ptrdiff_t operand
        add("fetch_" + op, "ulong", a, None, "atomic_fetch_" + op, ["p_%s_ulong" % n, "v_ptrdiff"])
    for t in FLOATS:
        for op in ("add", "sub", "min", "max"):
            add("ffetch_" + op, t, a, None, "atomic_fetch_" + op, ["p_%s_%s" % (n, t), "v_" + t])
    for t in TYPES:
        p = "p_%s_%s" % (n, t)
        add("load", t, a, None, "atomic_load", [p])
        add("store", t, a, None, "atomic_store", [p, "v_" + t])
        add("exchange", t, a, None, "atomic_exchange", [p, "v_" + t])
        variants.append(("init", t, a, None, "init", "atomic_init(%s, v_%s)" % (p, t)))
        for strength in ("strong", "weak"):
            for e in (GENERIC_EXP if generic else EXP_AS):
                ename = "e_%s_%s" % (e[2:] if e else "private", t)
                add("cmpxchg", t, a, e, "atomic_compare_exchange_" + strength, [p, ename, "v_" + t], 2)
    add("flag_test_and_set", "int", a, None, "atomic_flag_test_and_set", ["f_" + n])
    add("flag_clear", "int", a, None, "atomic_flag_clear", ["f_" + n])
variants.append(("fence", "int", None, None, "full", "atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, o, s)"))


def probe(vs, generic):
    """The mangled names clang gives the calls of `vs`. With __opencl_c_generic_address_space
    clang declares the generic overloads alone (none for __global or __local pointers), so the
    named and the generic overloads are probed apart."""
    src = ["#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable",
           "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable",
           "__kernel void probe(__global int *out, memory_order o, memory_scope s, long v_long_arg,"]
    params = []
    for t in TYPES:
        params.append("__global atomic_%s *p_global_%s" % (t, t))
        params.append("__global %s *e_global_%s" % (t, t))
        params.append("%s v_%s" % (t, t))
    params.append("__global atomic_flag *f_global")
    src.append("    " + ",\n    ".join(params) + ") {")
    for t in TYPES:
        src.append("    __local atomic_%s l_%s; __local atomic_%s *p_local_%s = &l_%s;" % (t, t, t, t, t))
        src.append("    __local %s le_%s; __local %s *e_local_%s = &le_%s;" % (t, t, t, t, t))
        if generic:
            src.append("    __generic atomic_%s *p_generic_%s = p_global_%s;" % (t, t, t))
            src.append("    __generic %s *e_generic_%s = e_global_%s;" % (t, t, t))
        else:
            src.append("    %s pe_%s = v_%s; %s *e_private_%s = &pe_%s;" % (t, t, t, t, t, t))
    src.append("    ptrdiff_t v_ptrdiff = (ptrdiff_t)v_long_arg;")
    src.append("    __local atomic_flag lf; __local atomic_flag *f_local = &lf;")
    if generic:
        src.append("    __generic atomic_flag *f_generic = f_global;")
    for v in vs:
        src.append("    %s;" % v[5])
    src.append("}")
    ext = ["-cl-ext=+__opencl_c_generic_address_space"] if generic else []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "probe.cl")
        open(path, "w").write("\n".join(src) + "\n")
        ir = subprocess.run([clang, "-cc1", "-triple", "nvptx64-nvidia-nvcl", "-x", "cl",
                             "-cl-std=CL3.0", "-finclude-default-header", "-fdeclare-opencl-builtins"]
                            + FEATURES + ext + ["-O0", "-emit-llvm", "-o", "-", path],
                            capture_output=True, text=True)
    if ir.returncode:
        sys.exit("probe failed:\n" + ir.stderr[:3000])
    found = re.findall(r"call [^@]*@(_Z\w+)\(", ir.stdout)
    if len(found) != len(vs):
        sys.exit("probe: %d calls for %d variants" % (len(found), len(vs)))
    return found


named = [v for v in variants if AS.get(v[2]) != 0]
generics = [v for v in variants if AS.get(v[2]) == 0]
variants = named + generics
names = probe(named, False) + probe(generics, True)

# The PTX state space; none is generic addressing, which reaches global and shared memory alike.
SPACE = {0: "", 1: ".global", 3: ".shared"}
CONSTRAINT = {"i32": "r", "i64": "l", "float": "f", "double": "d"}
BITS = {"i32": "b32", "i64": "b64"}
SCOPES = [("cta", "cta"), ("gpu", "gpu"), ("sys", "sys")]
# Order switch targets: (label, order values), the default (seq_cst) last.
ORDERS = [("rlx", [0]), ("acq", [1, 2]), ("rel", [3]), ("ar", [4]), ("sc", None)]
# Per kind of access: order label -> (fence.sc first?, the PTX .sem).
SEM = {
    "rmw": {"rlx": (False, "relaxed"), "acq": (False, "acquire"), "rel": (False, "release"),
            "ar": (False, "acq_rel"), "sc": (True, "acquire")},
    "ld": {"rlx": (False, "relaxed"), "acq": (False, "acquire"), "rel": (False, "relaxed"),
           "ar": (False, "acquire"), "sc": (True, "acquire")},
    "st": {"rlx": (False, "relaxed"), "acq": (False, "relaxed"), "rel": (False, "release"),
           "ar": (False, "release"), "sc": (True, "relaxed")},
}

out = ["; Generated by gen_c11_atomics.py: OpenCL C 3.0 atomics, every order and scope, and",
       "; cl_ext_float_atomics. See the script for the mapping to PTX.",
       'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"',
       'target triple = "nvptx64-nvidia-nvcl"', "",
       "declare void @llvm.nvvm.membar.cta()", "declare void @llvm.nvvm.membar.gl()",
       "declare void @llvm.nvvm.membar.sys()", "declare i32 @__nvvm_reflect(ptr)", "",
       '@__cv_arch = private unnamed_addr addrspace(1) constant [12 x i8] c"__CUDA_ARCH\\00"', "",
       "; sm_70 and later have the ordered PTX instructions (resolved at compile time).",
       "define internal i1 @__cv_sm70() alwaysinline {",
       "  %a = call i32 @__nvvm_reflect(ptr addrspacecast (ptr addrspace(1) @__cv_arch to ptr))",
       "  %r = icmp sge i32 %a, 700",
       "  ret i1 %r",
       "}", "",
       "; Before sm_70: a membar for order %o (0: relaxed, none) at scope %s.",
       "define internal void @__cv_membar(i32 %o, i32 %s) alwaysinline {",
       "  %relaxed = icmp eq i32 %o, 0",
       "  br i1 %relaxed, label %done, label %pick",
       "pick:",
       "  switch i32 %s, label %sys [ i32 0, label %cta",
       "                             i32 1, label %cta",
       "                             i32 4, label %cta",
       "                             i32 2, label %gl ]",
       "cta:",
       "  call void @llvm.nvvm.membar.cta()",
       "  br label %done",
       "gl:",
       "  call void @llvm.nvvm.membar.gl()",
       "  br label %done",
       "sys:",
       "  call void @llvm.nvvm.membar.sys()",
       "  br label %done",
       "done:",
       "  ret void",
       "}", ""]


def block(lines):
    return [("  " + l if not l.endswith(":") else l) for l in lines]


def dispatch(ty, asm_for, plain, legacy, plain_scopes_too=False):
    """Body lines choosing by %o and %s: `plain` (relaxed below all_devices: LLVM's own
    instruction, lines defining %r.plain), `legacy` (before sm_70, defining %r.old) or, per scope
    and order label, the inline PTX from asm_for(sem_kind_entry, scope) (lines defining %r.<tag>).
    ty is the result type, or None."""
    b = ["%relaxed = icmp eq i32 %o, 0",
         "%wide = icmp eq i32 %s, 3",
         "%narrow = xor i1 %wide, true",
         "%useplain = and i1 %relaxed, %narrow",
         "br i1 %useplain, label %plain, label %ordered",
         "plain:"] + plain + ["br label %join",
                              "ordered:",
                              "%sm70 = call i1 @__cv_sm70()",
                              "br i1 %sm70, label %ptx, label %legacy",
                              "legacy:"] + legacy + ["br label %join",
                                                     "ptx:",
                                                     "switch i32 %s, label %s.sys [ i32 0, label %s.cta "
                                                     "i32 1, label %s.cta i32 4, label %s.cta "
                                                     "i32 2, label %s.gpu ]"]
    incoming = [("%r.plain", "%plain"), ("%r.old", "%legacy")]
    for sc, _ in SCOPES:
        cases = " ".join("i32 %d, label %%%s.%s" % (v, sc, lab) for lab, vals in ORDERS if vals
                         for v in vals)
        b += ["s.%s:" % sc, "switch i32 %%o, label %%%s.sc [ %s ]" % (sc, cases)]
        for lab, _ in ORDERS:
            tag = "%s.%s" % (sc, lab)
            b += ["%s:" % tag] + asm_for(lab, sc, tag) + ["br label %join"]
            incoming.append(("%%r.%s" % tag, "%" + tag))
    b.append("join:")
    if ty:
        b.append("%%r = phi %s %s" % (ty, ", ".join("[ %s, %s ]" % i for i in incoming)))
        b.append("ret %s %%r" % ty)
    else:
        b.append("ret void")
    return b


def asm_call(ty, text, cons, args, tag):
    call = 'call %s asm sideeffect "%s", "%s"(%s)' % (ty or "void", text, cons, ", ".join(args))
    return ["%%r.%s = %s" % (tag, call)] if ty else [call]


def ordered(kind, emit):
    """asm_for for a kind of access: the fence.sc first where the order needs it."""
    def f(lab, sc, tag):
        first, sem = SEM[kind][lab]
        pre = ['call void asm sideeffect "fence.sc.%s;", "~{memory}"()' % sc] if first else []
        return pre + emit(sem, sc, tag)
    return f


helpers = []  # internal functions, written once
made = set()


def helper(name, sig, body):
    if name in made:
        return
    made.add(name)
    helpers.append("define internal %s alwaysinline {" % sig)
    helpers.extend(block(body))
    helpers.extend(["}", ""])


def ld_helper(I, n):
    name = "__cv_ld.%s.%d" % (I, n)
    ptr = "ptr addrspace(%d)" % n
    al = 8 if I == "i64" else 4
    emit = lambda sem, sc, tag: asm_call(I, "ld.%s.%s%s.%s $0, [$1];" % (sem, sc, SPACE[n], BITS[I]),
                                         "=%s,l,~{memory}" % CONSTRAINT[I], ["%s %%p" % ptr], tag)
    helper(name, "%s @%s(%s %%p, i32 %%o, i32 %%s)" % (I, name, ptr),
           dispatch(I, ordered("ld", emit),
                    ["%%r.plain = load volatile %s, %s %%p, align %d" % (I, ptr, al)],
                    ["%%r.old = load volatile %s, %s %%p, align %d" % (I, ptr, al),
                     "call void @__cv_membar(i32 %o, i32 %s)"]))
    return name


def st_helper(I, n):
    name = "__cv_st.%s.%d" % (I, n)
    ptr = "ptr addrspace(%d)" % n
    al = 8 if I == "i64" else 4
    emit = lambda sem, sc, tag: asm_call(None, "st.%s.%s%s.%s [$0], $1;" % (sem, sc, SPACE[n], BITS[I]),
                                         "l,%s,~{memory}" % CONSTRAINT[I],
                                         ["%s %%p" % ptr, "%s %%v" % I], tag)
    store = "store volatile %s %%v, %s %%p, align %d" % (I, ptr, al)
    helper(name, "void @%s(%s %%p, %s %%v, i32 %%o, i32 %%s)" % (name, ptr, I),
           dispatch(None, ordered("st", emit), [store],
                    ["call void @__cv_membar(i32 %o, i32 %s)", store,
                     "call void @__cv_membar(i32 %o, i32 %s)"]))
    return name


# rmw ops: LLVM atomicrmw name -> PTX op and type suffix per IR type.
PTX_RMW = {"add": ("add", {"i32": "u32", "i64": "u64"}), "or": ("or", BITS), "xor": ("xor", BITS),
           "and": ("and", BITS), "min": ("min", {"i32": "s32", "i64": "s64"}),
           "max": ("max", {"i32": "s32", "i64": "s64"}), "umin": ("min", {"i32": "u32", "i64": "u64"}),
           "umax": ("max", {"i32": "u32", "i64": "u64"}), "xchg": ("exch", BITS),
           "fadd": ("add", {"float": "f32", "double": "f64"})}


def rmw_helper(op, T, n):
    name = "__cv_rmw.%s.%s.%d" % (op, T, n)
    ptr = "ptr addrspace(%d)" % n
    pop, sfx = PTX_RMW[op]
    emit = lambda sem, sc, tag: asm_call(T, "atom.%s.%s%s.%s.%s $0, [$1], $2;"
                                         % (sem, sc, SPACE[n], pop, sfx[T]),
                                         "=%s,l,%s,~{memory}" % (CONSTRAINT[T], CONSTRAINT[T]),
                                         ["%s %%p" % ptr, "%s %%v" % T], tag)
    helper(name, "%s @%s(%s %%p, %s %%v, i32 %%o, i32 %%s)" % (T, name, ptr, T),
           dispatch(T, ordered("rmw", emit),
                    ["%%r.plain = atomicrmw %s %s %%p, %s %%v monotonic" % (op, ptr, T)],
                    ["call void @__cv_membar(i32 %o, i32 %s)",
                     "%%r.old = atomicrmw %s %s %%p, %s %%v monotonic" % (op, ptr, T),
                     "call void @__cv_membar(i32 %o, i32 %s)"]))
    return name


def cas_helper(I, n):
    """Returns the old value; %o is the order to use (the caller combines the two orders)."""
    name = "__cv_cas.%s.%d" % (I, n)
    ptr = "ptr addrspace(%d)" % n
    c = CONSTRAINT[I]
    emit = lambda sem, sc, tag: asm_call(I, "atom.%s.%s%s.cas.%s $0, [$1], $2, $3;"
                                         % (sem, sc, SPACE[n], BITS[I]),
                                         "=%s,l,%s,%s,~{memory}" % (c, c, c),
                                         ["%s %%p" % ptr, "%s %%e" % I, "%s %%v" % I], tag)
    helper(name, "%s @%s(%s %%p, %s %%e, %s %%v, i32 %%o, i32 %%s)" % (I, name, ptr, I, I),
           dispatch(I, ordered("rmw", emit),
                    ["%%x.plain = cmpxchg %s %%p, %s %%e, %s %%v monotonic monotonic" % (ptr, I, I),
                     "%%r.plain = extractvalue { %s, i1 } %%x.plain, 0" % I],
                    ["call void @__cv_membar(i32 %o, i32 %s)",
                     "%%x.old = cmpxchg %s %%p, %s %%e, %s %%v monotonic monotonic" % (ptr, I, I),
                     "%%r.old = extractvalue { %s, i1 } %%x.old, 0" % I,
                     "call void @__cv_membar(i32 %o, i32 %s)"]))
    return name


def fence_helper():
    name = "__cv_fence"
    b = ["%none = icmp eq i32 %o, 0", "br i1 %none, label %done, label %ordered", "ordered:",
         "%sm70 = call i1 @__cv_sm70()", "br i1 %sm70, label %ptx, label %legacy", "legacy:",
         "call void @__cv_membar(i32 %o, i32 %s)", "br label %done", "ptx:",
         "%sc = icmp uge i32 %o, 5",
         "switch i32 %s, label %s.sys [ i32 0, label %s.cta i32 1, label %s.cta i32 4, label %s.cta "
         "i32 2, label %s.gpu ]"]
    for sc, _ in SCOPES:
        b += ["s.%s:" % sc, "br i1 %%sc, label %%%s.sc, label %%%s.ar" % (sc, sc),
              "%s.sc:" % sc, 'call void asm sideeffect "fence.sc.%s;", "~{memory}"()' % sc,
              "br label %done", "%s.ar:" % sc,
              'call void asm sideeffect "fence.acq_rel.%s;", "~{memory}"()' % sc, "br label %done"]
    b += ["done:", "ret void"]
    helper(name, "void @%s(i32 %%o, i32 %%s)" % name, b)
    return name


def cas_loop_helper(name, T, n, before, after, step, skip=False):
    """A compare-and-swap loop on the bits of T at %p: the entry's lines `before` and `after` the
    first (relaxed) load of %init, then per turn %old (bits) and %oldf (T), the lines `step`
    defining %new (bits), with skip the swap is left out where %skip holds, and the swap with the
    caller's order. Returns the old value; every caller's operand is %v."""
    I = "i32" if T == "float" else "i64"
    ptr = "ptr addrspace(%d)" % n
    ld, cas = ld_helper(I, n), cas_helper(I, n)
    body = (["entry:"] + before + ["%%init = call %s @%s(%s %%p, i32 0, i32 %%s)" % (I, ld, ptr)]
            + after + ["br label %loop", "loop:",
                       "%%old = phi %s [ %%init, %%entry ], [ %%seen, %%%s ]"
                       % (I, "cas" if skip else "loop"),
                       "%%oldf = bitcast %s %%old to %s" % (I, T)] + step)
    if skip:
        body += ["br i1 %skip, label %done, label %cas", "cas:"]
    body += ["%%seen = call %s @%s(%s %%p, %s %%old, %s %%new, i32 %%o, i32 %%s)" % (I, cas, ptr, I, I),
             "%ok = icmp eq " + I + " %seen, %old",
             "br i1 %ok, label %done, label %loop",
             "done:",
             "ret %s %%oldf" % T]
    helper(name, "%s @%s(%s %%p, %s %%v, i32 %%o, i32 %%s)" % (T, name, ptr, T), body)
    return name


def fminmax_helper(op, T, n):
    """cl_ext_float_atomics min/max: a compare-and-swap loop on the bits. fmin/fmax semantics:
    a NaN operand is missing data (the other one is kept), -0 is below +0. A relaxed call that
    changes nothing writes nothing (the same as the swap of an equal value)."""
    I = "i32" if T == "float" else "i64"
    cmp = "olt" if op == "min" else "ogt"
    # min takes v over an equal old when v is -0; max when v is +0.
    sign = "slt" if op == "min" else "sge"
    before = ["%%vi = bitcast %s %%v to %s" % (T, I)]
    after = ["%relaxed = icmp eq i32 %o, 0",
             "%%vnan = fcmp uno %s %%v, %%v" % T,
             "%vsign = icmp " + sign + " %s %%vi, 0" % I]
    step = ["%%onan = fcmp uno %s %%oldf, %%oldf" % T,
            "%%better = fcmp %s %s %%v, %%oldf" % (cmp, T),
            "%%eq = fcmp oeq %s %%v, %%oldf" % T,
            "%zero = and i1 %eq, %vsign",
            "%take1 = or i1 %better, %zero",
            "%take2 = or i1 %take1, %onan",
            "%vok = xor i1 %vnan, true",
            "%take = and i1 %take2, %vok",
            "%%new = select i1 %%take, %s %%vi, %s %%old" % (I, I),
            "%same = icmp eq " + I + " %new, %old",
            "%skip = and i1 %same, %relaxed"]
    return cas_loop_helper("__cv_f%s.%s.%d" % (op, T, n), T, n, before, after, step, skip=True)


def fadd_cas_helper(T, n):
    """Float add as a compare-and-swap loop on the bits (see the docstring: global atom.add.f32
    flushes subnormals)."""
    I = "i32" if T == "float" else "i64"
    step = ["%%sum = fadd %s %%oldf, %%v" % T, "%%new = bitcast %s %%sum to %s" % (T, I)]
    return cas_loop_helper("__cv_faddcas.%s.%d" % (T, n), T, n, [], [], step)


def ity(t):  # the integer type an atomic of t works on
    return {"float": "i32", "double": "i64"}.get(t, TYPES[t])


# The public functions: the order and scope arguments, or the form's defaults (seq_cst, device).
publics = []
seen = set()
for (kind, t, a, e, form, _), name in zip(variants, names):
    if name in seen:
        continue
    seen.add(name)
    T, I = TYPES[t], ity(t)
    n = AS.get(a, 0)
    ptr = "ptr addrspace(%d)" % n
    al = 8 if I == "i64" else 4
    norders = 2 if kind == "cmpxchg" else 1
    if kind in ("init",):
        oparams = []
        pre = []
    elif form == "full":
        oparams = ["i32 %o", "i32 %of", "i32 %s"] if norders == 2 else ["i32 %o", "i32 %s"]
        pre = []
    elif form == "order":
        oparams = ["i32 %o", "i32 %of"] if norders == 2 else ["i32 %o"]
        pre = ["%s = add i32 2, 0"]
    else:
        oparams = []
        pre = ["%o = add i32 5, 0", "%s = add i32 2, 0"] + (["%of = add i32 5, 0"] if norders == 2 else [])
    body = []
    if kind.startswith("fetch_"):
        op = kind[6:]
        if op in ("min", "max"):
            op = ("u" if t.startswith("u") else "") + op
        v = "%v"
        if op == "sub":
            body.append("%%neg = sub %s 0, %%v" % T)
            op, v = "add", "%neg"
        sig = "%s @%s(%s %%p, %s %%v%s)" % (T, name, ptr, T, "".join(", " + x for x in oparams))
        body += ["%%r = call %s @%s(%s %%p, %s %s, i32 %%o, i32 %%s)" % (T, rmw_helper(op, T, n), ptr, T, v),
                 "ret %s %%r" % T]
    elif kind.startswith("ffetch_"):
        op = kind[7:]
        sig = "%s @%s(%s %%p, %s %%v%s)" % (T, name, ptr, T, "".join(", " + x for x in oparams))
        if op in ("add", "sub"):
            v = "%v"
            if op == "sub":  # x - v is x + (-v) exactly, NaN and zeros included
                body.append("%%neg = fneg %s %%v" % T)
                v = "%neg"
            add_fn = fadd_cas_helper(T, n) if T == "float" and n != 3 else rmw_helper("fadd", T, n)
            body += ["%%r = call %s @%s(%s %%p, %s %s, i32 %%o, i32 %%s)"
                     % (T, add_fn, ptr, T, v), "ret %s %%r" % T]
        else:
            body += ["%%r = call %s @%s(%s %%p, %s %%v, i32 %%o, i32 %%s)"
                     % (T, fminmax_helper(op, T, n), ptr, T), "ret %s %%r" % T]
    elif kind == "load":
        sig = "%s @%s(%s %%p%s)" % (T, name, ptr, "".join(", " + x for x in oparams))
        body += ["%%ri = call %s @%s(%s %%p, i32 %%o, i32 %%s)" % (I, ld_helper(I, n), ptr),
                 "%%r = bitcast %s %%ri to %s" % (I, T), "ret %s %%r" % T]
    elif kind == "store":
        sig = "void @%s(%s %%p, %s %%v%s)" % (name, ptr, T, "".join(", " + x for x in oparams))
        body += ["%%vi = bitcast %s %%v to %s" % (T, I),
                 "call void @%s(%s %%p, %s %%vi, i32 %%o, i32 %%s)" % (st_helper(I, n), ptr, I),
                 "ret void"]
    elif kind == "init":
        sig = "void @%s(%s %%p, %s %%v)" % (name, ptr, T)
        body += ["store %s %%v, %s %%p, align %d" % (T, ptr, al), "ret void"]
    elif kind == "exchange":
        sig = "%s @%s(%s %%p, %s %%v%s)" % (T, name, ptr, T, "".join(", " + x for x in oparams))
        body += ["%%vi = bitcast %s %%v to %s" % (T, I),
                 "%%ri = call %s @%s(%s %%p, %s %%vi, i32 %%o, i32 %%s)" % (I, rmw_helper("xchg", I, n), ptr, I),
                 "%%r = bitcast %s %%ri to %s" % (I, T), "ret %s %%r" % T]
    elif kind == "cmpxchg":
        eptr = "ptr addrspace(%d)" % {**EXP_AS, **GENERIC_EXP}[e]
        sig = "zeroext i1 @%s(%s %%p, %s %%e, %s %%v%s)" % (name, ptr, eptr, T, "".join(", " + x for x in oparams))
        # The stronger of the two orders; release on success with acquire on failure: acq_rel.
        body += ["%ev = load " + I + ", %s %%e, align %d" % (eptr, al),
                 "%%vi = bitcast %s %%v to %s" % (T, I),
                 "%fa = icmp eq i32 %of, 2", "%fc = icmp eq i32 %of, 1", "%facq = or i1 %fa, %fc",
                 "%srel = icmp eq i32 %o, 3", "%up = and i1 %srel, %facq",
                 "%more = icmp ugt i32 %of, %o", "%m = select i1 %more, i32 %of, i32 %o",
                 "%eff = select i1 %up, i32 4, i32 %m",
                 "%%old = call %s @%s(%s %%p, %s %%ev, %s %%vi, i32 %%eff, i32 %%s)" % (I, cas_helper(I, n), ptr, I, I),
                 "%ok = icmp eq " + I + " %old, %ev",
                 "br i1 %ok, label %success, label %failure",
                 "success:",
                 "ret i1 true",
                 "failure:",
                 "store %s %%old, %s %%e, align %d" % (I, eptr, al),
                 "ret i1 false"]
    elif kind == "flag_test_and_set":
        sig = "zeroext i1 @%s(%s %%p%s)" % (name, ptr, "".join(", " + x for x in oparams))
        body += ["%%r = call i32 @%s(%s %%p, i32 1, i32 %%o, i32 %%s)" % (rmw_helper("xchg", "i32", n), ptr),
                 "%set = icmp ne i32 %r, 0", "ret i1 %set"]
    elif kind == "flag_clear":
        sig = "void @%s(%s %%p%s)" % (name, ptr, "".join(", " + x for x in oparams))
        body += ["call void @%s(%s %%p, i32 0, i32 %%o, i32 %%s)" % (st_helper("i32", n), ptr), "ret void"]
    elif kind == "fence":
        sig = "void @%s(i32 %%flags, i32 %%o, i32 %%s)" % name
        body += ["call void @%s(i32 %%o, i32 %%s)" % fence_helper(), "ret void"]
    publics.append("define %s alwaysinline {" % sig)
    publics.extend(block(pre + body))
    publics.extend(["}", ""])

open("c11_atomics.ll", "w").write("\n".join(out + helpers + publics))
print("%d functions, %d helpers" % (len(seen), len(made)))
