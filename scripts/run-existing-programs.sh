#!/usr/bin/env bash
# run-existing-programs.sh: runs unchanged OpenCL programs that nobody on culvert wrote against one
# OpenCL platform (culvert on the GPU machine) and records their results and pass counts:
#   1. clinfo
#   2. the pyopencl test suite (pyopencl from PyPI; its tests come from the same version's sdist)
#   3. CLBlast's test programs (Debian's clblast-tests)
#
# Usage:
#   scripts/run-existing-programs.sh [--vendors DIR] [--platform NAME] [--wheels DIR] [--debs DIR]
#                                    [--out DIR] [--only clinfo,pyopencl,clblast]
#                                    [--timeout SECONDS] [--pytest-args "ARGS"] [--clblast-full]
#   --vendors   the ICD vendors folder (default: $OCL_ICD_VENDORS); it must hold culvert's .icd
#   --platform  platform name (substring) the programs are pointed at (default: culvert)
#   --wheels    folder of wheels + the pyopencl sdist (preparation below); without it: no pyopencl
#   --debs      folder where the CLBlast .debs were extracted (dpkg -x); without it: no CLBlast
#   --out       where logs and summary.md go (default: ./existing-programs-results)
#   --timeout   seconds per program (each pyopencl test file, each CLBlast binary; default 1800)
#   --pyopencl-files "test_wrapper test_array"  only these pyopencl test files (default: all)
#   --clblast-programs "xgemm xaxpy"  only these CLBlast test programs (default: all)
#
# The GPU machine has no network: prepare both folders on a machine that has one, with the same
# Python minor version as the GPU machine (python3 --version there; add
# `--python-version 3.X --only-binary=:all:` to the first pip command when they differ):
#
#   mkdir -p prep/wheels prep/debs
#   pip download -d prep/wheels pyopencl pytest mako
#   rm prep/wheels/numpy-*.whl   # optional (16 MB): a python3 there that imports numpy lends it
#   pip download --no-binary pyopencl --no-deps -d prep/wheels pyopencl==$(ls prep/wheels |
#       sed -n 's/^pyopencl-\([0-9.]*\)-cp.*/\1/p')        # the sdist: pyopencl's tests
#   (cd prep/debs && apt-get download clblast-tests libclblast1 libblas3 &&
#       for f in *.deb; do dpkg -x "$f" root; done)
#
# then copy prep/ to the GPU machine (never into git) and run, after `. .gpu/bootstrap.sh` and
# adding culvert's icd to $OCL_ICD_VENDORS:
#
#   scripts/run-existing-programs.sh --platform culvert --wheels prep/wheels --debs prep/debs/root
#
# Dry run here against PoCL: same command with --platform "Portable Computing Language".
# Exit status: 0 when every program that ran passed, 1 otherwise. Failures go to
# docs/known-issues.md with their cause.
set -u

VENDORS=${OCL_ICD_VENDORS:-}
PLATFORM=culvert
WHEELS=
DEBS=
OUT=./existing-programs-results
ONLY=clinfo,pyopencl,clblast
TIMEOUT=1800
PYTEST_ARGS=
PY_FILES=
CLBLAST_FULL=0
CLBLAST_PROGRAMS=

while [ $# -gt 0 ]; do
    case "$1" in
    --vendors) VENDORS=$2; shift 2 ;;
    --platform) PLATFORM=$2; shift 2 ;;
    --wheels) WHEELS=$2; shift 2 ;;
    --debs) DEBS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --pytest-args) PYTEST_ARGS=$2; shift 2 ;;
    --pyopencl-files) PY_FILES=$2; shift 2 ;;
    --clblast-full) CLBLAST_FULL=1; shift ;;
    --clblast-programs) CLBLAST_PROGRAMS=$2; shift 2 ;;
    -h | --help) sed -n '/^set -u/q;2,$p' "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
done

if [ -z "$VENDORS" ] || [ ! -d "$VENDORS" ]; then
    echo "error: no ICD vendors folder (--vendors DIR or OCL_ICD_VENDORS)" >&2
    exit 2
