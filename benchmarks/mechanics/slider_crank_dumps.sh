#!/usr/bin/env bash
# Mixed laws in one step: runs the slider-crank
# example over its whole run (T = 0.2 s, 2000 steps, direct projection),
# dumps every one-step problem (GMP files) and solves each with nsolve at
# tol 1e-8. Prints the number of files, how many nsolve reports converged,
# how many mix equality and fc2d blocks, the worst error nsolve recomputed,
# and the largest joint drift of the run (trajectory.csv, last column).
#   benchmarks/mechanics/slider_crank_dumps.sh [BUILD_DIR] [T]
set -euo pipefail
build=${1:-build}
T=${2:-0.2}
for b in slider_crank nsolve; do
  [ -x "$build/bin/$b" ] || { echo "slider_crank_dumps: $build/bin/$b not built" >&2; exit 2; }
done
dir=$(mktemp -d /tmp/slider_dumps.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/dump" "$dir/out"
nice "$build/bin/slider_crank" --quiet --T "$T" --dump "$dir/dump" --dump-max 0 --out "$dir/out"
files=0; conv=0; mixed=0; worst=0
for f in "$dir"/dump/*.dat; do
  j=$(nice "$build/bin/nsolve" --json --tol 1e-8 "$f" || true)
  files=$((files + 1))
  case $j in *'"status": "converged"'*) conv=$((conv + 1)) ;; *) echo "not converged: $f: $j" ;; esac
  e=$(echo "$j" | sed -n 's/.*"error": \([^,]*\),.*/\1/p')
  fc=$(echo "$j" | sed -n 's/.*"fc2d": \([0-9]*\).*/\1/p')
  eq=$(echo "$j" | sed -n 's/.*"equality": \([0-9]*\).*/\1/p')
  [ "${fc:-0}" -gt 0 ] && [ "${eq:-0}" -gt 0 ] && mixed=$((mixed + 1))
  worst=$(awk -v a="$worst" -v b="${e:-inf}" 'BEGIN { print (b + 0 > a + 0 ? b : a) }')
done
drift=$(awk -F, 'NR > 1 { v = $NF + 0; if (v > m) m = v } END { printf "%.3g", m }' "$dir/out/trajectory.csv")
echo "slider_crank T=$T: $files GMP files, $conv converged in nsolve at tol 1e-8, $mixed mixing equality and fc2d blocks, worst error $worst"
echo "slider_crank T=$T: max joint drift with projection $drift"
[ "$conv" -eq "$files" ]
