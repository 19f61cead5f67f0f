"""SciPy-like habits of the package: keywords where the docs show them,
signatures and docstrings, pickling, sparse data() output, Result fields
(success, history, certificate), non-empty error messages, Ctrl-C during a
long solve, solver options as keywords."""
import inspect
import os
import pickle
import signal
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

import nonsmooth as ns
from conftest import needs_event_driven, lcp_residual


def test_signatures_and_numpydoc_docstrings():
    sig = inspect.signature(ns.solve)
    assert list(sig.parameters)[:2] == ["problem", "solver"]
    assert sig.parameters["tol"].default == 1e-8
    assert sig.parameters["tol"].kind is inspect.Parameter.KEYWORD_ONLY
    for f in (ns.read, ns.solve, ns.solvers, ns.lcp, ns.equality, ns.relay, ns.mlcp, ns.avi,
              ns.fc, ns.gfc, ns.gmp, ns.version):
        inspect.signature(f)
        assert f.__doc__ and f.__doc__.strip()
    for f in (ns.read, ns.solve, ns.lcp, ns.fc):
        assert "Parameters\n----------" in f.__doc__ and "Returns\n-------" in f.__doc__
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(1), q0=[1.0], v0=[0.0])
    m.add_interaction(m.add_law("newton", e=0.5), ds, H=[[1.0]])
    sim = ns.Simulation(m, h=1e-3)
    assert list(inspect.signature(sim.lam).parameters) == ["inter", "level"]


def test_simulation_getters_take_keywords():
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(1), q0=[0.0], v0=[0.0], fext=[-9.81])
    i = m.add_interaction(m.add_law("newton", e=0.0), ds, H=[[1.0]])
    sim = ns.Simulation(m, h=1e-3)
    sim.step()
    assert sim.index_set(level=1) == [i] == sim.index_set(1)
    assert sim.lam(i, level=1)[0] == pytest.approx(9.81e-3, rel=1e-12)
    assert np.array_equal(sim.lam(inter=i, level=1), sim.lam(i))
    assert np.array_equal(sim.y(i, level=0), sim.y(i))
    with pytest.raises(TypeError):
        sim.y(i, lvl=0)


@needs_event_driven
def test_event_driven_getters_take_keywords():
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(1), q0=[1.0], v0=[0.0], fext=[-9.81])
    i = m.add_interaction(m.add_law("newton", e=0.5), ds, H=[[1.0]])
    ed = ns.EventDriven(m, T=0.2, output_step=0.1)
    ed.run()
    assert np.array_equal(ed.y(i, level=0), ed.y(i))
    assert ed.y(i, level=0)[0] == pytest.approx(1 - 9.81 * 0.2 ** 2 / 2, rel=1e-6)
    assert np.array_equal(ed.lam(i, level=2), ed.lam(i))
    assert ed.index_set(level=1) == ed.index_set(1) == []


def test_shape_errors_have_messages():
    cases = [
        lambda: ns.fc(np.eye(5), np.zeros(6), [0.3, 0.3]),
        lambda: ns.gfc(np.eye(3), np.zeros((2, 6)), np.zeros(3), np.zeros(6), [0.3, 0.3]),
        lambda: ns.gmp(np.eye(3), np.zeros(3), ["lcp", "lcp"], [1, 1]),
    ]
    for make in cases:
        with pytest.raises(ValueError) as e:
            make()
        assert str(e.value).strip(), e.value


def _same(a, b):
    if sp.issparse(a):
        return sp.issparse(b) and a.shape == b.shape and (a != b).nnz == 0
    if isinstance(a, np.ndarray) and a.dtype.kind == "f":
        return np.array_equal(a, b, equal_nan=True)
    return a == b


def test_problems_and_results_pickle(shared):
    files = ["lcp/lcp_CPS_1.dat", "mlcp/BuckConverter_mlcp.dat", "relay/relay1.dat",
             "fc2d/FC2D_SliderCrankLagrangian0000.dat", "fc3d/Capsules-i100-889.dat",
             "gfc3d/GFC3D_Example00.dat", "gmp/GMP0.dat"]
    for f in files:
        if not (shared / f).exists():
            continue
        p = ns.read(str(shared / f))
        q = pickle.loads(pickle.dumps(p))
        assert q.kind == p.kind and q.size == p.size
        d1, d2 = p.data(), q.data()
        assert d1.keys() == d2.keys()
        for k in d1:
            assert _same(d1[k], d2[k]), (f, k)
        r1, r2 = ns.solve(p, max_iter=500), ns.solve(q, max_iter=500)
        assert r1.iterations == r2.iterations and r1.status == r2.status
        # a block-stored matrix comes back in CSC storage: the error is
        # summed in another order
        assert abs(r2.error - r1.error) <= 1e-14 * max(1.0, r1.error)
        r3 = pickle.loads(pickle.dumps(r1))
        assert type(r3) is type(r1)
        for a in ("status", "error", "iterations", "seconds", "message", "solver", "kind"):
            assert getattr(r3, a) == getattr(r1, a)
        for k, v in r1.solution.items():
            assert np.array_equal(v, r3.solution[k]) and np.array_equal(getattr(r3, k), v)


