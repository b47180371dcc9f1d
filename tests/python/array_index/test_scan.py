"""cumulative_sum, cumulative_prod and diff against numpy.

Tolerances: integers are exact (wrapping like numpy's int64/uint64). Float
sums are compared with a float64 reference: |y - ref| <= n * u * cumsum(|x|)
+ u_out * |ref| with u = 2^-24 (float32 accumulation, float16 inputs too) and
u_out the output dtype's unit roundoff (2^-24 float32, 2^-11 float16);
float products of values in [0.9, 1.1]: relative n * 2^-23 + u_out.
"""
import numpy as np
import pytest

import npurt as nr

U_OUT = {"float32": 2.0 ** -24, "float16": 2.0 ** -11, "float64": 2.0 ** -53}


def _check_sum(y, host, axis, include_initial=False):
    ref = np.cumsum(host.astype(np.float64), axis=axis)
    mag = np.cumsum(np.abs(host.astype(np.float64)), axis=axis)
    if include_initial:
        pad = [(0, 0)] * host.ndim
        pad[axis] = (1, 0)
        ref, mag = np.pad(ref, pad), np.pad(mag, pad)
    n = host.shape[axis] + 1
    u = 2.0 ** -53 if host.dtype == np.float64 else 2.0 ** -24
    got = y.numpy().astype(np.float64)
    assert got.shape == ref.shape
    bound = n * u * mag + U_OUT[str(y.dtype)] * np.abs(ref) + 1e-30
    assert np.all(np.abs(got - ref) <= bound), np.max(np.abs(got - ref) - bound)


SHAPES_AXES = [((1,), 0), ((15,), 0), ((33,), -1), ((1023,), 0), ((0,), 0), ((4, 0), 0), ((4, 0), 1),
               ((7, 33), 1), ((7, 33), 0), ((3, 5, 17), 1), ((2, 1, 3), 1), ((40, 3000), 0), ((5000, 3), 0),
               ((3, 9000), 1)]


@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_cumulative_sum_floats(shape, axis, dtype):
    host = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    y = nr.cumulative_sum(nr.asarray(host), axis=axis)
    assert str(y.dtype) == dtype
    _check_sum(y, host, axis)


@pytest.mark.parametrize("shape,axis", [((15,), 0), ((6, 7), 1), ((6, 7), 0), ((0,), 0)])
@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
def test_include_initial(shape, axis, fn):
    host = np.random.default_rng(2).uniform(0.9, 1.1, shape).astype(np.float32)
    y = getattr(nr, fn)(nr.asarray(host), axis=axis, include_initial=True)
    ref = np.cumsum(host.astype(np.float64), axis=axis) if fn == "cumulative_sum" else \
        np.cumprod(host.astype(np.float64), axis=axis)
    pad = [(0, 0)] * host.ndim
    pad[axis] = (1, 0)
    ref = np.pad(ref, pad, constant_values=0.0 if fn == "cumulative_sum" else 1.0)
    assert y.shape == ref.shape
    np.testing.assert_allclose(y.numpy(), ref, rtol=shape[axis] * 2.0 ** -22 + 1e-7, atol=1e-6)


INT_CASES = [("int8", "int64"), ("int16", "int64"), ("int32", "int64"), ("int64", "int64"), ("uint8", "uint64"),
             ("uint16", "uint64"), ("uint32", "uint64"), ("uint64", "uint64"), ("bool", "int64")]


@pytest.mark.parametrize("dtype,result", INT_CASES)
@pytest.mark.parametrize("shape,axis", [((1,), 0), ((33,), 0), ((5, 1023), 1), ((1023, 5), 0), ((0, 3), 0)])
def test_integer_sums_accumulate_in_the_default_integer_dtype(dtype, result, shape, axis):
    rng = np.random.default_rng(3)
    host = (rng.integers(0, 2, shape) if dtype == "bool" else rng.integers(0, 100, shape)).astype(dtype)
    if dtype in ("int8", "int16", "int32", "int64"):
        host[..., ::2] = -host[..., ::2]
    y = nr.cumulative_sum(nr.asarray(host), axis=axis)
    assert str(y.dtype) == result  # int32 accumulates in int64 (the standard), not int32
    np.testing.assert_array_equal(y.numpy(), np.cumsum(host, axis=axis, dtype=result))


