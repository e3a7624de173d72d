"""The OpenCL C builtin declarations clang itself makes, for the generators that define builtins
by clang's list (gen_half.py, gen_clc_gaps.py): the functions of its opencl-c.h for OpenCL C 1.2
and 3.0 with culvert's extensions, with their mangled names and parsed types."""
import json, os, re, subprocess, tempfile

EXT = ("-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_subgroups,"
       "+__opencl_c_subgroups,+cl_khr_fp16,+__opencl_c_fp16,+__opencl_c_images,"
       "+__opencl_c_read_write_images")

# The sub-group extensions' and the work-group functions' macros, as culvert passes them for
# OpenCL C 3.0 (compiler.c).
SUBGROUP_EXT = ["-Dcl_khr_subgroup_%s=1" % e for e in (
    "extended_types", "shuffle", "shuffle_relative", "ballot", "non_uniform_vote",
    "non_uniform_arithmetic", "clustered_reduce")] + [
    "-D__opencl_c_work_group_collective_functions=1"]


def declarations(clang, keep):
    """{mangled: (name, type string)} of every opencl-c.h function for which
    keep(name, type string, mangled) holds."""
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
                if n.get("kind") == "FunctionDecl" and keep(n["name"], t, m):
                    found[m] = (n["name"], t)
    return found


SCALAR = {"half": "half", "float": "float", "double": "double", "char": "i8", "uchar": "i8",
          "short": "i16", "ushort": "i16", "int": "i32", "uint": "i32", "long": "i64",
          "ulong": "i64", "size_t": "i64"}
SIZE = {"half": 2, "float": 4, "double": 8, "char": 1, "uchar": 1, "short": 2, "ushort": 2,
        "int": 4, "uint": 4, "long": 8, "ulong": 8, "size_t": 8}
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

    def size(self):
        """Bytes in memory: a 3-vector takes the room of 4 elements."""
        return SIZE[self.base] * (4 if self.n == 3 else self.n)


def signature(t):
    """(return Ty or None for void, [parameter Ty]) of a clang type string."""
    ret, params = re.fullmatch(r"(.*?) \((.*)\)", t).groups()
    return Ty(ret) if ret != "void" else None, [Ty(p) for p in params.split(", ") if p]


def const(ty, ir_scalar, value):
    """A constant of scalar type `ir_scalar`, splat to ty's width."""
    if ty.n == 1:
        return value
    return "<" + ", ".join("%s %s" % (ir_scalar, value) for _ in range(ty.n)) + ">"
