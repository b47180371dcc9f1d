"""Array-scalar binary ops on the tensor-scalar vector path (ew_kernel.h
kScalarForm: add, subtract, multiply, maximum, minimum read a one-element
operand once and use Adds/Muls/Maxs/Mins) against numpy, exactly: each result
is one IEEE operation on the same float32/float16 operands (s - x is
(-x) + s, x - s is x + (-s), both exact rewrites), and integers wrap like
numpy. Also x ** 2 (computed as square: the same single rounding).
"""
import operator

import numpy as np
import pytest

import npurt as nr

SHAPES = [(), (0,), (1,), (15,), (33,), (1023,), (3, 5, 7), (70000,)]
OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul}
DTYPES = [np.float32, np.float16, np.int32, np.int16]
SCALARS = {np.float32: [2.0, -0.0, 1e30, float("nan")], np.float16: [2.0, -0.5, 60000.0],
           np.int32: [3, -7, 2**31 - 1, -2**31], np.int16: [5, -32768]}


def rand(shape, dtype, seed):
    g = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        a = g.standard_normal(shape) * 10
        if a.size > 4:
            a.flat[:4] = [0.0, -0.0, np.inf, np.nan]
        return a.astype(dtype)
    info = np.iinfo(dtype)
    return g.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


def same(got, want, signed_zeros=True):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaNs compare equal here; values bit-for-bit otherwise
    if want.dtype.kind == "f" and signed_zeros:
        keep = ~np.isnan(want)  # the sign of a NaN result is unspecified
        np.testing.assert_array_equal(np.signbit(got)[keep], np.signbit(want)[keep])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_array_scalar_and_scalar_array(shape, dtype):
    a = rand(shape, dtype, 1)
    x = nr.asarray(a)
    with np.errstate(all="ignore"):
        for s in SCALARS[dtype]:
            sv = np.array(s).astype(dtype)
            for sym, f in OPS.items():
                same(f(x, s), f(a, sv))
                same(f(s, x), f(sv, a))
            # max/min of +0 and -0 may return either (the vector Max/Min as in the tensor-tensor form)
            same(nr.maximum(x, s), np.maximum(a, sv), signed_zeros=False)
            same(nr.minimum(s, x), np.minimum(sv, a), signed_zeros=False)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_zero_d_array_operand_and_views(dtype):
    a = rand((64, 33), dtype, 2)
    zero_d = np.array(3).astype(dtype)
    x, z = nr.asarray(a), nr.asarray(zero_d)
    with np.errstate(all="ignore"):
        same(x * z, a * zero_d)
        same(z - x, zero_d - a)
        same(x[:, ::2] + 5, a[:, ::2] + dtype(5))           # a strided operand with a scalar
        same(nr.permute_dims(x, (1, 0)) - 1, a.T - dtype(1))
        same(z + z, zero_d + zero_d)                        # both one element: the general path
        col = nr.asarray(a[:, :1])
        same(col * x, a[:, :1] * a)                         # a (64, 1) column is not one element


def test_describe_names_the_scalar_operand():
    x = nr.asarray(np.ones(4096, np.float32))
    plan = nr.ops.describe("multiply", x, nr.asarray(np.float32(2)))
    assert "contiguous scalar" in plan


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_pow_two_is_square(dtype):
    a = rand((1023,), dtype, 3)
    if np.dtype(dtype).kind == "i":
        a = (a % 1000).astype(dtype)
    x = nr.asarray(a)
    with np.errstate(all="ignore"):
        same(x ** 2, a ** dtype(2))
        if np.dtype(dtype).kind == "f":
            same(x ** 2.0, a ** np.array(2.0).astype(dtype))
        else:  # an integer array to a float power: a float result (pow kernel, not square)
            assert (x ** 2.0).dtype != x.dtype
