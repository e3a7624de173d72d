#!/bin/sh
# The GPU machine lacks libz3.so.4, which Debian's clang-16 links: pack it beside the toolchain
# as .gpu/extra-lib.tar.xz (scripts/gpu-run.sh unpacks it onto the toolchain's library path).
# Run on the build machine after ../shared/gpu/prepare.sh.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for l in libz3.so.4; do cp -L "/lib/x86_64-linux-gnu/$l" "$tmp/"; done
tar -C "$tmp" -cJf .gpu/extra-lib.tar.xz .
ls -la .gpu/extra-lib.tar.xz
