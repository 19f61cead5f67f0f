#!/usr/bin/env python3
"""Read a problem file, compare solvers on it, plot error against iterations.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/read_solve_plot.py \
        [FILE] [--out DIR] [--solvers a,b,c]

FILE defaults to ../shared/data/fc3d/Capsules-i100-889.dat. Prints one line
per solver (status, error, iterations, seconds) and writes DIR/convergence.svg
(error reached within 1, 2, 4, ... iterations, one curve per solver).
"""
import argparse
import os
import pathlib
import sys

import numpy as np

import nonsmooth as ns
from _plot import plot

here = pathlib.Path(__file__).resolve().parent
ap = argparse.ArgumentParser()
ap.add_argument("file", nargs="?", default=str(here.parents[2] / "shared/data/fc3d/Capsules-i100-889.dat"))
ap.add_argument("--out", default="out/python")
ap.add_argument("--solvers", default=None,
                help="comma-separated (default: up to 4 of auto, nsgs-ac, nsn-ac, prox, lemke, pgs, newton-fb)")
ap.add_argument("--tol", type=float, default=1e-8)
a = ap.parse_args()

problem = ns.read(a.file)                          # kind detected from the content
print(f"{a.file}: {problem.kind}, {problem.size} unknowns")
known = [s["name"] for s in ns.solvers(problem.kind)]   # the registry, with descriptions
names = a.solvers.split(",") if a.solvers else [
    n for n in ("auto", "nsgs-ac", "nsn-ac", "prox", "lemke", "pgs", "newton-fb") if n == "auto" or n in known][:4]

curves = []
for name in names:
    r = ns.solve(problem, name, tol=a.tol, time_limit=10.0)
    print(f"  {r.solver:12s} {r.status:10s} error {r.error:9.2e}  {r.iterations:6d} it  {r.seconds:8.4f} s")
    its = [k for k in 2 ** np.arange(0, 13) if k <= max(r.iterations, 1)]
    errs = [ns.solve(problem, name, tol=a.tol, max_iter=int(k), time_limit=10.0).error for k in its]
    its.append(max(r.iterations, 1))
    errs.append(r.error)                           # the run to tol ends the curve
    curves.append((name, its, [max(e, 1e-17) for e in errs]))

os.makedirs(a.out, exist_ok=True)
svg = plot(os.path.join(a.out, "convergence.svg"), curves,
           f"{pathlib.Path(a.file).name} ({problem.kind})", "iterations (max_iter)", "error", logy=True, logx=True)
print(f"wrote {svg}")
sys.exit(0)
