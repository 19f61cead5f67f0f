#!/usr/bin/env bash
# The main job: several solvers of every kind over the shipped collections
# (data/ and, when present, ../shared/data), so that the performance
# profiles say which solver wins where. Prints the summary, writes
# out/results.csv and out/profile.svg; progress on stderr.
#   tools/bench.sh [nsbench options] [PATH...]    e.g. --jobs 1, --kind lcp
# With --solvers among the options, those replace the lists below.
# NS_BUILD_DIR picks the build (default build/); NSBENCH the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
nsbench=${NSBENCH:-${NS_BUILD_DIR:-$here/build}/bin/nsbench}
[ -x "$nsbench" ] || { echo "bench: $nsbench not built (run tools/setup.sh)" >&2; exit 2; }

# Solvers compared per kind, fastest-first guesses first. A name this build
# does not register for the kind is left out with a note, never an error.
lists=(
  "lcp=lemke,newton-fb,pgs,auto"
  "mlcp=lemke,enum,newton-fb,auto"
  "relay=lemke,newton-fb,pgs,auto"
  "avi=lemke,auto"
  "fc2d=lemke,nsgs,nsn-ac,auto"
  "fc3d=nsgs-ac,nsn-ac,prox,auto"
  "gfc2d=reduce,nsn-ac"
  "gfc3d=reduce,nsn-ac"
)

have_path=0 have_solvers=0 have_jobs=0 have_limit=0
for a in "$@"; do
  [ -e "$a" ] && [ "${a#-}" = "$a" ] && have_path=1
  case "$a" in
    -s|--solvers|--solver) have_solvers=1 ;;
    -j|--jobs) have_jobs=1 ;;
    --time-limit) have_limit=1 ;;
  esac
done
paths=()
if [ $have_path -eq 0 ]; then
  paths=("$here/data")
  [ -d "$here/../shared/data" ] && paths+=("$(cd "$here/../shared/data" && pwd)")
fi

opts=()
if [ $have_solvers -eq 0 ]; then
  registered=$("$nsbench" --list-solvers | awk 'NR > 1 { print $1 "=" $2 }')
  for l in "${lists[@]}"; do
    kind=${l%%=*} keep=() skipped=()
    IFS=, read -r -a names <<< "${l#*=}"
    for s in "${names[@]}"; do
      if grep -qxF "$kind=$s" <<< "$registered"; then keep+=("$s"); else skipped+=("$s"); fi
    done
    [ ${#skipped[@]} -gt 0 ] &&
      echo "bench: no $kind solver named ${skipped[*]} in this build, left out" >&2
    [ ${#keep[@]} -gt 0 ] && opts+=(--solvers "$kind=$(IFS=,; echo "${keep[*]}")")
  done
fi
# two runs at a time on the 2 cores the README promises; each run stops at
# 10 s (a solver that does not converge is not waited for)
[ $have_jobs -eq 0 ] && opts+=(--jobs "$(n=$(nproc 2>/dev/null || echo 2); [ "$n" -gt 2 ] && n=2; echo "$n")")
[ $have_limit -eq 0 ] && opts+=(--time-limit 10)

mkdir -p "$here/out"
exec "$nsbench" --out "$here/out/results.csv" --profile "$here/out/profile.svg" \
  "${opts[@]}" "$@" "${paths[@]}"
