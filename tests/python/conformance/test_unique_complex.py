"""unique_all / unique_counts / unique_inverse / unique_values of complex64 and
complex128, against numpy's np.unique(..., equal_nan=False) (array-api-strict's
reference): values in numpy's complex order (by real, then imag; then R+nanj
by real, nan+Rj by imag, nan+nanj last), every value holding a NaN distinct
(the standard), -0.0 and 0.0 one value; indices of first occurrences, counts
and inverse exact.
"""
import numpy as np
import pytest

import npurt as nr

nan, inf = float("nan"), float("inf")


def reference(x):
    return np.unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)


def check_all(x):
    v, i, inv, c = reference(x)
    out = nr.unique_all(nr.asarray(x))
    got_v = np.asarray(out.values)
    assert got_v.dtype == x.dtype and got_v.shape == v.shape
    np.testing.assert_array_equal(got_v, v)  # NaN positions compared as equal
    np.testing.assert_array_equal(np.asarray(out.indices), i)
    np.testing.assert_array_equal(np.asarray(out.inverse_indices), inv.reshape(x.shape))
    np.testing.assert_array_equal(np.asarray(out.counts), c)
    assert np.asarray(out.indices).dtype == np.int64 and np.asarray(out.counts).dtype == np.int64


SPECIAL = [complex(1, 2), complex(1, 2), complex(1, -1), complex(-0.0, 0.0), complex(0.0, -0.0), complex(nan, 1),
           complex(nan, 1), complex(1, nan), complex(-3, nan), complex(nan, nan), complex(inf, 0),
           complex(-inf, 5), complex(2, inf), complex(1, 2), complex(nan, -4), complex(0, 0)]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(16,), (4, 4), (2, 2, 4)])
def test_special_values(dtype, shape):
    check_all(np.array(SPECIAL, dtype=dtype).reshape(shape))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("n", [0, 1, 15, 33, 1023, 5000])
def test_sizes_with_duplicates(dtype, n):
    rng = np.random.default_rng(n)
    re = rng.integers(-3, 4, size=n).astype(np.float64)
    im = rng.integers(-2, 3, size=n).astype(np.float64)
    check_all((re + 1j * im).astype(dtype))


def test_zero_d_non_contiguous_and_the_other_functions():
    x = np.array(complex(2, -1), np.complex64)
    check_all(x)
    base = (np.arange(24) % 5 + 1j * (np.arange(24) % 3)).astype(np.complex128).reshape(4, 6)
    X = nr.asarray(base)[:, ::2]
    v, c = nr.unique_counts(X)
    ev, _, _, ec = reference(base[:, ::2])
    np.testing.assert_array_equal(np.asarray(v), ev)
    np.testing.assert_array_equal(np.asarray(c), ec)
    v, inv = nr.unique_inverse(X)
    np.testing.assert_array_equal(np.asarray(v)[np.asarray(inv)], base[:, ::2])
    np.testing.assert_array_equal(np.asarray(nr.unique_values(X)), ev)
