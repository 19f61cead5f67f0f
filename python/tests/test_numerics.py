"""Problems from arrays and files, solve(), the registry; every solution is
checked against the problem's definition recomputed here with NumPy."""
import numpy as np
import pytest
import scipy.sparse as sp

import nonsmooth as ns
from conftest import cone_violation, lcp_residual, spd


def test_version():
    assert ns.__version__ == ns.version() and ns.version().count(".") == 2


def test_lcp_analytic():
    # M = I: z = max(0, -q), w = max(0, q)
    q = np.array([-1.0, 2.0, -3.0, 0.5])
    r = ns.solve(ns.lcp(np.eye(4), q))
    assert r.status == "converged" and r.converged
    np.testing.assert_allclose(r.z, [1.0, 0.0, 3.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(r.w, [0.0, 2.0, 0.0, 0.5], atol=1e-12)
    assert r.solution["z"] is not None and set(r.solution) == {"z", "w"}
    assert r.iterations >= 0 and r.seconds >= 0 and r.message == ""


@pytest.mark.parametrize("solver", [s["name"] for s in ns.solvers("lcp")] + ["auto", None])
def test_lcp_every_solver(rng, solver):
    M, q = spd(rng, 8), rng.standard_normal(8)
    r = ns.solve(ns.lcp(M, q), solver, tol=1e-10)
    assert r.converged, r
    assert lcp_residual(M, q, r.z) < 1e-7
    np.testing.assert_allclose(r.w, M @ r.z + q, atol=1e-12)


def test_lcp_int_and_list_inputs():
    r = ns.solve(ns.lcp([[2, 1], [1, 2]], [-1, -1]))
    np.testing.assert_allclose(r.z, [1 / 3, 1 / 3], atol=1e-12)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "array"])
def test_sparse_input(rng, fmt):
    M, q = spd(rng, 6), rng.standard_normal(6)
    M[np.abs(M) < 0.5] = 0.0
    M = M + 6 * np.eye(6)
    S = sp.csr_array(M) if fmt == "array" else getattr(sp, fmt + "_matrix")(M)
    p = ns.lcp(S, q)
    D = p.data()["M"]               # a sparse problem's matrix stays sparse, same entries
    assert sp.issparse(D) and D.nnz == np.count_nonzero(M)
    np.testing.assert_array_equal(D.toarray(), M)
    r = ns.solve(p, "pgs", tol=1e-12)
    assert r.converged and lcp_residual(M, q, r.z) < 1e-9


def test_mlcp_both_forms(rng):
    n, m = 2, 3
    Mfull = spd(rng, n + m)
    q = rng.standard_normal(n + m)
    r1 = ns.solve(ns.mlcp(Mfull, q, n), tol=1e-12)
    A, C = Mfull[:n, :n], Mfull[:n, n:]
    D, B = Mfull[n:, :n], Mfull[n:, n:]
    r2 = ns.solve(ns.mlcp(A=A, B=B, C=C, D=D, a=q[:n], b=q[n:]), tol=1e-12)
    for r in (r1, r2):
        assert r.converged
        u, v = r.u, r.v
        np.testing.assert_allclose(A @ u + C @ v + q[:n], 0, atol=1e-9)
        wv = D @ u + B @ v + q[n:]
        assert min(v.min(), wv.min()) > -1e-9 and abs(v @ wv) < 1e-9
    np.testing.assert_allclose(r1.u, r2.u, atol=1e-9)


def test_relay_box(rng):
    n = 5
    M, q = spd(rng, n), 3 * rng.standard_normal(n)
    lb, ub = -np.ones(n), np.ones(n)
    r = ns.solve(ns.relay(M, q, lb, ub), tol=1e-12)
    assert r.converged
    z, w = r.z, M @ r.z + q
    for zi, wi in zip(z, w):
        assert -1 - 1e-9 <= zi <= 1 + 1e-9
        if zi < 1 - 1e-7 and zi > -1 + 1e-7:
            assert abs(wi) < 1e-7
        elif zi >= 1 - 1e-7:
            assert wi <= 1e-7
        else:
            assert wi >= -1e-7


def test_equality(rng):
    M, q = spd(rng, 4), rng.standard_normal(4)
    r = ns.solve(ns.equality(M, q))
    np.testing.assert_allclose(M @ r.z + q, 0, atol=1e-10)


def test_avi_box_and_polyhedron(rng):
    n = 3
    M, q = spd(rng, n), 2 * rng.standard_normal(n)
    lb, ub = -0.5 * np.ones(n), 0.5 * np.ones(n)
    rb = ns.solve(ns.avi(M, q, lb=lb, ub=ub), tol=1e-12)
    # the same box as a polyhedron Hz <= h
    H = np.vstack([np.eye(n), -np.eye(n)])
    h = np.concatenate([ub, -lb])
    rp = ns.solve(ns.avi(M, q, H=H, h=h), tol=1e-12)
    rr = ns.solve(ns.relay(M, q, lb, ub), tol=1e-12)
    assert rb.converged and rp.converged
    np.testing.assert_allclose(rb.z, rr.z, atol=1e-8)
    np.testing.assert_allclose(rp.z, rr.z, atol=1e-8)


