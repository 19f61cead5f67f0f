#!/bin/sh
# Generates the hard collections: one-step FC3D problems (Siconos .dat, read
# by nsolve and nsbench) dumped from our own spheres_box simulations, where
# NSGS-type solvers struggle: settled piles (hyperstatic contact networks),
# square pyramids and columns of equal spheres (hyperstatic stacks at
# rest), a granular chute flow and the default box scene's last falling and
# settling steps. Reproducible (fixed seeds, one thread); the files are big
# (a settled 16000-sphere pile: ~34000 contacts): generated, never committed.
#   tools/gen_hard_fc.sh [--quick] [--large] [--global] [--only NAME] [--collect SPEC] BUILD_DIR OUT_DIR
# OUT_DIR/NAME/NAME_stepK.dat per collection and OUT_DIR/index.csv
# (collection, file, scene, n, step, contacts). Collections (default mode):
#   pile_n1000, pile_n4000    --scene pile, 2000 steps: every 50th solve of
#                             the settled phase (steps >= 1500)
#   pile_n16000               the same, only with --large (hours: the 1000-sphere pile takes
#                             ~10 min of CPU, the cost grows about as n)
#   pyramid_L5, pyramid_L10   --scene pyramid (55, 385 spheres), 1000 steps:
#                             every 50th solve from step 500 (at rest)
#   column_n20, column_n100   --scene column, 1000 steps, the same
#   chute_n1000               --scene chute, 2000 steps, every 100th solve
#   box_n100                  the default box scene (100 spheres), every
#                             10th solve of steps 800-1000
#   stack10, wall_ball        rigid bodies (benchmarks/rigid/scenes.py, run by
#                             rigid_scene at tol 1e-8): ten stacked boxes, 1000
#                             steps, and a brick wall hit by a ball, 500 steps;
#                             every 50th solve (python3-siconos and python3-h5py
#                             write the scenes; skipped without them)
# The dumps select solves, not steps: a step whose problem has no active
# contact has no solve; once contacts persist (all the collections but the
# start of box and chute) every step has one, so "every k-th solve" is
# every k-th step. The simulations run at tol 1e-4, given here (spheres_box's
# default is 1e-3), with spheres_box's other defaults (the auto chain, overlap
# stabilisation 0.2, contacts held within 2.5e-4 Rmin). --quick: a small
# subset (tiny scenes, short runs) in a few seconds, for tests. --only NAME:
# that collection alone. --collect "NAME SCENE N STEPS EVERY FROM TO [opts]":
# one spheres_box collection of one's own choosing (benchmarks/fc/hard.sh;
# a spec's options may hold --global).
# --global: the global collections instead, GFC3D problems (M, H, q, b, μ:
# the simulations run with --global, W never formed; Siconos .dat GFC3D
# files, read by nsolve, nsbench --kind gfc3d and benchmarks/gfc/run.sh):
#   gfc_box_n100              the box scene, every 50th solve of steps 800-1000
#   gfc_pyramid_L5            --scene pyramid (55 spheres), 1000 steps, every
#                             100th solve from step 500
#   gfc_pyramid_L10           385 spheres, 1000 steps, every 250th solve from 500
#   gfc_column_n100           --scene column --n 100, every 250th solve from 500
#   gfc_stack10, gfc_wall_ball  the rigid-body scenes, every 100th solve
# with --quick: gfc_box_n20, gfc_pyramid_L3, gfc_column_n5 (seconds). The
# steps are solved by the global ADMM (--solver admm): the simulation's
# GFC3D default, nsn-ac alone, spends its iteration limit on many steps of
# a stack (the 14-sphere pyramid: 11 of 95 steps missed at 1e-4, 50 s for
# 100 steps, against 0.6 s for ADMM, 0 missed; the brick wall: over 8 min
# of CPU without finishing 60 steps at 1e-8, against 0.4 s).
set -eu
quick=0; large=0; global=0; only=""; spec=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --large) large=1; shift ;;
    --global) global=1; shift ;;
    --only) [ $# -ge 2 ] || { echo "gen_hard_fc: --only needs a name" >&2; exit 2; }; only=$2; shift 2 ;;
    --collect) [ $# -ge 2 ] || { echo "gen_hard_fc: --collect needs a spec" >&2; exit 2; }
               spec=$2; only=${2%% *}; shift 2 ;;
    -h|--help) sed -n '2,51p' "$0"; exit 0 ;;
    -*) echo "gen_hard_fc: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: gen_hard_fc.sh [--quick] [--large] [--global] [--only NAME] [--collect SPEC] BUILD_DIR OUT_DIR" >&2; exit 2; }
