"""Time-stepping from Python, checked against analytic solutions and
conservation laws (Moreau-Jean / Euler-Moreau at theta = 1/2)."""
import math

import numpy as np
import pytest

import nonsmooth as ns

G = 9.81


def bouncing_ball(e=0.9, h=0.005, z0=1.0, R=0.1, **opts):
    m = ns.Model()
    M = np.diag([1.0, 1.0, 0.4 * 0.1 ** 2])
    ball = m.add_lagrangian(M, [z0, 0, 0], [0, 0, 0], fext=[-G, 0, 0])
    law = m.add_law("newton", e=e)
    inter = m.add_interaction(law, ball, H=[[1.0, 0, 0]], b=[-R])
    return m, ball, inter, ns.Simulation(m, h=h, **opts)


def test_bouncing_ball_free_flight_and_impact():
    m, ball, inter, sim = bouncing_ball()
    traj = sim.run(1.0)
    t, z, v = traj["t"], traj["q"][ball][:, 0], traj["v"][ball][:, 0]
    assert len(t) == 201 and t[0] == 0.0 and abs(t[-1] - 1.0) < 1e-12
    assert sim.steps == 200 and abs(sim.t - 1.0) < 1e-12
    # before the first impact (y = z - R reaches 0 at t* = sqrt(2 * 0.9 / g)),
    # theta = 1/2 integrates the constant force exactly
    tstar = math.sqrt(2 * 0.9 / G)
    free = t < tstar - 0.01
    np.testing.assert_allclose(z[free], 1.0 - G * t[free] ** 2 / 2, atol=1e-12)
    np.testing.assert_allclose(v[free], -G * t[free], atol=1e-12)
    # the impact: velocity reversed with restitution e (to one step of gravity)
    k = int(np.argmax(v > 0))
    vin = v[k - 1]
    assert abs(v[k] + 0.9 * vin) < 2 * G * 0.005
    assert z.min() > 0.1 - 0.01     # penetration at most O(h |v|)
    # y, ydot, lambda recorded for the interaction: y = z - R
    np.testing.assert_allclose(traj["y"][inter][:, 0], z - 0.1, atol=1e-12)
    P = traj["lambda"][inter][:, 0]
    assert P.min() >= -1e-12 and P.max() > 0.0   # impulses only at contacts
    assert set(traj) == {"t", "q", "v", "x", "y", "ydot", "lambda"}


def test_bouncing_ball_energy_never_increases():
    m, ball, inter, sim = bouncing_ball()
    traj = sim.run(5.0, every=2)
    z, v = traj["q"][ball][:, 0], traj["v"][ball][:, 0]
    E = 0.5 * v ** 2 + G * z
    assert np.all(np.diff(E) <= 1e-12)
    assert E[-1] < 0.5 * E[0]
    st = sim.stats
    assert st["steps"] == 1000 and st["solves"] > 0 and st["nonconverged"] == 0
    assert sim.last_result is None or sim.last_result["kind"] == "lcp"


def test_run_every_keeps_last_state():
    m, ball, inter, sim = bouncing_ball()
    traj = sim.run(0.1, every=3)          # 20 steps: rows 0, 3, ..., 18, then 20
    np.testing.assert_allclose(traj["t"], [0.005 * k for k in list(range(0, 20, 3)) + [20]], atol=1e-12)
    np.testing.assert_allclose(traj["q"][ball][-1], sim.q(ball))


def test_step_by_step_and_state_access():
    m, ball, inter, sim = bouncing_ball()
    for _ in range(10):
        sim.step()
    assert sim.steps == 10 and abs(sim.t - 0.05) < 1e-15
    assert repr(sim) == "<nonsmooth.Simulation: t = 0.05, h = 0.005, 10 step(s)>"
    assert repr(m) == "<nonsmooth.Model: 1 system(s), 1 interaction(s)>" and sim.model is m
    np.testing.assert_allclose(sim.v(ball), [-G * 0.05, 0, 0], atol=1e-12)
    np.testing.assert_allclose(sim.y(inter), [sim.q(ball)[0] - 0.1])
    assert sim.kinetic_energy(ball) == pytest.approx(0.5 * (G * 0.05) ** 2)
    sim.set_state(ball, v=[0.0, 1.0, 0.0])
    sim.step()
    assert sim.q(ball)[1] == pytest.approx(0.005)
    assert sim.index_set(0) == [inter]
    with pytest.raises(ns.InputError):
        sim.x(ball)
    with pytest.raises(ns.InputError):
        sim.q(5)
    with pytest.raises(ns.InputError):
        sim.y(7)