def test_integer_sums_do_not_overflow_small_types_and_wrap_int64():
    host = np.full(300, 100, np.int8)
    np.testing.assert_array_equal(nr.cumulative_sum(nr.asarray(host)).numpy(), np.cumsum(host, dtype=np.int64))
    big = np.array([2 ** 62, 2 ** 62, 2 ** 62], np.int64)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(nr.cumulative_sum(nr.asarray(big)).numpy(), np.cumsum(big))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float32", "float16"])
@pytest.mark.parametrize("shape,axis", [((9,), 0), ((4, 21), 1), ((21, 4), 0)])
def test_cumulative_prod(dtype, shape, axis):
    rng = np.random.default_rng(4)
    if dtype.startswith(("int", "uint")):
        host = rng.integers(1, 4, shape).astype(dtype)
        y = nr.cumulative_prod(nr.asarray(host), axis=axis)
        res = "uint64" if dtype.startswith("u") else "int64"
        assert str(y.dtype) == res
        np.testing.assert_array_equal(y.numpy(), np.cumprod(host, axis=axis, dtype=res))
    else:
        host = rng.uniform(0.9, 1.1, shape).astype(dtype)
        y = nr.cumulative_prod(nr.asarray(host), axis=axis)
        assert str(y.dtype) == dtype
        ref = np.cumprod(host.astype(np.float64), axis=axis)
        np.testing.assert_allclose(y.numpy().astype(np.float64), ref, rtol=shape[axis] * 2.0 ** -23 + U_OUT[dtype])


@pytest.mark.parametrize("dtype,want", [("int32", "int32"), ("int32", "float32"), ("float32", "float64"),
                                        ("uint8", "uint8"), ("int16", "int64"), ("float16", "float32")])
def test_explicit_dtype_is_the_accumulator(dtype, want):
    host = (np.arange(40) % 7).astype(dtype)
    y = nr.cumulative_sum(nr.asarray(host), dtype=getattr(nr, want))
    assert str(y.dtype) == want
    np.testing.assert_allclose(y.numpy(), np.cumsum(host, dtype=want))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape,axis", [((17,), 0), ((5, 33), 1), ((33, 5), 0), ((0, 3), 0)])
def test_complex_cumulative_sum_is_componentwise(dtype, shape, axis):
    rng = np.random.default_rng(8)
    host = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    y = nr.cumulative_sum(nr.asarray(host), axis=axis, include_initial=True)
    assert str(y.dtype) == dtype
    ref = np.cumsum(host.astype(np.complex128), axis=axis)
    pad = [(0, 0)] * host.ndim
    pad[axis] = (1, 0)
    ref = np.pad(ref, pad)
    u = 2.0 ** -24 if dtype == "complex64" else 2.0 ** -53
    mag = np.pad(np.cumsum(np.abs(host.real) + np.abs(host.imag), axis=axis), pad)
    assert np.all(np.abs(y.numpy() - ref) <= 2 * (shape[axis] + 1) * u * mag + 1e-30)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape,axis", [((17,), 0), ((5, 33), 1), ((33, 5), 0)])
def test_complex_cumulative_prod(dtype, shape, axis):
    rng = np.random.default_rng(9)
    host = np.exp(1j * rng.uniform(-1, 1, shape)) * rng.uniform(0.95, 1.05, shape)
    host = host.astype(dtype)
    y = nr.cumulative_prod(nr.asarray(host), axis=axis, include_initial=True)
    assert str(y.dtype) == dtype
    pad = [(0, 0)] * host.ndim
    pad[axis] = (1, 0)
    ref = np.pad(np.cumprod(host.astype(np.complex128), axis=axis), pad, constant_values=1)
    rtol = (shape[axis] + 1) * (4 * 2.0 ** -24 if dtype == "complex64" else 4 * 2.0 ** -53)
    np.testing.assert_allclose(y.numpy(), ref, rtol=rtol, atol=rtol)


