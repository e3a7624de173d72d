#!/usr/bin/env bash
# Runs on the GPU test machine, from the project root, over a build made on the build machine
# (carried as build/ together with .gpu/): registers the built culvert beside NVIDIA's OpenCL,
# then runs what is asked. Reports go to $OUT (or ./gpu-out).
#   usage: scripts/gpu-run.sh [clinfo] [tests] [conformance] [bench] [existing]   (none: set-up only)
set -uo pipefail
. .gpu/bootstrap.sh
# What the toolchain needs beyond the pack (scripts/gpu-extra-libs.sh).
[ -f .gpu/extra-lib.tar.xz ] && tar -C "$GPU_ROOT/usr/lib/x86_64-linux-gnu" -xJf .gpu/extra-lib.tar.xz
# Without a clang that starts, every OpenCL C build fails and the whole command is lost: say so
# at once (a .gpu/ packed without scripts/gpu-extra-libs.sh lacks libz3).
if ! clang --version >/dev/null 2>&1; then
  echo "gpu-run: clang does not start here: $(clang --version 2>&1 | head -n1)" >&2
  echo "gpu-run: run scripts/gpu-extra-libs.sh on the build machine and carry .gpu again" >&2
  exit 1
fi
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
# A slim build carried as .devbuild/carry/build.tar.xz (scripts/gpu-pack-build.sh) becomes build/;
# a warm machine keeps the build/ of an earlier call, which a different pack replaces.
pack=.devbuild/carry/build.tar.xz
if [ -f "$pack" ]; then
  sum=$(sha1sum "$pack" | cut -d' ' -f1)
  if [ ! -d build ] || [ "$(cat build/.pack-sum 2>/dev/null)" != "$sum" ]; then
    rm -rf build && mkdir build && tar -C build -xJf "$pack" && echo "$sum" >build/.pack-sum
  fi
fi
# The build records absolute paths: make the checkout reachable where it was built.
built=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt)
[ "$built" = "$PWD" ] || { mkdir -p "$(dirname "$built")"; ln -sfn "$PWD" "$built"; }
echo "$PWD/build/src/libculvert.so" >"$OCL_ICD_VENDORS/culvert.icd"
# SPIR-V programs: the llvm-spirv of scripts/gpu-llvm-spirv.sh, where it was carried.
[ -x .devbuild/carry/llvm-spirv ] && export CULVERT_LLVM_SPIRV=$PWD/.devbuild/carry/llvm-spirv
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for what in "$@"; do
  for w in $what; do
    case $w in
    clinfo) clinfo >"$out/clinfo.txt" 2>&1; clinfo -l ;;
    tests) ctest --test-dir build -L gpu --output-on-failure --timeout ${CV_TEST_TIMEOUT:-120} -j${CV_TEST_JOBS:-1} 2>&1 | tee "$out/gpu-tests.txt" | tail -40 ;;
    conformance) for p in culvert "NVIDIA CUDA"; do
        build/conformance/cv-conformance --platform "$p" 2>&1 | tee "$out/conformance-${p// /_}.txt" | tail -25
      done ;;
    bench) build/bench/cv-bench --out "$out/bench.md" 2>&1 | tail -60 ;;
    existing) scripts/run-existing-programs.sh 2>&1 | tee "$out/existing.txt" | tail -40 ;;
    esac
  done
done
