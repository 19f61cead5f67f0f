"""Every library error is a Python exception with the library's message;
wrong dtypes, shapes, non-contiguous arrays and NaN never crash."""
import numpy as np
import pytest
import scipy.sparse as sp

import nonsmooth as ns


M3 = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
Q3 = np.array([-1.0, -1.0, -1.0])


def test_exception_hierarchy():
    assert issubclass(ns.InputError, ns.Error) and issubclass(ns.InputError, ValueError)
    assert issubclass(ns.FileError, ns.Error) and issubclass(ns.FileError, OSError)
    assert issubclass(ns.UnsupportedError, NotImplementedError)


def test_unknown_solver_names_it():
    with pytest.raises(ValueError, match="unknown solver 'nope'.*lemke") as e:
        ns.solve(ns.lcp(M3, Q3), "nope")
    assert e.value.status == "not_found"
    with pytest.raises(ValueError, match="unknown solver 'nsgs-ac' for kind lcp"):
        ns.solve(ns.lcp(M3, Q3), solver="nsgs-ac")


def test_unknown_option_names_it():
    with pytest.raises(ValueError, match="unknown option 'tolerance'"):
        ns.solve(ns.lcp(M3, Q3), tolerance=1e-3)


@pytest.mark.parametrize("opt,val,exc,msg", [
    ("tol", -1.0, ValueError, "tol"),
    ("tol", float("nan"), ValueError, "tol"),
    ("max_iter", -3, ValueError, "max_iter"),
    ("omega", 2.5, ValueError, "omega"),
    ("time_limit", -1.0, ValueError, "time_limit"),
    ("tol", "small", TypeError, "tol"),
    ("max_iter", 1.5, TypeError, "max_iter"),
    ("fc_norm", "l2", ValueError, "fc_norm"),
    ("local_solver", 3, TypeError, "local_solver"),
])
def test_bad_option_values(opt, val, exc, msg):
    with pytest.raises(exc, match=msg):
        ns.solve(ns.lcp(M3, Q3), **{opt: val})


def test_solve_argument_errors():
    with pytest.raises(TypeError):
        ns.solve(M3)
    with pytest.raises(TypeError):
        ns.solve()
    with pytest.raises(TypeError):
        ns.solve(ns.lcp(M3, Q3), 42)
    with pytest.raises(TypeError, match="twice"):
        ns.solve(ns.lcp(M3, Q3), "lemke", solver="pgs")
    with pytest.raises(ValueError, match="x0 has length 2"):
        ns.solve(ns.lcp(M3, Q3), x0=[1.0, 2.0])


@pytest.mark.parametrize("M", [
    M3.astype(np.complex128),
    np.array([["a", "b", "c"]] * 3),
    np.array([[None] * 3] * 3, dtype=object),
    "not a matrix",
])
def test_bad_dtypes(M):
    with pytest.raises((TypeError, ValueError)):
        ns.lcp(M, Q3)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64, np.uint8, bool])
def test_accepted_dtypes(dtype):
    r = ns.solve(ns.lcp(np.eye(3).astype(dtype), np.array([-1, 1, -2]).astype(np.float64)))
    np.testing.assert_allclose(r.z, [1, 0, 2])


