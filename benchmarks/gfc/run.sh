#!/usr/bin/env bash
# Global friction contact side by side, in one run: our "reduce" (default:
# W = Hᵀ M⁻¹ H by CHOLMOD, local solver auto, velocities recovered) and our
# global Newton "nsn-ac" (nsbench), against Siconos 4.4's gfc3d solvers
# nsgs-wr, nsn-ac, admm and ipm (ns_siconos_driver: .dat files through
# Siconos' own reader, FCLIB .hdf5 through libfclib handed to Siconos as
# sparse matrices). Every answer is scored by our ns_gfc_error (Siconos
# 4.4's definition): ours as the solver reports it, Siconos' (v, r)
# rescored by the driver with our reader (u = Hᵀ v + b recomputed); Siconos'
# own residual is in siconos.csv's message column.
# Limits: tol 1e-8, 60 s per run; iterations: ours each solver's default
# (nsn-ac 1000), Siconos nsgs-wr and admm 100000, nsn-ac and ipm 1000.
#
#   benchmarks/gfc/run.sh [--tol T] [--time-limit S] [--out DIR] [--table-only] [DIR|FILE...]
#
# --table-only prints the table again from DIR's CSVs without running.
# PATH defaults to ../shared/data/gfc3d and ../shared/data/fclib/global.
# Prints one block per file (status, iterations, error, seconds per solver)
# and the count solved at tol by our error; writes DIR/ours.csv,
# DIR/siconos.csv, DIR/table.txt (default out/gfc). NS_BUILD_DIR picks the
# build (default build/).
set -euo pipefail
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BUILD_DIR:-$root/build}
tol=1e-8 limit=60 out=$root/out/gfc table_only=0
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tol) tol=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --table-only) table_only=1; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gfc/run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -eq 0 ] && paths=("$root/../shared/data/gfc3d" "$root/../shared/data/fclib/global")
[ -x "$build/bin/nsbench" ] || { echo "gfc/run.sh: $build/bin/nsbench not built" >&2; exit 2; }
[ -x "$build/bin/ns_siconos_driver" ] || { echo "gfc/run.sh: ns_siconos_driver not built (libsiconos-numerics-dev)" >&2; exit 2; }
mkdir -p "$out"
if [ "$table_only" = 0 ]; then
echo "== ours (nsbench: reduce, nsn-ac)" >&2
"$build/bin/nsbench" -q --kind gfc3d --solvers reduce,nsn-ac --tol "$tol" \
  --time-limit "$limit" --out "$out/ours.csv" "${paths[@]}" >/dev/null
mapfile -t files < <(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$out/ours.csv")
echo "== Siconos (ns_siconos_driver: nsgs-wr, nsn-ac, admm, ipm) on ${#files[@]} files" >&2
printf 'file,kind,size,solver,status,iterations,error,seconds,peak_kb,message\n' >"$out/siconos.csv"
for sm in nsgs-wr:100000 nsn-ac:1000 admm:100000 ipm:1000; do
  "$build/bin/ns_siconos_driver" --kind gfc3d --solvers "${sm%%:*}" --tol "$tol" \
    --max-iter "${sm##*:}" --time-limit "$limit" --no-header "${files[@]}" >>"$out/siconos.csv"
done
fi
awk -F, -v tol="$tol" '
  function cell(k) { return (k in st) ? sprintf("%-9s %6s %9s %9s", st[k], it[k], er[k], sec[k]) : "-" }
  FNR == 1 { src++; next }
  {
    f = $1; sub(/.*\//, "", f)
    k = f SUBSEP (src == 1 ? "ours " : "siconos ") $4
    st[k] = $5; it[k] = $6; er[k] = ($7 == "" ? "-" : sprintf("%.2e", $7)); sec[k] = ($8 == "" ? "-" : sprintf("%.2e", $8))
    if (!(f in seen)) { seen[f] = 1; order[++nf] = f }
    if ($7 != "" && $7 + 0 <= tol + 0 && ($5 == "converged" || src == 2)) ok[(src == 1 ? "ours " : "siconos ") $4]++
  }
  END {
    nc = split("ours reduce|ours nsn-ac|siconos nsgs-wr|siconos nsn-ac|siconos admm|siconos ipm", cols, "|")
    printf "GFC3D at tol %s; each cell: status, iterations, error (our ns_gfc_error), seconds\n", tol
    for (f = 1; f <= nf; f++) {
      printf "%s\n", order[f]
      for (c = 1; c <= nc; c++) printf "  %-18s %s\n", cols[c], cell(order[f] SUBSEP cols[c])
    }
    printf "error <= %s by our error function (ours: and converged):", tol
    for (c = 1; c <= nc; c++) printf "%s %s %d/%d", (c > 1 ? ";" : ""), cols[c], ok[cols[c]], nf
    printf "\n"
  }' "$out/ours.csv" "$out/siconos.csv" | tee "$out/table.txt"
