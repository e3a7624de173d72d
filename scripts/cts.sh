#!/usr/bin/env bash
# The Khronos OpenCL CTS, built outside git and run against culvert and NVIDIA's OpenCL.
#
#   scripts/cts.sh build            build the pinned CTS into .devbuild/cts/build (~16 min, 2 cores)
#   scripts/cts.sh pack             strip the binaries, pack them with their data files as
#                                   .devbuild/carry/cts.tar.xz (carry .devbuild/carry to the GPU)
#   scripts/cts.sh run [options] JOB...
#                                   on the GPU machine, after `. .gpu/bootstrap.sh` and with culvert
#                                   registered (scripts/gpu-run.sh): runs each JOB against each
#                                   platform, several at once, and writes a results table
#   scripts/cts.sh table DIR...     the results table of one or more run folders
#
# Sources: the `fetch` tool brings KhronosGroup/OpenCL-CTS, OpenCL-Headers and SPIRV-Headers as
# bare repositories under /work/.mirror; CTS_MIRROR, CL_HEADERS_MIRROR and SPIRV_HEADERS_MIRROR
# point elsewhere. apt's spirv-tools gives spirv-as / spirv-val. Nothing of the CTS is committed.
#
# A JOB is BINARY[%K/N][:SUBTEST[,SUBTEST...]][@ARGS]: `api`, `basic:async_copy_global_to_local`,
# `basic%2/4` (the 2nd of 4 shards of the binary's --list), `half%each@-w` (a process for each
# sub-test of its --list: long binaries run to their end across many processes),
# `bruteforce:sin,cos@-w` (ARGS go before the sub-tests; '+' stands for a space: `@-w+-1`).
# BINARY is the name after test_.
# Run options: --platforms "culvert,NVIDIA CUDA" --jobs N --timeout S --out DIR; CTS_DEVICE_TYPE
# (default gpu) picks the device type, e.g. cpu for PoCL.
set -euo pipefail
cd "$(dirname "$0")/.."

CTS_COMMIT=${CTS_COMMIT:-b8f8906c}
CL_HEADERS_COMMIT=${CL_HEADERS_COMMIT:-15b536b}
MIRROR=${MIRROR:-/work/.mirror}
CTS_MIRROR=${CTS_MIRROR:-$MIRROR/KhronosGroup+OpenCL-CTS/repo}
CL_HEADERS_MIRROR=${CL_HEADERS_MIRROR:-$MIRROR/KhronosGroup+OpenCL-Headers/repo}
SPIRV_HEADERS_MIRROR=${SPIRV_HEADERS_MIRROR:-$MIRROR/KhronosGroup+SPIRV-Headers/repo}
TOP=.devbuild/cts

