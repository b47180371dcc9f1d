"""Operators on nr.ndarray against numpy: forward, reflected, in-place,
array-scalar and scalar-array, unary; in-place dtype/shape rules."""
import operator

import numpy as np
import pytest

import npurt as nr
from test_elementwise import check, rand

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
       "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
       "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
       "!=": operator.ne}
INT_ONLY = {"&", "|", "^", "<<", ">>"}


BINARY_CASES = [(sym, dtype) for sym in sorted(OPS) for dtype in (np.float32, np.int32, np.int16)
                if not (sym in INT_ONLY and dtype == np.float32)]  # bitwise operators take integers


@pytest.mark.parametrize("sym, dtype", BINARY_CASES)
def test_binary_operators(sym, dtype):
    f = OPS[sym]
    a = rand((3, 5), dtype, 1)
    b = rand((5,), dtype, 2)
    if sym in ("//", "%"):
        b = np.where(b == 0, 3, b).astype(dtype)
    if sym in ("<<", ">>"):
        b = (np.abs(b) % 5).astype(dtype)
    x, y = nr.asarray(a), nr.asarray(b)
    with np.errstate(over="ignore"):
        check(f(x, y), f(a, b))
        check(f(x, 3), f(a, dtype(3)))          # array op scalar
        check(f(3, x), f(dtype(3), a))          # scalar op array (reflected)


def test_true_divide_and_pow():
    a, b = rand((8,), np.float32, 1, 0.5, 3), rand((8,), np.float32, 2, 0.5, 3)
    x, y = nr.asarray(a), nr.asarray(b)
    check(x / y, a / b)
    check(1.0 / x, np.float32(1.0) / a)
    check(x ** y, a ** b)
    check(2.0 ** x, np.float32(2.0) ** a)
    check(x ** 2, a ** 2)


def test_unary_operators():
    a = rand((7,), np.float32, 1)
    x = nr.asarray(a)
    check(-x, -a)
    check(+x, +a)
    check(abs(x), abs(a))
    i = rand((7,), np.int32, 2)
    check(~nr.asarray(i), ~i)
    bo = rand((7,), np.bool_, 3)
    check(~nr.asarray(bo), ~bo)


def test_inplace_operators():
    a = rand((4, 5), np.float32, 1)
    b = rand((5,), np.float32, 2)
    x = nr.asarray(a)
    keep = x
    x += nr.asarray(b)
    x *= 2
    x -= 1.5
    assert x is keep
    check(x, (a + b) * np.float32(2) - np.float32(1.5))
    i = nr.asarray(np.arange(6, dtype=np.int32))
    i <<= 2
    check(i, np.arange(6, dtype=np.int32) << 2)


def test_inplace_rules():
    x = nr.asarray(np.ones(3, np.int32))
    with pytest.raises(TypeError, match=r"__iadd__: the result \(float32\[3\]\) cannot be stored"):
        x += 1.5
    y = nr.asarray(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="cannot be stored"):
        y += nr.asarray(np.ones((2, 3), np.float32))
    check(x, np.ones(3, np.int32))  # unchanged, runtime usable


def test_operator_errors_and_not_implemented():
    x = nr.asarray(np.ones(3, np.float32))
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        [1] * x
    assert (x == "a") is False
