#!/bin/sh
# Mechanics speed side by side with Debian's Siconos 4.4 kernel (python3-siconos):
# the same model, h and solver family on both sides, one run each.
#   bouncing ball: 10^6 Moreau-Jean steps, h = 0.005, 1x1 LCP (ours: default
#                  LCP solver; Siconos: Lemke), whole stepping loop on both sides
#                  (Siconos: TimeStepping.run() in C++);
#   spheres_box:   100 spheres, 1000 steps, h = 1e-3, FC3D NSGS tol 1e-4 (ours:
#                  nsgs-ac; Siconos: SICONOS_FRICTION_3D_NSGS); ours times the
#                  whole loop including contact detection, Siconos only
#                  computeOneStep + nextStep (its detection is numpy).
# Usage: benchmarks/mechanics/run.sh [BUILD_DIR] [BB_STEPS] [SB_STEPS] [SB_HALF]
# Siconos' Python module is installed for the system Python (/usr/bin/python3);
# a python3 earlier in PATH (pyenv, /usr/local) does not see it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
bb=${2:-1000000}
sb=${3:-1000}
half=${4:-0.3}
py=/usr/bin/python3
bin="$build/bin"
[ -x "$bin/bouncing_ball" ] && [ -x "$bin/spheres_box" ] || { echo "build first: $bin/bouncing_ball, $bin/spheres_box" >&2; exit 2; }
have_siconos=1
$py -c 'import siconos.kernel' 2>/dev/null || { have_siconos=0; echo "note: siconos not importable by $py (apt-get install python3-siconos)" >&2; }

secs_of() { sed -n 's/.* in \([0-9.]*\) s .*/\1/p'; }
ours_bb=$("$bin/bouncing_ball" --steps "$bb" | secs_of)
ours_sb=$("$bin/spheres_box" --steps "$sb" --half "$half" | secs_of)
if [ $have_siconos = 1 ]; then
  sic_bb=$($py "$here/siconos_bouncing_ball.py" "$bb" 2>/dev/null | tail -1 | awk '{print $2}')
  sic_sb=$($py "$here/siconos_spheres_box.py" "$sb" 100 "$half" 2>/dev/null | tail -1 | awk '{print $2}')
else
  sic_bb=nan; sic_sb=nan
fi
printf '%-26s %9s %10s %12s %7s\n' case steps "ours (s)" "Siconos (s)" ratio
row() { awk -v c="$1" -v n="$2" -v a="$3" -v b="$4" 'BEGIN { r = (b + 0 > 0) ? sprintf("%.3f", a / b) : "nan";
        printf "%-26s %9d %10.3f %12s %7s\n", c, n, a, b, r }'; }
row "bouncing_ball (LCP)" "$bb" "$ours_bb" "$sic_bb"
row "spheres_box n=100 (FC3D)" "$sb" "$ours_sb" "$sic_sb"
