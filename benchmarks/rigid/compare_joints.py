#!/usr/bin/env python3
"""Runs the joint scenes of joint_scenes.py (stops, friction, couplings)
with Siconos 4.4 (MechanicsHdf5Runner, python3-siconos) and with our
build/bin/rigid_scene, side by side, on the same files, and compares each
with its exact answer and the two trajectories with each other.

usage: compare_joints.py BUILD_DIR [T] [h]

Both: Moreau-Jean theta = 1/2, one linearised step per time step, no
position projection, the one-step problem (equality + relay + LCP rows:
Siconos' GenericMechanical NSGS, ours the GMP solver) to 1e-10. Our time is
the whole rigid_scene process (reading, detection, HDF5 output included),
Siconos' the run() call only. Siconos writes its output in single
precision, so its positions agree with ours at best to ~1e-7.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.80665


def run_siconos(scene, T, h):
    import siconos.kernel as sk
    import siconos.numerics as sn
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    so = sk.solver_options_create(sn.SICONOS_GENERIC_MECHANICAL_NSGS)
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
    t0 = time.perf_counter()
    with MechanicsHdf5Runner(mode='r+', io_filename=scene) as io:
        io.run(T=T, h=h, theta=0.5, Newton_max_iter=1, solver_options=so, verbose=False,
               verbose_progress=False, output_frequency=1)
    wall = time.perf_counter() - t0
    with h5py.File(scene, 'r') as f:
        d = f['data/dynamic'][()].astype(float)
        v = f['data/velocities'][()].astype(float)
        ids = {int(f['data/input'][n].attrs['id']): n for n in f['data/input']}
    return wall, split(d, ids), split(v, ids)


def run_ours(build, scene, T, h):
    out = tempfile.mkdtemp()
    t0 = time.perf_counter()
    p = subprocess.run([os.path.join(build, 'bin', 'rigid_scene'), '--scene', scene, '--T', str(T), '--h', str(h),
                        '--tol', '1e-10', '--out', out, '--quiet'], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit('rigid_scene failed: ' + p.stderr)
    with h5py.File(os.path.join(out, 'run.hdf5'), 'r') as f:
        d = f['data/dynamic'][()]
        v = f['data/velocities'][()]
    with h5py.File(scene, 'r') as f:
        dyn = [n for n in sorted(f['data/input']) if f['data/input'][n].attrs['type'] == 'dynamic']
    shutil.rmtree(out)
    return wall, split(d, {k + 1: n for k, n in enumerate(dyn)}), split(v, {k + 1: n for k, n in enumerate(dyn)})


def split(rows, ids):
    """{name: rows of that body sorted by time, one per time}"""
    out = {}
    for k, n in ids.items():
        r = rows[rows[:, 1] == k]
        if len(r):
            _, first = np.unique(np.round(r[:, 0], 9), return_index=True)
            out[n] = r[first]
    return out


def angle(q, axis):
    """unwrapped rotation angle of bodies turned about one axis (1, 2, 3)"""
    return np.unwrap(2.0 * np.arctan2(q[:, 5 + axis], q[:, 5]))


def on_common_times(a, b):
    ta, tb = np.round(a[:, 0], 6), np.round(b[:, 0], 6)
    common = np.intersect1d(ta, tb)
    return a[np.isin(ta, common)], b[np.isin(tb, common)]


def report(name, res, T, h):
    (wo, do, vo), (ws, ds, vs) = res['ours'], res['siconos']
    n = int(round(T / h))
    lines = []
    if name == 'pendulum_stop':
        exact = math.asin(0.75 * math.sin(math.pi / 4))
        for who, d in (('ours', do), ('siconos', ds)):
            a = angle(d['link'], 2)
            k = int(np.argmax(a))
            lines.append('%-8s overshoot of the stop %.3g rad, rebound to %.6f rad (exact %.6f, %.2g)'
                         % (who, a.max() - math.pi / 4, a[k:].min(), exact, a[k:].min() / exact - 1))
        a, b = on_common_times(do['link'], ds['link'])
        lines.append('max |angle ours - siconos| over the run: %.3g rad' % np.abs(angle(a, 2) - angle(b, 2)).max())
    elif name.startswith('slider'):
        beta, F, v0 = {'slider_friction': (0.0, 2.0, 1.0), 'slider_stick': (0.3, 4.0, 0.0),
                       'slider_slip': (0.3, 1.0, 0.0)}[name]
        ax = np.array([math.cos(beta), 0.0, math.sin(beta)])
        if v0 > 0:
            exact = v0 * v0 / (2 * F)
        else:
            acc = G * math.sin(beta) - F
            exact = -0.5 * acc * T * T if acc > 0 else 0.0
        for who, d in (('ours', do), ('siconos', ds)):
            s = d['slider'][-1, 2:5] @ ax
            lines.append('%-8s travel at T %.9f (exact %.9f, error %.2g)' % (who, s, exact, s - exact))
    elif name == 'screw':
        exact = -0.5 * G / (1 + 400 / 600.0) * T * T
        for who, d in (('ours', do), ('siconos', ds)):
            z = d['nut'][:, 4]
            phi = angle(d['nut'], 3)
            lines.append('%-8s z(T) = %.9f (exact %.9f, %.2g); max |phi - 20 z| = %.3g'
                         % (who, z[-1], exact, z[-1] / exact - 1, np.abs(phi - 20 * z).max()))
    elif name == 'gears':
        for who, d in (('ours', do), ('siconos', ds)):
            a1, a2 = angle(d['wheel1'], 2), angle(d['wheel2'], 2)
            lines.append('%-8s max |theta2 - (-2) theta1| = %.3g (theta1 reaches %.3f rad)'
                         % (who, np.abs(a2 + 2 * a1).max(), np.abs(a1).max()))
    lines.append('time per step: ours %.4g ms (whole process), siconos %.4g ms (run only), ratio %.3g'
                 % (1e3 * wo / n, 1e3 * ws / n, wo / ws))
    return lines


def main():
    build = sys.argv[1]
    T = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    h = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-3
    tmp = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(HERE, 'joint_scenes.py'), tmp, str(h)], check=True)
    for name in ('pendulum_stop', 'slider_friction', 'slider_stick', 'slider_slip', 'screw', 'gears'):
        scene = os.path.join(tmp, name + '.hdf5')
        res = {'ours': run_ours(build, scene, T, h)}
        sc = os.path.join(tmp, 'siconos_' + name + '.hdf5')
        shutil.copy(scene, sc)
        res['siconos'] = run_siconos(sc, T, h)
        print('%s (T = %g, h = %g):' % (name, T, h))
        for line in report(name, res, T, h):
            print('  ' + line)
    shutil.rmtree(tmp)


if __name__ == '__main__':
    main()
