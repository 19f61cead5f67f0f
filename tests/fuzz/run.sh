#!/bin/sh
# run.sh — run the libFuzzer targets on seeds taken from the shared data.
#
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
#
# BUILD_DIR: a build configured with -DNS_BUILD_FUZZERS=ON -DCMAKE_C_COMPILER=clang
# (targets in BUILD_DIR/fuzz). SECONDS: fuzzing time per target. TARGETs
# default to fuzz_dat_problem fuzz_dat_matrix fuzz_fclib fuzz_mechanics, run one after the
# other on one core. Seeds are copied at run time from $NS_SHARED_DATA
# (default: ../shared/data next to the repository) into a temporary corpus
# per target (fuzz_dat_problem also takes the repository's data/, e.g. the AVI
# files with their sets, and ../shared/rolling-data's rolling-friction files);
# files above $NS_FUZZ_MAX_SEED bytes (default 65536; for
# fuzz_fclib $NS_FUZZ_MAX_SEED_FCLIB, default 262144, so that most HDF5
# files qualify) are left out to keep executions fast. Crash reproducers land in
# BUILD_DIR/fuzz/artifacts/<target>/. Extra libFuzzer flags come from
# $NS_FUZZ_ARGS (e.g. "-fork=1 -ignore_crashes=1" to go on after a finding).
# Exit status: 1 if a target failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
secs=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=${*:-fuzz_dat_problem fuzz_dat_matrix fuzz_fclib fuzz_mechanics}
data=${NS_SHARED_DATA:-$here/../../../shared/data}
maxseed=${NS_FUZZ_MAX_SEED:-65536}
[ -d "$data" ] || { echo "run.sh: no seed data in $data" >&2; exit 2; }
# the rolling-friction files (RFC3D, GRFC3D) sit beside data/
rolling=""
[ -d "$data/../rolling-data" ] && rolling="$data/../rolling-data"

work=$(mktemp -d "${TMPDIR:-/tmp}/nsfuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
status=0
for t in $targets; do
    bin="$build/fuzz/$t"
    [ -x "$bin" ] || { echo "run.sh: $bin not built" >&2; status=1; continue; }
    corpus="$work/$t"
    mkdir -p "$corpus" "$build/fuzz/artifacts/$t"
    case $t in
        fuzz_dat_problem) seeds=$(find "$data" "$here/../../data" $rolling -name '*.dat' ! -path '*/matrix/*') ;;
        fuzz_dat_matrix)  seeds=$(find "$data/matrix" "$data/lcp" "$data/gfc2d" -name '*.dat') ;;
        fuzz_fclib)       seeds=$(find "$data" $rolling -name '*.hdf5' -o -name 'lcp_*.dat') ;;
        fuzz_mechanics)   seeds= ;;   # call programs: libFuzzer starts from nothing
        *)                seeds=$(find "$data" -type f -name '*.dat') ;;
    esac
    limit=$maxseed
    [ "$t" = fuzz_fclib ] && limit=${NS_FUZZ_MAX_SEED_FCLIB:-262144}
    n=0
    for s in $seeds; do
        if [ "$(wc -c < "$s")" -le "$limit" ]; then
            cp "$s" "$corpus/$(echo "$s" | tr '/' '_')"
            n=$((n + 1))
        fi
    done
    dict=""
    [ "$t" != fuzz_fclib ] && [ "$t" != fuzz_mechanics ] && dict="-dict=$here/dat.dict"
    [ "$t" = fuzz_mechanics ] && limit=512
    echo "== $t: $n seeds, $secs s"
    "$bin" $dict -max_total_time="$secs" -max_len="$limit" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz/artifacts/$t/" ${NS_FUZZ_ARGS:-} "$corpus" || status=1
done
exit $status
