"""Long reductions split over the cores (reductions.py _split_plan: a first
launch of outer * k partial results, a second folding the k partials) against
numpy references computed in float64.

Error bound: the kernel accumulates float32 lanes (each lane a serial sum of
at most len / (k * tile) values), folds the lanes as a tree, and the second
launch adds k partials, so |error| <= c * eps32 * sum(|x|) with c well below
len / tile + log2(tile) + k (~ 200 for 16 Mi elements); the tests assert
|error| <= 64 * eps32 * sum(|x|), about 1e-5 relative to sum(|x|) (a serial
float32 sum of 16 Mi values can be off by ~1e-3 of it). float16 inputs
accumulate in float32 and round once: within one float16 ulp (rtol 2 ** -10)
of the float64 result. max/min/any/all and int32 sums are exact.
"""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import reductions as R

EPS32 = np.finfo(np.float32).eps


def data(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def check_sum(got, x, axis=None):
    ref = np.sum(x.astype(np.float64), axis=axis)
    bound = 64 * EPS32 * np.sum(np.abs(x.astype(np.float64)), axis=axis) + 1e-30
    assert np.all(np.abs(np.asarray(got, np.float64) - ref) <= bound)


@pytest.mark.parametrize("shape,axis,split", [
    ((1 << 22,), None, True),               # a whole array: one row
    ((4, 1 << 20), -1, True),               # few outputs over a long inner axis
    ((1 << 20, 3), 0, True),                # few outputs over a long outer axis (kOuter)
    ((2, 1 << 19, 2), 1, True),             # outer, len and inner
    (((1 << 20) + 1,), None, False),        # odd length: one launch
    ((256, 1024), -1, False),               # many outputs: one launch already spreads
])
def test_split_plan_and_float32_sum(shape, axis, split):
    x = data(shape, np.float32, 1)
    xa = nr.asarray(x)
    kaxes = R._plan_axes(xa, axis, "test")[1]
    assert (R._split_plan(xa, kaxes) is not None) == split
    check_sum(nr.sum(xa, axis=axis), x, axis)


def test_large_float32_sum_error_bound_against_float64():
    x = data((1 << 24,), np.float32, 2) + np.float32(3.0)  # a large mean: serial sums would drift
    got = float(nr.sum(nr.asarray(x)))
    ref = float(np.sum(x.astype(np.float64)))
    assert abs(got - ref) <= 64 * EPS32 * float(np.sum(np.abs(x.astype(np.float64))))
    assert abs(got - ref) <= 1e-5 * abs(ref)


@pytest.mark.parametrize("shape,axis", [((1 << 22,), None), ((8, 1 << 18), 1), ((1 << 19, 5), 0)])
def test_float16_split_keeps_float32_partials(shape, axis):
    x = (data(shape, np.float32, 3) * 0.25).astype(np.float16)
    xa = nr.asarray(x)
    ref = np.sum(x.astype(np.float64), axis=axis)
    got = nr.sum(xa, axis=axis)
    assert got.dtype == nr.float16
    # one float16 rounding of the float32-accumulated value (plus its tiny float32 error)
    np.testing.assert_allclose(np.asarray(got, np.float64), ref, rtol=2.0 ** -10,
                               atol=1e-3 * np.max(np.sum(np.abs(x.astype(np.float64)), axis=axis)) * 2.0 ** -10)
    wide = nr.sum(xa, axis=axis, dtype=nr.float32)
    assert wide.dtype == nr.float32
    check_sum(wide, x.astype(np.float32), axis)
    np.testing.assert_allclose(np.asarray(nr.mean(xa, axis=axis), np.float64), np.mean(x.astype(np.float64), axis=axis),
                               rtol=2.0 ** -10, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_max_min_mean_var_std_split(dtype):
    x = data((4, 1 << 20), dtype, 4)
    x[1, 12345] = 50.0
    x[2, (1 << 20) - 1] = -50.0
    xa = nr.asarray(x)
    for fn, ref in ((nr.max, np.max), (nr.min, np.min)):
        for axis in (None, -1):
            np.testing.assert_array_equal(np.asarray(fn(xa, axis=axis)), ref(x, axis=axis))
    x64 = x.astype(np.float64)
    tol = 1e-5 if dtype == np.float32 else 2.0 ** -10
    np.testing.assert_allclose(np.asarray(nr.mean(xa, axis=-1), np.float64), x64.mean(axis=-1), rtol=tol, atol=tol)
    if dtype == np.float32:
        np.testing.assert_allclose(float(nr.var(xa)), x64.var(), rtol=1e-4)
        np.testing.assert_allclose(np.asarray(nr.std(xa, axis=-1, correction=1)), x64.std(axis=-1, ddof=1), rtol=1e-4)


def test_nan_int_bool_and_prod_split():
    x = data((1 << 21,), np.float32, 5)
    x[(1 << 21) - 7] = np.nan
    xa = nr.asarray(x)
    assert np.isnan(float(nr.sum(xa))) and np.isnan(float(nr.max(xa))) and np.isnan(float(nr.min(xa)))
    i = np.random.default_rng(6).integers(-1000, 1000, (1 << 21,), dtype=np.int32)
    assert int(nr.sum(nr.asarray(i))) == int(i.astype(np.int64).sum())
    assert int(nr.max(nr.asarray(i))) == int(i.max())
    b = np.zeros((2, 1 << 20), bool)
    b[1, 777777] = True
    ba = nr.asarray(b)
    np.testing.assert_array_equal(np.asarray(nr.any(ba, axis=-1)), b.any(axis=-1))
    np.testing.assert_array_equal(np.asarray(nr.all(nr.logical_not(ba), axis=-1)), (~b).all(axis=-1))
    p = (1.0 + data((1 << 20,), np.float32, 7) * 1e-3).astype(np.float32)
    np.testing.assert_allclose(float(nr.prod(nr.asarray(p))), np.prod(p.astype(np.float64)), rtol=1e-3)


def test_keepdims_and_non_contiguous_views_of_long_reductions():
    x = data((2, 1 << 19), np.float32, 8)
    xa = nr.asarray(x)
    y = nr.sum(xa, axis=-1, keepdims=True)
    assert tuple(y.shape) == (2, 1)
    check_sum(np.asarray(y)[:, 0], x, -1)
    t = nr.permute_dims(xa, (1, 0))  # a view: one launch on the dispatcher's contiguous copy
    check_sum(nr.sum(t, axis=0), x.T, 0)
    s = xa[:, ::2]
    check_sum(nr.sum(s), x[:, ::2])
