"""Hostile arguments: every numeric option of Simulation and EventDriven set
to NaN, ±inf, 0, −1 and a huge value is refused with an exception naming it
or runs a few steps and returns (an alarm turns a hang into a failure: t0 =
−inf used to make Simulation.run loop for ever); random call sequences over
the whole API raise only the documented exception types (never
SystemError); strings with an embedded NUL are refused, not cut; NumPy's
out-of-memory error stays a MemoryError; an empty relay solves without
writing on stdout."""
import math
import os
import signal

import numpy as np
import pytest

import nonsmooth as ns
from conftest import needs_event_driven

HOSTILE = [math.nan, math.inf, -math.inf, 0.0, -1.0, 1e300]
ALLOWED = (TypeError, ValueError, OverflowError, ns.Error)


class Hang(Exception):
    pass


@pytest.fixture
def alarm():
    def on_alarm(signum, frame):
        raise Hang("no return within 10 s")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def ball():
    m = ns.Model()
    b = m.add_lagrangian(np.eye(1), [1.0], fext=[-9.81])
    m.add_interaction(m.add_law("newton", e=0.5), b, H=[[1.0]])
    return m


SIM_FLOATS = ["h", "theta", "t0", "gap_tol", "projection_tol", "projection_tol_unilateral",
              "newton_tol", "activation_gamma", "tol", "time_limit", "omega"]


@pytest.mark.parametrize("name", SIM_FLOATS)
@pytest.mark.parametrize("value", HOSTILE, ids=str)
def test_simulation_float_options(name, value, alarm):
    opts = {"h": 1e-3, name: value}
    try:
        sim = ns.Simulation(ball(), **opts)
    except ALLOWED as e:
        assert name in str(e) or (name == "h" and "time step" in str(e)), str(e)
        return
    try:
        sim.run(sim.t + 3 * sim.h)
    except ns.Error as e:
        assert str(e)
    assert math.isfinite(sim.t)


def test_simulation_t0_never_hangs(alarm):
    for t0 in (-math.inf, math.inf, math.nan, 1e300):
        with pytest.raises(ns.InputError, match="t0|resolution"):
            ns.Simulation(ball(), h=1e-3, t0=t0).run(1)


ED_FLOATS = ["T", "t0", "output_step", "rtol", "atol", "hmin", "hmax", "gap_tol", "vel_tol",
             "rest_vel", "rest_gap", "lambda_tol", "acc_tol", "tol"]


@needs_event_driven
@pytest.mark.parametrize("name", ED_FLOATS)
@pytest.mark.parametrize("value", HOSTILE, ids=str)
def test_event_driven_float_options(name, value, alarm):
    opts = {"T": 0.5, name: value}
    try:
        ed = ns.EventDriven(ball(), **opts)
    except ALLOWED as e:
        assert name in str(e) or "final time" in str(e), str(e)
        return
    try:
        ed.step()
    except ns.Error as e:
        assert str(e)


@needs_event_driven
def test_event_driven_tiny_output_step_refused():
    with pytest.raises(ns.InputError, match="output_step"):
        ns.EventDriven(ball(), T=1.0, output_step=1e-300)
    with pytest.raises((ValueError, ns.InputError), match="history"):
        ns.EventDriven(ball(), T=1.0, history=-1)
    with pytest.raises(ns.InputError, match="hmin"):
        ns.EventDriven(ball(), T=1.0, hmin=0.1, hmax=0.01)


def test_embedded_nul_refused():
    p = ns.lcp(np.eye(2), -np.ones(2))
    with pytest.raises(ValueError, match="null"):
        ns.solve(p, solver="pgs\0junk")
    with pytest.raises(ValueError, match="null"):
        ns.solve(p, local_solver="x\0y")
    with pytest.raises(ValueError, match="null"):
        ns.Simulation(ball(), h=1e-3, solver="lemke\0x")


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="ASan aborts on an 8 PiB request instead of failing it")
def test_numpy_out_of_memory_is_memory_error():
    class Huge:
        def __array__(self, dtype=None, copy=None):
            return np.empty(2 ** 50)      # NumPy's _ArrayMemoryError
    with pytest.raises(MemoryError):
        ns.lcp(np.eye(2), Huge())


def test_empty_problems_print_nothing(capfd):
    for p in (ns.relay(np.zeros((0, 0)), np.zeros(0), np.zeros(0), np.zeros(0)),
              ns.avi(np.zeros((0, 0)), np.zeros(0), lb=np.zeros(0), ub=np.zeros(0))):
        for s in ns.solvers(p.kind):
            r = ns.solve(p, solver=s["name"])
            assert r.status == "converged" and r.error == 0
    out, err = capfd.readouterr()
    assert out == "" and err == ""


POOL = [None, 0, -1, 1, 2 ** 70, 0.5, math.nan, math.inf, -math.inf, 1e300, True, "", "x\0y",
        "lemke", "newton", [], [[]], [1.0], [[1.0]], np.zeros(0), np.eye(1), np.eye(3),
        np.array([math.nan]), {"a": 1}, object(), (1, 2), b"bytes", 1j]


def test_random_call_sequences(alarm):
    """Seeded random programs over Model, Simulation and the numerics
    functions, arguments from POOL: only documented exceptions."""
    rng = np.random.default_rng(11)

    def pick():
        return POOL[rng.integers(len(POOL))]

    for _ in range(300):
        m = ns.Model()
        sim = None
        for _ in range(8):
            k = rng.integers(10)
            try:
                if k == 0:
                    m.add_lagrangian(np.eye(1), [1.0], fext=pick() if rng.random() < 0.5 else [-9.81])
                elif k == 1:
                    m.add_law(pick() if rng.random() < 0.3 else "newton", e=0.5)
                elif k == 2:
                    m.add_interaction(int(rng.integers(-1, 3)), int(rng.integers(-1, 3)), H=pick())
                elif k == 3:
                    m.remove_interaction(pick())
                elif k == 4:
                    sim = ns.Simulation(m, h=pick() if rng.random() < 0.5 else 1e-3)
                elif k == 5 and sim is not None:
                    sim.run(sim.t + 2e-3 if rng.random() < 0.7 else pick())
                elif k == 6 and sim is not None:
                    for call in (sim.q, sim.v, sim.y, sim.lam, sim.kinetic_energy):
                        call(pick())
                elif k == 7:
                    ns.solve(ns.lcp(pick(), pick()))
                elif k == 8:
                    ns.solve(ns.lcp(np.eye(1), [-1.0]), **{str(pick()): pick()})
                else:
                    ns.solvers(pick())
            except ALLOWED:
                pass
            except MemoryError:
                pass
