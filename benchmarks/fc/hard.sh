#!/usr/bin/env bash
# The hard collections' table (docs/hard-collections.md, "Results"): a
# scaled-down selection of tools/gen_hard_fc.sh's collections, solved at
# tol 1e-4 and 1e-8 by ours (auto, nsgs-ac, nsn-ac, admm, ipm) and by
# Siconos 4.4 (NSGS, NSN-AC, ADMM), side by side, through
# benchmarks/fc/fc_siconos_bench: one process, one thread, each run in a
# forked child capped at 60 s; every answer, ours and Siconos', scored by
# the driver with our ns_fc_error on the returned r (u = W r + q
# recomputed from the file, Siconos 4.4's normalisation), a run counted
# solved only when that recomputed error is <= tol.
#
#   benchmarks/fc/hard.sh [--no-gen | --gen-only] [--table-only] [--tols "1e-4 1e-8"]
#                         [--last "1e-8"] [--cap S] [--solvers LIST] BUILD_DIR OUT_DIR
#
# At the tolerances of --last (default 1e-8: most runs there end at the
# 60 s cap, 5 minutes per large problem) only each collection's last
# problem is solved; at the others, every problem.
# --solvers: the solvers to run (default auto,nsgs-ac,nsn-ac,admm,ipm,
# siconos-nsgs,siconos-nsn-ac,siconos-admm).
# Generation (skipped with --no-gen when OUT_DIR/index.csv exists): the
# scenes and options of gen_hard_fc.sh (fixed seeds, one thread,
# --accept-nonconverged, the simulation at tol 1e-4 with spheres_box's
# other defaults: the auto chain, contacts held within 2.5e-4 Rmin), fewer
# problems kept, to fit a CPU budget of tens of minutes (the first solve
# of these scenes comes a few steps in, so the runs go 10-20 steps past
# 1000 or 2000 to reach the last kept solve):
#   box_n100     1000 steps, every 50th solve of steps 800-1000
#   pyramid_L5   1010 steps, every 250th solve from step 500
#   pyramid_L10  1010 steps, every 500th solve from step 500
#   column_n20, column_n100  1010 steps, every 500th solve from step 500
#   chute_n1000  2020 steps, every 500th solve from step 500
#   stack10, wall_ball  rigid bodies, every 50th solve (gen_hard_fc.sh's)
#   pile_n1000   2000 steps, every 500th solve of steps 1500-2000 (settled;
#                the first solve is at step 15, so this keeps one problem,
#                step 1514: the pile is the costliest to make and to solve),
#                simulated at spheres_box's default tol 1e-3: at 1e-4 with
#                the hold its settling (steps 500-1000) costs seconds per step
# Writes OUT_DIR/NAME/*.dat, OUT_DIR/index.csv, OUT_DIR/runs-TOL.tsv (one
# row per file and solver: file contacts solver converged iterations
# seconds error status), OUT_DIR/auto-misses-TOL.txt (nsolve's report of
# auto on each problem auto did not solve: the chain's methods and errors)
# and OUT_DIR/table.md (the tables of the doc).
set -euo pipefail
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
gen=1 gen_only=0 table_only=0 tols="1e-4 1e-8" cap=60 last="1e-8"
solvers=auto,nsgs-ac,nsn-ac,admm,ipm,siconos-nsgs,siconos-nsn-ac,siconos-admm
while [ $# -gt 0 ]; do
  case "$1" in
    --no-gen) gen=0; shift ;;
    --table-only) table_only=1; shift ;;
    --gen-only) gen_only=1; shift ;;
    --tols) tols=$2; shift 2 ;;
    --cap) cap=$2; shift 2 ;;
    --last) last=$2; shift 2 ;;
    --solvers) solvers=$2; shift 2 ;;
    -h|--help) sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fc/hard.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: benchmarks/fc/hard.sh [--no-gen] [--table-only] [--tols LIST] [--cap S] BUILD_DIR OUT_DIR" >&2; exit 2; }
build=$1 out=$2
sbx=$build/bin/spheres_box nsolve=$build/bin/nsolve bench=$build/benchmarks/fc_siconos_bench
for x in "$sbx" "$nsolve" "$bench"; do
  [ -x "$x" ] || { echo "fc/hard.sh: $x not built (fc_siconos_bench needs libsiconos-numerics-dev)" >&2; exit 2; }
done
mkdir -p "$out"
index=$out/index.csv

# collect NAME SCENE N STEPS EVERY FROM TO [spheres_box options]: one
# collection made by gen_hard_fc.sh (same layout and index columns).
gen_hard=$(dirname "$0")/../../tools/gen_hard_fc.sh
collect() { "$gen_hard" --collect "$*" "$build" "$out"; }

