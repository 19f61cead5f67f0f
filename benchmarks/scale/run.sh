#!/bin/sh
# Scale benchmark: the spheres scene (examples/spheres_box) at n = 10^3,
# 4*10^3, 1.6*10^4, 6.4*10^4 spheres, pile (settling in the box) and chute
# (flowing down a 25 degree incline), 10 layers high at every n (the box
# widens), so that a step's cost per sphere compares across n.
# Prints one table row per (scene, n): the per-step breakdown (contact
# detection, free state, assembly, solver, update) averaged over the last
# PROFILE steps of STEPS (wall), CPU time per sphere and detection's share
# of the CPU time (the figures to read on a shared machine), NSGS sweeps per
# step, peak RSS, W's bytes per contact; progress goes to stderr.
#   benchmarks/scale/run.sh [BUILD_DIR] [STEPS] [PROFILE] [NS...]
# Defaults: build, 60 steps, the last 30 profiled (a short run: the spheres
# are still falling into place; the settled pile is measured with
# spheres_box --replay, docs/scale.md), n = 1000 4000 16000 64000. Runs niced with OPENBLAS_NUM_THREADS=1.
# The solver is the example's default (auto: Anderson-accelerated nsgs-ac
# sweeps, then the rest of the chain, at tol 1e-3; SPHERES_ARGS adds
# options, e.g. "--solver nsgs-ac --anderson 0" or "--threads 2").
set -eu
build=${1:-build}
steps=${2:-60}
prof=${3:-30}
shift 3 2>/dev/null || shift $#
ns=${*:-"1000 4000 16000 64000"}
bin="$build/bin/spheres_box"
[ -x "$bin" ] || { echo "run.sh: build first ($bin)" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1
from=$((steps - prof))
printf '%-6s %6s %7s %8s %9s %9s %8s %7s %7s %8s %8s %7s %7s %8s %8s %7s\n' \
  scene n contacts "ms/step" "us/sphere" "cpu_us/sp" detect% free assem solve update sweeps maxsw "RSS_MB" "kB/sph" "W_B/c"
for scene in pile chute; do
  for n in $ns; do
    echo "scale: $scene n = $n ($steps steps) ..." >&2
    line=$(nice "$bin" --scene "$scene" --n "$n" --steps "$steps" --profile "$from" --quiet ${SPHERES_ARGS:-} | grep '^profile:') || {
      echo "scale: $scene n = $n failed (memory?)" >&2; continue; }
    echo "$line" | tr ' ' '\n' | awk -F= -v scene="$scene" '
      NF == 2 { v[$1] = $2 }
      END {
        printf "%-6s %6d %7d %8.3f %9.3f %9.3f %8.1f %7.3f %7.3f %8.3f %8.3f %7.1f %7d %8.1f %8.2f %7.0f\n",
          scene, v["n"], v["contacts"], v["step_ms"], v["us_per_sphere"], v["cpu_us_per_sphere"],
          100 * v["detect_cpu_ms"] / v["cpu_ms"],
          v["free_ms"], v["assembly_ms"], v["solve_ms"], v["update_ms"], v["sweeps"], v["max_sweeps"],
          v["rss_mb"], 1024 * v["rss_mb"] / v["n"], v["w_bytes_per_contact"] }'
  done
done
