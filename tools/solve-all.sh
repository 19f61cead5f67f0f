#!/usr/bin/env bash
# The main job until nsbench lands: solve every problem file of the shipped
# collections (data/ and ../shared/data) with the default solver of its kind
# and print one line per file.  tools/solve-all.sh [DIR...]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
nsolve=${NSOLVE:-$here/build/bin/nsolve}
[ -x "$nsolve" ] || { echo "solve-all: $nsolve not built (run tools/setup.sh)" >&2; exit 2; }
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  dirs=()
  [ -d "$here/data" ] && dirs+=("$here/data")
  [ -d "$here/../shared/data" ] && dirs+=("$here/../shared/data")
fi
printf '%-58s %-6s %-10s %-12s %s\n' file kind solver status error
total=0; conv=0; nosolver=0; bad=0
while IFS= read -r f; do
  total=$((total+1))
  out=$("$nsolve" --json --time-limit 60 "$f" 2>/dev/null); rc=$?
  kind=$(printf '%s' "$out" | sed -n 's/.*"kind": "\([a-z0-9]*\)".*/\1/p')
  solver=$(printf '%s' "$out" | sed -n 's/.*"solver": "\([a-z0-9-]*\)".*/\1/p')
  status=$(printf '%s' "$out" | sed -n 's/.*"status": "\([a-z_]*\)".*/\1/p')
  error=$(printf '%s' "$out" | sed -n 's/.*"error": \([^,]*\),.*/\1/p')
  if [ $rc -eq 0 ]; then conv=$((conv+1))
  elif printf '%s' "$out" | grep -q "no solver is registered"; then
    nosolver=$((nosolver+1)); status="(no solver yet)"
    kind=$("$nsolve" --check --json "$f" 2>/dev/null | sed -n 's/.*"kind": "\([a-z0-9]*\)".*/\1/p')
  elif [ $rc -eq 2 ]; then bad=$((bad+1)); fi
  printf '%-58s %-6s %-10s %-12s %s\n' "${f#$here/}" "${kind:-?}" "${solver:--}" "${status:-error}" "${error:--}"
done < <(find "${dirs[@]}" -type f \( -name '*.dat' -o -name '*.hdf5' \) ! -path '*/matrix/*' | sort)
echo "solve-all: $total files: $conv converged, $nosolver without a solver yet, $bad rejected"
