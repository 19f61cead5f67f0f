#!/usr/bin/env python3
"""Hostile FCLIB files: nsolve must refuse each with its reason, or solve it.

usage: hostile_fclib.py NSOLVE SHARED_DATA OUTDIR

Two FCLIB problems of ../shared/data (a local one in CSC form, a global one
in triplet form) are copied and altered one dataset at a time with h5py:
sizes negative, zero, beyond int or not integers, index arrays shuffled,
negative, out of range, short, of other integer encodings, values NaN, inf
or strings, vectors of the wrong length or rank, missing groups and
datasets, bad spacedim, hostile guesses. nsolve --check reads and validates
each (and the guess cases are solved from their own guess). A case passes
when nsolve exits with 0, 1 or 2, never a signal or a sanitizer report;
the cases that break the format must be refused (status 2) with a message
that names the file. Other encodings of valid data (unsigned or big-endian
integers, float32 values, triplets in another order) may be read.
"""
import os, shutil, subprocess, sys
import h5py
import numpy as np

np.seterr(all="ignore")   # the alterations overflow on purpose

if len(sys.argv) != 4:
    sys.exit(__doc__)
exe, data, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
LOC = os.path.join(data, 'fclib', 'local', 'Capsules-i125-1213.hdf5')
GLO = os.path.join(data, 'fclib', 'global', 'Box_Stacks-i0122-82-5.hdf5')
INF, NAN = float('inf'), float('nan')

def put(f, path, data, dtype=None):
    if path in f:
        del f[path]
    if dtype is None:
        f[path] = data
    else:
        f.create_dataset(path, data=data, dtype=dtype)


def rm(f, path):
    del f[path]


