#!/bin/sh
# Parallel NSGS (coloured sweeps, ns_options.threads) on the scale scene's
# one-step problem at ~10^4 contacts (target: speedup >= 1.7 on
# 2 threads, same error at the same tol). Run it on a quiet machine.
#   benchmarks/scale/parallel.sh [BUILD_DIR] [N] [STEP] [TOL] [REPEAT]
# Defaults: build, N = 10000 spheres (the pile's problem at STEP = 300 has
# ~10^4 contacts), tol 1e-4, each variant run REPEAT = 3 times (the best
# wall time is kept). The problem file is made by tools/gen_scale_problems.sh
# in $OUT (default /tmp/ns_scale_problems) unless it is there already.
# Each variant is a separate process (benchmarks/scale/fc_variants, cold
# start, error recomputed from W's blocks): the table gives the solve's wall
# time and CPU time (all threads) and their ratio cpu/wall — about 1 for one
# thread, close to k for k threads on an idle machine; much less means the
# threads waited for cores (contention: the speedup is then not
# meaningful).
set -eu
build=${1:-build}
n=${2:-10000}
step=${3:-300}
tol=${4:-1e-4}
rep=${5:-3}
out=${OUT:-/tmp/ns_scale_problems}
here=$(dirname "$0")
f="$out/pile_n${n}_step$step.dat"
[ -x "$build/bin/fc_variants" ] || { echo "parallel.sh: build first ($build/bin/fc_variants)" >&2; exit 2; }
if [ ! -s "$f" ]; then
  NO_NSBENCH=1 sh "$here/../../tools/gen_scale_problems.sh" "$build" "$out" "$step" "$n"
fi
export OPENBLAS_NUM_THREADS=1
nproc=$(nproc 2>/dev/null || echo '?')
echo "parallel.sh: $f, tol $tol, $nproc cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %-9s %7s %10s %9s %9s %8s\n' variant status sweeps error wall_s cpu_s cpu/wall
for v in "nsgs-ac" "nsgs-ac/threads=1" "nsgs-ac/threads=2" \
         "nsgs-ac/anderson=3" "nsgs-ac/anderson=3/threads=1" "nsgs-ac/anderson=3/threads=2"; do
  best=""
  i=0
  while [ $i -lt "$rep" ]; do
    i=$((i + 1))
    line=$("$build/bin/fc_variants" "$f" "$tol" "$v" 2>/dev/null | \
      awk '/^nsgs/ { printf "%s %s %s %s %s", $2, $3, $5, $4, $6 }')
    set -- $line
    if [ -z "$best" ] || awk -v a="$4" -v b="$(echo "$best" | cut -d' ' -f4)" 'BEGIN { exit !(a < b) }'; then
      best="$line"
    fi
  done
  set -- $best
  printf '%-34s %-9s %7s %10s %9s %9s %8.2f\n' "$v" "$1" "$2" "$3" "$4" "$5" \
    "$(awk -v c="$5" -v w="$4" 'BEGIN { print (w > 0 ? c / w : 0) }')"
  eval "s_$(echo "$v" | tr '/=-' '___')=$4"
done
awk -v a="$s_nsgs_ac_threads_1" -v b="$s_nsgs_ac_threads_2" -v c="$s_nsgs_ac_anderson_3_threads_1" \
    -v d="$s_nsgs_ac_anderson_3_threads_2" \
  'BEGIN { printf "speedup 2 threads vs 1 (solver wall time): plain %.2f, Anderson 3 %.2f\n", a / b, c / d }'