build=$1; out=$2
sbx="$build/bin/spheres_box"; nsolve="$build/bin/nsolve"
[ -x "$sbx" ] && [ -x "$nsolve" ] || { echo "gen_hard_fc: $sbx or $nsolve not built" >&2; exit 2; }
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
index="$out/index.csv"
[ -n "$only" ] && [ -f "$index" ] || echo "collection,file,scene,n,step,contacts" > "$index"
start=$(date +%s)
made=0

# keep NAME SCENE N FROM TO: moves the dumps of $d.tmp whose solve number is
# in [FROM, TO] to $d as NAME_stepK.dat and indexes them (sets $kept).
keep() {
  kept=0
  for f in "$d.tmp"/*.dat; do
    [ -e "$f" ] || continue
    k=$(basename "$f" .dat); k=${k##*_}; k=$(expr "$k" + 0 || true)
    if [ "$k" -ge "$4" ] && [ "$k" -le "$5" ]; then
      g="$d/${1}_step$k.dat"
      mv "$f" "$g"
      nc=$("$nsolve" --check --json "$g" | sed -n 's/.*"contacts": *\([0-9]*\).*/\1/p')
      [ -n "$nc" ] || { echo "gen_hard_fc: $g: nsolve --check failed" >&2; exit 1; }
      echo "$1,$1/${1}_step$k.dat,$2,$3,$k,$nc" >> "$index"
      kept=$((kept + 1))
    fi
  done
  rm -rf "$d.tmp"
  made=$((made + kept))
}

# collect NAME SCENE N STEPS EVERY FROM TO [spheres_box options...]:
# dumps every EVERY-th solve, keeps the steps in [FROM, TO].
collect() {
  name=$1; scene=$2; n=$3; steps=$4; every=$5; from=$6; to=$7; shift 7
  [ -z "$only" ] || [ "$only" = "$name" ] || return 0
  d="$out/$name"
  rm -rf "$d" "$d.tmp" && mkdir -p "$d.tmp" "$d"
  grep -v "^$name," "$index" > "$index.tmp" || true   # a collection made again replaces its rows
  mv "$index.tmp" "$index"
  echo "gen_hard_fc: $name: spheres_box --scene $scene --n $n, $steps steps, every ${every}th solve of steps $from-$to ..." >&2
  t0=$(date +%s)
  if ! "$sbx" --scene "$scene" --n "$n" --steps "$steps" --tol 1e-4 --quiet --accept-nonconverged \
       --dump "$d.tmp" --dump-every "$every" --dump-max 0 "$@" >&2; then
    echo "gen_hard_fc: $name: spheres_box failed" >&2; exit 1
  fi
  keep "$name" "$scene" "$n" "$from" "$to"
  echo "gen_hard_fc: $name: $kept problems in $(( $(date +%s) - t0 )) s" >&2
}

