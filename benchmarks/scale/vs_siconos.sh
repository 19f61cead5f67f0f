#!/bin/sh
# Side by side with Siconos 4.4: the pile scene at n spheres,
# both sides stepped from the same state for the same steps at the same
# solver tolerance.
#   benchmarks/scale/vs_siconos.sh [BUILD_DIR] [K] [STEPS] [TOL] [NS...]
# Defaults: build, K = 200, STEPS = 10, TOL = 1e-4, n = 1000 10000.
# 1. spheres_box --scene pile --n n --steps K --out D: the pile after K
#    steps (contacts formed, still settling) in D/final.csv;
# 2. ours: spheres_box --init D/final.csv --steps STEPS+1 --profile 1
#    --tol TOL (the example's default solver: auto, Anderson-accelerated
#    nsgs-ac sweeps first; the first step, cold, is not counted), CPU and wall ms per step of the whole step: our contact
#    detection, free state, assembly, solve, update;
# 3. Siconos: benchmarks/scale/siconos_pile.py D/final.csv AX AY STEPS TOL
#    (its kernel: LagrangianLinearTIDS, LagrangianLinearTIR contacts given
#    by a Python detection, MoreauJeanOSI, FrictionContact(3) NSGS; the
#    first step not counted), CPU and wall ms per step of computeOneStep +
#    nextStep only: its contact detection and the building of each
#    contact's H in numpy are not counted.
# Both print their mean contacts, active contacts and sweeps per step.
# Runs niced with OPENBLAS_NUM_THREADS=1; CPU time is the figure to read on
# a shared machine (wall time counts the other processes' turns).
set -eu
build=${1:-build}
K=${2:-200}
S=${3:-10}
tol=${4:-1e-4}
shift 4 2>/dev/null || shift $#
ns=${*:-"1000 10000"}
here=$(dirname "$0")
bin="$build/bin/spheres_box"
py=/usr/bin/python3
[ -x "$bin" ] || { echo "vs_siconos.sh: build first ($bin)" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
tmp=${TMPDIR:-/tmp}/ns_vs_siconos.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %6s %9s %9s %9s %9s %8s\n' side n cpu_ms wall_ms contacts active sweeps
for n in $ns; do
  echo "vs_siconos: n = $n: $K steps to the initial state ..." >&2
  d="$tmp/n$n"
  nice "$bin" --scene pile --n "$n" --steps "$K" --out "$d" --save-every 1000000 --quiet >&2
  echo "vs_siconos: n = $n: ours, $S steps ..." >&2
  ours=$(nice "$bin" --scene pile --n "$n" --init "$d/final.csv" --steps $((S + 1)) --profile 1 --tol "$tol" \
         --quiet | grep '^profile:')
  ax=$(echo "$ours" | tr ' ' '\n' | sed -n 's/^ax=//p')
  ay=$(echo "$ours" | tr ' ' '\n' | sed -n 's/^ay=//p')
  echo "vs_siconos: n = $n: Siconos, $S steps ..." >&2
  sic=$(nice $py "$here/siconos_pile.py" "$d/final.csv" "$ax" "$ay" "$S" "$tol" | grep "^siconos:") || sic="siconos: failed (exit status $?)"
  echo "# $ours"; echo "# $sic"
  { echo "$ours"; echo "$sic"; } | tr ' ' '\n' | awk -F= -v n="$n" '
    /^profile:/ { side = "ours" } /^siconos:/ { side = "siconos" }
    NF == 2 { v[side, $1] = $2 }
    END {
      printf "%-8s %6d %9.3f %9.3f %9.0f %9s %8.1f\n", "ours", n, v["ours", "cpu_ms"], v["ours", "step_ms"],
        v["ours", "interactions"], sprintf("%.0f", v["ours", "contacts"]), v["ours", "sweeps"]
      printf "%-8s %6d %9.3f %9.3f %9.0f %9s %8.1f\n", "siconos", n, v["siconos", "cpu_ms"], v["siconos", "wall_ms"],
        v["siconos", "contacts"], sprintf("%.0f", v["siconos", "active"]), v["siconos", "sweeps"]
      printf "ratio    %6d ours/siconos cpu %.3f wall %.3f\n", n, v["ours", "cpu_ms"] / v["siconos", "cpu_ms"],
        v["ours", "step_ms"] / v["siconos", "wall_ms"] }'
done