def test_non_contiguous_inputs():
    host = np.random.default_rng(5).standard_normal((12, 17)).astype(np.float32)
    x = nr.asarray(host)
    _check_sum(nr.cumulative_sum(x.mT, axis=1), np.ascontiguousarray(host.T), 1)
    _check_sum(nr.cumulative_sum(x[::-2, 3:], axis=0), np.ascontiguousarray(host[::-2, 3:]), 0)
    b = nr.broadcast_to(nr.asarray(np.arange(5, dtype=np.int32)), (3, 5))
    np.testing.assert_array_equal(nr.cumulative_sum(b, axis=0).numpy(),
                                  np.cumsum(np.broadcast_to(np.arange(5), (3, 5)), axis=0))


@pytest.mark.parametrize("n", [1 << 18, (1 << 20) + 64, 1 << 22])
def test_long_float32_scan_split_over_cores(n):
    host = np.random.default_rng(6).standard_normal(n).astype(np.float32)
    _check_sum(nr.cumulative_sum(nr.asarray(host)), host, 0)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 33, 1 << 18])  # 1 << 18: the split plan (float32)
def test_sums_of_negative_zero_stay_negative_like_numpy(dtype, n):
    host = np.full(n, -0.0, dtype=dtype)
    host[n // 2:] = np.where(np.arange(n - n // 2) % 3 == 2, 0.0, -0.0)  # a +0 turns the rest +0
    y = nr.cumulative_sum(nr.asarray(host)).numpy()
    ref = np.cumsum(host)
    np.testing.assert_array_equal(np.signbit(y), np.signbit(ref))
    shown = nr.cumulative_sum(nr.asarray(host), include_initial=True).numpy()
    assert not np.signbit(shown[0]) and np.array_equal(np.signbit(shown[1:]), np.signbit(ref))
    cols = nr.cumulative_sum(nr.asarray(np.stack([host, host], axis=1)), axis=0).numpy()
    np.testing.assert_array_equal(np.signbit(cols), np.signbit(np.stack([ref, ref], axis=1)))


def test_errors_name_function_and_argument():
    x = nr.asarray(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="npurt.cumulative_sum: argument 'axis': required for a 2-d array"):
        nr.cumulative_sum(x)
    with pytest.raises(IndexError, match="npurt.cumulative_prod: argument 'axis': axis 2 is out of bounds"):
        nr.cumulative_prod(x, axis=2)
    zero_d = nr.cumulative_sum(nr.asarray(np.float32(2.5)), include_initial=True)  # as a 1-element array
    assert zero_d.shape == (2,) and zero_d.tolist() == [0.0, 2.5]
    with pytest.raises(TypeError, match="npurt.cumulative_sum: argument 'x'"):
        nr.cumulative_sum([1, 2])
    assert nr.cumulative_sum(x, axis=1).shape == (2, 3)  # still usable


@pytest.mark.parametrize("shape,axis,n", [((10,), -1, 1), ((10,), 0, 3), ((4, 7), 0, 1), ((4, 7), 1, 2), ((3,), 0, 5),
                                          ((5,), 0, 0)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_diff_matches_numpy(shape, axis, n, dtype):
    host = (np.random.default_rng(7).integers(0, 5, shape)).astype(dtype)
    y = nr.diff(nr.asarray(host), axis=axis, n=n)
    np.testing.assert_array_equal(y.numpy(), np.diff(host, axis=axis, n=n))


def test_diff_prepend_append_and_errors():
    host = np.array([1, 4, 9, 16], np.float32)
    pre, app = np.array([0], np.float32), np.array([25, 36], np.float32)
    y = nr.diff(nr.asarray(host), prepend=nr.asarray(pre), append=nr.asarray(app))
    np.testing.assert_array_equal(y.numpy(), np.diff(host, prepend=pre, append=app))
    with pytest.raises(ValueError, match="npurt.diff: argument 'n'"):
        nr.diff(nr.asarray(host), n=-1)
    with pytest.raises(ValueError, match="npurt.diff: argument 'x'"):
        nr.diff(nr.asarray(np.float32(1)))
