"""var/std accuracy: the corrected two-pass algorithm against an exact reference.

The reference is exact: the variance of the (exactly representable) input values computed with
Python fractions, rounded once to float64. Tolerances (relative to that exact variance):
float64 rtol 1e-12, float32 rtol 1e-5 (both far above the algorithm's error on these data, far
below the plain two-pass error, which is delta**2 / var for a mean rounded by delta: up to 1e-2
here). Constant input gives exactly 0, whatever its magnitude.
"""
from fractions import Fraction

import numpy as np
import pytest

import npurt as nr


def exact_var(values, correction=0):
    fs = [Fraction(float(v)) for v in values]
    m = sum(fs) / len(fs)
    return float(sum((f - m) ** 2 for f in fs) / (len(fs) - correction))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("value", [5.6289299072825416e16, -2.0326185e16, 1e30, -3.3, 1.0e7, 0.1])
@pytest.mark.parametrize("shape", [(1,), (15,), (33,), (1023,), (2, 4, 5), (3, 33)])
def test_constant_input_has_zero_spread(dtype, value, shape):
    if dtype == np.float32 and value == 1e30:
        value = 1e15  # a float32 mean one ulp off 1e30 has a deviation whose square overflows float32
    x = nr.asarray(np.full(shape, value, dtype=dtype))
    for axis in (None, -1):
        for correction in (0, 1):
            if (x.size if axis is None else x.shape[-1]) <= correction:
                continue  # N - correction <= 0: NaN, checked below
            got = np.asarray(nr.var(x, axis=axis, correction=correction))
            assert (got == 0).all(), (axis, correction, got)
            assert (np.asarray(nr.std(x, axis=axis, correction=correction)) == 0).all()


@pytest.mark.parametrize("dtype,offset,rtol", [(np.float32, 1e4, 1e-5), (np.float32, 1e6, 1e-5),
                                               (np.float64, 1e12, 1e-12), (np.float64, 1e15, 1e-12)])
@pytest.mark.parametrize("n", [15, 33, 1023])
def test_offset_data_matches_exact_variance(dtype, offset, rtol, n):
    """Small spread on a large offset: the mean's rounding error is large relative to the spread."""
    y = (offset + np.random.default_rng(n).standard_normal(n)).astype(dtype)
    got = float(nr.var(nr.asarray(y)))
    assert abs(got - exact_var(y)) <= rtol * exact_var(y), (got, exact_var(y))
    got1 = float(nr.var(nr.asarray(y), correction=1))
    assert abs(got1 - exact_var(y, 1)) <= rtol * exact_var(y, 1)


def test_axis_non_contiguous_and_special_values():
    rng = np.random.default_rng(3)
    host = (1e6 + rng.standard_normal((33, 15))).astype(np.float64)
    x = nr.asarray(host)[::2, 1::2]  # strided view
    sub = host[::2, 1::2]
    for axis in (0, 1):
        got = np.asarray(nr.var(x, axis=axis))
        ref = [exact_var(col) for col in np.moveaxis(sub, axis, -1).reshape(-1, sub.shape[axis])]
        np.testing.assert_allclose(got.ravel(), ref, rtol=1e-12)
    special = nr.asarray(np.array([[1.0, np.nan, 2.0], [1.0, np.inf, 2.0], [1e200, -1e200, 3.0]]))
    got = np.asarray(nr.var(special, axis=1))
    assert np.isnan(got[0]) and np.isnan(got[1]) and got[2] == np.inf  # overflow stays inf, not inf - inf
    assert np.isnan(float(nr.var(nr.asarray(np.zeros(0)))))
    assert float(nr.var(nr.asarray(np.float64(3.0)))) == 0.0
