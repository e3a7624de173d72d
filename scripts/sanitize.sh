#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer over the tests that need no GPU (the unit tests
# and the fake driver's): a Debug build in .devbuild/sanitize, then ctest -L unit. Leaks are not
# reported (build-time tools keep their buffers). Left out: the tests that preload culvert's tool
# server into clang and llc or run uninstrumented programs (clinfo) against the instrumented
# library, which the sanitizer's runtime refuses to load after other libraries.
#   usage: scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.devbuild/sanitize
flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" -L unit -E '^unit\.(compiler_server|install)$' -j"$(nproc)" \
  --output-on-failure "$@"
