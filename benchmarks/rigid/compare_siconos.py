#!/usr/bin/env python3
"""Runs the same Siconos mechanics HDF5 scene with Siconos 4.4
(MechanicsHdf5Runner, python3-siconos with Bullet) and with our
build/bin/rigid_scene, side by side, and compares the bodies' positions at
the final time and the time per step.

usage: compare_siconos.py BUILD_DIR SCENE.hdf5 [T] [h] [tol]

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
        d = f['data/dynamic'][()]
        names = {int(f['data/input'][n].attrs['id']): n for n in f['data/input']}
    last = d[np.isclose(d[:, 0], d[:, 0].max())]
    return wall, {names[int(r[1])]: r[2:9].astype(float) for r in last}


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
    with h5py.File(scene, 'r') as f:
        dyn = [n for n in sorted(f['data/input']) if f['data/input'][n].attrs['type'] == 'dynamic']
    shutil.rmtree(out)
    last = d[np.isclose(d[:, 0], d[:, 0].max())]
    return wall, {dyn[int(r[1]) - 1]: r[2:9] for r in last}


def main():
    build, scene = sys.argv[1], sys.argv[2]
    T = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    h = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-3
    tol = float(sys.argv[5]) if len(sys.argv) > 5 else 1e-10
    tmp = tempfile.mkdtemp()
    sc = os.path.join(tmp, os.path.basename(scene))
    shutil.copy(scene, sc)
    ws, qs = run_siconos(sc, T, h, tol)
    wo, qo = run_ours(build, scene, T, h, tol)
    shutil.rmtree(tmp)
    n = int(round(T / h))
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
