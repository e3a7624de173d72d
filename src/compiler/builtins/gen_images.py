#!/usr/bin/env python3
"""Writes images.ll: the OpenCL C image builtins (read_imagef/i/ui/h, write_imagef/i/ui/h,
get_image_*, for every overload clang declares with culvert's image features) and
__translate_sampler_initializer, for a device that claims images (cvc_target.images).

The work is images.cl, OpenCL C on the image descriptor of docs/kernel-abi.md: software sampling
with plain global loads and stores (why: the descriptor is a plain buffer that moves between
devices like one, and a texture object per image and launch would cost a driver call each; the
specification's addressing, filtering and conversion rules are then exactly what the code says),
except read_imagef/h of a read-only 2D image with a sampler and float coordinates, which the
texture units sample where the image's descriptor holds a texture object for the sampler's state
(core/image.c makes them, for the formats they read, when the image first becomes a read-only
kernel argument).
This script adds one wrapper per mangled builtin name, named with an __asm label (clang lowers an
image argument to `ptr addrspace(1)`, the descriptor's address, and a sampler to
`ptr addrspace(4)`, whose integer is the sampler's bits), and compiles both with clang for
nvptx64-nvidia-nvcl (argument 1: clang's path). Module metadata and the functions' target-cpu and
target-features go (the program's own apply: a library function with other features is not
inlined), so the text depends only on clang 16's code generation.
"""
import json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FEATURES = ("-cl-ext=+cl_khr_fp16,+__opencl_c_fp16,+__opencl_c_images,"
            "+__opencl_c_read_write_images,+__opencl_c_3d_image_writes,+cl_khr_3d_image_writes")
KIND = {"image1d_t": "CV_1D", "image1d_buffer_t": "CV_1D_BUFFER",
        "image1d_array_t": "CV_1D_ARRAY", "image2d_t": "CV_2D", "image2d_array_t": "CV_2D_ARRAY",
        "image3d_t": "CV_3D", "image2d_depth_t": "CV_2D", "image2d_array_depth_t": "CV_2D_ARRAY"}
FUNCS = ("read_imagef", "read_imagei", "read_imageui", "read_imageh", "write_imagef",
         "write_imagei", "write_imageui", "write_imageh", "get_image_width", "get_image_height",
         "get_image_depth", "get_image_channel_data_type", "get_image_channel_order",
         "get_image_dim", "get_image_array_size")
QUERY = {"get_image_width": "(int)i->width", "get_image_height": "(int)i->height",
         "get_image_depth": "(int)i->depth",
         "get_image_channel_data_type": "(int)i->channel_type",
         "get_image_channel_order": "(int)i->channel_order",
         "get_image_array_size": "(size_t)i->array_size"}


def declarations(clang):
    """{mangled: (name, type string)} of the image functions clang declares (OpenCL C 1.2 and 3.0
    with the image features)."""
    found = {}
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "e.cl")
        open(src, "w").write("kernel void k(void) {}\n")
        for std in ("CL1.2", "CL3.0"):
            r = subprocess.run([clang, "-cc1", "-triple", "nvptx64-nvidia-nvcl", "-x", "cl",
                                "-cl-std=" + std, "-finclude-default-header", FEATURES,
                                "-ast-dump=json", src], stdout=subprocess.PIPE, check=True)
            for n in json.loads(r.stdout).get("inner", []):
                if n.get("kind") == "FunctionDecl" and n["name"] in FUNCS:
                    found[n["mangledName"]] = (n["name"], n["type"]["qualType"])
    return found


def widen(expr, ty, base):
    """A coordinate or value of type `ty` (int, int2, float4...) as a 4-vector of `base`."""
    n = int(ty[len(base):] or 1)
    return expr if n == 4 else "(%s4)(%s%s)" % (base, expr, ", 0" * (4 - n))