def test_bad_shapes():
    with pytest.raises(ValueError, match="M must be 2-D"):
        ns.lcp(np.ones(3), Q3)
    with pytest.raises(ValueError, match="M must be 2-D"):
        ns.lcp(np.ones((3, 3, 1)), Q3)
    with pytest.raises(ValueError, match="q has length 2, expected 3"):
        ns.lcp(M3, Q3[:2])
    with pytest.raises(ValueError, match="q must be 1-D"):
        ns.lcp(M3, Q3.reshape(3, 1))
    with pytest.raises(ns.InputError, match="square|rows|cols"):
        ns.lcp(np.ones((3, 2)), np.ones(2))
    with pytest.raises(ValueError):
        ns.fc(np.eye(5), np.ones(5), [0.1])
    with pytest.raises(ValueError):
        ns.fc(np.eye(6), np.ones(6), [0.1, 0.2], dim=4)
    with pytest.raises(ValueError):
        ns.gfc(np.eye(3), np.ones((2, 3)), np.ones(3), np.ones(3), [0.1])
    with pytest.raises(ValueError):
        ns.gmp(np.eye(4), np.ones(4), ["lcp", "fc3d"], [1, 2])
    with pytest.raises(TypeError, match="blocks"):
        ns.gmp(np.eye(4), np.ones(4), ["lcp", "fc3d"])
    with pytest.raises(ValueError, match="unknown gmp block type"):
        ns.gmp(np.eye(4), np.ones(4), ["lcp", "cone"], [1, 3])
    with pytest.raises(ValueError, match="exceeds"):
        ns.mlcp(M3, Q3, 4)
    with pytest.raises(TypeError):
        ns.mlcp(M3, Q3, 1, A=M3)
    with pytest.raises(TypeError):
        ns.avi(M3, Q3, H=np.eye(3))


def test_empty_inputs():
    for M, q in ((np.zeros((0, 0)), np.zeros(0)), ([], [])):
        try:
            p = ns.lcp(M, q)
        except (ValueError, TypeError):
            continue
        ns.solve(p)   # a valid empty problem must solve without crashing


def test_non_contiguous_and_c_order():
    big = np.arange(36, dtype=float).reshape(6, 6) + 10 * np.eye(6)
    Mv = big[::2, ::2]              # strided view, not contiguous
    assert not Mv.flags.c_contiguous and not Mv.flags.f_contiguous
    qv = np.array([-1.0, 0, -2.0, 0, -3.0, 0])[::2]
    r = ns.solve(ns.lcp(Mv, qv))
    Mc = np.ascontiguousarray(Mv)
    np.testing.assert_allclose(r.z, ns.solve(ns.lcp(Mc, qv.copy())).z)
    np.testing.assert_allclose(Mv @ r.z + qv, r.w, atol=1e-12)
    # negative strides, a transposed view, a read-only array, a big-endian copy
    R = M3[::-1, ::-1]
    np.testing.assert_array_equal(ns.lcp(R, Q3).data()["M"], np.array(R))
    np.testing.assert_array_equal(ns.lcp(big.T[:3, 1:4], Q3).data()["M"], big.T[:3, 1:4])
    ro = M3.copy()
    ro.flags.writeable = False
    np.testing.assert_array_equal(ns.lcp(ro, Q3).data()["M"], M3)
    np.testing.assert_array_equal(ns.lcp(M3.astype(">f8"), Q3.astype(">f8")).data()["M"], M3)
    # C-ordered input is transposed correctly (non-symmetric matrix)
    A = np.array([[4.0, 1.0], [0.0, 3.0]])
    np.testing.assert_array_equal(ns.lcp(A, [1.0, 1.0]).data()["M"], A)
    np.testing.assert_array_equal(ns.lcp(np.asfortranarray(A), [1.0, 1.0]).data()["M"], A)


@pytest.mark.parametrize("where", ["M", "q"])
@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_nan_inf_rejected_with_library_message(where, value):
    M, q = M3.copy(), Q3.copy()
    if where == "M":
        M[1, 1] = value
    else:
        q[1] = value
    with pytest.raises(ns.InputError, match="finite|nan|inf") as e:
        ns.lcp(M, q)
    assert e.value.status == "bad_input"


