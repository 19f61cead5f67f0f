#!/usr/bin/env bash
# The main job: benchmark the default solver of every kind over the shipped
# collections (data/ and, when present, ../shared/data), print the summary
# and write out/results.csv and out/profile.svg.
#   tools/bench.sh [nsbench options] [PATH...]    e.g. --solvers lemke,pgs,psor --jobs 2
# NS_BUILD_DIR picks the build (default build/).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
nsbench=${NSBENCH:-${NS_BUILD_DIR:-$here/build}/bin/nsbench}
[ -x "$nsbench" ] || { echo "bench: $nsbench not built (run tools/setup.sh)" >&2; exit 2; }
have_path=0
for a in "$@"; do
  [ -e "$a" ] && [ "${a#-}" = "$a" ] && have_path=1
done
paths=()
if [ $have_path -eq 0 ]; then
  paths=("$here/data")
  [ -d "$here/../shared/data" ] && paths+=("$(cd "$here/../shared/data" && pwd)")
fi
mkdir -p "$here/out"
exec "$nsbench" --out "$here/out/results.csv" --profile "$here/out/profile.svg" "$@" "${paths[@]}"
