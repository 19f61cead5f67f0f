#!/usr/bin/env python3
"""Cost of Python callbacks in a nonlinear simulation: the pendulum
q'' + g sin q = 0 (n = 1, h = 1e-3, 0.5 s, best of 30 runs) as
add_lagrangian_nonlinear with Python mass/fint/jac_fint, against an LTI
system of the same size (the library's per-step cost without callbacks),
side by side in one process.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/callbacks.py
"""
import math
import time

import nonsmooth as ns

G, H, T = 9.81, 1e-3, 0.5
calls = 0


def mass(q):
    global calls
    calls += 1
    return [[1.0]]


def fint(t, q, v):
    global calls
    calls += 1
    return [G * math.sin(q[0])]


def jac_fint(t, q, v):
    global calls
    calls += 1
    return [[G * math.cos(q[0])]], [[0.0]]


def nonlinear():
    m = ns.Model()
    m.add_lagrangian_nonlinear([1.0], [0.0], mass=mass, fint=fint, jac_fint=jac_fint)
    return ns.Simulation(m, h=H)


def lti():
    m = ns.Model()
    m.add_lagrangian([[1.0]], [1.0], [0.0], K=[[G]])
    return ns.Simulation(m, h=H)


def timed(make):
    s = make()
    t0 = time.perf_counter()
    s.run(T)
    return time.perf_counter() - t0, s.steps


best_nl = best_lti = float("inf")
for _ in range(30):
    calls = 0
    t, steps = timed(nonlinear)
    ncalls = calls
    best_nl = min(best_nl, t)
    best_lti = min(best_lti, timed(lti)[0])

per_step_nl, per_step_lti = best_nl / steps * 1e6, best_lti / steps * 1e6
per_call = (best_nl - best_lti) / ncalls * 1e6
print(f"pendulum, {steps} steps, {ncalls} Python callback calls ({ncalls / steps:.1f} per step)")
print(f"  nonlinear with Python callbacks  {per_step_nl:7.2f} us/step")
print(f"  LTI of the same size (no calls)  {per_step_lti:7.2f} us/step")
print(f"  => about {per_call:.2f} us per callback call (array copies in and out included)")