def test_harmonic_oscillator_conserves_energy():
    # theta = 1/2 on M q'' + K q = 0 is the trapezoidal rule: the quadratic
    # energy is conserved to round-off, and the phase error is O(h^2)
    m = ns.Model()
    k, mass = 4.0, 1.0
    ds = m.add_lagrangian([[mass]], [1.0], [0.0], K=[[k]])
    sim = ns.Simulation(m, h=0.01)
    traj = sim.run(10.0)
    q, v = traj["q"][ds][:, 0], traj["v"][ds][:, 0]
    E = 0.5 * mass * v ** 2 + 0.5 * k * q ** 2
    np.testing.assert_allclose(E, 2.0, rtol=1e-12)
    np.testing.assert_allclose(q, np.cos(2.0 * traj["t"]), atol=1e-3)


def test_damped_oscillator_decays():
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(1), [1.0], [0.0], C=[[0.5]], K=[[4.0]])
    traj = ns.Simulation(m, h=0.01).run(10.0)
    E = 0.5 * traj["v"][ds][:, 0] ** 2 + 2.0 * traj["q"][ds][:, 0] ** 2
    assert np.all(np.diff(E) <= 1e-14) and E[-1] < 0.01 * E[0]


def test_time_dependent_force_callback():
    m = ns.Model()
    calls = []

    def fext(t):
        calls.append(t)
        return [math.cos(t)]
    ds = m.add_lagrangian([[1.0]], [0.0], [0.0], fext=fext)
    traj = ns.Simulation(m, h=0.001).run(1.0)
    # q'' = cos t: q = 1 - cos t
    np.testing.assert_allclose(traj["q"][ds][:, 0], 1 - np.cos(traj["t"]), atol=1e-6)
    assert len(calls) >= 1000


def test_friction_block_stops_at_analytic_distance():
    # block on the ground, 2D contact (normal z, tangent x), sliding at v0:
    # decelerates by mu g, stops after v0^2 / (2 mu g)
    mu, v0 = 0.3, 2.0
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(2), [0.0, 0.0], [v0, 0.0], fext=[0.0, -G])
    law = m.add_law("newton_coulomb", dim=2, e=0.0, mu=mu)
    m.add_interaction(law, ds, H=[[0.0, 1.0], [1.0, 0.0]])
    sim = ns.Simulation(m, h=0.001)
    traj = sim.run(1.0)
    x, vx = traj["q"][ds][:, 0], traj["v"][ds][:, 0]
    tstop = v0 / (mu * G)
    assert abs(x[-1] - v0 ** 2 / (2 * mu * G)) < 0.01
    sliding = traj["t"] < tstop - 0.01
    np.testing.assert_allclose(vx[sliding], v0 - mu * G * traj["t"][sliding], atol=0.01)
    assert abs(vx[-1]) < 1e-6 and np.all(np.abs(traj["q"][ds][:, 1]) < 1e-6)
    assert sim.last_result["kind"] == "fc2d"


def test_equality_law_joins_two_masses():
    # q1 - q2 = 0 (bilateral), force F on mass 1: both accelerate by F/(m1+m2)
    m = ns.Model()
    a = m.add_lagrangian([[1.0]], [0.0], [0.0], fext=[3.0])
    b = m.add_lagrangian([[2.0]], [0.0], [0.0])
    law = m.add_law("equality")
    m.add_interaction(law, a, b, H=[[1.0, -1.0]])
    traj = ns.Simulation(m, h=0.01).run(1.0)
    np.testing.assert_allclose(traj["v"][a][:, 0], traj["t"], atol=1e-9)
    np.testing.assert_allclose(traj["v"][b][:, 0], traj["t"], atol=1e-9)


