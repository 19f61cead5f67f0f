#!/usr/bin/env python3
"""Runs the same Siconos mechanics HDF5 scene with Siconos 4.4
(MechanicsHdf5Runner, python3-siconos with Bullet) and with our
build/bin/rigid_scene, side by side, and compares the bodies' positions at
the final time and the time per step.

usage: compare_siconos.py BUILD_DIR SCENE.hdf5 [T] [h] [tol] [--stats]

--stats (the wall, capsules and rocks scenes, where trajectories are
chaotic) prints statistics instead of positions body by body: the final
centre of mass of the dynamic bodies, their translational kinetic energy
at five times, and the number of contacts carrying a reaction.

Siconos' sliding box on an incline is off the exact answer by an amount
that depends on how the bodies are turned (siconos_incline_check.py):
compare the incline scenes with that in mind.

Both run Moreau–Jean with theta = 1/2, one linearised step per time step,
NSGS on the FC3D problems with the same tolerance and iteration limit.
Siconos writes its output in single precision (its data/dynamic dataset is
float32), so positions agree at best to ~1e-7 relative there.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np


def run_siconos(scene, T, h, tol):
    import siconos.kernel as sk
    import siconos.numerics as sn
    from siconos.io.mechanics_run import MechanicsHdf5Runner
    so = sk.solver_options_create(sn.SICONOS_FRICTION_3D_NSGS)
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 10000
    so.dparam[sn.SICONOS_DPARAM_TOL] = tol
    t0 = time.perf_counter()
    with MechanicsHdf5Runner(mode='r+', io_filename=scene) as io:
        io.run(T=T, h=h, theta=0.5, Newton_max_iter=1, solver_options=so, verbose=False,
               verbose_progress=False, output_frequency=1)
    wall = time.perf_counter() - t0
    with h5py.File(scene, 'r') as f:
        d = f['data/dynamic'][()].astype(float)
        v = f['data/velocities'][()].astype(float)
        cf = f['data/cf'][()].astype(float) if 'cf' in f['data'] else np.zeros((0, 26))
        names = {int(f['data/input'][n].attrs['id']): n for n in f['data/input']}
    last = d[np.isclose(d[:, 0], d[:, 0].max())]
    # contacts with a non-zero normal reaction impulse (column 20 after time)
    active = cf[np.abs(cf[:, 20]) > 0] if len(cf) else cf
    stats = series(d, v, {k: n for k, n in names.items() if k > 0}, active[:, 0] if len(active) else [])
    return wall, {names[int(r[1])]: r[2:9] for r in last}, stats


def run_ours(build, scene, T, h, tol):
    out = tempfile.mkdtemp()
    t0 = time.perf_counter()
    p = subprocess.run([os.path.join(build, 'bin', 'rigid_scene'), '--scene', scene, '--T', str(T), '--h', str(h),
                        '--tol', str(tol), '--out', out, '--quiet'], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit('rigid_scene failed: ' + p.stderr)
    with h5py.File(os.path.join(out, 'run.hdf5'), 'r') as f:
        d = f['data/dynamic'][()]
        v = f['data/velocities'][()]
        cf = f['data/cf'][()] if 'cf' in f['data'] else np.zeros((0, 1))
    with h5py.File(scene, 'r') as f:
        dyn = [n for n in sorted(f['data/input']) if f['data/input'][n].attrs['type'] == 'dynamic']
    shutil.rmtree(out)
    last = d[np.isclose(d[:, 0], d[:, 0].max())]
    # columns: t, mu, p1, p2, normal, force, gap, local velocity, local impulse (normal first, column 18)
    active = cf[np.abs(cf[:, 18]) > 0] if len(cf) else cf
    stats = series(d, v, {k + 1: n for k, n in enumerate(dyn)}, active[:, 0] if len(active) else [])
    return wall, {dyn[int(r[1]) - 1]: r[2:9] for r in last}, stats


MASS = {}


def series(d, v, names, contact_times):
    """final centre of mass, translational KE and contacts at 5 recorded times"""
    d = d[np.isin(d[:, 1], list(names))]
    v = v[np.isin(v[:, 1], list(names))]
    times = np.unique(v[:, 0])
    T = times.max()
    marks = [times[np.argmin(np.abs(times - T * k / 4))] for k in range(5)]
    last = d[d[:, 0] == d[:, 0].max()]
    m = np.array([MASS[names[int(r[1])]] for r in last])
    com = (m[:, None] * last[:, 2:5]).sum(0) / m.sum()
    ke, nc = [], []
    ct = np.asarray(contact_times, dtype=float)
    for t in marks:
        rows = v[v[:, 0] == t]
        ke.append(sum(0.5 * MASS[names[int(r[1])]] * float(np.dot(r[2:5], r[2:5])) for r in rows))
        nc.append(int(np.sum(ct == t)) if len(ct) else 0)
    return com, marks, ke, nc


def main():
    args = [a for a in sys.argv[1:] if a != '--stats']
    want_stats = '--stats' in sys.argv
    build, scene = args[0], args[1]
    T = float(args[2]) if len(args) > 2 else 1.0
    h = float(args[3]) if len(args) > 3 else 1e-3
    tol = float(args[4]) if len(args) > 4 else 1e-10
    with h5py.File(scene, 'r') as f:
        for n in f['data/input']:
            MASS[n] = float(f['data/input'][n].attrs.get('mass', 0.0))
    tmp = tempfile.mkdtemp()
    sc = os.path.join(tmp, os.path.basename(scene))
    shutil.copy(scene, sc)
    ws, qs, ss = run_siconos(sc, T, h, tol)
    wo, qo, so = run_ours(build, scene, T, h, tol)
    shutil.rmtree(tmp)
    n = int(round(T / h))
    if want_stats:
        print('%s: T = %g, h = %g, tol = %g' % (os.path.basename(scene), T, h, tol))
        print('final centre of mass: ours %s  siconos %s  |d| = %.3g' % (np.array2string(so[0], precision=5),
              np.array2string(ss[0], precision=5), np.linalg.norm(so[0] - ss[0])))
        for k, t in enumerate(so[1]):
            print('t = %.3f: translational KE ours %.5g siconos %.5g; contacts with a reaction ours %d siconos %d'
                  % (t, so[2][k], ss[2][k], so[3][k], ss[3][k]))
    else:
        worst = 0.0
        for name in sorted(qo):
            dx = np.abs(qo[name][:3] - qs[name][:3]).max()
            worst = max(worst, dx)
            print('%-12s ours x = %s  siconos x = %s  |dx| = %.3g' % (name, np.array2string(qo[name][:3], precision=9),
                                                                  np.array2string(qs[name][:3], precision=9), dx))
        print('%s: T = %g, h = %g, tol = %g: max |x_ours - x_siconos| = %.3g' % (os.path.basename(scene), T, h, tol, worst))
    print('time per step: ours %.4g ms (whole process), siconos %.4g ms (run only), ratio %.3g'
          % (1e3 * wo / n, 1e3 * ws / n, wo / ws))


if __name__ == '__main__':
    main()
