"""NaN and inf inputs of nr.linalg follow numpy 2.x per function (numpy is only the reference here).

numpy's policy, as its LAPACK calls give it: the LU family (det, slogdet, inv, solve, matrix_power with
a negative power) returns NaN results; cholesky raises "not positive definite" (reference LAPACK's
potrf checks the pivot for NaN; the OpenBLAS build of numpy used here returns NaN factors for a NaN in
the lower triangle instead: nr keeps LAPACK's check); qr returns NaN/inf
results; eigh/eigvalsh raise "Eigenvalues did not converge" for a NaN or inf in the lower triangle
(from n = 3 on: numpy's 2 x 2 case is a LAPACK accident returning NaN) and ignore the upper one; the
SVD family (svd, svdvals, pinv, matrix_rank, matrix_norm 2/-2/'nuc') raises "SVD did not converge"
for a NaN, while an inf alone gives NaN singular values and matrix_rank 0. Tall and wide shapes go
through npurt::ops::svd's QR-first path, whose R has a NaN for an inf in A too: that path must still
tell the two apart. A finite matrix in the same stack is never affected.
"""
import warnings

import numpy as np
import pytest

import npurt as nr
from npurt import linalg as L

DTYPES = ["float32", "float64"]


def _np(x):
    return np.asarray(x)


def _matrix(shape, where, bad, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    if shape[-1] == shape[-2]:
        a = a + np.swapaxes(a, -1, -2)
    a[where] = bad
    return a


def _numpy_raises(fn, a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(a)
        except np.linalg.LinAlgError:
            return True
    return False


LU_FAMILY = {
    "det": (L.det, np.linalg.det),
    "slogdet": (lambda x: L.slogdet(x)[1], lambda a: np.linalg.slogdet(a)[1]),
    "inv": (L.inv, np.linalg.inv),
    "solve": (lambda x: L.solve(x, nr.ones(x.shape[-1], dtype=x.dtype)), lambda a: np.linalg.solve(a, np.ones(a.shape[-1]))),
    "matrix_power": (lambda x: L.matrix_power(x, -1), lambda a: np.linalg.matrix_power(a, -1)),
}


@pytest.mark.parametrize("name", sorted(LU_FAMILY))
@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("dtype", DTYPES)
def test_lu_family_gives_nan_results_like_numpy(name, bad, dtype):
    ours, ref = LU_FAMILY[name]
    a = _matrix((4, 4), (2, 1), bad).astype(dtype)
    assert not _numpy_raises(ref, a)
    got = _np(ours(nr.asarray(a)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ref(a.astype(np.float64))
    assert np.array_equal(np.isnan(got), np.isnan(want))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_cholesky_refuses_like_lapack(bad):
    a = _matrix((4, 4), (2, 1), bad) + 10 * np.eye(4)
    with pytest.raises(L.LinAlgError, match="npurt.linalg.cholesky: argument 'x': matrix is not positive definite"):
        L.cholesky(nr.asarray(a))


@pytest.mark.parametrize("fn", [L.eigh, L.eigvalsh])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("n", [3, 6])
@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_raises_for_the_lower_triangle_like_numpy(fn, bad, n, dtype):
    lower = _matrix((n, n), (n - 1, 0), bad).astype(dtype)
    assert _numpy_raises(np.linalg.eigvalsh, lower)
    with pytest.raises(L.LinAlgError, match=rf"npurt.linalg.{fn.__name__}: argument 'x': Eigenvalues did not converge"):
        fn(nr.asarray(lower))
    upper = _matrix((n, n), (0, n - 1), bad).astype(dtype)  # never read (UPLO='L'), as numpy
    assert not _numpy_raises(np.linalg.eigvalsh, upper)
    w = _np(L.eigvalsh(nr.asarray(upper)))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(upper.astype(np.float64)), rtol=1e-4, atol=1e-4)


SVD_FAMILY = {
    "svd": lambda x: L.svd(x).S,
    "svd_reduced": lambda x: L.svd(x, full_matrices=False).U,
    "svdvals": L.svdvals,
    "pinv": L.pinv,
    "matrix_rank": L.matrix_rank,
    "norm2": lambda x: L.matrix_norm(x, ord=2),
    "nuc": lambda x: L.matrix_norm(x, ord="nuc"),
}
SHAPES = [(4, 4), (12, 3), (3, 12), (2, 9, 2)]  # (12, 3) and (3, 12): the QR-first path


@pytest.mark.parametrize("name", sorted(SVD_FAMILY))
@pytest.mark.parametrize("shape", SHAPES)
def test_svd_family_raises_for_nan_like_numpy(name, shape):
    a = _matrix(shape, (..., 1, 1), np.nan).astype(np.float32)
    assert _numpy_raises(lambda z: np.linalg.svd(z, compute_uv=False), a)
    with pytest.raises(L.LinAlgError, match="argument 'x': SVD did not converge"):
        SVD_FAMILY[name](nr.asarray(a))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_of_inf_gives_nan_like_numpy(shape, dtype):
    a = _matrix(shape, (..., 1, 1), np.inf).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_s = np.linalg.svd(a, compute_uv=False)
        ref_rank = np.linalg.matrix_rank(a)
    s = _np(L.svdvals(nr.asarray(a)))
    assert np.isnan(s).all() and np.isnan(ref_s).all()
    np.testing.assert_array_equal(_np(L.matrix_rank(nr.asarray(a))), ref_rank)
    u, s2, vh = (_np(z) for z in L.svd(nr.asarray(a)))
    assert np.isnan(s2).all() and np.isnan(u).all() and np.isnan(vh).all()


def test_nan_matrix_rank_is_not_zero_any_more():
    # wave 12 returned 0 (NaN singular values compare false against the cutoff); numpy raises
    with pytest.raises(L.LinAlgError):
        L.matrix_rank(nr.asarray(np.full((5, 5), np.nan, np.float32)))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_qr_gives_non_finite_results_like_numpy(bad):
    a = _matrix((5, 3), (1, 1), bad)
    assert not _numpy_raises(np.linalg.qr, a)
    q, r = (_np(z) for z in L.qr(nr.asarray(a)))
    assert not np.isfinite(r).all()


def test_finite_matrices_of_a_stack_with_an_inf_are_exact():
    a = np.random.default_rng(3).standard_normal((3, 10, 4))
    a[1, 2, 2] = np.inf
    s = _np(L.svdvals(nr.asarray(a)))
    assert np.isnan(s[1]).all()
    for i in (0, 2):
        np.testing.assert_allclose(s[i], np.linalg.svd(a[i], compute_uv=False), rtol=1e-12)