def test_data_keeps_sparse_matrices_sparse():
    A = sp.random(40, 40, density=0.05, random_state=3, format="csc") + 10 * sp.eye(40, format="csc")
    p = ns.lcp(A.tocsc(), np.linspace(-1, 1, 40))
    M = p.data()["M"]
    assert sp.issparse(M) and M.shape == (40, 40)
    assert (M != A).nnz == 0 and M.nnz == A.tocsc().nnz
    dense = ns.lcp(A.toarray(), np.zeros(40)).data()["M"]
    assert isinstance(dense, np.ndarray) and np.array_equal(dense, A.toarray())


def test_result_success_history_certificate():
    M = np.array([[2.0, 1.0], [1.0, 2.0]])
    q = np.array([-5.0, -6.0])
    r = ns.solve(ns.lcp(M, q), "pgs", tol=1e-12, record_history=True)
    assert r.success and r.converged and r.certificate is None
    h = r.history
    assert isinstance(h, np.ndarray) and len(h) == r.iterations
    assert h[-1] == r.error <= 1e-12 and np.all(np.diff(h) < 0)   # PGS on an SPD M: monotone
    assert ns.solve(ns.lcp(M, q), "pgs").history is None
    # infeasible: w = -z - 1 >= 0 has no z >= 0
    bad = ns.lcp([[-1.0]], [-1.0])
    r = ns.solve(bad)
    assert r.status == "no_solution" and not r.success
    c = r.certificate
    y = c["y"]
    Mb, qb = np.array([[-1.0]]), np.array([-1.0])
    assert c["kind"] == "farkas" and c["checked"]
    assert np.all(y >= 0) and np.all(Mb.T @ y <= 0) and qb @ y < 0    # Farkas, checked here


def test_solver_options_as_keywords(shared):
    p = ns.read(str(shared / "fc3d" / "Capsules-i100-889.dat"))
    a = ns.solve(p, "nsgs-ac", anderson=3, omega=1.1, sweep="symmetric", tol=1e-9)
    b = ns.solve(p, "nsgs-ac/anderson=3/omega=1.1/sweep=symmetric/tol=1e-9")
    c = ns.solve(p, "nsgs-ac", tol=1e-9)
    assert (a.iterations, a.error) == (b.iterations, b.error) != (c.iterations, c.error)
    with pytest.raises(ValueError, match="sweep"):
        ns.solve(p, "nsgs-ac", sweep="backward")
    with pytest.raises(ValueError, match="anderson"):
        ns.solve(p, "nsgs-ac", anderson=17)


def test_ctrl_c_interrupts_a_long_solve_quickly(shared):
    p = ns.read(str(shared / "fc3d" / "Capsules-i100-889.dat"))
    sent = []

    def interrupt():
        time.sleep(0.5)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Thread(target=interrupt)
    start = time.monotonic()
    t.start()
    with pytest.raises(KeyboardInterrupt):
        ns.solve(p, "nsgs-ac", tol=1e-300, max_iter=10 ** 8)   # would run for minutes
    caught = time.monotonic()
    t.join()
    assert sent and caught - sent[0] < 0.1, caught - sent[0]
    assert caught - start < 5


def test_type_stub_matches_the_package():
    """The .pyi stub (and py.typed) ship with the package; every public name
    is in it, each function with the runtime's parameter names and order,
    each class with methods the runtime class has."""
    import ast
    import pathlib
    pkg = pathlib.Path(ns.__file__).parent
    assert (pkg / "py.typed").exists()
    tree = ast.parse((pkg / "__init__.pyi").read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    aliases = {t.id: n.value.id for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name)
               and n.value.id in funcs
               for t in n.targets if isinstance(t, ast.Name)}   # NCP = ncp
    for name, target in aliases.items():
        assert target in funcs and getattr(ns, name) is getattr(ns, target), name
    for name in ns.__all__:
        assert name in funcs or name in classes or name in aliases, name
    for name, node in funcs.items():
        a = node.args
        stub = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
        assert stub == list(inspect.signature(getattr(ns, name)).parameters), name
    for name, node in classes.items():
        if name == "Scene" and not hasattr(ns, "Scene"):
            continue   # built only with the Bullet collision library
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                assert hasattr(getattr(ns, name), item.name), (name, item.name)


def test_result_method_names_what_auto_ran(shared):
    p = ns.read(str(shared / "fc3d" / "Capsules-i100-889.dat"))
    r = ns.solve(p)
    names = {s["name"] for s in ns.solvers("fc3d")}
    assert r.solver == "auto" and r.method in names - {"auto"}
    assert ns.solve(p, "nsgs-ac", max_iter=10).method == "nsgs-ac"
    # an LCP Lemke solves: the chain stops at its first step
    assert ns.solve(ns.lcp([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0])).method == "lemke"
    # an LCP whose auto chain needs a later step: M = -I (not copositive), q = -1 has
    # no solution; the certificate comes from Lemke's ray or the Farkas search
    r = ns.solve(ns.lcp(-np.eye(3), -np.ones(3)))
    assert r.status == "no_solution" and r.method in ("lemke", "farkas search")
    assert pickle.loads(pickle.dumps(r)).method == r.method
