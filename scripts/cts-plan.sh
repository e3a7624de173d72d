#!/bin/sh
# The jobs of one [section] of a CTS plan file (conformance/cts/image-plan.txt), one per line,
# for scripts/cts.sh run: scripts/cts.sh run ... $(scripts/cts-plan.sh FILE SECTION).
# Without SECTION: the section names.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 FILE [SECTION]" >&2; exit 2; }
if [ $# -eq 1 ]; then
  sed -n 's/^\[\(.*\)\]$/\1/p' "$1"
else
  awk -v want="[$2]" '/^\[/ { on = ($0 == want); next } on && NF && !/^#/ { print }' "$1"
fi