def test_fc3d_single_contact_analytic():
    # W = I, q = (-1, 0.5, 0): sticking impossible beyond mu; with mu = 0.2
    # the solution slides: r_N = 1, r_T = -mu * (u_T direction)
    W, q, mu = np.eye(3), np.array([-1.0, 2.0, 0.0]), np.array([0.2])
    r = ns.solve(ns.fc(W, q, mu), tol=1e-12)
    assert r.converged and r.kind == "fc3d"
    np.testing.assert_allclose(r.r, [1.0, -0.2, 0.0], atol=1e-9)
    np.testing.assert_allclose(r.u, W @ r.r + q, atol=1e-12)


@pytest.mark.parametrize("dim", [2, 3])
def test_fc_random(rng, dim):
    nc = 4
    W = spd(rng, dim * nc, shift=2.0)
    q = rng.standard_normal(dim * nc)
    q[::dim] -= 1.0
    mu = np.full(nc, 0.3)
    r = ns.solve(ns.fc(W, q, mu, dim=dim), tol=1e-11, max_iter=100000)
    assert r.converged, r
    assert cone_violation(r.r, W @ r.r + q, mu, dim) < 1e-6


def test_gfc(rng):
    n, nc, dim = 6, 2, 3
    M = spd(rng, n, shift=3.0)
    H = rng.standard_normal((n, dim * nc))
    q, b, mu = rng.standard_normal(n), rng.standard_normal(dim * nc), np.array([0.3, 0.5])
    b[::dim] += 1.0
    r = ns.solve(ns.gfc(M, H, q, b, mu), tol=1e-10)
    assert r.converged and set(r.solution) == {"v", "u", "r"}
    np.testing.assert_allclose(M @ r.v, H @ r.r + q, atol=1e-7)
    np.testing.assert_allclose(r.u, H.T @ r.v + b, atol=1e-9)
    assert cone_violation(r.r, r.u, mu, dim) < 1e-6


def test_gmp_mixed_blocks(rng):
    blocks, types = [1, 2, 3], ["equality", "lcp", "fc3d"]
    M = spd(rng, 6, shift=3.0)
    q = rng.standard_normal(6)
    q[3] -= 2.0
    p = ns.gmp(M, q, types, blocks, mu=[np.nan, np.nan, 0.4])
    d = p.data()
    assert d["types"] == types and d["blocks"] == blocks
    r = ns.solve(p, tol=1e-10)
    assert r.converged, r
    z, w = r.reaction, M @ r.reaction + q
    assert abs(w[0]) < 1e-7
    assert lcp_residual(np.eye(2), w[1:3] - z[1:3], z[1:3]) < 1e-7
    assert cone_violation(z[3:], w[3:], [0.4], 3) < 1e-6


def test_gmp_relay_block(rng):
    M = spd(rng, 3, shift=2.0)
    q = 5 * rng.standard_normal(3)
    r = ns.solve(ns.gmp(M, q, ["relay"], [3], lb=-np.ones(3), ub=np.ones(3)), tol=1e-10)
    rr = ns.solve(ns.relay(M, q, -np.ones(3), np.ones(3)), tol=1e-12)
    np.testing.assert_allclose(r.reaction, rr.z, atol=1e-7)


def test_read_and_solve_shared(shared):
    p = ns.read(shared / "fc3d" / "Capsules-i100-889.dat")
    assert p.kind == "fc3d" and p.size % 3 == 0
    r = ns.solve(p)
    assert r.status == "converged" and r.error <= 1e-8
    d = p.data()
    assert cone_violation(r.r, d["W"] @ r.r + d["q"], d["mu"], 3) < 1e-5 * max(1, np.abs(d["q"]).max())


def test_read_lcp_file(shared):
    path = shared / "lcp" / "lcp_exp_murty.dat"
    p = ns.read(str(path))
    d = p.data()
    r = ns.solve(p)
    assert r.converged and lcp_residual(d["M"], d["q"], r.z) < 1e-6 * max(1, np.abs(d["q"]).max())


@pytest.mark.parametrize("fmt,suffix", [("dat", ".dat"), ("auto", ".hdf5")])
def test_write_read_roundtrip(tmp_path, rng, fmt, suffix):
    W, q, mu = spd(rng, 6), rng.standard_normal(6), np.array([0.1, 0.7])
    p = ns.fc(W, q, mu)
    path = tmp_path / ("p" + suffix)
    p.write(path, fmt)
    p2 = ns.read(path)
    d, d2 = p.data(), p2.data()
    assert p2.kind == "fc3d"
    for k in ("W", "q", "mu"):      # 17 digits: exact round trip (FCLIB's W comes back sparse)
        a, b = (x.toarray() if sp.issparse(x) else x for x in (d[k], d2[k]))
        np.testing.assert_array_equal(a, b)


