"""Dtype refusals (sdk_python/bindings/errors.cpp, StatusCode::kUnsupportedDtype): an op
given a dtype or dtype combination it does not take raises nr.UnsupportedDtypeError, which
is a TypeError (as numpy's UFuncTypeError and array-api-strict) and still an
nr.InvalidArgumentError / ValueError / NpurtError, so older `except` clauses keep working.
Shape, axis and value errors stay InvalidArgumentError (ValueError) without TypeError.
(Refusals the Python layer makes itself, e.g. nr.sort of complex, were plain TypeErrors
already and stay so.)"""
import numpy as np
import pytest

import npurt as nr


def arr(dtype, n=4):
    return nr.asarray(np.ones(n, dtype=dtype))


def still_usable():
    host = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(nr.add(nr.asarray(host), nr.asarray(host)).numpy(), host + host)
    nr.synchronize()


# (id, call, fragments of the message): each is refused because of a dtype.
REFUSALS = [
    ("multiply-bool", lambda: nr.multiply(arr(bool), arr(bool)), ["npurt.multiply", "argument 'x1'", "bool"]),
    ("subtract-bool", lambda: nr.subtract(arr(bool), arr(bool)), ["npurt.subtract", "bool"]),
    ("negative-bool", lambda: nr.negative(arr(bool)), ["npurt.negative", "argument 'x'", "bool"]),
    ("maximum-complex", lambda: nr.maximum(arr(np.complex128), arr(np.complex128)), ["npurt.maximum", "complex128"]),
    ("floor-complex", lambda: nr.floor(arr(np.complex64)), ["npurt.floor", "complex64"]),
    ("bitwise_and-float", lambda: nr.bitwise_and(arr(np.float32), arr(np.float32)), ["npurt.bitwise_and", "float32"]),
    ("bitwise_and-float-scalar", lambda: nr.bitwise_and(arr(np.int32), 1.5), ["npurt.bitwise_and", "argument 'x2'"]),
    ("ops.add-mixed", lambda: nr.ops.add(arr(np.float32), arr(np.float64)),
     ["npurt.ops.add", "argument 'y'", "float64 is not supported"]),
    ("ops.add-out-dtype", lambda: nr.ops.add(arr(np.float32), arr(np.float32), out=nr.empty((4,), dtype=nr.float16)),
     ["npurt.ops.add", "out[0]", "does not match the result dtype float32"]),
    ("ops.reduce_max-dtype", lambda: nr.ops.reduce_max(arr(np.float32), dtype="int32"),
     ["npurt.ops.reduce_max", "argument 'dtype'"]),
    ("ops.reduce_any-int", lambda: nr.ops.reduce_any(arr(np.int32)), ["npurt.ops.reduce_any", "argument 'x'"]),
    ("ops.searchsorted-mixed", lambda: nr.ops.searchsorted(arr(np.float32), arr(np.int32)),
     ["searchsorted", "argument 'x2'", "differs"]),
    ("ops.matmul-int8-dtype", lambda: nr.ops.matmul(nr.asarray(np.ones((2, 2), np.float16)),
                                                    nr.asarray(np.ones((2, 2), np.float16)), dtype="int8"),
     ["matmul", "argument 'dtype'"]),
    ("ops.layer_norm-gamma-dtype", lambda: nr.ops.layer_norm(nr.asarray(np.ones((2, 8), np.float32)),
                                                              arr(np.float16, 8), arr(np.float32, 8)),
     ["layer_norm", "gamma", "does not match x's float32"]),
]


@pytest.mark.parametrize("call,fragments", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_dtype_refusals_are_type_errors(call, fragments):
    with pytest.raises(TypeError) as info:
        call()
    e = info.value
    assert isinstance(e, nr.InvalidArgumentError) and isinstance(e, ValueError) and isinstance(e, nr.NpurtError)
    assert isinstance(e, nr.UnsupportedDtypeError)
    assert e.code == "UNSUPPORTED_DTYPE"
    for f in fragments:
        assert f in str(e), f"{f!r} not in {str(e)!r}"
    still_usable()


def test_hierarchy():
    cls = nr.UnsupportedDtypeError
    assert cls.__module__ == "npurt"
    for base in (nr.InvalidArgumentError, nr.NpurtError, TypeError, ValueError, RuntimeError):
        assert issubclass(cls, base)
    assert not issubclass(nr.InvalidArgumentError, TypeError)  # other bad arguments stay ValueError only


@pytest.mark.parametrize("call", [
    lambda: nr.add(arr(np.float32, 3), arr(np.float32, 4)),                         # shapes
    lambda: nr.ops.add(arr(np.float32), arr(np.float32), out=nr.empty((3,), dtype=nr.float32)),  # out shape
    lambda: nr.ops.reduce_sum(nr.asarray(np.ones((2, 3), np.float32)), axis=[5]),   # axis
], ids=["shape", "out-shape", "axis"])
def test_other_bad_arguments_are_not_type_errors(call):
    with pytest.raises(ValueError) as info:
        call()
    assert not isinstance(info.value, TypeError), repr(info.value)
    still_usable()

