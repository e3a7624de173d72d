#!/bin/sh
# Instructions culvert executes per repetition of each latency path of tests/unit/hot_path_mock.c
# (cv-bench's enqueue, round-trip, user-event, cross-queue and replay rows), without the fake driver's
# own instructions (every cu* function of the fake libcuda.so.1, inclusive, is subtracted): the
# host work culvert adds to the raw CUDA calls. Needs valgrind. Usage, from the repository root
# after a build in build/:  scripts/hot-path-ir.sh [build-dir]
set -eu
build=${1:-build}
tests=$build/tests
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# hot_* function, repetitions it runs (hot_path_mock.c: REPS = 64, + 1 uncounted first
# round trip; replays: a warm-up burst and the counted one)
for entry in enqueue_noevent:64 enqueue_event:64 enqueue_profiling:64 roundtrip_finish:65 \
             roundtrip_event:65 user_create:65 user_enqueue:65 user_set:65 user_wait:65 \
             cross_enqueue:65 cross_wait:65 replay:128; do
    fn=hot_${entry%%:*}
    reps=${entry##*:}
    LD_LIBRARY_PATH=$tests/fake_cuda OCL_ICD_VENDORS=$build/vendors \
        valgrind --tool=callgrind --callgrind-out-file="$out/$fn" --collect-atstart=no \
        --toggle-collect="$fn" "$tests/unit_hot_path_mock" >/dev/null 2>&1 || true
    callgrind_annotate --inclusive=yes --threshold=100 "$out/$fn" 2>/dev/null | awk -v fn="$fn" \
        -v reps="$reps" '
        function num(s) { gsub(",", "", s); return s + 0 }
        /PROGRAM TOTALS/ { total = num($1) }
        /libcuda\.so\.1\]$/ && $0 ~ /:cu[A-Z][A-Za-z0-9_]*\ \[/ { fake += num($1) }
        END { printf "%-22s %7.0f instructions (driver stand-in excluded: %.0f)\n", fn,
              (total - fake) / reps, fake / reps }'
done
