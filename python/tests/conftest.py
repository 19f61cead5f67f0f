"""Shared fixtures of the nonsmooth pytest suite (run by ctest: python_pytest)."""
import os
import pathlib

import numpy as np
import pytest

import nonsmooth

SOURCE = pathlib.Path(os.environ.get("NS_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SHARED = pathlib.Path(os.environ.get("NS_SHARED_DATA", SOURCE.parent / "shared" / "data"))


@pytest.fixture
def shared():
    """The third-party collection (../shared/data); the tests using it skip without it."""
    if not SHARED.is_dir():
        pytest.skip(f"no shared data at {SHARED}")
    return SHARED


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def spd(rng, n, shift=1.0):
    """Random symmetric positive definite matrix."""
    A = rng.standard_normal((n, n))
    return A @ A.T + shift * np.eye(n)


def lcp_residual(M, q, z):
    """Independent LCP check: max violation of z >= 0, w >= 0, z.w = 0."""
    w = M @ z + q
    return max(0.0, -z.min(), -w.min(), abs(z @ w))


def cone_violation(r, u, mu, dim):
    """Coulomb law check per contact: r in K_mu, uhat in K*_mu, r . uhat = 0."""
    worst = 0.0
    for a, m in enumerate(mu):
        ra, ua = r[dim * a:dim * a + dim], u[dim * a:dim * a + dim]
        uh = ua.copy()
        uh[0] += m * np.linalg.norm(ua[1:])
        worst = max(worst,
                    np.linalg.norm(ra[1:]) - m * ra[0],               # r in K
                    m * np.linalg.norm(uh[1:]) - uh[0] if m > 0 else -uh[0],  # uhat in K* = K_{1/mu}
                    abs(ra @ uh))
    return worst


def _has_event_driven():
    m = nonsmooth.Model()
    m.add_lagrangian(np.eye(1), [1.0])
    try:
        nonsmooth.EventDriven(m, T=1.0)
    except nonsmooth.UnsupportedError:
        return False
    return True


# nonsmooth.EventDriven exists only in builds with SUNDIALS CVODE
needs_event_driven = pytest.mark.skipif(not _has_event_driven(),
                                        reason="built without SUNDIALS: no event-driven scheme")
