#!/usr/bin/env bash
# ADMM side by side with Siconos 4.4, in one run: our "admm" (nsbench) and
# Siconos' fc3d_admm (SICONOS_FRICTION_3D_ADMM) and gfc3d_ADMM
# (SICONOS_GLOBAL_FRICTION_3D_ADMM) through ns_siconos_driver, both with
# their default options, on every FC3D file (../shared/data/fc3d, fclib/local)
# and every GFC3D file (../shared/data/gfc3d, fclib/global): same tolerance,
# same iteration limit (20000, Siconos' default for both), same time limit,
# same timing (the solve alone; a solve faster than --min-time is repeated
# until that much is measured, per-solve time reported, on both sides).
# Solved: status converged and error <= tol. The error column is our
# ns_gfc_error on Siconos' (v, r) for GFC3D (the driver rescores it) and
# Siconos' own fc3d residual for FC3D (same formula as ns_fc_error, Siconos
# 4.4's normalisation max(‖q‖, ‖r‖, ‖u‖)).
#
#   benchmarks/fc/admm.sh [--tol T] [--time-limit S] [--min-time S] [--out DIR] [--table-only]
#
# Prints per file both sides (status, iterations, error, seconds), then per
# kind: solved counts, and the geometric mean of the time ratio ours/Siconos
# over the files both solve. Writes DIR/ours.csv, DIR/siconos.csv and
# DIR/table.txt (default out/admm). NS_BUILD_DIR picks the build (build/).
set -euo pipefail
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BUILD_DIR:-$root/build}
data=$root/../shared/data
tol=1e-8 limit=20 mintime=0.01 out=$root/out/admm table_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tol) tol=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --min-time) mintime=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --table-only) table_only=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fc/admm.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$build/bin/nsbench" ] || { echo "fc/admm.sh: $build/bin/nsbench not built" >&2; exit 2; }
[ -x "$build/bin/ns_siconos_driver" ] || { echo "fc/admm.sh: ns_siconos_driver not built (libsiconos-numerics-dev)" >&2; exit 2; }
mkdir -p "$out"
if [ "$table_only" = 0 ]; then
  printf 'file,kind,size,solver,status,iterations,error,seconds,peak_kb,message\n' >"$out/siconos.csv"
  rm -f "$out/ours.csv"
  for kind in fc3d gfc3d; do
    if [ $kind = fc3d ]; then files=("$data"/fc3d/*.dat "$data"/fclib/local/*.hdf5)
    else files=("$data"/gfc3d/*.dat "$data"/fclib/global/*.hdf5); fi
    echo "== ours: admm on ${#files[@]} $kind files" >&2
    "$build/bin/nsbench" -q --kind $kind --solvers admm --tol "$tol" --time-limit "$limit" \
      --min-time "$mintime" --out "$out/ours-$kind.csv" "${files[@]}" >/dev/null
    echo "== Siconos: admm on ${#files[@]} $kind files" >&2
    "$build/bin/ns_siconos_driver" --kind $kind --solvers admm --tol "$tol" --max-iter 20000 \
      --time-limit "$limit" --min-time "$mintime" --no-header "${files[@]}" >>"$out/siconos.csv"
  done
  { head -1 "$out/ours-fc3d.csv"; tail -n +2 "$out/ours-fc3d.csv"; tail -n +2 "$out/ours-gfc3d.csv"; } >"$out/ours.csv"
  rm -f "$out/ours-fc3d.csv" "$out/ours-gfc3d.csv"
fi
awk -F, -v tol="$tol" '
  FNR == 1 { src++; for (i = 1; i <= NF; i++) col[src, $i] = i; next }
  {
    f = $1; sub(/.*\//, "", f); k = $2
    side = src == 1 ? "ours" : "siconos"
    s = $(col[src, "status"]); e = $(col[src, "error"]); t = $(col[src, "seconds"]); it = $(col[src, "iterations"])
    key = k SUBSEP f
    if (!(key in seen)) { seen[key] = 1; order[k, ++nf[k]] = f }
    cell[side, key] = sprintf("%-10s %6s %9s %9s", s, it, e == "" ? "-" : sprintf("%.2e", e), t == "" ? "-" : sprintf("%.2e", t))
    ok[side, key] = (s == "converged" && e != "" && e + 0 <= tol + 0)
    sec[side, key] = t + 0
  }
  END {
    split("fc3d gfc3d", kinds, " ")
    for (kk = 1; kk <= 2; kk++) {
      k = kinds[kk]
      printf "%s, tol %s: status, iterations, error, seconds\n", toupper(k), tol
      printf "  %-44s %-38s %s\n", "file", "ours admm", "Siconos admm"
      n1 = n2 = nb = 0; lg = 0
      for (i = 1; i <= nf[k]; i++) {
        f = order[k, i]; key = k SUBSEP f
        printf "  %-44s %-38s %s\n", f, cell["ours", key], cell["siconos", key]
        n1 += ok["ours", key]; n2 += ok["siconos", key]
        if (ok["ours", key] && ok["siconos", key] && sec["ours", key] > 0 && sec["siconos", key] > 0) {
          nb++; lg += log(sec["ours", key] / sec["siconos", key])
        }
      }
      printf "%s solved: ours %d/%d, Siconos %d/%d; time ours/Siconos, geometric mean over the %d solved by both: %.3f\n\n",
             toupper(k), n1, nf[k], n2, nf[k], nb, nb ? exp(lg / nb) : 0
    }
  }' "$out/ours.csv" "$out/siconos.csv" | tee "$out/table.txt"
