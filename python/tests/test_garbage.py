"""Garbage in, exception out: every constructor and solve() fed random
combinations of shapes, dtypes, layouts, values and types raises a Python
exception or returns a valid object — never crashes (also run under ASan)."""
import itertools

import numpy as np
import pytest
import scipy.sparse as sp

import nonsmooth as ns
from conftest import needs_event_driven


def candidates(rng):
    c = [None, 3, "abc", [1, 2], [[1.0]], np.zeros(0), np.zeros((0, 0)), np.zeros((0, 3)),
         np.nan, [np.nan, 1.0, 2.0], np.ones((3, 3)) * np.inf, object(), {"a": 1}]
    for shape in [(1,), (3,), (6,), (3, 3), (6, 6), (3, 1), (2, 3), (3, 3, 1)]:
        for dtype in [np.float64, np.int64, np.float32, np.complex128, ">f8", np.bool_]:
            a = rng.standard_normal(shape).astype(dtype) if np.dtype(dtype).kind != "b" else \
                rng.standard_normal(shape) > 0
            c.append(a)
        big = rng.standard_normal(tuple(2 * s for s in shape))
        c.append(big[tuple(slice(None, None, 2) for _ in shape)])     # strided view
    c.append(sp.csr_matrix(np.eye(3)))
    c.append(sp.csr_matrix(np.eye(6)))
    c.append(sp.csr_matrix((3, 4)))
    return c


M3, Q3 = 2 * np.eye(3) + 0.1, -np.ones(3)
M6, Q6 = 2 * np.eye(6) + 0.1, -np.ones(6)
VALID = {
    "lcp": (ns.lcp, (M3, Q3)),
    "equality": (ns.equality, (M3, Q3)),
    "relay": (ns.relay, (M3, Q3, -np.ones(3), np.ones(3))),
    "mlcp": (ns.mlcp, (M3, Q3, 1)),
    "avi": (ns.avi, (M3, Q3)),
    "fc": (ns.fc, (M6, Q6, [0.3, 0.3])),
    "gfc": (ns.gfc, (M3, np.ones((3, 6)), Q3, Q6, [0.3, 0.3])),
    "gmp": (ns.gmp, (M6, Q6, ["fc3d", "lcp", "lcp", "equality"], [3, 1, 1, 1], [0.3, 0, 0, 0])),
}


@pytest.mark.parametrize("kind", sorted(VALID))
def test_constructors_never_crash(kind):
    # valid arguments with 0, 1 or 2 of them replaced by garbage
    ctor, valid = VALID[kind]
    rng = np.random.default_rng(7)
    cand = candidates(rng)
    made = 0
    for it in range(500):
        args = list(valid)
        for pos in rng.choice(len(args), size=it % 3, replace=False):
            args[pos] = cand[rng.integers(len(cand))]
        try:
            p = ctor(*args)
        except (TypeError, ValueError, ns.Error, OverflowError):
            continue
        made += 1
        assert isinstance(p, ns.Problem) and p.size >= 0
        p.data()
        try:
            r = ns.solve(p, max_iter=50, time_limit=1.0)
            assert isinstance(r.status, str)
        except ns.Error:
            pass
    assert made > 0


def test_solve_options_never_crash():
    p = ns.lcp(np.eye(3), [-1.0, 1.0, 0.0])
    values = [None, -1, 0, 1, 2.5, 1e300, float("nan"), float("inf"), "x", [1], True, 2 ** 70]
    names = ["tol", "max_iter", "time_limit", "omega", "check_every", "shuffle", "seed",
             "local_solver", "fc_norm", "record_history", "x0", "solver"]
    for name, value in itertools.product(names, values):
        try:
            ns.solve(p, **{name: value})
        except (TypeError, ValueError, ns.Error, OverflowError):
            pass


def test_mechanics_never_crash():
    rng = np.random.default_rng(3)
    cand = candidates(rng)
    for _ in range(400):
        m = ns.Model()
        args = [cand[i] for i in rng.integers(0, len(cand), 3)]
        for call in (lambda: m.add_lagrangian(*args), lambda: m.add_first_order(*args[:2]),
                     lambda: m.add_law("relay", lb=args[0], ub=args[1])):
            try:
                call()
            except (TypeError, ValueError, ns.Error):
                pass
        if m.nds:
            try:
                law = m.add_law("newton")
                m.add_interaction(law, 0, H=args[2])
            except (TypeError, ValueError, ns.Error):
                pass
            try:
                ns.Simulation(m, h=0.01).run(0.05)
            except (TypeError, ValueError, ns.Error):
                pass


@needs_event_driven
@pytest.mark.filterwarnings("ignore:The truth value of an empty array:DeprecationWarning")
def test_event_driven_never_crashes():
    """EventDriven options and calls fed garbage: exceptions only (output_step
    left out: a tiny one is a valid request for very many events)."""
    rng = np.random.default_rng(4)
    cand = candidates(rng)
    scalars = [-1.0, 0.0, 1e-300, 1e300, 0.05, 1e-3, 0.3, 2 ** 40, True, np.nan, np.inf, None,
               "bdf", "adams", "lemke", "pgs", 3]
    keys = ["T", "t0", "method", "fixed_point", "rtol", "atol", "hmin", "hmax", "max_steps",
            "gap_tol", "vel_tol", "rest_vel", "rest_gap", "lambda_tol", "acc_tol", "solver",
            "history", "accept_nonconverged", "tol", "max_iter"]

    def pick():
        return scalars[rng.integers(0, len(scalars))] if rng.random() < 0.8 else \
            cand[rng.integers(0, len(cand))]

    made = 0
    for _ in range(1000):
        m = ns.Model()
        ball = m.add_lagrangian(np.eye(3), [0.2, 0, 0], fext=[-9.81, 0, 0])
        m.add_interaction(m.add_law("newton", e=0.5), ball, H=[[1.0, 0, 0]])
        opts = {"T": 0.5}
        for k in rng.choice(keys, 2, replace=False):
            opts[str(k)] = pick()
        try:
            ed = ns.EventDriven(m, **opts)
        except (TypeError, ValueError, ns.Error):
            continue
        made += 1
        arg = pick()
        for call in (lambda: ed.run(until=arg), lambda: ed.add_event(arg), lambda: ed.q(arg),
                     lambda: ed.set_state(0, q=arg), lambda: ed.y(0, arg), lambda: ed.step(),
                     lambda: ed.run(), lambda: ed.events, lambda: ed.stats):
            try:
                call()
            except (TypeError, ValueError, OverflowError, ns.Error):
                pass
    assert made > 60
