"""The event-driven scheme from Python (nonsmooth.EventDriven), checked
against the bouncing ball's closed-form solution: impact times
t1 = sqrt(2 h0 / g), t_{k+1} = t_k + 2 e^k v1 / g (h0 = z0 - R the drop,
v1 = sqrt(2 g h0)), Newton's law y1+ = -e y1- at each impact, energy
conserved between impacts and multiplied by e^2 at each, and the ball at
rest on the plane (contact force m g) after the accumulation time; and a
pendulum (Python callbacks) against a wall, against the elliptic-integral
period."""
import gc
import math

import numpy as np
import pytest
from scipy.special import ellipk

import nonsmooth as ns
from conftest import needs_event_driven

pytestmark = needs_event_driven

G, R, Z0, E = 9.81, 0.1, 1.0, 0.9
H0 = Z0 - R
V1 = math.sqrt(2 * G * H0)
T1 = math.sqrt(2 * H0 / G)
TINF = T1 + 2 * E * V1 / (G * (1 - E))          # accumulation time: t1 + sum 2 e^k v1 / g


def ball_model(e=E, fext=None):
    m = ns.Model()
    ball = m.add_lagrangian(np.diag([1.0, 1.0, 0.4 * R ** 2]), [Z0, 0, 0], [0, 0, 0],
                            fext=fext if fext is not None else [-G, 0, 0])
    floor = m.add_interaction(m.add_law("newton", e=e), ball, H=[[1.0, 0, 0]], b=[-R])
    return m, ball, floor


def analytic_impacts(until):
    """(t_k, v_k) with v_k the speed just before impact k, for t_k < until."""
    out, t, v = [], T1, V1
    while t < until:
        out.append((t, v))
        t += 2 * E * v / G
        v *= E
    return out


def make(T, **opts):
    m, ball, floor = ball_model()
    opts.setdefault("rtol", 1e-14)
    opts.setdefault("atol", 1e-16)
    return m, ball, floor, ns.EventDriven(m, T=T, output_step=0.01, **opts)


def test_impacts_match_the_closed_form():
    m, ball, floor, ed = make(10.0)
    traj = ed.run()
    impacts = [e for e in ed.events if e["type"] == "nonsmooth" and e["impact"]]
    exact = analytic_impacts(TINF - 1e-3)
    assert len(exact) >= 80 and len(impacts) >= len(exact)
    for ev, (tk, vk) in zip(impacts, exact):
        assert ev["inter"] == floor and ev["comp"] == 0 and ev["root"] == "close"
        assert abs(ev["t"] - tk) < 1e-9
        assert abs(ev["y1_before"] + vk) < 1e-8                 # falling at -v_k
        assert abs(ev["y1_after"] + E * ev["y1_before"]) < 1e-8  # Newton: y1+ = -e y1-
    # no impact after the accumulation time; the ball rests there
    assert impacts[-1]["t"] < TINF + 1e-9
    assert ed.done and abs(ed.t - 10.0) < 1e-12
    assert abs(ed.q(ball)[0] - R) < 1e-9 and abs(ed.v(ball)[0]) < 1e-9
    assert abs(ed.lam(floor)[0] - G) < 1e-9                      # contact force m g
    assert ed.index_set(2) == [floor]
    st = ed.stats
    assert st["time_events"] == 1000 and st["impacts"] == len(impacts) and st["rests"] >= 1
    assert st["cvode_steps"] > 0
    # the trajectory: a row at the start, one per processed event, in time order
    t, kind = traj["t"], traj["event"]
    assert kind[0] == "start" and t[0] == 0.0 and len(t) == 1 + st["time_events"] + st["nonsmooth_events"]
    assert np.all(np.diff(t) >= 0)
    assert (kind == "nonsmooth").sum() == st["nonsmooth_events"]
    np.testing.assert_allclose(t[kind == "time"], 0.01 * np.arange(1, 1001), atol=1e-12)
    # y = z - R recorded alongside q
    np.testing.assert_allclose(traj["y"][floor][:, 0], traj["q"][ball][:, 0] - R, atol=1e-15)
    np.testing.assert_allclose(traj["ydot"][floor][:, 0], traj["v"][ball][:, 0], atol=1e-15)


