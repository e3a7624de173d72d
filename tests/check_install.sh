#!/bin/sh
# Installs the build into a scratch DESTDIR and checks what the loaders need: the library, the
# public header, and an .icd file that names the installed library; then ocl-icd loads the staged
# copy and clinfo runs without a crash.   usage: check_install.sh CMAKE BUILD_DIR
set -eu
cmake=$1
build=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
DESTDIR=$stage "$cmake" --install "$build" >/dev/null
icd=$(find "$stage" -name culvert.icd)
test -n "$icd" || { echo "no culvert.icd installed"; exit 1; }
lib=$(cat "$icd")
test -f "$stage$lib" || { echo "culvert.icd names $lib, which was not installed"; exit 1; }
test -n "$(find "$stage" -path '*/include/CL/cl_culvert.h')" || { echo "no cl_culvert.h"; exit 1; }
mkdir "$stage/vendors"
echo "$stage$lib" >"$stage/vendors/culvert.icd"
OCL_ICD_VENDORS=$stage/vendors OCL_ICD_FILENAMES= clinfo >"$stage/clinfo.txt" 2>&1 ||
    { cat "$stage/clinfo.txt"; echo "clinfo failed"; exit 1; }
echo "installed: $lib; clinfo ran through ocl-icd"
