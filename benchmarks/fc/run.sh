#!/bin/sh
# FC3D robustness table, unattended: every FC3D solver of ours and Siconos
# 4.4's NSGS (AC local) and NSN_AC on every FC3D .dat and local FCLIB .hdf5
# file, tol 1e-8, 100000 sweeps (NSGS-type, fixed point) / 1000 iterations
# (Newton-type), 60 s per run, one run at a time (forked; see
# fc_siconos_bench.c). Progress on stderr; writes OUT/table.tsv and
# OUT/summary.md (markdown table, solved count per solver).
# usage: benchmarks/fc/run.sh BUILD_DIR [DATA_DIR] [OUT_DIR] [SOLVERS]
#   SOLVERS: comma-separated subset (default all), e.g. to re-run only the
#   Newton-based ones after a change: table_summary.py old.tsv new.tsv
#   lays the new rows over the old.
set -e
B=${1:-build}; D=${2:-/work/shared/data}
OUT=${3:-out/fc_table/$(date -u +%Y%m%dT%H%M%SZ)}; S=${4:-}
mkdir -p "$OUT"
here=$(dirname "$0")
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
# shellcheck disable=SC2046
"$B/benchmarks/fc_siconos_bench" ${S:+--solvers "$S"} --cap 60 \
    "$D"/fc3d/*.dat "$D"/fclib/local/*.hdf5 > "$OUT/table.tsv"
python3 "$here/table_summary.py" "$OUT/table.tsv" > "$OUT/summary.md"
echo "wrote $OUT/table.tsv $OUT/summary.md" >&2
