"""Comparisons and where on the vector path (ew_kernel.h CmpTile / WhereTile:
Compare -> bit mask, Select, Cast; float16/float32) against numpy, exactly:
a comparison is one IEEE predicate (NaN compares false, != true, -0 == +0)
and where moves bit patterns. Sizes cover the vector prefix (multiples of
64 / 128 elements) plus the scalar tail (1, 15, 33, 1023 ...), 0-d, empty,
non-contiguous and broadcast operands, array-scalar in both orders.
"""
import numpy as np
import pytest

import npurt as nr

CMPS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
DTYPES = [np.float32, np.float16]
SHAPES = [(), (0,), (1,), (15,), (33,), (64,), (128,), (1023,), (3, 5, 7), (70000,)]


def specials(dtype):
    f = np.finfo(dtype)
    big = 2.0 ** (23 if dtype == np.float32 else 10)
    return np.array([0.0, -0.0, np.inf, -np.inf, np.nan, f.tiny, -f.tiny, f.smallest_subnormal,
                     -f.smallest_subnormal, f.max, -f.max, 1.0, -1.0, big, big + 1, -big], dtype=dtype)


def rand(shape, dtype, seed):
    g = np.random.default_rng(seed)
    a = (g.integers(-4, 5, shape) * 0.5).astype(dtype)  # many ties between the two operands
    if a.size:
        s = specials(dtype)
        flat = a.reshape(-1)
        idx = g.integers(0, flat.size, min(flat.size, 3 * s.size))
        flat[idx] = s[g.integers(0, s.size, idx.size)]
    return a


def check_bool(got, want):
    got = np.asarray(got)
    assert got.dtype == np.bool_ and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", CMPS)
def test_compare_arrays(op, shape, dtype):
    x, y = rand(shape, dtype, 1), rand(shape, dtype, 2)
    check_bool(getattr(nr, op)(nr.asarray(x), nr.asarray(y)), getattr(np, op)(x, y))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", CMPS)
def test_compare_scalar_both_orders(op, dtype):
    x = rand((1023,), dtype, 3)
    for s in [0.0, -0.0, 1.5, np.inf, -np.inf, np.nan]:
        sv = np.array(s, dtype)
        check_bool(getattr(nr, op)(nr.asarray(x), nr.asarray(sv)), getattr(np, op)(x, sv))
        check_bool(getattr(nr, op)(nr.asarray(sv), nr.asarray(x)), getattr(np, op)(sv, x))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", CMPS)
def test_compare_strided_and_broadcast(op, dtype):
    x = rand((40, 66), dtype, 4)
    y = rand((66,), dtype, 5)
    xt, xs = x.T, x[:, ::3]
    check_bool(getattr(nr, op)(nr.asarray(x).T, nr.asarray(x.T.copy())), getattr(np, op)(xt, xt.copy()))
    check_bool(getattr(nr, op)(nr.asarray(x)[:, ::3], nr.asarray(y)[::3]), getattr(np, op)(xs, y[::3]))
    check_bool(getattr(nr, op)(nr.asarray(x), nr.asarray(y)), getattr(np, op)(x, y))
    col = rand((40, 1), dtype, 6)
    check_bool(getattr(nr, op)(nr.asarray(col), nr.asarray(y)), getattr(np, op)(col, y))


def test_compare_operators_and_large():
    x = rand((1 << 20,), np.float32, 7)
    a = nr.asarray(x)
    check_bool(a == -np.inf, x == -np.inf)
    check_bool(a != a, x != x)
    check_bool(a < 0.5, x < 0.5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_where_vector(shape, dtype):
    x, y = rand(shape, dtype, 8), rand(shape, dtype, 9)
    c = rand(shape, dtype, 10) > 0
    got = np.asarray(nr.where(nr.asarray(c), nr.asarray(x), nr.asarray(y)))
    want = np.where(c, x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint16 if dtype == np.float16 else np.uint32),
                                  want.view(np.uint16 if dtype == np.float16 else np.uint32))


@pytest.mark.parametrize("dtype", DTYPES)
def test_where_broadcast_and_strided(dtype):
    x = rand((33, 70), dtype, 11)
    y = rand((70,), dtype, 12)
    c = rand((33, 1), dtype, 13) > 0
    u = np.uint16 if dtype == np.float16 else np.uint32
    got = np.asarray(nr.where(nr.asarray(c), nr.asarray(x), nr.asarray(y)))
    np.testing.assert_array_equal(got.view(u), np.where(c, x, y).view(u))
    ct = rand((70, 33), dtype, 14) > 0
    got = np.asarray(nr.where(nr.asarray(ct).T, nr.asarray(x)[:, ::-1], nr.asarray(np.array(-0.0, dtype))))
    np.testing.assert_array_equal(got.view(u), np.where(ct.T, x[:, ::-1], np.array(-0.0, dtype)).view(u))
