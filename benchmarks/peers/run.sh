#!/bin/sh
# The spheres_box pile (--scene pile, n spheres, 2000 steps of h = 1e-3)
# simulated by nonsmooth (spheres_box) and by Bullet, ODE and MuJoCo on the
# very same initial scene (spheres_box --write-scene), one program after the
# other, each on one thread; prints the table: engine, settings, ms per step
# over the settled steps (SETTLED_FROM to the end), whole run, max/mean
# overlap between spheres and with the walls at the end, kinetic energy at
# the end, and each engine's settled ms/step over Bullet's at 100 iterations
# (wall time; the process CPU time per step beside it, since other load on a
# shared machine inflates wall times).
#   benchmarks/peers/run.sh BUILD [N]        (default N = 1000; also 4000)
# Environment: OUT (default /tmp/ns_peers_nN: scene and raw outputs),
# STEPS (default 2000) and SETTLED_FROM (default 1500) for short checks,
# SKIP_OURS=1 (peers only, on an existing OUT/scene.txt), SKIP_PEERS=1:
# the table is made from the outputs already in OUT (both: the table alone);
# CPU (default: the last CPU; none: unpinned): every engine runs on that CPU
# (taskset), since the CPUs of a shared VM can differ steadily in speed.
# A peer whose library was not found at build time is left out.
set -eu
build=${1:?usage: run.sh BUILD [N]}
n=${2:-1000}
out=${OUT:-/tmp/ns_peers_n$n}
steps=${STEPS:-2000}
from=${SETTLED_FROM:-1500}
bin="$build/bin"
[ -x "$bin/spheres_box" ] || { echo "run.sh: $bin/spheres_box not built" >&2; exit 2; }
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
. "$(dirname "$0")/../pin_cpu.sh"
pin_cpu "${CPU:-auto}" run.sh || exit 2
scene="$out/scene.txt"
res="$out/results.txt"
echo "run.sh: n = $n, $steps steps, settled from step $from; load: $(cut -d' ' -f1-3 /proc/loadavg) on $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores; CPU: $cpu" >&2
if [ "${SKIP_OURS:-0}" != 1 ]; then
  echo "run.sh: nonsmooth (spheres_box) ..." >&2
  $pin "$bin/spheres_box" --scene pile --n "$n" --steps "$steps" --profile "$from" --accept-nonconverged \
    --write-scene "$scene" > "$out/nonsmooth.txt" 2> "$out/nonsmooth.err" || \
    echo "run.sh: spheres_box failed (exit $?), see $out/nonsmooth.err" >&2
fi
[ -s "$scene" ] || { echo "run.sh: no scene file $scene" >&2; exit 1; }
run_peer() {   # name, program, args...
  name=$1; prog=$2; shift 2
  if [ ! -x "$bin/$prog" ]; then echo "run.sh: $prog not built (library not found): skipped" >&2; return 0; fi
  echo "run.sh: $name ..." >&2
  if $pin "$bin/$prog" "$scene" --settled-from "$from" "$@" > "$out/$name.txt" 2> "$out/$name.err"; then :; else
    echo "run.sh: $prog failed: $(grep -v '^peer_mujoco: [0-9]* contacts' "$out/$name.err" | head -1)" >&2
  fi
}
if [ "${SKIP_PEERS:-0}" != 1 ]; then
  run_peer bullet100 peer_bullet --iterations 100
  run_peer bullet10 peer_bullet --iterations 10
  run_peer ode100 peer_ode --iterations 100
  run_peer mujoco100 peer_mujoco --iterations 100
fi
: > "$res"
for name in nonsmooth bullet100 bullet10 ode100 mujoco100; do
  [ -f "$out/$name.txt" ] && grep '^peer:' "$out/$name.txt" >> "$res" || true
done
echo "run.sh: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
awk '
  { for (i = 2; i <= NF; i++) { e = index($i, "="); v[NR, substr($i, 1, e - 1)] = substr($i, e + 1) } rows = NR
    if (v[NR, "engine"] == "bullet" && v[NR, "settings"] ~ /it=100$/) { ref = v[NR, "settled_ms"]; refc = v[NR, "settled_cpu_ms"] } }
  END {
    printf "%-10s %-28s %6s %9s %9s %8s %16s %16s %9s %11s\n", "engine", "settings", "n", "ms/step", "cpu ms/", "run s",
           "overlap max/mean", "wall max/mean", "KE [J]", "x Bullet-100"
    printf "%-10s %-28s %6s %9s %9s %8s %16s %16s %9s %11s\n", "", "", "", "settled", "step", "", "[um]", "[um]", "(end)", "wall/cpu"
    for (r = 1; r <= rows; r++) {
      ratio = ref > 0 && refc > 0 ? sprintf("%.2f/%.2f", v[r, "settled_ms"] / ref, v[r, "settled_cpu_ms"] / refc) : "-"
      printf "%-10s %-28s %6s %9.3g %9.3g %8.3g %16s %16s %9.3g %11s\n", v[r, "engine"], v[r, "settings"], v[r, "n"],
             v[r, "settled_ms"], v[r, "settled_cpu_ms"], v[r, "run_s"],
             sprintf("%.3g/%.3g", v[r, "max_overlap_um"], v[r, "mean_overlap_um"]),
             sprintf("%.3g/%.3g", v[r, "wall_max_overlap_um"], v[r, "wall_mean_overlap_um"]),
             v[r, "kinetic_energy"], ratio
    }
  }' "$res"
