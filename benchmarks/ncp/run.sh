#!/bin/sh
# NCP/MCP against Siconos 4.4 (bench_ncp_siconos.c says what is measured).
# BLAS single-threaded as in the tools; override by exporting
# OPENBLAS_NUM_THREADS. Usage: benchmarks/ncp/run.sh [build dir] [options]
build=${1:-build}
[ $# -gt 0 ] && shift
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
exec nice "$build/bin/bench_ncp_siconos" "$@"