def test_first_order_complementarity():
    # x' = -1 + r, 0 <= y = x _|_ lambda >= 0, r = lambda: x = max(1 - t, 0)
    m = ns.Model()
    ds = m.add_first_order([[0.0]], [1.0], b=lambda t: [-1.0])
    law = m.add_law("complementarity")
    inter = m.add_interaction(law, ds, C=[[1.0]], B=[[1.0]])
    sim = ns.Simulation(m, h=0.01)
    traj = sim.run(2.0)
    t, x = traj["t"], traj["x"][ds][:, 0]
    np.testing.assert_allclose(x, np.maximum(1 - t, 0), atol=0.011)
    assert x.min() >= -1e-9
    lam = traj["lambda"][inter][:, 0]
    np.testing.assert_allclose(lam[t > 1.05], 1.0, atol=1e-8)   # holds x at 0
    assert "ydot" not in traj or inter not in traj["ydot"]


def test_first_order_relay_sliding_mode():
    # x' = r, r = lambda in [-1, 1], -y in N(lambda), y = x: lambda = -sign(x)
    m = ns.Model()
    ds = m.add_first_order([[0.0]], [0.5])
    law = m.add_law("relay", lb=[-1.0], ub=[1.0])
    m.add_interaction(law, ds, C=[[1.0]], B=[[1.0]])
    traj = ns.Simulation(m, h=0.01).run(1.0)
    t, x = traj["t"], traj["x"][ds][:, 0]
    np.testing.assert_allclose(x, np.maximum(0.5 - t, 0), atol=0.011)
    assert abs(x[-1]) < 1e-9


def test_nonlinear_pendulum_callbacks():
    # pendulum q'' + (g/L) sin q = 0 via Python callbacks; energy conserved to
    # O(h^2) and the Jacobian callbacks are used
    L = 1.0
    counts = {"mass": 0, "fint": 0, "jac": 0}

    def mass(q):
        counts["mass"] += 1
        return [[1.0]]

    def fint(t, q, v):
        counts["fint"] += 1
        return [G / L * math.sin(q[0])]

    def jac_fint(t, q, v):
        counts["jac"] += 1
        return [[G / L * math.cos(q[0])]], [[0.0]]

    m = ns.Model()
    ds = m.add_lagrangian_nonlinear([1.0], [0.0], mass=mass, fint=fint, jac_fint=jac_fint)
    traj = ns.Simulation(m, h=0.001).run(2.0)
    q, v = traj["q"][ds][:, 0], traj["v"][ds][:, 0]
    E = 0.5 * v ** 2 + G / L * (1 - np.cos(q))
    np.testing.assert_allclose(E, E[0], rtol=1e-3)
    assert counts["fint"] >= 2000 and counts["jac"] >= 1 and counts["mass"] >= 1
    # small-angle check against a linear run of the same scheme
    assert q.max() <= 1.0 + 1e-6 and q.min() < -0.99


def test_nonlinear_first_order_callbacks():
    # x' = -x^3: x = x0 / sqrt(1 + 2 x0^2 t)
    m = ns.Model()
    ds = m.add_first_order_nonlinear([1.0], f=lambda t, x: -x ** 3, jac=lambda t, x: [[-3 * x[0] ** 2]])
    traj = ns.Simulation(m, h=0.001).run(1.0)
    np.testing.assert_allclose(traj["x"][ds][:, 0], 1 / np.sqrt(1 + 2 * traj["t"]), atol=1e-4)