cases = []
L, G = '/fclib_local', '/fclib_global'
for root, base, mats, vecs in [(L, LOC, ['W'], ['q', 'mu']), (G, GLO, ['M', 'H'], ['f', 'w', 'mu'])]:
    t = 'loc' if root == L else 'glo'
    for m in mats:
        P = root + '/' + m
        for fld in ['m', 'n', 'nz', 'nzmax']:
            for tag, v in [('neg', [-5]), ('zero', [0]), ('huge', [2 ** 31 - 1]), ('i64', np.array([2 ** 40], dtype=np.int64)),
                           ('float', [2.5]), ('nan', [NAN]), ('empty', np.zeros(0, dtype=np.int32)), ('two', [3, 3]),
                           ('str', 'abc')]:
                cases.append(('%s_%s_%s_%s' % (t, m, fld, tag), base, lambda f, P=P, fld=fld, v=v: put(f, P + '/' + fld, v)))
            cases.append(('%s_%s_%s_missing' % (t, m, fld), base, lambda f, P=P, fld=fld: rm(f, P + '/' + fld)))
        for fld in ['p', 'i']:
            cases.append(('%s_%s_%s_shuffle' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, np.random.RandomState(2).permutation(f[P + '/' + fld][()]))))
            cases.append(('%s_%s_%s_neg' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, -np.abs(f[P + '/' + fld][()]) - 1)))
            cases.append(('%s_%s_%s_big' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()] * 0 + 2 ** 30)))
            cases.append(('%s_%s_%s_short' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()][:-1])))
            cases.append(('%s_%s_%s_float' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()] + 0.5)))
            cases.append(('%s_%s_%s_2d' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()].reshape(1, -1))))
            cases.append(('%s_%s_%s_u64' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()].astype(np.uint64))))
            cases.append(('%s_%s_%s_i8' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()].astype(np.int8))))
            cases.append(('%s_%s_%s_bigendian' % (t, m, fld), base,
                          lambda f, P=P, fld=fld: put(f, P + '/' + fld, f[P + '/' + fld][()], dtype='>i8')))
        for tag, fn in [('nan', lambda x: x * NAN), ('inf', lambda x: x * INF), ('short', lambda x: x[:-1]),
                        ('f32', lambda x: x.astype(np.float32)), ('str', lambda x: np.array([b'a'] * len(x))),
                        ('huge', lambda x: x * 1e308)]:
            cases.append(('%s_%s_x_%s' % (t, m, tag), base, lambda f, P=P, fn=fn: put(f, P + '/x', fn(f[P + '/x'][()]))))
        cases.append(('%s_%s_missing' % (t, m), base, lambda f, P=P: rm(f, P)))
        cases.append(('%s_%s_dataset' % (t, m), base, lambda f, P=P: (rm(f, P), put(f, P, [1.0, 2.0]))))
    for v in vecs:
        P = root + '/vectors/' + v
        for tag, fn in [('nan', lambda x: x * NAN), ('neg', lambda x: -np.abs(x) - 1), ('short', lambda x: x[:-1]),
                        ('long', lambda x: np.concatenate([x, x])), ('empty', lambda x: x[:0]), ('2d', lambda x: x.reshape(1, -1)),
                        ('int', lambda x: x.astype(np.int64)), ('str', lambda x: 'abc')]:
            cases.append(('%s_vec_%s_%s' % (t, v, tag), base, lambda f, P=P, fn=fn: put(f, P, fn(f[P][()]))))
        cases.append(('%s_vec_%s_missing' % (t, v), base, lambda f, P=P: rm(f, P)))
    for tag, v in [('zero', [0]), ('four', [4]), ('neg', [-3]), ('two', [2]), ('nan', [NAN]), ('missing', None)]:
        cases.append(('%s_spacedim_%s' % (t, tag), base,
                      lambda f, root=root, v=v: rm(f, root + '/spacedim') if v is None else put(f, root + '/spacedim', v)))
    for tag, v in [('neg', [-1]), ('huge', [2 ** 30]), ('zero', [0])]:
        cases.append(('%s_guesses_n_%s' % (t, tag), base, lambda f, v=v: put(f, '/guesses/number_of_guesses', v)))
    cases.append(('%s_guess_r_short' % t, base, lambda f: put(f, '/guesses/1/r', f['/guesses/1/r'][()][:-3])))
    cases.append(('%s_guess_r_nan' % t, base, lambda f: put(f, '/guesses/1/r', f['/guesses/1/r'][()] * NAN)))
    cases.append(('%s_guess_missing' % t, base, lambda f: rm(f, '/guesses/1')))
    cases.append(('%s_solution_short' % t, base, lambda f: put(f, '/solution/r', f['/solution/r'][()][:-3])))
    cases.append(('%s_root_missing' % t, base, lambda f, root=root: rm(f, root)))
    cases.append(('%s_info_weird' % t, base, lambda f, root=root: (rm(f, root + '/info'), put(f, root + '/info', [1.0]))))
cases.append(('both_roots', LOC, lambda f: f.copy(h5py.File(GLO, 'r')['/fclib_global'], '/fclib_global')))

# other encodings of valid data, and changes that leave a valid problem
MAY_READ = ('_u64', '_bigendian', '_x_f32', '_shuffle', '_vec_q_neg', '_vec_f_neg', '_vec_w_neg',
            'glo_M_x_huge', 'guess', 'solution', 'info_weird')
bad = []
for name, base, fn in cases:
    path = os.path.join(out, name + '.hdf5')
    shutil.copy(base, path)
    with h5py.File(path, 'r+') as f:
        fn(f)
    runs = [['--check']]
    if 'guess' in name or 'solution' in name:
        runs.append(['--max-iter', '3', '-g', path])
    for args in runs:
        r = subprocess.run([exe] + args + [path], capture_output=True, text=True, timeout=600)
        err = r.stderr.strip()
        line = err.split('\n')[0] if err else ''
        if r.returncode not in (0, 1, 2) or 'Sanitizer' in err or 'runtime error' in err:
            bad.append('%s %s: status %d %s' % (name, args[0], r.returncode, err[-600:]))
        elif r.returncode == 2 and path not in line:
            bad.append('%s %s: refused without naming the file: %r' % (name, args[0], line))
        elif args[0] == '--check' and r.returncode != 2 and not any(k in name for k in MAY_READ):
            bad.append('%s: read although it breaks the format' % name)
    os.remove(path)
if bad:
    print('\n'.join(['FAILED'] + bad))
    sys.exit(1)
print('%d hostile FCLIB files: each refused naming the file, or read' % len(cases))
