#!/bin/sh
# Runs our LCP/MLCP solvers and Siconos' on the same files in one run and
# prints the tables (per file and solver pair: n, both times, ratio
# ours/Siconos, both errors), then the Lemke scaling table.
#   benchmarks/lcp/run_bench.sh [BUILD_DIR] [DATA_DIR]
# LCP files: the random P-matrix and PD families (n = 50 … 400) written by
# the benchmark, the project's data/lcp/*.dat (tools/gen_data) and
# DATA_DIR/lcp/*.dat (Siconos' collection); MLCP: DATA_DIR/mlcp/*.dat.
# The machine is shared: run it several times and compare ratios of one run.
set -eu
# Both libraries run BLAS single-threaded (small dense problems; see
# tools/common/blas_threads.h); override by exporting OPENBLAS_NUM_THREADS.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
data=${2:-$here/../../../shared/data}
bin=$build/bin/bench_lcp_siconos
[ -x "$bin" ] || { echo "no $bin (configure with libsiconos-numerics-dev installed)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" write-random "$tmp" >/dev/null
echo "== LCP (random families, data/lcp, $data/lcp)"
# Siconos prints its own progress on stdout: keep only our table rows ("| ")
"$bin" lcp "$tmp"/random_*.dat "$here"/../../data/lcp/*.dat "$data"/lcp/*.dat | grep '^| '
echo
echo "== MLCP ($data/mlcp)"
"$bin" mlcp "$data"/mlcp/*.dat | grep '^| '
echo
echo "== Lemke scaling, dense random P-matrix"
"$bin" scaling