def test_energy_conserved_between_impacts():
    m, ball, floor, ed = make(5.0)
    traj = ed.run()
    t, kind = traj["t"], traj["event"]
    z, v = traj["q"][ball][:, 0], traj["v"][ball][:, 0]
    energy = 0.5 * v ** 2 + G * (z - R)                 # per unit mass, zero at rest on the floor
    cuts = np.flatnonzero(kind == "nonsmooth")
    exact = analytic_impacts(5.0)
    assert len(cuts) == len(exact) >= 5
    level = G * H0
    for a, b in zip(np.r_[0, cuts], np.r_[cuts, len(t)]):
        seg = energy[a:b]                                # from just after one impact to just before the next
        assert np.abs(seg - level).max() < 1e-8 * level
        level *= E ** 2                                  # an impact keeps e^2 of the energy
    # the row of an impact holds the post-impact state: z = R, v = e v_k
    for c, (tk, vk) in zip(cuts, exact):
        assert abs(z[c] - R) < 1e-9 and abs(v[c] - E * vk) < 1e-7


def test_run_until_and_step_agree_with_one_run():
    _, ball, floor, one = make(2.0)
    one.run()
    _, ball, floor, split = make(2.0)
    a = split.run(until=0.123)                           # not on the output grid: a user event there
    assert a["t"][-1] == 0.123 and a["event"][-1] == "user" and split.t == 0.123
    b = split.run(until=1.0)
    assert b["t"][0] == 0.123 and b["t"][-1] == 1.0
    first = [e for e in split.events if e["type"] == "nonsmooth"]
    assert len(first) == 1 and abs(first[0]["t"] - T1) < 1e-10
    n = 0
    while (ev := split.step()) is not None:             # the rest event by event
        assert ev["t"] >= b["t"][-1]
        n += 1
    later = [tk for tk, _ in analytic_impacts(2.0) if tk > 1.0]   # impacts 2 and 3
    assert split.done and split.step() is None and n == 100 + len(later) == 102   # + 100 time events
    np.testing.assert_allclose(split.q(ball), one.q(ball), atol=1e-10)
    np.testing.assert_allclose(split.v(ball), one.v(ball), atol=1e-10)
    with pytest.raises(ns.InputError, match="until"):
        make(2.0)[3].run(until=3.0)


def test_add_event_and_set_state():
    _, ball, floor, ed = make(1.0)
    ed.add_event(0.3)
    with pytest.raises(ns.InputError, match="add_event"):
        ed.add_event(1.5)                                # beyond T
    traj = ed.run(until=0.3)
    assert traj["event"][-1] == "user" and abs(ed.q(ball)[0] - (Z0 - G * 0.09 / 2)) < 1e-12
    # thrown upwards from there: the next impact when z - R = 0 again
    ed.set_state(ball, v=[2.0, 0, 0])
    z, v = Z0 - G * 0.09 / 2, 2.0
    t_hit = 0.3 + (v + math.sqrt(v * v + 2 * G * (z - R))) / G
    ed.run()
    hit = [e for e in ed.events if e["type"] == "nonsmooth"]
    assert abs(hit[0]["t"] - t_hit) < 1e-9


def test_switch_from_time_stepping_and_back():
    # theta = 1/2 integrates the free fall exactly: hand the state at t = 0.2 over
    m, ball, floor = ball_model()
    sim = ns.Simulation(m, h=0.005)
    sim.run(0.2)
    ed = ns.EventDriven(m, T=1.0, output_step=0.01, rtol=1e-14, atol=1e-16)
    ed.set_state_from(sim)
    assert abs(ed.t - 0.2) < 1e-12 and abs(ed.q(ball)[0] - (Z0 - G * 0.04 / 2)) < 1e-12
    traj = ed.run()
    assert abs(traj["t"][0] - 0.2) < 1e-12 and abs(traj["t"][1] - 0.21) < 1e-12
    assert ed.stats["time_events"] == 80                 # the 20 before t = 0.2 skipped
    hit = [e for e in ed.events if e["type"] == "nonsmooth"]
    assert len(hit) == 1 and abs(hit[0]["t"] - T1) < 1e-9
    ed.copy_state_to(sim)                                # and back: q, v (not the time)
    np.testing.assert_array_equal(sim.q(ball), ed.q(ball))
    np.testing.assert_array_equal(sim.v(ball), ed.v(ball))
    with pytest.raises(TypeError, match="Simulation"):
        ed.set_state_from(m)
    other = ns.Simulation(ball_model()[0], h=0.01)
    with pytest.raises(ns.InputError, match="share one Model"):
        ed.copy_state_to(other)
    late = ns.Simulation(m, h=0.5)
    late.run(1.0)
    with pytest.raises(ns.InputError, match="not before T"):
        ed.set_state_from(late)


