"""Siconos' rules from Python: rules="siconos", linearisation= and
em_gamma= of Simulation against the trajectories Debian's Siconos 4.4
computed (data/siconos_refs/, tools/siconos_refs/make_refs.py), and
EventDriven's accelerations (qdd) and contact forces at t0 against the
closed form of a mass resting on an inclined plane."""
import math

import numpy as np
import pytest

import nonsmooth as ns
from conftest import SOURCE, needs_event_driven

REFS = SOURCE / "data" / "siconos_refs"


def read_ref(name):
    return np.loadtxt(REFS / name, skiprows=1)


def within(ours, ref, tol):
    """|ours - ref| <= tol + tol * max|ref column|, column by column."""
    return np.all(np.abs(ours - ref) <= tol + tol * np.abs(ref).max(axis=0))


def bowl_rows(**options):
    m = ns.Model()
    q0 = np.array([0.5, -0.7])
    q0 *= 0.9 / np.hypot(*q0)
    ball = m.add_lagrangian(np.eye(2), q0, [1.0, 0.3], fext=[0.0, -9.81])
    law = m.add_law("newton_coulomb", dim=2, e=0.5, mu=0.3)

    def h(t, Q):
        return [0.9 - math.hypot(Q[0], Q[1]), 0.0]

    def jach(t, Q):
        d = math.hypot(Q[0], Q[1])
        n = (Q[0] / d, Q[1] / d)
        return [[-n[0], -n[1]], [-n[1], n[0]]]
    inter = m.add_interaction(law, ball, h=h, jach=jach, size=2)
    sim = ns.Simulation(m, h=1e-3, tol=1e-14, **options)
    rows = []
    for _ in range(500):
        sim.step()
        q, v, P, y = sim.q(ball), sim.v(ball), sim.lam(inter, 1), sim.y(inter, 0)
        rows.append([sim.t, q[0], q[1], v[0], v[1], P[0], P[1], y[0]])
    return np.array(rows)


def test_bowl_linearisation_points():
    pred = bowl_rows(rules="siconos")                    # the Newton iterate: predictor
    start = bowl_rows(rules="siconos", linearisation="step_start")
    assert within(pred, read_ref("bowl_ts_linear_44.ref"), 1e-12)
    assert within(start, read_ref("bowl_ts_linear_qk.ref"), 1e-12)
    assert np.abs(pred - start).max() > 1e-6             # the switch decides


def diode_rows(**options):
    L, C, R = 1e-2, 1e-6, 1e3
    m = ns.Model()
    x = m.add_first_order([[0.0, -1.0 / C], [1.0 / L, 0.0]], [10.0, 0.0])
    Cm = np.zeros((4, 2)); Cm[2, 0] = -1.0; Cm[3, 0] = 1.0
    D = np.zeros((4, 4))
    D[0, 0] = D[0, 1] = D[1, 0] = D[1, 1] = 1.0 / R
    D[0, 2] = D[1, 3] = -1.0
    D[2, 0] = D[3, 1] = 1.0
    B = np.zeros((2, 4)); B[0, 2] = -1.0 / C; B[0, 3] = 1.0 / C
    inter = m.add_interaction(m.add_law("complementarity", size=4), x, C=Cm, D=D, B=B)
    sim = ns.Simulation(m, h=1e-6, theta=0.5, solver="lemke", tol=1e-14, **options)
    rows = []
    for k in range(1, 5000):
        sim.step()
        if k % 5 == 0:
            xs, y, l = sim.x(x), sim.y(inter, 0), sim.lam(inter, 0)
            rows.append([sim.t, xs[0], xs[1], y[0], -l[0], -l[1], l[2], y[0] + l[2]])
    return np.array(rows)


def test_diode_bridge_gamma():
    ref = read_ref("diode_bridge_theta05_gamma07.ref")
    assert within(diode_rows(rules="siconos", em_gamma=0.7), ref, 1e-10)
    assert not within(diode_rows(rules="siconos"), ref, 1e-6)


def test_rules_bad_values():
    m = ns.Model()
    m.add_lagrangian(np.eye(1), [1.0])
    with pytest.raises(ValueError, match="rules"):
        ns.Simulation(m, h=1e-3, rules="siconos4")
    with pytest.raises(ValueError, match="linearisation"):
        ns.Simulation(m, h=1e-3, linearisation="midpoint")
    with pytest.raises(ns.Error, match="em_gamma"):
        ns.Simulation(m, h=1e-3, em_gamma=1.5)


@needs_event_driven
def test_event_driven_consistent_at_t0():
    g, mass, al = 9.81, 2.0, 0.3
    sa, ca = math.sin(al), math.cos(al)
    m = ns.Model()
    p = m.add_lagrangian(mass * np.eye(2), [ca, sa], fext=[0.0, -mass * g])
    plane = m.add_interaction(m.add_law("newton", e=0.0), p, H=[[-sa, ca]])
    ed = ns.EventDriven(m, T=0.3, rules="siconos")
    a = np.array([-g * sa * ca, -g * sa * sa])          # down the slope, g sin(alpha)
    assert abs(ed.lam(plane)[0] - mass * g * ca) <= 1e-12 * mass * g
    assert abs(ed.y(plane, 2)[0]) <= 1e-12 * g
    assert np.allclose(ed.qdd(p), a, rtol=0, atol=1e-12 * g)
    ed.run()
    assert np.allclose(ed.qdd(p), a, rtol=0, atol=1e-10 * g)
    assert np.allclose(ed.q(p), np.array([ca, sa]) + 0.5 * a * 0.3 ** 2, rtol=0, atol=1e-8)
    with pytest.raises(Exception):
        ed.qdd(5)
    with pytest.raises(ValueError, match="rules"):
        ns.EventDriven(m, T=0.3, rules="lsodar")
