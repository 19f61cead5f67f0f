#!/usr/bin/env python3
"""Writes the rigid-body example scenes as Siconos mechanics HDF5 files with
Siconos' own writer (siconos.io.mechanics_hdf5, python3-siconos):

  box_incline_slip.hdf5   a box resting on a plane inclined at 0.45 rad, mu 0.3 (it slides)
  box_incline_stick.hdf5  the same at 0.2 rad (it sticks)
  box_slide_flat.hdf5     the box launched at 1 m/s along x on flat ground, mu 0.3
                          (stops after v0 / (mu g), travel v0^2 / (2 mu g))
  stack10.hdf5            ten boxes stacked on the ground
  pendulum3.hdf5          three links on PivotJointR joints, released horizontal
  wall_ball.hdf5          a 6 x 4 brick wall hit by a ball
  capsules1000.hdf5       1000 capsules poured into a bin (static boxes)
  chute_rocks.hdf5        convex rocks sliding down an inclined chute
  slider_crank3d.hdf5     a crank (pivot), a rod (ball joints) and a slider (prismatic)

usage: scenes.py OUTDIR
"""
import math
import os
import sys

from siconos.io.mechanics_hdf5 import MechanicsHdf5
from siconos.mechanics.collision.tools import Contactor


def rot_y(a):
    return [math.cos(a / 2), 0.0, math.sin(a / 2), 0.0]


def box_inertia(m, lx, ly, lz):
    return [m / 12 * (ly * ly + lz * lz), m / 12 * (lx * lx + lz * lz), m / 12 * (lx * lx + ly * ly)]


def box_incline(path, alpha, mu):
    n = [math.sin(alpha), 0.0, math.cos(alpha)]          # the incline's normal
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Cube', 'Box', (1.0, 0.6, 0.4))
        io.add_primitive_shape('Ground', 'Box', (20.0, 20.0, 0.2))
        io.add_Newton_impact_friction_nsl('contact', mu=mu, e=0.0)
        io.add_object('ground', [Contactor('Ground')], translation=[-0.1 * c for c in n], orientation=rot_y(alpha))
        io.add_object('cube', [Contactor('Cube')], translation=[0.2 * c for c in n], orientation=rot_y(alpha),
                      mass=1.5, inertia=box_inertia(1.5, 1.0, 0.6, 0.4))


def box_slide_flat(path, v0=1.0, mu=0.3):
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Cube', 'Box', (1.0, 0.6, 0.4))
        io.add_primitive_shape('Ground', 'Box', (20.0, 20.0, 0.2))
        io.add_Newton_impact_friction_nsl('contact', mu=mu, e=0.0)
        io.add_object('ground', [Contactor('Ground')], translation=[0, 0, -0.1])
        io.add_object('cube', [Contactor('Cube')], translation=[0, 0, 0.2], velocity=[v0, 0, 0, 0, 0, 0],
                      mass=1.5, inertia=box_inertia(1.5, 1.0, 0.6, 0.4))


def stack10(path):
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Brick', 'Box', (1.0, 1.0, 0.5))
        io.add_primitive_shape('Ground', 'Box', (20.0, 20.0, 0.2))
        io.add_Newton_impact_friction_nsl('contact', mu=0.5, e=0.0)
        io.add_object('ground', [Contactor('Ground')], translation=[0, 0, -0.1])
        for k in range(10):
            io.add_object('box%d' % k, [Contactor('Brick')], translation=[0, 0, 0.25 + 0.5 * k],
                          mass=1.0, inertia=box_inertia(1.0, 1.0, 1.0, 0.5))


