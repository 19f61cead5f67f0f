#!/usr/bin/env python3
"""Python overhead of nonsmooth.solve on a 3x3 LCP, measured against the same
loop in C (nonsmooth._core._c_loop: the library calls a C program would make),
side by side in one process, interleaved, best of R short rounds of N calls
(the minimum over many short rounds shrugs off the preemptions of a shared
machine).

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python/lcp_overhead.py [N] [R]

Two loops:
  solve        ns.solve(p)                    (problem built once)
  build+solve  ns.solve(ns.lcp(M, q))         (problem made from the NumPy arrays
                                               every call; C: dense_new + lcp_new +
                                               validate + solve + free)
Exit status 1 when an overhead exceeds the 5 us budget.
"""
import sys
import time

import numpy as np

import nonsmooth as ns

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
R = int(sys.argv[2]) if len(sys.argv) > 2 else 60
BUDGET_US = 5.0

M = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
q = np.array([-1.0, -1.0, -1.0])
p = ns.lcp(M, q)
solver = ns.solve(p).solver          # what "auto" resolves to; the C loop uses the same
assert ns.solve(p).converged


def py_solve(n):
    s, pp = ns.solve, p
    t0 = time.perf_counter()
    for _ in range(n):
        s(pp)
    return (time.perf_counter() - t0) / n


def py_build_solve(n):
    s, lcp, MM, qq = ns.solve, ns.lcp, M, q
    t0 = time.perf_counter()
    for _ in range(n):
        s(lcp(MM, qq))
    return (time.perf_counter() - t0) / n


best = {k: float("inf") for k in ("c", "py", "c_build", "py_build")}
c_loop = ns._core._c_loop
for _ in range(R):
    best["c"] = min(best["c"], c_loop(M, q, solver, N, False))
    best["py"] = min(best["py"], py_solve(N))
    best["c_build"] = min(best["c_build"], c_loop(M, q, solver, N, True))
    best["py_build"] = min(best["py_build"], py_build_solve(N))

us = {k: v * 1e6 for k, v in best.items()}
o1, o2 = us["py"] - us["c"], us["py_build"] - us["c_build"]
print(f"3x3 LCP, solver {solver}, {N} calls x {R} rounds (best round), us per call:")
print(f"  solve        C {us['c']:7.3f}   Python {us['py']:7.3f}   overhead {o1:6.3f} us")
print(f"  build+solve  C {us['c_build']:7.3f}   Python {us['py_build']:7.3f}   overhead {o2:6.3f} us")
print(f"budget {BUDGET_US} us: {'ok' if max(o1, o2) <= BUDGET_US else 'EXCEEDED'}")
sys.exit(0 if max(o1, o2) <= BUDGET_US else 1)
