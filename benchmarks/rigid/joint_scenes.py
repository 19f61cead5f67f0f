#!/usr/bin/env python3
"""Writes scenes with joint stops, joint friction and couplings as Siconos
mechanics HDF5 files with Siconos' own writer (siconos.io.mechanics_hdf5,
python3-siconos). Each has an exact answer (docs/rigid-bodies.md):

  pendulum_stop.hdf5    a link (L = 0.5, 1 kg) on a PivotJointR to the ground
                        (axis y), released horizontal, with a stop at
                        -pi/4 (stops = [[0, -pi/4, 1]]: joint angle >= -pi/4)
                        and a NewtonImpactNSL e = 0.5 named in 'nslaws'
  slider_friction.hdf5  a 1 kg box on a PrismaticJointR (axis x) launched at
                        1 m/s, with a RelayNSL [-F h, F h] (F = 2 N, h = 1e-3)
                        on its axis ('friction'): stops after m v0 / F
  slider_stick.hdf5     the same slider on an axis inclined at 0.3 rad, at rest,
                        F = 4 N > m g sin 0.3: stays
  slider_slip.hdf5      ... F = 1 N < m g sin 0.3: slides at g sin 0.3 - F / m
  screw.hdf5            a 1 kg nut on a vertical CylindricalJointR with
                        coupled = [[0, 1, 20]] (turn = 20 rad per m of travel):
                        falls at m g / (m + 20^2 I_zz)
  gears.hdf5            two wheels on PivotJointRs to the ground (axis y) and a
                        CouplerJointR between them (coupled [[0, 0, -2]],
                        references [j1, j2]); wheel 1 carries an off-centre
                        mass, wheel 2 is balanced

usage: joint_scenes.py OUTDIR [h]
"""
import math
import os
import sys

from siconos.io.mechanics_hdf5 import MechanicsHdf5
from siconos.mechanics.collision.tools import Contactor


def box_inertia(m, lx, ly, lz):
    return [m / 12 * (ly * ly + lz * lz), m / 12 * (lx * lx + lz * lz), m / 12 * (lx * lx + ly * ly)]


def pendulum_stop(path, e=0.5, limit=-math.pi / 4):
    L = 0.5
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Link', 'Box', (L, 0.04, 0.04))
        io.add_Newton_impact_nsl('stop', e=e)
        io.add_object('link', [Contactor('Link', collision_group=1)], translation=[L / 2, 0, 0],
                      mass=1.0, inertia=box_inertia(1.0, L, 0.04, 0.04))
        io.add_joint('pivot', 'link', None, points=[[0, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR',
                     absolute=True, stops=[[0, limit, 1]], nslaws='stop')


def slider(path, beta, F, h, v0):
    axis = [math.cos(beta), 0.0, math.sin(beta)]
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Slider', 'Box', (0.1, 0.06, 0.06))
        io.add_relay_nsl('friction', lb=-F * h, ub=F * h)
        io.add_object('slider', [Contactor('Slider', collision_group=1)], translation=[0, 0, 0],
                      velocity=[v0 * c for c in axis] + [0, 0, 0], mass=1.0, inertia=box_inertia(1.0, 0.1, 0.06, 0.06))
        io.add_joint('rail', 'slider', None, points=[], axes=[axis], joint_class='PrismaticJointR',
                     absolute=True, friction=['friction'])


def screw(path, ratio=20.0):
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Nut', 'Box', (0.1, 0.1, 0.05))
        io.add_object('nut', [Contactor('Nut', collision_group=1)], translation=[0, 0, 0],
                      mass=1.0, inertia=box_inertia(1.0, 0.1, 0.1, 0.05))
        io.add_joint('screw', 'nut', None, points=[[0, 0, 0]], axes=[[0, 0, 1]], joint_class='CylindricalJointR',
                     absolute=True, coupled=[[0, 1, ratio]])


def gears(path, ratio=-2.0):
    with MechanicsHdf5(path, mode='w') as io:
        io.add_primitive_shape('Arm', 'Box', (0.4, 0.04, 0.04))
        io.add_primitive_shape('Disk', 'Box', (0.2, 0.04, 0.2))
        io.add_object('wheel1', [Contactor('Arm', collision_group=1)], translation=[0.2, 0, 0],
                      mass=1.0, inertia=box_inertia(1.0, 0.4, 0.04, 0.04))
        io.add_object('wheel2', [Contactor('Disk', collision_group=2)], translation=[1.0, 0, 0],
                      mass=2.0, inertia=box_inertia(2.0, 0.2, 0.04, 0.2))
        io.add_joint('j1', 'wheel1', None, points=[[0, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR', absolute=True)
        io.add_joint('j2', 'wheel2', None, points=[[1, 0, 0]], axes=[[0, 1, 0]], joint_class='PivotJointR', absolute=True)
        io.add_joint('zgear', 'wheel1', 'wheel2', points=[], axes=[], joint_class='CouplerJointR',
                     coupled=[[0, 0, ratio]], references=['j1', 'j2'])


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) > 3 or any(a.startswith('-') and a[1:2].isalpha() for a in sys.argv[1:]):
        sys.exit('joint_scenes.py: usage: joint_scenes.py [OUTDIR [H]] (see --help)')
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    h = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-3
    os.makedirs(out, exist_ok=True)
    pendulum_stop(os.path.join(out, 'pendulum_stop.hdf5'))
    slider(os.path.join(out, 'slider_friction.hdf5'), 0.0, 2.0, h, 1.0)
    slider(os.path.join(out, 'slider_stick.hdf5'), 0.3, 4.0, h, 0.0)
    slider(os.path.join(out, 'slider_slip.hdf5'), 0.3, 1.0, h, 0.0)
    screw(os.path.join(out, 'screw.hdf5'))
    gears(os.path.join(out, 'gears.hdf5'))