def test_observer_sees_events_and_can_stop():
    _, ball, floor, ed = make(3.0)
    seen = []

    def obs(sim, ev):
        seen.append(ev)
        with pytest.raises(RuntimeError, match="running"):
            sim.run()
        return ev["type"] == "nonsmooth"                 # stop at the first impact

    traj = ed.run(observer=obs)
    assert seen[-1]["type"] == "nonsmooth" and abs(seen[-1]["t"] - T1) < 1e-10
    assert len(traj["t"]) == len(seen) + 1 and traj["t"][-1] == seen[-1]["t"]
    assert abs(traj["v"][ball][-1, 0] - E * V1) < 1e-8   # the state after the impact

    def boom(sim, ev):
        raise KeyError("from the observer")
    with pytest.raises(KeyError, match="from the observer"):
        ed.run(observer=boom)
    with pytest.raises(TypeError, match="observer"):
        ed.run(observer=3)


def test_callbacks_and_ownership():
    # a time-dependent force as a Python callable: the same impacts
    m, ball, floor = ball_model(fext=lambda t: [-G, 0.0, 0.0])
    ed = ns.EventDriven(m, T=1.5, rtol=1e-14, atol=1e-16)
    del m
    gc.collect()                                         # the EventDriven keeps its Model
    ed.run()
    hits = [e["t"] for e in ed.events if e["type"] == "nonsmooth"]
    assert len(hits) == 2 and abs(hits[0] - T1) < 1e-9 and abs(hits[1] - (T1 + 2 * E * V1 / G)) < 1e-9
    # a callback that raises stops the run with its own exception
    m, ball, floor = ball_model(fext=lambda t: [-G, 0, 0] if t < 0.2 else 1 / 0)
    with pytest.raises(ZeroDivisionError):
        ns.EventDriven(m, T=1.0).run()
    # the model is frozen while an EventDriven of it lives
    m, ball, floor = ball_model()
    ed = ns.EventDriven(m, T=1.0)
    with pytest.raises(RuntimeError, match="EventDriven"):
        m.add_interaction(0, ball, H=[[1.0, 0, 0]])
    with pytest.raises(RuntimeError, match="EventDriven"):
        m.remove_interaction(floor)
    assert ed.model is m
    del ed
    gc.collect()
    m.remove_interaction(floor)                          # free again


@pytest.mark.parametrize("relation", ["linear", "callback"])
def test_pendulum_against_a_wall(relation):
    """A nonlinear system through Python callbacks: a pendulum (length L, unit
    mass) released at theta0 hits a wall at theta = 0 after a quarter period
    K(k)/omega, k = sin(theta0/2); it rebounds with theta' = -e theta'-, to an
    amplitude theta1 with 1 - cos theta1 = e^2 (1 - cos theta0), and hits
    again half a period of that amplitude later."""
    L, th0, e = 0.5, 1.2, 0.8
    w = math.sqrt(G / L)
    m = ns.Model()
    p = m.add_lagrangian_nonlinear([th0], [0.0], mass=lambda q: [[L * L]],
                                   fint=lambda t, q, v: [G * L * math.sin(q[0])],
                                   jac_fint=lambda t, q, v: ([[G * L * math.cos(q[0])]], [[0.0]]))
    law = m.add_law("newton", e=e)
    if relation == "linear":
        wall = m.add_interaction(law, p, H=[[1.0]])                       # y = theta
    else:                                                                  # y = L sin(theta): the bob's x
        wall = m.add_interaction(law, p, size=1, h=lambda t, Q: [L * math.sin(Q[0])],
                                 jach=lambda t, Q: [[L * math.cos(Q[0])]])
    ed = ns.EventDriven(m, T=1.2, output_step=0.01, rtol=1e-12, atol=1e-14)
    traj = ed.run()
    hits = [ev for ev in ed.events if ev["type"] == "nonsmooth" and ev["impact"]]
    t1 = ellipk(math.sin(th0 / 2) ** 2) / w
    th1 = math.acos(1 - e * e * (1 - math.cos(th0)))
    t2 = t1 + 2 * ellipk(math.sin(th1 / 2) ** 2) / w
    assert len(hits) == 2
    assert abs(hits[0]["t"] - t1) < 1e-10 and abs(hits[1]["t"] - t2) < 1e-10
    scale = L if relation == "callback" else 1.0                          # y1 = L cos(0) theta'
    assert abs(hits[0]["y1_before"] + scale * 2 * w * math.sin(th0 / 2)) < 1e-9
    assert abs(hits[0]["y1_after"] + e * hits[0]["y1_before"]) < 1e-8
    # energy between the impacts: 1/2 L^2 theta'^2 + g L (1 - cos theta)
    th, om, kind = traj["q"][p][:, 0], traj["v"][p][:, 0], traj["event"]
    energy = 0.5 * L * L * om ** 2 + G * L * (1 - np.cos(th))
    cut = np.flatnonzero(kind == "nonsmooth")
    assert np.abs(energy[:cut[0]] - G * L * (1 - math.cos(th0))).max() < 1e-8
    assert np.abs(energy[cut[0]:cut[1]] - e * e * G * L * (1 - math.cos(th0))).max() < 1e-8
    assert th.min() > -1e-9


