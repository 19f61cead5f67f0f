#!/bin/sh
# Rolling friction contact side by side with Debian's Siconos 4.4: the
# shared files (../shared/rolling-data) and the generated family (rfc_gen:
# 24 sphere scenes, 13 to 9973 contacts), tol 1e-8, CAP seconds per run
# (default 10), one run at a time (forked; rfc_siconos_bench.c). Writes
# OUT/table.tsv; the summary (solved counts, geometric-mean time ratio
# ours/Siconos over the files both solved) goes to OUT/summary.txt.
# usage: benchmarks/rfc/run.sh [BUILD_DIR] [OUT_DIR] [CAP]
set -e
B=${1:-build}
OUT=${2:-out/rfc/$(date -u +%Y%m%dT%H%M%SZ)}
CAP=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
R=${NS_ROLLING_DATA:-$here/../../../shared/rolling-data}
mkdir -p "$OUT/family"
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
"$B/benchmarks/rfc_gen" "$OUT/family" 2> "$OUT/gen.log"
# shellcheck disable=SC2046
"$B/benchmarks/rfc_siconos_bench" --cap "$CAP" "$R"/rfc3d/*.dat "$R"/grfc3d/*.dat \
    $(ls "$OUT"/family/*.dat | sort -t_ -k3 -V) > "$OUT/table.tsv" 2> "$OUT/progress.log"
grep '^summary' "$OUT/progress.log" > "$OUT/summary.txt"
cat "$OUT/summary.txt" >&2
echo "wrote $OUT/table.tsv $OUT/summary.txt" >&2
