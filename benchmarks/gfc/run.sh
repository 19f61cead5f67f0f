#!/usr/bin/env bash
# Global friction contact side by side, in one run: our "reduce" (default:
# W = Hᵀ M⁻¹ H by CHOLMOD, local solver auto, velocities recovered), our
# global Newton "nsn-ac", our interior point "ipm" (docs/ipm.md) and our
# ADMM "admm" (docs/admm.md) (nsbench), against Siconos 4.4's gfc3d solvers
# nsgs-wr, nsn-ac, admm and ipm (ns_siconos_driver: .dat files through
# Siconos' own reader, FCLIB .hdf5 through libfclib handed to Siconos as
# sparse matrices). Every answer is scored by our ns_gfc_error (Siconos
# 4.4's definition): ours as the solver reports it, Siconos' (v, r)
# rescored by the driver with our reader (u = Hᵀ v + b recomputed); Siconos'
# own residual is in siconos.csv's message column.
# Limits: tol 1e-8, 60 s per run; iterations: ours each solver's default
# (nsn-ac 1000, ipm 100 + its Newton finish, admm 20000), Siconos nsgs-wr
# and admm 100000, nsn-ac and ipm 1000.
# The last lines compare our ipm with Siconos' ipm and our admm with
# Siconos' admm: files solved at tol by our error (and Siconos' own count
# by its residual), and the geometric mean of the time ratio ours/Siconos
# over every file (and over the files both solve). --threads 2 also runs our ipm with OPENBLAS_NUM_THREADS=2
# (CHOLMOD's supernodal factorization calls the BLAS; nothing else in ipm
# is threaded) and prints the geometric mean of t(2 threads)/t(1 thread).
#
#   benchmarks/gfc/run.sh [--tol T] [--time-limit S] [--out DIR] [--threads 2] [--table-only] [DIR|FILE...]
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
tol=1e-8 limit=60 out=$root/out/gfc table_only=0 threads=1
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tol) tol=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --table-only) table_only=1; shift ;;
    --threads) threads=$2; shift 2 ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gfc/run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
[ ${#paths[@]} -eq 0 ] && paths=("$root/../shared/data/gfc3d" "$root/../shared/data/fclib/global")
[ -x "$build/bin/nsbench" ] || { echo "gfc/run.sh: $build/bin/nsbench not built" >&2; exit 2; }
[ -x "$build/bin/ns_siconos_driver" ] || { echo "gfc/run.sh: ns_siconos_driver not built (libsiconos-numerics-dev)" >&2; exit 2; }
mkdir -p "$out"
if [ "$table_only" = 0 ]; then
echo "== ours (nsbench: reduce, nsn-ac, ipm, admm)" >&2
"$build/bin/nsbench" -q --kind gfc3d --solvers reduce,nsn-ac,ipm,admm --tol "$tol" \
  --time-limit "$limit" --out "$out/ours.csv" "${paths[@]}" >/dev/null
rm -f "$out/ours-threads.csv"
if [ "$threads" != 1 ]; then
  echo "== ours ipm with OPENBLAS_NUM_THREADS=$threads" >&2
  OPENBLAS_NUM_THREADS=$threads "$build/bin/nsbench" -q --kind gfc3d --solvers ipm --tol "$tol" \
    --time-limit "$limit" --out "$out/ours-threads.csv" "${paths[@]}" >/dev/null
fi
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
    if ($7 != "" && $7 + 0 <= tol + 0 && ($5 == "converged" || src == 2)) { ok[(src == 1 ? "ours " : "siconos ") $4]++; good[k] = 1 }
    if (src == 2 && $5 == "converged") own[$4]++
  }
  END {
    nc = split("ours reduce|ours nsn-ac|ours ipm|ours admm|siconos nsgs-wr|siconos nsn-ac|siconos admm|siconos ipm", cols, "|")
    printf "GFC3D at tol %s; each cell: status, iterations, error (our ns_gfc_error), seconds\n", tol
    for (f = 1; f <= nf; f++) {
      printf "%s\n", order[f]
      for (c = 1; c <= nc; c++) printf "  %-18s %s\n", cols[c], cell(order[f] SUBSEP cols[c])
    }
    printf "error <= %s by our error function (ours: and converged):", tol
    for (c = 1; c <= nc; c++) printf "%s %s %d/%d", (c > 1 ? ";" : ""), cols[c], ok[cols[c]], nf
    printf "\n"
    # ipm against ipm, admm against admm: time ratio ours/Siconos per file, geometric mean
    for (pi = 1; pi <= 2; pi++) {
      m = pi == 1 ? "ipm" : "admm"
      na = 0; la = 0; nb = 0; lb = 0
      for (f = 1; f <= nf; f++) {
        a = order[f] SUBSEP "ours " m; b = order[f] SUBSEP "siconos " m
        if (!(a in sec) || !(b in sec) || sec[a] == "-" || sec[b] == "-" || sec[b] + 0 <= 0 || sec[a] + 0 <= 0) continue
        x = log(sec[a] / sec[b]); na++; la += x
        if ((a in good) && (b in good)) { nb++; lb += x }
      }
      printf "%s: ours %d/%d solved, Siconos %d/%d by our error (%d/%d converged by its own residual)\n", m, ok["ours " m], nf, ok["siconos " m], nf, own[m], nf
      if (na) printf "%s time ratio ours/Siconos, geometric mean: %.3g over %d files", m, exp(la / na), na
      if (nb) printf ", %.3g over the %d files both solve", exp(lb / nb), nb
      printf "\n"
    }
  }' "$out/ours.csv" "$out/siconos.csv" | tee "$out/table.txt"
if [ -s "$out/ours-threads.csv" ]; then
  awk -F, 'FNR == 1 { src++; next }
    $4 == "ipm" { f = $1; if (src == 1) t1[f] = $8; else if ($8 + 0 > 0 && t1[f] + 0 > 0) { n++; l += log($8 / t1[f]) } }
    END { if (n) printf "ipm time with %s BLAS threads / 1 thread, geometric mean over %d files: %.3g\n", th, n, exp(l / n) }' \
    th="$threads" "$out/ours.csv" "$out/ours-threads.csv" | tee -a "$out/table.txt"
fi