def wrapper(idx, mangled, name, ty):
    ret, params = re.fullmatch(r"(.*?) \((.*)\)", ty).groups()
    params = [p.replace("__private ", "").split() for p in params.split(", ")]
    kind = KIND[params[0][-1]]
    args = ["cv_image *i"]
    sampler = len(params) > 1 and params[1] == ["sampler_t"]
    if sampler:
        args.append("constant void *s")
    rest = params[2 if sampler else 1:]
    types = [p[-1] for p in rest]
    args += ["%s %s" % (t, v) for t, v in zip(types, "cv")]
    smp = "(uint)(ulong)s"
    if name in QUERY:
        body = "return %s;" % QUERY[name]
    elif name == "get_image_dim":
        body = ("return (int2)(i->width, i->height);" if ret == "int2" else
                "return (int4)(i->width, i->height, i->depth, 0);")
    elif name.startswith("read_image"):
        integer = name in ("read_imagei", "read_imageui")
        suffix = "i" if integer else "f"
        if not sampler:
            call = "cv_load_%s(i, %s, %s)" % (suffix, kind, widen("c", types[0], "int"))
        elif not integer and types[0].startswith("float") and "14ocl_image2d_ro" in mangled:
            # read-only 2D images: the texture units where the image has a texture
            call = "cv_read_f_2d_ro(i, %s, %s)" % (smp, widen("c", types[0], "float"))
        elif types[0].startswith("float"):
            call = "cv_read_%s(i, %s, %s, %s)" % (suffix, kind, smp, widen("c", types[0], "float"))
        else:
            call = "cv_read_%s_int(i, %s, %s, %s)" % (suffix, kind, smp,
                                                      widen("c", types[0], "int"))
        body = "return %s;" % {"read_imagef": call + (".x" if ret == "float" else ""),
                               "read_imagei": call, "read_imageui": "as_uint4(%s)" % call,
                               "read_imageh": "__builtin_convertvector(%s, half4)" % call}[name]
    else:
        c = widen("c", types[0], "int")
        body = {"write_imagef": "cv_write_f(i, %s, %s, %s);" % (kind, c,
                                                               widen("v", types[1], "float")),
                "write_imageh": "cv_write_f(i, %s, %s, __builtin_convertvector(v, float4));"
                                % (kind, c),
                "write_imagei": "cv_write_i(i, %s, %s, as_uint4(v), true);" % (kind, c),
                "write_imageui": "cv_write_i(i, %s, %s, v, false);" % (kind, c)}[name]
    decl = "%s cv_w%d(%s)" % (ret, idx, ", ".join(args))
    return ("%s __asm(\"%s\");\n__attribute__((always_inline)) %s {\n    %s\n}\n"
            % (decl, mangled, decl, body))


def tidy(ir):
    """clang's module without its metadata, comments and the functions' target attributes."""
    out = []
    for line in ir.splitlines():
        if line.startswith(("; ModuleID", "source_filename", "!", "; Function Attrs")):
            continue
        line = re.sub(r", ![A-Za-z0-9_.]+ ![0-9]+", "", line)
        line = re.sub(r' "target-(cpu|features)"="[^"]*"', "", line)
        out.append(line)
    text = "\n".join(out).strip() + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


def main():
    """gen_images.py CLANG [--wrappers FILE.cl]: images.ll in the working directory, or only the
    wrappers' OpenCL C (which #includes images.cl), for the host test (tests/image_emulation)."""
    clang = sys.argv[1] if len(sys.argv) > 1 else "clang-16"
    decls = declarations(clang)
    src = ['#include "images.cl"\n',
           "/* A sampler declared in the program: its bits (the same value as an argument's). */",
           "constant void *cv_sampler(int x) __asm(\"__translate_sampler_initializer\");",
           "__attribute__((always_inline)) constant void *cv_sampler(int x) {",
           "    return (constant void *)(ulong)(uint)x;", "}\n"]
    for idx, m in enumerate(sorted(decls, key=lambda m: (decls[m][0], m))):
        src.append(wrapper(idx, m, *decls[m]))
    if len(sys.argv) > 3 and sys.argv[2] == "--wrappers":
        open(sys.argv[3], "w").write("\n".join(src))
        return
    with tempfile.TemporaryDirectory() as d:
        cl = os.path.join(d, "wrappers.cl")
        ll = os.path.join(d, "images.ll")
        open(cl, "w").write("\n".join(src))
        subprocess.run([clang, "-cc1", "-triple", "nvptx64-nvidia-nvcl", "-x", "cl",
                        "-cl-std=CL1.2", "-finclude-default-header",
                        "-cl-ext=+cl_khr_fp16,+__opencl_c_fp16", "-I", HERE, "-O2",
                        "-disable-llvm-passes", "-Wno-unused-function", "-emit-llvm", "-o", ll, cl], check=True)
        ir = tidy(open(ll).read())
    defined = set(re.findall(r"^define [^@]*@([A-Za-z0-9_]+)\(", ir, re.M))
    missing = set(decls) - defined
    if missing:
        sys.exit("gen_images.py: not defined: " + ", ".join(sorted(missing)))
    with open("images.ll", "w") as f:
        f.write("; Generated by gen_images.py: the image builtins on images.cl (see the script).\n")
        f.write(ir)


if __name__ == "__main__":
    main()
