#!/usr/bin/env bash
# Checks the Debian package that `cpack -G DEB` wrote into BUILD_DIR: its files, its control
# fields and maintainer scripts; with --install it also installs it with apt-get, checks that the
# ICD loader lists culvert (`CULVERT_EMPTY_PLATFORM=1 clinfo -l`, so no GPU is needed) and that the
# installed culvert-clc compiles a kernel, then removes it and checks that the .icd file is gone.
# --install changes the system (root or sudo): CI runs it on its throw-away machine.
#   usage: scripts/check-package.sh BUILD_DIR [--install]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: check-package.sh BUILD_DIR [--install]}
install=${2:-}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
fail() { echo "check-package: $*" >&2; exit 1; }

debs=("$build"/culvert_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "want one culvert_*.deb in $build (cpack -G DEB)"
deb=$(realpath "${debs[0]}")
llvm=$(sed -n 's/^CULVERT_LLVM_MAJOR:STRING=//p' "$build/CMakeCache.txt")
icd=/etc/OpenCL/vendors/culvert.icd

# The files.
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for want in "^\.$icd\$" '/libculvert\.so\.0$' '/culvert/tool-server\.so$' '/bin/culvert-clc$' \
            '/bin/culvert-demo$' '/include/CL/cl_culvert\.h$'; do
    grep -q "$want" <<<"$files" || fail "the package lacks $want"
done
lib=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$icd")
grep -qx "\.$lib" <<<"$files" || fail "culvert.icd names $lib, which the package does not hold"

# The control fields and maintainer scripts.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = culvert ] || fail "Package: $(field Package)"
grep -qw opencl-icd <<<"$(field Provides)" || fail "Provides: $(field Provides)"
for dep in ocl-icd-libopencl1 "clang-$llvm" "llvm-$llvm" "libclc-$llvm" libc6; do
    grep -q "\(^\|, \)$dep\b" <<<"$(field Depends)" || fail "Depends lacks $dep: $(field Depends)"
done
ctl=$(mktemp -d)
trap 'rm -rf "$ctl"' EXIT
dpkg-deb -e "$deb" "$ctl"
# A conffile stays after `apt-get remove`: the loader would then name a removed library.
[ ! -s "$ctl/conffiles" ] || ! grep -q culvert.icd "$ctl/conffiles" || fail "culvert.icd is a conffile"
for script in postinst postrm; do
    grep -q ldconfig "$ctl/$script" || fail "$script does not run ldconfig"
done
echo "package: $(basename "$deb"): files, Depends ($(field Depends)), Provides, scripts ok"
[ "$install" = --install ] || exit 0

# Install, use, remove.
[ "$(dpkg-query -W -f '${db:Status-Status}' culvert 2>/dev/null)" != installed ] ||
    fail "a culvert package is installed already"
[ ! -e "$icd" ] || fail "$icd exists already (an install from source?): not replacing it"
export DEBIAN_FRONTEND=noninteractive
remove() { $SUDO apt-get remove -y -qq culvert >/dev/null; }
trap 'rm -rf "$ctl"; remove' EXIT
$SUDO apt-get install -y -qq "$deb" >/dev/null
[ -f "$icd" ] || fail "installed, but no $icd"
listed=$(env -u OCL_ICD_VENDORS -u OCL_ICD_FILENAMES CULVERT_EMPTY_PLATFORM=1 clinfo -l 2>&1)
grep -q "culvert" <<<"$listed" || { echo "$listed"; fail "clinfo -l does not list culvert"; }
clc=$(grep '/bin/culvert-clc$' <<<"$files" | cut -c2-)
CULVERT_CACHE=0 "$clc" -o "$ctl/k.ptx" tests/kernels-cl/arg_qualifiers.cl ||
    fail "the installed culvert-clc failed"
echo "installed: clinfo -l lists culvert ($(grep culvert <<<"$listed" | xargs)); $clc compiles"
trap 'rm -rf "$ctl"' EXIT
remove
[ ! -e "$icd" ] || fail "removed, but $icd is still there"
[ ! -e "$lib" ] || fail "removed, but $lib is still there"
! env -u OCL_ICD_VENDORS -u OCL_ICD_FILENAMES CULVERT_EMPTY_PLATFORM=1 clinfo -l 2>&1 |
    grep -q culvert || fail "clinfo -l lists culvert after removal"
echo "removed: $icd and $lib are gone"
$SUDO dpkg --purge culvert >/dev/null # its record (postrm) too