if [ "$table_only" = 0 ]; then
  if [ "$gen" = 1 ] || [ ! -f "$index" ]; then
    echo "collection,file,scene,n,step,contacts" >"$index"
    collect box_n100    box      100 1000  50  800 1000
    collect pyramid_L5  pyramid   55 1010 250  500 1010
    collect pyramid_L10 pyramid  385 1010 500  500 1010
    collect column_n20  column    20 1010 500  500 1010
    collect column_n100 column   100 1010 500  500 1010
    collect chute_n1000 chute   1000 2020 500  500 2020
    collect pile_n1000  pile    1000 2000 500 1500 2000 --tol 1e-3
    # the rigid-body collections, as gen_hard_fc.sh makes them (skipped
    # without python3-siconos, which writes their scenes)
    for rigid in stack10 wall_ball; do
      "$gen_hard" --only "$rigid" "$build" "$out"
    done
  fi
  [ "$gen_only" = 0 ] || exit 0
  for tol in $tols; do
    files=()
    if [[ " $last " == *" $tol "* ]]; then   # each collection's last problem
      while read -r f; do files+=("$out/$f"); done < <(tail -n +2 "$index" |
        awk -F, '{ l[$1] = $2; if (!($1 in s)) { s[$1] = 1; o[++n] = $1 } } END { for (i = 1; i <= n; i++) print l[o[i]] }')
    else
      while IFS=, read -r _ f _; do files+=("$out/$f"); done < <(tail -n +2 "$index")
    fi
    echo "fc/hard.sh: ${#files[@]} problems x $(echo "$solvers" | tr "," "\n" | wc -l) solvers at tol $tol, cap $cap s" >&2
    "$bench" --solvers "$solvers" --cap "$cap" --tol "$tol" "${files[@]}" >"$out/runs-$tol.tsv"
    # every problem auto missed, solved again by nsolve for the chain's own
    # message (each method it ran and the error it reached)
    : >"$out/auto-misses-$tol.txt"
    awk -F'\t' '$3 == "auto" && $4 != "yes" { print $1 }' "$out/runs-$tol.tsv" | while read -r f; do
      g=$(grep -m1 "/$f," "$index" | cut -d, -f2)
      { echo "== $g"; "$nsolve" --solver auto --tol "$tol" --time-limit "$cap" "$out/$g" 2>&1 || true; } >>"$out/auto-misses-$tol.txt"
    done
  done
fi

# Tables: per collection and solver, solved / problems, the time summed
# over the problems (a failed run counts its time, up to the cap) and the
# largest recomputed error among the solved; then every problem the
# default (auto) did not solve.
{
for tol in $tols; do
  awk -F'\t' -v tol="$tol" -v solvers="$solvers" -v idx="$index" '
    BEGIN {
      ns = split(solvers, S, ",")
      while ((getline line < idx) > 0) {
        split(line, c, ","); if (c[1] == "collection") continue
        f = c[2]; sub(/.*\//, "", f); coll[f] = c[1]
        if (!(c[1] in seen)) { seen[c[1]] = 1; order[++no] = c[1] }
      }
    }
    NR == 1 { next }
    {
      f = $1; s = $3; k = coll[f]; key = k SUBSEP s; seen_solver[s, "x"] = 1
      if (!(f in counted)) { counted[f] = 1; np[k]++; ctot[k] += $2 }
      t[key] += $6; if ($6 > tmax[s]) tmax[s] = $6
      tf[f, s] = $6; okf[f, s] = $4 == "yes"
      if ($4 == "yes") { ok[key]++; okall[s]++; if ($7 + 0 > emax[key]) emax[key] = $7 + 0 }
      tall[s] += $6; nall++
      if (s == "auto" && $4 != "yes") miss[++nm] = sprintf("| %s | %s | %s | %s | %s | %s |", f, $2, $8, $5, $6, $7)
    }
    END {
      printf "### tol %s\n\n", tol
      printf "Per cell: solved / problems, total seconds (failed runs count their time, up to the cap), largest recomputed error of a solved run.\n\n"
      printf "| collection (problems, mean contacts) |"
      for (i = 1; i <= ns; i++) printf " %s |", S[i]
      printf "\n|---|"; for (i = 1; i <= ns; i++) printf "---|"; printf "\n"
      tot = 0
      for (j = 1; j <= no; j++) {
        k = order[j]; if (!np[k]) continue; tot += np[k]
        printf "| %s (%d, %.0f) |", k, np[k], ctot[k] / np[k]
        for (i = 1; i <= ns; i++) {
          key = k SUBSEP S[i]
          printf " %d/%d, %.3g s%s |", ok[key], np[k], t[key], ok[key] ? sprintf(", %.1e", emax[key]) : ""
        }
        printf "\n"
      }
      printf "| **all** (%d) |", tot
      for (i = 1; i <= ns; i++) printf " **%d/%d**, %.3g s, max %.3g s |", okall[S[i]], tot, tall[S[i]], tmax[S[i]]
      printf "\n\n"
      # the acceleration rule: auto against plain sweeps from the same
      # (cold) start, on every problem the plain sweeps solve in >= 0.05 s
      nr = 0; lg = 0; above = ""
      for (f in counted) {
        if (!okf[f, "nsgs-ac"] || !((f, "auto") in tf) || tf[f, "nsgs-ac"] < 0.05) continue
        ratio = tf[f, "auto"] / tf[f, "nsgs-ac"]; nr++; lg += log(ratio)
        if (ratio > rmax) { rmax = ratio; fmax = f }
        if (ratio > 1.2) above = above sprintf(" %s (%.2f)", f, ratio)
      }
      if (nr) printf "auto / plain sweeps (nsgs-ac), time on the %d problems the sweeps solve in 0.05 s or more: geometric mean %.2f, max %.2f (%s); above 1.2:%s\n\n", nr, exp(lg / nr), rmax, fmax, above == "" ? " none" : above
      if (nm) {
        printf "Not solved by auto at tol %s:\n\n| file | contacts | status | iterations | seconds | error |\n|---|---|---|---|---|---|\n", tol
        for (i = 1; i <= nm; i++) print miss[i]
        printf "\n"
      } else if (("auto", "x") in seen_solver) printf "auto solves every problem at tol %s.\n\n", tol
    }' "$out/runs-$tol.tsv"
done
} | tee "$out/table.md"
