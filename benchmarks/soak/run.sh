#!/bin/sh
# run.sh [BUILD_DIR] — the soak test: 10^6 time steps of a 3-ball column and
# 10^5 FC3D solves in one process each, with the resident memory at the start
# (after 1 % warm-up) and at the end; fails if either grows by more than
# 1 MiB. Too long for the test suite (a few minutes); run it by hand:
#     benchmarks/soak/run.sh build
# SOAK_STEPS and SOAK_SOLVES override the counts.
set -e
build=${1:-build}
bin=$build/bin/soak
[ -x "$bin" ] || { echo "run.sh: $bin not built (cmake --build $build --target soak)" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1
/usr/bin/time -f "sim: %e s, peak RSS %M kB" "$bin" sim "${SOAK_STEPS:-1000000}"
/usr/bin/time -f "solve: %e s, peak RSS %M kB" "$bin" solve "${SOAK_SOLVES:-100000}"
