#!/bin/sh
# Installs the build into a scratch DESTDIR and checks the installed files as users get them: the
# library, its tool server, the public header, culvert-clc and an .icd file that names the
# installed library; ocl-icd loads the staged library and clinfo runs. With a configure-time
# clang (CLANG, may be empty), the staged library and culvert-clc must find the compiler with
# nothing on PATH: on the fake CUDA driver (FAKE_CUDA_DIR) clinfo reports "Compiler Available:
# Yes", and culvert-clc compiles KERNEL.
#   usage: check_install.sh CMAKE BUILD_DIR FAKE_CUDA_DIR CLANG KERNEL
set -eu
cmake=$1
build=$2
fake_cuda=$3
clang=$4
kernel=$5
clinfo=$(command -v clinfo)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
fail() { echo "$*"; exit 1; }

DESTDIR=$stage "$cmake" --install "$build" >/dev/null
icd=$(find "$stage" -name culvert.icd)
test -n "$icd" || fail "no culvert.icd installed"
lib=$(cat "$icd")
test -f "$stage$lib" || fail "culvert.icd names $lib, which was not installed"
test -n "$(find "$stage" -path '*/include/CL/cl_culvert.h')" || fail "no cl_culvert.h"
# The compiler's tool server beside the library, where libculvert looks for it.
test -f "$(dirname "$stage$lib")/culvert/tool-server.so" || fail "no culvert/tool-server.so beside $lib"
clc=$(find "$stage" -path '*/bin/culvert-clc')
test -n "$clc" || fail "no culvert-clc"
mkdir "$stage/vendors"
echo "$stage$lib" >"$stage/vendors/culvert.icd"
export OCL_ICD_VENDORS="$stage/vendors" OCL_ICD_FILENAMES= CULVERT_CACHE=0
"$clinfo" >"$stage/clinfo.txt" 2>&1 || { cat "$stage/clinfo.txt"; fail "clinfo failed"; }
echo "installed: $lib; clinfo ran through ocl-icd"

[ -n "$clang" ] || { echo "no configure-time clang: compiler defaults not checked"; exit 0; }
grep -qaF "$clang" "$stage$lib" || fail "the installed library lacks the configure-time clang $clang"
LD_LIBRARY_PATH=$fake_cuda PATH=/nonexistent "$clinfo" >"$stage/clinfo.txt" 2>&1 ||
    { cat "$stage/clinfo.txt"; fail "clinfo on the fake driver failed"; }
grep -q "Compiler Available *Yes" "$stage/clinfo.txt" ||
    { grep -i "compiler\|device name" "$stage/clinfo.txt"; fail "installed library: no compiler"; }
PATH=/nonexistent "$clc" -o "$stage/kernel.ptx" "$kernel" ||
    fail "installed culvert-clc failed with nothing on PATH"
grep -q "\.entry" "$stage/kernel.ptx" || fail "installed culvert-clc wrote no kernel"
echo "installed library and culvert-clc find the configure-time compiler ($clang)"
