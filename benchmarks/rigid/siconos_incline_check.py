#!/usr/bin/env python3
"""Runs a box sliding with friction under Siconos 4.x (python3-siconos,
MechanicsHdf5Runner with Bullet) in several poses that describe the same
physical problem, and prints its acceleration against the exact
g (sin a - mu cos a); then checks Siconos' own momentum balance on the
incline: the impulse that changed the box's momentum against the FC3D
reactions Siconos reports for the same step.

usage: siconos_incline_check.py [alpha] [mu]

Every run: h = 1e-3, theta = 1/2, NSGS to 1e-10 (10 000 iterations at
most), one Newton iteration, box 1 x 0.6 x 0.4 of mass 1.5 resting on a
static 20 x 20 x 0.2 box; acceleration measured between t = 0.1 and 0.2 s.
"""
import math
import os
import sys
import tempfile

import h5py
import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn
from siconos.io.mechanics_hdf5 import MechanicsHdf5
from siconos.io.mechanics_run import MechanicsHdf5Runner
from siconos.mechanics.collision.tools import Contactor

G = 9.80665
DIMS = (1.0, 0.6, 0.4)
MASS = 1.5


def rot(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return [w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2]


def axis_q(axis, a):
    s = math.sin(a / 2)
    return [math.cos(a / 2)] + [s * c for c in axis]


def run(path, ground_q, box_q, gravity):
    """gravity: world vector; the box rests on the ground's +z face"""
    n = rot(ground_q)[:, 2]
    lx, ly, lz = DIMS
    inertia = [MASS / 12 * (ly * ly + lz * lz), MASS / 12 * (lx * lx + lz * lz), MASS / 12 * (lx * lx + ly * ly)]
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Box', 'Box', DIMS)
        io.add_primitive_shape('Ground', 'Box', (20.0, 20.0, 0.2))
        io.add_Newton_impact_friction_nsl('contact', mu=MU, e=0.0)
        io.add_object('ground', [Contactor('Ground')], translation=list(-0.1 * n), orientation=ground_q)
        io.add_object('box', [Contactor('Box')], translation=list(0.5 * lz * n), orientation=box_q,
                      mass=MASS, inertia=inertia)

    def weight(body):
        body.setFExtPtr([body.scalarMass() * c for c in gravity])

    so = sk.solver_options_create(sn.SICONOS_FRICTION_3D_NSGS)
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
    with MechanicsHdf5Runner(mode='r+', io_filename=path, set_external_forces=weight) as io:
        io.run(T=0.2, h=1e-3, theta=0.5, Newton_max_iter=1, solver_options=so, verbose=False,
               verbose_progress=False, output_frequency=1)
    with h5py.File(path, 'r') as f:
        v = f['data/velocities'][()].astype(float)
        cf = f['data/cf'][()].astype(float)
    v = v[v[:, 1] == 1]
    g_n = np.dot(gravity, n)
    g_t = np.array(gravity) - g_n * n
    t = g_t / np.linalg.norm(g_t)
    vs = v[:, 2:5] @ t
    i0 = np.argmin(abs(v[:, 0] - 0.1))
    a = (vs[-1] - vs[i0]) / (v[-1, 0] - v[i0, 0])
    exact = np.linalg.norm(g_t) + MU * g_n           # g_n < 0
    # momentum balance of the last step: m dv - m g h is the impulse applied
    p = MASS * (v[-1, 2:5] - v[-2, 2:5]) - MASS * 1e-3 * np.array(gravity)
    rows = cf[np.isclose(cf[:, 0], v[-1, 0])]
    lam = rows[:, 20:23]          # reaction impulses in the local frames (n, t1, t2)
    return a, exact, p @ n, lam[:, 0].sum(), np.linalg.norm(p - (p @ n) * n), np.linalg.norm(lam[:, 1:], axis=1).sum()


if __name__ == '__main__':
    alpha = float(sys.argv[1]) if len(sys.argv) > 1 else 0.45
    MU = float(sys.argv[2]) if len(sys.argv) > 2 else 0.3
    I = [1.0, 0.0, 0.0, 0.0]
    tilted = [G * math.sin(alpha), 0.0, -G * math.cos(alpha)]
    down = [0.0, 0.0, -G]
    cases = [
        ('flat ground, box axis-aligned, gravity tilted', I, I, tilted),
        ('flat ground, box turned 0.6 rad about the normal, gravity tilted', I, axis_q([0, 0, 1], 0.6), tilted),
        ('ground and box turned about y, gravity -z (the incline scene)', axis_q([0, 1, 0], alpha),
         axis_q([0, 1, 0], alpha), down),
        ('ground and box turned about x, gravity -z', axis_q([1, 0, 0], -alpha), axis_q([1, 0, 0], -alpha), down),
        ('incline about y, box also turned 0.6 rad about its normal', axis_q([0, 1, 0], alpha),
         qmul(axis_q([0, 1, 0], alpha), axis_q([0, 0, 1], 0.6)), down),
    ]
    tmp = tempfile.mkdtemp()
    out = []
    for k, (name, gq, bq, g) in enumerate(cases):
        out.append((name,) + run(os.path.join(tmp, 'case%d.hdf5' % k), gq, bq, g))
    print('alpha = %g, mu = %g: exact a = %.8g' % (alpha, MU, out[0][2]))
    print('%-66s %12s %10s | %s' % ('pose', 'a', 'a/exact-1', 'last step: applied vs reported impulse, normal / tangential'))
    for name, a, ex, pn, ln, pt, lt in out:
        print('%-66s %12.8g %10.2e | %.6g / %.6g   %.6g / %.6g' % (name, a, a / ex - 1, pn, ln, pt, lt))
