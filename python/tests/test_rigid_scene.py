"""Rigid-body scenes from Python (nonsmooth.Scene: shapes, bodies, laws,
contactors, joints, Bullet collision detection; Scene.read_hdf5 for
Siconos mechanics HDF5 files), checked against exact answers."""
import math
import os

import numpy as np
import pytest

import nonsmooth as ns

needs_scene = pytest.mark.skipif(not hasattr(ns, "Scene"), reason="built without Bullet (no nonsmooth.Scene)")

G = 9.80665


def q_y(a):
    return [math.cos(a / 2), 0.0, math.sin(a / 2), 0.0]


def slope_acceleration(r, alpha, body=0):
    """dv/dt along the incline's downhill direction over the second half"""
    t = np.array([math.cos(alpha), 0.0, -math.sin(alpha)])
    vs = r["v"][:, body, :3] @ t
    n = len(vs) - 1
    return (vs[n] - vs[n // 2]) / (r["t"][n] - r["t"][n // 2])


def incline_scene(alpha, mu):
    n = [math.sin(alpha), 0.0, math.cos(alpha)]
    sc = ns.Scene()
    sc.primitive("Cube", "Box", [1.0, 0.6, 0.4])
    sc.primitive("Ground", "Box", [20.0, 20.0, 0.2])
    sc.law("contact", 0.0, mu)
    sc.body("ground", translation=[-0.1 * c for c in n], orientation=q_y(alpha))
    sc.contactor("ground", "Ground")
    m = 1.5
    sc.body("cube", mass=m, inertia=[m / 12 * (0.36 + 0.16), m / 12 * (1.0 + 0.16), m / 12 * (1.0 + 0.36)],
            translation=[0.2 * c for c in n], orientation=q_y(alpha))
    sc.contactor("cube", "Cube")
    return sc


@needs_scene
def test_box_slides_at_the_coulomb_acceleration():
    alpha, mu = 0.45, 0.3
    r = incline_scene(alpha, mu).run(0.5, h=1e-3, tol=1e-12)
    assert r["names"] == ["cube"]
    assert r["q"].shape == (501, 1, 7) and r["v"].shape == (501, 1, 6)
    a = slope_acceleration(r, alpha)
    exact = G * (math.sin(alpha) - mu * math.cos(alpha))
    assert abs(a / exact - 1) <= 1e-6
    assert r["contacts"][-1] >= 3      # the face rests on its manifold points
    # energy only goes down (friction), never up
    assert np.all(np.diff(r["energy"]) <= 1e-9)


@needs_scene
def test_box_below_the_friction_angle_stays():
    alpha, mu = 0.2, 0.3
    r = incline_scene(alpha, mu).run(0.3, h=1e-3, tol=1e-12)
    # Placed exactly touching, the box may fall freely for its first step:
    # Bullet can report that contact at a distance of round-off above 0 (it
    # depends on which of the two objects comes first), and the contact
    # becomes active once the gap has closed. From step 2 on it must not move.
    dx = r["q"][2:, 0, :3] - r["q"][2, 0, :3]
    assert np.max(np.abs(dx)) <= 1e-8
    assert np.max(np.abs(r["v"][2:, 0])) <= 1e-8
    assert np.max(np.abs(r["q"][2, 0, :3] - r["q"][0, 0, :3])) <= 2e-5   # at most g h^2


@needs_scene
def test_sphere_rolls_at_five_sevenths():
    """added shapes: a sphere on a plane turned by alpha rolls without
    slipping (mu large) at 5/7 g sin alpha"""
    alpha, rho, m = 0.3, 0.2, 2.0
    n = [math.sin(alpha), 0.0, math.cos(alpha)]
    sc = ns.Scene()
    sc.primitive("Ball", "Sphere", [rho])
    sc.primitive("Floor", "Plane", [])
    sc.law("contact", 0.0, 1.0)
    sc.body("floor", orientation=q_y(alpha))
    sc.contactor("floor", "Floor")
    sc.body("ball", mass=m, inertia=[0.4 * m * rho * rho] * 3, translation=[rho * c for c in n])
    sc.contactor("ball", "Ball")
    r = sc.run(0.4, h=1e-3, tol=1e-12)
    a = slope_acceleration(r, alpha)
    assert abs(a / (5.0 / 7.0 * G * math.sin(alpha)) - 1) <= 1e-6


def write_siconos_incline(path, alpha, mu):
    """a scene in the layout of siconos.io.mechanics_hdf5 (MechanicsHdf5)"""
    h5py = pytest.importorskip("h5py")
    n = [math.sin(alpha), 0.0, math.cos(alpha)]
    with h5py.File(path, "w") as f:
        f.attrs["dimension"] = 3
        ref = f.create_group("data/ref")
        for k, (name, dims) in enumerate((("Cube", [1.0, 0.6, 0.4]), ("Ground", [20.0, 20.0, 0.2]))):
            d = ref.create_dataset(name, data=np.array([dims]))
            d.attrs["type"] = "primitive"
            d.attrs["primitive"] = "Box"
            d.attrs["id"] = k
        inp = f.create_group("data/input")
        m = 1.5
        for name, shape, typ, x, extra in (
                ("ground", "Ground", "static", [-0.1 * c for c in n], {}),
                ("cube", "Cube", "dynamic", [0.2 * c for c in n],
                 {"mass": m, "inertia": [m / 12 * (0.36 + 0.16), m / 12 * (1.0 + 0.16), m / 12 * (1.0 + 0.36)]})):
            g = inp.create_group(name)
            g.attrs["type"] = typ
            g.attrs["id"] = -1 if typ == "static" else 1
            g.attrs["translation"] = x
            g.attrs["orientation"] = q_y(alpha)
            g.attrs["velocity"] = [0.0] * 6
            g.attrs["center_of_mass"] = [0.0] * 3
            for k, v in extra.items():
                g.attrs[k] = v
            c = g.create_dataset(shape + "-0", shape=(0,), dtype="f8")
            c.attrs["shape_name"] = shape
            c.attrs["instance_name"] = shape + "-0"
            c.attrs["group"] = 0
            c.attrs["translation"] = [0.0] * 3
            c.attrs["orientation"] = [1.0, 0.0, 0.0, 0.0]
        law = f.create_dataset("data/nslaws/contact", shape=(1,), dtype="f8")
        law.attrs["type"] = "NewtonImpactFrictionNSL"
        law.attrs["mu"] = mu
        law.attrs["e"] = 0.0
        law.attrs["gid1"] = 0
        law.attrs["gid2"] = 0
        f.create_group("data/joints")


@needs_scene
def test_siconos_hdf5_scene_runs_unchanged(tmp_path):
    alpha, mu = 0.45, 0.3
    path = os.path.join(tmp_path, "incline.hdf5")
    write_siconos_incline(path, alpha, mu)
    sc = ns.Scene.read_hdf5(path)
    r = sc.run(0.5, h=1e-3, tol=1e-12)
    assert r["names"] == ["cube"]
    a = slope_acceleration(r, alpha)
    assert abs(a / (G * (math.sin(alpha) - mu * math.cos(alpha))) - 1) <= 1e-6
    # the scene can be extended from Python before it runs: a second cube
    # 3 m up the slope slides the same way
    n = np.array([math.sin(alpha), 0.0, math.cos(alpha)])
    t = np.array([math.cos(alpha), 0.0, -math.sin(alpha)])
    m = 1.5
    sc.body("cube2", mass=m, inertia=[m / 12 * (0.36 + 0.16), m / 12 * (1.0 + 0.16), m / 12 * (1.0 + 0.36)],
            translation=list(0.2 * n - 3.0 * t), orientation=q_y(alpha))
    sc.contactor("cube2", "Cube")
    r2 = sc.run(0.5, h=1e-3, tol=1e-12)
    assert sorted(r2["names"]) == ["cube", "cube2"]
    for b in range(2):
        assert abs(slope_acceleration(r2, alpha, b) / (G * (math.sin(alpha) - mu * math.cos(alpha))) - 1) <= 1e-6


@needs_scene
def test_pendulum_scene_on_a_pivot_keeps_its_length_and_energy():
    """a joint from Python: a box hanging on a PivotJointR swings with its
    centre at a fixed distance from the pivot and its energy kept"""
    sc = ns.Scene()
    sc.primitive("Link", "Box", [0.5, 0.04, 0.04])
    m = 1.0
    sc.body("link", mass=m, inertia=[m / 12 * 0.0032, m / 12 * 0.2516, m / 12 * 0.2516], translation=[0.25, 0, 0])
    sc.contactor("link", "Link", group=1)
    sc.joint("pivot", "PivotJointR", "link", None, point=[0, 0, 0], axis=[0, 1, 0])
    r = sc.run(1.0, h=1e-3, newton_max_iter=20)
    d = np.linalg.norm(r["q"][:, 0, :3], axis=1)
    assert np.max(np.abs(d - 0.25)) <= 1e-8
    assert r["q"][:, 0, 2].min() < -0.2          # it swung down
    assert np.max(np.abs(r["energy"] - r["energy"][0])) <= 1e-9 * m * G * 0.25


@needs_scene
def test_bad_input_is_named():
    sc = ns.Scene()
    with pytest.raises(ns.InputError, match="Torus"):
        sc.primitive("T", "Torus", [1.0])
    with pytest.raises(ns.InputError, match="mass"):
        sc.body("b", mass=-1.0, inertia=[1, 1, 1])
    with pytest.raises(ns.InputError, match="inertia"):
        sc.body("b", mass=1.0, inertia=[1, 1])
    with pytest.raises(ns.InputError, match="nobody"):
        sc.contactor("nobody", "T")
    with pytest.raises(ns.InputError, match="points"):
        sc.convex("hull", [[0, 0], [1, 0]])
    with pytest.raises(ns.FileError):
        ns.Scene.read_hdf5("/nonexistent/scene.hdf5")
    with pytest.raises(ns.InputError):
        ns.Scene().run(-1.0)


@needs_scene
def test_non_hdf5_file_is_refused(tmp_path):
    p = os.path.join(tmp_path, "junk.hdf5")
    with open(p, "w") as f:
        f.write("not an HDF5 file\n")
    with pytest.raises(ns.InputError):
        ns.Scene.read_hdf5(p)


def test_relay_on_a_lagrangian_relation_is_dry_friction():
    """the relay law at velocity level: a block of mass m launched at v0
    against a friction force F (bounds +-F h on the impulse) decelerates at
    exactly F / m, stops at v0 m / F and stays; with a push f < F it does
    not start"""
    mass, v0, F, h = 2.0, 1.5, 4.0, 1e-3
    m = ns.Model()
    ds = m.add_lagrangian([[mass]], [0.0], [v0])
    m.add_interaction(m.add_law("relay", lb=[-F * h], ub=[F * h]), ds, H=[[1.0]])
    traj = ns.Simulation(m, h=h).run(1.0)
    t, v = traj["t"], traj["v"][ds][:, 0]
    np.testing.assert_allclose(v, np.maximum(v0 - F / mass * t, 0.0), atol=1e-12)
    m2 = ns.Model()
    ds2 = m2.add_lagrangian([[mass]], [0.0], [0.0], fext=[0.8 * F])
    m2.add_interaction(m2.add_law("relay", lb=[-F * h], ub=[F * h]), ds2, H=[[1.0]])
    traj2 = ns.Simulation(m2, h=h).run(0.5)
    assert np.max(np.abs(traj2["v"][ds2])) <= 1e-12


@needs_scene
@pytest.mark.parametrize("kind, params, rest", [
    ("Capsule", [0.05, 0.4], 0.4 / 4 + 0.05),   # cylindrical part length/2, then the radius
    # height length/2, centred at half height, and Bullet's cone margin
    # (Siconos' default, 2 % of its smaller parameter) around it
    ("Cone", [0.1, 0.4], 0.4 / 4 + 0.02 * 0.1),
    ("Cylinder", [0.1, 0.4], 0.4 / 2),
])
def test_siconos_shape_sizes(kind, params, rest):
    """Siconos' Capsule(r, length) and Cone(r, length) are Bullet's unit
    shapes scaled by (r, length/2, r): dropped upright from 1 cm, they
    come to rest with their centre at that height (within the impact's
    penetration, v h)"""
    q_up = [math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0]   # body y (the axis) up
    sc = ns.Scene()
    sc.primitive("S", kind, params)
    sc.primitive("Floor", "Box", [2.0, 2.0, 0.1])
    sc.law("contact", 0.0, 0.5)
    sc.body("floor", translation=[0, 0, -0.05])
    sc.contactor("floor", "Floor")
    sc.body("s", mass=0.1, inertia=[1e-3] * 3, translation=[0, 0, rest + 0.01], orientation=q_up)
    sc.contactor("s", "S")
    r = sc.run(0.3, h=1e-3)
    z = r["q"][-1, 0, 2]
    assert rest - 1e-3 <= z <= rest + 1e-3, z
    assert np.max(np.abs(r["q"][-1, 0, 3:] - q_up)) <= 1e-6       # still upright