fi
export OCL_ICD_VENDORS=$VENDORS
unset OCL_ICD_FILENAMES
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SUMMARY=$OUT/summary.md
FAILED=0
want() { case ",$ONLY," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
strip_ansi() { sed -e 's/\x1b\[[0-9;]*m//g'; }

{
    echo "# Existing programs against \"$PLATFORM\" ($(date -u '+%Y-%m-%d %H:%M UTC'))"
    echo
    echo "OCL_ICD_VENDORS=$VENDORS: $(ls "$VENDORS" | tr '\n' ' ')"
    echo
    echo "| program | result |"
    echo "|---|---|"
} >"$SUMMARY"
row() { echo "| $1 | $2 |" >>"$SUMMARY"; echo "$1: $2"; }

# The loader's index of the platform (CLBlast takes an index), from `clinfo -l`.
PLATFORM_INDEX=
if command -v clinfo >/dev/null; then
    PLATFORM_INDEX=$(clinfo -l 2>/dev/null | sed -n 's/^Platform #\([0-9]*\): \(.*\)$/\1 \2/p' |
        grep -F -- "$PLATFORM" | head -n1 | cut -d' ' -f1)
fi

# 1. clinfo: runs to the end without a crash, lists the platform, and answers every query of it.
if want clinfo; then
    if ! command -v clinfo >/dev/null; then
        row clinfo "not installed (apt-get install clinfo)"
    else
        timeout "$TIMEOUT" clinfo >"$OUT/clinfo.txt" 2>"$OUT/clinfo.stderr"
        rc=$?
        # The platform's section: from its "Platform Name" to the next platform's or to the
        # loader's "NULL platform behavior" probes (answered by the loader's default platform).
        section=$(awk -v p="$PLATFORM" '/^NULL platform behavior/ { on = 0 }
            /^  Platform Name/ { on = index($0, p) > 0 } on' "$OUT/clinfo.txt")
        devices=$(printf '%s\n' "$section" | grep -c '^  Device Name' || true)
        errors=$(printf '%s\n' "$section" | grep -E -c '<error|CL_INVALID|Invalid|CL_OUT_OF' || true)
        if [ -z "$PLATFORM_INDEX" ]; then
            row clinfo "exit $rc; platform \"$PLATFORM\" NOT listed"
            FAILED=1
        else
            row clinfo "exit $rc; platform #$PLATFORM_INDEX, $devices device(s), $errors query error line(s) (clinfo.txt)"
            [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ] && FAILED=1
        fi
    fi
fi

# numpy (16 MB) may come from the machine instead of the wheels folder: a python3 there that
# imports it lends its site-packages folder to the venv (a .pth file, after the venv's own).
py_numpy() {
    ls "$2"/numpy-*.whl >/dev/null 2>&1 && return 0
    "$1/bin/python" -c 'import numpy' 2>/dev/null && return 0
    site=$(python3 -c 'import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))') ||
        { echo "no numpy wheel in $2 and no numpy on this machine"; return 1; }
    purelib=$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "$site" >"$purelib/zz-machine-numpy.pth"
    echo "numpy from $site"
}

# 2. pyopencl's tests, in a venv from the wheels folder, pointed at the platform by name.
if want pyopencl && [ -n "$WHEELS" ]; then
    sdist=$(ls "$WHEELS"/pyopencl-*.tar.gz 2>/dev/null | head -n1)
    venv=$OUT/venv
    if [ -z "$sdist" ]; then
        row pyopencl "no pyopencl sdist (its tests) in $WHEELS; see the preparation in --help"
        FAILED=1
    elif ! { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } ||
        ! py_numpy "$venv" "$WHEELS" >"$OUT/pyopencl-install.log" 2>&1 ||
        ! "$venv/bin/pip" install -q --no-index --find-links "$WHEELS" pyopencl pytest mako \
            >>"$OUT/pyopencl-install.log" 2>&1; then
        row pyopencl "installing from $WHEELS failed (pyopencl-install.log)"
        FAILED=1
    else
        rm -rf "$OUT/pyopencl-tests"
        mkdir -p "$OUT/pyopencl-tests"
        tar xzf "$sdist" -C "$OUT/pyopencl-tests" --strip-components=2 --wildcards '*/test/*'
        # PYOPENCL_TEST picks the platform for the test parametrization, PYOPENCL_CTX for
        # create_some_context; both match the platform name. pyopencl's own binary cache stays
        # as pyopencl sets it up (on, unless PYOPENCL_NO_CACHE is set): the programs run
        # unchanged, and test_xdg_cache_home checks that cache. A first run compiles every
        # kernel cold (test_array about 130 s on culvert): give --timeout room.
        export PYOPENCL_TEST=$PLATFORM PYOPENCL_CTX=$PLATFORM
        : >"$OUT/pyopencl.log"
        rm -f "$OUT"/pyopencl-test_*.xml
        for t in "$OUT"/pyopencl-tests/test_*.py; do
            name=$(basename "$t" .py)
            if [ -n "$PY_FILES" ]; then
                case " $PY_FILES " in *" $name "*) ;; *) continue ;; esac
            fi
            (cd "$OUT/pyopencl-tests" &&
                timeout "$TIMEOUT" "$venv/bin/python" -m pytest -q -rfEs -p no:cacheprovider \
                    --junitxml="$OUT/pyopencl-$name.xml" $PYTEST_ARGS "$t") >>"$OUT/pyopencl.log" 2>&1
            rc=$?
            [ "$rc" -eq 124 ] && echo "TIMEOUT: $name after ${TIMEOUT}s" >>"$OUT/pyopencl.log"
            [ "$rc" -gt 1 ] && [ ! -s "$OUT/pyopencl-$name.xml" ] &&
                echo "CRASH or TIMEOUT: $name (exit $rc)" >>"$OUT/pyopencl.log"
        done
        counts=$("$venv/bin/python" - "$OUT" <<'EOF'
import glob, sys, xml.etree.ElementTree as ET
t = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
for f in glob.glob(sys.argv[1] + "/pyopencl-test_*.xml"):
    try:
        root = ET.parse(f).getroot()
    except ET.ParseError:
        continue
    for s in ([root] if root.tag == "testsuite" else root.iter("testsuite")):
        for k in t:
            t[k] += int(s.get(k, 0))
passed = t["tests"] - t["failures"] - t["errors"] - t["skipped"]
print(f"{passed} {t['failures']} {t['errors']} {t['skipped']}")
EOF
)
        read -r p f e s <<<"$counts"
        crashes=$(grep -c -E '^(CRASH or TIMEOUT|TIMEOUT):' "$OUT/pyopencl.log" || true)
        row "pyopencl $(basename "$sdist" .tar.gz | sed 's/pyopencl-//') tests" \
            "$p passed, $f failed, $e errors, $s skipped; $crashes file(s) crashed or timed out (pyopencl.log)"
        { [ "$f" != 0 ] || [ "$e" != 0 ] || [ "$crashes" != 0 ]; } && FAILED=1
    fi
