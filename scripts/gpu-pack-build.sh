#!/bin/sh
# Copies build/ without what running it does not need (object files, static libraries, CMake's
# own bookkeeping, debug info of the test programs) to .devbuild/slim, so the build, the
# toolchain (.gpu) and the existing-programs preparation fit the GPU machine's 64 MiB carry limit.
# libculvert keeps its debug info (backtraces). The copy is packed as .devbuild/carry/build.tar.xz
# (carry .devbuild/carry); scripts/gpu-run.sh unpacks it into build/ there.
set -eu
rm -rf .devbuild/slim
mkdir -p .devbuild
cp -a build .devbuild/slim
find .devbuild/slim \( -name '*.o' -o -name '*.a' \) -delete
find .devbuild/slim -name CMakeFiles -type d -prune -exec rm -rf {} +
# The GPU machine runs the gpu-labelled tests, conformance, benchmarks and tools: the host-only
# unit tests, the warp emulators and the generated data sources stay here (64 MiB carry limit).
rm -rf .devbuild/slim/tests/unit_* .devbuild/slim/tests/warp_emu* .devbuild/slim/tests/fake_cuda \
    .devbuild/slim/tests/*.ll .devbuild/slim/src/*_data.c
find .devbuild/slim -type f -perm -u+x ! -name 'libculvert.so*' -exec sh -c \
    'for f; do head -c4 "$f" | grep -q ELF && strip --strip-debug "$f"; done' _ {} +
mkdir -p .devbuild/carry
tar -C .devbuild/slim -cJf .devbuild/carry/build.tar.xz .
rm -rf .devbuild/slim
du -sh .devbuild/carry/build.tar.xz
