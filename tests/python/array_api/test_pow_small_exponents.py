"""x ** 3 and x ** -1 with a Python number exponent take vector-unit kernels
(square then multiply; reciprocal) instead of the scalar pow loop
(sdk_python/npurt/array_api/_elementwise.py pow_). Checked against numpy:
exactly for integers (both wrap modulo 2**bits), for x ** -1 (1 / x is the
correctly rounded pow(x, -1), signed zeros and infinities alike) and for
cubes that are exactly representable; otherwise (x * x) * x is within two
roundings of the exact cube: float32 rtol 2.5e-7, float16 rtol 1.5e-3 (vs
the float64 cube rounded nowhere), plus one subnormal step of atol.
"""
import numpy as np
import pytest

import npurt as nr

SHAPES = [(), (0,), (1,), (15,), (33,), (1023,), (3, 5, 7)]
RTOL = {np.float32: 2.5e-7, np.float16: 1.5e-3}


def rand(shape, dtype, seed=0):
    g = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return (g.standard_normal(shape) * 3).astype(dtype)
    info = np.iinfo(dtype)
    return g.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def close_cube(got, a):
    dt = a.dtype.type
    want = a.astype(np.float64) ** 3
    with np.errstate(over="ignore"):
        want_rounded = want.astype(dt)
    assert got.dtype == a.dtype and got.shape == a.shape
    fin = np.isfinite(want_rounded)
    tiny = np.finfo(dt).smallest_subnormal
    np.testing.assert_allclose(got[fin].astype(np.float64), want[fin], rtol=RTOL[dt], atol=float(tiny))
    # overflow, infinities and NaN: exactly numpy's pow
    np.testing.assert_array_equal(got[~fin], want_rounded[~fin])


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_cube_float(dtype, shape):
    a = rand(shape, dtype)
    close_cube((nr.asarray(a) ** 3).numpy(), a)
    close_cube((nr.asarray(a) ** 3.0).numpy(), a)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_cube_special_and_exact(dtype):
    big = 1e13 if dtype == np.float32 else 100.0  # cube overflows
    small = 1e-13 if dtype == np.float32 else 1e-2  # cube subnormal
    a = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, big, -big, small, -small, 1.0, -1.0, 3.0, -7.0,
                  0.5, 1.5, 12.0, -25.0], dtype)
    got = (nr.asarray(a) ** 3).numpy()
    close_cube(got, a)
    with np.errstate(over="ignore"):
        want = a ** dtype(3)
    exact = slice(0, 7)  # zeros keep their sign, inf/nan, overflow
    np.testing.assert_array_equal(got[exact], want[exact])
    assert np.array_equal(np.signbit(got[:2]), [False, True])
    np.testing.assert_array_equal(got[9:], want[9:])  # exactly representable cubes are exact


@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.int8, np.uint8, np.int64])
def test_cube_int_wraps_like_numpy(dtype):
    a = rand((1023,), dtype, 1)
    got = nr.asarray(a) ** 3
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got.numpy(), a ** 3)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_reciprocal_exponent(dtype, shape):
    a = rand(shape, dtype, 2)
    with np.errstate(divide="ignore"):
        want = np.reciprocal(a)
    np.testing.assert_array_equal((nr.asarray(a) ** -1).numpy(), want)
    np.testing.assert_array_equal((nr.asarray(a) ** -1.0).numpy(), want)


def test_reciprocal_exponent_special_values():
    a = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.0, -1e-40], np.float32)
    with np.errstate(divide="ignore", over="ignore"):
        want = np.power(a.astype(np.float64), -1.0).astype(np.float32)
    got = (nr.asarray(a) ** -1).numpy()
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got[:4]), np.signbit(want[:4]))


def test_non_contiguous_and_input_untouched():
    a = rand((40, 33), np.float32, 3)
    x = nr.asarray(a)
    v = x[::2, 1::3]
    close_cube((v ** 3).numpy(), a[::2, 1::3])
    np.testing.assert_array_equal((v ** -1).numpy(), np.reciprocal(a[::2, 1::3]))
    np.testing.assert_array_equal(x.numpy(), a)


def test_int_negative_exponent_keeps_pow_semantics():
    a = np.array([1, -1, 2, 0, 5], np.int32)
    b = np.array([0.5, -0.5], np.float32)
    # integers to -1 stay on the pow kernel (0 except for 1 and -1), never reciprocal
    got = (nr.asarray(a[[0, 1, 2, 4]]) ** -1).numpy()
    np.testing.assert_array_equal(got, np.array([1, -1, 0, 0], np.int32))
    np.testing.assert_array_equal((nr.asarray(b) ** 3).numpy(), b ** np.float32(3))
