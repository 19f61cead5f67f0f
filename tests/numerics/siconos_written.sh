#!/bin/bash
# siconos_written.sh BIN_DIR — problem files written by Siconos' own
# writers (sic_write: lcp, mlcp, relay, fc2d, fc3d, rfc2d, rfc3d, gfc3d,
# grfc3d, each with its matrices dense, as a triplet, CSC and sparse-block,
# and one-contact or one-unknown problems of five of them) are read
# by nsolve with the kind detected as the one Siconos wrote, solved by the
# kind's default solver to 1e-8, and the solution checked by Siconos itself:
# its *_compute_error on the problem as its own reader reads it must be at
# most 1e-8 (grfc3d: Debian's Siconos declares no error function, so only
# our recomputed error is checked). Run when Debian's libsiconos-numerics-dev
# is installed (benchmarks/CMakeLists.txt builds sic_write then).
set -u
BIN=$1
# sic_write runs Siconos' own code, whose error functions leak a little
# (fc3d_compute_error: 120 bytes a call): leak detection is off for it
# alone; nsolve keeps the sanitizers' settings
sic() { ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" "$BIN/sic_write" "$@"; }
dir=$(mktemp -d /tmp/ns_siconos_written_XXXXXX)
trap 'rm -rf "$dir"' EXIT
sic "$dir" || { echo "FAIL: sic_write could not write the files"; exit 1; }
n=0 bad=0
for f in "$dir"/*.dat; do
    name=$(basename "$f" .dat)
    want=${name%%_*}
    out=$("$BIN/nsolve" --tol 1e-8 -o "$dir/$name.sol" "$f" 2>&1)
    rc=$?
    kind=$(awk '$1 == "kind" { print $2 }' <<< "$out")
    if [ $rc -ne 0 ] || [ "$kind" != "$want" ]; then
        echo "FAIL $name: nsolve exit $rc, kind '$kind' (want $want)"
        echo "$out" | tail -3
        bad=$((bad + 1)); continue
    fi
    err=$(sic --error "$f" "$dir/$name.sol" 2>&1)
    src=$?
    if [ $src -eq 3 ]; then
        echo "ok   $name (kind $kind; Siconos has no error function for it)"
    elif [ $src -ne 0 ] || ! awk -v e="$err" 'BEGIN { exit !(e + 0 <= 1e-8) }'; then
        echo "FAIL $name: Siconos' error of our solution: $err"
        bad=$((bad + 1)); continue
    else
        echo "ok   $name (kind $kind; Siconos' error $err)"
    fi
    n=$((n + 1))
done
total=$(ls "$dir"/*.dat | wc -l)
echo "$n of $total Siconos-written files read, solved and accepted by Siconos"
# 9 kinds x 4 storages, and the one-contact (one-unknown) files of 5 kinds
[ "$bad" -eq 0 ] && [ "$n" -eq "$total" ] && [ "$total" -eq 56 ]
