#!/usr/bin/env bash
# Our solvers and Debian's Siconos numerics on the same files, in one run:
# nsbench writes nsbench.csv, ns_siconos_driver runs Siconos on exactly the
# (file, kind, solver) runs nsbench made and writes siconos.csv in the same
# columns, then `nsbench --compare` prints the side-by-side table (per
# problem: both statuses and times, ratio siconos/nsbench; geometric mean;
# profile of both) and writes an SVG.
#
#   benchmarks/siconos/siconos-compare.sh [options] [PATH...]
#     --solvers a,b,c   solvers (our names; KIND=a,b for one kind; default:
#                       per kind the main job's solvers Siconos has too:
#                       lcp lemke,newton-fb,pgs; mlcp lemke,enum,newton-fb;
#                       relay lemke,pgs; fc2d lemke,nsgs; fc3d nsgs-ac,
#                       nsn-ac,prox; gfc3d nsn-ac; gmp gmp-nsgs)
#     --kind KIND       only this kind
#     --tol T           tolerance for both (default 1e-8)
#     --time-limit S    per run, both sides (default 10)
#     --min-time S      repeat faster solves until S s are measured, both
#                       sides (default 0.01; 0: one cold solve each)
#     --min-repeat R    a solve under --min-time is measured so R times,
#                       both sides, the least time per solve kept (default
#                       1; on a loaded machine a time only grows: R = 10
#                       with --min-time 0.002 makes sub-ms ratios repeat)
#     --out DIR         where the CSVs and the SVG go (default out/siconos)
#     --cpu N|none      run both sides on CPU N (taskset; default: the last
#                       CPU). On a shared VM the CPUs differ in speed by up
#                       to 1.5x, steadily, so each side landing on another
#                       CPU moves a ratio by more than the 10 % it is
#                       judged by; none: let the scheduler place them
#   PATH defaults to data/ and ../shared/data (when present).
# Needs the build (tools/setup.sh) with libsiconos-numerics-dev installed,
# so that build/bin/ns_siconos_driver exists. NS_BUILD_DIR picks the build.
set -euo pipefail
# Both libraries run BLAS single-threaded (small dense problems; see
# tools/common/blas_threads.h); override by exporting OPENBLAS_NUM_THREADS.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${NS_BUILD_DIR:-$root/build}
nsbench=$build/bin/nsbench
driver=$build/bin/ns_siconos_driver
solvers="" kind="" tol=1e-8 limit=10 mintime=0.01 minrep=1 out=$root/out/siconos cpu=auto
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --solvers) solvers=$2; shift 2 ;;
    --kind) kind=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --min-time) mintime=$2; shift 2 ;;
    --min-repeat) minrep=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    -h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "siconos-compare: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
if [ ${#paths[@]} -eq 0 ]; then
  paths=("$root/data")
  [ -d "$root/../shared/data" ] && paths+=("$root/../shared/data")
fi
[ -x "$nsbench" ] || { echo "siconos-compare: $nsbench not built (run tools/setup.sh)" >&2; exit 2; }
[ -x "$driver" ] || { echo "siconos-compare: $driver not built: install libsiconos-numerics-dev and re-run tools/setup.sh" >&2; exit 2; }
mkdir -p "$out"
. "$root/benchmarks/pin_cpu.sh"
pin_cpu "$cpu" siconos-compare || exit 2
if [ -n "$pin" ]; then echo "both sides on CPU $cpu" >&2; fi
# both sides repeat a solve faster than --min-time until that much is
# measured and report the time per solve (warm against warm)
args=(--tol "$tol" --time-limit "$limit" --min-time "$mintime" --min-repeat "$minrep")
if [ -n "$solvers" ]; then
  args+=(--solvers "$solvers")
else
  # the main job's solvers that Siconos has too (ns_siconos_driver's table),
  # as far as this build registers them
  registered=$("$nsbench" --list-solvers | awk 'NR > 1 { print $1 "=" $2 }')
  for l in lcp=lemke,newton-fb,pgs mlcp=lemke,enum,newton-fb relay=lemke,pgs \
           fc2d=lemke,nsgs fc3d=nsgs-ac,nsn-ac,prox gfc3d=nsn-ac gmp=gmp-nsgs; do
    k=${l%%=*} keep=""
    IFS=, read -r -a names <<< "${l#*=}"
    for s in "${names[@]}"; do
      grep -qxF "$k=$s" <<< "$registered" && keep="$keep${keep:+,}$s"
    done
    [ -n "$keep" ] && args+=(--solvers "$k=$keep")
  done
fi
[ -n "$kind" ] && args+=(--kind "$kind")

echo "== nsbench" >&2
$pin "$nsbench" "${args[@]}" --out "$out/nsbench.csv" "${paths[@]}" >"$out/nsbench-summary.txt"

echo "== Siconos numerics (ns_siconos_driver), same files and solvers" >&2
printf 'file,kind,size,solver,status,iterations,error,seconds,solves,peak_kb,message\n' >"$out/siconos.csv"
# kinds and solvers nsbench actually ran (rows with a solver)
for k in $(awk -F, 'NR > 1 && $4 != "" { print $2 }' "$out/nsbench.csv" | sort -u); do
  ks=$(awk -F, -v k="$k" 'NR > 1 && $2 == k && $4 != "" && !seen[$4]++ { printf "%s%s", n++ ? "," : "", $4 }' "$out/nsbench.csv")
  mapfile -t files < <(awk -F, -v k="$k" 'NR > 1 && $2 == k && $4 != "" && !seen[$1]++ { print $1 }' "$out/nsbench.csv")
  echo "   $k: ${#files[@]} files, solvers $ks" >&2
  $pin "$driver" --kind "$k" --solvers "$ks" --tol "$tol" --time-limit "$limit" --min-time "$mintime" --min-repeat "$minrep" --no-header \
    "${files[@]}" >>"$out/siconos.csv"
done

"$nsbench" --compare "$out/nsbench.csv" "$out/siconos.csv" --profile "$out/siconos-compare.svg"
echo >&2
echo "files: $out/nsbench.csv $out/siconos.csv $out/siconos-compare.svg (nsbench summary: $out/nsbench-summary.txt)" >&2
