"""searchsorted and isin against numpy: sides, sorter, dtypes (with promotion),
NaN, shapes of x2 (0-d, empty, 2-D, views), large inputs; errors."""
import numpy as np
import pytest

import npurt as nr

from search_cases import SORT_DTYPES, data


def as64(a):
    return a.astype(np.float64) if a.dtype.name == "bfloat16" else a


@pytest.mark.parametrize("dtype", SORT_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_every_dtype(dtype, side):
    host = data(dtype, (101,), seed=1)
    x1 = np.sort(as64(host)).astype(host.dtype)  # ml_dtypes' own bfloat16 sort misplaces NaN
    x2 = data(dtype, (7, 9), seed=2)
    got = nr.searchsorted(nr.asarray(x1), nr.asarray(x2), side=side)
    assert got.dtype == nr.int64 and got.shape == x2.shape
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(as64(x1), as64(x2), side=side))


@pytest.mark.parametrize("n1,shape2", [(0, (5,)), (1, (3,)), (15, ()), (33, (0,)), (1023, (4, 33)),
                                       (100_000, (20_000,))])
@pytest.mark.parametrize("side", ["left", "right"])
def test_shapes(n1, shape2, side):
    x1 = np.sort(data("float32", (n1,), seed=n1))
    x2 = data("float32", shape2, seed=3)
    got = nr.searchsorted(nr.asarray(x1), nr.asarray(x2), side=side).numpy()
    np.testing.assert_array_equal(got, np.searchsorted(x1, x2, side=side))


def test_sorter_and_views():
    x1 = data("int32", (300,), seed=4, spread=50)
    sorter = np.argsort(x1, kind="stable")
    x2 = data("int32", (40, 20), seed=5, spread=60)
    for side in ("left", "right"):
        got = nr.searchsorted(nr.asarray(x1), nr.asarray(x2)[::3, ::-2], side=side,
                              sorter=nr.asarray(sorter.astype(np.int32)))
        np.testing.assert_array_equal(got.numpy(), np.searchsorted(x1, x2[::3, ::-2], side=side, sorter=sorter))


def test_nan_positions_and_promotion():
    x1 = np.array([-1.0, 0.0, 0.0, 2.5, np.inf, np.nan, np.nan], np.float32)
    x2 = np.array([np.nan, -0.0, 3.0, np.inf, -np.inf], np.float32)
    for side in ("left", "right"):
        np.testing.assert_array_equal(nr.searchsorted(nr.asarray(x1), nr.asarray(x2), side=side).numpy(),
                                      np.searchsorted(x1, x2, side=side))
    x1i = np.array([1, 3, 5, 7], np.int16)
    got = nr.searchsorted(nr.asarray(x1i), nr.asarray(np.array([2, 7, 9], np.int32)), side="right")
    np.testing.assert_array_equal(got.numpy(), [1, 4, 4])
    assert int(nr.searchsorted(nr.asarray(x1i), 5).numpy()) == 2  # Python scalar x2


def test_errors():
    x1 = nr.asarray(np.arange(4, dtype=np.float32))
    with pytest.raises(ValueError, match="npurt.searchsorted: argument 'side'"):
        nr.searchsorted(x1, x1, side="middle")
    with pytest.raises(ValueError, match="npurt.searchsorted: argument 'x1': must be 1-D"):
        nr.searchsorted(nr.asarray(np.zeros((2, 2), np.float32)), x1)
    with pytest.raises(ValueError, match="npurt.searchsorted: argument 'sorter'"):
        nr.searchsorted(x1, x1, sorter=nr.asarray(np.arange(3)))
    with pytest.raises(TypeError, match="npurt.searchsorted: argument 'x2': complex64"):
        nr.searchsorted(x1, nr.asarray(np.ones(2, np.complex64)))
    with pytest.raises(nr.UnsupportedDtypeError, match="searchsorted: argument 'x2': dtype int32 differs"):
        nr.ops.searchsorted(x1, nr.asarray(np.ones(2, np.int32)))
    np.testing.assert_array_equal(nr.searchsorted(x1, x1).numpy(), [0, 1, 2, 3])


def test_full_sim_check_is_clean():
    x1 = np.sort(data("float64", (500,), seed=6))
    x2 = data("float64", (300,), seed=7)
    with nr.debug.sim_check_level("full"):
        got = nr.searchsorted(nr.asarray(x1), nr.asarray(x2), side="right").numpy()
        got_in = nr.isin(nr.asarray(x2), nr.asarray(x1)).numpy()
    np.testing.assert_array_equal(got, np.searchsorted(x1, x2, side="right"))
    np.testing.assert_array_equal(got_in, np.isin(x2, x1))


@pytest.mark.parametrize("dtype", ["int8", "uint64", "float16", "float32", "bool"])
@pytest.mark.parametrize("invert", [False, True])
def test_isin(dtype, invert):
    x1 = data(dtype, (13, 17), seed=8)
    x2 = data(dtype, (5, 41), seed=9)
    got = nr.isin(nr.asarray(x1), nr.asarray(x2), invert=invert)
    assert got.dtype == nr.bool and got.shape == x1.shape
    np.testing.assert_array_equal(got.numpy(), np.isin(as64(x1), as64(x2), invert=invert))


def test_isin_edges():
    empty = nr.asarray(np.zeros(0, np.float32))
    np.testing.assert_array_equal(nr.isin(nr.asarray(np.array([1.0, np.nan], np.float32)), empty).numpy(),
                                  [False, False])
    nan = np.array([np.nan, 1.0], np.float32)
    np.testing.assert_array_equal(nr.isin(nr.asarray(nan), nr.asarray(nan)).numpy(), [False, True])
    assert bool(nr.isin(nr.asarray(np.float32(2.0)), nr.asarray(np.arange(4, dtype=np.float32))).numpy())
    np.testing.assert_array_equal(np.isin(nr.asarray(nan), nr.asarray(nan)).numpy(), [False, True])


def test_numpy_dispatch():
    x1 = np.sort(data("int64", (50,), seed=10))
    x2 = data("int64", (20,), seed=11)
    got = np.searchsorted(nr.asarray(x1), nr.asarray(x2), side="right")
    assert isinstance(got, nr.ndarray)
    np.testing.assert_array_equal(got.numpy(), np.searchsorted(x1, x2, side="right"))


def test_bad_sorter_never_reads_outside_x1():
    x1 = nr.asarray(np.array([1.0, 2.0, 3.0], np.float32))
    bad = nr.asarray(np.array([5, -7, 1], np.int64))  # not a permutation: clamped into x1
    with nr.debug.sim_check_level("full"):
        got = nr.searchsorted(x1, nr.asarray(np.array([0.0, 9.0], np.float32)), sorter=bad).numpy()
    assert got.shape == (2,) and ((got >= 0) & (got <= 3)).all()
    np.testing.assert_array_equal(nr.searchsorted(x1, x1).numpy(), [0, 1, 2])
