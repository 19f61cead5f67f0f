"""Rolling friction contact from Python: nonsmooth.read / solve on the
shared rolling files, problems from arrays, bad arguments. The law is
checked here from the arrays (r in K, u_N >= 0, r.u^ = 0)."""
import numpy as np
import pytest

import nonsmooth as ns
from conftest import SHARED

ROLLING = SHARED.parent / "rolling-data"


def law_violation(r, u, mu, mur, d):
    h = (d - 1) // 2
    worst = 0.0
    for c in range(len(mu)):
        rc, uc = r[c * d:(c + 1) * d], u[c * d:(c + 1) * d]
        nt, nr = np.linalg.norm(rc[1:1 + h]), np.linalg.norm(rc[1 + h:])
        uhat_n = uc[0] + mu[c] * np.linalg.norm(uc[1:1 + h]) + mur[c] * np.linalg.norm(uc[1 + h:])
        dot = rc[0] * uhat_n + rc[1:] @ uc[1:]
        worst = max(worst, nt - mu[c] * rc[0], nr - mur[c] * rc[0], -rc[0], -uc[0],
                    abs(dot) / (1e-300 + np.linalg.norm(rc) + np.linalg.norm(uc)))
    return worst


@pytest.fixture
def rolling():
    if not ROLLING.is_dir():
        pytest.skip(f"no rolling data at {ROLLING}")
    return ROLLING


def test_read_solve_local_files(rolling):
    for path in sorted((rolling / "rfc3d").glob("*.dat")):
        p = ns.read(path)
        assert p.kind == "rfc3d"
        r = ns.solve(p)
        assert r.converged and r.error <= 1e-8, (path, r)
        d = p.data()
        W = d["W"].toarray() if hasattr(d["W"], "toarray") else d["W"]
        u = W @ r.r + d["q"]
        np.testing.assert_allclose(r.u, u, atol=1e-9 * max(1.0, np.abs(u).max()))
        assert law_violation(r.r, u, d["mu"], d["mu_r"], 5) < 1e-6 * max(1.0, np.abs(d["q"]).max())


def test_read_solve_global_files(rolling):
    for path in (rolling / "grfc3d").iterdir():
        p = ns.read(path)
        assert p.kind == "grfc3d"
        r = ns.solve(p)
        assert r.converged, (path, r)
        assert set(r.solution) == {"v", "u", "r"}


def test_from_arrays_sticking_and_rolling():
    # W = diag(1, 1, 1, 4, 4), r_N = 1: the rolling torque sticks below
    # w mu_r r_N = 0.2 and saturates at mu_r r_N above it
    W = np.diag([1.0, 1.0, 1.0, 4.0, 4.0])
    for qr, want in ((0.1, -0.025), (0.5, -0.05)):
        q = np.array([-1.0, 0.0, 0.0, qr, 0.0])
        r = ns.solve(ns.rfc(W, q, [0.3], [0.05]), tol=1e-12)
        assert r.converged and r.kind == "rfc3d"
        assert abs(r.r[3] - want) < 1e-9
    W2 = np.diag([1.0, 1.0, 4.0])
    r2 = ns.solve(ns.rfc(W2, np.array([-1.0, 0.0, 0.5]), [0.3], [0.05], dim=3), tol=1e-12)
    assert r2.converged and r2.kind == "rfc2d" and abs(r2.r[2] + 0.05) < 1e-9


def test_pivoting_from_arrays():
    # dim 6: a torque r_P about the normal, |r_P| <= mu_p r_N. W = diag(1, 1,
    # 1, 4, 4, 2), r_N = 1: the pivoting torque sticks (u_P = 0) below
    # w mu_p r_N = 0.1 and saturates at mu_p r_N, opposed to u_P, above it
    W = np.diag([1.0, 1.0, 1.0, 4.0, 4.0, 2.0])
    for qp, want in ((0.06, -0.03), (0.5, -0.05)):
        q = np.array([-1.0, 0.0, 0.0, 0.0, 0.0, qp])
        p = ns.rfc(W, q, [0.3], [0.05], mu_p=[0.05])
        assert p.data()["dim"] == 6 and list(p.data()["mu_p"]) == [0.05]
        r = ns.solve(p, tol=1e-12)
        assert r.converged and r.kind == "rfc3d"
        u = W @ r.r + q
        assert abs(r.r[0] - 1.0) < 1e-9
        assert abs(r.r[5] - want) < 1e-9
        if abs(u[5]) > 1e-9:
            assert r.r[5] * u[5] < 0
    with pytest.raises(ValueError):
        ns.rfc(np.eye(5), np.zeros(5), [0.3], [0.1], mu_p=[0.1])          # mu_p needs dim 6
    with pytest.raises(ValueError):
        ns.rfc(np.eye(6), np.zeros(6), [0.3], [0.1], dim=6)                # dim 6 needs mu_p
    with pytest.raises(ValueError):
        ns.rfc(W, np.zeros(6), [0.3], [0.1], mu_p=[0.1, 0.2])              # mu_p length
    with pytest.raises(ns.InputError):
        ns.rfc(W, np.zeros(6), [0.3], [0.1], mu_p=[-0.1])                  # negative mu_p


def test_grfc_from_arrays():
    # one sphere (mass 1, inertia 0.4) on a plane, pushed down by q
    M = np.diag([1.0, 1.0, 1.0, 0.4, 0.4, 0.4])
    H = np.zeros((6, 5))
    H[2, 0] = 1.0                       # normal: v_z
    H[0, 1], H[4, 1] = 1.0, -1.0        # sliding x: v_x - R w_y (R = 1)
    H[1, 2], H[3, 2] = 1.0, 1.0         # sliding y: v_y + R w_x
    H[3, 3], H[4, 4] = 1.0, 1.0         # rolling: w_x, w_y
    q = np.array([0.0, 0.0, -1.0, 0.0, 0.0, 0.0])
    r = ns.solve(ns.grfc(M, H, q, np.zeros(5), [0.5], [0.1]), tol=1e-10)
    assert r.converged
    np.testing.assert_allclose(M @ r.v, H @ r.r + q, atol=1e-9)
    assert abs(r.r[0] - 1.0) < 1e-8


def test_bad_arguments():
    W = np.eye(5)
    with pytest.raises(ValueError):
        ns.rfc(W, np.zeros(5), [0.3], [0.1, 0.2])        # mu_r length
    with pytest.raises(ValueError):
        ns.rfc(W, np.zeros(5), [0.3], [0.1], dim=4)
    with pytest.raises(ValueError):
        ns.rfc(np.eye(4), np.zeros(4), [0.3], [0.1])     # W size
    with pytest.raises(ns.InputError):
        ns.rfc(W, np.zeros(5), [0.3], [-0.1])            # negative mu_r
    with pytest.raises(ValueError):
        ns.grfc(np.eye(6), np.zeros((6, 4)), np.zeros(6), np.zeros(5), [0.5], [0.1])