def stacked_model():
    """Two unit masses on a line, resting: a on the floor (q_a >= 0), b on a (q_b >= q_a)."""
    m = ns.Model()
    a = m.add_lagrangian(np.eye(1), [0.0], fext=[-G])
    b = m.add_lagrangian(np.eye(1), [0.0], fext=[-G])
    law = m.add_law("newton", e=0.5)
    floor = m.add_interaction(law, a, H=[[1.0]])
    between = m.add_interaction(law, a, b, H=[[-1.0, 1.0]])
    return m, a, b, floor, between


def test_resting_stack_forces_and_nonconverged_lcps():
    m, a, b, floor, between = stacked_model()
    ed = ns.EventDriven(m, T=0.1)                          # lemke: the acceleration LCP exactly
    ed.run()
    assert abs(ed.lam(floor)[0] - 2 * G) < 1e-9 and abs(ed.lam(between)[0] - G) < 1e-9
    assert abs(ed.q(a)[0]) < 1e-12 and abs(ed.q(b)[0]) < 1e-12
    assert sorted(ed.index_set(2)) == [floor, between]
    # one PGS sweep does not solve that LCP: the run stops, naming the solver and the way out
    m, a, b, floor, between = stacked_model()
    with pytest.raises(ns.Error, match="not solved by 'pgs'.*accept_nonconverged") as e:
        ns.EventDriven(m, T=0.1, solver="pgs", max_iter=1).run()
    assert e.value.status == "max_iter"                   # the LCP solver's status, not a divergence
    m, a, b, floor, between = stacked_model()
    ed = ns.EventDriven(m, T=0.1, solver="pgs", max_iter=1, accept_nonconverged=True)
    ed.run()                                               # accepted and counted
    assert ed.done and ed.stats["lcp_nonconverged"] > 0


def test_solve_hook_retries_the_acceleration_lcp():
    # the acceleration LCP of the resting stack, missed by one PGS sweep, is
    # retried with Lemke by the hook: the resting forces come out exact
    seen = []

    def hook(info):
        seen.append(dict(info))
        return {"solver": "lemke", "max_iter": 0}
    m, a, b, floor, between = stacked_model()
    ed = ns.EventDriven(m, T=0.1, solver="pgs", max_iter=1, solve_hook=hook)
    ed.run()
    assert ed.done and ed.stats["lcp_nonconverged"] == 0 and ed.stats["lcp_retries"] >= 1
    assert seen and seen[0]["scheme"] == "event-driven" and seen[0]["what"] == "acceleration"
    assert seen[0]["kind"] == "lcp" and seen[0]["status"] == "max_iter" and seen[0]["step"] == -1
    assert abs(ed.lam(floor)[0] - 2 * G) < 1e-9 and abs(ed.lam(between)[0] - G) < 1e-9
    m, a, b, floor, between = stacked_model()
    with pytest.raises(ns.Error) as e:                     # None: stop, with the solver's status
        ns.EventDriven(m, T=0.1, solver="pgs", max_iter=1, solve_hook=lambda info: None).run()
    assert e.value.status == "max_iter"
    m, a, b, floor, between = stacked_model()
    with pytest.raises(TypeError, match="callable"):
        ns.EventDriven(m, T=0.1, solve_hook="lemke")
    msgs = []                                              # the retry is logged
    m, a, b, floor, between = stacked_model()
    ns.EventDriven(m, T=0.1, solver="pgs", max_iter=1, solve_hook=hook,
                   log=lambda level, message: msgs.append(message)).run()
    assert any("acceleration" in x and "did not converge" in x and "pgs" in x for x in msgs)