def test_callback_exception_propagates():
    m = ns.Model()

    def bad(t, q, v):
        if t > 0.05:
            raise ZeroDivisionError("from the callback")
        return [0.0]
    ds = m.add_lagrangian_nonlinear([0.0], [1.0], mass=lambda q: [[1.0]], fint=bad)
    sim = ns.Simulation(m, h=0.01)
    with pytest.raises(ZeroDivisionError, match="from the callback"):
        sim.run(1.0)
    assert 0.04 < sim.t < 0.1
    # a callback returning the wrong shape: a clear error, no crash
    m2 = ns.Model()
    m2.add_lagrangian_nonlinear([0.0, 0.0], [1.0, 0.0], mass=lambda q: np.eye(3))
    with pytest.raises(ValueError, match="mass"):
        ns.Simulation(m2, h=0.01).run(0.1)
    m3 = ns.Model()
    m3.add_lagrangian_nonlinear([0.0], [1.0], mass=lambda q: [[1.0]], fint=lambda t, q, v: "x")
    with pytest.raises((TypeError, ValueError)):
        ns.Simulation(m3, h=0.01).run(0.1)


def test_model_errors():
    m = ns.Model()
    with pytest.raises(ValueError, match="M has shape"):
        m.add_lagrangian(np.eye(2), [0.0, 0.0, 0.0])
    with pytest.raises(ValueError):
        m.add_lagrangian(np.eye(1), [np.nan])          # library rejects or accepts; no crash
    ds = m.add_lagrangian(np.eye(2), [0.0, 0.0])
    with pytest.raises(ValueError, match="unknown law"):
        m.add_law("coulomb")
    with pytest.raises(ns.InputError):
        m.add_law("newton", e=1.5)
    with pytest.raises(ns.InputError):
        m.add_law("relay", lb=[1.0], ub=[0.0])
    law = m.add_law("newton")
    with pytest.raises(ns.InputError, match="no system"):
        m.add_interaction(law, 5, H=[[1.0, 0.0]])
    with pytest.raises(ValueError, match="H has shape"):
        m.add_interaction(law, ds, H=[[1.0, 0.0, 0.0]])
    with pytest.raises(TypeError):
        m.add_interaction(law, ds)
    with pytest.raises(TypeError, match="h"):
        ns.Simulation(m)
    with pytest.raises(ValueError, match="unknown solver"):
        ns.Simulation(m, h=0.01, solver="nope")
    with pytest.raises(ValueError, match="unknown option"):
        ns.Simulation(m, h=0.01, bogus=3)
    with pytest.raises(ns.InputError):
        ns.Simulation(m, h=-1.0)
    with pytest.raises(ns.InputError):                 # singular mass matrix
        m2 = ns.Model()
        m2.add_lagrangian(np.zeros((1, 1)), [0.0])
        ns.Simulation(m2, h=0.01)
    with pytest.raises(ns.InputError):
        m.remove_interaction(99)


def test_add_remove_interaction_between_steps():
    m, ball, inter, sim = bouncing_ball()
    sim.run(0.2)
    m.remove_interaction(inter)
    assert m.ninter == 0
    traj = sim.run(1.0)
    assert traj["q"][ball][-1, 0] < 0.0     # no floor any more: falls through
    assert traj["y"] == {}


def rod_pendulum(**opts):
    """Point mass held at distance L = 1 by the equality |Q|^2 - L^2 = 0."""
    L, th0 = 1.0, 1.0
    m = ns.Model()
    p = m.add_lagrangian(np.eye(2), [L * math.sin(th0), -L * math.cos(th0)], [0.0, 0.0], fext=[0.0, -G])
    m.add_interaction(m.add_law("equality"), p, size=1,
                      h=lambda t, Q: [Q[0] ** 2 + Q[1] ** 2 - L ** 2],
                      jach=lambda t, Q: [[2 * Q[0], 2 * Q[1]]])
    sim = ns.Simulation(m, h=1e-3, **opts)
    Q = sim.run(2.0)["q"][p]
    return np.abs(np.hypot(Q[:, 0], Q[:, 1]) - L).max(), np.arctan2(Q[:, 0], -Q[:, 1]), sim.stats


def test_nonlinear_relation_rod_pendulum():
    # point mass (x, z) held at distance L by an equality on h(Q) = |Q|^2 - L^2:
    # the angle follows theta'' = -(g/L) sin theta, as the callback pendulum does
    drift, theta, _ = rod_pendulum()
    assert drift < 0.02                                               # velocity-level drift, O(h)
    ref = ns.Model()
    d = ref.add_lagrangian_nonlinear([1.0], [0.0], mass=lambda q: [[1.0]],
                                     fint=lambda t, q, v: [G * math.sin(q[0])],
                                     jac_fint=lambda t, q, v: ([[G * math.cos(q[0])]], [[0.0]]))
    theta_ref = ns.Simulation(ref, h=1e-3).run(2.0)["q"][d][:, 0]
    np.testing.assert_allclose(theta, theta_ref, atol=0.03)


