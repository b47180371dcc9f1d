"""The C++ fast path of x.item(), float(x), int(x) and bool(x)
(sdk_python/bindings/scalar_conversion.cpp) against numpy and against the
Python layer it stands in for (indexing.item / _to_float / _to_int / _to_bool,
kept on the type as _py_item, _py___float__, _py___int__, _py___bool__): the
same Python object (type and value) or the same error.
"""
import math

import numpy as np
import pytest

import npurt as nr
from npurt import _npurt

ndarray = _npurt.ndarray

VALUES = {
    "bool": [True, False],
    "int8": [-128, 127, 0],
    "int16": [-32768, 7],
    "int32": [-(2 ** 31), 2 ** 31 - 1],
    "int64": [-(2 ** 63), 2 ** 63 - 1, -1],
    "uint8": [255, 0],
    "uint16": [65535],
    "uint32": [2 ** 32 - 1],
    "uint64": [2 ** 64 - 1, 2 ** 63],
    "float16": [0.1, -0.0, 65504.0, 6e-8, float("inf"), float("-inf"), float("nan")],
    "float32": [0.1, -0.0, 3.4e38, 1e-45, float("inf"), float("nan")],
    "float64": [0.1, -0.0, 1.7e308, 5e-324, float("-inf"), float("nan")],
}


def outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - compared by the caller
        return (type(e), str(e))
    return (type(r), repr(r))


def one_element_arrays(host):
    """x as 0-d, (1,), (1, 1), and a one-element view of a bigger strided array."""
    big = np.repeat(host.reshape(1), 6)
    x = nr.asarray(big)
    return [nr.asarray(host.reshape(())), nr.asarray(host.reshape(1)), nr.asarray(host.reshape(1, 1)),
            x[::-2][1:2], x[None, 4]]


@pytest.mark.parametrize("dtype", list(VALUES))
def test_conversions_match_numpy_and_the_python_path(monkeypatch, dtype):
    for value in VALUES[dtype]:
        host = np.array(value).astype(dtype)
        for x in one_element_arrays(host):
            pairs = [(lambda: x.item(), lambda: ndarray._py_item(x)),
                     (lambda: float(x), lambda: ndarray._py___float__(x)),
                     (lambda: int(x), lambda: ndarray._py___int__(x)),
                     (lambda: bool(x), lambda: ndarray._py___bool__(x))]
            for fast, slow in pairs:
                expected = outcome(slow)
                with monkeypatch.context() as m:  # the fast path alone answers these
                    for name in ("_py_item", "_py___float__", "_py___int__", "_py___bool__"):
                        m.setattr(ndarray, name, None)
                    assert outcome(fast) == expected, (dtype, value, x.shape)
            item = x.item()
            assert type(item) is type(host.item())
            assert item == host.item() or (math.isnan(item) and math.isnan(host.item()))


def test_other_arrays_take_the_python_path():
    for x in [nr.asarray(np.array([1 + 2j], np.complex64)), nr.asarray(np.zeros(3, np.float32)),
              nr.asarray(np.zeros((0,), np.int32)), nr.astype(nr.asarray(np.float32(1.5)), nr.bfloat16)]:
        for fast, slow in [(lambda: x.item(), lambda: ndarray._py_item(x)),
                           (lambda: float(x), lambda: ndarray._py___float__(x)),
                           (lambda: int(x), lambda: ndarray._py___int__(x)),
                           (lambda: bool(x), lambda: ndarray._py___bool__(x))]:
            assert outcome(fast) == outcome(slow)
    m = nr.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert m.item(4) == 4 and m.item(1, 2) == 5 and type(m.item(0)) is int
    assert outcome(lambda: m.item()) == outcome(lambda: ndarray._py_item(m))


def test_pending_work_comes_first():
    x = nr.asarray(np.zeros(4, np.float32))
    for i in range(50):
        x[1:2] = float(i)
    assert float(x[1]) == 49.0 and x[1:2].item() == 49.0 and int(x[1]) == 49 and bool(x[1])
