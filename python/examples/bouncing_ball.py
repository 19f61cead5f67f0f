#!/usr/bin/env python3
"""The bouncing ball from Python (examples/bouncing_ball in C): a ball of
radius R = 0.1, mass 1, dropped from z = 1 onto the plane z = 0, Newton
restitution e = 0.9, Moreau-Jean theta = 1/2, h = 0.005, T = 10.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/bouncing_ball.py [--out DIR]

Prints the impacts and the energy; writes DIR/trajectory.csv (t, z, v,
lambda = P/h, energy), DIR/bouncing_ball.svg (height) and DIR/energy.svg.
"""
import argparse
import os

import numpy as np

import nonsmooth as ns
from _plot import plot

ap = argparse.ArgumentParser()
ap.add_argument("--out", default="out/python")
ap.add_argument("--h", type=float, default=0.005)
ap.add_argument("--T", type=float, default=10.0)
a = ap.parse_args()

g, R, e, mass = 9.81, 0.1, 0.9, 1.0
model = ns.Model()
# q = (z, x, rotation); M q'' = fext + p
ball = model.add_lagrangian(np.diag([mass, mass, 0.4 * mass * R ** 2]),
                            q0=[1.0, 0.0, 0.0], v0=[0.0, 0.0, 0.0],
                            fext=[-mass * g, 0.0, 0.0])
newton = model.add_law("newton", e=e)
# y = H q + b = z - R >= 0 (the gap)
floor = model.add_interaction(newton, ball, H=[[1.0, 0.0, 0.0]], b=[-R])

sim = ns.Simulation(model, h=a.h, theta=0.5)
traj = sim.run(a.T)                                # NumPy arrays, one row per step

t = traj["t"]
z, v = traj["q"][ball][:, 0], traj["v"][ball][:, 0]
P = traj["lambda"][floor][:, 0]                    # impulse of each step
E = 0.5 * mass * v ** 2 + mass * g * z

impacts = np.flatnonzero((v[1:] > 0) & (v[:-1] < -1e-3))
for k in impacts[:5]:
    print(f"impact at t = {t[k + 1]:.4f} s: v {v[k]:+.4f} -> {v[k + 1]:+.4f} m/s")
print(f"{len(impacts)} impacts in {a.T} s; energy {E[0]:.4f} -> {E[-1]:.6f} J; "
      f"largest energy rise between steps {max(np.diff(E).max(), 0):.2e} J")
print(f"stats: {sim.stats}")

os.makedirs(a.out, exist_ok=True)
np.savetxt(os.path.join(a.out, "trajectory.csv"), np.column_stack([t, z, v, P / a.h, E]),
           delimiter=",", header="t,z,v,lambda,energy", comments="", fmt="%.12g")
plot(os.path.join(a.out, "bouncing_ball.svg"), [("z", t, z)], "bouncing ball, e = 0.9", "t (s)", "height z (m)")
plot(os.path.join(a.out, "energy.svg"), [("E", t, E)], "bouncing ball: energy", "t (s)", "energy (J)")
print(f"wrote {a.out}/trajectory.csv, bouncing_ball.svg, energy.svg")