@pytest.mark.parametrize("opts, exc, text", [
    ({"tolerance": 1e-8}, ValueError, "unknown option 'tolerance'"),
    ({"method": "rk4"}, ValueError, "method must be 'adams' or 'bdf'"),
    ({"rtol": -1.0}, ns.InputError, "rtol = -1"),
    ({"t0": 5.0}, ns.InputError, "final time T = 1 must be > t0 = 5"),
    ({"hmin": float("nan")}, ns.InputError, "hmin must be finite"),
    ({"gap_tol": -1e-3}, ns.InputError, "gap_tol"),
    ({"max_steps": 0}, ValueError, "max_steps"),
    ({"history": "many"}, TypeError, "history"),
    ({"solver": "nsgs"}, ns.InputError, "nsgs"),
    ({"solver": "pgs", "tol": -1.0}, ns.InputError, "tol"),
    ({"output_step": -0.1}, ns.InputError, "output_step"),
])
def test_bad_options_name_the_option(opts, exc, text):
    m, _, _ = ball_model()
    with pytest.raises(exc, match=text):
        ns.EventDriven(m, T=1.0, **opts)


def test_missing_T_and_bad_arguments():
    m, ball, floor = ball_model()
    with pytest.raises(TypeError, match="T"):
        ns.EventDriven(m)
    with pytest.raises(TypeError):
        ns.EventDriven("not a model", T=1.0)
    ed = ns.EventDriven(m, T=1.0)
    with pytest.raises(ns.InputError, match="no system 7"):
        ed.q(7)
    with pytest.raises(ns.InputError, match="no interaction 9"):
        ed.y(9)
    with pytest.raises(ns.InputError, match="level 3"):
        ed.lam(floor, 3)
    with pytest.raises(ValueError, match="q has length 2"):
        ed.set_state(ball, q=[1.0, 2.0])


def test_models_the_scheme_refuses():
    m = ns.Model()
    with pytest.raises(ns.InputError, match="no dynamical system") as e:
        ns.EventDriven(m, T=1.0)
    assert e.value.status == "bad_input"
    m.add_first_order(np.array([[0.0, 1.0], [-1.0, 0.0]]), [1.0, 0.0])
    with pytest.raises(ns.InputError, match="first order"):
        ns.EventDriven(m, T=1.0)
    m = ns.Model()
    ball = m.add_lagrangian(np.eye(3), [1.0, 0, 0])
    m.add_interaction(m.add_law("newton_coulomb", e=0.5, mu=0.3), ball, H=np.eye(3))
    with pytest.raises(ns.InputError, match="law"):
        ns.EventDriven(m, T=1.0)
    m.add_lagrangian(np.eye(3), [1.0, 0, 0])               # refused models stay usable


def bar_model(n, sparse, e=0.5, gap=0.01, v0=1.0, es=10.0):
    """A free elastic bar (linear elements, consistent mass) moving at -v0
    towards a wall that node 0 meets after gap / v0."""
    sp = pytest.importorskip("scipy.sparse")
    l = 1.0 / (n - 1)
    ends = np.ones(n); ends[0] = ends[-1] = 0.5
    M = sp.diags([np.full(n - 1, l / 6), 4 * l / 6 * ends, np.full(n - 1, l / 6)], [-1, 0, 1], format="csc")
    K = sp.diags([np.full(n - 1, -es / l), 2 * es / l * ends, np.full(n - 1, -es / l)], [-1, 0, 1], format="csc")
    m = ns.Model()
    H = np.zeros((1, n)); H[0, 0] = 1.0
    ds = m.add_lagrangian(M if sparse else M.toarray(), np.zeros(n), np.full(n, -v0),
                          K=K if sparse else K.toarray())
    i = m.add_interaction(m.add_law("newton", e=e), ds, H=H, b=[gap])
    return m, ds, i


