#!/usr/bin/env python3
"""Spheres falling into an open box, from Python: the scene of
examples/spheres_box (C) — n spheres of 6 dof (radius uniform in
[0.8, 1] Rmax, Rmax = 0.05 m, density 1000), jittered lattice, random
velocities and spins from the same generator and seed, so the same initial
state; floor and four walls at +-half; Newton e = 0.5, Coulomb mu = 0.3;
Moreau-Jean theta = 1/2, h = 1e-3, the library's FC3D default at tol 1e-3
(--tol), overlap stabilisation 0.2, resting contacts held within
2.5e-4 Rmin (--hold), contacts ordered by system: the C example's defaults.

Contacts change every step: a before_step hook of Simulation.run reads all
positions at once (sim.state()), finds the contacts within the margin
(0.1 Rmin + 4 h vmax, as the C example) with NumPy (walls) and a k-d tree
(sphere pairs), builds every contact's H and b in one vectorised pass, and
updates the live model: kept contacts through Model.set_relations (one call
for all of them: their interaction ids stay, so the solver's warm start is
kept), new ones with add_interaction, vanished ones with remove_interaction.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/spheres_box.py \\
        [--n 100] [--seed 1] [--steps 2000] [--profile K] [--quiet]

With --profile K it prints the CPU time per step over the steps >= K, split
into the Python hook (detection and model update) and the rest, in the
units of `spheres_box --profile K` (cpu_ms); the same scene in C:
    build/bin/spheres_box --n N --seed S --steps STEPS --profile K --quiet
"""
import argparse
import math
import time

import numpy as np
from scipy.spatial import cKDTree

import nonsmooth as ns

ap = argparse.ArgumentParser()
ap.add_argument("--n", type=int, default=100)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--steps", type=int, default=2000)
ap.add_argument("--h", type=float, default=1e-3)
ap.add_argument("--half", type=float, default=0.3)
ap.add_argument("--e", type=float, default=0.5)
ap.add_argument("--mu", type=float, default=0.3)
ap.add_argument("--profile", type=int, default=-1)
ap.add_argument("--tol", type=float, default=1e-3)
ap.add_argument("--hold", type=float, default=None, help="activation hold in m (default 2.5e-4 Rmin)")
ap.add_argument("--quiet", action="store_true")
a = ap.parse_args()

RMAX, RHO, G = 0.05, 1000.0, 9.81
MASK = (1 << 64) - 1


