#!/usr/bin/env bash
# benchmarks/tutorials/compare.sh — our tutorial models (build/bin/tutorials)
# side by side with Siconos 4.4's kernel on the same models
# (siconos_tutorials.cpp, built here with g++ against Debian's
# libsiconos-kernel-dev), each side's stepping loop timed by itself, best of
# R runs, alternating the two sides; prints our time / Siconos' per case.
#   benchmarks/tutorials/compare.sh [--repeat R] [--big-steps N]
# --big-steps: steps of the 10^4-node bar on both sides (default 3: Siconos
# takes seconds per step there; the 100-node bar runs the ref's 748 steps).
# Needs: build/ built (tools/setup.sh), g++, libsiconos-kernel-dev.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${NS_BUILD_DIR:-$root/build}
repeat=3
big=3
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=$2; shift 2 ;;
    --big-steps) big=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
ours=$build/bin/tutorials
[ -x "$ours" ] || { echo "compare.sh: $ours missing (build first)" >&2; exit 1; }
out=$build/benchmarks/tutorials
mkdir -p "$out"
if [ ! -x "$out/siconos_tutorials" ] || [ "$here/siconos_tutorials.cpp" -nt "$out/siconos_tutorials" ]; then
  echo "building the Siconos driver (g++, ~30 s) ..." >&2
  gcc -O2 -shared -fPIC -o "$out/tut_plugin.so" "$here/tut_plugin.c" -lm
  g++ -O2 -std=c++17 -I/usr/include/siconos -I/usr/include/siconos/kernel \
      -I/usr/include/siconos/numerics -I/usr/include/suitesparse \
      "$here/siconos_tutorials.cpp" -o "$out/siconos_tutorials" -lsiconos_kernel -lsiconos_numerics
fi
export OPENBLAS_NUM_THREADS=1

# best of $repeat: our time (the run printed by tutorials), Siconos' (its loop)
ours_time() {  # NAME args...
  nice "$ours" "$@" | sed -n 's/.* in \([0-9.e+-]*\) s;.*/\1/p'
}
sic_time() {
  nice "$out/siconos_tutorials" "$@" 2>/dev/null | awk 'END { print $2 }'
}
printf "%-28s %8s %12s %12s %8s\n" case steps "ours [s]" "Siconos [s]" ratio
run_case() {  # label steps ours-args -- siconos-args
  local label=$1 steps=$2; shift 2
  local oa=() sa=()
  while [ "$1" != "--" ]; do oa+=("$1"); shift; done; shift
  sa=("$@")
  if ! "$ours" --list | grep -qx "${oa[0]}"; then
    printf "%-28s %8s %12s %12s %8s\n" "$label" "$steps" "n/a" "" "(model not in this build)"; return
  fi
  local os="" ss=""
  for _ in $(seq "$repeat"); do
    os="$os $(ours_time "${oa[@]}" --steps "$steps" 2>/dev/null || true)"
    ss="$ss $(sic_time "${sa[@]}" --steps "$steps" || true)"
  done
  local bo bs
  bo=$(echo $os | tr ' ' '\n' | grep . | sort -g | head -1 || true); bo=${bo:-inf}
  bs=$(echo $ss | tr ' ' '\n' | grep . | sort -g | head -1 || true); bs=${bs:-inf}
  printf "%-28s %8s %12s %12s %8s\n" "$label" "$steps" "$bo" "$bs" \
    "$(awk -v a="$bo" -v b="$bs" 'BEGIN { if (a == "inf" || b == "inf" || b == 0) print "-"; else printf "%.3f", a / b }')"
}
run_case BouncingBallTS 2000 BouncingBallTS -- BouncingBallTS
run_case ColumnOfBeadsTS 4000 ColumnOfBeadsTS -- ColumnOfBeadsTS
run_case DoublePendulumResult 10000 DoublePendulumResult -- DoublePendulumResult
run_case Woodpecker 14999 Woodpecker -- Woodpecker
run_case "ImpactingBar (100 nodes)" 748 ImpactingBar --nodes 100 -- ImpactingBar --nodes 100
run_case "ImpactingBar (10^4 nodes)" "$big" ImpactingBar --nodes 10000 -- ImpactingBar --nodes 10000
