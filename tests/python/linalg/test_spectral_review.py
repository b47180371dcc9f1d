"""Wave-12 review of npurt.linalg._spectral: the cases the first tests missed.

  * full_matrices completion of U (tall) / Vh (wide) when many columns must
    be completed (M - N > N / 2): the first unit-vector candidates are used
    up and a later column must still come out orthonormal;
  * rank-deficient square matrices (half the singular values are zero);
  * ill-conditioned matrices (cond 1e3, 1e6): the singular vectors of the
    small singular values must stay orthonormal in float32 too (numpy's
    LAPACK gives ~1e-6; one-sided Jacobi's relative test gives the same).

Orthonormality tolerance: 50 * eps * max(m, n) (LAPACK-like backward error).
"""
import numpy as np
import pytest

import npurt as nr
from npurt.linalg import _spectral as L

DTYPES = ["float32", "float64"]


def _orth_err(q):
    return float(np.abs(q.T @ q - np.eye(q.shape[1])).max()) if q.size else 0.0


def _tol(dtype, m, n):
    return 50 * float(np.finfo(dtype).eps) * max(m, n)


def _with_condition(rng, m, n, cond, dtype):
    u, _ = np.linalg.qr(rng.standard_normal((m, m)))
    v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    k = min(m, n)
    return ((u[:, :k] * np.logspace(0, -np.log10(cond), k)) @ v[:k]).astype(dtype)


def _check_svd(a, full):
    m, n = a.shape
    u, s, vh = (np.asarray(z) for z in L.svd(nr.asarray(a), full_matrices=full))
    tol = _tol(a.dtype, m, n)
    assert _orth_err(u) <= tol, ("U", _orth_err(u))
    assert _orth_err(vh.T) <= tol, ("Vh", _orth_err(vh.T))
    k = min(m, n)
    rec = u[:, :k] * s @ vh[:k]
    np.testing.assert_allclose(rec, a, atol=tol * max(1.0, float(np.abs(a).max())))
    ref = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    np.testing.assert_allclose(s, ref, atol=tol * ref[0] if ref.size else 0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(120, 40), (40, 120), (200, 3), (3, 200), (64, 63)])
def test_svd_full_matrices_completion_is_orthonormal(dtype, shape):
    _check_svd(np.random.default_rng(1).standard_normal(shape).astype(dtype), full=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("m, n, r", [(80, 80, 40), (60, 60, 1), (90, 50, 20), (50, 90, 20)])
def test_svd_rank_deficient_vectors_are_orthonormal(dtype, full, m, n, r):
    rng = np.random.default_rng(2)
    a = (rng.standard_normal((m, r)) @ rng.standard_normal((r, n))).astype(dtype)
    _check_svd(a, full)
    assert int(np.asarray(L.matrix_rank(nr.asarray(a)))) == r


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("cond", [1e3, 1e6])
@pytest.mark.parametrize("shape", [(50, 50), (120, 40), (40, 120), (60, 25)])
def test_svd_ill_conditioned_vectors_are_orthonormal(dtype, full, cond, shape):
    _check_svd(_with_condition(np.random.default_rng(3), *shape, cond, dtype), full)