# Snapshots lack files of 4 MiB and more (the CTS's spir/*.zip, for the SPIR 1.2 tests culvert does
# not claim): archive what the repository holds.
export_tree() { # repo commit dest
  rm -rf "$3" && mkdir -p "$3"
  local -a absent=()
  mapfile -t absent < <(git --git-dir="$1" ls-tree -r -l "$2" 2>/dev/null |
    awk '$4 == "-" || $4 >= 4000000 { sub(/^[^\t]*\t/, ""); print ":!" $0 }' |
    while read -r p; do git --git-dir="$1" cat-file -e "$(git --git-dir="$1" rev-parse "$2:${p#:!}")" 2>/dev/null || echo "$p"; done)
  git --git-dir="$1" archive "$2" -- . "${absent[@]}" | tar -C "$3" -x
}

cmd_build() {
  command -v spirv-as >/dev/null || { echo "spirv-as missing: apt-get install spirv-tools" >&2; exit 1; }
  mkdir -p "$TOP/src"
  export_tree "$CTS_MIRROR" "$CTS_COMMIT" "$TOP/src/cts"
  export_tree "$CL_HEADERS_MIRROR" "$CL_HEADERS_COMMIT" "$TOP/src/cl-headers"
  export_tree "$SPIRV_HEADERS_MIRROR" HEAD "$TOP/src/spirv-headers"
  local libdir
  libdir=$(dirname "$(find /usr/lib -name 'libOpenCL.so' | head -n1)")
  cmake -S "$TOP/src/cts" -B "$TOP/build" -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR="$PWD/$TOP/src/cl-headers" -DCL_LIB_DIR="$libdir" \
    -DSPIRV_INCLUDE_DIR="$PWD/$TOP/src/spirv-headers" -DOPENCL_LIBRARIES=OpenCL \
    -DCMAKE_C_FLAGS="-w" -DCMAKE_CXX_FLAGS="-w" >"$TOP/configure.log"
  # Keep going past test_spir: it needs spir/*.zip, which snapshots lack (SPIR 1.2 is not claimed).
  cmake --build "$TOP/build" -j"$(nproc)" -- -k >"$TOP/build.log" 2>&1 ||
    grep -E '\*\*\* .*Error' "$TOP/build.log" | grep -v 'test_spir\b\|spir/all\|Makefile:[0-9]*: all' >&2 || true
  echo "built: $(find "$TOP/build/test_conformance" -type f -name 'test_*' -perm -u+x | wc -l) binaries"
}

# The binaries and the data they read from their own folders (test_compiler's include folders and
# SPIR-V files, test_spirv_new's spirv_bin), stripped and packed small enough to carry.
cmd_pack() {
  local pack=$TOP/pack
  rm -rf "$pack" && mkdir -p "$pack/bin"
  find "$TOP/build/test_conformance" -type f -name 'test_*' -perm -u+x | while read -r f; do
    cp "$f" "$pack/bin/" && strip "$pack/bin/$(basename "$f")"
  done
  local c=$TOP/build/test_conformance/compiler
  mkdir -p "$pack/compiler"
  cp -r "$c"/includeTestDirectory "$c"/secondIncludeTestDirectory "$pack/compiler/" 2>/dev/null || true
  [ -d "$c/spirv_bin" ] && cp -r "$c/spirv_bin" "$pack/compiler/"
  local s=$TOP/build/test_conformance/spirv_new
  [ -d "$s/spirv_bin" ] && mkdir -p "$pack/spirv_new" && cp -r "$s/spirv_bin" "$pack/spirv_new/"
  git --git-dir="$CTS_MIRROR" rev-parse --short=8 "$CTS_COMMIT" >"$pack/COMMIT"
  mkdir -p .devbuild/carry
  tar -C "$pack" -cJf .devbuild/carry/cts.tar.xz . && rm -rf "$pack"
  du -sh .devbuild/carry/cts.tar.xz
}

# Where the binaries are: the carried pack (unpacked on first use) or the build tree.
cts_bin_dir() {
  local pack=$TOP/pack
  if [ -f .devbuild/carry/cts.tar.xz ]; then
    [ -d "$pack/bin" ] || { mkdir -p "$pack" && tar -C "$pack" -xJf .devbuild/carry/cts.tar.xz; }
    echo "$PWD/$pack"
  else
    echo "$PWD/$TOP/build/test_conformance"
  fi
}

find_binary() { # root name
  if [ -x "$1/bin/test_$2" ]; then echo "$1/bin/test_$2"; else find "$1" -type f -name "test_$2" | head -n1; fi
}

# The sub-tests of a binary's --list, one a line.
list_subtests() { # root binary
  local exe
  exe=$(find_binary "$1" "$2")
  [ -n "$exe" ] || return 0
  (cd "$(dirname "$exe")" && "$exe" --list 2>/dev/null) | awk 'NF == 1 && $1 ~ /^[A-Za-z0-9_]+$/ { print $1 }'
}

# One CTS process: JOB for one platform, its log and an exit line. The CTS picks the platform
# with CL_PLATFORM_INDEX; calls without a platform (clCreateContextFromType(NULL, ...)) go where
# ocl-icd's OCL_ICD_DEFAULT_PLATFORM points, the same platform.
run_one() { # root platform_index platform_tag job outdir timeout
  local root=$1 pidx=$2 tag=$3 job=$4 out=$5 limit=$6
  local spec=$job args="" subs="" shard=""
  case $spec in *@*) args=${spec#*@}; args=${args//+/ }; spec=${spec%%@*} ;; esac
  case $spec in *:*) subs=${spec#*:}; subs=${subs//,/ }; spec=${spec%%:*} ;; esac
  case $spec in *%*) shard=${spec#*%}; spec=${spec%%%*} ;; esac
  local bin=$spec exe dir log name
  exe=$(find_binary "$root" "$bin")
  name=$(printf %s "$job" | tr -c 'A-Za-z0-9_.-' '_')
  # A job of many sub-tests: a file name within the file system's 255 bytes.
  [ ${#name} -le 120 ] || name="${name:0:100}_$(printf %s "$job" | cksum | cut -d' ' -f1)"
  log="$out/$tag.$name.log"
  if [ -z "$exe" ]; then echo "no binary test_$bin" >"$log"; echo "exit=127 time=0" >>"$log"; return; fi
  dir=$(dirname "$exe")
  # test_compiler and test_spirv_new read their data from the working directory; test_compiler
  # looks for its include folders beside its binary, which the pack keeps in compiler/.
  case $bin in compiler) dir=$root/compiler ;; spirv_new) dir=$root/spirv_new ;; esac
  [ -d "$dir" ] || dir=$(dirname "$exe")
  if [ "$bin" = compiler ] && [ -d "$dir/includeTestDirectory" ]; then
    args="--include-test-directory $dir/includeTestDirectory --second-include-test-directory $dir/secondIncludeTestDirectory $args"
  fi
  # test_spirv_new looks beside its binary unless told: the pack keeps spirv_bin in spirv_new/.
  [ "$bin" = spirv_new ] && [ -d "$dir/spirv_bin" ] && args="--spirv-binaries-path $dir/spirv_bin $args"
  # Shard K/N: every N-th sub-test of the binary's --list, starting with the K-th.
  if [ -n "$shard" ]; then
    subs=$(list_subtests "$root" "$bin" | awk -v k="${shard%/*}" -v n="${shard#*/}" \
      '(NR - 1) % n == k - 1 { printf "%s ", $1 }')
  fi
  local t0 t1 rc
  t0=$(date +%s)
  # shellcheck disable=SC2086
  (cd "$dir" && OCL_ICD_DEFAULT_PLATFORM=$pidx CL_PLATFORM_INDEX=$pidx CL_DEVICE_TYPE=${CTS_DEVICE_TYPE:-gpu} timeout -k 5 "$limit" "$exe" $args $subs) \
    >"$log" 2>&1 && rc=0 || rc=$?
  t1=$(date +%s)
  echo "exit=$rc time=$((t1 - t0))" >>"$log"
}

# A job as the jobs it stands for: BINARY%each[@ARGS] becomes BINARY:SUB[@ARGS] for each sub-test.
expand_job() { # root job
  local job=$2 spec args=""
  spec=${job%%@*}
  [ "$spec" != "$job" ] && args="@${job#*@}"
  if [ "${spec#*%}" = each ]; then
    local subs
    subs=$(list_subtests "$1" "${spec%%%*}")
    # No list (no such binary): the binary as one job, which then reports what is missing.
    [ -n "$subs" ] || { echo "${spec%%%*}$args"; return; }
    echo "$subs" | while read -r sub; do echo "${spec%%%*}:$sub$args"; done
  else
    echo "$job"
  fi
}

cmd_run() {
  local platforms="culvert,NVIDIA CUDA" jobs=8 limit=540 out=${OUT:-$PWD/cts-out}
  while [ $# -gt 0 ]; do
    case $1 in
    --platforms) platforms=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) break ;;
    esac
  done
  mkdir -p "$out"
  local root
  root=$(cts_bin_dir)
  # Platform indices as the loader lists them.
  local -a names=()
  mapfile -t names < <(clinfo -l 2>/dev/null | sed -n 's/^Platform #[0-9]*: //p')
  local -a tasks=() jobs_all=()
  local p i tag job
  for job in "$@"; do
    mapfile -t -O "${#jobs_all[@]}" jobs_all < <(expand_job "$root" "$job")
  done
  IFS=, read -r -a plats <<<"$platforms"
  for job in "${jobs_all[@]}"; do
    for p in "${plats[@]}"; do
      for i in "${!names[@]}"; do
        [ "${names[$i]}" = "$p" ] || continue
        tag=$(echo "$p" | awk '{print tolower($1)}')
        tasks+=("$i|$tag|$job")
      done
    done
  done
  local running=0 t
  for t in "${tasks[@]}"; do
    IFS='|' read -r i tag job <<<"$t"
    run_one "$root" "$i" "$tag" "$job" "$out" "$limit" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  done
  wait || true
  cmd_table "$out" | tee "$out/table.md"
}

# Per log: passed / failed / skipped sub-tests as the harness counts them, the failing names, the
# exit status and the time; "cut" where the time limit ended the process.
cmd_table() {
  echo "| platform | job | passed | failed | skipped | harness summary | exit | s | failing |"
  echo "|---|---|---|---|---|---|---|---|---|"
  local d f
  for d in "$@"; do
    for f in "$d"/*.log; do
      [ -e "$f" ] || continue
      awk -v file="$(basename "$f" .log)" '
        /^([A-Za-z0-9_]+|.*\.\.\.[A-Za-z0-9_]+) passed$/ { pass++ }
        /^([A-Za-z0-9_]+|.*\.\.\.[A-Za-z0-9_]+) FAILED$/ {
          fail++; n = $1; sub(/.*\.\.\./, "", n); names = names (names ? " " : "") n }
        /^[A-Za-z0-9_]+ test not supported$/ || /^[A-Za-z0-9_]+ test currently not implemented$/ ||
          /^[A-Za-z0-9_]+ skipped \(requires/ { skip++ }
        /^[A-Za-z0-9_]+\.\.\.$/ { started = substr($0, 1, length($0) - 3) }
        /^(PASSED|FAILED) [0-9]+ of [0-9]+ tests?\.$/ || /^(PASSED|FAILED) tests?\.$/ { summary = $0 }
        /^exit=/ { split($1, e, "="); split($2, t, "="); rc = e[2]; secs = t[2] }
        END {
          plat = file; sub(/\..*/, "", plat); job = file; sub(/^[^.]*\./, "", job)
          status = rc
          if (rc == 124 || rc == 137 || rc == "") { status = "cut"; names = names (names ? " " : "") "(cut in " started ")" }
          printf "| %s | %s | %d | %d | %d | %s | %s | %s | %s |\n", plat, job, pass, fail, skip, summary, status, secs, names
        }' "$f"
    done
  done
}

verb=${1:-}
shift || true
case $verb in
build) cmd_build ;;
pack) cmd_pack ;;
run) cmd_run "$@" ;;
table) cmd_table "$@" ;;
*) sed -n '2,20p' "$0"; exit 2 ;;
esac
