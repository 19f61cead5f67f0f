#!/bin/sh
# Writes one-step FC3D problems of the scale scene (spheres_box --scene pile)
# at about 10^3, 10^4 and 5*10^4 contacts (n = 1000, 10000, 50000 spheres:
# the problem of step STEP, ~0.94 contacts per sphere at step 300, when the
# pile is forming its contact network; settled, ~2.1 per sphere), as
# Siconos .dat files in OUT_DIR, then runs nsbench on them with nsgs-ac,
# nsn-ac and auto. Files are large (5*10^4 contacts: ~30 MB): generated, not
# committed.
#   tools/gen_scale_problems.sh [BUILD_DIR] [OUT_DIR] [STEP] [NS...]
# Defaults: build, /tmp/ns_scale_problems, step 300, n = 1000 10000 50000.
# NO_NSBENCH=1: only the files; NSBENCH_ARGS: more nsbench options.
set -eu
build=${1:-build}
out=${2:-/tmp/ns_scale_problems}
step=${3:-300}
shift 3 2>/dev/null || shift $#
ns=${*:-"1000 10000 50000"}
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1
for n in $ns; do
  echo "gen_scale_problems: n = $n, step $step ..." >&2
  d="$out/pile_n$n"
  rm -rf "$d" && mkdir -p "$d"
  # every 25th solve dumped (solves start once contacts exist); the last kept
  nice "$build/bin/spheres_box" --scene pile --n "$n" --steps "$step" --quiet \
    --dump "$d" --dump-every 25 --dump-max 0 >&2
  f=$(ls "$d"/*.dat | tail -1)
  mv "$f" "$out/pile_n${n}_step$step.dat"
  rm -rf "$d"
done
ls -l "$out"/*.dat >&2
if [ "${NO_NSBENCH:-0}" != 1 ]; then
  nice "$build/bin/nsbench" "$out" --solvers nsgs-ac,nsn-ac,auto --tol 1e-4 --time-limit 120 ${NSBENCH_ARGS:-} || true
fi
