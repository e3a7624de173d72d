#!/usr/bin/env bash
# Runs culvert's GPU tests against a fake libcuda.so.1 (fake_cuda.c): device memory is host
# memory, streams are deferred queues, pageable copies behave as CUDA documents. It checks
# culvert's host-side logic (validation, copy paths, ordering, maps) on a machine without a GPU;
# it proves nothing about real GPU behaviour or speed. Kernels and modules are not supported.
#   tools/fake_cuda/run.sh [build-dir] [ctest args...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-build}"; shift || true
out="$(cd "$build" && pwd)/fake_cuda"
mkdir -p "$out"
cc -O1 -g -fPIC -shared -I/usr/local/cuda/include "$here/fake_cuda.c" "$here/stubs.c" \
   -o "$out/libcuda.so.1" -lpthread 2>/dev/null
LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ctest --test-dir "$build" -L gpu \
  --output-on-failure "$@"
