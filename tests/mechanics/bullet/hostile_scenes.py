#!/usr/bin/env python3
"""Hostile Siconos scenes: rigid_scene must refuse or run them, never crash.

usage: hostile_scenes.py RIGID_SCENE OUTDIR

Three scenes are written with Siconos' own writer (benchmarks/rigid/scenes.py:
a stack of boxes, a chute of convex rocks, a three-link pendulum), and
copies of them are altered one field at a time with h5py: values that do
not fit the field (NaN, inf, 1e300 where an int is read, zero or
indefinite inertia, degenerate hulls, zero axes), wrong types and shapes,
missing attributes, odd structure. Each copy is run for a few steps. A run
passes when rigid_scene exits with 0 (ran) or 1 (refused or failed) and,
when it fails, says why on stderr; no signal, no sanitizer report (the
sanitizer build runs this same script on its own binary). Where the input
is invalid the message must name the object and the field.
"""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'benchmarks', 'rigid'))
import scenes  # noqa: E402  (Siconos' writer, python3-siconos)

INF, NAN = float('inf'), float('nan')


def set_attr(f, path, key, val):
    o = f[path]
    if key in o.attrs:
        del o.attrs[key]
    if val is not None:
        o.attrs[key] = val


def replace_data(f, path, data):
    """the dataset at path with new values, its attributes kept"""
    attrs = dict(f[path].attrs)
    parent, name = path.rsplit('/', 1)
    del f[parent][name]
    d = f[parent].create_dataset(name, data=np.asarray(data, dtype=float))
    for k, v in attrs.items():
        d.attrs[k] = v


def contactor(f, obj):
    g = f['/data/input/' + obj]
    return g.name + '/' + sorted(g.keys())[0]


