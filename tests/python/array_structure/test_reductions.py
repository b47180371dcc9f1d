"""The reduction kernel family against numpy.

Tolerances: float32 sums/means rtol 1e-5 (the kernel sums in a different
order than numpy's pairwise sum), atol 1e-5 * (number of reduced elements)
for cancellation; float16 inputs accumulate in float32 and round once, so the
float16 result is within one float16 ulp of the float32-accumulated reference
(rtol 1e-3); prod rtol 1e-4; max/min/any/all and int32 sums are exact.
"""
import numpy as np
import pytest

import npurt as nr
from npurt.array_api import manipulation as M
from npurt.array_api import reductions as R

SHAPES = [(), (0,), (1,), (15,), (33,), (1023,), (3, 5), (4, 0), (2, 3, 4), (7, 33, 3), (1, 1023, 1)]
AXES = [None, 0, -1, (0, 2), (0, -1), (1,), (1, 2), ()]


def axes_for(shape):
    out = []
    for a in AXES:
        if a is None:
            out.append(a)
        elif a == ():
            out.append(a)
        else:
            t = a if isinstance(a, tuple) else (a,)
            if all(-len(shape) <= i < len(shape) for i in t) and len({i % max(len(shape), 1) for i in t}) == len(t):
                out.append(a)
    return out


CASES = [(s, a) for s in SHAPES for a in axes_for(s)]


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.int32:
        return rng.integers(-1000, 1000, size=shape).astype(np.int32)
    return rng.standard_normal(shape).astype(dtype)