def test_rheonomous_relation_moving_platform():
    # a ball resting on a platform that rises at c: y = z - c t >= 0, dh/dt = -c;
    # with e = 0 the ball is carried at the platform's velocity
    c = 0.5
    m = ns.Model()
    ball = m.add_lagrangian([[1.0]], [0.0], [0.0], fext=[-G])
    m.add_interaction(m.add_law("newton", e=0.0), ball, size=1,
                      h=lambda t, Q: [Q[0] - c * t], jach=lambda t, Q: [[1.0]],
                      dhdt=lambda t, Q: [-c])
    traj = ns.Simulation(m, h=1e-3).run(1.0)
    t, z, v = traj["t"], traj["q"][ball][:, 0], traj["v"][ball][:, 0]
    assert np.all(z >= c * t - 2e-3)
    np.testing.assert_allclose(v[5:], c, atol=1e-6)


def test_nonlinear_relation_errors():
    m = ns.Model()
    ds = m.add_lagrangian(np.eye(2), [0.0, 1.0])
    law = m.add_law("newton")
    with pytest.raises(TypeError, match="size"):
        m.add_interaction(law, ds, h=lambda t, Q: [Q[1]], jach=lambda t, Q: [[0.0, 1.0]])
    with pytest.raises(TypeError, match="linear"):
        m.add_interaction(law, ds, h=lambda t, Q: [Q[1]], jach=lambda t, Q: [[0.0, 1.0]], size=1, H=[[0.0, 1.0]])
    with pytest.raises(TypeError, match="callable"):
        m.add_interaction(law, ds, h=3, jach=lambda t, Q: [[0.0, 1.0]], size=1)
    m.add_interaction(law, ds, h=lambda t, Q: [Q[1]], jach=lambda t, Q: [[0.0, 1.0, 2.0]], size=1)
    with pytest.raises(ValueError, match="jach"):
        ns.Simulation(m, h=0.01).run(0.5)


def test_callbacks_cannot_reenter_the_step():
    m = ns.Model()
    holder = {}

    def fext_steps(t):
        holder["sim"].step()           # re-entering the running step: refused
        return [0.0]
    m.add_lagrangian([[1.0]], [0.0], [0.0], fext=fext_steps)
    sim = holder["sim"] = ns.Simulation(m, h=0.01)
    with pytest.raises(RuntimeError, match="stepping"):
        sim.run(0.1)
    with pytest.raises(RuntimeError, match="stepping"):
        sim.step()

    m2 = ns.Model()

    def fext_changes_model(t):
        m2.add_law("newton")           # changing the model under the step: refused
        return [0.0]
    m2.add_lagrangian([[1.0]], [0.0], [0.0], fext=fext_changes_model)
    s2 = ns.Simulation(m2, h=0.01)
    with pytest.raises(RuntimeError, match="model cannot be changed"):
        s2.step()
    # outside a step the model and the simulation are usable again
    assert m2.add_law("newton") >= 0
    with pytest.raises(RuntimeError):
        s2.step()                      # the callback still changes the model
    # the mass callbacks run while the Simulation is made: same rule
    m3 = ns.Model()
    m3.add_lagrangian_nonlinear([0.0], [0.0], mass=lambda q: (m3.add_law("newton"), [[1.0]])[1])
    with pytest.raises(RuntimeError, match="model cannot be changed"):
        ns.Simulation(m3, h=0.01)


def stacked():
    """Two unit masses resting on each other on the floor (a 2-row LCP per step)."""
    m = ns.Model()
    a = m.add_lagrangian(np.eye(1), [0.0], fext=[-G])
    b = m.add_lagrangian(np.eye(1), [0.0], fext=[-G])
    law = m.add_law("newton", e=0.5)
    m.add_interaction(law, a, H=[[1.0]])
    m.add_interaction(law, a, b, H=[[-1.0, 1.0]])
    return m, a, b


