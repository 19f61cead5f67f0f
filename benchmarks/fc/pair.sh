#!/bin/sh
# One of our FC3D solvers against the Siconos 4.4 solver of the same method,
# side by side in one run, on the FC3D .dat and local FCLIB files with at
# least 100 contacts; tol 1e-8, both answers scored by our ns_fc_error. Each
# pair is run REPEAT times (default 3) and the fastest time of each solver
# kept (the machine is shared). PAIR: nsgs (default: our nsgs-ac against
# Siconos' NSGS with the AC local solver) or nsn (our nsn-ac against
# Siconos' NSN_AC). Prints: file contacts ours_s siconos_s ratio ours_it
# siconos_it ours_err siconos_err ours_ms/it siconos_ms/it, then the
# geometric mean ratio over the files both solve and the worst ratio.
# usage: benchmarks/fc/pair.sh BUILD_DIR [DATA_DIR] [REPEAT] [PAIR]
B=${1:-build}; D=${2:-/work/shared/data}; N=${3:-3}; P=${4:-nsgs}
case "$P" in
    nsgs) OURS=nsgs-ac; SIC=siconos-nsgs ;;
    nsn) OURS=nsn-ac; SIC=siconos-nsn-ac ;;
    *) echo "pair.sh: PAIR is nsgs or nsn, not '$P'" >&2; exit 2 ;;
esac
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
FILES=""
for f in "$D"/fc3d/*.dat "$D"/fclib/local/*.hdf5; do
    nc=$(grep -F "$(basename "$f")" "$D/MANIFEST.tsv" | sed -n 's/.*contacts=\([0-9]*\).*/\1/p' | head -1)
    [ -n "$nc" ] && [ "$nc" -ge 100 ] && FILES="$FILES $f"
done
TMP=$(mktemp)
i=0
while [ "$i" -lt "$N" ]; do
    # shellcheck disable=SC2086
    # Siconos' NSN_AC prints one line per failed dense LU on stderr: drop those
    { "$B/benchmarks/fc_siconos_bench" --solvers "$OURS,$SIC" --cap 60 $FILES 2>&1 1>&3 |
        grep -v '^NM_LU_factorize' >&2; } 3>&1 | tail -n +2 >> "$TMP"
    i=$((i + 1))
done
awk -F'\t' -v A="$OURS" -v S="$SIC" '
{ k = $1 SUBSEP $3
  if (!(k in t) || $6 < t[k]) { t[k] = $6; it[k] = $5; er[k] = $7; cv[k] = $4 }
  nc[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
END {
  printf "file\tcontacts\tours_s\tsiconos_s\tratio\tours_it\tsiconos_it\tours_err\tsiconos_err\tours_ms/it\tsiconos_ms/it\n"
  g = 0; m = 0; worst = 0
  for (j = 1; j <= n; j++) {
    f = order[j]; a = f SUBSEP A; b = f SUBSEP S
    r = t[b] > 0 ? t[a] / t[b] : 0
    printf "%s\t%d\t%.4f%s\t%.4f%s\t%.2f\t%d\t%d\t%s\t%s\t%.4f\t%.4f\n", f, nc[f],
           t[a], cv[a] == "yes" ? "" : "*", t[b], cv[b] == "yes" ? "" : "*", r,
           it[a], it[b], er[a], er[b], 1000 * t[a] / it[a], 1000 * t[b] / it[b]
    if (cv[a] == "yes" && cv[b] == "yes" && r > 0) { g += log(r); m++; if (r > worst) worst = r }
  }
  if (m) printf "geometric mean ratio over %d files both solve: %.3f (worst %.2f)\n", m, exp(g / m), worst
  print "(* = not converged at tol 1e-8)"
}' "$TMP"
rm -f "$TMP"
