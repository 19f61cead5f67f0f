#!/bin/sh
# small.sh — latency of ns_solve on small problems: times
# (first call in a fresh process; warm calls) and callgrind instruction
# counts per warm solve, for lemke and the kind's default solver.
#
#   benchmarks/lcp/small.sh [BUILD_DIR]      (default: build)
#
# BLAS single-threaded as in the tools (OPENBLAS_NUM_THREADS=1). The first
# call is the median of 11 fresh processes; warm figures are from 200000
# calls (200 batches: mean and best batch, and the process CPU time per
# solve — on a loaded machine the best batch and the CPU time are the ones
# that mean something). Instruction counts: 1000 warm
# calls under valgrind --tool=callgrind, only the warm loop instrumented.
set -eu
build=${1:-build}
bin=$build/bin/bench_small
[ -x "$bin" ] || { echo "small.sh: $bin not built" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1
for solver in lemke default; do
    for c in lcp4 lcp10 mlcp3; do
        first=$(for i in 1 2 3 4 5 6 7 8 9 10 11; do nice "$bin" --case $c --solver $solver --reps 10 | awk '{print $4}'; done | sort -n | sed -n 6p)
        warm=$(nice "$bin" --case $c --solver $solver --reps 200000 | awk '{print $8, $11, $14}')
        instr=""
        if command -v valgrind >/dev/null 2>&1; then
            out=$(mktemp)
            nice valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" \
                "$bin" --case $c --solver $solver --reps 1000 --callgrind 2>&1 |
                awk '/refs/ {gsub(",", "", $NF); printf "%d", $NF / 1000}' > "$out.n"
            instr=$(cat "$out.n")
            rm -f "$out" "$out.n"
        fi
        set -- $warm
        printf '%-6s %-8s first %7s us   warm mean %7s us  best %7s us  cpu %7s us   %s instructions/solve\n' \
            $c $solver "$first" "$1" "$2" "$3" "${instr:-?}"
    done
done
