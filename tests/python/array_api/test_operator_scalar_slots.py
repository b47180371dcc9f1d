"""`x + s`, `x - s`, `x * s` and the reflected forms for an exact float32
nr.ndarray and a plain Python float or int take the C++ number slot's scalar
path (sdk_python/bindings/operators.cpp, scalar_binary): the same
npurt::array::binary_with_constant call with the same cached 0-d float32
constant as the Python path (multiply -> _convert.operands ->
_array_binary_const). Results must be bit-identical to the functions
(nr.add / nr.subtract / nr.multiply, which always take the Python path) and
equal to numpy's float32 arithmetic; every other pairing keeps the Python path.
"""
import operator

import numpy as np
import pytest

import npurt as nr

OPS = [(operator.add, nr.add), (operator.sub, nr.subtract), (operator.mul, nr.multiply)]
SCALARS = [2.0, -1.5, 0.0, -0.0, 3, -7, 0, 1e-45, 3.4e38, 1e300, -1e300, float("inf"), float("-inf"),
           float("nan"), 2 ** 24 + 1, 2 ** 53, -(2 ** 53), 0.1]


def bits(a):
    return np.ascontiguousarray(a).view(np.uint32)


@pytest.mark.parametrize("op,fn", OPS)
@pytest.mark.parametrize("s", SCALARS)
def test_both_sides_bit_identical_to_the_function_and_numpy(op, fn, s):
    h = np.linspace(-3, 3, 17, dtype=np.float32)
    x = nr.asarray(h)
    with np.errstate(over="ignore", invalid="ignore"):  # float32(1e300) is inf, inf - inf is nan
        cases = ((op(x, s), fn(x, s), op(h, np.float32(s))), (op(s, x), fn(s, x), op(np.float32(s), h)))
    for got, ref, want in cases:
        assert type(got) is nr.ndarray and got.dtype == nr.float32 and got.shape == (17,)
        np.testing.assert_array_equal(bits(got.numpy()), bits(ref.numpy()))
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("n", [0, 1, 16, 1023])
def test_sizes_views_and_zero_d(n):
    h = np.arange(2 * n, dtype=np.float32).reshape(2, n) if n else np.zeros((2, 0), np.float32)
    x = nr.asarray(h)
    np.testing.assert_array_equal((x * 2.0).numpy(), h * np.float32(2))
    np.testing.assert_array_equal((x[:, ::2] - 1).numpy(), h[:, ::2] - np.float32(1))
    np.testing.assert_array_equal((0.5 + x[1]).numpy(), np.float32(0.5) + h[1])
    z = nr.asarray(np.float32(3))
    r = z * 2.5
    assert r.shape == () and float(r) == 7.5


def test_other_pairings_keep_the_python_path():
    h = np.arange(6, dtype=np.float32)
    x = nr.asarray(h)
    # bool scalars, huge ints, other dtypes and other operators: the Python path's results
    np.testing.assert_array_equal((x + True).numpy(), h + np.float32(1))
    np.testing.assert_array_equal((x * (2 ** 60)).numpy(), h * np.float32(2 ** 60))
    hf = h.astype(np.float16)
    r = nr.asarray(hf) * 2.0
    assert r.dtype == nr.float16
    np.testing.assert_array_equal(r.numpy(), hf * np.float16(2))
    ri = nr.asarray(np.arange(4, dtype=np.int32)) * 3
    assert ri.dtype == nr.int32
    np.testing.assert_array_equal(ri.numpy(), np.arange(4, dtype=np.int32) * 3)
    np.testing.assert_allclose((x / 2.0).numpy(), h / np.float32(2))
    with pytest.raises(TypeError):
        x * "2"
    with pytest.raises(TypeError):
        x + [1.0]


def test_int_overflowing_int32_is_still_a_float32_scalar():
    # The int path of the slot converts with float(): 2**31 and -2**40 are exact in float32.
    x = nr.asarray(np.ones(4, np.float32))
    np.testing.assert_array_equal((x * (2 ** 31)).numpy(), np.full(4, 2.0 ** 31, np.float32))
    np.testing.assert_array_equal((x + -(2 ** 40)).numpy(), np.full(4, 1 - 2.0 ** 40, np.float32))


def test_inplace_forms_are_unchanged():
    h = np.arange(5, dtype=np.float32)
    x = nr.asarray(h)
    y = x
    x *= 2.0
    assert x is y
    np.testing.assert_array_equal(x.numpy(), h * 2)
