"""nr.ops.matmul (cube unit) against a float64 numpy reference.

Bound per element: fp32 accumulation of k products gives |err| <= k * 2^-24 * (|a| @ |b|)
(the reference uses the inputs already rounded to the dtype), plus the final
rounding to the output dtype: 2^-24 (float32), 2^-11 (float16), 2^-8 (bfloat16)
relative to |ref|.
"""
import ml_dtypes
import numpy as np
import pytest

import npurt as nr

BF16 = np.dtype(ml_dtypes.bfloat16)
OUT_EPS = {np.dtype(np.float32): 2.0**-24, np.dtype(np.float16): 2.0**-11, BF16: 2.0**-8}
DTYPES = [np.dtype(np.float32), np.dtype(np.float16), BF16]


def check(y, a, b, trans_b=False):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if trans_b:
        b64 = np.swapaxes(b64, -1, -2)
    ref = a64 @ b64
    mag = np.abs(a64) @ np.abs(b64)
    k = a.shape[-1]
    tol = 1.01 * k * 2.0**-24 * mag + OUT_EPS[y.dtype] * np.abs(ref) + 1e-30
    err = np.abs(y.astype(np.float64) - ref)
    assert y.shape == ref.shape
    bad = ~(err <= tol)
    assert not bad.any(), f"{bad.sum()} elements off, worst {err[bad].max()} (tol {tol[bad].min()})"


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("trans_b", [False, True])
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (1, 63, 1), (15, 64, 65), (33, 65, 17),
                                   (129, 300, 257), (64, 1024, 48)])
def test_matmul_2d(dtype, trans_b, m, k, n):
    rng = np.random.default_rng(m * 1000 + k + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if trans_b else (k, n)).astype(dtype)
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b), trans_b=trans_b).numpy()
    assert y.dtype == dtype
    check(y, a, b, trans_b)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matmul_batched_and_broadcast_b(dtype):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((2, 3, 40, 70)).astype(dtype)
    b = rng.standard_normal((2, 3, 70, 20)).astype(dtype)
    check(nr.ops.matmul(nr.asarray(a), nr.asarray(b)).numpy(), a, b)
    b2 = rng.standard_normal((70, 20)).astype(dtype)
    check(nr.ops.matmul(nr.asarray(a), nr.asarray(b2)).numpy(), a, b2)
    bt = rng.standard_normal((2, 3, 20, 70)).astype(dtype)
    check(nr.ops.matmul(nr.asarray(a), nr.asarray(bt), trans_b=True).numpy(), a, bt, True)


def test_matmul_nan_inf_propagate():
    a = np.ones((3, 5), np.float32)
    b = np.ones((5, 4), np.float32)
    a[0, 2] = np.nan
    a[1, 1] = np.inf
    y = nr.ops.matmul(nr.asarray(a), nr.asarray(b)).numpy()
    assert np.isnan(y[0]).all() and np.isposinf(y[1]).all()
    np.testing.assert_array_equal(y[2], np.full(4, 5.0, np.float32))


def test_matmul_empty_output():
    y = nr.ops.matmul(nr.asarray(np.ones((0, 4), np.float32)), nr.asarray(np.ones((4, 3), np.float32)))
    assert y.shape == (0, 3)


def test_matmul_errors():
    f = nr.asarray(np.ones((4, 5), np.float32))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'b'.*contracted dimension 4"):
        nr.ops.matmul(f, nr.asarray(np.ones((4, 3), np.float32)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'b'.*dtype"):
        nr.ops.matmul(f, nr.asarray(np.ones((5, 3), np.float16)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul.*'b'.*batch dims"):
        nr.ops.matmul(nr.asarray(np.ones((2, 4, 5), np.float32)), nr.asarray(np.ones((3, 5, 2), np.float32)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul"):
        nr.ops.matmul(nr.asarray(np.ones((4, 5), np.int32)), nr.asarray(np.ones((5, 2), np.int32)))
    with pytest.raises(nr.InvalidArgumentError, match="matmul"):
        nr.ops.matmul(nr.asarray(np.ones(5, np.float32)), nr.asarray(np.ones((5, 2), np.float32)))


def test_matmul_describe_shows_plan():
    text = nr.ops.describe("matmul", (1024, 1024), (1024, 1024))
    assert "tile=128x128" in text and "kStep=" in text and "blocks=" in text
