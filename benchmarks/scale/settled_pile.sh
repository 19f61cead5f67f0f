#!/bin/sh
# Settled pile, plain sweeps against the accelerated default: the
# 1000-sphere pile's warm-started one-step problems of steps FROM..STEPS,
# each solved again from the simulation's own warm start by plain NSGS
# (nsgs-ac, the default before) and by the time-stepping default (nsgs-ac
# with Anderson memory 3), problem by problem, error recomputed from W's
# blocks by fc_variants. Prints one line per problem (sweeps and seconds of
# both, their ratio, and whether the accelerated solve stalled: more than
# STALL sweeps) and the totals: the ratio of mean solve times is the
# figure of acceptance (b) (the rest of a step is ~3 % of it, docs/scale.md).
#   benchmarks/scale/settled_pile.sh [BUILD_DIR] [STEPS] [FROM] [N] [TOL]
# Defaults: build, 680, 650, 1000 spheres, tol 1e-4 (STALL = 500 sweeps:
# set STALL=...). The dumps go to $OUT (default /tmp/ns_settled_pile),
# made once (a ~1 min simulation; remove the directory to redo them).
# SBX_ARGS: more spheres_box options for the simulation (for a window past
# the step a settling pile fails at: SBX_ARGS="--accept-nonconverged
# --max-iter 20000"). Progress on stderr. Runs niced with
# OPENBLAS_NUM_THREADS=1.
set -eu
build=${1:-build}
steps=${2:-680}
from=${3:-650}
n=${4:-1000}
tol=${5:-1e-4}
stall=${STALL:-500}
out=${OUT:-/tmp/ns_settled_pile}/n${n}_${from}_${steps}
sb="$build/bin/spheres_box"
fv="$build/bin/fc_variants"
[ -x "$sb" ] && [ -x "$fv" ] || { echo "settled_pile.sh: build first ($sb, $fv)" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1
if [ ! -s "$out/replay_0.dat" ]; then
  mkdir -p "$out"
  echo "settled_pile: simulating the pile, n = $n, $steps steps (dumps of steps >= $from in $out) ..." >&2
  SBX_REPLAY_DUMP="$out" nice "$sb" --scene pile --n "$n" --steps "$steps" --profile "$from" --quiet \
    --tol "$tol" --replay "nsgs-ac/anderson=3" ${SBX_ARGS:-} > "$out/replay.log"
fi
printf '%-8s %8s %9s %8s %9s %7s %7s  %s\n' problem contacts plain_sw plain_s anders_sw anders_s ratio stalled
k=0
tp=0; ta=0; sp=0; sa=0; ns=0
while [ -s "$out/replay_$k.dat" ]; do
  echo "settled_pile: problem $k ..." >&2
  res=$(FCV_GUESS="$out/replay_$k.guess" nice "$fv" "$out/replay_$k.dat" "$tol" \
          "nsgs-ac/anderson=0" "nsgs-ac/anderson=3")
  line=$(echo "$res" | awk -v k="$k" -v stall="$stall" '
    NR == 1 { nc = $(NF - 1); sub(/\(/, "", nc) }
    NR == 2 { ps = $3; pt = $4; pe = $5; pst = $2 }
    NR == 3 { as = $3; at = $4; ae = $5; ast = $2 }
    END {
      if (pst != "converged" || ast != "converged") bad = " (" pst "/" ast ")"; else bad = ""
      printf "%-8d %8s %9d %8.4f %9d %7.4f %7.2f  %s%s\n", k, nc, ps, pt, as, at, pt / at, (as > stall ? "yes" : "no"), bad
    }')
  echo "$line"
  set -- $line
  tp=$(echo "$tp + $4" | bc -l); ta=$(echo "$ta + $6" | bc -l)
  sp=$((sp + $3)); sa=$((sa + $5))
  [ "$8" = yes ] && ns=$((ns + 1))
  k=$((k + 1))
done
[ "$k" -gt 0 ] || { echo "settled_pile.sh: no problems in $out" >&2; exit 1; }
echo "$k problems: plain $((sp / k)) sweeps, $(echo "scale=4; 1000 * $tp / $k" | bc -l) ms per solve;" \
     "Anderson 3 $((sa / k)) sweeps, $(echo "scale=4; 1000 * $ta / $k" | bc -l) ms per solve;" \
     "ratio of mean times $(echo "scale=3; $tp / $ta" | bc -l); $ns stalled (> $stall sweeps)"
