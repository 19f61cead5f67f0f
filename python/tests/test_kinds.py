"""NCP, MCP, VI, convex QP and SOCLCP from Python: callables for F, its
Jacobian and the projection; every answer checked here with NumPy against
an analytic or published solution and by recomputing the residual."""
import numpy as np
import pytest
import scipy.sparse as sp

import nonsmooth as ns


def ks_F(x):
    """Kojima-Shindo NCP; solutions (1, 0, 3, 0) and (sqrt(6)/2, 0, 0, 1/2)."""
    x1, x2, x3, x4 = x
    return np.array([3 * x1**2 + 2 * x1 * x2 + 2 * x2**2 + x3 + 3 * x4 - 6,
                     2 * x1**2 + x1 + x2**2 + 10 * x3 + 2 * x4 - 2,
                     3 * x1**2 + x1 * x2 + 2 * x2**2 + 2 * x3 + 9 * x4 - 9,
                     x1**2 + 3 * x2**2 + 2 * x3 + 3 * x4 - 3])


def ks_J(x):
    x1, x2, x3, x4 = x
    return np.array([[6 * x1 + 2 * x2, 2 * x1 + 4 * x2, 1, 3],
                     [4 * x1 + 1, 2 * x2, 10, 2],
                     [6 * x1 + x2, x1 + 4 * x2, 2, 9],
                     [2 * x1, 6 * x2, 2, 3]])


@pytest.mark.parametrize("solver", ["auto", "newton-fb", "newton-min", "homotopy"])
@pytest.mark.parametrize("jac", [None, ks_J, lambda x: sp.csc_matrix(ks_J(x))])
def test_ncp_kojima_shindo(solver, jac):
    p = ns.NCP(ks_F, 4, jacobian=jac)
    assert p.kind == "ncp" and p.size == 4
    r = p.solve(solver, x0=[1.0, 1.0, 1.0, 1.0])
    assert r.converged, r
    z = r.z
    assert np.linalg.norm(np.minimum(z, ks_F(z))) < 1e-8
    sols = [np.array([1, 0, 3, 0.0]), np.array([np.sqrt(6) / 2, 0, 0, 0.5])]
    assert min(np.abs(z - s).max() for s in sols) < 1e-6
    np.testing.assert_allclose(r.F, ks_F(z), atol=1e-12)


def test_mcp_mixed_and_box():
    # z0 free: z0 + z1 = 1; 0 <= z1 _|_ z1 - z0 + 0.5 >= 0: z = (0.75, 0.25)
    F = lambda z: np.array([z[0] + z[1] - 1, z[1] - z[0] + 0.5])
    r = ns.solve(ns.MCP(F, lb=[-np.inf, 0], ub=[np.inf, np.inf]))
    assert r.converged
    np.testing.assert_allclose(r.z, [0.75, 0.25], atol=1e-8)
    c = np.array([0.01, 0.5, 1.0, 20.0])
    r = ns.mcp(lambda z: np.exp(z) - c, lb=-np.ones(4), ub=np.ones(4)).solve()
    np.testing.assert_allclose(r.z, np.clip(np.log(c), -1, 1), atol=3e-8)
    # affine form
    M, q = np.array([[2.0, 1], [1, 2]]), np.array([-1.0, 1])
    r = ns.mcp(M=M, q=q, lb=[0, 0]).solve()
    w = M @ r.z + q
    assert r.converged and np.abs(np.minimum(r.z, w)).max() < 1e-8


def test_vi_box_and_projection():
    c = np.array([-2.0, -0.3, 0.2, 0.9, 1.7, 3.0])
    for solver in ["auto", "eg", "fpp", "hp", "newton-fb"]:
        r = ns.VI(lambda x: x - c, lb=-np.ones(6), ub=np.ones(6)).solve(solver)
        assert r.converged, (solver, r)
        np.testing.assert_allclose(r.x, np.clip(c, -1, 1), atol=1e-8)
    ball = lambda x: x * min(1.0, 1.5 / max(np.linalg.norm(x), 1e-300))
    for solver in ["auto", "eg", "fpp", "hp"]:
        r = ns.vi(lambda x: x - c, n=6, project=ball).solve(solver)
        assert r.converged, (solver, r)
        np.testing.assert_allclose(r.x, 1.5 * c / np.linalg.norm(c), atol=1e-8)
    with pytest.raises(ns.InputError, match="box"):
        ns.vi(lambda x: x - c, n=6, project=ball).solve("newton-fb")


def test_cqp():
    # min 1/2 x'Dx s.t. sum x = 1, x >= 0: x_i = lam / d_i, y = lam
    d = np.arange(1.0, 7.0)
    r = ns.CQP(np.diag(d), np.zeros(6), lb=np.zeros(6), A=np.ones((1, 6)), b=[1.0]).solve()
    lam = 1 / np.sum(1 / d)
    assert r.converged
    np.testing.assert_allclose(r.x, lam / d, atol=1e-7)
    np.testing.assert_allclose(r.y, [lam], atol=1e-7)
    # projection of c on a second-order cone {|x_T| <= 0.5 x_0}
    c = np.array([1.0, 2.0, -1.0])
    r = ns.cqp(np.eye(3), -c, cones=[3], mu=[0.5]).solve("pg-bb")
    nt = np.linalg.norm(c[1:])
    t = (c[0] + 0.5 * nt) / 1.25
    np.testing.assert_allclose(r.x, [t, 0.5 * t * c[1] / nt, 0.5 * t * c[2] / nt], atol=1e-7)
    # a projection callable (the ball of radius 1)
    r = ns.cqp(np.eye(3), -c, project=lambda x: x / max(1.0, np.linalg.norm(x))).solve("admm")
    np.testing.assert_allclose(r.x, c / np.linalg.norm(c), atol=1e-7)


