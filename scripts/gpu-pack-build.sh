#!/bin/sh
# Copies build/ without object files and static libraries to .devbuild/slim, so the build and the
# toolchain (.gpu) fit the GPU machine's 64 MiB carry limit. scripts/gpu-run.sh moves it back
# into place there.
set -eu
rm -rf .devbuild/slim
mkdir -p .devbuild
cp -a build .devbuild/slim
find .devbuild/slim \( -name '*.o' -o -name '*.a' \) -delete
du -sh .devbuild/slim
