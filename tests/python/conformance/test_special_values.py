"""What array-api-tests' test_special_cases and test_inspection_functions assert
that random draws rarely reach: every binary function of the standard with a
special-case table (pow, atan2, copysign, hypot, logaddexp, remainder,
floor_divide, divide, nextafter, ...) on the full grid of signed zeros,
infinities, NaN, halves, odd/even integers and a subnormal, as functions, as
operators, in place and with a Python scalar operand; unary functions on the
same values; and `__array_namespace_info__().dtypes()` keys.

Reference: numpy's ufuncs (C99 Annex F, which the standard's real-valued
special cases follow). Exactness: special values must match bit for bit in sign
and NaN-ness; other values within 4 ulps (float32 rtol 5e-7, float64 2e-15
scaled) since only the special cases are the point here. Not compared, as the
standard leaves them unspecified: the sign of a zero chosen by maximum/minimum
between -0 and +0 ("the order of signed zeros is unspecified", maximum 2024.12).
"""
import itertools
import math
import operator

import numpy as np
import pytest

import npurt as nr

_V = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 2.5, -2.5, math.inf, -math.inf, math.nan,
      1e-310, 5.0, -5.0, 1e300]
_RTOL = {np.float32: 5e-7, np.float64: 2e-15}
_BINARY = {"pow": np.power, "atan2": np.arctan2, "copysign": np.copysign, "hypot": np.hypot,
           "logaddexp": np.logaddexp, "remainder": np.remainder, "floor_divide": np.floor_divide,
           "divide": np.divide, "nextafter": np.nextafter, "add": np.add, "subtract": np.subtract,
           "multiply": np.multiply, "maximum": np.maximum, "minimum": np.minimum}
_UNARY = {"abs": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
          "atan": np.arctan, "atanh": np.arctanh, "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh,
          "exp": np.exp, "expm1": np.expm1, "floor": np.floor, "log": np.log, "log10": np.log10,
          "log1p": np.log1p, "log2": np.log2, "negative": np.negative, "round": np.round, "sin": np.sin,
          "sinh": np.sinh, "sqrt": np.sqrt, "square": np.square, "tan": np.tan, "tanh": np.tanh,
          "trunc": np.trunc, "reciprocal": np.reciprocal}
_OPERATORS = {"pow": np.power, "mod": np.remainder, "floordiv": np.floor_divide, "truediv": np.divide,
              "add": np.add, "sub": np.subtract, "mul": np.multiply}


def _grid(dtype):
    pairs = list(itertools.product(_V, _V))
    with np.errstate(over="ignore"):  # 1e300 is inf in float32, on purpose
        return np.array([p[0] for p in pairs], dtype), np.array([p[1] for p in pairs], dtype)


def _check(got, want, dtype, what, a, b=None, zero_sign=True):
    got = np.asarray(got)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    both_nan = np.isnan(got) & np.isnan(want)
    same = (got == want) & ((np.signbit(got) == np.signbit(want)) | (want != 0) | (not zero_sign))
    close = np.isclose(got, want, rtol=4 * _RTOL[dtype], atol=0) & (np.signbit(got) == np.signbit(want))
    bad = np.nonzero(~(both_nan | same | close))[0]
    if bad.size:
        rows = [(a[i], None if b is None else b[i], got[i], want[i]) for i in bad[:6]]
        pytest.fail(f"{what} {np.dtype(dtype).name}: {bad.size} mismatches (x1, x2, npurt, numpy): {rows}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(_BINARY))
def test_binary_special_value_grid(name, dtype):
    a, b = _grid(dtype)
    with np.errstate(all="ignore"):
        want = _BINARY[name](a, b)
    zero_sign = name not in ("maximum", "minimum")
    _check(getattr(nr, name)(nr.asarray(a), nr.asarray(b)), want, dtype, name, a, b, zero_sign)
    for s in (0.0, -0.0, 2.0, -3.0, math.inf, -math.inf, math.nan):
        with np.errstate(all="ignore"):
            want_s = _BINARY[name](a, np.array(s, dtype))
        _check(getattr(nr, name)(nr.asarray(a), s), want_s, dtype, f"{name}(x, {s})", a, None, zero_sign)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(_OPERATORS))
def test_operator_special_value_grid(op, dtype):
    a, b = _grid(dtype)
    with np.errstate(all="ignore"):
        want = _OPERATORS[op](a, b)
    _check(getattr(operator, op)(nr.asarray(a), nr.asarray(b)), want, dtype, f"__{op}__", a, b)
    x = nr.asarray(a)
    x = getattr(operator, "i" + op)(x, nr.asarray(b))
    _check(x, want, dtype, f"__i{op}__", a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(_UNARY))
def test_unary_special_values(name, dtype):
    with np.errstate(all="ignore"):
        a = np.array(_V, dtype)
        want = _UNARY[name](a)
    _check(getattr(nr, name)(nr.asarray(a)), want, dtype, name, a)


# The standard: "If x_i is either -0 or +0, the result is 0"; array-api-tests checks +0.
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_sign_of_negative_zero_is_positive_zero(dtype):
    got = np.asarray(nr.sign(nr.asarray(np.array([-0.0, 0.0, -2.5, 3.0, np.nan], dtype))))
    assert not np.signbit(got[:2]).any() and (got[:2] == 0).all()
    np.testing.assert_array_equal(got[2:4], [-1, 1])
    assert np.isnan(got[4])


def test_info_dtypes_are_the_standards():
    # array-api-tests test_array_namespace_info_dtypes: every key is a standard dtype name and
    # each dtype creates an array on each device; every kind filter is a subset.
    standard = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128"}
    info = nr.__array_namespace_info__()
    assert set(info.dtypes()) == standard
    for device in info.devices():
        for kind in (None, "bool", "signed integer", "unsigned integer", "real floating",
                     "complex floating", "integral", "numeric", ("bool", "real floating")):
            out = info.dtypes(kind=kind, device=device)
            assert set(out) <= standard
            for name, dt in out.items():
                assert nr.empty(1, dtype=dt, device=device).dtype == dt
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert nr.float16 is not None  # the extension dtypes stay usable, just not advertised
