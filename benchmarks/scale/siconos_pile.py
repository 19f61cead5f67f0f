#!/usr/bin/python3
"""The scale benchmark's pile (examples/spheres_box --scene pile) stepped by
Siconos 4.4's kernel from a given state, for the side-by-side figure of
docs/scale.md (benchmarks/scale/vs_siconos.sh runs both sides).

The state is the file spheres_box --out DIR writes after its last step
(DIR/final.csv: one row per sphere i, x, y, z, R, v (3), omega (3)): the
C example runs K steps and writes it; this script continues from it for
STEPS + 1 steps (the first, with Siconos' initialisation, not counted) with the same model: LagrangianLinearTIDS per sphere
(M = diag(m, m, m, I, I, I), m = 1000 * 4/3 pi R^3, I = 2/5 m R^2, gravity
(0, 0, -9.81)), a LagrangianLinearTIR per contact (H: normal and two
tangents with the omega x r terms; e set so that y = (gap, 0, 0)),
NewtonImpactFrictionNSL(e = 0.5, mu = 0.3), MoreauJeanOSI(theta = 0.5),
FrictionContact(3) with NSGS at tol TOL (Siconos' default local solver;
max 100000 sweeps; W in sparse block storage, NM_SPARSE_BLOCK), h = 1e-3; floor z = 0 and walls x = +-AX, y = +-AY.
A contact exists while its gap is below 0.1 Rmin + 4 h vmax, as in the C
example (added with sim.link, removed with sim.unlink).

What is timed: Siconos' computeOneStep + nextStep (its index sets, OSNSP
assembly, NSGS, update) with perf_counter (wall) and process_time (CPU).
Not timed: contact detection (a scipy cKDTree over the centres plus the
numpy construction of each contact's H and e and the link/unlink calls:
that is Python, and the C side's own detection is counted on its side).

Usage: siconos_pile.py FINAL_CSV AX AY STEPS [TOL]
Prints one line: 'siconos: n=... steps=... wall_ms=... cpu_ms=...
contacts=... active=... sweeps=...' (per step means)."""
import sys
import time
import numpy as np
from scipy.spatial import cKDTree
import siconos.kernel as sk
import siconos.numerics as sn
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mechanics"))
from siconos_spheres_common import WN, keep as keep_contact  # noqa: E402

if len(sys.argv) < 5:
    sys.exit("usage: siconos_pile.py FINAL_CSV AX AY STEPS [TOL]")
path, ax, ay, steps = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
tol = float(sys.argv[5]) if len(sys.argv) > 5 else 1e-4
h, rho, g, e, mu = 1e-3, 1000.0, 9.81, 0.5, 0.3
st = np.loadtxt(path, delimiter=",", skiprows=1)
n = st.shape[0]
R = st[:, 4].copy()
Rmin = R.min()

nsds = sk.NonSmoothDynamicalSystem(0.0, (steps + 2) * h)   # steps + 1 are run
ds = []
for i in range(n):
    r = R[i]
    m = rho * 4.0 / 3.0 * 3.14159265358979323846 * r ** 3
    I = 0.4 * m * r * r
    q0 = np.array([st[i, 1], st[i, 2], st[i, 3], 0.0, 0.0, 0.0])
    v0 = st[i, 5:11].copy()
    d = sk.LagrangianLinearTIDS(q0, v0, np.diag([m, m, m, I, I, I]))
    d.setFExtPtr(np.array([0.0, 0.0, -m * g, 0.0, 0.0, 0.0]))
    nsds.insertDynamicalSystem(d)
    ds.append(d)
law = sk.NewtonImpactFrictionNSL(e, 0.0, mu, 3)
osi = sk.MoreauJeanOSI(0.5)
fc = sk.FrictionContact(3, sn.SICONOS_FRICTION_3D_NSGS)
# the W matrix in Siconos' sparse block storage, as its mechanics component
# sets it: the default is a dense matrix sized by the interactions (9 s per
# step at 1000 spheres, std::bad_alloc at 10^4)
fc.setMStorageType(sn.NM_SPARSE_BLOCK)
so = fc.numericsSolverOptions()
so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 100000
so.dparam[sn.SICONOS_DPARAM_TOL] = tol
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), osi, fc)
contacts = {}   # (i, j), j >= n for walls -> [interaction, relation, seen]


def detect():
    q = np.array([d.q() for d in ds])
    v = np.array([d.velocity() for d in ds])
    vmax = np.max(np.linalg.norm(v[:, :3], axis=1) + R * np.linalg.norm(v[:, 3:], axis=1))
    margin = 0.1 * Rmin + 4.0 * h * vmax
    for c in contacts.values():
        c[2] = False
    x = q[:, :3]
    gaps = np.stack([x[:, 2] - R, x[:, 0] + ax - R, ax - x[:, 0] - R,
                     x[:, 1] + ay - R, ay - x[:, 1] - R], axis=1)
    for i, w in zip(*np.nonzero(gaps < margin)):
        keep_contact(contacts, sim, law, (i, n + w), WN[w], gaps[i, w], q[i], 0.0, R[i], False, [ds[i]])
    pairs = cKDTree(x).query_pairs(2.0 * R.max() + margin, output_type="ndarray")
    for i, j in pairs:
        i, j = (i, j) if i < j else (j, i)
        dv = x[j] - x[i]
        dist = np.linalg.norm(dv)
        gap = dist - R[i] - R[j]
        if gap < margin and dist > 0:
            keep_contact(contacts, sim, law, (i, j), dv / dist, gap, np.concatenate([q[i], q[j]]), R[i], R[j], True, [ds[i], ds[j]])
    for key in [kk for kk, c in contacts.items() if not c[2]]:
        sim.unlink(contacts[key][0])
        del contacts[key]
    fc.setHasBeenUpdated(False)     # H changed: recompute the blocks


wall = cpu = 0.0
ncont = nact = sweeps = 0
done, failed = 0, ""
for s in range(steps + 1):      # the first step (Siconos' initialisation) is not counted
    detect()
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        sim.computeOneStep()
    except Exception as ex:     # e.g. its solver's failure: the steps before are reported
        failed = " failed_at_step=%d (%s: %s)" % (s, type(ex).__name__, str(ex).replace(" ", "_")[:80])
        break
    sim.nextStep()
    if s > 0:
        done += 1
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        ncont += len(contacts)
        nact += fc.getSizeOutput() // 3
        sweeps += so.iparam[sn.SICONOS_IPARAM_ITER_DONE]
    print("siconos_pile: step %d/%d" % (s, steps), file=sys.stderr)
k = max(done, 1)
print("siconos: n=%d steps=%d wall_ms=%.4g cpu_ms=%.4g contacts=%.0f active=%.0f sweeps=%.4g tol=%g%s"
      % (n, done, 1e3 * wall / k, 1e3 * cpu / k, ncont / k, nact / k, sweeps / k, tol, failed))