@pytest.mark.parametrize("solver", [None, "ipm", "nsgs/local=newton"])
def test_soclcp(solver):
    # W = 2 I: r = P_K(-q / 2) (Moreau)
    q = np.array([0.5, -2.0, 1.0, -1.0, 0.3])
    p = ns.soclcp(2 * np.eye(5), q, cones=[3, 2], mu=[0.7, 1.0])
    r = p.solve(solver) if solver else p.solve()
    assert r.converged
    x = -q / 2
    nt = np.linalg.norm(x[1:3])
    t = (x[0] + 0.7 * nt) / (1 + 0.49)
    want0 = [t, 0.7 * t * x[1] / nt, 0.7 * t * x[2] / nt]
    np.testing.assert_allclose(r.r[:3], want0, atol=1e-7)
    # cone 2 (size 2, mu 1): x = (0.5, -0.15) is inside: r = x
    np.testing.assert_allclose(r.r[3:], x[3:], atol=1e-7)
    np.testing.assert_allclose(r.v, 2 * r.r + q, atol=1e-12)


def test_soclcp_ipm_singular():
    # the 1D Laplacian with free ends (singular) and q = v* - W r* from a
    # complementary pair: a solution exists; the interior point reaches it,
    # and the cone conditions are checked here
    nc = 30
    n = 3 * nc
    W = 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    W[0, 0] = W[-1, -1] = 1.0
    rng = np.random.default_rng(4)
    mu = rng.uniform(0.2, 1.0, nc)
    rs, vs = np.zeros(n), np.zeros(n)
    for c in range(nc):
        t = rng.uniform(-1, 1, 2)
        if c % 4:
            rs[3 * c + 1:3 * c + 3] = t
            rs[3 * c] = np.linalg.norm(t) / mu[c] + 0.5
        else:
            vs[3 * c + 1:3 * c + 3] = t
            vs[3 * c] = mu[c] * np.linalg.norm(t) + 0.5
    q = vs - W @ rs
    r = ns.soclcp(W, q, cones=[3] * nc, mu=list(mu)).solve("ipm", tol=1e-10)
    assert r.converged
    x, v = r.r.reshape(nc, 3), (W @ r.r + q).reshape(nc, 3)
    assert np.all(np.linalg.norm(x[:, 1:], axis=1) <= mu * x[:, 0] + 1e-8)
    assert np.all(mu * np.linalg.norm(v[:, 1:], axis=1) <= v[:, 0] + 1e-8)
    assert np.all(np.abs(np.sum(x * v, axis=1)) <= 1e-8)


def test_callback_errors():
    def bad(z):
        raise RuntimeError("no F here")
    with pytest.raises(RuntimeError, match="no F here"):
        ns.ncp(bad, 3).solve()
    with pytest.raises(ValueError, match="F\\(z\\) has length 2"):
        ns.ncp(lambda z: np.zeros(2), 3).solve()
    with pytest.raises(ns.InputError, match="jacobian"):
        ns.ncp(ks_F, 4, jacobian=lambda z: np.eye(3)).solve("newton-fb")
    with pytest.raises(TypeError, match="callable"):
        ns.ncp(3.0, 2)
    with pytest.raises(ns.InputError, match="n"):
        ns.ncp(ks_F)
    with pytest.raises(ns.InputError, match="not both"):
        ns.ncp(ks_F, 4, M=np.eye(4), q=np.zeros(4))
    with pytest.raises(ns.InputError, match="lb\\[0\\] = 2 > ub\\[0\\]"):
        ns.mcp(ks_F, lb=[2.0, 0, 0, 0], ub=[1.0, 1, 1, 1])
    with pytest.raises(ns.InputError, match="not symmetric"):
        ns.cqp(np.array([[1.0, 1], [0, 1]]), [0, 0])
    with pytest.raises(ns.InputError, match="mu"):
        ns.cqp(np.eye(3), np.zeros(3), cones=[3])
    with pytest.raises(ns.InputError, match="cone_start"):
        ns.soclcp(np.eye(3), np.zeros(3), cones=[2], mu=[1.0])
    with pytest.raises(ns.InputError, match="mu"):
        ns.soclcp(np.eye(3), np.zeros(3), cones=[3], mu=[-1.0])
    with pytest.raises(ns.InputError, match="project or lb/ub"):
        ns.vi(ks_F, lb=np.zeros(4), project=lambda x: x)


def test_lcp_file_as_ncp(shared):
    f = shared / "lcp" / "lcp_CPS_1.dat"
    p = ns.read(str(f), kind="ncp")
    assert p.kind == "ncp"
    r = p.solve()
    assert r.converged
