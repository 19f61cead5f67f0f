"""Live models: contacts that change between steps (Model.set_relation),
per-step hooks of Simulation.run (before_step, after_step) and the bulk
state getter/setter (Simulation.state, set_states)."""
import numpy as np
import pytest

import nonsmooth as ns

G, H = 9.81, 1e-3


def ball_on_floor(Hrow):
    m = ns.Model()
    ball = m.add_lagrangian(np.eye(2), q0=[0.0, 0.5], v0=[1.0, 0.0], fext=[0.0, -G])
    inter = m.add_interaction(m.add_law("newton", e=0.0), ball, H=[Hrow])
    return m, ball, inter


def test_set_relation_from_a_hook_equals_a_model_built_with_it():
    """A floor tilted at step 100 by before_step: from there on the run is the
    run of a model built with the tilted floor, started from the same state."""
    H0, H1 = [0.0, 1.0], [-np.sin(0.2), np.cos(0.2)]
    mA, a, i = ball_on_floor(H0)
    simA = ns.Simulation(mA, h=H)
    calls = []

    def before(sim):
        calls.append(sim.steps)
        if sim.steps == 100:
            mA.set_relation(i, [H1])

    trA = simA.run(0.6, before_step=before)
    assert calls == list(range(600))
    mB, b, j = ball_on_floor(H1)
    simB = ns.Simulation(mB, h=H, t0=trA["t"][100])
    simB.set_states(q=trA["q"][a][100], v=trA["v"][a][100])
    trB = simB.run(0.6)
    assert len(trB["t"]) == len(trA["t"]) - 100
    np.testing.assert_allclose(trA["q"][a][100:], trB["q"][b], rtol=0, atol=1e-12)
    np.testing.assert_allclose(trA["v"][a][100:], trB["v"][b], rtol=0, atol=1e-12)
    # it fell (free fall is exact with theta = 1/2) and lies on the tilted floor
    t1 = trA["t"][50]
    assert trA["q"][a][50][1] == pytest.approx(0.5 - G * t1 ** 2 / 2, abs=1e-12)
    y = np.asarray(H1) @ trA["q"][a][-1]
    assert -np.sqrt(2 * G * 0.5) * H <= y <= 1e-9
    assert np.asarray(H1) @ trA["v"][a][-1] == pytest.approx(0.0, abs=1e-9)


def test_after_step_stops_the_run_and_the_last_row_is_where_it_stopped():
    m, ball, inter = ball_on_floor([0.0, 1.0])
    sim = ns.Simulation(m, h=H)
    tr = sim.run(1.0, every=7, after_step=lambda s: s.steps == 250)
    assert sim.steps == 250 and tr["t"][-1] == pytest.approx(0.25, abs=1e-12)
    np.testing.assert_array_equal(tr["q"][ball][-1], sim.q(ball))
    with pytest.raises(ZeroDivisionError):
        sim.run(1.0, before_step=lambda s: 1 / 0)
    with pytest.raises(TypeError):
        sim.run(1.0, before_step=3)


def test_bulk_state_and_set_relation_checks():
    m = ns.Model()
    a = m.add_lagrangian(np.eye(2), q0=[1.0, 2.0], v0=[3.0, 4.0])
    fo = m.add_first_order(-np.eye(1), [7.0])
    c = m.add_lagrangian(np.eye(3), q0=[5.0, 6.0, 7.0], v0=[8.0, 9.0, 10.0])
    i = m.add_interaction(m.add_law("newton", e=0.5), a, H=[[0.0, 1.0]])
    sim = ns.Simulation(m, h=H)
    st = sim.state()
    assert list(st["offsets"]) == [0, 2, 2, 5]
    np.testing.assert_array_equal(st["q"], [1, 2, 5, 6, 7])
    np.testing.assert_array_equal(st["v"], [3, 4, 8, 9, 10])
    sim.set_states(q=np.arange(5.0))
    np.testing.assert_array_equal(sim.q(a), [0, 1])
    np.testing.assert_array_equal(sim.q(c), [2, 3, 4])
    np.testing.assert_array_equal(sim.v(c), [8, 9, 10])
    with pytest.raises(ValueError):
        sim.set_states(q=np.zeros(4))
    with pytest.raises(ValueError):
        sim.set_states(v=[0, 0, 0, 0, np.nan])
    np.testing.assert_array_equal(sim.v(a), [3, 4])          # nothing written on a refusal
    with pytest.raises(ValueError):
        m.set_relation(i, [[1.0, 0.0, 0.0]])                   # wrong shape
    with pytest.raises(ns.InputError):
        m.set_relation(99, [[1.0, 0.0]])
    m.set_relation(i, [[1.0, 0.0]], b=[-0.5])
    sim.step()
    assert sim.y(i, level=0)[0] == pytest.approx(sim.q(a)[0] - 0.5, abs=1e-12)
