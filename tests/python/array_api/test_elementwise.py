"""Elementwise functions against numpy (the reference, in tests only): every
function over its dtypes and shapes (0-d, empty, 1, odd sizes, large),
broadcasting, non-contiguous views, special values, Python scalars, errors.

Tolerances: integers and bool exact; float16 rtol 2e-3; float32 rtol 1e-5
(the vector Exp/Ln are within 2 ulp, the scalar paths use libm); float64 1e-12.
"""
import numpy as np
import pytest

import npurt as nr

RTOL = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}
SHAPES = [(), (0,), (1,), (15,), (33,), (3, 11)]
FLOATS = [np.float32, np.float16, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def check(got, want, dtype=None):
    got = got.numpy() if isinstance(got, nr.ndarray) else got
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=RTOL[want.dtype.type], atol=RTOL[want.dtype.type] * 1e-3,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def rand(shape, dtype, seed=0, lo=-4.0, hi=4.0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


# name -> (numpy reference, input range)
UNARY_FLOAT = {
    "exp": (np.exp, -4, 4), "log": (np.log, 0.01, 10), "sqrt": (np.sqrt, 0, 10), "sin": (np.sin, -4, 4),
    "cos": (np.cos, -4, 4), "tan": (np.tan, -1.4, 1.4), "asin": (np.asin, -1, 1), "acos": (np.acos, -1, 1),
    "atan": (np.atan, -4, 4), "sinh": (np.sinh, -3, 3), "cosh": (np.cosh, -3, 3), "tanh": (np.tanh, -4, 4),
    "asinh": (np.asinh, -4, 4), "acosh": (np.acosh, 1, 5), "atanh": (np.atanh, -0.9, 0.9),
    "expm1": (np.expm1, -2, 2), "log1p": (np.log1p, -0.5, 4), "log2": (np.log2, 0.01, 10),
    "log10": (np.log10, 0.01, 10), "ceil": (np.ceil, -4, 4), "floor": (np.floor, -4, 4),
    "trunc": (np.trunc, -4, 4), "round": (np.round, -4, 4), "reciprocal": (np.reciprocal, 0.5, 4),
    "square": (np.square, -4, 4), "negative": (np.negative, -4, 4), "abs": (np.abs, -4, 4),
    "sign": (np.sign, -4, 4),
}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
def test_unary_float(name, dtype, shape):
    ref, lo, hi = UNARY_FLOAT[name]
    a = rand(shape, dtype, lo=lo, hi=hi)
    check(getattr(nr, name)(nr.asarray(a)), ref(a))


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("name", ["negative", "abs", "square", "sign", "bitwise_invert", "ceil", "floor"])
def test_unary_int(name, dtype):
    a = rand((33,), dtype)
    ref = {"bitwise_invert": np.invert}.get(name, getattr(np, name, None))
    with np.errstate(over="ignore"):
        check(getattr(nr, name)(nr.asarray(a)), ref(a))


@pytest.mark.parametrize("dtype", FLOATS)
def test_predicates_special_values(dtype):
    a = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e-3], dtype)
    x = nr.asarray(a)
    for name in ["isnan", "isinf", "isfinite", "signbit", "logical_not"]:
        check(getattr(nr, name)(x), getattr(np, name)(a))
    with np.errstate(all="ignore"):
        for name in ["exp", "log", "sqrt", "sign", "abs", "floor", "tanh"]:
            check(getattr(nr, name)(x), getattr(np, name)(a))


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
          "minimum": np.minimum, "floor_divide": np.floor_divide, "remainder": np.remainder}
BINARY_FLOAT = {"divide": np.divide, "atan2": np.atan2, "hypot": np.hypot, "copysign": np.copysign,
                "logaddexp": np.logaddexp, "pow": np.pow}
COMPARE = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
BCAST = [((), ()), ((15,), (15,)), ((0,), (1,)), ((3, 1), (1, 5)), ((2, 3, 4), (4,)), ((1,), (33,)),
         ((4, 1, 3), (2, 1))]


@pytest.mark.parametrize("shapes", BCAST)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int32, np.int16, np.int8, np.uint8])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_broadcast(name, dtype, shapes):
    a, b = rand(shapes[0], dtype, 1), rand(shapes[1], dtype, 2)
    if name in ("floor_divide", "remainder"):
        b = np.where(b == 0, 3, b).astype(dtype)
    with np.errstate(over="ignore"):
        check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), BINARY[name](a, b))


@pytest.mark.parametrize("shapes", BCAST[:5])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
@pytest.mark.parametrize("name", sorted(BINARY_FLOAT))
def test_binary_float(name, dtype, shapes):
    a, b = rand(shapes[0], dtype, 1, 0.1, 3), rand(shapes[1], dtype, 2, -2, 2)
    check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), BINARY_FLOAT[name](a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8, np.uint16, np.bool_])
@pytest.mark.parametrize("name", COMPARE)
def test_comparisons(name, dtype):
    a, b = rand((5, 1), dtype, 1), rand((1, 7), dtype, 2)
    check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), getattr(np, name)(a, b))


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_bitwise(dtype):
    a, b = rand((33,), dtype, 1), rand((33,), dtype, 2)
    for name in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
        check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), getattr(np, name)(a, b))
    if dtype != np.bool_:
        s = (np.arange(33) % 7).astype(dtype)
        for name in ["bitwise_left_shift", "bitwise_right_shift"]:
            check(getattr(nr, name)(nr.asarray(a), nr.asarray(s)), getattr(np, name)(a, s))


