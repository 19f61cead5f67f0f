#!/bin/sh
# Runs our LCP/MLCP solvers and Siconos' on the same files in one run and
# prints the tables, then the Lemke scaling table.
#   benchmarks/lcp/run_bench.sh [BUILD_DIR] [DATA_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
data=${2:-$here/../../../shared/data}
bin=$build/bin/bench_lcp_siconos
[ -x "$bin" ] || { echo "no $bin (configure with libsiconos-numerics-dev installed)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" write-random "$tmp" >/dev/null
echo "== LCP (../shared/data/lcp and random P-matrix files)"
# Siconos prints its own progress on stdout: keep only our table rows ("| ")
"$bin" lcp "$data"/lcp/*.dat "$tmp"/random_pmatrix_*.dat | grep '^| ' 
echo
echo "== MLCP (../shared/data/mlcp)"
"$bin" mlcp "$data"/mlcp/*.dat | grep '^| ' 
echo
echo "== Lemke scaling, dense random P-matrix"
"$bin" scaling