def check(got, expected, rtol, atol=0.0):
    assert isinstance(got, nr.ndarray)
    assert got.shape == np.shape(expected), (got.shape, np.shape(expected))
    np.testing.assert_allclose(got.numpy().astype(np.float64), np.asarray(expected, np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("shape,axis", CASES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_mean_float32(shape, axis, keepdims):
    host = data(shape, np.float32)
    x = nr.asarray(host)
    n = max(1, host.size)
    check(R.sum(x, axis=axis, keepdims=keepdims), host.astype(np.float64).sum(axis=axis, keepdims=keepdims),
          1e-5, 1e-5 * n)
    if host.size or axis == ():
        with np.errstate(all="ignore"):
            expected = host.astype(np.float64).mean(axis=axis, keepdims=keepdims)
        check(R.mean(x, axis=axis, keepdims=keepdims), expected, 1e-5, 1e-6)


@pytest.mark.parametrize("shape,axis", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_max_min(shape, axis, dtype):
    host = data(shape, dtype)
    x = nr.asarray(host)
    reduced = host.size if axis is None else int(np.prod([host.shape[a] for a in np.atleast_1d(axis)] or [1]))
    if reduced == 0 and host.size == 0 and axis != ():
        with pytest.raises(ValueError, match="zero-size reduction has no identity"):
            R.max(x, axis=axis)
        return
    for f, g in ((R.max, np.max), (R.min, np.min)):
        got = f(x, axis=axis)
        assert got.dtype == x.dtype
        check(got, g(host, axis=axis), 0)


@pytest.mark.parametrize("shape,axis", [((33,), None), ((7, 33, 3), 1), ((7, 33, 3), (0, 2)), ((1023,), 0)])
def test_float16_accumulates_in_float32(shape, axis):
    host = data(shape, np.float16)
    x = nr.asarray(host)
    ref = host.astype(np.float32).sum(axis=axis)
    got = R.sum(x, axis=axis)
    assert got.dtype == nr.float16
    check(got, ref.astype(np.float16), 1e-3, 1e-3)
    wide = R.sum(x, axis=axis, dtype=nr.float32)
    assert wide.dtype == nr.float32
    check(wide, ref, 1e-5, 1e-4)
    check(R.mean(x, axis=axis), host.astype(np.float32).mean(axis=axis), 1e-3, 1e-3)


@pytest.mark.parametrize("shape,axis", [((15,), None), ((3, 5), 1), ((2, 3, 4), (0, 2)), ((0, 3), 0)])
def test_prod_and_integer_sums(shape, axis):
    host = (np.random.default_rng(1).uniform(0.5, 1.5, size=shape)).astype(np.float32)
    check(R.prod(nr.asarray(host), axis=axis), host.astype(np.float64).prod(axis=axis), 1e-4)
    ints = data(shape, np.int32)
    s = R.sum(nr.asarray(ints), axis=axis)
    assert s.dtype == nr.int64  # like numpy: the default integer dtype
    np.testing.assert_array_equal(s.numpy(), ints.sum(axis=axis))
    small = (ints % 3).astype(np.int32)
    np.testing.assert_array_equal(R.prod(nr.asarray(small), axis=axis).numpy(), small.prod(axis=axis))


def test_non_contiguous_inputs_and_large():
    host = data((257, 1030), np.float32, 2)
    x = nr.asarray(host)
    check(R.sum(x[::-3, 1::2], axis=1), host[::-3, 1::2].astype(np.float64).sum(axis=1), 1e-5, 1e-3)
    check(R.max(x.T, axis=0), host.T.max(axis=0), 0)
    check(R.sum(x), host.astype(np.float64).sum(), 1e-5, 1e-2)
    check(R.mean(x, axis=0), host.astype(np.float64).mean(axis=0), 1e-5, 1e-6)
    big = data((1 << 20,), np.float32, 3)  # whole-array reductions this large take two launches
    xb = nr.asarray(big)
    check(R.sum(xb), big.astype(np.float64).sum(), 1e-5, 1e-1)
    check(R.sum(M.reshape(xb, (512, 2048)), axis=(0, 1), keepdims=True),
          big.reshape(512, 2048).astype(np.float64).sum(keepdims=True), 1e-5, 1e-1)
    check(R.mean(xb[::-2]), big[::-2].astype(np.float64).mean(), 1e-5, 1e-6)
    check(R.max(xb), big.max(), 0)
    check(R.min(xb[1:]), big[1:].min(), 0)  # n - 1 is odd: one launch
    ints = data((3 << 18,), np.int32, 4)
    np.testing.assert_array_equal(R.sum(nr.asarray(ints)).numpy(), ints.sum())
    flags = np.ones(1 << 18, bool)
    flags[12345] = False
    assert not R.all(nr.asarray(flags)).item() and R.any(nr.asarray(flags)).item()


def test_nan_propagates_in_max_min_sum():
    host = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], np.float32)
    x = nr.asarray(host)
    np.testing.assert_array_equal(R.max(x, axis=1).numpy(), np.max(host, axis=1))
    np.testing.assert_array_equal(R.min(x, axis=0).numpy(), np.min(host, axis=0))
    np.testing.assert_array_equal(R.sum(x, axis=1).numpy(), np.sum(host, axis=1))


@pytest.mark.parametrize("shape,axis", [((0,), None), ((1,), None), ((33,), None), ((4, 5), 1), ((3, 4, 2), (0, 2))])
def test_any_all_on_bool(shape, axis):
    rng = np.random.default_rng(4)
    for host in (rng.random(shape) > 0.5, np.ones(shape, bool), np.zeros(shape, bool)):
        x = nr.asarray(host)
        got_any, got_all = R.any(x, axis=axis), R.all(x, axis=axis)
        assert got_any.dtype == nr.bool and got_all.dtype == nr.bool
        np.testing.assert_array_equal(got_any.numpy(), np.any(host, axis=axis))
        np.testing.assert_array_equal(got_all.numpy(), np.all(host, axis=axis))


def test_count_nonzero_and_var_follow_the_namespace():
    host = np.array([[0.0, 1.5, 0.0], [2.0, 3.0, -1.0]], np.float32)
    x = nr.asarray(host)
    if hasattr(nr, "not_equal"):
        np.testing.assert_array_equal(R.count_nonzero(x, axis=1).numpy(), np.count_nonzero(host, axis=1))
        np.testing.assert_array_equal(R.any(x, axis=0).numpy(), np.any(host, axis=0))
    else:
        with pytest.raises(TypeError, match="npurt.any: argument 'x': float32 input needs"):
            R.any(x)
    if all(hasattr(nr, f) for f in ("subtract", "multiply", "sqrt")):
        check(R.var(x, axis=1, correction=1), np.var(host, axis=1, ddof=1), 1e-5, 1e-6)
        check(R.std(x), np.std(host), 1e-5, 1e-6)


def test_methods_and_errors():
    host = data((3, 4), np.float32)
    x = nr.asarray(host)
    check(x.sum(axis=0), host.astype(np.float64).sum(axis=0), 1e-5, 1e-5)
    check(x.max(), host.max(), 0)
    with pytest.raises(M.AxisError, match="npurt.sum: argument 'axis': axis 2 is out of bounds for array of dimension 2"):
        R.sum(x, axis=2)
    with pytest.raises(ValueError, match="npurt.mean: argument 'axis': repeated axis"):
        R.mean(x, axis=(0, -2))
    with pytest.raises(TypeError, match="npurt.sum: argument 'x': bfloat16 is not supported"):
        R.sum(nr.astype(nr.asarray(np.zeros(3, dtype=np.float32)), nr.bfloat16))  # float64: tests/python/array_complex
    with pytest.raises(TypeError, match="npurt.max: unexpected keyword argument 'dtype'"):
        R.max(x, dtype=nr.float32)
    check(R.sum(x, axis=1), host.astype(np.float64).sum(axis=1), 1e-5, 1e-5)  # still usable


def test_op_level_errors_name_the_op():
    x = nr.asarray(np.zeros((2, 3, 4), np.float32))
    with pytest.raises(ValueError, match="npurt.ops.reduce_sum: argument 'axis': the reduced axes must be adjacent"):
        nr.ops.reduce_sum(x, axis=[0, 2])
    with pytest.raises(nr.UnsupportedDtypeError, match="npurt.ops.reduce_any: argument 'x'"):
        nr.ops.reduce_any(nr.asarray(np.zeros(3, np.int32)))
    with pytest.raises(nr.UnsupportedDtypeError, match="npurt.ops.reduce_max: argument 'dtype'"):
        nr.ops.reduce_max(x, dtype="int32")