def test_logical_and_where():
    a, b = rand((4, 6), np.bool_, 1), rand((6,), np.bool_, 2)
    for name in ["logical_and", "logical_or", "logical_xor"]:
        check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), getattr(np, name)(a, b))
    x, y = rand((4, 6), np.float32, 3), rand((4, 1), np.float32, 4)
    check(nr.where(nr.asarray(a), nr.asarray(x), nr.asarray(y)), np.where(a, x, y))
    check(nr.where(nr.asarray(b), nr.asarray(x), 0.5), np.where(b, x, np.float32(0.5)))


def test_integer_division_edge_cases():
    a = np.array([7, -7, 7, -7, 0, -128, 5], np.int8)
    b = np.array([2, 2, -2, -2, 3, -1, 0], np.int8)
    with np.errstate(all="ignore"):
        check(nr.floor_divide(nr.asarray(a), nr.asarray(b)), np.floor_divide(a, b))
        check(nr.remainder(nr.asarray(a), nr.asarray(b)), np.remainder(a, b))


def test_float_division_special_values():
    a = np.array([1.0, -1.0, 0.0, np.inf, np.nan, 5.5, -5.5], np.float32)
    b = np.array([0.0, 0.0, 0.0, 2.0, 1.0, -2.0, 2.0], np.float32)
    with np.errstate(all="ignore"):
        for name in ["divide", "floor_divide", "remainder", "maximum", "minimum"]:
            check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), getattr(np, name)(a, b))


@pytest.mark.parametrize("n", [1023, 100_003])
def test_large_vector_paths(n):
    a, b = rand((n,), np.float32, 1), rand((n,), np.float32, 2)
    x, y = nr.asarray(a), nr.asarray(b)
    check(nr.add(x, y), a + b)
    check(nr.multiply(x, y), a * b)
    check(nr.exp(x), np.exp(a))
    check(nr.add(nr.asarray(a.reshape(-1, 1)[:1000]), nr.asarray(b[:1000])), a[:1000, None] + b[:1000])


def test_mixed_dtypes_promote():
    a, b = rand((7,), np.int8, 1), rand((7,), np.uint8, 2)
    check(nr.add(nr.asarray(a), nr.asarray(b)), a.astype(np.int16) + b.astype(np.int16))
    f = rand((7,), np.float16, 3)
    check(nr.multiply(nr.asarray(f), nr.asarray(rand((7,), np.float32, 4))), f * rand((7,), np.float32, 4))
    i = rand((7,), np.int32, 5)
    check(nr.divide(nr.asarray(i), 2), (i / 2).astype(np.float32))  # ints divide in the default float dtype


def test_python_scalars():
    a = rand((9,), np.float16, 1)
    x = nr.asarray(a)
    check(nr.add(x, 1), a + np.float16(1))
    check(nr.subtract(2.5, x), np.float16(2.5) - a)
    i = rand((9,), np.int8, 2)
    check(nr.multiply(nr.asarray(i), 3), (i * np.int8(3)))
    with pytest.raises(OverflowError, match="npurt.add: Python int 300 is out of range for int8"):
        nr.add(nr.asarray(i), 300)


def _view(a_np, view_of):
    """A non-contiguous device view built with the view bindings (strides in elements)."""
    base = nr.asarray(a_np)
    shape, strides, offset = view_of
    return nr._npurt._view(base, shape, strides, offset)


@pytest.mark.skipif(not hasattr(nr._npurt, "_view"), reason="view bindings not in this build")
def test_non_contiguous_views():
    a = rand((6, 8), np.float32, 1)
    b = rand((8, 6), np.float32, 2)
    xt = _view(b, ((6, 8), (1, 6), 0))               # b.T
    check(nr.add(nr.asarray(a), xt), a + b.T)
    xs = _view(a, ((6, 4), (8, 2), 1))               # a[:, 1::2]
    check(nr.exp(xs), np.exp(a[:, 1::2]))
    xr = _view(a, ((6, 8), (8, -1), 7))              # a[:, ::-1]
    check(nr.maximum(xr, xt), np.maximum(a[:, ::-1], b.T))
    i = rand((5, 9), np.int16, 3)
    xi = _view(i, ((5, 3), (9, 3), 0))               # i[:, ::3]
    check(nr.multiply(xi, xi), i[:, ::3] * i[:, ::3])


def test_errors_name_function_argument_reason():
    x = nr.asarray(np.ones((2, 3), np.float32))
    y = nr.asarray(np.ones((4,), np.float32))
    with pytest.raises(ValueError, match=r"npurt.add: argument 'x2': shapes \(2, 3\) and \(4,\) cannot be broadcast"):
        nr.add(x, y)
    with pytest.raises(TypeError, match="npurt.multiply: argument 'x2': expected an npurt.ndarray or a Python scalar"):
        nr.multiply(x, "2")
    with pytest.raises(TypeError, match="npurt.exp: argument 'x': expected an npurt.ndarray, got list"):
        nr.exp([1.0])
    with pytest.raises(TypeError, match="npurt.bitwise_and: argument 'x1': dtype float32 is not supported"):
        nr.bitwise_and(x, x)
    with pytest.raises(TypeError, match="no common type"):
        nr.add(nr.asarray(np.ones(2, np.uint64)), nr.asarray(np.ones(2, np.int8)))
    check(nr.add(x, x), np.full((2, 3), 2, np.float32))  # still usable