def test_accept_nonconverged():
    """A step whose problem the solver does not bring below tol stops the run
    (status and message naming the solver and the way out) unless
    accept_nonconverged, which runs on and counts it."""
    with pytest.raises(ns.Error, match="'pgs'.*accept_nonconverged") as e:
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1).run(0.1)
    assert e.value.status == "max_iter"
    sim = ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, accept_nonconverged=True)
    sim.run(0.1)
    assert sim.steps == 10 and sim.stats["nonconverged"] == 10


# ---- the options of the C simulation beyond the basic ones ----------------

def test_projection_holds_an_equality_at_position_level():
    drift, theta, st = rod_pendulum()
    assert drift > 1e-7 and st["projection_iterations"] == 0      # velocity level only: it drifts
    drift_p, theta_p, st_p = rod_pendulum(projection="direct")
    # |h| = |Q|^2 - L^2 <= projection_tol (1e-10) after every step, so | |Q| - L | <= 1e-10 / (2L)
    assert drift_p <= 0.5e-10 * 1.01
    assert st_p["projection_iterations"] > 0 and st_p["projection_nonconverged"] == 0
    assert st_p["projection_violation_max"] <= 1e-10
    np.testing.assert_allclose(theta_p, theta, atol=1e-4)            # the motion itself is the same
    drift_t, _, _ = rod_pendulum(projection="direct", projection_tol=1e-6)
    assert 1e-9 < drift_t <= 0.5e-6 * 1.01                             # the tolerance is the user's


def resting_ball(**opts):
    """A ball dropped from 0.5 on the floor y = z >= 0, e = 0, h = 0.01."""
    m = ns.Model()
    b = m.add_lagrangian(np.eye(1), [0.5], [0.0], fext=[-G])
    m.add_interaction(m.add_law("newton", e=0.0), b, H=[[1.0]])
    sim = ns.Simulation(m, h=1e-2, **opts)
    return sim.run(1.0)["q"][b][:, 0], sim


def test_projection_removes_the_penetration_of_a_resting_contact():
    z, _ = resting_ball()
    assert z[-1] < -0.01                       # velocity-level impact: the penetration stays
    for opts in ({"projection": "combined"}, {"projection": "direct", "projection_all": True}):
        z, sim = resting_ball(**opts)
        assert z.min() >= -1e-10 and abs(z[-1]) <= 1e-10, opts
        assert sim.stats["projection_iterations"] > 0
    # direct projection of the step's own rows leaves the impact step (the
    # contact was not in that step's problem) and corrects the next one
    z, _ = resting_ball(projection="direct")
    assert z.min() < -1e-4 and abs(z[-1]) <= 1e-10


def test_activation_by_prediction_closes_the_contact_earlier():
    z_gamma, _ = resting_ball()
    z_pred, _ = resting_ball(activation="predicted")
    # y(q_k + h v_k) sees the floor one step ahead: less penetration at impact
    assert z_pred.min() > 0.1 * z_gamma.min() and z_pred.min() < 0


def test_newton_loop_options():
    def run(**opts):
        m = ns.Model()
        d = m.add_lagrangian_nonlinear([1.0], [0.0], mass=lambda q: [[1.0]],
                                       fint=lambda t, q, v: [G * math.sin(q[0])],
                                       jac_fint=lambda t, q, v: ([[G * math.cos(q[0])]], [[0.0]]))
        sim = ns.Simulation(m, h=1e-2, **opts)
        return sim.run(2.0)["q"][d][:, 0], sim.stats
    th, st = run()
    assert st["newton_max"] >= 2 and st["newton_iterations"] > st["steps"] and st["newton_nonconverged"] == 0
    th1, st1 = run(newton_max_iter=1)                    # Siconos' single linearised step
    assert st1["newton_max"] == 1 and st1["newton_iterations"] == st1["steps"]
    np.testing.assert_allclose(th1, th, atol=1e-6)       # one Newton step from the predictor is close
    _, st2 = run(newton_tol=1e-4)
    assert st2["newton_iterations"] < st["newton_iterations"]
    thn, stn = run(newton_criterion="abs_norm2")
    assert stn["newton_nonconverged"] == 0
    np.testing.assert_allclose(thn, th, atol=1e-8)


