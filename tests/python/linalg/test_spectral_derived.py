"""npurt.linalg._spectral's functions built on the decompositions: pinv, matrix_rank, matrix_norm,
against numpy.linalg in float64 (tolerance 30 eps * n * max(1, ||A||), as test_spectral.py)."""
import numpy as np
import pytest

import npurt as nr
from npurt.linalg import _spectral as L

TOL = {"float32": 30 * np.finfo(np.float32).eps, "float64": 30 * np.finfo(np.float64).eps}


def _tol(dtype, a):
    return TOL[dtype] * max(a.shape[-2:]) * max(1.0, float(np.abs(a).max()))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (5, 3), (3, 5), (2, 3, 4, 6)])
def test_pinv_matches_numpy(dtype, shape):
    a = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    p = np.asarray(L.pinv(nr.asarray(a)))
    ref = np.linalg.pinv(a.astype(np.float64))
    assert p.shape == ref.shape and p.dtype == a.dtype
    np.testing.assert_allclose(p, ref, atol=_tol(dtype, a) * 10)


def test_pinv_rank_deficient_and_rtol():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((6, 2)) @ rng.standard_normal((2, 4))
    np.testing.assert_allclose(np.asarray(L.pinv(nr.asarray(a))), np.linalg.pinv(a, rcond=4 * 6e-16 * 10),
                               atol=1e-10)
    d = np.diag([4.0, 1.0, 1e-3])
    np.testing.assert_allclose(np.asarray(L.pinv(nr.asarray(d), rtol=0.01)), np.diag([0.25, 1.0, 0.0]))
    np.testing.assert_allclose(np.asarray(L.pinv(nr.asarray(d), rtol=1e-6)), np.diag([0.25, 1.0, 1e3]))
    assert np.asarray(L.pinv(nr.asarray(np.zeros((0, 3))))).shape == (3, 0)


def test_matrix_rank():
    rng = np.random.default_rng(2)
    full = rng.standard_normal((5, 5))
    low = rng.standard_normal((5, 2)) @ rng.standard_normal((2, 5))
    batch = nr.asarray(np.stack([full, low, np.zeros((5, 5))]))
    r = L.matrix_rank(batch)
    assert r.dtype == nr.int64
    np.testing.assert_array_equal(np.asarray(r), [5, 2, 0])
    d = nr.asarray(np.diag([1.0, 1e-3, 1e-9]))
    assert int(np.asarray(L.matrix_rank(d, rtol=1e-4))) == 2
    np.testing.assert_array_equal(np.asarray(L.matrix_rank(nr.asarray(np.stack([np.diag([1.0, 1e-3])] * 2)),
                                                           rtol=nr.asarray(np.array([1e-4, 1e-2])))), [2, 1])
    assert np.asarray(L.matrix_rank(nr.asarray(np.zeros((2, 0, 3))))).tolist() == [0, 0]


@pytest.mark.parametrize("ord", ["fro", None, "nuc", 1, -1, 2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm_matches_numpy(ord, keepdims):
    a = np.random.default_rng(3).standard_normal((2, 4, 3))
    y = np.asarray(L.matrix_norm(nr.asarray(a), ord=ord, keepdims=keepdims))
    ref = np.linalg.norm(a, ord=ord, axis=(-2, -1), keepdims=keepdims)
    assert y.shape == ref.shape
    np.testing.assert_allclose(y, ref, atol=1e-13)
    f = np.asarray(L.matrix_norm(nr.asarray(a.astype(np.float32)), ord=ord, keepdims=keepdims))
    np.testing.assert_allclose(f, ref, rtol=1e-5)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 0)])
@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_matrix_norm_of_empty_matrices_follows_numpy(shape, ord):
    # numpy (and array-api-strict) give 0 where the norm is a max over nothing or a sum, and raise where it is
    # a min over nothing (found by the conformance run: npurt's max of an empty axis raised for ord 1 / inf / 2).
    a = np.zeros(shape)
    try:
        expected = np.linalg.norm(a, ord=ord, axis=(-2, -1))
    except ValueError:
        with pytest.raises(nr.InvalidArgumentError, match="matrix_norm.*empty matrix is undefined"):
            L.matrix_norm(nr.asarray(a), ord=ord)
        assert float(L.matrix_norm(nr.eye(2), ord=ord)) > 0  # usable afterwards
        return
    y = L.matrix_norm(nr.asarray(a), ord=ord)
    assert isinstance(y, nr.ndarray) and y.dtype == nr.float64
    np.testing.assert_array_equal(np.asarray(y), expected)


def test_bad_arguments():
    x = nr.zeros((3, 3))
    with pytest.raises(nr.InvalidArgumentError, match="npurt.linalg.matrix_norm: argument 'ord'"):
        L.matrix_norm(x, ord=3)
    with pytest.raises(nr.ArgumentTypeError, match="npurt.linalg.pinv: argument 'rtol'"):
        L.pinv(x, rtol="big")
    with pytest.raises(nr.UnsupportedDtypeError, match="npurt.linalg.matrix_rank: argument 'x': int32"):
        L.matrix_rank(nr.zeros((3, 3), dtype=nr.int32))
    with pytest.raises(nr.UnsupportedDtypeError, match="npurt.linalg.matrix_norm: argument 'x': float16"):
        L.matrix_norm(nr.zeros((3, 3), dtype=nr.float16))
    with pytest.raises(nr.InvalidArgumentError, match="empty matrix"):
        L.matrix_norm(nr.zeros((0, 3)), ord=-2)  # a min over no singular values; ord=2 of it is 0 like numpy
