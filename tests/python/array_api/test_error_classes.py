"""npurt's error classes keep numpy's builtin classes: a dtype argument that is not a dtype
(dtype="foo", dtype=object, dtype=3) raises nr.UnsupportedDtypeError, a TypeError as in numpy
and the array API; the Python layer's own refusals raise nr.InvalidArgumentError (a
ValueError), nr.ArgumentTypeError (a TypeError: wrong argument type) or
nr.UnsupportedDtypeError (a TypeError: a refused dtype). All are nr.NpurtError with a `.code`,
so `except TypeError`, `except ValueError` and `except nr.NpurtError` all keep working."""
import numpy as np
import pytest

import npurt as nr


def raised(call):
    with pytest.raises(nr.NpurtError) as info:
        call()
    return info.value


def test_class_hierarchy_and_codes():
    assert issubclass(nr.ArgumentTypeError, nr.InvalidArgumentError) and issubclass(nr.ArgumentTypeError, TypeError)
    assert issubclass(nr.UnsupportedDtypeError, TypeError) and issubclass(nr.UnsupportedDtypeError, ValueError)
    assert nr.ArgumentTypeError.__module__ == "npurt"
    # the code is a class attribute too: instances the Python layer raises carry it
    assert nr.InvalidArgumentError("m").code == "INVALID_ARGUMENT"
    assert nr.ArgumentTypeError("m").code == "INVALID_ARGUMENT"
    assert nr.UnsupportedDtypeError("m").code == "UNSUPPORTED_DTYPE"
    assert nr.OutOfMemoryError("m").code == "OUT_OF_MEMORY"


MAKERS = {"zeros": lambda d: nr.zeros(3, dtype=d), "empty": lambda d: nr.empty(2, d), "dtype": nr.dtype,
          "asarray": lambda d: nr.asarray([1, 2], dtype=d)}
CASES = [(m, bad) for m in MAKERS for bad in ["foo", object, 3, np.dtype(">f4"), "float8"]] + [("dtype", None)]


@pytest.mark.parametrize("maker,bad", CASES)
def test_not_a_dtype_is_a_type_error(maker, bad):
    e = raised(lambda: MAKERS[maker](bad))
    assert isinstance(e, nr.UnsupportedDtypeError) and isinstance(e, TypeError) and isinstance(e, ValueError)
    assert e.code == "UNSUPPORTED_DTYPE"
    assert "argument 'dtype'" in str(e)


def test_dtype_equality_with_non_dtypes_is_still_false():
    assert not nr.float32 == "foo" and nr.float32 != 3 and not nr.float32 == object


# (call, class, message fragment naming the op and the argument)
REFUSALS = [
    (lambda: nr.full((2,), 1, dtype="float32"), nr.UnsupportedDtypeError, "npurt.full: argument 'dtype'"),
    (lambda: nr.full((2,), 1j, dtype=nr.float32), nr.UnsupportedDtypeError, "npurt.full: argument 'fill_value'"),
    (lambda: nr.full((2,), "1"), nr.ArgumentTypeError, "npurt.full: argument 'fill_value'"),
    (lambda: nr.arange(0, 3, 0), nr.InvalidArgumentError, "npurt.arange: argument 'step'"),
    (lambda: nr.arange(0, 3, dtype=nr.complex64), nr.UnsupportedDtypeError, "npurt.arange: argument 'dtype'"),
    (lambda: nr.eye(2, k=1.5), nr.ArgumentTypeError, "npurt.eye: argument 'k'"),
    (lambda: nr.astype(nr.zeros(2), "float64"), nr.UnsupportedDtypeError, "npurt.astype: argument 'dtype'"),
    (lambda: nr.finfo(nr.int32), nr.UnsupportedDtypeError, "npurt.finfo: argument 'type'"),
    (lambda: nr.isdtype(3, "integral"), nr.UnsupportedDtypeError, "npurt.isdtype: argument 'dtype'"),
    (lambda: nr.isdtype(nr.int32, "nope"), nr.InvalidArgumentError, "npurt.isdtype: argument 'kind'"),
    (lambda: nr.reshape(nr.zeros(6), (4, -1)), nr.InvalidArgumentError, "npurt.reshape: argument 'shape'"),
    (lambda: nr.sum(nr.zeros(3), axis=1.5), nr.ArgumentTypeError, "npurt.sum: argument 'axis'"),
    (lambda: nr.concat([nr.zeros(2), [1]]), nr.ArgumentTypeError, "npurt.concat: argument 'arrays'"),
    (lambda: nr.matmul(nr.zeros((2, 2), dtype=nr.bool), nr.zeros((2, 2), dtype=nr.bool)),
     nr.UnsupportedDtypeError, "npurt.matmul"),
    (lambda: nr.sort(nr.zeros(3, dtype=nr.complex64)), nr.UnsupportedDtypeError, "npurt.sort: argument 'x'"),
    (lambda: nr.cumulative_sum(nr.zeros((2, 2))), nr.InvalidArgumentError, "npurt.cumulative_sum: argument 'axis'"),
    (lambda: nr.add([1], [2]), nr.ArgumentTypeError, "npurt.add"),
    (lambda: nr.zeros(2).__array_namespace__(api_version="1999.01"), nr.InvalidArgumentError, "argument 'api_version'"),
]


@pytest.mark.parametrize("call,cls,fragment", REFUSALS, ids=[f"r{i}" for i in range(len(REFUSALS))])
def test_python_layer_refusals_raise_npurt_classes(call, cls, fragment):
    e = raised(call)
    assert type(e) is cls, (type(e), str(e))
    assert fragment in str(e)
    builtin = TypeError if cls in (nr.ArgumentTypeError, nr.UnsupportedDtypeError) else ValueError
    assert isinstance(e, builtin)
