#!/bin/sh
# auto (the default LCP/MLCP/relay solver) against lemke, side by side in
# one process, on the shared LCP, MLCP and relay files and on data/lcp
# (auto should stay within 1.2 × lemke where lemke solves the file).
#   benchmarks/lcp/auto_vs_lemke.sh [BUILD_DIR] [DATA_DIR]
# Prints a markdown table; times are the minimum over 41 interleaved rounds,
# each round repeating a solve until >= 2 ms have passed (short rounds: on a
# loaded machine the best of many short ones ran unpreempted; 9 rounds of
# 20 ms gave ratios from 0.7 to 1.8 on identical instruction counts). Run it
# under nice on the shared machine and compare ratios of one run; the
# callgrind instruction counts below are the noise-free comparison.
set -eu
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
data=${2:-$here/../../../shared/data}
bin=$build/bin/bench_lcp_auto
[ -x "$bin" ] || { echo "no $bin (build the project first)" >&2; exit 1; }
files="$data/lcp/*.dat $data/mlcp/*.dat $data/relay/*.dat $here/../../data/lcp/*.dat"
echo "== time per solve (s), minimum of 41 interleaved rounds of >= 2 ms"
"$bin" --min-ms 2 --rounds 41 $files
command -v valgrind >/dev/null || exit 0
# Instructions per solve inside ns_solve (callgrind), immune to the noise of
# a shared machine: 50 solves each (after one uncounted by the warm caches).
echo
echo "== instructions per solve (callgrind, inside ns_solve, 50 solves)"
echo "| file | lemke Ir | auto Ir | auto/lemke |"
echo "|---|---|---|---|"
ir() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=ns_solve \
        "$bin" --solver "$1" --reps 50 "$2" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
for f in $files; do
    case $f in *Rectangular*|*pd-sparse*|*deltasigma*) continue ;; esac
    a=$(ir lemke "$f"); b=$(ir auto "$f")
    [ -n "$a" ] && [ -n "$b" ] || continue
    awk -v f="$(basename "$f")" -v a="$a" -v b="$b" \
        'BEGIN { printf "| %s | %d | %d | %.3f |\n", f, a / 50, b / 50, b / a }'
done
