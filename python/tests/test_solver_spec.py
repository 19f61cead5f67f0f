"""Solver specs NAME[/key=value]... mean the same everywhere: the same spec
gives the same iterations and error through nsolve, nsbench, Python's
solve() and a time-stepping simulation's one-step solve; bad keys are
refused with the solver's valid keys."""
import csv
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import nonsmooth as ns

BIN = pathlib.Path(os.environ.get("NS_BIN_DIR", pathlib.Path(ns.__file__).resolve().parents[2] / "bin"))
SPEC = "nsgs/anderson=3/omega=1.1/local=fb/tol=1e-9"


def _tool(name):
    exe = BIN / name
    if not exe.is_file():
        pytest.skip(f"no {exe}")
    return str(exe)


def test_same_spec_same_result_nsolve_nsbench_python(shared, tmp_path):
    f = shared / "fc3d" / "Capsules-i100-889.dat"
    r = ns.solve(ns.read(str(f)), SPEC)
    assert r.converged and r.error <= 1e-9
    # the spec's keys did reach the solver: the plain solver takes another path
    plain = ns.solve(ns.read(str(f)), "nsgs", tol=1e-9)
    assert plain.iterations != r.iterations
    # keyword arguments are the same options
    kw = ns.solve(ns.read(str(f)), "nsgs", anderson=3, omega=1.1, local_solver="fb", tol=1e-9)
    assert (kw.iterations, kw.error) == (r.iterations, r.error)

    out = subprocess.run([_tool("nsolve"), "--json", "--solver", SPEC, str(f)],
                         capture_output=True, text=True, check=True)
    j = json.loads(out.stdout)
    assert j["solver"] == "nsgs" and j["status"] == "converged"
    assert j["iterations"] == r.iterations and j["error"] == r.error

    csv_path = tmp_path / "bench.csv"
    subprocess.run([_tool("nsbench"), "--solvers", SPEC, "--out", str(csv_path), str(f)],
                   capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(open(csv_path)))
    assert len(rows) == 1 and rows[0]["solver"] == SPEC and rows[0]["status"] == "converged"
    assert int(rows[0]["iterations"]) == r.iterations
    assert float(rows[0]["error"]) == pytest.approx(r.error, rel=1e-6)   # printed with 7 digits


def test_same_spec_same_result_in_a_simulation(tmp_path):
    """A column of n beads resting on the floor and on each other: one step's
    LCP solved by the simulation with a spec, then the dumped problem solved
    by solve() with the same spec: same iterations, same error. The impulses
    carry the weight above each contact (k beads: k m g h)."""
    n, g, h = 12, 9.81, 1e-3
    spec = "pgs/omega=1.3/tol=1e-12/max_iter=100000"
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(n), q0=np.zeros(n), v0=np.zeros(n), fext=np.full(n, -g))
    law = m.add_law("newton", e=0.0)
    inters = []
    for i in range(n):
        H = np.zeros((1, n))
        H[0, i] = 1.0
        if i > 0:
            H[0, i - 1] = -1.0
        inters.append(m.add_interaction(law, ds, H=H))
    sim = ns.Simulation(m, h=h, solver=spec, warm_start=False, dump_dir=str(tmp_path), dump_max=1)
    sim.step()
    lr = sim.last_result
    assert lr["kind"] == "lcp" and lr["status"] == "converged"
    files = sorted(tmp_path.glob("*.dat"))
    assert len(files) == 1
    p = ns.read(str(files[0]))
    r = ns.solve(p, spec)
    assert (r.iterations, r.error) == (lr["iterations"], lr["error"])
    assert ns.solve(p, "pgs/tol=1e-12/max_iter=100000").iterations != r.iterations
    for i, it in enumerate(inters):
        assert sim.lam(it, 1)[0] == pytest.approx((n - i) * g * h, rel=1e-9)


def test_bad_specs_are_refused_everywhere(shared):
    p = ns.lcp([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0])
    with pytest.raises(ns.InputError, match=r"no option 'andersen'.*valid: tol, max_iter, time_limit, omega"):
        ns.solve(p, "pgs/andersen=3")
    with pytest.raises(ns.InputError, match=r"omega='2'"):
        ns.solve(p, "pgs/omega=2")
    with pytest.raises(ns.InputError, match=r"unknown solver 'nope/omega=1' for kind lcp"):
        ns.solve(p, "nope/omega=1")
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(1), q0=[1.0], v0=[0.0])
    m.add_interaction(m.add_law("newton", e=0.5), ds, H=[[1.0]])
    with pytest.raises(ns.InputError, match=r"no option 'andersen'"):
        ns.Simulation(m, h=1e-3, solver="nsgs-ac/andersen=3")
    out = subprocess.run([_tool("nsolve"), "--solver", "nsgs-ac/andersen=3",
                          str(shared / "fc3d" / "Capsules-i100-889.dat")], capture_output=True, text=True)
    assert out.returncode == 2 and "valid: tol, max_iter, time_limit, omega, anderson" in out.stderr
    out = subprocess.run([_tool("nsbench"), "--solvers", "nsgs-ac/andersen=3",
                          str(shared / "fc3d" / "Capsules-i100-889.dat")], capture_output=True, text=True)
    assert out.returncode == 2 and "valid: tol, max_iter" in out.stderr


def test_list_solvers_options_prints_each_solvers_keys():
    out = subprocess.run([_tool("nsolve"), "--list-solvers", "--options", "--kind", "fc3d"],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("fc3d") and l.split()[1] == "nsgs")
    keys = []
    for l in lines[i + 1:]:
        if not l.startswith("    "):
            break
        keys.append(l.split()[0])
    assert keys == ["omega", "anderson", "threads", "sweep", "shuffle", "seed", "check_every", "local"]
    assert "anderson     int" in out and "default 0" in out