def cases():
    """(name, base scene, change, words the refusal must contain or None)"""
    c = []
    ct = lambda f: contactor(f, 'box0')  # noqa: E731
    for tag, v in [('big', 1e300), ('inf', INF), ('i64', np.int64(2 ** 62)), ('frac', 2.5)]:
        c.append(('ct_group_' + tag, 'stack', lambda f, v=v: set_attr(f, ct(f), 'group', v), ["'box0'", "'group'"]))
        c.append(('law_gid_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/nslaws/contact', 'gid1', v),
                  ["law 'contact'", "'gid1'"]))
    for tag, v in [('nan', NAN), ('inf', INF), ('neg', -1.0)]:
        c.append(('law_mu_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/nslaws/contact', 'mu', v),
                  ["law 'contact'", 'mu']))
    for tag, v in [('nan', NAN), ('big', 1e300), ('neg', -1.0)]:
        c.append(('law_e_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/nslaws/contact', 'e', v),
                  ["law 'contact'", 'e = ']))
    for tag, v, words in [('zero', [0.0, 0.0, 0.0], ["'box0'", 'inertia']),
                          ('neg', [-1.0, 1.0, 1.0], ["'box0'", 'inertia']),
                          ('indef', [[1, 0, 0], [0, -1, 0], [0, 0, 1]], ["'box0'", 'inertia']),
                          ('nonsym', [[1, 5, 0], [0, 1, 0], [0, 0, 1]], ["'box0'", 'inertia']),
                          ('nan', [NAN, 1, 1], ["'box0'", 'inertia']),
                          ('len2', [1.0, 1.0], ["'box0'", 'inertia']),
                          ('str', 'abc', ["'box0'", 'inertia']),
                          ('huge', [1e300] * 3, None)]:
        c.append(('inertia_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/input/box0', 'inertia', v), words))
    for tag, v, words in [('nan', NAN, ["'box0'", 'mass']), ('inf', INF, ["'box0'", 'mass']),
                          ('zero', 0.0, ["'box0'", 'mass']), ('str', 'one', ["'box0'", 'mass']),
                          ('tiny', 1e-300, None), ('huge', 1e300, None)]:
        c.append(('mass_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/input/box0', 'mass', v), words))
    for tag, v, words in [('nan', [NAN, 0, 0], ["'box0'", 'translation']),
                          ('len4', [0, 0, 0, 0], ["'box0'", 'translation']),
                          ('str', 'xyz', ["'box0'", 'translation']), ('huge', [1e300, 0, 0], None)]:
        c.append(('translation_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/input/box0', 'translation', v), words))
    for tag, v, words in [('nan', [0, 0, NAN, 0, 0, 0], ["'box0'", 'velocity']),
                          ('huge', [1e300, 0, 0, 0, 0, 0], None), ('spin', [0, 0, 0, 1e30, 0, 0], None)]:
        c.append(('velocity_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/input/box0', 'velocity', v), words))
    for tag, v in [('zero', [0, 0, 0, 0]), ('nonunit', [2, 0, 0, 0]), ('nan', [NAN, 0, 0, 0])]:
        c.append(('orientation_' + tag, 'stack', lambda f, v=v: set_attr(f, '/data/input/box0', 'orientation', v),
                  ["'box0'", 'quaternion']))
        c.append(('ct_orientation_' + tag, 'stack', lambda f, v=v: set_attr(f, ct(f), 'orientation', v),
                  ["'box0'", 'quaternion']))
    c.append(('type_int', 'stack', lambda f: set_attr(f, '/data/input/box0', 'type', 3), ["'box0'", "'type'"]))
    c.append(('type_missing', 'stack', lambda f: set_attr(f, '/data/input/box0', 'type', None), ["'box0'", "'type'"]))
    c.append(('shape_name_missing', 'stack', lambda f: set_attr(f, ct(f), 'shape_name', None), ["'box0'", 'shape_name']))
    c.append(('shape_name_int', 'stack', lambda f: set_attr(f, ct(f), 'shape_name', 7), ["'box0'", 'shape_name']))
    c.append(('shape_name_long', 'stack', lambda f: set_attr(f, ct(f), 'shape_name', 'x' * 5000), ["'box0'", 'shape']))
    for tag, v, words in [('nan', [NAN, 1, 1], ["'Brick'", 'parameter 0']), ('empty', np.zeros((0,)), ["'Brick'", 'parameters']),
                          ('neg', [-1, 1, 1], ["'Brick'", 'parameter 0']),
                          ('tiny', [1e-300, 1, 1], None), ('huge', [1e300, 1, 1], None)]:
        c.append(('box_' + tag, 'stack', lambda f, v=v: replace_data(f, '/data/ref/Brick', v), words))
    for tag, v, words in [('same', [[0, 0, 0]] * 4, ["'Rock00'", 'degenerate']),
                          ('line', [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], ["'Rock00'", 'degenerate']),
                          ('flat', [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.3, 0.3, 1e-13]], ["'Rock00'", 'degenerate']),
                          ('one', [[0, 0, 0]], ["'Rock00'", 'points']),
                          ('cols4', [[0, 0, 0, 0]] * 4, ["'Rock00'", '3']),
                          ('nan', [[0, 0, 0], [1, 0, 0], [0, NAN, 0], [0, 0, 1]], ["'Rock00'", 'finite']),
                          ('needle', [[0, 0, 0], [1e300, 0, 0], [0, 1, 0], [0, 0, 1]], ["'Rock00'", 'degenerate']),
                          ('overflow', [[-1e308, 0, 0], [1e308, 0, 0], [0, 1, 0], [0, 0, 1]], ["'Rock00'", 'overflows']),
                          ('far', [[1e200, 0, 0], [1e200 + 1e190, 0, 0], [1e200, 1e190, 0], [1e200, 0, 1e190]], None),
                          ('many', np.random.RandomState(1).randn(5000, 3) * 0.1, None)]:
        c.append(('hull_' + tag, 'rocks', lambda f, v=v: replace_data(f, '/data/ref/Rock00', v), words))
    for tag, v, words in [('zero', [[0, 0, 0]], ["'j0'", 'axes']), ('nan', [[NAN, 1, 0]], ["'j0'", 'axes']),
                          ('huge', [[0, 1e300, 0]], None), ('tiny', [[0, 1e-300, 0]], None)]:
        c.append(('joint_axes_' + tag, 'pendulum',
                  lambda f, v=v: set_attr(f, '/data/joints/j0', 'axes', np.asarray(v, float)), words))
    c.append(('joint_points_nan', 'pendulum',
              lambda f: set_attr(f, '/data/joints/j0', 'points', np.asarray([[NAN, 0, 0]])), ["'j0'", 'points']))
    c.append(('joint_self', 'pendulum',
              lambda f: set_attr(f, '/data/joints/j1', 'object2', f['/data/joints/j1'].attrs['object1']), ["'j1'", 'same object']))
    c.append(('joint_type', 'pendulum', lambda f: set_attr(f, '/data/joints/j0', 'type', 'Nope'), ["'j0'", "'Nope'"]))
    c.append(('joint_no_object', 'pendulum', lambda f: set_attr(f, '/data/joints/j0', 'object1', None), ["'j0'", 'object1']))
    c.append(('joint_unknown_object', 'pendulum',
              lambda f: set_attr(f, '/data/joints/j0', 'object1', 'nobody'), ["'j0'", "'nobody'"]))
    c.append(('no_objects', 'stack', lambda f: [f['/data/input'].__delitem__(k) for k in list(f['/data/input'])], None))
    c.append(('no_laws', 'stack', lambda f: [f['/data/nslaws'].__delitem__(k) for k in list(f['/data/nslaws'])], None))
    c.append(('input_dataset', 'stack', lambda f: f['/data/input'].create_dataset('weird', data=[1.0]), ["'weird'"]))
    c.append(('ref_group', 'stack', lambda f: f['/data/ref'].create_group('grp'), ["'grp'"]))
    c.append(('law_group', 'stack', lambda f: f['/data/nslaws'].create_group('g'), ["law 'g'"]))
    c.append(('no_ref', 'stack', lambda f: f['/data'].__delitem__('ref'), ['/data/ref']))
    return c


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    base = {'stack': os.path.join(out, 'base_stack.hdf5'), 'rocks': os.path.join(out, 'base_rocks.hdf5'),
            'pendulum': os.path.join(out, 'base_pendulum.hdf5')}
    scenes.stack10(base['stack'])
    scenes.chute_rocks(base['rocks'], n=4)
    scenes.pendulum3(base['pendulum'])
    failures = []
    for name, b in base.items():   # the unaltered scenes run
        r = subprocess.run([exe, '--scene', b, '--steps', '5', '--quiet'], capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            failures.append('%s: the unaltered scene does not run (status %d): %s' % (name, r.returncode, r.stderr.strip()))
    n = 0
    for name, b, change, words in cases():
        path = os.path.join(out, name + '.hdf5')
        shutil.copy(base[b], path)
        with h5py.File(path, 'r+') as f:
            change(f)
        r = subprocess.run([exe, '--scene', path, '--steps', '10', '--tol', '1e-6', '--quiet'],
                           capture_output=True, text=True, timeout=600)
        n += 1
        err = r.stderr.strip()
        why = err.split('\n')[0]
        if r.returncode not in (0, 1):
            failures.append('%s: status %d (a crash or bad usage): %s' % (name, r.returncode, err[-500:]))
        elif 'Sanitizer' in err or 'runtime error' in err:
            failures.append('%s: sanitizer report: %s' % (name, err[-800:]))
        elif r.returncode == 1 and (not why.startswith('rigid_scene: ') or why.rstrip().endswith(':')):
            failures.append('%s: failed without saying why: %r' % (name, why))
        elif words is not None and r.returncode == 0:
            failures.append('%s: invalid input accepted' % name)
        elif words is not None and not all(w in why for w in words):
            failures.append('%s: the message %r does not name %s' % (name, why, words))
        else:
            print('%-22s %s' % (name, 'ran' if r.returncode == 0 else why[:150]))
        os.remove(path)
    for p in base.values():
        os.remove(p)
    if failures:
        print('\n'.join(['FAILED'] + failures))
        sys.exit(1)
    print('%d hostile scenes: each refused with its reason or run' % n)


if __name__ == '__main__':
    main()