def test_global_fc_gmp_and_row_order_solve_the_same_step():
    # the sliding block of test_friction_block_stops_at_analytic_distance,
    # solved as local FC2D, global FC2D, a generic mechanical problem, rows by system
    mu, v0 = 0.3, 2.0
    finals, kinds = [], []
    for opts in ({}, {"global_fc": True}, {"gmp": True}, {"order_by_system": True}):
        m = ns.Model()
        ds = m.add_lagrangian(np.eye(2), [0.0, 0.0], [v0, 0.0], fext=[0.0, -G])
        m.add_interaction(m.add_law("newton_coulomb", dim=2, e=0.0, mu=mu), ds, H=[[0.0, 1.0], [1.0, 0.0]])
        sim = ns.Simulation(m, h=1e-3, **opts)
        finals.append(sim.run(1.0)["q"][ds][-1])
        kinds.append(sim.last_result["kind"])
    assert kinds == ["fc2d", "gfc2d", "gmp", "fc2d"]
    for f in finals:
        assert abs(f[0] - v0 ** 2 / (2 * mu * G)) < 0.01
        np.testing.assert_allclose(f, finals[0], atol=1e-7)


@pytest.mark.parametrize("opts, exc, text", [
    ({"projection": "sideways"}, ValueError, "direct"),
    ({"projection_metric": "euclid"}, ValueError, "mass"),
    ({"activation": 3}, ValueError, "predicted"),
    ({"newton_criterion": "abs"}, ValueError, "abs_norm2"),
    ({"projection_max_iter": 0}, ValueError, "projection_max_iter"),
    ({"newton_max_iter": 1.5}, TypeError, "newton_max_iter"),
    ({"newton_tol": -1.0}, ns.Error, "newton_tol"),
    ({"projection_tol": 0.0, "projection": "direct"}, ns.Error, "projection"),
    ({"activation_gamma": float("nan")}, ns.Error, "activation_gamma"),
    ({"activation_hold": -1e-3}, ns.Error, "activation_hold"),
    ({"gmp_solver": 7}, TypeError, "gmp_solver"),
])
def test_more_options_bad_values(opts, exc, text):
    m = ns.Model()
    b = m.add_lagrangian(np.eye(1), [1.0], [0.0], fext=[-G])
    m.add_interaction(m.add_law("newton", e=0.5), b, H=[[1.0]])
    with pytest.raises(exc, match=text):
        ns.Simulation(m, h=1e-2, **opts)


def test_solve_hook_retries_accepts_or_stops():
    # one PGS sweep does not solve the resting stack's LCP; the hook sees why
    # and retries with Lemke, which solves it exactly: the weights are carried
    seen = []

    def retry_lemke(info):
        seen.append(dict(info))
        return {"solver": "lemke", "tol": 1e-12, "max_iter": 0}   # settings carry over: max_iter back to lemke's own
    m, a, b = stacked()
    sim = ns.Simulation(m, h=0.01, solver="pgs", max_iter=1, solve_hook=retry_lemke)
    traj = sim.run(0.05)
    # once Lemke has the exact impulses, the next steps start from them (warm
    # start) and one sweep suffices: only step 0 needed the hook
    assert sim.steps == 5 and sim.stats["nonconverged"] == 0 and len(seen) == 1
    first = seen[0]
    assert first["scheme"] == "time-stepping" and first["what"] == "one-step" and first["kind"] == "lcp"
    assert first["status"] == "max_iter" and first["solver"] == "pgs" and first["attempt"] == 0
    assert first["step"] == 0 and first["error"] > 1e-8
    lam = traj["lambda"]                       # impulses h * (2 g) on the floor, h * g between
    np.testing.assert_allclose(lam[0][1:, 0], 0.01 * 2 * G, rtol=1e-10)
    np.testing.assert_allclose(lam[1][1:, 0], 0.01 * G, rtol=1e-10)
    np.testing.assert_allclose(traj["q"][a], 0.0, atol=1e-12)

    sim = ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, solve_hook=lambda info: "accept")
    sim.run(0.05)
    assert sim.steps == 5 and sim.stats["nonconverged"] >= 1   # accepted, counted, run to the end

    with pytest.raises(ns.Error, match="step") as e:
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, solve_hook=lambda info: None).run(0.05)
    assert e.value.status == "max_iter"

    attempts = []

    def more_sweeps(info):                     # a retry that never gets there: bounded attempts
        attempts.append(info["attempt"])
        return {"max_iter": 1}
    with pytest.raises(ns.Error):
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, solve_hook=more_sweeps).run(0.05)
    assert 1 < len(attempts) <= 16 and attempts == list(range(len(attempts)))


