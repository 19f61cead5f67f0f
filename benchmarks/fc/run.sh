#!/bin/sh
# Robustness/speed table: ours vs Siconos 4.4 on every local FC3D file.
# usage: benchmarks/fc/run.sh BUILD_DIR [DATA_DIR]  (tol 1e-8, 60 s per run)
B=${1:-build-h5}; D=${2:-/work/shared/data}
"$B/benchmarks/fc_siconos_bench" "$D"/fc3d/*.dat "$D"/fclib/local/*.hdf5
