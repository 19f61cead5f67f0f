"""Pickling a Model: the copy is rebuilt from the calls that built the
original (arrays as the model took them), so that a simulation of the copy
runs bit for bit as one of the original; a callback pickle refuses is named
in a TypeError."""
import copy
import math
import pickle

import numpy as np
import pytest

import nonsmooth as ns

R_BOWL = 0.9


def bowl_h(t, Q):
    return [R_BOWL - math.hypot(Q[0], Q[1]), 0.0]


def bowl_jach(t, Q):
    d = math.hypot(Q[0], Q[1])
    return [[-Q[0] / d, -Q[1] / d], [-Q[1] / d, Q[0] / d]]


def gravity(t):
    return [0.0, -9.81 + 0.1 * math.sin(10 * t)]


def build():
    m = ns.Model()
    M = np.eye(2)
    ball = m.add_lagrangian(M, [0.5, -0.7], [1.0, 0.3], fext=gravity)
    M[:] = 7.0                                         # the model took M as it was
    fric = m.add_law("newton_coulomb", dim=2, e=0.5, mu=0.3)
    m.add_interaction(fric, ball, h=bowl_h, jach=bowl_jach, size=2)
    beads = [m.add_lagrangian(np.eye(1), [1.0 + k], [0.0], fext=[-9.81]) for k in range(3)]
    law = m.add_law("newton", e=0.8)
    floor = m.add_interaction(law, beads[0], H=[[1.0]])
    links = [m.add_interaction(law, beads[k], beads[k + 1], H=[[-1.0, 1.0]], b=[-0.1]) for k in range(2)]
    m.remove_interaction(links[1])
    m.add_interaction(law, beads[1], beads[2], H=[[-1.0, 1.0]], b=[-0.2])
    m.set_relation(floor, [[1.0]], b=[-0.05])
    circ = m.add_first_order([[0.0, -1.0], [1.0, -0.1]], [1.0, 0.0])
    m.add_interaction(m.add_law("complementarity", size=1), circ, C=[[1.0, 0.0]], D=[[1.0]], B=[[0.0], [1.0]])
    return m


def run(m):
    sim = ns.Simulation(m, h=1e-3, tol=1e-12)
    return sim.run(0.3)


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return np.array_equal(np.asarray(a), np.asarray(b))


def test_round_trip_runs_bit_for_bit():
    m = build()
    m2 = pickle.loads(pickle.dumps(m))
    assert (m2.nds, m2.ninter) == (m.nds, m.ninter)
    ta, tb = run(m), run(m2)
    assert same(ta, tb)
    assert ta["q"][0].shape[0] == 301 and np.all(np.isfinite(ta["q"][0]))
    m3 = copy.deepcopy(m)                               # copy goes through the same path
    assert same(run(m3), ta)
    # and a pickle of the copy is the same again
    assert same(run(pickle.loads(pickle.dumps(m2, protocol=pickle.HIGHEST_PROTOCOL))), ta)


def test_unpicklable_callback_is_named():
    m = ns.Model()
    m.add_lagrangian(np.eye(1), [1.0], fext=lambda t: [0.0])
    with pytest.raises(TypeError, match=r"callback fext=.*lambda.*add_lagrangian.*id 0"):
        pickle.dumps(m)
    m = ns.Model()
    d = m.add_lagrangian(np.eye(2), [0.5, -0.5])
    law = m.add_law("newton", e=0.0)

    def local_h(t, Q):
        return [Q[0]]
    m.add_interaction(law, d, h=local_h, jach=bowl_jach, size=1)
    with pytest.raises(TypeError, match=r"callback h=.*local_h.*add_interaction"):
        pickle.dumps(m)


def test_empty_model_and_journal_is_a_copy():
    m = pickle.loads(pickle.dumps(ns.Model()))
    assert m.nds == 0 and m.ninter == 0
    m = build()
    j = m._journal
    j.clear()
    assert len(m._journal) > 0


def tilted_floor_model():
    m = ns.Model()
    ball = m.add_lagrangian(np.eye(2), [0.0, 0.3], [1.0, 0.0], fext=[0.0, -9.81])
    law = m.add_law("newton_coulomb", dim=2, e=0.5, mu=0.2)
    floor = m.add_interaction(law, ball, H=[[0.0, 1.0], [1.0, 0.0]], b=[-0.1, 0.0])
    wall = m.add_interaction(law, ball, H=[[-1.0, 0.0], [0.0, 1.0]], b=[2.0, 0.0])
    return m, [floor, wall]


def tilt(k):
    a = 0.05 * math.sin(0.01 * k)
    n, t = (-math.sin(a), math.cos(a)), (math.cos(a), math.sin(a))
    H = np.array([[[n[0], n[1]], [t[0], t[1]]], [[-1.0, 0.0], [0.0, 1.0]]])
    return H, np.array([[-0.1, 0.0], [2.0 + 0.001 * k, 0.0]])


def test_set_relations_equals_set_relation_and_journal_stays_bounded():
    runs = []
    for bulk in (True, False):
        m, ids = tilted_floor_model()
        sim = ns.Simulation(m, h=1e-3, tol=1e-12)
        k = [0]

        def hook(s):
            H, b = tilt(k[0])
            if bulk:
                m.set_relations(ids, H, b)
            else:
                for i, iid in enumerate(ids):
                    m.set_relation(iid, H[i], b=b[i])
            k[0] += 1
        runs.append(sim.run(0.5, before_step=hook))
        assert len(m._journal) == 6          # the adds and one set_relation per interaction
        # the copy is the model as it is now: its replay gives the last H, b
        m2 = pickle.loads(pickle.dumps(m))
        assert same(run(m2), run(m))
    assert same(runs[0], runs[1])


def test_set_relations_checks_everything_first():
    m, ids = tilted_floor_model()
    H, b = tilt(0)
    with pytest.raises(ns.InputError, match="no interaction 7"):
        m.set_relations([ids[0], 7], H, b)
    with pytest.raises(ns.InputError, match="first dimensions"):
        m.set_relations(ids, H[:1], b)
    with pytest.raises(ns.InputError, match="shape"):
        m.set_relations(ids, np.zeros((2, 3, 2)), None)
    bad = H.copy()
    bad[1, 0, 0] = np.nan
    with pytest.raises(ns.InputError, match="non-finite"):
        m.set_relations(ids, bad, b)
    d = m.add_lagrangian(np.eye(2), [0.5, -0.5])
    nl = m.add_interaction(m.add_law("newton", size=2, e=0.0), d, h=bowl_h, jach=bowl_jach, size=2)
    with pytest.raises(ns.InputError, match="not Lagrangian linear"):
        m.set_relations([ids[0], nl], H, b)
    # nothing was changed by the refused calls: the journal holds no set_relation
    assert all(e[0] != "set_relation" for e in m._journal)