elif want pyopencl; then
    row pyopencl "not run (no --wheels)"
fi

# 3. CLBlast's test programs, each against the platform's first device.
if want clblast && [ -n "$DEBS" ]; then
    bins=$(ls "$DEBS"/usr/bin/clblast_test_* 2>/dev/null)
    missing=
    if [ -n "$CLBLAST_PROGRAMS" ] && [ -n "$bins" ]; then
        bins=$(for p in $CLBLAST_PROGRAMS; do ls "$DEBS/usr/bin/clblast_test_$p" 2>/dev/null; done)
        missing=$(for p in $CLBLAST_PROGRAMS; do [ -x "$DEBS/usr/bin/clblast_test_$p" ] || printf '%s ' "$p"; done)
    fi
    if [ -n "$missing" ]; then
        row clblast "no such CLBlast test program(s): $missing(names as in clblast_test_NAME)"
        FAILED=1
    elif [ -z "$bins" ]; then
        row clblast "no clblast_test_* under $DEBS/usr/bin; see the preparation in --help"
        FAILED=1
    else
        export LD_LIBRARY_PATH="$DEBS/usr/lib/x86_64-linux-gnu:$DEBS/usr/lib/x86_64-linux-gnu/blas${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        mkdir -p "$OUT/clblast"
        tp=0 ts=0 tf=0 bad=0
        args="-platform ${PLATFORM_INDEX:-0} -device 0"
        [ "$CLBLAST_FULL" = 1 ] && args="$args -full_test"
        for b in $bins; do
            name=$(basename "$b")
            timeout "$TIMEOUT" "$b" $args 2>&1 | strip_ansi >"$OUT/clblast/$name.log"
            rc=${PIPESTATUS[0]}
            p=$(awk '/test\(s\) passed/ { s += $1 } END { print s + 0 }' "$OUT/clblast/$name.log")
            s=$(awk '/test\(s\) skipped/ { s += $1 } END { print s + 0 }' "$OUT/clblast/$name.log")
            f=$(awk '/test\(s\) failed/ { s += $1 } END { print s + 0 }' "$OUT/clblast/$name.log")
            tp=$((tp + p)) ts=$((ts + s)) tf=$((tf + f))
            status=ok
            if [ "$rc" -eq 124 ]; then status=timeout; elif [ "$rc" -gt 128 ]; then status="crash (signal $((rc - 128)))"; elif [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then status="exit $rc"; fi
            [ "$status" != ok ] && bad=$((bad + 1))
            printf '%s: %s passed, %s skipped, %s failed, %s\n' "$name" "$p" "$s" "$f" "$status" >>"$OUT/clblast/summary.txt"
        done
        row "CLBlast tests ($(echo "$bins" | wc -w) programs)" \
            "$tp passed, $tf failed, $ts skipped; $bad program(s) failed, crashed or timed out (clblast/summary.txt)"
        { [ "$tf" -ne 0 ] || [ "$bad" -ne 0 ]; } && FAILED=1
    fi
elif want clblast; then
    row clblast "not run (no --debs)"
fi

echo
echo "summary: $SUMMARY"
exit $FAILED
