"""argmax / argmin against numpy: dtypes, axes (None, int, negative), keepdims,
first occurrence, NaN (first NaN wins), views, large rows, errors. Indices are
exact."""
import numpy as np
import pytest

import npurt as nr

from search_cases import SORT_DTYPES, data


def ref(fn, host, axis, keepdims):
    f = host.astype(np.float64) if host.dtype.name == "bfloat16" else host
    return getattr(np, fn)(f, axis=axis, keepdims=keepdims)


def check(fn, host, axis=None, keepdims=False, x=None):
    x = nr.asarray(host) if x is None else x
    got = getattr(nr, fn)(x, axis=axis, keepdims=keepdims)
    want = ref(fn, host, axis, keepdims)
    assert isinstance(got, nr.ndarray) and got.dtype == nr.int64
    assert got.shape == np.shape(want)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("dtype", SORT_DTYPES)
@pytest.mark.parametrize("fn", ["argmax", "argmin"])
def test_every_dtype(dtype, fn):
    host = data(dtype, (33, 15), seed=2)
    for axis in (None, 0, 1, -1):
        check(fn, host, axis=axis)


@pytest.mark.parametrize("shape", [(), (1,), (15,), (1023,), (4, 5, 6), (3, 1, 7)])
@pytest.mark.parametrize("fn", ["argmax", "argmin"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_shapes_axes_keepdims(shape, fn, keepdims):
    host = data("float32", shape, seed=4)
    axes = [None] + list(range(-len(shape), len(shape)))
    for axis in axes:
        check(fn, host, axis=axis, keepdims=keepdims)


def test_first_occurrence_and_nan():
    host = np.array([1.0, 5.0, 5.0, np.nan, 2.0, np.nan, -7.0, -7.0], np.float32)
    check("argmax", host)
    check("argmin", host)
    host = np.array([[3, 9, 9, 1, 1], [9, 3, 1, 9, 1]], np.int32)
    check("argmax", host, axis=1)
    check("argmin", host, axis=0)


def test_large_rows_and_columns():
    host = data("float32", (3, 100_000), seed=5, specials=False)
    check("argmax", host, axis=1)
    check("argmin", host, axis=None)
    check("argmax", data("int16", (50, 20_001), seed=6), axis=0)


def test_views():
    host = data("float64", (20, 30), seed=7)
    x = nr.asarray(host)
    check("argmax", host[::-3, 2::2], axis=0, x=x[::-3, 2::2])
    check("argmin", host.T, axis=1, x=x.T)


def test_errors_name_the_function_and_runtime_stays_usable():
    with pytest.raises(ValueError, match="npurt.argmax: argument 'x': .*empty"):
        nr.argmax(nr.asarray(np.zeros((0,), np.float32)))
    with pytest.raises(ValueError, match="npurt.argmin: argument 'x': .*empty"):
        nr.argmin(nr.asarray(np.zeros((3, 0), np.float32)), axis=1)
    with pytest.raises(IndexError, match="npurt.argmax: argument 'axis'"):
        nr.argmax(nr.asarray(np.zeros((3, 2), np.float32)), axis=2)
    with pytest.raises(TypeError, match="npurt.argmin: argument 'x': complex64"):
        nr.argmin(nr.asarray(np.ones(3, np.complex64)))
    with pytest.raises(ValueError, match="argmax: argument 'axis'"):
        nr.ops.argmax(nr.asarray(np.ones((2, 2), np.float32)), axis=[0, 1])
    check("argmax", data("int8", (9,)))


def test_empty_outer_gives_empty_result():
    check("argmax", np.zeros((0, 4), np.float32), axis=1)


def test_full_sim_check_is_clean():
    host = data("float16", (5, 70, 3), seed=8)
    with nr.debug.sim_check_level("full"):
        for axis in (None, 1, 2):
            check("argmax", host, axis=axis)
            check("argmin", host, axis=axis)


def test_numpy_dispatch():
    host = data("int32", (6, 7), seed=9)
    x = nr.asarray(host)
    np.testing.assert_array_equal(np.argmax(x, axis=1).numpy(), np.argmax(host, axis=1))
    assert int(np.argmin(x).numpy()) == np.argmin(host)