def test_sparse_system_event_driven_krylov():
    # the same bar with SciPy sparse and with dense matrices: the sparse one
    # runs on CHOLMOD and matrix-free GMRES ("auto"), the dense one on a
    # dense Newton matrix; first impact at gap / v0 exactly, the same impacts
    # and final state to the integration tolerance
    runs = {}
    for sparse in (True, False):
        m, ds, i = bar_model(30, sparse)
        ed = ns.EventDriven(m, T=0.03, output_step=0.005, method="bdf", rtol=1e-9, atol=1e-12)
        ed.run()
        imp = [e["t"] for e in ed.events if e["type"] == "nonsmooth" and e["impact"]]
        runs[sparse] = (imp, ed.q(ds).copy(), ed.v(ds).copy(), ed.stats)
    (ts, qs, vs, ss), (td, qd, vd, sd) = runs[True], runs[False]
    assert abs(ts[0] - 0.01) < 1e-9 and abs(td[0] - 0.01) < 1e-9
    assert len(ts) == len(td) and max(abs(a - b) for a, b in zip(ts, td)) < 1e-7
    assert ss["lin_iters"] > 0 and ss["jac_evals"] == 0
    assert sd["lin_iters"] == 0 and sd["jac_evals"] > 0
    np.testing.assert_allclose(qs, qd, atol=1e-6 * np.abs(qd).max())
    np.testing.assert_allclose(vs, vd, atol=1e-5 * np.abs(vd).max())
    # forcing GMRES on the dense model gives the sparse run's trajectory
    m, ds, i = bar_model(30, False)
    ed = ns.EventDriven(m, T=0.03, output_step=0.005, method="bdf", rtol=1e-9, atol=1e-12,
                        linear_solver="krylov")
    ed.run()
    assert ed.stats["lin_iters"] > 0 and ed.stats["jac_evals"] == 0
    np.testing.assert_allclose(ed.q(ds), qs, atol=1e-6 * np.abs(qs).max())
    with pytest.raises(ValueError, match="linear_solver must be 'auto', 'dense' or 'krylov'"):
        ns.EventDriven(m, T=1.0, linear_solver="lu")


def test_sparse_system_time_stepping_matches_dense():
    # Moreau-Jean on the sparse system (CHOLMOD) equals the dense one to rounding
    out = []
    for sparse in (True, False):
        m, ds, i = bar_model(20, sparse, e=0.0)
        sim = ns.Simulation(m, h=1e-4, tol=1e-14)
        traj = sim.run(0.02)
        out.append((traj["q"][ds], traj["v"][ds], traj["lambda"][i]))
    for a, b in zip(out[0], out[1]):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-11 * np.abs(b).max())
    assert np.abs(out[1][2]).max() > 0                   # the bar does hit the wall


def test_sparse_system_bad_input_and_fext():
    sp = pytest.importorskip("scipy.sparse")
    m = ns.Model()
    with pytest.raises(ns.InputError, match="M is 3 x 3, expected 4 x 4"):
        m.add_lagrangian(sp.identity(3, format="csc"), np.zeros(4))
    bad = sp.identity(3, format="csc"); bad[1, 1] = np.nan
    with pytest.raises(ns.InputError, match="M"):
        m.add_lagrangian(bad, np.zeros(3))
    with pytest.raises(ns.InputError, match="K is 2 x 2"):
        m.add_lagrangian(sp.identity(3, format="csc"), np.zeros(3), K=sp.identity(2))
    # a constant force on the sparse system: the same fall as the dense one
    out = []
    for M in (sp.identity(3, format="csc") * 2.0, 2.0 * np.eye(3)):
        mm = ns.Model()
        ds = mm.add_lagrangian(M, np.zeros(3), fext=[-9.81, 0.0, 1.0])
        sim = ns.Simulation(mm, h=1e-3)
        sim.run(0.1)
        out.append(sim.q(ds).copy())
    np.testing.assert_allclose(out[0], out[1], rtol=1e-14, atol=1e-15)
    assert abs(out[0][0] - (-9.81 / 2.0) * 0.1 ** 2 / 2) < 1e-12   # M q'' = f: q = f t^2 / (2 M) (theta = 1/2)