# collect_rigid NAME SCENE STEPS EVERY FROM TO [rigid_scene options...]: the
# same from a rigid-body scene of benchmarks/rigid/scenes.py (Siconos'
# mechanics HDF5, written by python3-siconos; skipped without it), run by
# rigid_scene (Bullet contacts, Newton–Euler bodies).
collect_rigid() {
  name=$1; scene=$2; steps=$3; every=$4; from=$5; to=$6; shift 6
  [ -z "$only" ] || [ "$only" = "$name" ] || return 0
  if [ ! -f "$out/scenes/$scene.hdf5" ]; then
    if ! python3 -c 'import siconos.io.mechanics_hdf5' 2>/dev/null; then
      echo "gen_hard_fc: $name: skipped (the scene needs python3-siconos and python3-h5py to be written: siconos.io.mechanics_hdf5 does not import)" >&2; return 0
    fi
    python3 "$(dirname "$0")/../benchmarks/rigid/scenes.py" "$out/scenes" >/dev/null
  fi
  [ -x "$build/bin/rigid_scene" ] || { echo "gen_hard_fc: $name: skipped (rigid_scene not built)" >&2; return 0; }
  d="$out/$name"
  rm -rf "$d" "$d.tmp" && mkdir -p "$d.tmp" "$d"
  grep -v "^$name," "$index" > "$index.tmp" || true
  mv "$index.tmp" "$index"
  echo "gen_hard_fc: $name: rigid_scene $scene, $steps steps, every ${every}th solve of steps $from-$to ..." >&2
  t0=$(date +%s)
  if ! "$build/bin/rigid_scene" --scene "$out/scenes/$scene.hdf5" --steps "$steps" --quiet \
       --dump "$d.tmp" --dump-every "$every" --dump-max 0 "$@" >&2; then
    echo "gen_hard_fc: $name: rigid_scene failed" >&2; exit 1
  fi
  keep "$name" "$scene" 0 "$from" "$to"
  echo "gen_hard_fc: $name: $kept problems in $(( $(date +%s) - t0 )) s" >&2
}

if [ -n "$spec" ]; then
  # shellcheck disable=SC2086  # the spec is a word list
  set -- $spec
  [ $# -ge 7 ] && [ "$3" -gt 0 ] 2>/dev/null && [ "$4" -gt 0 ] 2>/dev/null && [ "$5" -gt 0 ] 2>/dev/null || {
    echo "gen_hard_fc: --collect '$spec': expected NAME SCENE N STEPS EVERY FROM TO [spheres_box options], N, STEPS, EVERY > 0" >&2; exit 2; }
  collect "$@"
elif [ "$global" = 1 ] && [ "$quick" = 1 ]; then
  collect gfc_box_n20     box     20 300 10 250 300 --half 0.15 --global --solver admm
  collect gfc_pyramid_L3  pyramid 14 100 25  50 100 --global --solver admm
  collect gfc_column_n5   column   5 100 25  50 100 --global --solver admm
elif [ "$global" = 1 ]; then
  collect gfc_box_n100     box     100 1000  50 800 1000 --global --solver admm
  collect gfc_pyramid_L5   pyramid  55 1000 100 500 1000 --global --solver admm
  collect gfc_pyramid_L10  pyramid 385 1000 250 500 1000 --global --solver admm
  collect gfc_column_n100  column  100 1000 250 500 1000 --global --solver admm
  collect_rigid gfc_stack10   stack10   1000 100 0 1000 --tol 1e-8 --global --solver admm
  collect_rigid gfc_wall_ball wall_ball  500 100 0  500 --tol 1e-8 --global --solver admm
elif [ "$quick" = 1 ]; then
  collect pile_n60    pile    60 150 25 100 150 --layers 3
  collect pyramid_L3  pyramid 14 100 25  50 100
  collect column_n5   column   5 100 25  50 100
  collect chute_n60   chute   60 100 25   0 100 --layers 3
  collect box_n20     box     20 300 10 250 300 --half 0.15
else
  collect pile_n1000  pile   1000 2000  50 1500 2000
  collect pile_n4000  pile   4000 2000  50 1500 2000
  [ "$large" = 1 ] || [ "$only" = pile_n16000 ] && collect pile_n16000 pile 16000 2000 50 1500 2000
  collect pyramid_L5  pyramid  55 1000  50  500 1000
  collect pyramid_L10 pyramid 385 1000  50  500 1000
  collect column_n20  column   20 1000  50  500 1000
  collect column_n100 column  100 1000  50  500 1000
  collect chute_n1000 chute  1000 2000 100    0 2000
  collect box_n100    box     100 1000  10  800 1000
  collect_rigid stack10   stack10   1000 50 0 1000 --tol 1e-8
  collect_rigid wall_ball wall_ball  500 50 0  500 --tol 1e-8
fi
echo "gen_hard_fc: $made problems in $out ($(( $(date +%s) - start )) s); index: $index" >&2