class Lcg:
    """The C example's generator (64-bit LCG, 53-bit doubles)."""
    def __init__(self, seed):
        self.s = seed

    def __call__(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & MASK
        return (self.s >> 11) / 9007199254740992.0


def scene(n, seed, half):
    rnd = Lcg(seed)
    sp = 2.2 * RMAX
    k = int(math.floor(2.0 * (half - RMAX) / sp)) + 1
    x0 = y0 = -0.5 * sp * (k - 1)
    R, q, v = np.empty(n), np.zeros((n, 6)), np.zeros((n, 6))
    for i in range(n):
        layer, ix, iy = i // (k * k), (i % (k * k)) % k, (i % (k * k)) // k
        R[i] = RMAX * (0.8 + 0.2 * rnd())
        q[i, 0] = x0 + sp * ix + 0.1 * RMAX * (rnd() - 0.5)
        q[i, 1] = y0 + sp * iy + 0.1 * RMAX * (rnd() - 0.5)
        q[i, 2] = 1.2 * RMAX + 2.5 * RMAX * layer
        for t in range(3):
            v[i, t] = 0.5 / math.sqrt(3.0) * (2.0 * rnd() - 1.0)
        for t in range(3, 6):
            v[i, t] = 5.0 / math.sqrt(3.0) * (2.0 * rnd() - 1.0)
    return R, q, v


def cross(u, v):
    """u x v over the last axis (np.cross without its generic overhead)."""
    out = np.empty(np.broadcast_shapes(u.shape, v.shape))
    out[..., 0] = u[..., 1] * v[..., 2] - u[..., 2] * v[..., 1]
    out[..., 1] = u[..., 2] * v[..., 0] - u[..., 0] * v[..., 2]
    out[..., 2] = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    return out


def frames(nrm):
    """(k, 3, 3): rows n, t1, t2 per normal, t1 as the C example picks it."""
    a_ = np.zeros_like(nrm)
    big = np.abs(nrm[:, 0]) > 0.6
    a_[~big, 0] = 1.0
    a_[big, 1] = 1.0
    t1 = a_ - np.sum(a_ * nrm, axis=1)[:, None] * nrm
    t1 /= np.sqrt(np.einsum("ki,ki->k", t1, t1))[:, None]
    t2 = cross(nrm, t1)
    return np.stack([nrm, t1, t2], axis=1)


def contact_rows(nrm, gap, R2, Q2, R1=None, Q1=None):
    """H (k, 3, 6 or 12) and b (k, 3) of contacts with normal nrm (into body 2):
    the normal and tangential velocity of body 2 relative to body 1 at the
    contact point, y = (gap, 0, 0) at the current positions."""
    F = frames(nrm)                                  # (k, 3, 3)
    nt = cross(nrm[:, None, :], F)                   # n x t_r
    nt[:, 0, :] = 0.0
    two = R1 is not None
    H = np.zeros((len(gap), 3, 12 if two else 6))
    o2 = 6 if two else 0
    H[:, :, o2:o2 + 3] = F
    H[:, :, o2 + 3:o2 + 6] = -R2[:, None, None] * nt
    Q = Q2
    if two:
        H[:, :, 0:3] = -F
        H[:, :, 3:6] = -R1[:, None, None] * nt
        Q = np.concatenate([Q1, Q2], axis=1)
    b = -np.einsum("krc,kc->kr", H, Q)
    b[:, 0] += gap
    return H, b


R, q0, v0 = scene(a.n, a.seed, a.half)
n = a.n
mass = RHO * 4.0 / 3.0 * math.pi * R ** 3
model = ns.Model()
ds = [model.add_lagrangian(np.diag([m, m, m, 0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r]),
                           q0[i], v0[i], fext=[0.0, 0.0, -m * G, 0.0, 0.0, 0.0])
      for i, (m, r) in enumerate(zip(mass, R))]
law = model.add_law("newton_coulomb", dim=3, e=a.e, mu=a.mu)
hold = 2.5e-4 * float(R.min()) if a.hold is None else a.hold
sim = ns.Simulation(model, h=a.h, theta=0.5, tol=a.tol, stabilization=0.2, activation_hold=hold,
                    order_by_system=True)

WALLS = np.array([[0, 0, 1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], float)
table = np.full(n * (n + 5), -1, dtype=np.intp)   # contact key -> interaction id
mark = np.zeros(n * (n + 5), dtype=bool)
live_keys = [np.zeros(0, dtype=np.intp)]
margin0 = 0.1 * R.min()
hook_cpu = [0.0]
counts = {"added": 0, "removed": 0}


def update_contacts(s):
    t0 = time.process_time()
    st = s.state()
    Q = st["q"].reshape(n, 6)
    V = st["v"].reshape(n, 6)
    vmax = np.max(np.linalg.norm(V[:, :3], axis=1) + R * np.linalg.norm(V[:, 3:], axis=1))
    margin = margin0 + 4.0 * a.h * vmax
    x = Q[:, :3]
    # walls: floor z = 0, x = -+half, y = -+half (normals into the box)
    gaps = np.stack([x[:, 2] - R, x[:, 0] + a.half - R, a.half - x[:, 0] - R,
                     x[:, 1] + a.half - R, a.half - x[:, 1] - R], axis=1)
    wi, ww = np.nonzero(gaps < margin)
    Hw, bw = contact_rows(WALLS[ww], gaps[wi, ww], R[wi], Q[wi])
    # sphere pairs: candidates from a k-d tree, then the exact gap
    pairs = cKDTree(x).query_pairs(2.0 * RMAX + margin, output_type="ndarray")
    if len(pairs):
        pi, pj = pairs[:, 0], pairs[:, 1]
        d = x[pj] - x[pi]
        dist = np.linalg.norm(d, axis=1)
        gap = dist - R[pi] - R[pj]
        keep = (gap < margin) & (dist > 0)
        pi, pj, d, dist, gap = pi[keep], pj[keep], d[keep], dist[keep], gap[keep]
        swap = pi > pj
        pi, pj = np.where(swap, pj, pi), np.where(swap, pi, pj)
        d[swap] = -d[swap]
        Hp, bp = contact_rows(d / dist[:, None], gap, R[pj], Q[pj], R[pi], Q[pi])
    else:
        pi = pj = np.zeros(0, int)
        Hp, bp = np.zeros((0, 3, 12)), np.zeros((0, 3))
    # contact keys i * (n + 5) + other (other: j > i, or n + wall): the
    # interaction of each key in a dense table, so that the kept contacts
    # are found and updated without a Python loop over them
    keys_w, keys_p = wi * (n + 5) + n + ww, pi * (n + 5) + pj
    for keys, H, b, two in ((keys_w, Hw, bw, False), (keys_p, Hp, bp, True)):
        ids = table[keys]
        kept = ids >= 0
        if kept.any():          # every kept contact in one call
            model.set_relations(ids[kept], H[kept], b[kept])
        for r in np.nonzero(~kept)[0].tolist():
            i, other = divmod(int(keys[r]), n + 5)
            table[keys[r]] = model.add_interaction(law, ds[i], ds[other] if two else -1, H=H[r], b=b[r])
            counts["added"] += 1
    now = np.concatenate([keys_w, keys_p])
    mark[now] = True
    prev = live_keys[0]
    for key in prev[~mark[prev]].tolist():   # contacts whose gap left the margin
        model.remove_interaction(int(table[key]))
        table[key] = -1
        counts["removed"] += 1
    mark[now] = False
    live_keys[0] = now
    hook_cpu[0] += time.process_time() - t0


# the steps before --profile K are run first, then the profiled ones
k0 = a.profile if a.profile >= 0 else 0
if k0 > 0:
    sim.run(k0 * a.h, every=k0, before_step=update_contacts)
hook_cpu[0] = 0.0
it0 = sim.stats["solver_iterations"]
c0 = time.process_time()
sim.run((a.steps) * a.h, every=a.steps, before_step=update_contacts)
cpu = time.process_time() - c0
nprof = a.steps - k0
st = sim.state()
V = st["v"].reshape(n, 6)
ke = 0.5 * float(np.sum(mass * np.sum(V[:, :3] ** 2, axis=1)) +
                 np.sum(0.4 * mass * R * R * np.sum(V[:, 3:] ** 2, axis=1)))
x = st["q"].reshape(n, 6)[:, :3]
pen = max(0.0, float(np.max(-(np.stack([x[:, 2] - R, x[:, 0] + a.half - R, a.half - x[:, 0] - R,
                                         x[:, 1] + a.half - R, a.half - x[:, 1] - R], axis=1)))))
pairs = cKDTree(x).query_pairs(2.0 * RMAX, output_type="ndarray")
if len(pairs):
    gap = np.linalg.norm(x[pairs[:, 1]] - x[pairs[:, 0]], axis=1) - R[pairs[:, 0]] - R[pairs[:, 1]]
    pen = max(pen, float(np.max(-gap)))
outside = int(np.sum((np.abs(x[:, 0]) > a.half) | (np.abs(x[:, 1]) > a.half) | (x[:, 2] < 0)))
if not a.quiet:
    print(f"n = {n}, {a.steps} steps, t = {sim.t:.4g} s: {len(live_keys[0])} contacts, "
          f"kinetic energy {ke:.3g} J, {counts['added']} added / {counts['removed']} removed, "
          f"max penetration {pen:.3g} m, {outside} outside the box")
if a.profile >= 0:
    print(f"profile: n={n} steps={nprof} contacts={len(live_keys[0])} cpu_ms={1e3 * cpu / nprof:.4g} "
          f"hook_cpu_ms={1e3 * hook_cpu[0] / nprof:.4g} "
          f"sweeps={(sim.stats['solver_iterations'] - it0) / nprof:.4g} kinetic_energy={ke:.4g}")