def test_write_every_kind_dat(tmp_path, rng):
    M, q = spd(rng, 3), rng.standard_normal(3)
    for p in (ns.lcp(M, q), ns.mlcp(M, q, 1), ns.relay(M, q, -np.ones(3), np.ones(3)),
              ns.equality(M, q)):
        path = tmp_path / f"{p.kind}.dat"
        p.write(str(path))
        back = ns.read(path, kind=p.kind)
        assert back.kind == p.kind
        np.testing.assert_array_equal(back.data()["M"], M)
        np.testing.assert_array_equal(back.data()["q"], q)


def test_solvers_registry():
    all_ = ns.solvers()
    kinds = {s["kind"] for s in all_}
    assert {"lcp", "mlcp", "relay", "fc3d", "fc2d", "gfc3d", "gmp", "equality"} <= kinds
    for kind in kinds:
        lst = ns.solvers(kind)
        assert sum(s["default"] for s in lst) == 1, kind
        assert all(s["description"] for s in lst)
    assert ns.solvers(ns.lcp(np.eye(1), [1.0])) == ns.solvers("lcp")


def test_auto_is_registry_default_or_auto():
    p = ns.lcp(np.eye(2), [-1.0, 1.0])
    r = ns.solve(p, "auto")
    names = {s["name"] for s in ns.solvers("lcp")}
    default = [s["name"] for s in ns.solvers("lcp") if s["default"]][0]
    assert r.solver == ("auto" if "auto" in names else default)
    assert ns.solve(p).solver == r.solver == ns.solve(p, None).solver


def test_options_effects(rng):
    M, q = spd(rng, 20), rng.standard_normal(20)
    p = ns.lcp(M, q)
    r = ns.solve(p, "pgs", tol=1e-14, max_iter=3)
    assert r.status == "max_iter" and r.iterations == 3 and not r.converged
    r = ns.solve(p, "pgs", tol=1e-10, record_history=True)
    # the C API's record_history is accepted; no solver fills the history yet
    assert r.converged and (r.history is None or len(r.history) >= 1)
    assert ns.solve(p, "pgs").history is None
    # warm start from the solution: converges at once
    r0 = ns.solve(p, "pgs", tol=1e-12)
    r1 = ns.solve(p, "pgs", tol=1e-10, x0=r0.z)
    assert r1.converged and r1.iterations <= 2
    r = ns.solve(p, solver="psor", omega=1.2, tol=1e-10)
    assert r.converged and r.solver == "psor"


def test_result_repr_and_dir():
    r = ns.solve(ns.lcp(np.eye(2), [-1.0, 1.0]))
    assert "converged" in repr(r) and "lcp" in repr(r)
    assert {"z", "w", "status", "error"} <= set(dir(r))
    with pytest.raises(AttributeError):
        r.nonexistent


KINDS_FROM_MATRIX = {
    "fc3d": lambda S, q: ns.fc(S, q, [0.3, 0.3]),
    "gfc3d": lambda S, q: ns.gfc(S, sp.csr_matrix(np.eye(6)), q, q, [0.3, 0.3]),
    "gmp": lambda S, q: ns.gmp(S, q, ["fc3d", "fc3d"], mu=[0.3, 0.3]),
    "mlcp": lambda S, q: ns.mlcp(S, q, 2),
    "mlcp-split": lambda S, q: ns.mlcp(A=S[:2, :2], B=S[2:, 2:], C=S[:2, 2:], D=S[2:, :2], a=q[:2], b=q[2:]),
    "relay": lambda S, q: ns.relay(S, q, -np.ones(6), np.ones(6)),
    "equality": lambda S, q: ns.equality(S, q),
    "avi": lambda S, q: ns.avi(S, q, lb=-np.ones(6), ub=np.ones(6)),
}


@pytest.mark.parametrize("kind", sorted(KINDS_FROM_MATRIX))
def test_every_kind_from_sparse_equals_dense(rng, kind):
    A = rng.standard_normal((6, 6))
    M, q = A @ A.T + 6 * np.eye(6), rng.standard_normal(6)
    make = KINDS_FROM_MATRIX[kind]
    r1 = ns.solve(make(M, q), tol=1e-12)
    r2 = ns.solve(make(sp.csr_matrix(M), q), tol=1e-12)
    assert r1.converged and r2.converged
    assert r1.solution.keys() == r2.solution.keys()
    for k in r1.solution:
        np.testing.assert_allclose(r1.solution[k], r2.solution[k], atol=1e-10)
