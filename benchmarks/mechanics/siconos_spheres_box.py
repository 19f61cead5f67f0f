#!/usr/bin/python3
"""spheres_box (examples/spheres_box) with Siconos 4.4's kernel: the same
model, initial state (same generator and draws), contact rule and solver
family. 100 spheres (6 dof: LagrangianLinearTIDS, M = diag(m, m, m, I, I, I)),
contacts as LagrangianLinearTIR with H (3 x 6 or 3 x 12: normal, two
tangents, omega x r terms) and e refreshed before every step so that
y = (gap, 0, 0), NewtonImpactFrictionNSL(e = 0.5, mu = 0.3), Moreau-Jean
theta = 0.5, FrictionContact(3) solved by NSGS (tol 1e-4). A contact exists
while its gap is below 0.1 Rmin + 4 h vmax (added with sim.link, removed
with sim.unlink).

Usage: siconos_spheres_box.py STEPS [N] [HALF] [SEED]
Prints 'steps seconds kinetic_energy contacts' where seconds is the time in
Siconos' computeOneStep + nextStep only (contact detection, in numpy, is not
counted; the C example's time counts its own detection)."""
import sys
import time
import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from siconos_spheres_common import WN, keep as keep_contact  # noqa: E402

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
half = float(sys.argv[3]) if len(sys.argv) > 3 else 0.3
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
h, Rmax, rho, g, e, mu = 1e-3, 0.05, 1000.0, 9.81, 0.5, 0.3
M64 = (1 << 64) - 1
state = [seed]


def urand():
    state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) & M64
    return (state[0] >> 11) / 9007199254740992.0


sp = 2.2 * Rmax
k = max(1, int(np.floor(2.0 * (half - Rmax) / sp)) + 1)
x0 = -0.5 * sp * (k - 1)
nsds = sk.NonSmoothDynamicalSystem(0.0, steps * h)
ds, R, mass = [], np.zeros(n), np.zeros(n)
for i in range(n):
    layer, ix, iy = i // (k * k), (i % (k * k)) % k, (i % (k * k)) // k
    r = Rmax * (0.8 + 0.2 * urand())
    m = rho * 4.0 / 3.0 * 3.14159265358979323846 * r ** 3
    I = 0.4 * m * r * r
    q0 = np.zeros(6)
    q0[0] = x0 + sp * ix + 0.1 * Rmax * (urand() - 0.5)
    q0[1] = x0 + sp * iy + 0.1 * Rmax * (urand() - 0.5)
    q0[2] = 1.2 * Rmax + 2.5 * Rmax * layer
    v0 = np.zeros(6)
    for t in range(3):
        v0[t] = 0.5 / np.sqrt(3.0) * (2.0 * urand() - 1.0)
    for t in range(3, 6):
        v0[t] = 5.0 / np.sqrt(3.0) * (2.0 * urand() - 1.0)
    d = sk.LagrangianLinearTIDS(q0, v0, np.diag([m, m, m, I, I, I]))
    d.setFExtPtr(np.array([0.0, 0.0, -m * g, 0.0, 0.0, 0.0]))
    nsds.insertDynamicalSystem(d)
    ds.append(d)
    R[i], mass[i] = r, m
Rmin = R.min()
law = sk.NewtonImpactFrictionNSL(e, 0.0, mu, 3)
osi = sk.MoreauJeanOSI(0.5)
fc = sk.FrictionContact(3, sn.SICONOS_FRICTION_3D_NSGS)
so = fc.numericsSolverOptions()
so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 100000
so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-4
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), osi, fc)
contacts = {}   # key (i, j) with j >= n for walls -> [interaction, relation, seen]


def detect():
    q = np.array([d.q() for d in ds])
    v = np.array([d.velocity() for d in ds])
    vmax = np.max(np.linalg.norm(v[:, :3], axis=1) + R * np.linalg.norm(v[:, 3:], axis=1))
    margin = 0.1 * Rmin + 4.0 * h * vmax
    for c in contacts.values():
        c[2] = False
    x = q[:, :3]
    gaps = np.stack([x[:, 2] - R, x[:, 0] + half - R, half - x[:, 0] - R,
                     x[:, 1] + half - R, half - x[:, 1] - R], axis=1)
    for i, w in zip(*np.nonzero(gaps < margin)):
        keep_contact(contacts, sim, law, (i, n + w), WN[w], gaps[i, w], q[i], 0.0, R[i], False, [ds[i]])
    dvec = x[None, :, :] - x[:, None, :]
    dist = np.linalg.norm(dvec, axis=2)
    pg = dist - R[:, None] - R[None, :]
    ii, jj = np.nonzero(np.triu(pg < margin, 1))
    for i, j in zip(ii, jj):
        keep_contact(contacts, sim, law, (i, j), dvec[i, j] / dist[i, j], pg[i, j], np.concatenate([q[i], q[j]]),
             R[i], R[j], True, [ds[i], ds[j]])
    for key in [kk for kk, c in contacts.items() if not c[2]]:
        sim.unlink(contacts[key][0])
        del contacts[key]
    fc.setHasBeenUpdated(False)     # H changed: recompute the blocks


secs = 0.0
for s in range(steps):
    detect()
    t0 = time.perf_counter()
    sim.computeOneStep()
    sim.nextStep()
    secs += time.perf_counter() - t0
ke = sum(0.5 * d.velocity().dot(d.mass().dot(d.velocity())) if hasattr(d, 'mass') else 0.0 for d in ds)
print(steps, "%.4f" % secs, "%.6g" % ke, len(contacts))
