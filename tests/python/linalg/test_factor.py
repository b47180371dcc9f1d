"""nr.linalg.det / slogdet / inv / solve / cholesky / matrix_power (sdk_python/npurt/linalg/_factor.py,
kernels/linalg/) against numpy.linalg in float64, tolerances in linalg_cases.py."""
import math

import numpy as np
import pytest

import npurt as nr
from linalg_cases import FACTOR_DTYPES, SIZES, dev, spd, to_np, tol, well_conditioned

L = nr.linalg


@pytest.mark.parametrize("dtype", FACTOR_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_det_slogdet_inv_match_numpy(n, dtype):
    a = well_conditioned((n, n), n, dtype)
    ref = a.astype(np.float64)
    s, logabs = np.linalg.slogdet(ref)
    got = L.slogdet(dev(a))
    assert got.sign.dtype == nr.__dict__[dtype] and got.sign.shape == ()
    assert float(got.sign) == s
    assert abs(float(got.logabsdet) - logabs) <= tol(ref, dtype, abs(logabs))
    d = float(L.det(dev(a)))
    if logabs > math.log(np.finfo(dtype).max):  # overflows the dtype, in numpy too
        with np.errstate(over="ignore"):
            assert d == s * math.inf and np.linalg.det(a) == d
    else:
        assert math.isclose(d, s * math.exp(logabs), rel_tol=tol(ref, dtype))
    inv = to_np(L.inv(dev(a)))
    ref_inv = np.linalg.inv(ref)
    assert inv.dtype == np.dtype(dtype) and inv.shape == (n, n)
    np.testing.assert_allclose(inv, ref_inv, atol=tol(ref, dtype, np.abs(ref_inv).max()), rtol=0)


@pytest.mark.parametrize("dtype", FACTOR_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_solve_and_cholesky_match_numpy(n, dtype):
    a = well_conditioned((n, n), 100 + n, dtype)
    ref = a.astype(np.float64)
    b = np.random.default_rng(n).uniform(-1, 1, size=(n, 3)).astype(dtype)
    x_ref = np.linalg.solve(ref, b.astype(np.float64))
    x = to_np(L.solve(dev(a), dev(b)))
    np.testing.assert_allclose(x, x_ref, atol=tol(ref, dtype, np.abs(x_ref).max()), rtol=0)
    p = spd((n, n), n, dtype)
    c_ref = np.linalg.cholesky(p.astype(np.float64))
    lower = to_np(L.cholesky(dev(p)))
    upper = to_np(L.cholesky(dev(p), upper=True))
    atol = tol(p.astype(np.float64), dtype, np.abs(c_ref).max())
    np.testing.assert_allclose(lower, c_ref, atol=atol, rtol=0)
    np.testing.assert_allclose(upper, c_ref.T, atol=atol, rtol=0)
    assert not np.triu(lower, 1).any() and not np.tril(upper, -1).any()


@pytest.mark.parametrize("n", (1, 3, 15, 33))
def test_batches(n):
    a = well_conditioned((2, 3, n, n), n)
    np.testing.assert_allclose(to_np(L.det(dev(a))), np.linalg.det(a), rtol=tol(a, "float64"))
    np.testing.assert_allclose(to_np(L.inv(dev(a))), np.linalg.inv(a), atol=tol(a, "float64"), rtol=0)
    p = spd((2, 3, n, n), n)
    np.testing.assert_allclose(to_np(L.cholesky(dev(p))), np.linalg.cholesky(p), atol=tol(p, "float64", n), rtol=0)
    s = L.slogdet(dev(a))
    assert s.sign.shape == (2, 3) and s.logabsdet.shape == (2, 3)


def test_solve_broadcasting_rules_2024_12():
    a = well_conditioned((3, 4, 4), 1)
    v = np.arange(4.0)
    # x2 1-D: one vector for every matrix of the stack
    x = to_np(L.solve(dev(a), dev(v)))
    assert x.shape == (3, 4)
    np.testing.assert_allclose(x, np.linalg.solve(a, v[:, None])[..., 0], atol=1e-12)
    # x2 (..., n, k): batch dimensions broadcast both ways
    b = np.random.default_rng(0).uniform(size=(2, 1, 4, 5))
    x = to_np(L.solve(dev(a), dev(b)))
    assert x.shape == (2, 3, 4, 5)
    np.testing.assert_allclose(x, np.linalg.solve(a, b), atol=1e-12)
    x = to_np(L.solve(dev(a[0]), dev(b)))
    assert x.shape == (2, 1, 4, 5)
    np.testing.assert_allclose(x, np.linalg.solve(a[0], b), atol=1e-12)
    # (n, n) with an (n, k) x2 whose k == n is a matrix, not a stack of vectors
    sq = np.random.default_rng(1).uniform(size=(4, 4))
    np.testing.assert_allclose(to_np(L.solve(dev(a[1]), dev(sq))), np.linalg.solve(a[1], sq), atol=1e-12)
    # mixed dtypes promote
    x = L.solve(dev(a[0], "float32"), dev(v))
    assert x.dtype == nr.float64


def test_non_contiguous_inputs():
    big = well_conditioned((8, 8), 5)
    a = big[::2, ::2]  # sliced, not square-strided
    t = big.T  # transposed
    for ref, view in ((a, dev(big)[::2, ::2]), (t, dev(big).mT)):
        np.testing.assert_allclose(to_np(L.inv(view)), np.linalg.inv(ref), atol=1e-12)
        assert math.isclose(float(L.det(view)), np.linalg.det(ref), rel_tol=1e-12)
        b = np.arange(ref.shape[0] * 2.0).reshape(2, -1).T
        np.testing.assert_allclose(to_np(L.solve(view, dev(b.T).mT)), np.linalg.solve(ref, b), atol=1e-12)
    p = spd((6, 6), 2)
    np.testing.assert_allclose(to_np(L.cholesky(dev(p).mT)), np.linalg.cholesky(p), atol=1e-12)


def test_empty_matrices_and_batches():
    assert float(L.det(nr.zeros((0, 0), dtype=nr.float64))) == 1.0
    s = L.slogdet(nr.zeros((2, 0, 0), dtype=nr.float32))
    assert to_np(s.sign).tolist() == [1.0, 1.0] and to_np(s.logabsdet).tolist() == [0.0, 0.0]
    assert L.inv(nr.zeros((2, 0, 0))).shape == (2, 0, 0)
    assert L.det(nr.zeros((0, 3, 3))).shape == (0,)
    assert L.inv(nr.zeros((0, 3, 3))).shape == (0, 3, 3)
    assert L.cholesky(nr.zeros((0, 2, 2))).shape == (0, 2, 2)
    assert L.cholesky(nr.zeros((0, 0))).shape == (0, 0)
    assert L.solve(nr.zeros((0, 0)), nr.zeros((0,))).shape == (0,)
    # an empty broadcast batch solves nothing: the singular zeros are not an error (numpy's rule)
    assert L.solve(nr.zeros((2, 3, 3)), nr.zeros((0, 1, 3, 2))).shape == (0, 2, 3, 2)


def test_one_by_one():
    a = np.array([[-4.0]])
    assert float(L.det(dev(a))) == -4.0
    assert to_np(L.inv(dev(a))).tolist() == [[-0.25]]
    assert to_np(L.cholesky(dev(-a))).tolist() == [[2.0]]


def test_singular_matrices():
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]])
    np.testing.assert_array_equal(to_np(L.det(dev(a))), [0.0, 0.0, 1.0])
    s = L.slogdet(dev(a))
    np.testing.assert_array_equal(to_np(s.sign), [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(to_np(s.logabsdet), [-np.inf, -np.inf, 0.0])
    with pytest.raises(L.LinAlgError, match="npurt.linalg.inv: argument 'x': singular matrix"):
        L.inv(dev(a))
    with pytest.raises(L.LinAlgError, match="npurt.linalg.solve: argument 'x1': singular matrix"):
        L.solve(dev(a), dev(np.ones(2)))
    with pytest.raises(ValueError):  # LinAlgError is a ValueError like numpy's
        L.inv(dev(a[1]))
    with pytest.raises(L.LinAlgError, match="not positive definite"):
        L.cholesky(dev(np.array([[1.0, 2.0], [2.0, 1.0]])))
    with pytest.raises(L.LinAlgError, match="not positive definite"):
        L.cholesky(dev(np.zeros((3, 3))))
    # the runtime is usable afterwards
    np.testing.assert_allclose(to_np(L.inv(dev(a[2]))), np.eye(2))


@pytest.mark.parametrize("dtype", FACTOR_DTYPES)
def test_singular_large_matrices(dtype):
    # n = 240: float32 finishes its trailing block in UB, float64 works in GM; a repeated row
    # becomes an exact zero row whichever path eliminates it
    a = well_conditioned((240, 240), 9, dtype)
    a[-1] = a[0]
    assert float(L.det(dev(a))) == 0.0
    s = L.slogdet(dev(a))
    assert float(s.sign) == 0.0 and float(s.logabsdet) == -math.inf
    with pytest.raises(L.LinAlgError, match="singular matrix"):
        L.inv(dev(a))


def test_ill_conditioned_float64_residual():
    n = 8
    h = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1.0)  # Hilbert: cond ~ 1.5e10
    b = np.ones(n)
    x = to_np(L.solve(dev(h), dev(b)))
    assert np.abs(h @ x - b).max() <= 20 * n * 2.2e-16 * np.abs(h).sum(1).max() * np.abs(x).max()
    assert math.isclose(float(L.det(dev(h))), np.linalg.det(h), rel_tol=1e-5)


def test_nan_and_inf_inputs_do_not_crash():
    a = np.array([[np.nan, 1.0], [1.0, 2.0]])
    assert math.isnan(float(L.det(dev(a))))
    assert np.isnan(to_np(L.inv(dev(a)))).any()
    with pytest.raises(L.LinAlgError):
        L.cholesky(dev(a))
    b = np.array([[np.inf, 1.0], [1.0, 2.0]])
    L.det(dev(b))
    L.slogdet(dev(b))
    assert float(L.det(dev(np.eye(3)))) == 1.0


@pytest.mark.parametrize("n", (0, 1, 2, 3, 5, 8, -1, -2, -5))
def test_matrix_power(n):
    a = well_conditioned((2, 4, 4), 3) / 4.0
    got = to_np(L.matrix_power(dev(a), n))
    ref = np.linalg.matrix_power(a, n)
    np.testing.assert_allclose(got, ref, rtol=1e-11, atol=1e-12 * np.abs(ref).max())


def test_matrix_power_float32_and_result_is_new():
    a = dev(np.array([[1.0, 1.0], [0.0, 1.0]]), "float32")
    p = L.matrix_power(a, 1)
    assert p.dtype == nr.float32 and to_np(p).tolist() == [[1.0, 1.0], [0.0, 1.0]]
    assert not nr._npurt._shares_storage(p, a)
    assert to_np(L.matrix_power(a, 10)).tolist() == [[1.0, 10.0], [0.0, 1.0]]
    assert to_np(L.matrix_power(a, -3)).tolist() == [[1.0, -3.0], [0.0, 1.0]]
    assert to_np(L.matrix_power(nr.zeros((0, 0)), 3)).shape == (0, 0)