def test_solve_hook_errors():
    class Boom(Exception):
        pass

    def boom(info):
        raise Boom("from the hook")
    with pytest.raises(Boom, match="from the hook"):
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, solve_hook=boom).run(0.05)
    with pytest.raises(TypeError, match="solve_hook must return"):
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, solve_hook=lambda i: 3).run(0.05)
    with pytest.raises(ValueError, match="does not solve"):
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1,
                      solve_hook=lambda i: {"solver": "nsgs-ac"}).run(0.05)
    with pytest.raises(ValueError, match="unknown option"):
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1,
                      solve_hook=lambda i: {"tolerance": 1e-3}).run(0.05)
    with pytest.raises(TypeError, match="callable"):
        ns.Simulation(stacked()[0], h=0.01, solve_hook=42)


def test_solve_hook_referring_to_its_simulation_is_collected():
    import gc
    import weakref

    class Token:
        pass
    m, a, b = stacked()
    holder, token = {}, Token()

    def hook(info, token=token):
        return "accept" if holder["sim"].t >= 0 else "stop"
    sim = ns.Simulation(m, h=0.01, solver="pgs", max_iter=1, solve_hook=hook)
    holder["sim"] = sim                        # a cycle: sim -> hook -> holder -> sim
    sim.run(0.02)
    assert sim.stats["nonconverged"] == 2
    ref = weakref.ref(token)
    del sim, holder, hook, token
    gc.collect()
    assert ref() is None                       # the garbage collector broke the cycle


def test_log_receives_the_scheme_and_solver_messages():
    msgs = []
    sim = ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, log=lambda lv, m: msgs.append((lv, m)),
                        solve_hook=lambda info: {"solver": "lemke", "max_iter": 0})
    sim.run(0.02)
    assert (1, "step 0, t = 0: lcp solve (pgs) did not converge: max_iter, error 0.5") in msgs

    def block(**opts):
        got = []
        m = ns.Model()
        ds = m.add_lagrangian(np.eye(2), [0.0, 0.0], [2.0, 0.0], fext=[0.0, -G])
        m.add_interaction(m.add_law("newton_coulomb", dim=2, e=0.0, mu=0.3), ds, H=[[0.0, 1.0], [1.0, 0.0]])
        ns.Simulation(m, h=0.01, solver="nsgs", log=lambda lv, msg: got.append((lv, msg)), **opts).run(0.02)
        return got
    assert any(lv == 1 and msg.startswith("fc2d nsgs:") for lv, msg in block())   # verbosity 1 by default
    assert block(verbosity=0) == []                                             # the solver is silent

    def broken(level, message):
        raise RuntimeError("log broke")
    with pytest.raises(RuntimeError, match="log broke"):
        ns.Simulation(stacked()[0], h=0.01, solver="pgs", max_iter=1, log=broken,
                      solve_hook=lambda info: "accept").run(0.02)
    with pytest.raises(TypeError, match="log must be callable"):
        ns.Simulation(stacked()[0], h=0.01, log="stderr")
    with pytest.raises(ValueError, match="verbosity"):
        ns.Simulation(stacked()[0], h=0.01, log=print, verbosity=5)