def pendulum3(path):
    L = 0.5
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Link', 'Box', (L, 0.04, 0.04))
        for k in range(3):
            # links in their own collision group with no law: joints only
            io.add_object('link%d' % k, [Contactor('Link', collision_group=k + 1)], translation=[(k + 0.5) * L, 0, 0],
                          mass=1.0, inertia=box_inertia(1.0, L, 0.04, 0.04))
        io.add_joint('j0', 'link0', None, points=[[0, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR', absolute=True)
        io.add_joint('j1', 'link1', 'link0', points=[[L, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR', absolute=True)
        io.add_joint('j2', 'link2', 'link1', points=[[2 * L, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR', absolute=True)


def wall_ball(path):
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Brick', 'Box', (0.4, 0.2, 0.2))
        io.add_primitive_shape('Ball', 'Sphere', (0.15,))
        io.add_primitive_shape('Ground', 'Box', (20.0, 20.0, 0.2))
        io.add_Newton_impact_friction_nsl('contact', mu=0.5, e=0.0)
        io.add_object('ground', [Contactor('Ground')], translation=[0, 0, -0.1])
        for row in range(4):
            for col in range(6):
                x = (col - 2.5) * 0.4 + (0.2 if row % 2 else 0.0)
                io.add_object('brick%d_%d' % (row, col), [Contactor('Brick')], translation=[x, 0, 0.1 + 0.2 * row],
                              mass=1.0, inertia=box_inertia(1.0, 0.4, 0.2, 0.2))
        io.add_object('ball', [Contactor('Ball')], translation=[0.1, -1.0, 0.45], velocity=[0, 8.0, 0, 0, 0, 0],
                      mass=5.0, inertia=[0.4 * 5.0 * 0.15 ** 2] * 3)


def capsules1000(path, n=1000):
    import random
    rnd = random.Random(7)
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Capsule', 'Capsule', (0.05, 0.2))
        io.add_primitive_shape('Floor', 'Box', (2.2, 2.2, 0.1))
        io.add_primitive_shape('WallX', 'Box', (0.1, 2.2, 2.0))
        io.add_primitive_shape('WallY', 'Box', (2.2, 0.1, 2.0))
        io.add_Newton_impact_friction_nsl('contact', mu=0.4, e=0.0)
        io.add_object('floor', [Contactor('Floor')], translation=[0, 0, -0.05])
        io.add_object('wall_xm', [Contactor('WallX')], translation=[-1.15, 0, 1.0])
        io.add_object('wall_xp', [Contactor('WallX')], translation=[1.15, 0, 1.0])
        io.add_object('wall_ym', [Contactor('WallY')], translation=[0, -1.15, 1.0])
        io.add_object('wall_yp', [Contactor('WallY')], translation=[0, 1.15, 1.0])
        m, r, l = 0.1, 0.05, 0.2
        ia = m * (r * r / 4 + l * l / 12 + 0.0)
        for k in range(n):
            ix, iy, iz = k % 10, (k // 10) % 10, k // 100
            a = rnd.uniform(0, math.pi)
            io.add_object('capsule%04d' % k, [Contactor('Capsule')],
                          translation=[-0.9 + 0.2 * ix, -0.9 + 0.2 * iy, 0.3 + 0.35 * iz],
                          orientation=[math.cos(a / 2), math.sin(a / 2), 0, 0],
                          mass=m, inertia=[ia, m * r * r / 2, ia])


def chute_rocks(path, n=40):
    import random
    rnd = random.Random(3)
    alpha = 0.5
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Chute', 'Box', (6.0, 1.0, 0.1))
        io.add_primitive_shape('Side', 'Box', (6.0, 0.1, 0.5))
        io.add_Newton_impact_friction_nsl('contact', mu=0.5, e=0.0)
        q = rot_y(alpha)
        io.add_object('chute', [Contactor('Chute'), Contactor('Side', relative_translation=[0, 0.55, 0.2]),
                                Contactor('Side', relative_translation=[0, -0.55, 0.2])],
                      translation=[0, 0, 0], orientation=q)
        for k in range(n):
            pts = [[rnd.uniform(-0.1, 0.1), rnd.uniform(-0.1, 0.1), rnd.uniform(-0.1, 0.1)] for _ in range(12)]
            io.add_convex_shape('Rock%02d' % k, pts)
            x = -2.5 + 0.25 * (k % 20)
            io.add_object('rock%02d' % k, [Contactor('Rock%02d' % k)],
                          translation=[x * math.cos(alpha), -0.25 + 0.5 * (k // 20), 0.4 - x * math.sin(alpha)],
                          mass=0.5, inertia=[2e-3, 2e-3, 2e-3])


def slider_crank3d(path):
    """crank (0.2) up from the pivot at the origin, rod (0.5) down to the
    slider on the x axis, started with the crank turning at w rad/s and
    the velocities the joints allow (rod and slider translate at 0.2 w)"""
    w = 5.0
    xs = math.sqrt(0.5 ** 2 - 0.2 ** 2)
    beta = math.asin(0.2 / 0.5)
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Crank', 'Box', (0.02, 0.02, 0.2))
        io.add_primitive_shape('Rod', 'Box', (0.5, 0.02, 0.02))
        io.add_primitive_shape('Slider', 'Box', (0.1, 0.06, 0.06))
        io.add_object('crank', [Contactor('Crank', collision_group=1)], translation=[0, 0, 0.1],
                      velocity=[0.1 * w, 0, 0, 0, w, 0], mass=0.2, inertia=box_inertia(0.2, 0.02, 0.02, 0.2))
        io.add_object('rod', [Contactor('Rod', collision_group=2)], translation=[0.5 * xs, 0, 0.1],
                      orientation=rot_y(beta), velocity=[0.2 * w, 0, 0, 0, 0, 0], mass=0.3, inertia=box_inertia(0.3, 0.5, 0.02, 0.02))
        io.add_object('slider', [Contactor('Slider', collision_group=3)], translation=[xs, 0, 0],
                      velocity=[0.2 * w, 0, 0, 0, 0, 0], mass=0.5, inertia=box_inertia(0.5, 0.1, 0.06, 0.06))
        io.add_joint('crank_ground', 'crank', None, points=[[0, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR', absolute=True)
        # ball joints at both ends of the rod: with pivots the planar
        # mechanism would carry 3 redundant constraints (20 rows, 18 dofs,
        # one motion); here 16 rows leave the motion and the rod's idle spin
        io.add_joint('crank_rod', 'rod', 'crank', points=[[0, 0, 0.2]], axes=[], joint_class='KneeJointR', absolute=True)
        io.add_joint('rod_slider', 'slider', 'rod', points=[[xs, 0, 0]], axes=[], joint_class='KneeJointR', absolute=True)
        io.add_joint('slider_ground', 'slider', None, points=[], axes=[[1, 0, 0]], joint_class='PrismaticJointR', absolute=True)


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) > 2 or (len(sys.argv) > 1 and sys.argv[1].startswith('-')):
        sys.exit('scenes.py: usage: scenes.py [OUTDIR] (see --help)')
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    os.makedirs(out, exist_ok=True)
    box_incline(os.path.join(out, 'box_incline_slip.hdf5'), 0.45, 0.3)
    box_incline(os.path.join(out, 'box_incline_stick.hdf5'), 0.2, 0.3)
    box_slide_flat(os.path.join(out, 'box_slide_flat.hdf5'))
    stack10(os.path.join(out, 'stack10.hdf5'))
    pendulum3(os.path.join(out, 'pendulum3.hdf5'))
    wall_ball(os.path.join(out, 'wall_ball.hdf5'))
    capsules1000(os.path.join(out, 'capsules1000.hdf5'))
    chute_rocks(os.path.join(out, 'chute_rocks.hdf5'))
    slider_crank3d(os.path.join(out, 'slider_crank3d.hdf5'))
