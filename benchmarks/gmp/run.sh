#!/usr/bin/env bash
# GMP side by side: our gmp-nsgs (nsbench) and Siconos 4.4's generic
# mechanical NSGS (ns_siconos_driver, gmp_driver with the four values of
# iparam[ISREDUCED]: gmp-nsgs = Gauss–Seidel over all blocks (Siconos'
# default), gmp-nsgs-subs = equalities substituted, gmp-nsgs-assemble =
# equalities assembled into one block, gmp-mlcp = solved as an MLCP), on
# every file of ../shared/data/gmp, same tolerance, sweep limit and time
# limit. Both answers are scored by our ns_gmp_error (Siconos 4.4's GMP
# error; the driver rescored Siconos' reaction with our reader and error
# function, Siconos' own residual is in its CSV's message column).
#
#   benchmarks/gmp/run.sh [--tol T] [--max-iter N] [--time-limit S] [--out DIR] [DIR|FILE...]
#
# Prints one table row per file: status, sweeps, error, seconds for each
# solver; writes DIR/ours.csv, DIR/siconos.csv, DIR/table.txt (default
# out/gmp). NS_BUILD_DIR picks the build (default build/).
set -euo pipefail
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BUILD_DIR:-$root/build}
tol=1e-8 maxit=100000 limit=60 out=$root/out/gmp
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tol) tol=$2; shift 2 ;;
    --max-iter) maxit=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gmp/run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -eq 0 ] && paths=("$root/../shared/data/gmp")
[ -x "$build/bin/nsbench" ] || { echo "gmp/run.sh: $build/bin/nsbench not built" >&2; exit 2; }
[ -x "$build/bin/ns_siconos_driver" ] || { echo "gmp/run.sh: ns_siconos_driver not built (libsiconos-numerics-dev)" >&2; exit 2; }
mkdir -p "$out"
"$build/bin/nsbench" -q --kind gmp --solvers gmp-nsgs --tol "$tol" --max-iter "$maxit" \
  --time-limit "$limit" --out "$out/ours.csv" "${paths[@]}" >/dev/null
mapfile -t files < <(awk -F, 'NR > 1 { print $1 }' "$out/ours.csv")
sic=gmp-nsgs,gmp-nsgs-subs,gmp-nsgs-assemble,gmp-mlcp
"$build/bin/ns_siconos_driver" --kind gmp --solvers "$sic" --tol "$tol" --max-iter "$maxit" \
  --time-limit "$limit" "${files[@]}" >"$out/siconos.csv"
awk -F, -v tol="$tol" '
  function cell(k) { return sprintf("%-9s %6s %9s %9s", st[k], it[k], er[k], sec[k]) }
  FNR == 1 { src++; next }
  {
    f = $1; sub(/.*\//, "", f)
    k = f SUBSEP (src == 1 ? "ours" : "siconos " $4)
    st[k] = $5; it[k] = $6; er[k] = ($7 == "" ? "-" : sprintf("%.2e", $7)); sec[k] = ($8 == "" ? "-" : sprintf("%.2e", $8))
    if (!(f in seen)) { seen[f] = 1; order[++nf] = f }
    if (src == 1 && $7 != "" && $7 + 0 <= tol + 0) okours++
    if (src == 2 && $7 != "" && $7 + 0 <= tol + 0) oksic[$4]++
  }
  END {
    split("ours|siconos gmp-nsgs|siconos gmp-nsgs-subs|siconos gmp-nsgs-assemble|siconos gmp-mlcp", cols, "|")
    printf "GMP at tol %s; each cell: status, sweeps, error (our ns_gmp_error), seconds\n", tol
    for (f = 1; f <= nf; f++) {
      printf "%s\n", order[f]
      for (c = 1; c <= 5; c++) printf "  %-28s %s\n", cols[c], cell(order[f] SUBSEP cols[c])
    }
    printf "error <= %s by our error function: ours gmp-nsgs %d/%d", tol, okours, nf
    for (c = 2; c <= 5; c++) { s = cols[c]; sub(/siconos /, "", s); printf "; siconos %s %d/%d", s, oksic[s], nf }
    printf "\n"
  }' "$out/ours.csv" "$out/siconos.csv" | tee "$out/table.txt"
