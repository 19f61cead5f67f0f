#!/usr/bin/env python3
"""Writes the rigid-body example scenes as Siconos mechanics HDF5 files with
Siconos' own writer (siconos.io.mechanics_hdf5, python3-siconos):

  box_incline_slip.hdf5   a box resting on a plane inclined at 0.45 rad, mu 0.3 (it slides)
  box_incline_stick.hdf5  the same at 0.2 rad (it sticks)
  stack10.hdf5            ten boxes stacked on the ground
  pendulum3.hdf5          three links on PivotJointR joints, released horizontal
  wall_ball.hdf5          a 6 x 4 brick wall hit by a ball

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


if __name__ == '__main__':
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    os.makedirs(out, exist_ok=True)
    box_incline(os.path.join(out, 'box_incline_slip.hdf5'), 0.45, 0.3)
    box_incline(os.path.join(out, 'box_incline_stick.hdf5'), 0.2, 0.3)
    stack10(os.path.join(out, 'stack10.hdf5'))
    pendulum3(os.path.join(out, 'pendulum3.hdf5'))
    wall_ball(os.path.join(out, 'wall_ball.hdf5'))