def test_nan_everywhere_else(rng):
    with pytest.raises(ns.InputError):
        ns.fc(np.eye(3), np.ones(3), [np.nan])
    with pytest.raises(ns.InputError):
        ns.fc(np.eye(3), np.ones(3), [-0.1])
    with pytest.raises(ns.InputError):
        ns.relay(M3, Q3, [0, np.nan, 0], [1, 1, 1])
    with pytest.raises(ns.InputError):
        ns.relay(M3, Q3, [2, 0, 0], [1, 1, 1])     # lb > ub
    S = sp.csc_matrix(M3)
    S.data[0] = np.nan
    with pytest.raises(ns.InputError):
        ns.lcp(S, Q3)
    # NaN in a warm start: refused by the solve driver, with its message
    with pytest.raises(ns.InputError, match="warm start"):
        ns.solve(ns.lcp(M3, Q3), "pgs", x0=[np.nan, 0, 0])


def test_bad_sparse_structure():
    S = sp.csc_matrix(M3)
    S.indices[0] = 7           # row index out of range
    with pytest.raises(ValueError):
        ns.lcp(S, Q3)

    class Fake:
        def tocsc(self):
            raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        ns.lcp(Fake(), Q3)


def test_file_errors(tmp_path):
    with pytest.raises(ns.FileError, match="cannot open") as e:
        ns.read(tmp_path / "missing.dat")
    assert isinstance(e.value, OSError) and e.value.status == "io_error"
    bad = tmp_path / "bad.dat"
    bad.write_text("3\n1 2\nnot numbers\n")
    with pytest.raises(ns.InputError, match="bad.dat"):
        ns.read(bad)
    with pytest.raises(ValueError, match="unknown kind"):
        ns.read(bad, kind="lcpx")
    with pytest.raises(ns.FileError):
        ns.lcp(M3, Q3).write(tmp_path / "no" / "such" / "dir.dat")
    with pytest.raises(ValueError, match="unknown format"):
        ns.lcp(M3, Q3).write(tmp_path / "x.dat", "xml")
    with pytest.raises(ns.Error):
        ns.lcp(M3, Q3).write(tmp_path / "x.hdf5", "fclib")   # FCLIB holds friction problems only
    with pytest.raises(TypeError):
        ns.read(42)


def test_unknown_kind_in_solvers():
    with pytest.raises(ValueError, match="unknown kind 'foo'"):
        ns.solvers("foo")
    with pytest.raises(TypeError):
        ns.solvers(3)


def test_nan_in_every_kind_names_the_field():
    cases = [
        (lambda: ns.gmp(2 * np.eye(3), -np.ones(3), ["relay"], [3], lb=[np.nan, 0, 0], ub=[1, 1, 1]), "bounds"),
        (lambda: ns.gmp(2 * np.eye(3), -np.ones(3), ["relay"], [3]), "without bounds"),
        (lambda: ns.avi(np.eye(2), [1, 1], lb=[0, np.nan], ub=[1, 1]), "NaN"),
        (lambda: ns.avi(np.eye(2), [1, 1], H=[[1, 0]], h=[np.nan]), "h"),
        (lambda: ns.gfc(np.eye(3), np.ones((3, 3)), np.ones(3), [np.nan, 0, 0], [0.1]), "b"),
        (lambda: ns.mlcp(M3, [0, np.inf, 0], 1), "q"),
        (lambda: ns.equality(M3, [0, 0, np.nan]), "q"),
    ]
    for make, field in cases:
        with pytest.raises(ns.InputError, match=field):
            make()


def test_empty_lcp_solves():
    r = ns.solve(ns.lcp(np.zeros((0, 0)), np.zeros(0)))
    assert r.converged and r.z.shape == (0,)


def test_solves_in_threads_agree(rng):
    # large problems are solved without the GIL: concurrent solves must not interfere
    import threading
    n = 80
    A = rng.standard_normal((n, n))
    M = A @ A.T + n * np.eye(n)
    qs = [rng.standard_normal(n) for _ in range(4)]
    probs = [ns.lcp(M, q) for q in qs]
    expect = [ns.solve(p, "lemke").z for p in probs]
    got = [None] * 4

    def work(i):
        for _ in range(5):
            got[i] = ns.solve(probs[i], "lemke").z
    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for e, g in zip(expect, got):
        np.testing.assert_array_equal(e, g)
