"""Rigid bodies from Python (Model.add_rigid_body, add_contact, add_joint;
docs/rigid-bodies.md), checked against conservation laws and exact answers."""
import math

import numpy as np
import pytest

import nonsmooth as ns

G = 9.81


def rot(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def test_torque_free_body_keeps_energy_and_angular_momentum():
    I = np.array([1.0, 2.0, 3.5])
    m = ns.Model()
    b = m.add_rigid_body(2.0, I, [0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0.05, 2.0, 0.1])
    sim = ns.Simulation(m, h=1e-3, newton_tol=1e-14, newton_max_iter=50)
    traj = sim.run(10.0)
    q, v = traj["q"][b], traj["v"][b]
    assert q.shape[1] == 7 and v.shape[1] == 6
    E = 0.5 * np.sum(I * v[:, 3:] ** 2, axis=1)
    L = np.array([rot(qq[3:]) @ (I * vv[3:]) for qq, vv in zip(q, v)])
    assert np.max(np.abs(E - E[0])) <= 1e-8 * E[0]
    assert np.max(np.linalg.norm(L - L[0], axis=1)) <= 1e-8 * np.linalg.norm(L[0])
    assert np.max(np.abs(np.linalg.norm(q[:, 3:], axis=1) - 1)) <= 1e-12
    assert v[:, 4].min() < 0 < v[:, 4].max()   # it tumbled


def test_box_at_rest_corner_reactions_carry_the_weight():
    mass, h, a, b, c = 2.5, 1e-3, 0.5, 0.3, 0.2
    m = ns.Model()
    box = m.add_rigid_body(mass, [mass / 3 * (b * b + c * c), mass / 3 * (a * a + c * c), mass / 3 * (a * a + b * b)],
                           [0, 0, c, 1, 0, 0, 0], fext=[0, 0, -mass * G, 0, 0, 0])
    law = m.add_law("newton_coulomb", e=0.0, mu=0.5)
    corners = [m.add_contact(law, box, normal=[0, 0, 1], r1=[sx * a, sy * b, -c])
               for sx in (-1, 1) for sy in (-1, 1)]
    sim = ns.Simulation(m, h=h, tol=1e-14, max_iter=100000)
    for _ in range(500):
        sim.step()
        total = sum(sim.lam(i)[0] for i in corners) / h
        assert abs(total - mass * G) <= 1e-10 * mass * G
    assert abs(sim.q(box)[2] - c) <= 1e-12


def test_revolute_pendulum_keeps_its_joint_with_projection():
    L = 0.5
    m = ns.Model()
    q0 = [0.5 * L, 0, 0, 1, 0, 0, 0]
    link = m.add_rigid_body(1.0, [1e-4, L * L / 12, L * L / 12], q0, fext=[0, 0, -G, 0, 0, 0])
    law = m.add_law("equality", size=5)
    j = m.add_joint("revolute", law, link, q1=q0, anchor=[0, 0, 0], axis=[0, 1, 0])
    sim = ns.Simulation(m, h=1e-3, projection="direct", projection_tol=1e-12, newton_tol=1e-13)
    for _ in range(500):
        sim.step()
        assert np.max(np.abs(sim.y(j, 0))) <= 1e-10
    x = sim.q(link)[:3]
    assert abs(np.linalg.norm(x) - 0.5 * L) <= 1e-10 and x[2] < -0.1


def test_bad_input_is_refused_by_name():
    m = ns.Model()
    with pytest.raises(ns.InputError, match="mass"):
        m.add_rigid_body(0.0, [1, 1, 1])
    with pytest.raises(ns.InputError, match="quaternion"):
        m.add_rigid_body(1.0, [1, 1, 1], [0, 0, 0, 1, 0.5, 0, 0])
    with pytest.raises(ns.InputError, match="inertia"):
        m.add_rigid_body(1.0, [1, -1, 1])
    b = m.add_rigid_body(1.0, [1, 1, 1])
    law = m.add_law("equality", size=5)
    with pytest.raises(ns.InputError, match="unknown kind 'hinge'"):
        m.add_joint("hinge", law, b, q1=[0, 0, 0, 1, 0, 0, 0], anchor=[0, 0, 0], axis=[0, 0, 1])
    with pytest.raises(ns.InputError, match="axis"):
        m.add_joint("revolute", law, b, q1=[0, 0, 0, 1, 0, 0, 0], anchor=[0, 0, 0], axis=[0, 0, 2])
    with pytest.raises(ns.InputError, match="normal"):
        m.add_contact(m.add_law("newton", e=0.0), b, normal=[0, 0, 3], size=1)
    with pytest.raises(ns.InputError, match="rigid body"):
        m.add_interaction(m.add_law("newton", e=0.0), b, H=[[0, 0, 1, 0, 0, 0]])
