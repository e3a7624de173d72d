#!/usr/bin/env bash
# The layer rules of src/ (README.md, "Layout"), checked on the #include "..." lines and, for
# src/api, on the names it uses. Prints every breach and exits 1 if there is one; CTest runs it
# as unit.layers. Usage: scripts/check-layers.sh [repository root]
#   <cuda.h>      only src/cuda includes the CUDA headers
#   src/util      includes nothing of the other layers
#   src/compiler  includes compiler/ and util/ only
#   src/cuda      includes cuda/, util/ and, of core, only the backend interface core/backend.h
#   core/backend.h  includes util/ only (so src/cuda sees nothing else of core through it)
#   src/core      includes no cuda/ header (the backend only through core/backend.h) nor api/
#   src/api       includes no cuda/ header and not core/backend.h, directly or through the headers
#                 it includes, and names nothing cvcu_ / CVCU_ (no backend type or call)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root/src"

breaches=0
breach() {
    echo "layer breach: $*"
    breaches=$((breaches + 1))
}

# The quoted includes of a file, one "LINE PATH" per line.
includes() {
    grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" |
        sed -E 's/^([0-9]+):[^"]*"([^"]+)".*/\1 \2/' || true
}

# allowed PATH PATTERN...: does PATH match one of the patterns?
allowed() {
    local inc=$1 pattern
    shift
    for pattern in "$@"; do
        # shellcheck disable=SC2053
        [[ $inc == $pattern ]] && return 0
    done
    return 1
}

# Direct includes: each file of a layer against the paths the layer may include.
check_direct() {
    local layer=$1 what=$2 file line inc
    shift 2
    for file in $(find "$layer" -name '*.[ch]' | sort); do
        while read -r line inc; do
            allowed "$inc" "$@" || breach "src/$file:$line includes \"$inc\": $what"
        done < <(includes "$file")
    done
}

check_direct util "src/util includes nothing of the other layers" 'util/*'
check_direct compiler "src/compiler includes compiler/ and util/ only" 'compiler/*' 'util/*'
check_direct cuda "src/cuda sees core only through core/backend.h" \
    'cuda/*' 'util/*' 'core/backend.h'

while read -r line inc; do
    case $inc in
    util/*) ;;
    *) breach "src/core/backend.h:$line includes \"$inc\": the backend interface includes util/ only" ;;
    esac
done < <(includes core/backend.h)
for file in $(find core -name '*.[ch]' | sort); do
    while read -r line inc; do
        case $inc in
        cuda/* | api/*)
            breach "src/$file:$line includes \"$inc\": core reaches the backend only through core/backend.h, and never api/"
            ;;
        esac
    done < <(includes "$file")
done

# The CUDA headers belong to src/cuda.
while IFS= read -r hit; do
    breach "src/${hit%%:*}:$(cut -d: -f2 <<<"$hit") includes a CUDA header: only src/cuda does"
done < <(grep -rn -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(cuda|cudaTypedefs)[^>]*>' \
    --include='*.[ch]' api core util compiler || true)

# src/api, through every header it reaches: the chain of includes to a backend header.
# walk FILE CHAIN: adds each backend header FILE includes to found, after the chain that led
# there; a header is walked once per api file.
walk() {
    local file=$1 chain=$2 line inc
    while read -r line inc; do
        case $inc in
        cuda/* | core/backend.h) found+=("$chain$inc") ;;
        *)
            [[ -f $inc && -z ${visited[$inc]+x} ]] || continue
            visited[$inc]=1
            walk "$inc" "$chain$inc -> "
            ;;
        esac
    done < <(includes "$file")
}
for file in $(find api -name '*.[ch]' | sort); do
    unset visited
    declare -A visited=()
    found=()
    walk "$file" ""
    for chain in "${found[@]}"; do
        breach "src/$file reaches a backend header: $chain"
    done
    while IFS= read -r hit; do
        breach "src/$file:${hit%%:*} names the backend: ${hit#*:}"
    done < <(grep -n -E '\b(cvcu|CVCU)_' "$file" || true)
done

if ((breaches > 0)); then
    echo "$breaches layer breach(es)"
    exit 1
fi
echo "layers: no breach"
