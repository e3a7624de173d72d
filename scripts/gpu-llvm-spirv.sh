#!/bin/sh
# llvm-spirv for the GPU machine, a test tool built outside git: the GPU machine's toolchain pack
# (.gpu) has LLVM 16 but no SPIR-V translator, and Debian's llvm-spirv-15 needs libLLVM-15
# (117 MB, past the carry limit). This builds KhronosGroup/SPIRV-LLVM-Translator's
# llvm_release_160 (from the `fetch` tool's mirror) against Debian's llvm-16-dev, linked to
# libLLVM-16.so (which .gpu has), and leaves it stripped as .devbuild/carry/llvm-spirv;
# scripts/gpu-run.sh points CULVERT_LLVM_SPIRV at it. ~15 min on 2 cores.
#   needs: apt install llvm-16-dev; the mirrors of SPIRV-LLVM-Translator and SPIRV-Headers.
set -eu
cd "$(dirname "$0")/.."
MIRROR=${MIRROR:-/work/.mirror}
tr=$MIRROR/KhronosGroup+SPIRV-LLVM-Translator/repo
hd=$MIRROR/KhronosGroup+SPIRV-Headers/repo
top=.devbuild/llvm-spirv
rm -rf "$top/src" "$top/headers"
mkdir -p "$top/src" "$top/headers" "$top/build" .devbuild/carry
# The mirror lacks some large test files: the tests stay out.
git --git-dir="$tr" archive llvm_release_160 -- . ':!test' | tar -C "$top/src" -x
git --git-dir="$hd" archive "$(cat "$top/src/spirv-headers-tag.conf")" | tar -C "$top/headers" -x
cmake -S "$top/src" -B "$top/build" -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_DIR=/usr/lib/llvm-16/lib/cmake/llvm -DLLVM_LINK_LLVM_DYLIB=ON \
  -DLLVM_EXTERNAL_SPIRV_HEADERS_SOURCE_DIR="$PWD/$top/headers" -DLLVM_SPIRV_INCLUDE_TESTS=OFF
cmake --build "$top/build" -j"$(nproc)" --target llvm-spirv
cp "$top/build/tools/llvm-spirv/llvm-spirv" .devbuild/carry/llvm-spirv
strip .devbuild/carry/llvm-spirv
ls -la .devbuild/carry/llvm-spirv
ldd .devbuild/carry/llvm-spirv | grep -i llvm
