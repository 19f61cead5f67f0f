#!/usr/bin/env python3
"""The bouncing ball with the event-driven scheme (nonsmooth.EventDriven):
the ball of bouncing_ball.py (R = 0.1, mass 1, dropped from z = 1, Newton
restitution e = 0.9), integrated by CVODE between impacts, each impact
located by root finding and treated exactly; after the accumulation time
t_inf = t1 + 2 e v1 / (g (1 - e)) the ball rests on the plane.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/bouncing_ball_ed.py [--out DIR]

Prints the first impacts against the closed form t_{k+1} = t_k + 2 e^k v1 / g
and the state at T; writes DIR/trajectory_ed.csv (t, z, v, force lambda[2],
energy, event) and DIR/bouncing_ball_ed.svg (height).
"""
import argparse
import math
import os

import numpy as np

import nonsmooth as ns
from _plot import plot

ap = argparse.ArgumentParser()
ap.add_argument("--out", default="out/python")
ap.add_argument("--T", type=float, default=10.0)
ap.add_argument("--output-step", type=float, default=0.005)
a = ap.parse_args()

g, R, e, mass, z0 = 9.81, 0.1, 0.9, 1.0, 1.0
model = ns.Model()
ball = model.add_lagrangian(np.diag([mass, mass, 0.4 * mass * R ** 2]),
                            q0=[z0, 0.0, 0.0], v0=[0.0, 0.0, 0.0],
                            fext=[-mass * g, 0.0, 0.0])
floor = model.add_interaction(model.add_law("newton", e=e), ball, H=[[1.0, 0.0, 0.0]], b=[-R])

ed = ns.EventDriven(model, T=a.T, output_step=a.output_step, rtol=1e-14, atol=1e-16)
traj = ed.run()              # one row at the start and one per processed event

impacts = [ev for ev in ed.events if ev["type"] == "nonsmooth" and ev["impact"]]
v1 = math.sqrt(2 * g * (z0 - R))
tk, vk = math.sqrt(2 * (z0 - R) / g), v1
for ev in impacts[:5]:
    print(f"impact at t = {ev['t']:.10f} s (exact {tk:.10f}): "
          f"v {ev['y1_before']:+.6f} -> {ev['y1_after']:+.6f} m/s")
    tk, vk = tk + 2 * e * vk / g, e * vk
tinf = math.sqrt(2 * (z0 - R) / g) + 2 * e * v1 / (g * (1 - e))
print(f"{len(impacts)} impacts, the last at t = {impacts[-1]['t']:.6f} s "
      f"(accumulation at {tinf:.6f} s)")
print(f"at t = {ed.t:g}: z = {ed.q(ball)[0]:.12f}, v = {ed.v(ball)[0]:.3g}, "
      f"contact force {ed.lam(floor)[0]:.6f} N, resting contacts {ed.index_set(2)}")
print(f"stats: {ed.stats}")

t, kind = traj["t"], traj["event"]
z, v = traj["q"][ball][:, 0], traj["v"][ball][:, 0]
force = traj["lambda"][floor][:, 0]
E = 0.5 * mass * v ** 2 + mass * g * z
os.makedirs(a.out, exist_ok=True)
with open(os.path.join(a.out, "trajectory_ed.csv"), "w") as f:
    f.write("t,z,v,lambda,energy,event\n")
    for row in zip(t, z, v, force, E, kind):
        f.write(",".join(f"{x:.12g}" for x in row[:5]) + f",{row[5]}\n")
plot(os.path.join(a.out, "bouncing_ball_ed.svg"), [("z", t, z)],
     "bouncing ball, event-driven, e = 0.9", "t (s)", "height z (m)")
print(f"wrote {a.out}/trajectory_ed.csv, bouncing_ball_ed.svg")
